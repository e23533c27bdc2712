/*
 * handle.c: an open file's state between its requests (handle.h).
 *
 * - Transaction files (access, create, ...): the answer lives in the
 *   handle.  Reads are direct_io, so they reach us; the read after the
 *   write arrives at the offset the write left, which is where the
 *   answer starts.
 * - Plain files: generated when first read from offset 0 on a handle,
 *   kept for the following reads of that handle (so that a file is
 *   consistent across its reads).  "policy" is read from the image
 *   taken at the open (files.c: one open at a time, root's), which its
 *   readers share (policy.c): a handle holds a reference, not a copy.
 * - load: the kernel takes the policy in one write(2), and its error is
 *   write's.  FUSE hands such a write over in WRITE requests, each of
 *   whole pages of the client's buffer, as many as SRV_MAX_WRITE allows
 *   (libfuse asks for max_pages = SRV_MAX_WRITE / page): so each piece
 *   but the last ends where a page of the buffer ends, the first one is
 *   SRV_MAX_WRITE - s bytes (s: where the buffer starts in its page),
 *   and those between are SRV_MAX_WRITE.  The pieces are gathered, and
 *   the piece that is the last is known by its length:
 *     - a later piece shorter than SRV_MAX_WRITE is the last; so is a
 *       first one of at most SRV_MAX_WRITE - page bytes;
 *     - a first piece of SRV_MAX_WRITE - page + 1 .. SRV_MAX_WRITE - 1
 *       bytes is either a whole policy or the start of a longer one
 *       from a buffer that does not start a page (a malloc'd buffer of
 *       megabytes starts 16 bytes into one).  It is loaded at once: a
 *       strict prefix of a policy never loads (libsepol reads every
 *       section the image announces), so a load that works was whole;
 *       one that fails keeps the bytes for the pieces to come, and its
 *       error for close(2), should none come.  (A policy of that size
 *       followed by other bytes, which the kernel would load ignoring
 *       them, loads here too, but its write(2) stops short after the
 *       first piece: the next is refused.  A bad policy of that size
 *       has its error at close(2) only.);
 *     - a piece of SRV_MAX_WRITE bytes may be followed by more: the
 *       load waits for a shorter piece, or for flush (close(2)), whose
 *       error is then close's.
 *   A first piece that does not start as a policy does (its header:
 *   pol_header_ok) is loaded at once, to fail as it will anyway.  An
 *   error at the last piece is write's: write(2) returns it, or, when
 *   pieces came before (a policy over SRV_MAX_WRITE whose header is
 *   right and whose body is not), their count (the kernel sees the
 *   whole write at once, and returns the error).  (Until 2026-12 any piece
 * shorter than SRV_MAX_WRITE was taken for the last: a policy over 1 MiB from
 *   a buffer not on a page boundary failed with EINVAL.)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "handle.h"
#include "log.h"
#include "mem.h"

/* What one write to "load" may carry (EFBIG beyond). */
#define LOAD_MAX (64u << 20)

struct handle {
	uint64_t ino;
	/* transaction */
	bool written;
	uint64_t base;
	char *answer;
	size_t anslen;
	/* plain file content; or "policy"'s shared image (img) */
	char *content;
	size_t clen;
	bool have_content;
	struct pol_image *img;
	const char *idata;
	size_t ilen;
	/* load */
	char *load;
	size_t loadlen, loadcap;
	bool load_pending;
	int tried; /* -errno of loading these very bytes once, or 0 */
	/* every open handle, for the ones still open when we stop */
	struct handle *prev, *next;
};

/*
 * The open handles.  A file still open when the server stops (or whose
 * RELEASE, which the kernel sends without waiting, is still queued) gets
 * no release: hnd_release_all frees what is left.
 */
static struct handle *handles;

static void handle_free(struct handle *h)
{
	if (h->prev)
		h->prev->next = h->next;
	else
		handles = h->next;
	if (h->next)
		h->next->prev = h->prev;
	if (h->img)
		sfs_policy_close(h->img);
	free(h->answer);
	free(h->content);
	free(h->load);
	free(h);
}

int hnd_open(uint64_t ino, unsigned uid, struct handle **out)
{
	struct sfs_node n;
	struct handle *h;
	int r;

	if (sfs_getnode(ino, &n) < 0)
		return -ENOENT;
	if (n.kind == SFS_DIR)
		return -EISDIR;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->ino = ino;
	/* "policy": its bytes as they are at the open, as in the kernel */
	if (sfs_is_policy(ino) &&
	    (r = sfs_policy_open(uid, &h->img, &h->idata, &h->ilen)) < 0) {
		free(h);
		return r;
	}
	h->next = handles;
	if (handles)
		handles->prev = h;
	handles = h;
	*out = h;
	return 0;
}

/* The part of data at off of at most size bytes (*len 0 past the end). */
static void window(const char *data, size_t len, uint64_t off, size_t size,
		   const char **out, size_t *outlen)
{
	*out = data;
	*outlen = 0;
	if (off >= len)
		return;
	*out = data + off;
	*outlen = size < len - off ? size : (size_t)(len - off);
}

int hnd_read(struct handle *h, uint64_t off, size_t size, const char **data,
	     size_t *len)
{
	struct sfs_node n;
	int r;

	*data = NULL;
	*len = 0;
	if (sfs_getnode(h->ino, &n) < 0)
		return -ENOENT;
	if (n.kind == SFS_TRANSACTION) {
		/* Nothing asked yet, or a read before the answer: from 0. */
		if (h->written && off >= h->base)
			off -= h->base;
		window(h->answer, h->anslen, off, size, data, len);
		return 0;
	}
	if (h->img) {
		window(h->idata, h->ilen, off, size, data, len);
		return 0;
	}
	if (!h->have_content || off == 0) {
		free(h->content);
		h->content = NULL;
		h->have_content = false;
		r = sfs_read(h->ino, &h->content, &h->clen);
		if (r < 0)
			return r;
		h->have_content = true;
	}
	window(h->content, h->clen, off, size, data, len);
	return 0;
}

static void load_reset(struct handle *h)
{
	free(h->load);
	h->load = NULL;
	h->loadlen = h->loadcap = 0;
	h->load_pending = false;
	h->tried = 0;
}

/* The gathered bytes to sfs_load.  Unless keep (and the load fails),
 * they go. */
static int load_now(struct handle *h, unsigned uid, bool keep)
{
	int r;

	if (h->tried && !keep) {
		/* these bytes failed already: their error, once more */
		r = h->tried;
		load_reset(h);
		return r;
	}
	r = sfs_load(h->load, h->loadlen, uid);
	if (r < 0 && keep)
		h->tried = r;
	else
		load_reset(h);
	/* A load frees a policy's worth of memory (the old one, or the one
	 * refused): give it back, as a long-running daemon should, from
	 * every thread's arena.  The bytes in use then: with the same
	 * policy loaded, the same whatever came before, unless something
	 * leaks (tests/integration/server/stress.py reads them). */
	mem_trim();
	srv_log("memory: %zu bytes in use after the load", mem_in_use());
	return r;
}

/* The page FUSE cuts a write's pieces at: the system's; a fuzz build
 * sets a smaller one (SRV_PAGE) with SRV_MAX_WRITE, so that a small
 * policy arrives in pieces. */
static size_t page_size(void)
{
#ifdef SRV_PAGE
	return SRV_PAGE;
#else
	return (size_t)sysconf(_SC_PAGESIZE);
#endif
}

static ssize_t load_write(struct handle *h, const char *buf, size_t size,
			  uint64_t off, unsigned uid)
{
	size_t page = page_size();
	int r;

	if (uid != 0)
		return -EACCES;
	if (off != h->loadlen)
		return -EINVAL;
	if (size > LOAD_MAX - h->loadlen)
		return -EFBIG;
	if (h->loadlen + size > h->loadcap) {
		size_t cap = (h->loadlen + size) * 2;
		char *p;

		if (cap > LOAD_MAX)
			cap = LOAD_MAX;
		if (!(p = realloc(h->load, cap ? cap : 1)))
			return -ENOMEM;
		h->load = p;
		h->loadcap = cap;
	}
	if (size)
		memcpy(h->load + h->loadlen, buf, size);
	h->loadlen += size;
	h->load_pending = true;
	h->tried = 0;
	if (off == 0 && !sfs_load_header_ok(h->load, h->loadlen)) {
		r = load_now(h, uid, false); /* not a policy: refused now */
		return r < 0 ? r : (ssize_t)size;
	}
	if (size >= SRV_MAX_WRITE)
		return (ssize_t)size; /* more may follow */
	if (off == 0 && page < SRV_MAX_WRITE && size > SRV_MAX_WRITE - page) {
		/* whole, or the first piece of a longer one */
		load_now(h, uid, true);
		return (ssize_t)size;
	}
	r = load_now(h, uid, false);
	return r < 0 ? r : (ssize_t)size;
}

ssize_t hnd_write(struct handle *h, const char *buf, size_t size, uint64_t off,
		  unsigned uid)
{
	struct sfs_node n;
	int r;

	if (sfs_getnode(h->ino, &n) < 0)
		return -ENOENT;
	if (n.kind == SFS_TRANSACTION) {
		if (h->written)
			return -EBUSY;
		free(h->answer);
		r = sfs_transact(h->ino, buf, size, uid, &h->answer,
				 &h->anslen);
		if (r < 0) {
			h->answer = NULL;
			h->anslen = 0;
			return r;
		}
		h->written = true;
		h->base = off + size;
		return (ssize_t)size;
	}
	if (sfs_is_load(h->ino))
		return load_write(h, buf, size, off, uid);
	return sfs_write(h->ino, buf, size, off, uid);
}

int hnd_flush(struct handle *h, unsigned uid)
{
	return h->load_pending ? load_now(h, uid, false) : 0;
}

void hnd_release(struct handle *h)
{
	if (h->load_pending)
		load_now(h, 0, false);
	handle_free(h);
}

void hnd_release_all(void)
{
	/*
	 * analyzer: false positive (clang unix.Malloc use-after-free): the
	 * head of the list has no prev, so handle_free() moves handles on
	 * to the next one.
	 */
	while (handles)
		handle_free(handles);
}
