/* core/getpeercon.c: getpeercon and its _raw twin. */
#include <string.h>
#include <sys/socket.h>

#include <selinux/selinux.h>

#include "internal.h"

/*
 * SO_PEERSEC answers the peer's context with its NUL.  When the buffer is
 * too small the kernel fails with ERANGE and stores the size it needs in
 * the length argument; retry with that.
 */
static int peercon(int fd, char **con)
{
	_cleanup_free_ char *buf = NULL;
	socklen_t size = 256;

	if (!con)
		return -EINVAL;
	for (;;) {
		socklen_t len = size;
		char *bigger = realloc(buf, (size_t)size + 1);

		if (!bigger)
			return -ENOMEM;
		buf = bigger;
		memset(buf, 0, (size_t)size + 1);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERSEC, buf, &len) == 0)
			break;
		if (errno != ERANGE || len <= size)
			return -errno;
		size = len;
	}
	*con = TAKE_PTR(buf);
	return 0;
}

_public_ int getpeercon_raw(int fd, char **con)
{
	return RET_ERRNO(peercon(fd, con));
}

_public_ int getpeercon(int fd, char **con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = peercon(fd, &raw);
	if (r >= 0)
		r = core_raw_to_trans(raw, con);
	return RET_ERRNO(r);
}
