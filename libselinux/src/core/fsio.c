/* core/fsio.c: reading and writing selinuxfs files, the kernel's way. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

int core_fs_path(const char *name, char *buf, size_t size)
{
	int n;

	if (!selinux_mnt)
		return -ENOENT;
	n = snprintf(buf, size, "%s/%s", selinux_mnt, name);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

int core_fs_open(const char *name, int flags)
{
	char path[PATH_MAX];
	int r, fd;

	r = core_fs_path(name, path, sizeof(path));
	if (r < 0)
		return r;
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * selinuxfs files are generated on each read from offset 0: one read()
 * with a buffer larger than any answer gets the whole value at once (the
 * same rule as systemd's read_virtual_file).  A value that does not fit
 * is garbage for these small files, and the parser will reject it.
 */
ssize_t core_fs_read(const char *name, char *buf, size_t size)
{
	_cleanup_close_ int fd = -1;
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	fd = core_fs_open(name, O_RDONLY);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(read(fd, buf, size - 1));
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

int core_parse_long(const char *s, long *out)
{
	char *end;
	long v;

	while (ascii_isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s)
		return -EINVAL;
	while (ascii_isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int core_fs_read_long(const char *name, long *out)
{
	char buf[64];
	ssize_t n;
	int saved = errno;
	int r;

	n = core_fs_read(name, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	r = core_parse_long(buf, out);
	errno = saved; /* strtol may have touched it; helpers never do */
	return r;
}

int core_fs_write(const char *name, const void *buf, size_t len)
{
	_cleanup_close_ int fd = -1;
	ssize_t n;

	fd = core_fs_open(name, O_WRONLY);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(write(fd, buf, len));
	if (n < 0)
		return -errno;
	/* selinuxfs takes a value in one write; a short one is a failure. */
	if ((size_t)n != len)
		return -EIO;
	return 0;
}

/*
 * Transaction files (access, create, context, user, ...): the request is
 * written and the answer read back on the same open file.  The kernel
 * keeps the answer in a buffer of its own and serves reads from it at
 * increasing offsets, so we read until end of file.
 */
int core_fs_transact(const char *name, const void *req, size_t reqlen,
		     char **reply, size_t *replylen)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	size_t cap = (size_t)core_page_size, len = 0;
	ssize_t n;

	fd = core_fs_open(name, O_RDWR);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(write(fd, req, reqlen));
	if (n < 0)
		return -errno;
	if ((size_t)n != reqlen)
		return -EIO;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (cap - len < 2) {
			char *bigger;

			if (cap > (size_t)16 << 20)
				return -EOVERFLOW;
			bigger = realloc(buf, cap * 2);
			if (!bigger)
				return -ENOMEM;
			buf = bigger;
			cap *= 2;
		}
		n = RETRY_EINTR(read(fd, buf + len, cap - len - 1));
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (replylen)
		*replylen = len;
	*reply = TAKE_PTR(buf);
	return 0;
}
