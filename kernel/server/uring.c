/*
 * uring.c: FUSE's io_uring transport under a libfuse 3.14 session
 * (uring.h says what and why).
 *
 * - The session's I/O is libfuse's custom I/O (fuse_session_custom_io)
 *   on the fd fuse_session_mount opened: reads and writes of /dev/fuse as
 *   before, but the INIT request is looked at (does the kernel offer
 *   FUSE_OVER_IO_URING?) and the INIT reply, when it does, accepts it
 *   (flags2) before the queue threads start.
 * - A queue thread (one per possible CPU, pinned to it; the kernel
 *   readies the ring only when every queue has an entry) registers
 *   ENTRIES entries, each a header and a payload buffer.  The kernel
 *   fills an entry with a request (the fuse_in_header, the opcode's fixed
 *   argument, the rest in the payload) and completes its command; the
 *   thread lays the request out as /dev/fuse would (contiguous, the
 *   header's len says where the fixed argument ends) and hands it to
 *   fuse_session_process_buf.  Every reply our ops make is written by
 *   the thread that received the request, before process_buf returns:
 *   the custom writev sees the reply's unique is the request this thread
 *   holds, copies it into the entry instead and submits one
 *   COMMIT_AND_FETCH, which hands the reply over before writev returns
 *   (as a write of /dev/fuse does: fuse.c answers LOOKUP under srv_mu so
 *   that no answer made before a policy load reaches the kernel after
 *   it) and takes the next request into the entry.
 *   Anything else written (notifications, replies to /dev/fuse requests)
 *   goes to /dev/fuse.
 * - The end: the stop flag, seen within STOP_POLL by a thread waiting
 *   for its ring, or the connection's end (its commands complete with an
 *   error).
 */
#define FUSE_USE_VERSION 312
#include <errno.h>
#include <fuse_lowlevel.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "log.h"
#include "uring.h"
#include "uring_msg.h"

#ifdef SRV_HAVE_URING
#include <liburing.h>

/* The payload and request buffers (uring_msg.h): allocated, not
 * touched, pages only as used. */
#define PAYLOAD URM_PAYLOAD
#define REQ_SIZE URM_REQ_SIZE
/* After a request or reply larger than this, the pages past it are given
 * back (a load, a read of "policy"): the daemon's RSS stays flat. */
#define KEEP (64u << 10)
#define ENTRIES 2 /* a queue's: a request served, one more waiting */
#define STOP_POLL_MS 200

struct queue;

struct entry {
	struct queue *q;
	int idx;
	struct uring_req_header hdr;
	struct iovec iov[2];
	char *payload;
	char *req;		/* the request laid out as /dev/fuse's */
	uint64_t unique;	/* of the request being served */
	bool replied;
	bool big;		/* the last request or reply passed KEEP */
	uint32_t reqlen;	/* the request's payload */
	struct uring_out out;	/* the reply; its arguments in payload */
};

struct queue {
	int qid;
	struct io_uring ring;
	bool ring_up;
	struct entry ent[ENTRIES];
	pthread_t thread;
	bool started;
};

static struct fuse_session *session;
static int devfd = -1;
static _Atomic uint64_t init_unique; /* of an INIT that offered the ring */
static atomic_bool stopping;
static struct queue *queues;
static int nqueues;
static pthread_mutex_t start_mu = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local struct entry *serving;

/* The number of possible CPUs (/sys/devices/system/cpu/possible, "0-N"):
 * the kernel's number of queues.  0 if unknown. */
static int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	char line[256];
	int max = -1;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f)) {
		for (char *p = line; *p;) {
			char *end;
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			if (v > max)
				max = (int)v;
			p = *end ? end + 1 : end;
		}
	}
	fclose(f);
	return max < 0 || max > 4095 ? 0 : max + 1;
}

static int queue_cmd(struct queue *q, int e, uint32_t cmd, uint64_t commit)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);
	struct uring_cmd_req req = { .commit_id = commit, .qid = (uint16_t)q->qid };

	if (!sqe)
		return -EBUSY;
	memset(sqe, 0, 2 * sizeof(*sqe)); /* a 128-byte SQE */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = devfd;
	sqe->cmd_op = cmd;
	if (cmd == URING_CMD_REGISTER) {
		sqe->addr = (uintptr_t)q->ent[e].iov;
		sqe->len = 2;
	}
	memcpy(sqe->cmd, &req, sizeof(req));
	sqe->user_data = (uint64_t)e;
	return 0;
}

/*
 * The pages of the payload past KEEP, after a large request or reply:
 * given back when the kernel has taken the reply (it hands over the next
 * request only then), past the request it wrote in their place.
 */
static void trim_payload(struct entry *en)
{
	size_t from;

	if (!en->big)
		return;
	en->big = false;
	from = urm_trim_from(en->hdr.ent.payload_sz, KEEP, 4096, PAYLOAD);
	if (from < PAYLOAD)
		madvise(en->payload + from, PAYLOAD - from, MADV_DONTNEED);
}

/*
 * The entry's reply (en->out, its arguments in the payload) to the
 * kernel, with the fetch of its next request: submitted now (0 or
 * -errno), or with the queue's next wait.
 */
static int deliver(struct entry *en, bool now)
{
	int r;

	urm_commit(&en->hdr, &en->out);
	r = queue_cmd(en->q, en->idx, URING_CMD_COMMIT_AND_FETCH,
		      en->hdr.ent.commit_id);
	if (r == 0 && now)
		r = io_uring_submit(&en->q->ring);
	return r < 0 ? r : 0;
}

/* The request of entry e, to libfuse; its reply delivered. */
static void serve(struct entry *en)
{
	struct fuse_buf buf = { 0 };
	ssize_t len;

	en->replied = false;
	en->reqlen = en->hdr.ent.payload_sz;
	en->out.len = 0;
	len = urm_request(&en->hdr, en->payload, en->req, &en->unique);
	if (len < 0) {
		urm_error(&en->out, en->unique, -EIO);
		deliver(en, false);
		return;
	}
	buf.mem = en->req;
	buf.size = (size_t)len;
	serving = en;
	fuse_session_process_buf(session, &buf);
	serving = NULL;
	if (!en->replied) { /* no op of ours answers later */
		urm_error(&en->out, en->unique, -EIO);
		deliver(en, false);
	}
}

static void *queue_main(void *arg)
{
	struct queue *q = arg;
	struct __kernel_timespec poll = { 0, STOP_POLL_MS * 1000000LL };
	cpu_set_t set;
	int r;

	CPU_ZERO(&set);
	CPU_SET(q->qid, &set);
	/* a CPU outside our affinity: the queue is served from elsewhere */
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	r = io_uring_queue_init(ENTRIES * 2, &q->ring, IORING_SETUP_SQE128);
	if (r < 0) {
		srv_log("io_uring: queue %d: %s; requests stay on /dev/fuse",
			q->qid, strerror(-r));
		return NULL;
	}
	q->ring_up = true;
	for (int e = 0; e < ENTRIES; e++)
		queue_cmd(q, e, URING_CMD_REGISTER, 0);
	while (!atomic_load_explicit(&stopping, memory_order_relaxed)) {
		struct io_uring_cqe *cqe;
		unsigned head, n = 0;
		bool dead = false;

		r = io_uring_submit_and_wait_timeout(&q->ring, &cqe, 1, &poll, NULL);
		if (r < 0 && r != -ETIME && r != -EINTR) {
			srv_log("io_uring: queue %d: %s", q->qid, strerror(-r));
			break;
		}
		io_uring_for_each_cqe(&q->ring, head, cqe) {
			int e = (int)cqe->user_data;
			struct entry *en;

			n++;
			if (cqe->res < 0 || e < 0 || e >= ENTRIES) {
				/* the connection's end; or a refused
				 * registration: the ring never gets ready
				 * and /dev/fuse serves everything */
				if (cqe->res != -ENOTCONN && cqe->res != -ECANCELED &&
				    !atomic_load(&stopping))
					srv_log("io_uring: queue %d: %s; requests "
						"stay on /dev/fuse", q->qid,
						strerror(-cqe->res));
				dead = true;
				continue;
			}
			en = &q->ent[e];
			trim_payload(en);
			serve(en);
			if (en->reqlen > KEEP) /* the copy: done with */
				madvise(en->req + KEEP, REQ_SIZE - KEEP, MADV_DONTNEED);
			en->big = en->out.len > KEEP || en->reqlen > KEEP;
		}
		io_uring_cq_advance(&q->ring, n);
		if (dead)
			break;
	}
	return NULL;
}

/* Start the queue threads, once (the INIT reply that accepted the ring
 * has been written). */
static void start_queues(void)
{
	sigset_t all, old;

	pthread_mutex_lock(&start_mu);
	if (queues || !(nqueues = possible_cpus()) ||
	    !(queues = calloc((size_t)nqueues, sizeof(*queues)))) {
		pthread_mutex_unlock(&start_mu);
		return;
	}
	/* no signals for the queue threads: they are libfuse's loop's */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < nqueues; i++) {
		struct queue *q = &queues[i];
		bool ok = true;

		q->qid = i;
		for (int e = 0; e < ENTRIES; e++) {
			struct entry *en = &q->ent[e];

			en->q = q;
			en->idx = e;
			en->payload = mmap(NULL, PAYLOAD, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			en->req = mmap(NULL, REQ_SIZE, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			ok = ok && en->payload != MAP_FAILED && en->req != MAP_FAILED;
			en->iov[0] = (struct iovec){ &en->hdr, sizeof(en->hdr) };
			en->iov[1] = (struct iovec){ en->payload, PAYLOAD };
		}
		q->started = ok && pthread_create(&q->thread, NULL, queue_main, q) == 0;
		if (!q->started)
			srv_log("io_uring: queue %d not started; requests stay "
				"on /dev/fuse", i);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_mutex_unlock(&start_mu);
}

static ssize_t io_read(int fd, void *buf, size_t len, void *userdata)
{
	ssize_t n = read(fd, buf, len);

	(void)userdata;
	/* an INIT: its unique if it offers the ring, else 0 */
	if (n >= (ssize_t)(sizeof(struct fuse_in_header) +
			   sizeof(struct fuse_init_in)) &&
	    ((const struct fuse_in_header *)buf)->opcode == FUSE_INIT)
		atomic_store(&init_unique, urm_init_offer(buf, (size_t)n));
	return n;
}

static ssize_t io_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	const struct fuse_out_header *oh = iov[0].iov_base;
	struct entry *en = serving;
	uint64_t init = atomic_load(&init_unique);
	ssize_t r, total;

	(void)userdata;
	if (count < 1 || iov[0].iov_len < sizeof(*oh))
		return writev(fd, iov, count);
	if (en && oh->unique == en->unique) {
		total = urm_reply(iov, count, en->payload, &en->out);
		if (total < 0) {
			errno = -total;
			return -1;
		}
		en->replied = true;
		/* delivered before we return, as a write of /dev/fuse is: an
		 * op that replies under srv_mu (LOOKUP, fuse.c) relies on it */
		r = deliver(en, true);
		if (r < 0) {
			errno = -r;
			return -1;
		}
		return total;
	}
	if (urm_init_accept(iov, count, init)) {
		r = writev(fd, iov, count);
		atomic_store(&init_unique, 0);
		if (r >= 0) {
			srv_log("io_uring: the kernel's offer taken");
			start_queues();
		}
		return r;
	}
	return writev(fd, iov, count);
}

int srv_uring_attach(struct fuse_session *se)
{
	static const struct fuse_custom_io io = {
		.writev = io_writev,
		.read = io_read,
	};
	int r;

	session = se;
	devfd = fuse_session_fd(se);
	r = fuse_session_custom_io(se, &io, devfd);
	return r < 0 ? r : 0;
}

void srv_uring_detach(void)
{
	atomic_store(&stopping, true);
	for (int i = 0; queues && i < nqueues; i++) {
		struct queue *q = &queues[i];

		if (q->started)
			pthread_join(q->thread, NULL);
		if (q->ring_up)
			io_uring_queue_exit(&q->ring);
		for (int e = 0; e < ENTRIES; e++) {
			if (q->ent[e].payload && q->ent[e].payload != MAP_FAILED)
				munmap(q->ent[e].payload, PAYLOAD);
			if (q->ent[e].req && q->ent[e].req != MAP_FAILED)
				munmap(q->ent[e].req, REQ_SIZE);
		}
	}
	free(queues);
	queues = NULL;
	nqueues = 0;
	session = NULL;
	atomic_store(&stopping, false);
}

#else /* !SRV_HAVE_URING: built without liburing, /dev/fuse only */

int srv_uring_attach(struct fuse_session *se)
{
	(void)se;
	return -ENOSYS;
}

void srv_uring_detach(void)
{
}

#endif
