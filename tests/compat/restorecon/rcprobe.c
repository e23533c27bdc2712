/*
 * rcprobe: call selinux_restorecon directly, on whichever libselinux.so.1
 * the loader picks (Debian's, or ours through LD_LIBRARY_PATH).
 *
 *   rcprobe [-d] [-t N] [-e DIR]... [-r ROOT] [-x XFLAGS] SPECFILE FLAGS PATH
 *
 * Opens SPECFILE (with SELABEL_OPT_DIGEST when -d) and installs it (a
 * SPECFILE of "-" installs nothing: the library opens its default), then
 * runs selinux_restorecon(PATH, FLAGS) -- or selinux_restorecon_parallel
 * with -t, or selinux_restorecon_xattr(PATH, XFLAGS) with -x -- and
 * prints every log message, the result, errno and the skipped-error
 * count, so two runs can be compared line by line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

static int log_cb(int type, const char *fmt, ...)
{
	va_list ap;

	printf("log[%d] ", type);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	return 0;
}

int main(int argc, char **argv)
{
	const char *excl[16] = {0};
	const char *root = NULL;
	int nex = 0, opt, digest = 0, xattr = 0, r, e;
	long threads = -1;
	unsigned int xflags = 0;
	struct selabel_handle *h;

	while ((opt = getopt(argc, argv, "de:r:t:x:")) != -1) {
		switch (opt) {
		case 'd':
			digest = 1;
			break;
		case 'e':
			if (nex < 15)
				excl[nex++] = optarg;
			break;
		case 'r':
			root = optarg;
			break;
		case 't':
			threads = strtol(optarg, NULL, 0);
			break;
		case 'x':
			xattr = 1;
			xflags = strtoul(optarg, NULL, 0);
			break;
		default:
			return 2;
		}
	}
	if (argc - optind != 3)
		return 2;
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){.func_log = log_cb});
	if (!strcmp(argv[optind], "-")) {
		h = NULL;
	} else {
		struct selinux_opt opts[] = {
		    {SELABEL_OPT_PATH, argv[optind]},
		    {SELABEL_OPT_DIGEST, digest ? (char *)1 : NULL},
		};
		h = selabel_open(SELABEL_CTX_FILE, opts, 2);
		if (!h) {
			printf("selabel_open: %s\n", strerror(errno));
			return 1;
		}
		selinux_restorecon_set_sehandle(h);
	}
	if (nex)
		selinux_restorecon_set_exclude_list(excl);
	if (root && selinux_restorecon_set_alt_rootpath(root) < 0)
		printf("set_alt_rootpath: %s\n", strerror(errno));

	if (xattr) {
		struct dir_xattr **list = NULL;

		errno = 0;
		r = selinux_restorecon_xattr(argv[optind + 2], xflags, &list);
		e = errno;
		printf("xattr r=%d errno=%s\n", r, r ? strerror(e) : "-");
		for (struct dir_xattr *d = list ? *list : NULL, *n; d; d = n) {
			n = d->next;
			printf("%s %s %d\n", d->directory, d->digest,
			       (int)d->result);
			free(d->directory);
			free(d->digest);
			free(d);
		}
	} else {
		unsigned int flags = strtoul(argv[optind + 1], NULL, 0);

		errno = 0;
		if (threads >= 0)
			r = selinux_restorecon_parallel(argv[optind + 2], flags,
							(size_t)threads);
		else
			r = selinux_restorecon(argv[optind + 2], flags);
		e = errno;
		printf("r=%d errno=%s skipped=%lu\n", r, r ? strerror(e) : "-",
		       selinux_restorecon_get_skipped_errors());
	}
	fflush(stdout);
	if (h)
		selabel_close(h);
	return 0;
}
