/* core/getprevcon.c: getprevcon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context before the last execve(). */
_public_ int getprevcon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "prev", con));
}

_public_ int getprevcon(char **con)
{
	return RET_ERRNO(core_procattr_get_trans(0, "prev", con));
}
