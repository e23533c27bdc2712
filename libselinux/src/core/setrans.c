/* core/setrans.c: context translation through the mcstrans daemon. */
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>

#include <selinux/selinux.h>

#include "internal.h"

/*
 * mcstransd listens on SELINUX_TRANS_DIR "/.setrans-unix".  A request is
 * three native-endian uint32 (function, size of the first string, size of
 * the second) followed by the strings with their NULs; the answer is
 * uint32 function, uint32 size, int32 status, then size bytes of the
 * NUL-terminated result.  Without a daemon, translation is the identity:
 * the plain API then behaves exactly like its _raw twin.
 */
#define SETRANS_RAW_TO_TRANS 2
#define SETRANS_TRANS_TO_RAW 3
#define SETRANS_RAW_TO_COLOR 4
#define SETRANS_MAX_DATA 8192
#define SETRANS_TIMEOUT_MS 3000

/* Only the unit tests change it, before any translation is asked for. */
static const char *socket_path = SELINUX_TRANS_DIR "/.setrans-unix";
static char *socket_path_owned;


/*
 * One translation per thread is remembered in each direction: programs
 * such as ls -Z or ps ask for the same few contexts over and over, and a
 * daemon round trip per file would dominate.  The cache is per thread
 * (no lock needed); a pthread key destructor frees it when a thread ends.
 */
struct trans_cache {
	char *r2t_in, *r2t_out, *t2r_in, *t2r_out;
};

static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static pthread_key_t cache_key; /* written once, under cache_once */
static bool cache_key_ok;

static void cache_free(void *p)
{
	struct trans_cache *c = p;

	free(c->r2t_in);
	free(c->r2t_out);
	free(c->t2r_in);
	free(c->t2r_out);
	free(c);
}

static void cache_init(void)
{
	cache_key_ok = pthread_key_create(&cache_key, cache_free) == 0;
}

static struct trans_cache *cache_get(void)
{
	struct trans_cache *c;

	pthread_once(&cache_once, cache_init);
	if (!cache_key_ok)
		return NULL;
	c = pthread_getspecific(cache_key);
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (c && pthread_setspecific(cache_key, c) != 0) {
			free(c);
			c = NULL;
		}
	}
	return c;
}

static int full_io(int fd, bool out, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		struct pollfd pfd = { fd, out ? POLLOUT : POLLIN, 0 };
		ssize_t n;

		if (RETRY_EINTR(poll(&pfd, 1, SETRANS_TIMEOUT_MS)) <= 0)
			return -ETIMEDOUT;
		n = out ? RETRY_EINTR(send(fd, p, len, MSG_NOSIGNAL))
			: RETRY_EINTR(recv(fd, p, len, 0));
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Ask the daemon; -errno when it is absent or misbehaves. */
static int ask(uint32_t function, const char *in, char **out)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *data = NULL, *msg = NULL;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	uint32_t req[3], hdr[3];
	size_t inlen = strlen(in) + 1;
	int r;

	if (inlen > SETRANS_MAX_DATA)
		return -EINVAL;
	if (strlen(socket_path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	strcpy(addr.sun_path, socket_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return -errno;
	/* One message: header, the string, and an empty second string. */
	msg = malloc(sizeof(req) + inlen + 1);
	if (!msg)
		return -ENOMEM;
	req[0] = function;
	req[1] = (uint32_t)inlen;
	req[2] = 1;
	memcpy(msg, req, sizeof(req));
	memcpy(msg + sizeof(req), in, inlen);
	msg[sizeof(req) + inlen] = '\0';
	r = full_io(fd, true, msg, sizeof(req) + inlen + 1);
	if (r >= 0)
		r = full_io(fd, false, hdr, sizeof(hdr));
	if (r < 0)
		return r;
	/*
	 * analyzer: false positive (gcc use-of-uninitialized-value): full_io()
	 * returns 0 only once recv() has filled all of hdr; GCC 12 does not
	 * know that recv() writes its buffer.
	 */
	if (hdr[0] != function || (int32_t)hdr[2] < 0 || hdr[1] == 0 ||
	    hdr[1] > SETRANS_MAX_DATA)
		return -EINVAL;
	data = malloc(hdr[1] + 1);
	if (!data)
		return -ENOMEM;
	r = full_io(fd, false, data, hdr[1]);
	if (r < 0)
		return r;
	data[hdr[1]] = '\0';
	*out = TAKE_PTR(data);
	return 0;
}

/*
 * Whether a daemon runs is looked at once per process, as the established
 * library does: a syscall on every translation would cost more than most
 * lookups (selabel_lookup translates by default).  present is written
 * under present_once only (and by the single-threaded test hook).
 */
static pthread_once_t present_once = PTHREAD_ONCE_INIT;
static bool present;

static void present_init(void)
{
	present = access(socket_path, F_OK) == 0;
}

static bool daemon_present(void)
{
	pthread_once(&present_once, present_init);
	return present;
}

static int translate(uint32_t function, const char *in, char **out)
{
	struct trans_cache *c;
	char **cache_in, **cache_out;
	char *result = NULL;

	if (!out)
		return -EINVAL;
	if (!in) {
		*out = NULL;
		return 0;
	}
	/* A daemon that fails us leaves the context untranslated, as the
	 * established library does: translation is cosmetic. */
	if (!daemon_present()) {
		*out = strdup(in);
		return *out ? 0 : -ENOMEM;
	}
	c = cache_get();
	cache_in = c ? (function == SETRANS_RAW_TO_TRANS ? &c->r2t_in
							 : &c->t2r_in)
		     : NULL;
	cache_out = c ? (function == SETRANS_RAW_TO_TRANS ? &c->r2t_out
							  : &c->t2r_out)
		      : NULL;
	if (c && *cache_in && strcmp(*cache_in, in) == 0) {
		*out = strdup(*cache_out);
		return *out ? 0 : -ENOMEM;
	}
	/*
	 * analyzer: false positive (clang NonNullParamChecker): ask() sets
	 * result whenever it returns 0; clang assumes a failing socket() may
	 * leave errno 0, making "return -errno" look like success.
	 */
	if (ask(function, in, &result) < 0) {
		*out = strdup(in);
		return *out ? 0 : -ENOMEM;
	}
	if (c) {
		char *ci = strdup(in), *co = strdup(result);

		if (ci && co) {
			free(*cache_in);
			free(*cache_out);
			*cache_in = ci;
			*cache_out = co;
		} else {
			free(ci);
			free(co);
		}
	}
	*out = result;
	return 0;
}

int core_raw_to_trans(const char *raw, char **trans)
{
	return translate(SETRANS_RAW_TO_TRANS, raw, trans);
}

int core_trans_to_raw(const char *trans, char **raw)
{
	return translate(SETRANS_TRANS_TO_RAW, trans, raw);
}

_public_ int selinux_raw_to_trans_context(const char *raw, char **transp)
{
	return RET_ERRNO(core_raw_to_trans(raw, transp));
}

_public_ int selinux_trans_to_raw_context(const char *trans, char **rawp)
{
	return RET_ERRNO(core_trans_to_raw(trans, rawp));
}

/* Test hook: point at a fake daemon's socket (single-threaded use). */
void core_set_setrans_socket(const char *path)
{
	free(socket_path_owned);
	socket_path_owned = path ? strdup(path) : NULL;
	socket_path = socket_path_owned ? socket_path_owned
					: SELINUX_TRANS_DIR "/.setrans-unix";
	present_init();
	pthread_once(&present_once, present_init);
}
