/* core/fgetfilecon.c: fgetfilecon and its _raw twin. */
#include <string.h>

#include <selinux/selinux.h>

#include "internal.h"

_public_ int fgetfilecon_raw(int fd, char **con)
{
	return (int)RET_ERRNO((int)core_xattr_get(NULL, fd, CORE_XATTR_FD, con));
}

/* Returns strlen + 1 of the translated context. */
_public_ int fgetfilecon(int fd, char **con)
{
	_cleanup_free_ char *raw = NULL;
	ssize_t n;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	n = core_xattr_get(NULL, fd, CORE_XATTR_FD, &raw);
	if (n < 0)
		return RET_ERRNO((int)n);
	r = core_raw_to_trans(raw, con);
	if (r < 0)
		return RET_ERRNO(r);
	return (int)strlen(*con) + 1;
}
