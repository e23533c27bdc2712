/*
 * matchpathcon - print the file_contexts label of paths
 *
 * SYNOPSIS
 *     matchpathcon [-V] [-N] [-n] [-m type] [-f file_contexts_file] [-p prefix] [-P policy_root_path] filepath...
 *
 * DESCRIPTION
 *     Prints, for each filepath, the path, a tab and the context the
 *     policy's file_contexts(5) gives it (matchpathcon(3)), or <<none>>
 *     when the policy says the file is not to be labelled or no spec
 *     matches it (an answer, not an error).  The file need
 *     not exist; when it does, its type (file, directory, link ...) takes
 *     part in the match.  A trailing slash is ignored.
 *
 * OPTIONS
 *     -V
 *         Verify: compare each file's label with the one file_contexts gives
 *         and print "PATH verified." or "PATH has context X, should be Y"
 *         (Y is <<none>> for a file that should have no label).  With -f,
 *         the file verified against is that file; Debian's verifies
 *         against the configured policy's and prints the -f file's label.
 *     -N
 *         Do not translate contexts through mcstrans (raw contexts).
 *     -n
 *         Print only the context (or <<none>>), without the path.
 *     -m type
 *         Match as the file type named by the first letter of type: b
 *         (block device), c (character device), d (directory), p (pipe), l
 *         (link), s (socket) or f (regular file), whatever the file is.
 *     -f file_contexts_file
 *         Read this file instead of the policy's file_contexts (with its
 *         .homedirs and .local companions).
 *     -p prefix
 *         Accepted for compatibility and ignored, with a warning.
 *     -P policy_root_path
 *         Use the policy under this directory instead of the configured one
 *         (selinux_set_policy_root(3)).
 *     -q
 *         With -V, print nothing: the exit status alone answers.
 *     -x
 *         Explain each label (an extension of this implementation,
 *         selabel_lookup_explain(3)): after the "filepath<TAB>context"
 *         line, the spec of file_contexts that gave it, with its file and
 *         line, the .subs or .subs_dist alias that rewrote the path, the
 *         file type the spec applies to, each other spec that matched and
 *         why it lost, and the specs that match a file of another type.
 *         Contexts are printed raw.  -V, -n and -N do not apply.  The
 *         usage message stays Debian's, which has no -x.
 *
 * EXAMPLES
 *     Which rule gives httpd.conf its label, and which did it override:
 *         matchpathcon -x /etc/httpd/conf/httpd.conf
 *
 * EXIT STATUS
 *     0
 *         Every label was printed (or verified, or explained).
 *     1
 *         Wrong arguments, file_contexts could not be read, a lookup failed,
 *         or with -V a label differs.
 *
 * SEE ALSO
 *     file_contexts(5), restorecon(8), selabel_lookup(8), matchpathcon(3)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <selinux/selinux.h>

#include "explain.h"
#include "util.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static void usage(const char *prog)
{
	util_usage(prog,
		   "[-V] [-N] [-n] [-m type] [-f file_contexts_file] "
		   "[-p prefix] [-P policy_root_path] filepath...",
		   NULL, 1);
}

static int print_label(const char *path, int header, mode_t mode)
{
	char *con;

	/* ENOENT is an answer, not a failure: the path matches no spec or
	 * one that says <<none>>.  Debian's prints <<none>> for it in every
	 * form (-n, and after "should be " with -V) and exits 0. */
	if (matchpathcon(path, mode, &con) < 0) {
		if (errno != ENOENT) {
			fprintf(stderr, "matchpathcon(%s) failed: %s\n", path,
				strerror(errno));
			return 1;
		}
		con = NULL;
	}
	if (header)
		printf("%s\t%s\n", path, con ? con : "<<none>>");
	else
		printf("%s\n", con ? con : "<<none>>");
	freecon(con);
	return 0;
}

/* -x: the explanation of path's label on h; 0, or 1 if none could be
 * made. */
static int explain_label(struct selabel_handle *h, const char *path,
			 mode_t mode)
{
	struct selabel_explanation *e;

	if (util_explain(h, &e, path, (int)mode) < 0) {
		fprintf(stderr, "selabel_lookup_explain(%s) failed: %s\n",
			path, strerror(errno));
		return 1;
	}
	util_explain_print(stdout, e);
	util_explanation_free(e);
	return 0;
}

static void open_failed(void)
{
	fprintf(stderr, "Error while opening file contexts database: %s\n",
		strerror(errno));
	exit(-1);
}

int main(int argc, char **argv)
{
	int header = 1, verify = 0, notrans = 0, quiet = 0, error = 0, c;
	int inited = 0, explain = 0;
	struct selabel_handle *xh = NULL;
	mode_t file_mode = 0;
	const char *file = NULL;

	if (argc < 2)
		usage(argv[0]);
	while ((c = getopt(argc, argv, "m:Nnf:P:p:Vqx")) != -1) {
		switch (c) {
		case 'n':
			header = 0;
			break;
		case 'm':
			/* The first letter, as Debian's reads it. */
			file_mode = util_file_type(optarg);
			if (!file_mode) {
				fprintf(stderr, "%s: mode %s is invalid\n",
					argv[0], optarg);
				exit(1);
			}
			break;
		case 'N':
			notrans = 1;
			set_matchpathcon_flags(MATCHPATHCON_NOTRANS);
			break;
		case 'f':
			file = optarg;
			break;
		case 'P':
			if (selinux_set_policy_root(optarg) < 0) {
				fprintf(stderr,
					"Error setting policy root  %s:  %s\n",
					optarg,
					errno ? strerror(errno) : "invalid");
				exit(1);
			}
			break;
		case 'p':
			/* Deprecated; Debian's 3.4 warns and ignores it. */
			fprintf(stderr,
				"Warning: using %s -p is deprecated\n",
				argv[0]);
			break;
		case 'V':
			verify = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'x':
			explain = 1;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (explain && !util_can_explain()) {
		fprintf(stderr, "%s: -x needs selabel_lookup_explain(), which "
				"this libselinux.so.1 does not have\n",
			argv[0]);
		exit(1);
	}
	if (explain) {
		/* the handle matchpathcon(3) would open: file, or the
		 * policy's file_contexts */
		struct selinux_opt opt = { SELABEL_OPT_PATH, file };

		xh = selabel_open(SELABEL_CTX_FILE, &opt, 1);
		if (!xh)
			open_failed();
		inited = 1;
	} else if (file) {
		if (matchpathcon_init_prefix(file, NULL) < 0)
			open_failed();
		inited = 1;
	}
	for (int i = optind; i < argc; i++) {
		char *path = argv[i];
		size_t len = strlen(path);
		struct stat st;
		mode_t mode = 0;

		if (!inited) {
			if (matchpathcon_init_prefix(NULL, NULL) < 0)
				open_failed();
			inited = 1;
		}
		if (len > 1 && path[len - 1] == '/')
			path[len - 1] = '\0';
		if (lstat(path, &st) == 0)
			mode = st.st_mode;
		if (file_mode)
			mode = file_mode;
		if (explain) {
			error |= explain_label(xh, path, mode);
			continue;
		}
		if (!verify) {
			error |= print_label(path, header, mode);
			continue;
		}
		int rc = selinux_file_context_verify(path, mode);

		if (quiet) {
			if (rc == 1)
				continue;
			exit(1);
		}
		if (rc == -1) {
			printf("%s error: %s\n", path, strerror(errno));
			exit(1);
		} else if (rc == 1) {
			printf("%s verified.\n", path);
		} else {
			char *con;

			error = 1;
			rc = notrans ? lgetfilecon_raw(path, &con) :
				       lgetfilecon(path, &con);
			if (rc >= 0) {
				printf("%s has context %s, should be ", path,
				       con);
				freecon(con);
			} else {
				printf("actual context unknown: %s, should be ",
				       strerror(errno));
			}
			print_label(path, 0, mode);
		}
	}
	if (xh)
		selabel_close(xh);
	else
		matchpathcon_fini();
	return error;
}
