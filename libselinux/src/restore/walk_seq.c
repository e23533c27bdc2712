/*
 * restore/walk_seq.c: the walk of one thread.  It visits the entries in
 * fts's order - a directory, then each of its entries in the order
 * readdir gives them, a subdirectory's whole tree before the next entry -
 * with fts's messages, so that they come in the order of the reference's
 * walk (fts_open with FTS_PHYSICAL | FTS_NOCHDIR, no comparison).  But
 * fts in that mode stats every entry by its full path, a walk of the path
 * from / each time; here a directory is held open while its entries are
 * handled, and they are stat'ed, and their labels read
 * (core_xattr_get_at), relative to it.  An explicit stack, not recursion:
 * a tree may be as deep as PATH_MAX allows.  Below SEQ_OPEN_DEPTH levels
 * a directory is closed once listed and its entries go by full path, so
 * that a deep tree does not hold a descriptor per level.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "walk.h"

#define SEQ_OPEN_DEPTH 64

struct seq_dir {
	DIR *dir;	  /* NULL: closed once listed */
	int fd;		  /* dirfd(dir), or -1: entries by full path */
	char *names;	  /* its entries, NUL-separated (rst_list_dir) */
	const char *next; /* the next of them */
	size_t left;	  /* how many are left */
	size_t len;	  /* its path's length, without a final '/' */
	dev_t dev;
	ino_t ino;
};

struct seq_walk {
	struct rst_walk *w;
	struct seq_dir *dirs; /* the stack: the directories being read */
	size_t n, cap;
	char *path; /* PATH_MAX bytes: the entry at hand's full path */
};

/*
 * A directory found (sw->path, st): whether to restore and enter it, as
 * the reference's walk decides on fts's FTS_D (and FTS_DC before it).
 */
static bool seq_dir_ok(struct seq_walk *sw, const struct stat *st)
{
	struct rst_walk *w = sw->w;
	const char *path = sw->path;

	for (size_t i = 0; i < sw->n; i++)
		if (sw->dirs[i].dev == st->st_dev &&
		    sw->dirs[i].ino == st->st_ino) {
			rst_log(SELINUX_ERROR, "Directory cycle on %s.\n",
				path);
			rst_fail(w, -ELOOP);
			return false;
		}
	return !rst_dir_left_out(w, path, st) && !rst_dir_digest_skip(w, path);
}

static void seq_leave(struct seq_dir *d)
{
	if (d->dir)
		closedir(d->dir);
	free(d->names);
}

/* Room on the stack for one more directory: false (the walk failed)
 * without it. */
static bool seq_grow(struct seq_walk *sw)
{
	size_t c = sw->cap ? 2 * sw->cap : 16;
	struct seq_dir *v;

	if (sw->n < sw->cap)
		return true;
	v = reallocarray(sw->dirs, c, sizeof(*v));
	if (!v) {
		rst_fail(sw->w, -ENOMEM);
		return false;
	}
	sw->dirs = v;
	sw->cap = c;
	return true;
}

/* Opens directory sw->path (name in parent, an open directory, or parent
 * -1: by its path); NULL after logging why (fts's FTS_DNR). */
static DIR *seq_open(struct seq_walk *sw, int parent, const char *name)
{
	int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd =
	    parent >= 0 ? openat(parent, name, flags) : open(sw->path, flags);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;

	if (!dir) {
		rst_log(SELINUX_ERROR, "Could not read %s: %s.\n", sw->path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return dir;
}

/*
 * Enter the directory sw->path (len bytes; name in parent, an open
 * directory, or parent -1): list it on top of the stack.  A directory
 * that cannot be read is logged and left.
 */
static void seq_enter(struct seq_walk *sw, size_t len, const struct stat *st,
		      int parent, const char *name)
{
	struct seq_dir *d;
	ssize_t k;

	if (!seq_grow(sw))
		return;
	d = &sw->dirs[sw->n];
	/*
	 * analyzer: false positive (gcc malloc-leak): the DIR belongs to the
	 * stack entry, closed by seq_leave; GCC 12 loses stores through an
	 * index.
	 */
	d->dir = seq_open(sw, parent, name);
	if (!d->dir)
		return;
	d->names = NULL;
	k = rst_list_dir(sw->w, sw->path, d->dir, &d->names);
	if (k < 0) {
		closedir(d->dir);
		return;
	}
	d->fd = dirfd(d->dir);
	if (sw->n >= SEQ_OPEN_DEPTH) {
		closedir(d->dir);
		d->dir = NULL;
		d->fd = -1;
	}
	d->next = d->names;
	d->left = (size_t)k;
	/* "/" and "dir/": the entries are "/name", "dir/name" */
	d->len = len && sw->path[len - 1] == '/' ? len - 1 : len;
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	sw->n++;
}

/* An entry whose full path would not fit: fts's lstat of it fails
 * (FTS_NS). */
static void seq_too_long(struct seq_walk *sw, size_t len, const char *name)
{
	char *full = NULL;

	if (asprintf(&full, "%.*s/%s", (int)len, sw->path, name) >= 0) {
		rst_log(SELINUX_ERROR, "Could not stat %s: %s.\n", full,
			strerror(ENAMETOOLONG));
		free(full);
	}
}

/* The next entry of the directory on top of the stack. */
static void seq_step(struct seq_walk *sw)
{
	struct seq_dir *d = &sw->dirs[sw->n - 1];
	struct rst_walk *w = sw->w;
	const char *name = d->next;
	size_t nl = strlen(name), len = d->len;
	int fd = d->fd;
	struct stat st;

	d->next += nl + 1;
	d->left--;
	if (len + 1 + nl >= PATH_MAX) {
		seq_too_long(sw, len, name);
		return;
	}
	sw->path[len] = '/';
	memcpy(sw->path + len + 1, name, nl + 1);
	if (fstatat(fd >= 0 ? fd : AT_FDCWD, fd >= 0 ? name : sw->path, &st,
		    AT_SYMLINK_NOFOLLOW) < 0) {
		rst_log(SELINUX_ERROR, "Could not stat %s: %s.\n", sw->path,
			strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!rst_file_left_out(w, &st))
			rst_walk_entry(w, sw->path, &st, false, fd, name);
		return;
	}
	if (!seq_dir_ok(sw, &st))
		return;
	rst_walk_entry(w, sw->path, &st, false, fd, name);
	if (!rst_aborted(w))
		seq_enter(sw, len + 1 + nl, &st, fd, name);
}

void rst_walk_seq(struct rst_walk *w, const char *root, const struct stat *st)
{
	struct seq_walk sw = {.w = w};

	if (!S_ISDIR(st->st_mode)) {
		rst_walk_entry(w, root, st, true, -1, NULL);
		return;
	}
	sw.path = malloc(PATH_MAX);
	if (!sw.path) {
		rst_fail(w, -ENOMEM);
		return;
	}
	/* the root was lstat'ed: its path is shorter than PATH_MAX */
	snprintf(sw.path, PATH_MAX, "%s", root);
	if (seq_dir_ok(&sw, st)) {
		rst_walk_entry(w, root, st, true, -1, NULL);
		if (!rst_aborted(w))
			seq_enter(&sw, strlen(sw.path), st, -1, NULL);
	}
	while (sw.n && !rst_aborted(w)) {
		if (!sw.dirs[sw.n - 1].left)
			seq_leave(&sw.dirs[--sw.n]);
		else
			seq_step(&sw);
	}
	while (sw.n)
		seq_leave(&sw.dirs[--sw.n]);
	free(sw.dirs);
	free(sw.path);
}
