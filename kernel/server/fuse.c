/*
 * fuse.c: files.c presented as a file system through libfuse3's low-level
 * API, on one thread.
 *
 * - Transaction files (access, create, ...): the answer lives in the open
 *   file's handle.  Reads are direct_io, so they reach us; the read after
 *   the write arrives at the offset the write left, which is where the
 *   answer starts.
 * - Plain files: generated when first read from offset 0 on a handle,
 *   kept for the following reads of that handle (so that a large file such
 *   as "policy" is consistent across its reads).
 * - load: the kernel takes the policy in one write; FUSE splits it into
 *   chunks of at most max_write bytes.  The chunks are gathered and the
 *   policy is loaded on the first short chunk, or at flush (close) when the
 *   size is a multiple of max_write; an error there is the short chunk's
 *   error (write(2) returns what came before) or close(2)'s.
 * - status: through the page cache (not direct_io) so that it can be
 *   mapped; each change is pushed into the cache (notify_store).
 */
#define FUSE_USE_VERSION 34
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "files.h"
#include "fuse_run.h"
#include "log.h"
#include "status.h"

#define MAX_WRITE (1u << 20)
#define STATIC_TIMEOUT 60.0

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

static struct fuse_session *session;

/*
 * The open handles.  A file still open when the server stops (or whose
 * RELEASE, which the kernel sends without waiting, is still queued) gets
 * no release: srv_fuse_run frees what is left.  Only the session's one
 * thread touches the list.
 */
static struct handle *handles;

static struct handle *handle_new(void)
{
	struct handle *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->next = handles;
	if (handles)
		handles->prev = h;
	handles = h;
	return h;
}

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

static void fill_stat(const struct sfs_node *n, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = n->ino;
	st->st_mode = n->mode;
	st->st_nlink = S_ISDIR(n->mode) ? 2 : 1;
	st->st_blksize = 4096;
	if (n->kind == SFS_STATUS)
		st->st_size = sizeof(struct srv_status);
}

static double timeout_of(uint64_t ino)
{
	/* The policy's directories change with every load. */
	return ino < 256 ? STATIC_TIMEOUT : 0.0;
}

static void op_init(void *data, struct fuse_conn_info *conn)
{
	(void)data;
	conn->max_write = MAX_WRITE;
	conn->want &= ~FUSE_CAP_ASYNC_READ;
	conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	struct sfs_node n;
	int r = sfs_lookup(parent, name, &n);

	if (r < 0) {
		fuse_reply_err(req, -r);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = n.ino;
	e.attr_timeout = e.entry_timeout = timeout_of(n.ino);
	fill_stat(&n, &e.attr);
	fuse_reply_entry(req, &e);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct sfs_node n;
	struct stat st;

	(void)fi;
	if (sfs_getnode(ino, &n) < 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_stat(&n, &st);
	fuse_reply_attr(req, &st, timeout_of(ino));
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	struct sfs_node n;
	struct stat st;

	(void)attr;
	(void)fi;
	if (sfs_getnode(ino, &n) < 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	/* "echo 1 > enforce" truncates first: a no-op, as in selinuxfs. */
	if (to_set & ~(FUSE_SET_ATTR_SIZE | FUSE_SET_ATTR_ATIME |
		       FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_ATIME_NOW |
		       FUSE_SET_ATTR_MTIME_NOW | FUSE_SET_ATTR_CTIME)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	fill_stat(&n, &st);
	fuse_reply_attr(req, &st, timeout_of(ino));
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct sfs_node n;
	struct handle *h;

	if (sfs_getnode(ino, &n) < 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (n.kind == SFS_DIR) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	h = handle_new();
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	h->ino = ino;
	fi->fh = (uintptr_t)h;
	/*
	 * status goes through the page cache, to be mapped, but not a write
	 * to it (root's: the mode stops the others): the kernel would copy
	 * the bytes into the page every mapping shows, refused or not, and
	 * hold the page locked until we answer.  Opened for writing, status
	 * is direct_io: sfs_write refuses the write (EINVAL), as the kernel.
	 */
	if (n.kind == SFS_STATUS && (fi->flags & O_ACCMODE) == O_RDONLY) {
		fi->keep_cache = 1;
	} else {
		fi->direct_io = 1;
		fi->keep_cache = 0;
	}
	/* Only a load needs close(2) to reach us: spare the others a round
	 * trip (a decision is open, write, read, release). */
	if (!sfs_is_load(ino))
		fi->noflush = 1;
	if (fuse_reply_open(req, fi) == -ENOENT)
		handle_free(h); /* the opener was interrupted */
}

static void reply_slice(fuse_req_t req, const char *data, size_t len,
			uint64_t off, size_t size)
{
	if (off >= len) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > len - off)
		size = len - off;
	fuse_reply_buf(req, data + off, size);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	struct sfs_node n;
	int r;

	if (sfs_getnode(ino, &n) < 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (n.kind == SFS_TRANSACTION) {
		uint64_t o = (uint64_t)off;

		if (!h->written || o < h->base) {
			/* Nothing asked yet, or a read before the answer. */
			reply_slice(req, h->answer, h->anslen, o, size);
			return;
		}
		reply_slice(req, h->answer, h->anslen, o - h->base, size);
		return;
	}
	if (!h->have_content || off == 0) {
		free(h->content);
		h->content = NULL;
		h->have_content = false;
		r = sfs_read(ino, &h->content, &h->clen);
		if (r < 0) {
			fuse_reply_err(req, -r);
			return;
		}
		h->have_content = true;
	}
	reply_slice(req, h->content, h->clen, (uint64_t)off, size);
}

static unsigned caller_uid(fuse_req_t req)
{
	const struct fuse_ctx *c = fuse_req_ctx(req);

	return c ? (unsigned)c->uid : 65534u;
}

static int load_now(struct handle *h, unsigned uid)
{
	int r;

	h->load_pending = false;
	r = sfs_load(h->load, h->loadlen, uid);
	free(h->load);
	h->load = NULL;
	h->loadlen = h->loadcap = 0;
	return r;
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	struct sfs_node n;
	unsigned uid = caller_uid(req);
	int r;

	if (sfs_getnode(ino, &n) < 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (n.kind == SFS_TRANSACTION) {
		if (h->written) {
			fuse_reply_err(req, EBUSY);
			return;
		}
		free(h->answer);
		r = sfs_transact(ino, buf, size, uid, &h->answer, &h->anslen);
		if (r < 0) {
			h->answer = NULL;
			h->anslen = 0;
			fuse_reply_err(req, -r);
			return;
		}
		h->written = true;
		h->base = (uint64_t)off + size;
		fuse_reply_write(req, size);
		return;
	}
	if (sfs_is_load(ino)) {
		if (uid != 0) {
			fuse_reply_err(req, EACCES);
			return;
		}
		if ((uint64_t)off != h->loadlen) {
			fuse_reply_err(req, EINVAL);
			return;
		}
		if (size > (64u << 20) - h->loadlen) {
			fuse_reply_err(req, EFBIG);
			return;
		}
		if (h->loadlen + size > h->loadcap) {
			size_t cap = (h->loadlen + size) * 2;
			char *p = realloc(h->load, cap);

			if (!p) {
				fuse_reply_err(req, ENOMEM);
				return;
			}
			h->load = p;
			h->loadcap = cap;
		}
		memcpy(h->load + h->loadlen, buf, size);
		h->loadlen += size;
		h->load_pending = true;
		if (size < MAX_WRITE) {
			r = load_now(h, uid);
			if (r < 0) {
				fuse_reply_err(req, -r);
				return;
			}
		}
		fuse_reply_write(req, size);
		return;
	}
	r = sfs_write(ino, buf, size, (uint64_t)off, uid);
	if (r < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_write(req, (size_t)r);
}

static void op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	int r = 0;

	(void)ino;
	if (h && h->load_pending)
		r = load_now(h, caller_uid(req));
	fuse_reply_err(req, r < 0 ? -r : 0);
}

static void op_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;

	(void)ino;
	if (h) {
		if (h->load_pending)
			load_now(h, 0);
		handle_free(h);
	}
	fuse_reply_err(req, 0);
}

struct dir_fill {
	fuse_req_t req;
	char *buf;
	size_t size, used;
};

static int dir_add(void *vctx, const char *name, const struct sfs_node *n,
		   uint64_t next)
{
	struct dir_fill *d = vctx;
	struct stat st;
	size_t need;

	fill_stat(n, &st);
	need = fuse_add_direntry(d->req, NULL, 0, name, NULL, 0);
	if (d->used + need > d->size)
		return 1;
	fuse_add_direntry(d->req, d->buf + d->used, d->size - d->used, name,
			  &st, (off_t)next + 2);
	d->used += need;
	return 0;
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct dir_fill d = { req, NULL, size, 0 };
	struct stat st;
	int r;

	(void)fi;
	d.buf = malloc(size ? size : 1);
	if (!d.buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	memset(&st, 0, sizeof(st));
	st.st_mode = S_IFDIR;
	/* "." and ".." first, at offsets 0 and 1; entries from 2. */
	for (off_t o = off; o < 2; o++) {
		const char *name = o == 0 ? "." : "..";
		size_t need = fuse_add_direntry(req, NULL, 0, name, NULL, 0);

		if (d.used + need > d.size)
			goto done;
		st.st_ino = o == 0 ? ino : 1;
		fuse_add_direntry(req, d.buf + d.used, d.size - d.used, name,
				  &st, o + 1);
		d.used += need;
	}
	r = sfs_readdir(ino, off >= 2 ? (uint64_t)off - 2 : 0, dir_add, &d);
	if (r < 0) {
		free(d.buf);
		fuse_reply_err(req, -r);
		return;
	}
done:
	fuse_reply_buf(req, d.buf, d.used);
	free(d.buf);
}

static void op_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct sfs_node n;

	if (sfs_getnode(ino, &n) < 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (n.kind != SFS_DIR) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	fuse_reply_open(req, fi);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv;

	(void)ino;
	memset(&sv, 0, sizeof(sv));
	sv.f_bsize = sv.f_frsize = 4096;
	sv.f_namemax = 255;
	fuse_reply_statfs(req, &sv);
}

static const struct fuse_lowlevel_ops ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.setattr = op_setattr,
	.open = op_open,
	.read = op_read,
	.write = op_write,
	.flush = op_flush,
	.release = op_release,
	.opendir = op_opendir,
	.readdir = op_readdir,
	.statfs = op_statfs,
};

/*
 * A change of the status page reaches the mappings through the cache
 * (notify_store), from a thread of its own, the pusher.  The kernel
 * stores with the page locked, and a process that faults the page in (a
 * first mapping, or one after the kernel dropped the page) holds that
 * lock until its READ is answered - by the session thread, which must
 * therefore never wait for a store: it would hang for good.  It waits a
 * little (PUSH_WAIT_MS), so that a change is in the page when the write
 * that made it returns, as in the kernel; past that it goes on, and the
 * READ it then answers carries the change anyway.  It goes on at once
 * when a request waits (that READ, maybe) and the store is not done.
 * The pusher touches
 * nothing but the copy of the page it is handed (under push_mu).
 */
#define PUSH_WAIT_MS 100

static pthread_mutex_t push_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t push_cv = PTHREAD_COND_INITIALIZER;
static pthread_t pusher;
static bool pusher_on, push_stop;
static struct srv_status push_page;
static uint64_t push_asked, push_done;

static void store_status(const struct srv_status *page)
{
	struct fuse_bufvec bv = FUSE_BUFVEC_INIT(sizeof(struct srv_status));
	int r;

	bv.buf[0].mem = (void *)page;
	r = fuse_lowlevel_notify_store(session, sfs_status_ino(), 0, &bv, 0);
	if (r < 0 && r != -ENOENT)
		srv_log("status: cannot update the page cache: %s",
			strerror(-r));
}

static void *pusher_main(void *arg)
{
	struct srv_status page;
	uint64_t n;

	(void)arg;
	pthread_mutex_lock(&push_mu);
	for (;;) {
		while (push_done == push_asked && !push_stop)
			pthread_cond_wait(&push_cv, &push_mu);
		if (push_done == push_asked)
			break;
		page = push_page;
		n = push_asked;
		pthread_mutex_unlock(&push_mu);
		store_status(&page);
		pthread_mutex_lock(&push_mu);
		push_done = n;
		pthread_cond_broadcast(&push_cv);
	}
	pthread_mutex_unlock(&push_mu);
	return NULL;
}

/* Whether a request waits to be read (the READ a store may wait for). */
static bool request_waiting(void)
{
	struct pollfd pfd = { fuse_session_fd(session), POLLIN, 0 };

	return poll(&pfd, 1, 0) == 1;
}

static void push_status(void)
{
	struct timespec until;
	uint64_t n;

	if (!session)
		return;
	if (!pusher_on) {
		store_status(status_page());
		return;
	}
	pthread_mutex_lock(&push_mu);
	push_page = *status_page();
	n = ++push_asked;
	pthread_cond_broadcast(&push_cv);
	/* by steps of 2 ms, while no request waits */
	for (int t = 0; push_done < n && t < PUSH_WAIT_MS; t += 2) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 2000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (push_done < n && pthread_cond_timedwait(
				&push_cv, &push_mu, &until) == 0)
			;
		if (push_done < n && request_waiting())
			break;
	}
	pthread_mutex_unlock(&push_mu);
}

/* The end: the last store may wait for a READ; answer requests until it
 * is done, then the pusher ends. */
static void pusher_end(void)
{
	struct fuse_buf buf = { 0 };
	struct pollfd pfd = { fuse_session_fd(session), POLLIN, 0 };
	bool busy;

	if (!pusher_on)
		return;
	pthread_mutex_lock(&push_mu);
	push_stop = true;
	pthread_cond_broadcast(&push_cv);
	busy = push_done != push_asked;
	pthread_mutex_unlock(&push_mu);
	while (busy) {
		if (poll(&pfd, 1, 10) == 1 &&
		    fuse_session_receive_buf(session, &buf) > 0)
			fuse_session_process_buf(session, &buf);
		pthread_mutex_lock(&push_mu);
		busy = push_done != push_asked;
		pthread_mutex_unlock(&push_mu);
	}
	free(buf.mem);
	pthread_join(pusher, NULL);
	pusher_on = false;
}

int srv_fuse_run(struct fuse_args *args, const char *mountpoint,
		 int foreground)
{
	sigset_t all, old;
	int r;

	session = fuse_session_new(args, &ops, sizeof(ops), NULL);
	if (!session)
		return 2;
	if (fuse_set_signal_handlers(session) != 0) {
		fuse_session_destroy(session);
		return 2;
	}
	if (fuse_session_mount(session, mountpoint) != 0) {
		fuse_remove_signal_handlers(session);
		fuse_session_destroy(session);
		session = NULL;
		return 3;
	}
	status_set_hook(push_status);
	fuse_daemonize(foreground);
	/* after the fork of fuse_daemonize: a thread would not survive it;
	 * no signals for the pusher: SIGTERM must interrupt the session */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pusher_on = pthread_create(&pusher, NULL, pusher_main, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	r = fuse_session_loop(session);
	status_set_hook(NULL);
	pusher_end();
	fuse_session_unmount(session);
	fuse_remove_signal_handlers(session);
	fuse_session_destroy(session);
	session = NULL;
	/*
	 * analyzer: false positive (clang unix.Malloc use-after-free): the head
	 * of the list has no prev, so handle_free() moves handles on to the
	 * next one.
	 */
	while (handles)
		handle_free(handles);
	return r < 0 ? 1 : 0;
}
