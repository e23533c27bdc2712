/* core/setfilecon.c: setfilecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

_public_ int setfilecon_raw(const char *path, const char *con)
{
	return RET_ERRNO(core_xattr_set(path, -1, CORE_XATTR_FOLLOW, con));
}

_public_ int setfilecon(const char *path, const char *con)
{
	return RET_ERRNO(core_xattr_set_trans(path, -1, CORE_XATTR_FOLLOW, con));
}
