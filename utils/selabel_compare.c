/*
 * selabel_compare - compare the specifications of two labelling files
 *
 * SYNOPSIS
 *     selabel_compare [-v] [-b backend] file1 file2
 *
 * DESCRIPTION
 *     Opens file1 and file2 with the same backend and compares their
 *     specifications with selabel_cmp(3), printing "file1 is a subset of
 *     file2", "equal to", "a superset of" or "incomparable with".  Only the
 *     files given are read (no .homedirs or .local).
 *
 * OPTIONS
 *     -v
 *         Check each context against the loaded policy.
 *     -b backend
 *         file (the default), media, x or db.
 *
 * EXIT STATUS
 *     0
 *         The files are equal.
 *     1
 *         They differ.
 *     2
 *         Wrong arguments, or a file could not be opened.
 *
 * SEE ALSO
 *     selabel_lookup(8), selabel_cmp(3)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

#include "util.h"

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-v] [-b backend] file1 file2\n\n"
		"Where:\n\t"
		"-v  Validate entries against loaded policy.\n\t"
		"-b  The backend - \"file\" (default), \"media\", \"x\" or "
		"\"db\"\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	static const char *const what[] = {
		[SELABEL_SUBSET] = "a subset of",
		[SELABEL_EQUAL] = "equal to",
		[SELABEL_SUPERSET] = "a superset of",
		[SELABEL_INCOMPARABLE] = "incomparable with",
	};
	int backend = SELABEL_CTX_FILE, c;
	struct selinux_opt opts[3] = { { SELABEL_OPT_VALIDATE, NULL },
				       { SELABEL_OPT_PATH, NULL },
				       { SELABEL_OPT_BASEONLY, (char *)1 } };
	struct selabel_handle *h1, *h2;
	enum selabel_cmp_result r;

	while ((c = getopt(argc, argv, "vb:")) != -1) {
		switch (c) {
		case 'v':
			opts[0].value = (char *)1;
			break;
		case 'b':
			/* The four backends built; no Android ones. */
			backend = util_selabel_backend(optarg);
			if (backend < 0 || backend > SELABEL_CTX_DB)
				usage(argv[0]);
			break;
		default:
			usage(argv[0]);
		}
	}
	if (argc - optind != 2)
		usage(argv[0]);
	opts[1].value = argv[optind];
	h1 = selabel_open(backend, opts, 3);
	if (!h1) {
		fprintf(stderr, "%s: cannot open %s: %s\n", argv[0],
			argv[optind], strerror(errno));
		return 2;
	}
	opts[1].value = argv[optind + 1];
	h2 = selabel_open(backend, opts, 3);
	if (!h2) {
		fprintf(stderr, "%s: cannot open %s: %s\n", argv[0],
			argv[optind + 1], strerror(errno));
		selabel_close(h1);
		return 2;
	}
	r = selabel_cmp(h1, h2);
	printf("%s is %s %s\n", argv[optind], what[r], argv[optind + 1]);
	selabel_close(h1);
	selabel_close(h2);
	return r == SELABEL_EQUAL ? 0 : 1;
}
