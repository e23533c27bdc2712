/* core/lgetfilecon.c: lgetfilecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* Returns the size of the attribute value (see selinux.h). */
_public_ int lgetfilecon_raw(const char *path, char **con)
{
	return RET_ERRNO((int)core_xattr_get(path, -1, CORE_XATTR_NOFOLLOW, con));
}

/* Returns strlen + 1 of the translated context. */
_public_ int lgetfilecon(const char *path, char **con)
{
	return RET_ERRNO(core_xattr_get_trans(path, -1, CORE_XATTR_NOFOLLOW, con));
}
