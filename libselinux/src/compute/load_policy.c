/* compute/load_policy.c: security_load_policy. */
#include <fcntl.h>

#include "internal.h"

/*
 * The kernel takes a binary policy in a single write() to "load" (it
 * copies len bytes and parses them whole); a short write would load
 * nothing, and is EIO.  The established library opens the file
 * read-write; so do we, so that the same permission checks apply.
 */
int comp_load_policy(const void *data, size_t len)
{
	_cleanup_close_ int fd = -1;
	ssize_t n;

	if (!selinux_mnt)
		return -ENOENT;
	if (!data && len)
		return -EINVAL;
	fd = core_fs_open("load", O_RDWR);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(write(fd, data, len));
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

_public_ int security_load_policy(const void *data, size_t len)
{
	return RET_ERRNO(comp_load_policy(data, len));
}
