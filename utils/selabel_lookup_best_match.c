/*
 * selabel_lookup_best_match - print the best file_contexts match of a path and its links
 *
 * SYNOPSIS
 *     selabel_lookup_best_match [-v] [-r] -p path [-m mode] [-f file] [link...]
 *
 * DESCRIPTION
 *     Prints "Best match context: CONTEXT" for path, as
 *     selabel_lookup_best_match(3) chooses between path and the other names
 *     (links) of the same file: an exact match of the path when no link is
 *     given, else an exact match of a link, else the match with the longest
 *     fixed prefix.
 *
 * OPTIONS
 *     -v
 *         Check each context of the file against the loaded policy.
 *     -r
 *         Raw contexts (no mcstrans translation).
 *     -p path
 *         The path to look up.
 *     -m mode
 *         The file type named by the first letter: b, c, d, p, l, s or f.
 *     -f file
 *         Read this file_contexts file instead of the policy's.
 *
 * EXIT STATUS
 *     0
 *         The context was printed.
 *     1
 *         Wrong arguments.
 *     255
 *         The handle could not be opened, or nothing matched.
 *
 * EXAMPLES
 *         selabel_lookup_best_match -p /dev/initctl /run/systemd/initctl/fifo
 *
 * SEE ALSO
 *     selabel_lookup(8), file_contexts(5), selabel_lookup_best_match(3)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

#include "util.h"

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-v] [-r] -p path [-m mode] [-f file] [link...]\n\n"
		"Where:\n\t"
		"-v     Validate file_contxts entries against loaded policy.\n\t"
		"-r     Use \"raw\" function.\n\t"
		"-p     Path to check for best match using the link(s) provided.\n\t"
		"-m     Optional mode (b, c, d, p, l, s or f) Defaults to 0.\n\t"
		"-f     Optional file containing the specs (defaults to\n\t"
		"       those used by loaded policy).\n\t"
		"link   Zero or more links to check against, the order of\n\t"
		"       precedence for best match is:\n\t\t"
		"   1) An exact match for the real path (if no links), or\n\t\t"
		"   2) An exact match for any of the links (aliases), or\n\t\t"
		"   3) The longest fixed prefix match.\n\n"
		"Example:\n\t"
		"%s -p /dev/initctl /run/systemd/initctl/fifo\n\t"
		"   Find best matching context for the specified path using one link.\n\n",
		prog, prog);
	exit(1);
}

int main(int argc, char **argv)
{
	int raw = 0, c, rc;
	mode_t mode = 0;
	const char *path = NULL, *file = NULL;
	const char **links = NULL;
	struct selinux_opt opts[2] = { { SELABEL_OPT_VALIDATE, NULL },
				       { SELABEL_OPT_PATH, NULL } };
	struct selabel_handle *h;
	char *con = NULL;

	if (argc < 3)
		usage(argv[0]);
	while ((c = getopt(argc, argv, "vrp:m:f:")) != -1) {
		switch (c) {
		case 'v':
			opts[0].value = (char *)1;
			break;
		case 'r':
			raw = 1;
			break;
		case 'p':
			path = optarg;
			break;
		case 'm':
			mode = util_file_type(optarg);
			break;
		case 'f':
			file = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind < argc) {
		int n = argc - optind;

		links = calloc(n + 1, sizeof(*links));
		if (!links) {
			perror("calloc");
			return -1;
		}
		for (int i = 0; i < n; i++)
			links[i] = argv[optind + i];
	}
	opts[1].value = file;
	/*
	 * analyzer: false positive (clang unix.Malloc): links lives until exit,
	 * when the process ends.
	 */
	h = util_selabel_open(SELABEL_CTX_FILE, opts, 2);
	if (!h)
		return -1;
	rc = raw ? selabel_lookup_best_match_raw(h, &con, path, links, mode) :
		   selabel_lookup_best_match(h, &con, path, links, mode);
	selabel_close(h);
	free(links);
	if (rc) {
		if (errno == ENOENT)
			fprintf(stderr, "ERROR: selabel_lookup_best_match "
					"failed to find a valid context.\n");
		else
			fprintf(stderr, "ERROR: selabel_lookup_best_match "
					"failed: %s\n", strerror(errno));
		return -1;
	}
	printf("Best match context: %s\n", con);
	freecon(con);
	return 0;
}
