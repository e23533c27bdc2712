/* restore/xattr.c: list and remove the security.sehash digests. */
#include <fts.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/xattr.h>

#include <selinux/restorecon.h>

#include "internal.h"

/*
 * The list being built and handed out.  The caller receives &xattr_head
 * and frees the entries; the head is per thread and reset at the top of
 * every call, so a list from an earlier call (already freed by its
 * owner) is never appended to -- the reference's use-after-free.
 */
static __thread struct dir_xattr *xattr_head;
static __thread struct dir_xattr *xattr_tail;

struct xattr_walk {
	struct selabel_handle *h;
	bool delete_nonmatch;
	bool delete_all;
};

static void list_free(struct dir_xattr *d)
{
	while (d) {
		struct dir_xattr *n = d->next;

		free(d->directory);
		free(d->digest);
		free(d);
		d = n;
	}
}

/* 1 when dir has no digest (not listed), 0 when listed, -errno. */
static int add_entry(const struct xattr_walk *x, const char *dir)
{
	uint8_t *calc = NULL, *stored = NULL;
	size_t len = 0;
	bool match = selabel_get_digests_all_partial_matches(x->h, dir, &calc,
							     &stored, &len);
	struct dir_xattr *e;
	char *hex;

	free(calc);
	if (!stored || !len) {
		free(stored);
		return 1;
	}
	hex = malloc(len * 2 + 1);
	if (!hex) {
		free(stored);
		return -ENOMEM;
	}
	for (size_t i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", stored[i]);
	free(stored);

	e = calloc(1, sizeof(*e));
	if (!e || !(e->directory = strdup(dir))) {
		free(e);
		free(hex);
		return -ENOMEM;
	}
	e->digest = hex;
	e->result = match ? MATCH : NOMATCH;
	if (x->delete_all || (x->delete_nonmatch && !match)) {
		e->result = match ? DELETED_MATCH : DELETED_NOMATCH;
		if (removexattr(dir, SEHASH_XATTR) < 0) {
			core_log(SELINUX_ERROR,
				 "Error: %s removing xattr \"%s\" from: %s\n",
				 strerror(errno), SEHASH_XATTR, dir);
			e->result = ERROR;
		}
	}
	if (xattr_tail)
		xattr_tail->next = e;
	else
		xattr_head = e;
	xattr_tail = e;
	return 0;
}

static bool in_memory_fs(const char *path)
{
	struct statfs s;

	return statfs(path, &s) == 0 &&
	       (s.f_type == RAMFS_MAGIC || s.f_type == TMPFS_MAGIC);
}

static int xattr_walk(const char *pathname, unsigned int flags)
{
	struct xattr_walk x = {
	    .delete_nonmatch =
		flags & SELINUX_RESTORECON_XATTR_DELETE_NONMATCH_DIGESTS,
	    .delete_all = flags & SELINUX_RESTORECON_XATTR_DELETE_ALL_DIGESTS,
	};
	char *paths[] = {(char *)pathname, NULL};
	struct stat st;
	FTSENT *e;
	FTS *fts;
	int r;

	r = rst_handle(&x.h, NULL);
	if (r < 0)
		return r;
	if (lstat(pathname, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		r = -errno;
		core_log(SELINUX_ERROR, "lstat(%s) failed: %s\n", pathname,
			 strerror(-r));
		return r;
	}
	if (!(flags & SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS))
		rst_read_mounts();
	if (!(flags & SELINUX_RESTORECON_XATTR_RECURSE)) {
		if (in_memory_fs(pathname) || rst_excluded(pathname))
			return 0;
		r = add_entry(&x, pathname);
		return r < 0 ? r : 0;
	}
	fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	if (!fts) {
		r = -errno;
		core_log(SELINUX_ERROR, "fts error on %s: %s\n", pathname,
			 strerror(-r));
		return r;
	}
	while ((e = fts_read(fts)) != NULL) {
		if (e->fts_info != FTS_D)
			continue;
		if (in_memory_fs(e->fts_path))
			continue;
		if (rst_excluded(e->fts_path)) {
			fts_set(fts, e, FTS_SKIP);
			continue;
		}
		r = add_entry(&x, e->fts_path);
		if (r < 0)
			break;
	}
	fts_close(fts);
	return r < 0 ? r : 0;
}

_public_ int selinux_restorecon_xattr(const char *pathname,
				      unsigned int xattr_flags,
				      struct dir_xattr ***xattr_list)
{
	int r;

	xattr_head = NULL;
	xattr_tail = NULL;
	if (!pathname)
		return RET_ERRNO(-EINVAL);
	r = xattr_walk(pathname, xattr_flags);
	if (r < 0) {
		list_free(xattr_head);
		xattr_head = NULL;
		xattr_tail = NULL;
		return RET_ERRNO(r);
	}
	if (xattr_head && xattr_list) {
		*xattr_list = &xattr_head;
	} else if (xattr_head) {
		/* The reference accepts no xattr_list (the digests are then
		 * only acted on): nobody to hand the list to. */
		list_free(xattr_head);
		xattr_head = NULL;
		xattr_tail = NULL;
	}
	return 0;
}
