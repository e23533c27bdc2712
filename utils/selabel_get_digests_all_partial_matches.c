/*
 * selabel_get_digests_all_partial_matches - compare a directory's stored file_contexts digest with the current one
 *
 * SYNOPSIS
 *     selabel_get_digests_all_partial_matches [-vr] [-f file] path
 *
 * DESCRIPTION
 *     restorecon(8) stores in a directory's security.sehash attribute a
 *     SHA-1 digest of the file_contexts specifications that can match the
 *     directory or files below it, and skips directories whose digest has
 *     not changed.  This program computes that digest anew for path (the
 *     specs' regular expressions, modes and contexts) and compares it with
 *     the stored one (selabel_get_digests_all_partial_matches(3)), printing
 *     both and whether they match.
 *
 * OPTIONS
 *     -v
 *         Check each context of the file against the loaded policy.
 *     -r
 *         Descend into directories below path.
 *     -f file
 *         Read this file_contexts file instead of the policy's.
 *
 * EXIT STATUS
 *     0
 *         Every stored digest matches.
 *     1
 *         Wrong arguments, or a stored digest differs from the computed one.
 *     255
 *         The handle could not be opened or path could not be read.
 *
 * SEE ALSO
 *     restorecon(8), selinux_restorecon(3), selabel_get_digests_all_partial_matches(3)
 */
#include <errno.h>
#include <fts.h>
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
		"usage:  %s [-vr] [-f file] path\n\n"
		"Where:\n\t"
		"-v  Validate file_contxts entries against loaded policy.\n\t"
		"-r  Recursively descend directories.\n\t"
		"-f  Optional file_contexts file (defaults to current policy).\n\t"
		"path  Path to check current SHA1 digest against file_contexts entries.\n\n"
		"This will check the directory selinux.sehash SHA1 digest for <path> against\n"
		"a newly generated digest based on the file_context entries for that node\n"
		"(using the regx, mode and path entries).\n",
		prog);
	exit(1);
}

static void hex(const uint8_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", d[i]);
}

int main(int argc, char **argv)
{
	int recurse = 0, c, status = 0;
	struct selinux_opt opts[2] = { { SELABEL_OPT_VALIDATE, NULL },
				       { SELABEL_OPT_PATH, NULL } };
	struct selabel_handle *h;
	char *paths[2] = { NULL, NULL };
	FTS *fts;
	FTSENT *e;

	if (argc < 2)
		usage(argv[0]);
	while ((c = getopt(argc, argv, "vrf:")) != -1) {
		switch (c) {
		case 'v':
			opts[0].value = (char *)1;
			break;
		case 'r':
			recurse = 1;
			break;
		case 'f':
			opts[1].value = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	/* Debian's says so and exits 255, with no usage. */
	if (optind >= argc) {
		fprintf(stderr, "No pathname specified\n");
		return -1;
	}
	paths[0] = argv[optind];
	h = util_selabel_open(SELABEL_CTX_FILE, opts, 2);
	if (!h)
		return -1;
	fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	if (!fts) {
		fprintf(stderr, "ERROR: fts error on %s: %s\n", paths[0],
			strerror(errno));
		selabel_close(h);
		return -1;
	}
	while ((e = fts_read(fts))) {
		uint8_t *calc = NULL, *xattr = NULL;
		size_t len = 0;
		bool same;

		if (e->fts_info != FTS_D)
			continue;
		same = selabel_get_digests_all_partial_matches(
			h, e->fts_path, &calc, &xattr, &len);
		if (same) {
			printf("SHA1 digest matches for: %s\n", e->fts_path);
		} else if (calc && xattr) {
			printf("The file_context entries for: %s\n",
			       e->fts_path);
			printf("generated SHA1 digest: ");
			hex(calc, len);
			printf("\nhowever the stored digest is: ");
			hex(xattr, len);
			printf("\n");
			status = 1;
		} else if (calc) {
			printf("The file_context entries for: %s\n",
			       e->fts_path);
			printf("generated SHA1 digest: ");
			hex(calc, len);
			printf("\nhowever there is no selinux.sehash xattr entry.\n");
		} else if (xattr) {
			printf("There are no file_context entries for: %s\n"
			       "however the selinux.sehash xattr entry is: ",
			       e->fts_path);
			hex(xattr, len);
			printf("\n");
		}
		free(calc);
		free(xattr);
		if (!recurse)
			break;
	}
	fts_close(fts);
	selabel_close(h);
	return status;
}
