/*
 * selabel_lookup - look a key up in a labelling backend
 *
 * SYNOPSIS
 *     selabel_lookup -b backend [-v] [-r] -k key [-t type] [-f file]
 *
 * DESCRIPTION
 *     Opens a selabel_open(3) handle of the backend and prints the context
 *     it gives key and type: "Default context: CONTEXT".
 *
 * OPTIONS
 *     -b backend
 *         file (file_contexts(5): key a path, type a mode number), media
 *         (media(5): key a media name), x (x_contexts(5): type 1 to 7, the
 *         SELABEL_X_* values), db (sepgsql_contexts(5): type 1 to 12), or
 *         prop and service, which this library does not build.
 *     -v
 *         Check each context of the file against the loaded policy.
 *     -r
 *         Use selabel_lookup_raw(3): no mcstrans translation.
 *     -k key
 *         What to look up.
 *     -t type
 *         The object type, a number; 0 by default.
 *     -f file
 *         Read this file instead of the policy's.
 *     -x
 *         With the file backend, explain the answer (an extension of this
 *         implementation, selabel_lookup_explain(3)): print
 *         "key<TAB>context" and under it the spec that gave the context,
 *         with its file and line, the .subs alias applied, the specs it
 *         overrode and why, and those matching another file type; exit
 *         status 0 whether or not there is a context.  Contexts are
 *         printed raw.  The usage message stays Debian's, which has no -x.
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
 *         selabel_lookup -b file -k /run -t 0
 *         selabel_lookup -r -b x -t 4 -k X11:ButtonPress
 *         selabel_lookup -x -b file -k /etc/shadow -t 32768
 *
 * SEE ALSO
 *     selabel_lookup_best_match(8), matchpathcon(8), selabel_lookup(3)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

#include "explain.h"
#include "util.h"

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s -b backend [-v] [-r] -k key [-t type] [-f file]\n\n"
		"Where:\n\t"
		"-b  The backend - \"file\", \"media\", \"x\", \"db\" or "
		"\"prop\"\n\t"
		"-v  Validate entries against loaded policy.\n\t"
		"-r  Use \"raw\" function.\n\t"
		"-k  Lookup key - Depends on backend.\n\t"
		"-t  Lookup type - Optional as depends on backend.\n\t"
		"-f  Optional file containing the specs (defaults to\n\t"
		"    those used by loaded policy).\n\n"
		"Examples:\n\t"
		"%s -v -b file -k /run -t 0\n\t"
		"   lookup with validation against the loaded policy, the\n\t"
		"   \"file\" backend for path \"/run\" with mode = 0\n\t"
		"%s -r -b x -t 4 -k X11:ButtonPress\n\t"
		"   lookup_raw the \"X\" backend for type SELABEL_X_EVENT\n\t"
		"   using key \"X11:ButtonPress\"\n\n",
		prog, prog, prog);
	exit(1);
}

int main(int argc, char **argv)
{
	int raw = 0, type = 0, backend = SELABEL_CTX_FILE, explain = 0, c, rc;
	const char *file = NULL, *key = NULL;
	struct selinux_opt opts[2] = { { SELABEL_OPT_VALIDATE, NULL },
				       { SELABEL_OPT_PATH, NULL } };
	struct selabel_handle *h;
	char *con = NULL;

	if (argc < 3)
		usage(argv[0]);
	while ((c = getopt(argc, argv, "b:f:vrk:t:x")) != -1) {
		switch (c) {
		case 'b':
			backend = util_selabel_backend(optarg);
			if (backend < 0) {
				fprintf(stderr, "Unknown backend: %s\n",
					optarg);
				usage(argv[0]);
			}
			break;
		case 'f':
			file = optarg;
			break;
		case 'v':
			opts[0].value = (char *)1;
			break;
		case 'r':
			raw = 1;
			break;
		case 'k':
			key = optarg;
			break;
		case 't':
			type = atoi(optarg);
			break;
		case 'x':
			explain = 1;
			break;
		default:
			usage(argv[0]);
		}
	}
	opts[1].value = file;
	h = util_selabel_open(backend, opts, 2);
	if (!h)
		return -1;
	if (explain) {
		struct selabel_explanation *e;

		rc = util_explain(h, &e, key, type);
		selabel_close(h);
		if (rc < 0) {
			fprintf(stderr, "selabel_lookup_explain ERROR: %s\n",
				errno == ENOSYS ?
				"this libselinux.so.1 does not have it" :
				strerror(errno));
			return -1;
		}
		util_explain_print(stdout, e);
		util_explanation_free(e);
		return 0;
	}
	errno = 0;
	rc = raw ? selabel_lookup_raw(h, &con, key, type) :
		   selabel_lookup(h, &con, key, type);
	selabel_close(h);
	if (rc) {
		switch (errno) {
		case ENOENT:
			fprintf(stderr, "ERROR: selabel_lookup failed to find a "
					"valid context.\n");
			break;
		case EINVAL:
			fprintf(stderr, "ERROR: selabel_lookup failed to "
					"validate context, or key / type are "
					"invalid.\n");
			break;
		default:
			fprintf(stderr, "selabel_lookup ERROR: %s\n",
				strerror(errno));
		}
		return -1;
	}
	printf("Default context: %s\n", con);
	freecon(con);
	return 0;
}
