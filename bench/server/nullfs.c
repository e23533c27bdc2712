/*
 * nullfs: the floor under bench/server/run.sh's part 2.  A FUSE file
 * system with one transaction file, "access", served exactly as
 * selinuxfsd serves its own (libfuse3's low-level API, the same
 * multi-threaded loop of 2 workers, direct_io, noflush, the same entry
 * and attribute timeouts, a handle per open), but which decides
 * nothing: a write is taken and forgotten, a read returns a fixed
 * answer of the kernel's length.  sfsquery's "access" queries against
 * it cost the client, the kernel's FUSE round trips and libfuse, and
 * nothing else: what two clients gain over one here is what the
 * machine allows any FUSE server of this shape.
 *
 *   nullfs [-s] MOUNTPOINT	(foreground; -s: one thread)
 */
#define FUSE_USE_VERSION 312
#include <errno.h>
#include <fuse_lowlevel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WORKERS 2
#define INO_ACCESS 2
#define TIMEOUT 60.0

/* The length of a kernel's access answer of refpolicy. */
static const char answer[] = "7fffff 0 ffffffff 0 4 0\n";

static void fill(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_nlink = ino == FUSE_ROOT_ID ? 2 : 1;
	st->st_mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0555 : S_IFREG | 0666;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	if (parent != FUSE_ROOT_ID || strcmp(name, "access")) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = INO_ACCESS;
	e.attr_timeout = e.entry_timeout = TIMEOUT;
	fill(INO_ACCESS, &e.attr);
	fuse_reply_entry(req, &e);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino != FUSE_ROOT_ID && ino != INO_ACCESS) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill(ino, &st);
	fuse_reply_attr(req, &st, TIMEOUT);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	char *h;

	if (ino != INO_ACCESS) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	h = calloc(1, 1);
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fi->fh = (uintptr_t)h;
	fi->direct_io = 1;
	fi->noflush = 1;
	if (fuse_reply_open(req, fi) == -ENOENT)
		free(h);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)ino;
	(void)buf;
	(void)off;
	*(char *)(uintptr_t)fi->fh = 1;
	fuse_reply_write(req, size);
}

/* The handle's state: 0 opened, 1 written (an answer due), 2 answered. */
static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	char *state = (char *)(uintptr_t)fi->fh;
	size_t len = sizeof(answer) - 1;

	(void)ino;
	(void)off;
	if (*state == 0) {
		fuse_reply_err(req, EINVAL);
	} else if (*state == 2) {
		fuse_reply_buf(req, NULL, 0); /* sfsquery reads to EOF */
	} else {
		*state = 2;
		fuse_reply_buf(req, answer, len < size ? len : size);
	}
}

static void op_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	free((void *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops ops = {
	.lookup = op_lookup,
	.getattr = op_getattr,
	.open = op_open,
	.write = op_write,
	.read = op_read,
	.release = op_release,
};

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_session *se;
	struct fuse_loop_config *loop;
	int single = argc > 1 && !strcmp(argv[1], "-s"), r;

	if (argc != 2 + single) {
		fprintf(stderr, "usage: nullfs [-s] MOUNTPOINT\n");
		return 2;
	}
	if (fuse_opt_add_arg(&args, argv[0]) ||
	    fuse_opt_add_arg(&args, "-odefault_permissions,fsname=nullfs"))
		return 1;
	se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se) || fuse_session_mount(se, argv[1 + single])) {
		fuse_session_destroy(se);
		return 1;
	}
	if (single) {
		r = fuse_session_loop(se);
	} else {
		loop = fuse_loop_cfg_create();
		if (!loop)
			return 1;
		fuse_loop_cfg_set_idle_threads(loop, WORKERS);
		fuse_loop_cfg_set_max_threads(loop, WORKERS);
		r = fuse_session_loop_mt(se, loop);
		fuse_loop_cfg_destroy(loop);
	}
	fuse_session_unmount(se);
	fuse_remove_signal_handlers(se);
	fuse_session_destroy(se);
	fuse_opt_free_args(&args);
	return r < 0 ? 1 : 0;
}
