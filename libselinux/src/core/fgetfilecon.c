/* core/fgetfilecon.c: fgetfilecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* Returns the size of the attribute value (see selinux.h). */
_public_ int fgetfilecon_raw(int fd, char **con)
{
	return RET_ERRNO((int)core_xattr_get(NULL, fd, CORE_XATTR_FD, con));
}

/* Returns strlen + 1 of the translated context. */
_public_ int fgetfilecon(int fd, char **con)
{
	return RET_ERRNO(core_xattr_get_trans(NULL, fd, CORE_XATTR_FD, con));
}
