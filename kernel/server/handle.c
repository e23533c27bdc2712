/*
 * handle.c: an open file's state between its requests (handle.h).
 *
 * - Transaction files (access, create, ...): the answer lives in the
 *   handle.  Reads are direct_io, so they reach us; the read after the
 *   write arrives at the offset the write left, which is where the
 *   answer starts.
 * - Plain files: generated when first read from offset 0 on a handle,
 *   kept for the following reads of that handle (so that a file is
 *   consistent across its reads).
 * - load: the kernel takes the policy in one write; FUSE splits it into
 *   chunks of at most SRV_MAX_WRITE bytes.  The chunks are gathered and
 *   the policy is loaded on the first short chunk, or at flush (close)
 *   when the size is a multiple of SRV_MAX_WRITE; an error there is the
 *   short chunk's error (write(2) returns what came before) or close(2)'s.
 */
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "handle.h"

/* What one write to "load" may carry (EFBIG beyond). */
#define LOAD_MAX (64u << 20)

struct handle {
	uint64_t ino;
	/* transaction */
	bool written;
	uint64_t base;
	char *answer;
	size_t anslen;
	/* plain file content */
	char *content;
	size_t clen;
	bool have_content;
	/* load */
	char *load;
	size_t loadlen, loadcap;
	bool load_pending;
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
	free(h->answer);
	free(h->content);
	free(h->load);
	free(h);
}

int hnd_open(uint64_t ino, unsigned uid, struct handle **out)
{
	struct sfs_node n;
	struct handle *h;

	(void)uid;
	if (sfs_getnode(ino, &n) < 0)
		return -ENOENT;
	if (n.kind == SFS_DIR)
		return -EISDIR;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->ino = ino;
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

static int load_now(struct handle *h, unsigned uid)
{
	int r;

	h->load_pending = false;
	r = sfs_load(h->load, h->loadlen, uid);
	free(h->load);
	h->load = NULL;
	h->loadlen = h->loadcap = 0;
	/* A load frees a policy's worth of memory (the old one, or the one
	 * refused): give it back, as a long-running daemon should, from
	 * every thread's arena. */
	malloc_trim(0);
	return r;
}

static ssize_t load_write(struct handle *h, const char *buf, size_t size,
			  uint64_t off, unsigned uid)
{
	int r;

	if (uid != 0)
		return -EACCES;
	if (off != h->loadlen)
		return -EINVAL;
	if (size > LOAD_MAX - h->loadlen)
		return -EFBIG;
	if (h->loadlen + size > h->loadcap) {
		size_t cap = (h->loadlen + size) * 2;
		char *p = realloc(h->load, cap);

		if (!p)
			return -ENOMEM;
		h->load = p;
		h->loadcap = cap;
	}
	memcpy(h->load + h->loadlen, buf, size);
	h->loadlen += size;
	h->load_pending = true;
	if (size < SRV_MAX_WRITE) {
		r = load_now(h, uid);
		if (r < 0)
			return r;
	}
	return (ssize_t)size;
}

ssize_t hnd_write(struct handle *h, const char *buf, size_t size,
		  uint64_t off, unsigned uid)
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
	return h->load_pending ? load_now(h, uid) : 0;
}

void hnd_release(struct handle *h)
{
	if (h->load_pending)
		load_now(h, 0);
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
