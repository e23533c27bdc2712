/* restore/log.c: the relabel walk's messages, serialized and batched. */
#include <stdarg.h>
#include <string.h>

#include "internal.h"

/*
 * The reference calls the log callback under a process-wide mutex, so a
 * callback that prints in pieces is never interleaved by the threads of
 * selinux_restorecon_parallel.  core_log takes no lock; until it does,
 * this layer's messages are serialized here - the callback only: each
 * thread formats its message before it takes the lock (setfiles -v
 * prints a line per file, and two threads waited on each other's
 * formatting).  A leaf lock: nothing else is taken while it is held.
 */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * A thread of a parallel walk keeps its messages in a batch of its own
 * and hands them to the callback BATCH_MSGS at a time, under one taking
 * of the lock: setfiles -v prints a line per file, and its stdout (the
 * FILE, its buffer) went from one core to the other at every line.  Each
 * thread's messages keep their order; the threads' order among
 * themselves was never fixed.  A thread flushes its batch before it
 * waits for work and when it ends.
 */
#define BATCH_MSGS 64
#define BATCH_BYTES 16384
struct batch {
	size_t used, n;
	char buf[BATCH_BYTES]; /* per message: its type (an int), its text
				* with the NUL */
};
/* The calling thread's batch, between rst_log_batch_begin and _end:
 * per thread (__thread), so two walks never share one. */
static __thread struct batch *batch_mine;

static void batch_flush(struct batch *b)
{
	size_t off = 0;
	int type;

	if (!b || !b->n)
		return;
	pthread_mutex_lock(&log_lock);
	for (size_t i = 0; i < b->n; i++) {
		memcpy(&type, b->buf + off, sizeof(type));
		off += sizeof(type);
		core_log_str(type, b->buf + off);
		off += strlen(b->buf + off) + 1;
	}
	pthread_mutex_unlock(&log_lock);
	b->n = b->used = 0;
}

/* Adds msg (len bytes with its NUL) to b: false when it can never fit. */
static bool batch_add(struct batch *b, int type, const char *msg, size_t len)
{
	if (sizeof(type) + len > BATCH_BYTES)
		return false;
	if (b->n == BATCH_MSGS || BATCH_BYTES - b->used < sizeof(type) + len)
		batch_flush(b);
	memcpy(b->buf + b->used, &type, sizeof(type));
	memcpy(b->buf + b->used + sizeof(type), msg, len);
	b->used += sizeof(type) + len;
	b->n++;
	return true;
}

void rst_log(int type, const char *fmt, ...)
{
	struct batch *b = batch_mine;
	char msg[1024], *big;
	int saved = errno;
	const char *m;
	va_list ap;

	va_start(ap, fmt);
	core_log_format(msg, sizeof(msg), &big, fmt, ap);
	va_end(ap);
	m = big ? big : msg;
	if (!b || !batch_add(b, type, m, strlen(m) + 1)) {
		batch_flush(b);
		pthread_mutex_lock(&log_lock);
		core_log_str(type, m);
		pthread_mutex_unlock(&log_lock);
	}
	free(big);
	errno = saved;
}

void rst_log_batch_begin(void)
{
	struct batch *b = malloc(sizeof(*b)); /* NULL: log at once */

	if (b)
		b->n = b->used = 0;
	batch_mine = b;
}

bool rst_log_batch_pending(void)
{
	return batch_mine && batch_mine->n;
}

void rst_log_batch_flush(void)
{
	batch_flush(batch_mine);
}

void rst_log_batch_end(void)
{
	batch_flush(batch_mine);
	free(batch_mine);
	batch_mine = NULL;
}
