/* core/getcon.c: getcon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The calling thread's current context. */
_public_ int getcon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "current", con));
}

_public_ int getcon(char **con)
{
	return RET_ERRNO(core_procattr_get_trans(0, "current", con));
}
