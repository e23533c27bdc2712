/*
 * sefcontext_compile - compile a file_contexts file into its binary form
 *
 * SYNOPSIS
 *     sefcontext_compile [-iINV] [-F version] [-o out_file] [-p policy_file] fc_file
 *
 * DESCRIPTION
 *     Reads the text file_contexts(5) file fc_file and writes
 *     fc_file.bin, the precompiled form the library loads instead of the
 *     text when it is at least as new: the specifications with their
 *     regular expressions compiled by PCRE2, so that selabel_open(3) does
 *     not compile them again.
 *
 * OPTIONS
 *     -o out_file
 *         Write out_file instead of fc_file.bin.
 *     -p policy_file
 *         Check every context against this binary policy first.
 *     -r
 *         Leave the compiled regular expressions out (they are specific to
 *         an architecture; the library then compiles them when loading).
 *     -i
 *         Print the regular expression library's version and the
 *         architecture identifier ("8-8-el" on x86_64), and exit.
 *     -V
 *         Print the binary format version written, and exit.
 *     -F version
 *         Write format 5 (read by libselinux 2.7 to 3.7) or 6 (read by
 *         libselinux 3.8 and later).  The default is the format of the
 *         release the library was built for (meson -Dcompat): 5 for 3.4,
 *         6 for 3.8 and 3.11, written byte for byte as that release's
 *         sefcontext_compile writes it.
 *     -I
 *         Write the index image only (see INDEX), not fc_file.bin; with
 *         -o, to out_file.
 *     -N
 *         Do not write the index image.
 *
 * INDEX
 *     Unless -o or -N is given, sefcontext_compile also writes the index
 *     image of the file_contexts that fc_file belongs to (fc_file, or the
 *     base file of a file_contexts.homedirs or file_contexts.local):
 *     base.idx, beside it, readable by everyone.  It holds the whole
 *     index selabel_open(3) would otherwise build (the specifications of
 *     base, its .homedirs and .local, the exact-path table, the trie of
 *     prefixes and its automata), with the state of each of those files;
 *     the library maps it, with no file read or regular expression
 *     compiled, as long as none of those files has changed since, and
 *     reads the files otherwise.  An index image changes no answer (the
 *     library checks every part of it before use) and needs no particular
 *     PCRE2.  When the files cannot be indexed (they do not load, or
 *     loading them prints a message), no image is written, an older one
 *     is removed and a warning is printed; the exit status is that of the
 *     .bin (with -I: 1).  Each run indexes the whole set again, so the
 *     image is fresh after the last of the runs libsemanage makes on a
 *     policy change.
 *
 * EXIT STATUS
 *     0
 *         The file was written (or the information printed).
 *     1
 *         Wrong arguments, or a file could not be read or written.
 *     255
 *         fc_file does not parse, or a context is invalid.
 *
 * SEE ALSO
 *     file_contexts(5), selabel_open(3), matchpathcon(8)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <sepol/sepol.h>

#include "label/file/file.h"
#include "label/file/release.h"
#include "label/internal.h"

static const char *policy_file;

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-iINV] [-F version] [-o out_file] [-p policy_file] "
		"fc_file\n"
		"Where:\n\t"
		"-o       Optional file name of the PCRE formatted binary\n\t"
		"         file to be output. If not specified the default\n\t"
		"         will be fc_file with the .bin suffix appended.\n\t"
		"-p       Optional binary policy file that will be used to\n\t"
		"         validate contexts defined in the fc_file.\n\t"
		"-r       Omit precompiled regular expressions from the output.\n\t"
		"         (PCRE2 only. Compiled PCRE2 regular expressions are\n\t"
		"         not portable across architectures. Use this flag\n\t"
		"         if you know that you build for an incompatible\n\t"
		"         architecture to save space. When linked against\n\t"
		"         PCRE1 this flag is ignored.)\n\t"
		"-i       Print regular expression info end exit. That is, back\n\t"
		"         end version and architecture identifier.\n\t"
		"         Arch identifier format (PCRE2):\n\t"
		"         <pointer width>-<size type width>-<endianness>, e.g.,\n\t"
		"         \"8-8-el\" for x86_64.\n\t"
		"-V       Print binary output format version and exit.\n\t"
		"%s"
		"-I       Write the index image (base.idx) only.\n\t"
		"-N       Do not write the index image.\n\t"
		"fc_file  The text based file contexts file to be processed.\n",
		prog,
		rel_bin_version() == 6
		    ? "-F       Binary output format version: 5 (read by\n\t"
		      "         libselinux 2.7 to 3.7) or 6 (the default,\n\t"
		      "         big-endian, read by libselinux 3.8 and later).\n\t"
		    : "-F       Binary output format version: 5 (the default, read\n\t"
		      "         by libselinux 2.7 to 3.7) or 6 (big-endian, read by\n\t"
		      "         libselinux 3.8 and later).\n\t");
	exit(EXIT_FAILURE);
}

static int check_context(const char *ctx)
{
	return sepol_check_context(ctx) < 0 ? -1 : 0;
}

/* The index image of the file_contexts in belongs to (see INDEX), to
 * out (NULL: beside it). */
static int write_index(const char *prog, const char *in, const char *out)
{
	static const char *const sfx[] = { ".homedirs", ".local" };
	size_t n = strlen(in);
	char *base = strdup(in);
	const char *why;
	int r;

	if (!base)
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		size_t k = strlen(sfx[i]);

		if (n > k && !strcmp(in + n - k, sfx[i]))
			base[n - k] = '\0';
	}
	r = lbl_fc_write_index(base, out, &why);
	if (r < 0)
		fprintf(stderr, "%s: warning: no index image of %s: %s%s%s\n",
			prog, base, why ? why : "", why ? ": " : "",
			strerror(-r));
	free(base);
	return r;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *in;
	char *def = NULL;
	bool no_regex = false, index_only = false, no_index = false;
	/* The format of the release the library replaces (-Dcompat). */
	int version = rel_bin_version();
	char *end;
	const char *what;
	struct stat st;
	int c, r, stage;

	if (argc < 2)
		usage(argv[0]);
	while ((c = getopt(argc, argv, "o:p:riVF:IN")) != -1) {
		switch (c) {
		case 'I':
			index_only = true;
			break;
		case 'N':
			no_index = true;
			break;
		case 'F':
			/* Not an option of the reference's tool (3.4 writes 5
			 * only, 3.8 and later 6 only). */
			errno = 0;
			version = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end ||
			    (version != 5 && version != 6)) {
				fprintf(stderr,
					"%s: unsupported format "
					"version %s (5 or 6)\n",
					argv[0], optarg);
				return EXIT_FAILURE;
			}
			break;
		case 'V':
			/* As 3.8's tool says it: the version it writes. */
			printf("Compiled fcontext format version %d\n",
			       version);
			return EXIT_SUCCESS;
		case 'o':
			out = optarg;
			break;
		case 'p':
			policy_file = optarg;
			break;
		case 'r':
			no_regex = true;
			break;
		case 'i': {
			char ver[64];

			pcre2_config(PCRE2_CONFIG_VERSION, ver);
			printf("%s (%zu-%zu-%s)\n", ver, sizeof(void *),
			       sizeof(size_t),
			       __BYTE_ORDER == __LITTLE_ENDIAN ? "el" : "eb");
			return EXIT_SUCCESS;
		}
		default:
			usage(argv[0]);
		}
	}
	if (optind >= argc)
		usage(argv[0]);
	in = argv[optind];
	if (stat(in, &st) < 0) {
		fprintf(stderr, "%s: could not stat: %s: %s\n", argv[0], in,
			strerror(errno));
		return EXIT_FAILURE;
	}
	if (policy_file) {
		FILE *pf = fopen(policy_file, "re");

		if (!pf) {
			fprintf(stderr, "%s: failed to open %s: %s\n", argv[0],
				policy_file, strerror(errno));
			return EXIT_FAILURE;
		}
		if (sepol_set_policydb_from_file(pf) < 0) {
			fprintf(stderr, "%s: failed to load policy from %s\n",
				argv[0], policy_file);
			fclose(pf);
			return EXIT_FAILURE;
		}
		fclose(pf);
	}
	if (index_only)
		return write_index(argv[0], in, out) < 0 ? EXIT_FAILURE :
							   EXIT_SUCCESS;
	if (!out) {
		if (asprintf(&def, "%s.bin", in) < 0)
			return EXIT_FAILURE;
		out = def;
	} else {
		no_index = true;
	}
	r = lbl_fc_compile(in, out, version, no_regex,
			   policy_file ? check_context : NULL, &stage, &what);
	/* Debian's exit status: 255 when the input does not parse or the
	 * output cannot be written, its messages naming the step. */
	if (r < 0 && stage == LBL_FC_READ)
		fprintf(stderr, "%s: process_file failed\n", argv[0]);
	else if (r < 0 && !strcmp(what, "rename"))
		fprintf(stderr, "%s: rename %sXXXXXX -> %s failed: %s\n",
			argv[0], out, out, strerror(-r));
	else if (r < 0)
		fprintf(stderr, "%s: %s %s failed: %s\n", argv[0], what, out,
			strerror(-r));
	free(def);
	if (r >= 0 && !no_index)
		write_index(argv[0], in, NULL);
	return r < 0 ? 255 : EXIT_SUCCESS;
}
