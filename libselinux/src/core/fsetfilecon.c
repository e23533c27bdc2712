/* core/fsetfilecon.c: fsetfilecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

_public_ int fsetfilecon_raw(int fd, const char *con)
{
	return RET_ERRNO(core_xattr_set(NULL, fd, CORE_XATTR_FD, con));
}

_public_ int fsetfilecon(int fd, const char *con)
{
	return RET_ERRNO(core_xattr_set_trans(NULL, fd, CORE_XATTR_FD, con));
}
