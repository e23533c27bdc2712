/*
 * selabel_partial_match - tell whether a file_contexts spec can match a path or a path below it
 *
 * SYNOPSIS
 *     selabel_partial_match [-v] -p <path> [-f file]
 *
 * DESCRIPTION
 *     Prints "Match or Partial match: TRUE" when some specification of
 *     file_contexts(5) matches path or could match a path below it
 *     (selabel_partial_match(3)), "FALSE" otherwise.
 *
 * OPTIONS
 *     -v
 *         Check each context of the file against the loaded policy.
 *     -p path
 *         The path to check.
 *     -f file
 *         Read this file_contexts file instead of the policy's.
 *
 * EXIT STATUS
 *     0
 *         FALSE was printed.
 *     1
 *         TRUE was printed, or the arguments were wrong (the usage is
 *         printed).
 *     255
 *         The handle could not be opened.
 *
 * SEE ALSO
 *     selabel_lookup(8), selabel_partial_match(3)
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
		"usage:  %s [-v] -p <path> [-f file]\n\n"
		"Where:\n\t"
		"-v  Validate file_contxts entries against loaded policy.\n\t"
		"-p  Path to check if a match or partial match is possible\n\t"
		"    against a regex entry in the file_contexts file.\n\t"
		"-f  Optional file_contexts file (defaults to current policy).\n\n"
		"Example:\n\t"
		"%s -p /sys/devices/system/cpu/online\n\t"
		"   Check if a match or partial match is possible against\n\t"
		"   the path \"/sys/devices/system/cpu/online\", returning\n\t"
		"   TRUE or FALSE.\n\n",
		prog, prog);
	exit(1);
}

int main(int argc, char **argv)
{
	int c;
	bool r;
	const char *path = NULL, *file = NULL;
	struct selinux_opt opts[2] = { { SELABEL_OPT_VALIDATE, NULL },
				       { SELABEL_OPT_PATH, NULL } };
	struct selabel_handle *h;

	if (argc < 2)
		usage(argv[0]);
	while ((c = getopt(argc, argv, "f:vp:")) != -1) {
		switch (c) {
		case 'v':
			opts[0].value = (char *)1;
			break;
		case 'p':
			path = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	opts[1].value = file;
	h = util_selabel_open(SELABEL_CTX_FILE, opts, 2);
	if (!h)
		return -1;
	/*
	 * Debian's opens the handle first, then crashes on a missing -p;
	 * ours prints the usage there instead.
	 */
	if (!path) {
		selabel_close(h);
		usage(argv[0]);
	}
	r = selabel_partial_match(h, path);
	printf("Match or Partial match: %s\n", r ? "TRUE" : "FALSE");
	selabel_close(h);
	/* Debian's exits 1 for TRUE and 0 for FALSE. */
	return r;
}
