/*
 * nullfs_uring: nullfs.c's file system over FUSE's io_uring transport
 * (Linux >= 6.14, with the fuse module's enable_uring parameter on).
 * Debian 12's libfuse (3.14) does not speak it (3.18 does), so this
 * probe speaks the kernel's protocol itself, for one purpose: to measure
 * what that transport would give bench/server/run.sh's two clients over
 * one, against nullfs.c on /dev/fuse.  It is not a server to deploy.
 *
 * The kernel keeps one queue of requests per CPU and puts a request on
 * the queue of the CPU its caller runs on; a thread pinned to each CPU
 * serves that queue's entries, so that a caller and its server share a
 * CPU (no cross-CPU wake-up), and a reply and the fetch of the next
 * request are one io_uring_enter.  Requests the ring does not carry
 * (INIT, FORGET, INTERRUPT, and everything before every queue has an
 * entry) are read from /dev/fuse by the main thread.
 *
 *   nullfs_uring MOUNTPOINT	(foreground; SIGINT or SIGTERM ends it)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <liburing.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "uring_abi.h" /* kernel/server/ */

#define INO_ACCESS 2
#define TIMEOUT 60
#define MAX_WRITE (128u * 1024)
#define PAYLOAD (1u << 20) /* >= every max the kernel may derive */
#define ENTRIES 2	   /* per queue */
#define DEVBUF (PAYLOAD + 4096)

static const char answer[] = "7fffff 0 ffffffff 0 4 0\n";
static int fusefd = -1;
static int ncpu;
static volatile sig_atomic_t stop;

static void fill_attr(uint64_t ino, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->nlink = ino == FUSE_ROOT_ID ? 2 : 1;
	a->mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0555 : S_IFREG | 0666;
}

/*
 * One request: ih, its fixed argument (op), the rest (rest, restlen).
 * The reply's arguments go to out; returns their length, or -errno;
 * -1 - INT_MAX: no reply at all.
 */
#define NO_REPLY (-100000)
static long handle(const struct fuse_in_header *ih, const void *op,
		   const void *rest, size_t restlen, void *out)
{
	switch (ih->opcode) {
	case FUSE_LOOKUP: {
		struct fuse_entry_out *e = out;

		if (ih->nodeid != FUSE_ROOT_ID || restlen < 7 ||
		    memcmp(rest, "access", 7))
			return -ENOENT;
		memset(e, 0, sizeof(*e));
		e->nodeid = INO_ACCESS;
		e->entry_valid = e->attr_valid = TIMEOUT;
		fill_attr(INO_ACCESS, &e->attr);
		return sizeof(*e);
	}
	case FUSE_GETATTR: {
		struct fuse_attr_out *a = out;

		memset(a, 0, sizeof(*a));
		a->attr_valid = TIMEOUT;
		fill_attr(ih->nodeid, &a->attr);
		return sizeof(*a);
	}
	case FUSE_OPEN: {
		struct fuse_open_out *o = out;
		char *h;

		if (ih->nodeid != INO_ACCESS)
			return -EISDIR;
		if (!(h = calloc(1, 1)))
			return -ENOMEM;
		memset(o, 0, sizeof(*o));
		o->fh = (uintptr_t)h;
		o->open_flags = FOPEN_DIRECT_IO | FOPEN_NOFLUSH;
		return sizeof(*o);
	}
	case FUSE_WRITE: {
		const struct fuse_write_in *w = op;
		struct fuse_write_out *wo = out;

		*(char *)(uintptr_t)w->fh = 1;
		memset(wo, 0, sizeof(*wo));
		wo->size = w->size;
		return sizeof(*wo);
	}
	case FUSE_READ: {
		const struct fuse_read_in *r = op;
		char *state = (char *)(uintptr_t)r->fh;
		size_t len = sizeof(answer) - 1;

		if (*state == 0)
			return -EINVAL;
		if (*state == 2)
			return 0;
		*state = 2;
		if (len > r->size)
			len = r->size;
		memcpy(out, answer, len);
		return (long)len;
	}
	case FUSE_RELEASE:
		free((void *)(uintptr_t)((const struct fuse_release_in *)op)->fh);
		return 0;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		return NO_REPLY;
	default:
		return -ENOSYS;
	}
}

/* The size of an opcode's fixed argument: where /dev/fuse's rest begins. */
static size_t op_size(uint32_t opcode)
{
	switch (opcode) {
	case FUSE_GETATTR:
		return sizeof(struct fuse_getattr_in);
	case FUSE_OPEN:
		return sizeof(struct fuse_open_in);
	case FUSE_WRITE:
		return sizeof(struct fuse_write_in);
	case FUSE_READ:
		return sizeof(struct fuse_read_in);
	case FUSE_RELEASE:
		return sizeof(struct fuse_release_in);
	default:
		return 0;
	}
}

struct queue {
	int qid;
	unsigned long served;
	struct io_uring ring;
	struct uring_req_header hdr[ENTRIES];
	char *payload[ENTRIES];
	struct iovec iov[ENTRIES][2];
};

static int queue_cmd(struct queue *q, int e, uint32_t cmd, uint64_t commit)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);
	struct uring_cmd_req req = { .commit_id = commit, .qid = q->qid };

	if (!sqe)
		return -EBUSY;
	memset(sqe, 0, 2 * sizeof(*sqe)); /* an SQE128 */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fusefd;
	sqe->cmd_op = cmd;
	if (cmd == URING_CMD_REGISTER) {
		sqe->addr = (uintptr_t)q->iov[e];
		sqe->len = 2;
	}
	memcpy(sqe->cmd, &req, sizeof(req));
	sqe->user_data = (uint64_t)e;
	return 0;
}

static void *queue_main(void *arg)
{
	struct queue *q = arg;
	cpu_set_t set;
	int r;

	CPU_ZERO(&set);
	CPU_SET(q->qid, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	r = io_uring_queue_init(ENTRIES * 2, &q->ring, IORING_SETUP_SQE128);
	if (r < 0) {
		fprintf(stderr, "nullfs_uring: io_uring_queue_init: %s\n", strerror(-r));
		return NULL;
	}
	for (int e = 0; e < ENTRIES; e++) {
		q->payload[e] = malloc(PAYLOAD);
		q->iov[e][0] = (struct iovec){ &q->hdr[e], sizeof(q->hdr[e]) };
		q->iov[e][1] = (struct iovec){ q->payload[e], PAYLOAD };
		queue_cmd(q, e, URING_CMD_REGISTER, 0);
	}
	for (;;) {
		struct io_uring_cqe *cqe;
		unsigned head, n = 0;

		r = io_uring_submit_and_wait(&q->ring, 1);
		if (r < 0 && r != -EINTR) {
			fprintf(stderr, "nullfs_uring: queue %d: %s\n", q->qid, strerror(-r));
			break;
		}
		io_uring_for_each_cqe(&q->ring, head, cqe) {
			int e = (int)cqe->user_data;
			struct uring_req_header *h = &q->hdr[e];
			struct fuse_in_header ih;
			struct fuse_out_header oh;
			long len;

			n++;
			q->served++;
			if (cqe->res < 0) {
				if (cqe->res != -ENOTCONN && !stop)
					fprintf(stderr, "nullfs_uring: queue %d entry %d: %s\n",
						q->qid, e, strerror(-cqe->res));
				io_uring_cq_advance(&q->ring, n);
				return NULL;
			}
			memcpy(&ih, h->in_out, sizeof(ih));
			len = handle(&ih, h->op_in, q->payload[e], h->ent.payload_sz,
				     q->payload[e]);
			if (len == NO_REPLY)
				len = 0;
			oh.unique = ih.unique;
			oh.error = len < 0 ? (int)len : 0;
			oh.len = sizeof(oh) + (len > 0 ? (uint32_t)len : 0);
			memcpy(h->in_out, &oh, sizeof(oh));
			h->ent.payload_sz = len > 0 ? (uint32_t)len : 0;
			queue_cmd(q, e, URING_CMD_COMMIT_AND_FETCH, h->ent.commit_id);
		}
		io_uring_cq_advance(&q->ring, n);
	}
	return NULL;
}

static void reply_dev(uint64_t unique, long len, const void *out)
{
	struct fuse_out_header oh = {
		.len = sizeof(oh) + (len > 0 ? (uint32_t)len : 0),
		.error = len < 0 ? (int)len : 0,
		.unique = unique,
	};
	struct iovec iov[2] = { { &oh, sizeof(oh) }, { (void *)out, len > 0 ? (size_t)len : 0 } };

	if (writev(fusefd, iov, len > 0 ? 2 : 1) < 0 && errno != ENOENT)
		perror("nullfs_uring: writev");
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	static char buf[DEVBUF], out[PAYLOAD];
	struct queue *queues = NULL;
	pthread_t *threads = NULL;
	struct sigaction sa;
	char opts[128];
	bool uring = false;
	unsigned long dev_served = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: nullfs_uring MOUNTPOINT\n");
		return 2;
	}
	ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	fusefd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fusefd < 0) {
		perror("nullfs_uring: /dev/fuse");
		return 1;
	}
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0,"
		 "default_permissions", fusefd);
	if (mount("nullfs", argv[1], "fuse.nullfs", MS_NOSUID | MS_NODEV, opts)) {
		perror("nullfs_uring: mount");
		return 1;
	}
	/* no SA_RESTART: a signal ends the read of /dev/fuse */
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop) {
		ssize_t n = read(fusefd, buf, sizeof(buf));
		const struct fuse_in_header *ih = (const void *)buf;
		size_t os;
		long len;

		if (n < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			if (errno != ENODEV)
				perror("nullfs_uring: read");
			break;
		}
		if ((size_t)n < sizeof(*ih))
			continue;
		if (ih->opcode == FUSE_INIT) {
			const struct fuse_init_in *in = (const void *)(ih + 1);
			struct fuse_init_out o;
			uint64_t offered = in->flags;

			if (in->flags & FUSE_INIT_EXT)
				offered |= (uint64_t)in->flags2 << 32;
			memset(&o, 0, sizeof(o));
			o.major = FUSE_KERNEL_VERSION;
			o.minor = FUSE_KERNEL_MINOR_VERSION;
			o.max_readahead = in->max_readahead;
			o.max_background = 16;
			o.congestion_threshold = 12;
			o.max_write = MAX_WRITE;
			o.time_gran = 1;
			o.flags = FUSE_INIT_EXT;
			uring = offered & FUSE_OVER_IO_URING;
			if (uring)
				o.flags2 = (uint32_t)(FUSE_OVER_IO_URING >> 32);
			else
				fprintf(stderr, "nullfs_uring: the kernel offers no "
					"io_uring (fuse's enable_uring parameter?): "
					"/dev/fuse only\n");
			reply_dev(ih->unique, sizeof(o), &o);
			if (uring && !queues) {
				queues = calloc((size_t)ncpu, sizeof(*queues));
				threads = calloc((size_t)ncpu, sizeof(*threads));
				for (int i = 0; queues && threads && i < ncpu; i++) {
					queues[i].qid = i;
					pthread_create(&threads[i], NULL, queue_main, &queues[i]);
				}
			}
			continue;
		}
		dev_served++;
		os = op_size(ih->opcode);
		if ((size_t)n < sizeof(*ih) + os)
			os = (size_t)n - sizeof(*ih);
		len = handle(ih, buf + sizeof(*ih), buf + sizeof(*ih) + os,
			     (size_t)n - sizeof(*ih) - os, out);
		if (len != NO_REPLY)
			reply_dev(ih->unique, len, out);
	}
	umount2(argv[1], MNT_DETACH);
	close(fusefd);
	/* the queue threads end when the connection goes (-ENOTCONN) */
	fprintf(stderr, "nullfs_uring: requests served from /dev/fuse %lu",
		dev_served);
	for (int i = 0; queues && threads && i < ncpu; i++) {
		pthread_join(threads[i], NULL);
		fprintf(stderr, ", from queue %d %lu", i, queues[i].served - 1);
	}
	fputc('\n', stderr);
	return 0;
}
