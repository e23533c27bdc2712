/*
 * handle.h: an open file's state between its requests (handle.c), for
 * fuse.c: the answer of a transaction and the offset it is read from,
 * the content a plain file gave its first read, the pieces of a policy
 * written to "load".  Independent of FUSE; every call under fuse.c's
 * lock.  Uses files.h and the layers below it.
 *
 * A handle is the server's half of an open file description: hnd_open
 * at open(2), hnd_release when the kernel sends RELEASE (after the last
 * close of the description).  Functions that can fail return >= 0 or
 * -errno, which fuse.c answers.
 */
#ifndef SELINUXFSD_HANDLE_H
#define SELINUXFSD_HANDLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The largest write FUSE hands us in one request (fuse.c's max_write):
 * a longer write(2) arrives as several WRITE requests.  A fuzz build
 * lowers it (SRV_MAX_WRITE, with SRV_PAGE: handle.c), so that small
 * policies arrive in pieces.
 */
#ifndef SRV_MAX_WRITE
#define SRV_MAX_WRITE (1u << 20)
#endif

struct handle;

/* An open of ino by uid: *h, or -ENOENT, -EISDIR (a directory),
 * -EACCES, -EBUSY or -EINVAL (what files.c refuses: sfs_open), -ENOMEM. */
int hnd_open(uint64_t ino, unsigned uid, struct handle **h);

/*
 * A read of size bytes at off: *data and *len, the part of the file's
 * bytes there (*len 0 past the end), valid until the next call on h.
 * A transaction reads its answer; a plain file its content, made at the
 * handle's first read and again at each read from offset 0.
 */
int hnd_read(struct handle *h, uint64_t off, size_t size, const char **data,
	     size_t *len);

/* A write of size bytes at off by uid: the count taken, or -errno. */
ssize_t hnd_write(struct handle *h, const char *buf, size_t size, uint64_t off,
		  unsigned uid);

/* close(2) of a descriptor of h: a load still pending is made now; its
 * error is close's. */
int hnd_flush(struct handle *h, unsigned uid);

/* The last close: h is freed (a pending load is made first). */
void hnd_release(struct handle *h);

/* Every handle still open, freed (the server stops: no RELEASE comes). */
void hnd_release_all(void);

#endif
