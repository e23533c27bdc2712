/* core/xattr.c: the security.selinux extended attribute of files. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "internal.h"

#define XATTR_NAME_SELINUX "security.selinux"

static ssize_t xget_at(int dirfd, const char *name, void *buf, size_t size);

/* path (FOLLOW, NOFOLLOW), the descriptor fd (CORE_XATTR_FD), or the
 * entry path of the directory fd (CORE_XATTR_AT). */
static ssize_t xget(const char *path, int fd, enum core_xattr_how how,
		    void *buf, size_t size)
{
	if (how == CORE_XATTR_FD)
		return fgetxattr(fd, XATTR_NAME_SELINUX, buf, size);
	if (how == CORE_XATTR_AT)
		return xget_at(fd, path, buf, size);
	if (how == CORE_XATTR_NOFOLLOW)
		return lgetxattr(path, XATTR_NAME_SELINUX, buf, size);
	return getxattr(path, XATTR_NAME_SELINUX, buf, size);
}

static int xset(const char *path, int fd, enum core_xattr_how how,
		const char *con, size_t size)
{
	if (how == CORE_XATTR_AT) {
		errno = EINVAL; /* no caller sets labels that way */
		return -1;
	}
	if (how == CORE_XATTR_FD)
		return fsetxattr(fd, XATTR_NAME_SELINUX, con, size, 0);
	if (how == CORE_XATTR_NOFOLLOW)
		return lsetxattr(path, XATTR_NAME_SELINUX, con, size, 0);
	return setxattr(path, XATTR_NAME_SELINUX, con, size, 0);
}

/*
 * f*xattr() refuse descriptors opened with O_PATH (EBADF); the file they
 * name is still reachable through /proc/self/fd, which is what lets
 * fgetfilecon/fsetfilecon accept O_PATH descriptors.
 */
static bool o_path_fd(int fd, char *path, size_t size)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0 || !(flags & O_PATH))
		return false;
	snprintf(path, size, "/proc/self/fd/%d", fd);
	return true;
}

/*
 * How many times a read that found the value larger than the buffer
 * (ERANGE) is followed by a size query and another read.  Past the first,
 * each retry means the value changed between the query and the read: a
 * relabel racing with us, which a few retries outlast.  A file system
 * that answers ERANGE to every read, or a value that grows at every
 * request (a broken or hostile FUSE server, mounted allow_other), must
 * not keep us asking forever: after the last retry the answer is ERANGE,
 * as the established library answers after its first (at most 7 requests
 * here, 3 there).
 */
#define SIZE_QUERIES 3

/*
 * Returns the attribute's size and a NUL-terminated copy in *con.  The
 * value may lack the NUL (labels set by other tools), hence one spare
 * byte.  An empty value is ENOTSUP, as the established library maps it.
 */
ssize_t core_xattr_get(const char *path, int fd, enum core_xattr_how how,
		       char **con)
{
	_cleanup_free_ char *buf = NULL;
	char fdpath[64];
	size_t size = 256;
	int queries = 0;
	ssize_t n;

	if (!con)
		return -EINVAL;
	for (;;) {
		char *bigger = realloc(buf, size + 1);

		if (!bigger)
			return -ENOMEM;
		buf = bigger;
		n = xget(path, fd, how, buf, size);
		if (n < 0 && errno == EBADF && how == CORE_XATTR_FD &&
		    o_path_fd(fd, fdpath, sizeof(fdpath))) {
			path = fdpath;
			how = CORE_XATTR_FOLLOW;
			continue;
		}
		if (n >= 0 || errno != ERANGE)
			break;
		if (queries++ == SIZE_QUERIES)
			return -ERANGE;
		/* It grew (or our guess was small): ask its size, retry. */
		n = xget(path, fd, how, NULL, 0);
		if (n < 0)
			return -errno;
		size = (size_t)n + 1;
	}
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENOTSUP;
	buf[n] = '\0';
	*con = TAKE_PTR(buf);
	return n;
}

/*
 * The NUL is stored with the label, as the kernel itself does.  If the
 * file system refuses (ENOTSUP) but the file already has exactly this
 * label, that is success: nothing needed changing.
 */
int core_xattr_set(const char *path, int fd, enum core_xattr_how how,
		   const char *con)
{
	char fdpath[64];
	int r, err;

	if (!con)
		return -EINVAL;
	r = xset(path, fd, how, con, strlen(con) + 1);
	if (r < 0 && errno == EBADF && how == CORE_XATTR_FD &&
	    o_path_fd(fd, fdpath, sizeof(fdpath))) {
		path = fdpath;
		how = CORE_XATTR_FOLLOW;
		r = xset(path, fd, how, con, strlen(con) + 1);
	}
	if (r == 0)
		return 0;
	err = errno;
	if (err == ENOTSUP) {
		_cleanup_free_ char *cur = NULL;

		/*
		 * analyzer: false positive (clang NonNullParamChecker):
		 * core_xattr_get() sets cur whenever it returns > 0; clang
		 * assumes a failing getxattr() may leave errno 0, so "return
		 * -errno" could look positive.
		 */
		if (core_xattr_get(path, fd, how, &cur) > 0 &&
		    strcmp(cur, con) == 0)
			return 0;
	}
	return -err;
}

int core_xattr_get_trans(const char *path, int fd, enum core_xattr_how how,
			 char **con)
{
	_cleanup_free_ char *raw = NULL;
	ssize_t n;
	int r;

	if (!con)
		return -EINVAL;
	n = core_xattr_get(path, fd, how, &raw);
	if (n < 0)
		return (int)n;
	r = core_raw_to_trans(raw, con);
	if (r < 0)
		return r;
	return (int)strlen(*con) + 1;
}

int core_xattr_set_trans(const char *path, int fd, enum core_xattr_how how,
			 const char *con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return -EINVAL;
	r = core_trans_to_raw(con, &raw);
	if (r < 0)
		return r;
	return core_xattr_set(path, fd, how, raw);
}

/*
 * getxattrat(2) (Linux 6.13): the attribute of name relative to the
 * directory dirfd, without walking the path from / again.  Its number is
 * the same on every architecture but alpha; glibc 2.36 has no wrapper.
 */
#if !defined(SYS_getxattrat) && !defined(__alpha__)
#define SYS_getxattrat 464
#endif

struct xattr_args_v0 {
	uint64_t value; /* the buffer's address */
	uint32_t size;
	uint32_t flags;
};

/* Cleared for good when the kernel does not have the call. */
static bool have_getxattrat = true;

static ssize_t xget_at(int dirfd, const char *name, void *buf, size_t size)
{
#ifdef SYS_getxattrat
	struct xattr_args_v0 args = {
	    .value = (uint64_t)(uintptr_t)buf,
	    .size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size,
	};

	return syscall(SYS_getxattrat, dirfd, name, AT_SYMLINK_NOFOLLOW,
		       XATTR_NAME_SELINUX, &args, sizeof(args));
#else
	errno = ENOSYS;
	return -1;
#endif
}

ssize_t core_xattr_get_at(int dirfd, const char *name, const char *path,
			  char **con)
{
	ssize_t n;

	if (dirfd >= 0 && __atomic_load_n(&have_getxattrat, __ATOMIC_RELAXED)) {
		n = core_xattr_get(name, dirfd, CORE_XATTR_AT, con);
		if (n != -ENOSYS && n != -EPERM)
			return n;
		/* An older kernel, or a seccomp filter refusing the call
		 * it does not know (ENOSYS, or EPERM for some): by path
		 * from now on.  (A file that refuses its label with EPERM
		 * refuses it by path too.) */
		__atomic_store_n(&have_getxattrat, false, __ATOMIC_RELAXED);
	}
	return core_xattr_get(path, -1, CORE_XATTR_NOFOLLOW, con);
}
