/*
 * fuse.c: files.c presented as a file system through libfuse3's low-level
 * API, by libfuse3's pool of worker threads (fuse_session_loop_mt).
 *
 * - One lock, srv_mu, around every call into files.c (and so policy.c,
 *   its decision cache and libsepol, which are not thread-safe) and
 *   around the handles: the layers below stay single-threaded.  What a
 *   request costs is mostly the kernel's work on /dev/fuse (reading the
 *   request, writing the reply, waking the client): that runs outside
 *   the lock, so two clients are served by two threads at once.  An
 *   answer is copied out under the lock and replied without it.
 *
 * - An open file's state between its requests (a transaction's answer,
 *   a plain file's content, the pieces of a load): handle.c, under the
 *   lock; fuse.c only carries the requests to it and its answers back.
 * - status: through the page cache (not direct_io) so that it can be
 *   mapped; each change is pushed into the cache (notify_store).
 */
/* 3.12: the loop's configuration (fuse_loop_cfg_*) bounds the workers. */
#define FUSE_USE_VERSION 312
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "fuse_run.h"
#include "handle.h"
#include "log.h"
#include "status.h"
#include "uring.h"

#define STATIC_TIMEOUT 60.0
/*
 * libfuse's worker threads: a fixed pool, as many as a 2-core machine
 * serves clients at once.  Letting libfuse start and stop workers (idle
 * 2, max 4) made a thread per few requests and fell to 0.9x; a /dev/fuse
 * clone per worker changed nothing; workers pinned one per CPU made one
 * client faster and two no faster.  What a decision costs is the kernel's
 * FUSE round trips, not our code under srv_mu: bench/server/run.sh
 * (part 2) times the same clients against nullfs.c, a server of this
 * shape that decides nothing, and gets the same figures (2026-12-06:
 * 6,707 and 9,552 decisions/s with 1 and 2 clients, nullfs 6,780 and
 * 9,597; 1.29-1.68x from run to run for both, with the one-client rate
 * moving with where the scheduler puts the client and the worker).  The
 * single-threaded loop measured the same within that spread.  Past that
 * floor: FUSE's io_uring transport (uring.c), where the kernel offers it
 * (same day: the server 8,350 and 17,658 decisions/s, 2.11x); these
 * workers then serve only what /dev/fuse still carries.
 */
#define WORKERS 2

static pthread_mutex_t srv_mu = PTHREAD_MUTEX_INITIALIZER;

static void push_settle(void);

static void srv_lock(void)
{
	pthread_mutex_lock(&srv_mu);
}

/* Unlock, then wait for a status change this thread made under the lock
 * to reach the page cache (push_settle): before the reply, as in the
 * kernel the change is seen when the write that made it returns. */
static void srv_unlock(void)
{
	pthread_mutex_unlock(&srv_mu);
	push_settle();
}

static struct fuse_session *session;

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

/* sfs_getnode, locked: for requests that need nothing else below. */
static int getnode(uint64_t ino, struct sfs_node *n)
{
	int r;

	srv_lock();
	r = sfs_getnode(ino, n);
	srv_unlock();
	return r;
}

static void op_init(void *data, struct fuse_conn_info *conn)
{
	(void)data;
	conn->max_write = SRV_MAX_WRITE;
	conn->want &= ~FUSE_CAP_ASYNC_READ;
	conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	struct sfs_node n;
	int r;

	/*
	 * Answered under the lock: the kernel gives the answer of a lookup
	 * in flight to every lookup of the name that starts meanwhile, so an
	 * answer made before a load and sent after it would reach a caller
	 * that began after the load (and name an inode it removed).
	 */
	srv_lock();
	r = sfs_lookup(parent, name, &n);
	if (r < 0) {
		fuse_reply_err(req, -r);
	} else {
		memset(&e, 0, sizeof(e));
		e.ino = n.ino;
		e.attr_timeout = e.entry_timeout = timeout_of(n.ino);
		fill_stat(&n, &e.attr);
		fuse_reply_entry(req, &e);
	}
	srv_unlock();
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct sfs_node n;
	struct stat st;

	(void)fi;
	if (getnode(ino, &n) < 0) {
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
	if (getnode(ino, &n) < 0) {
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

static unsigned caller_uid(fuse_req_t req)
{
	const struct fuse_ctx *c = fuse_req_ctx(req);

	return c ? (unsigned)c->uid : 65534u;
}

/*
 * "policy" is open once at a time (files.c), but FUSE sends the RELEASE
 * of a closed file after close(2) has returned: "cat policy; cat policy"
 * would find the first open not yet released.  So an open that finds it
 * busy waits for a release, polling, up to POLICY_BUSY_MS (the window is
 * a round trip; the bound is for a loaded machine), then answers EBUSY,
 * as the kernel does at once.  Only root gets this far (EACCES comes
 * first), and another worker serves the RELEASE meanwhile.
 */
#define POLICY_BUSY_MS 1000
#define POLICY_POLL_MS 2

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct sfs_node n;
	struct handle *h = NULL;
	int r;

	for (int waited = 0;; waited += POLICY_POLL_MS) {
		struct timespec nap = { 0, POLICY_POLL_MS * 1000000L };

		srv_lock();
		r = hnd_open(ino, caller_uid(req), &h);
		if (r == 0)
			r = sfs_getnode(ino, &n);
		srv_unlock();
		if (r != -EBUSY || waited >= POLICY_BUSY_MS)
			break;
		nanosleep(&nap, NULL);
	}
	if (r < 0) {
		fuse_reply_err(req, -r);
		return;
	}
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
	if (fuse_reply_open(req, fi) == -ENOENT) {
		srv_lock();
		hnd_release(h); /* the opener was interrupted */
		srv_unlock();
	}
}

/*
 * The part of a file a read answers, copied out (under srv_mu) into
 * *out for a reply without the lock: small, or malloc'd.  -ENOMEM.
 */
static int copy_out(const char *data, size_t len, char *small, size_t smallsz,
		    char **out)
{
	*out = small;
	if (len > smallsz && !(*out = malloc(len)))
		return -ENOMEM;
	if (len)
		memcpy(*out, data, len);
	return 0;
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	char small[4096], *out = small;
	const char *data;
	size_t len = 0;
	int r;

	(void)ino;
	srv_lock();
	r = hnd_read(h, (uint64_t)off, size, &data, &len);
	if (r >= 0)
		r = copy_out(data, len, small, sizeof(small), &out);
	srv_unlock();
	if (r < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_buf(req, len ? out : NULL, len);
	if (out != small)
		free(out);
}

/*
 * libfuse reads each request into its worker's buffer (1 MiB and a page,
 * one per worker, kept for the worker's life): a write of a load's
 * pieces leaves its pages resident, 2 MiB for two workers, though they
 * hold nothing that is used again.  Past KEEP bytes, the whole pages of
 * the write's bytes (read, copied, done with) are given back, as uring.c
 * does with its own buffers; the next request is read over them.
 */
#define KEEP (64u << 10)

static void drop_pages(const char *buf, size_t size)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)buf + KEEP + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)buf + size) & ~(page - 1);

	if (size > KEEP && to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	unsigned uid = caller_uid(req);
	ssize_t r;

	(void)ino;
	srv_lock();
	r = hnd_write(h, buf, size, (uint64_t)off, uid);
	srv_unlock();
	drop_pages(buf, size);
	if (r < 0)
		fuse_reply_err(req, (int)-r);
	else
		fuse_reply_write(req, (size_t)r);
}

static void op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	unsigned uid = caller_uid(req);
	int r = 0;

	(void)ino;
	srv_lock();
	if (h)
		r = hnd_flush(h, uid);
	srv_unlock();
	fuse_reply_err(req, r < 0 ? -r : 0);
}

static void op_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;

	(void)ino;
	srv_lock();
	if (h)
		hnd_release(h);
	srv_unlock();
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
	srv_lock();
	r = sfs_readdir(ino, off >= 2 ? (uint64_t)off - 2 : 0, dir_add, &d);
	srv_unlock();
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

	if (getnode(ino, &n) < 0) {
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
 * lock until its READ is answered - by a worker, which needs srv_mu.  So
 * no store is made, or waited for, under srv_mu: files.c's hook
 * (push_status, called under srv_mu) hands the pusher a copy of the page
 * and notes its number in the calling thread; that thread, once it has
 * unlocked (push_settle), waits a little (PUSH_WAIT_MS) for the store,
 * so that a change is in the page when the write that made it returns,
 * as in the kernel, while other workers answer the READs the store may
 * wait for.  Past that it goes on; a READ later answered carries the
 * change anyway.  The pusher touches nothing but the copy it is handed
 * (under push_mu).
 */
#define PUSH_WAIT_MS 100

static pthread_mutex_t push_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t push_cv = PTHREAD_COND_INITIALIZER;
static pthread_t pusher;
static bool pusher_on, push_stop;
static struct srv_status push_page;
static uint64_t push_asked, push_done;
/* The change this thread made and has not waited for (0: none). */
static __thread uint64_t push_mine;

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

/* files.c's hook, under srv_mu: the page changed. */
static void push_status(void)
{
	if (!session)
		return;
	pthread_mutex_lock(&push_mu);
	push_page = *status_page();
	push_mine = ++push_asked;
	pthread_cond_broadcast(&push_cv);
	pthread_mutex_unlock(&push_mu);
}

/* After srv_mu is released: the store of this thread's change, done by
 * the pusher (waited for, a while) or here if there is no pusher. */
static void push_settle(void)
{
	struct srv_status page;
	struct timespec until;
	uint64_t n = push_mine;

	if (!n)
		return;
	push_mine = 0;
	pthread_mutex_lock(&push_mu);
	if (!pusher_on) {
		bool latest = push_done < n;

		page = push_page;
		push_done = push_asked;
		pthread_mutex_unlock(&push_mu);
		if (latest)
			store_status(&page);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += PUSH_WAIT_MS * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (push_done < n &&
	       pthread_cond_timedwait(&push_cv, &push_mu, &until) == 0)
		;
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
	struct fuse_loop_config *loop;
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
	/* io_uring when the kernel offers it (uring.h); else /dev/fuse */
	(void)srv_uring_attach(session);
	status_set_hook(push_status);
	fuse_daemonize(foreground);
	/* after the fork of fuse_daemonize: a thread would not survive it;
	 * no signals for the pusher: SIGTERM must interrupt the session */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pusher_on = pthread_create(&pusher, NULL, pusher_main, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	loop = fuse_loop_cfg_create();
	if (!loop) {
		r = -ENOMEM;
	} else {
		fuse_loop_cfg_set_idle_threads(loop, WORKERS);
		fuse_loop_cfg_set_max_threads(loop, WORKERS);
		r = fuse_session_loop_mt(session, loop);
		fuse_loop_cfg_destroy(loop);
	}
	status_set_hook(NULL);
	pusher_end();
	fuse_session_unmount(session);
	srv_uring_detach();
	fuse_remove_signal_handlers(session);
	fuse_session_destroy(session);
	session = NULL;
	hnd_release_all();
	return r < 0 ? 1 : 0;
}
