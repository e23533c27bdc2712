/* core/canonicalize_context.c: security_canonicalize_context(_raw). */
#include <fcntl.h>
#include <string.h>

#include <selinux/selinux.h>

#include "internal.h"

/*
 * Write the context to selinuxfs "context" and read back the kernel's
 * canonical form on the same file.  Kernels that validate but cannot
 * answer refuse the read with EINVAL; then, as the established library
 * does, the context given is its own canonical form.  An empty answer is
 * treated the same way.
 */
static int canonicalize(const char *con, char **canon)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	size_t size = (size_t)core_page_size;
	ssize_t n;

	if (!con || !canon)
		return -EINVAL;
	fd = core_fs_open("context", O_RDWR);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(write(fd, con, strlen(con) + 1));
	if (n < 0)
		return -errno;
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	n = RETRY_EINTR(read(fd, buf, size - 1));
	if (n < 0 && errno != EINVAL)
		return -errno;
	if (n <= 0 || buf[0] == '\0') {
		*canon = strdup(con);
		return *canon ? 0 : -ENOMEM;
	}
	*canon = strndup(buf, (size_t)n);
	return *canon ? 0 : -ENOMEM;
}

_public_ int security_canonicalize_context_raw(const char *con, char **canon)
{
	return RET_ERRNO(canonicalize(con, canon));
}

_public_ int security_canonicalize_context(const char *con, char **canon)
{
	_cleanup_free_ char *raw = NULL, *rawcanon = NULL;
	int r;

	if (!con || !canon)
		return RET_ERRNO(-EINVAL);
	r = core_trans_to_raw(con, &raw);
	if (r >= 0)
		r = canonicalize(raw, &rawcanon);
	if (r >= 0)
		r = core_raw_to_trans(rawcanon, canon);
	return RET_ERRNO(r);
}
