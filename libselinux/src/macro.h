/* Shared helpers of every layer: visibility, cleanup attributes, ownership. */
#ifndef SELINUX_SRC_MACRO_H
#define SELINUX_SRC_MACRO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * The build uses -fvisibility=hidden: only definitions marked _public_ and
 * listed in libselinux.map reach the dynamic symbol table.  Internal
 * functions carry a layer prefix (core_, ctx_, comp_, cache_, lbl_, login_)
 * and stay hidden, so unit tests reach them through the static archive only.
 */
#define _public_ __attribute__((visibility("default")))
#define _hidden_ __attribute__((visibility("hidden")))
#define _unused_ __attribute__((unused))
#define _likely_(x) __builtin_expect(!!(x), 1)
#define _unlikely_(x) __builtin_expect(!!(x), 0)
#define _printf_(a, b) __attribute__((format(printf, a, b)))

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

/*
 * Cleanup attributes.  A local declared _cleanup_free_ is released on every
 * return path, which is what lets internal helpers "return -errno" from any
 * point without a goto ladder.  errno is written by exported functions only,
 * after all cleanups have run (see RET_ERRNO), so a close() or free() in a
 * cleanup can never clobber the errno the caller sees.
 */
static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

static inline void fclosep(FILE **f)
{
	if (*f) {
		int saved = errno;
		fclose(*f);
		errno = saved;
	}
}

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)

/* Hand ownership out of a cleanup-managed variable. */
#define TAKE_PTR(p)                                                            \
	({                                                                     \
		__typeof__(p) _p = (p);                                        \
		(p) = NULL;                                                    \
		_p;                                                            \
	})

#define TAKE_FD(fd)                                                            \
	({                                                                     \
		int _fd = (fd);                                                \
		(fd) = -1;                                                     \
		_fd;                                                           \
	})

/*
 * The ABI convention at the edge of the library: an internal result r is
 * >= 0 on success or -errno on failure.  RET_ERRNO(r) turns it into the
 * reference's "-1 and errno" form; success values pass through unchanged.
 */
static inline int ret_errno(int r)
{
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return r;
}
#define RET_ERRNO(r) ret_errno(r)

/* Retry a syscall expression while it fails with EINTR. */
#define RETRY_EINTR(expr)                                                      \
	({                                                                     \
		__typeof__(expr) _r;                                           \
		do                                                             \
			_r = (expr);                                           \
		while (_r < 0 && errno == EINTR);                              \
		_r;                                                            \
	})

/*
 * Byte classes and case folding of ASCII alone.  The C library's
 * isspace()/strcasecmp() follow the caller's LC_CTYPE: in a Turkish
 * locale (tr_TR.ISO-8859-9) "I" does not fold to "i".
 * The library is linked into setuid programs that call setlocale() with
 * the invoking user's environment, and what it reads from its files must
 * not depend on that (README, "Hostile callers"), so parsers use these.
 */
static inline int ascii_isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int ascii_isalnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static inline int ascii_tolower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static inline int ascii_strncasecmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		int x = ascii_tolower((unsigned char)*a);
		int y = ascii_tolower((unsigned char)*b);

		if (x != y)
			return x - y;
		if (!x)
			break;
	}
	return 0;
}

static inline int ascii_strcasecmp(const char *a, const char *b)
{
	return ascii_strncasecmp(a, b, (size_t)-1);
}

#endif
