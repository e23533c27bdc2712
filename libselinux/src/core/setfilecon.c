/* core/setfilecon.c: setfilecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

_public_ int setfilecon_raw(const char *path, const char *con)
{
	return RET_ERRNO(core_xattr_set(path, -1, CORE_XATTR_FOLLOW, con));
}

_public_ int setfilecon(const char *path, const char *con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_trans_to_raw(con, &raw);
	if (r >= 0)
		r = core_xattr_set(path, -1, CORE_XATTR_FOLLOW, raw);
	return RET_ERRNO(r);
}
