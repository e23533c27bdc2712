/*
 * Fuzz target for the mcstrans (setrans) reply protocol: the library asks
 * a translation daemon over a Unix socket (core/setrans.c) and parses its
 * answer - uint32 function, uint32 size, int32 status (native endian),
 * then size bytes of a NUL-terminated context.  Here the daemon is a
 * thread of the target listening on a private socket (the unexported
 * core_set_setrans_socket hook): it reads the whole request and answers
 * with the input's bytes after the first, then closes.  The first byte
 * picks the direction (raw to translated, or back).
 *
 * Checked against the protocol, not the code: the call returns 0 with a
 * string; when the answer is well formed (12 header bytes, the function
 * asked, a status >= 0, 0 < size <= 8192, size bytes present) the result
 * is the answer's string (up to its first NUL), otherwise the context
 * comes back untranslated.  Each call asks a new context, so the
 * library's per-thread memo of the last translation never answers.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include "fuzz_common.h"

void core_set_setrans_socket(const char *path);

static int listener = -1;
static const uint8_t *reply;
static size_t reply_len;
static sem_t served;

static int full_read(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The daemon: one request, one answer, per connection. */
static void *daemon_main(void *arg)
{
	(void)arg;
	for (;;) {
		int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		uint32_t hdr[3];

		if (fd < 0)
			continue;
		if (full_read(fd, hdr, sizeof(hdr)) == 0 &&
		    hdr[1] <= 65536 && hdr[2] <= 65536) {
			char *body = malloc((size_t)hdr[1] + hdr[2] + 1);

			if (body && full_read(fd, body, (size_t)hdr[1] + hdr[2]) == 0)
				(void)!send(fd, reply, reply_len, MSG_NOSIGNAL);
			free(body);
		}
		close(fd);
		sem_post(&served);
	}
	return NULL;
}

static void start_daemon(void)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	pthread_t t;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", fz_path("setrans"));
	listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listener < 0 || bind(listener, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(listener, 4) || sem_init(&served, 0, 0) ||
	    pthread_create(&t, NULL, daemon_main, NULL))
		abort();
	pthread_detach(t);
	core_set_setrans_socket(a.sun_path);
}

/* The result the protocol prescribes; NULL for "untranslated". */
static char *expected(uint32_t function)
{
	uint32_t h[3];

	if (reply_len < sizeof(h))
		return NULL;
	memcpy(h, reply, sizeof(h));
	if (h[0] != function || (int32_t)h[2] < 0 || h[1] == 0 ||
	    h[1] > 8192 || reply_len - sizeof(h) < h[1])
		return NULL;
	return strndup((const char *)reply + sizeof(h), h[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned long long n;
	uint32_t function;
	char in[64], *out = NULL, *want;
	struct timespec ts;
	int r;

	if (fz_init("setrans"))
		start_daemon();
	if (size < 1)
		return 0;
	function = data[0] & 1 ? 3 : 2;
	reply = data + 1;
	reply_len = size - 1;
	snprintf(in, sizeof(in), "u:r:t:s0:c%llu", n++);
	want = expected(function);

	errno = 0;
	r = function == 2 ? selinux_raw_to_trans_context(in, &out)
			  : selinux_trans_to_raw_context(in, &out);
	/* Wait for the daemon to be done with this input's bytes. */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	if (sem_timedwait(&served, &ts) != 0)
		abort();
	if (r != 0 || !out)
		abort();
	if (strcmp(out, want ? want : in) != 0)
		abort();
	free(out);
	free(want);
	return 0;
}
