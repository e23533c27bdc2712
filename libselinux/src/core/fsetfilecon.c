/* core/fsetfilecon.c: fsetfilecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

_public_ int fsetfilecon_raw(int fd, const char *con)
{
	return RET_ERRNO(core_xattr_set(NULL, fd, CORE_XATTR_FD, con));
}

_public_ int fsetfilecon(int fd, const char *con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_trans_to_raw(con, &raw);
	if (r >= 0)
		r = core_xattr_set(NULL, fd, CORE_XATTR_FD, raw);
	return RET_ERRNO(r);
}
