/* core/getsockcreatecon.c: getsockcreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of sockets this thread creates. */
_public_ int getsockcreatecon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "sockcreate", con));
}

_public_ int getsockcreatecon(char **con)
{
	return RET_ERRNO(core_procattr_get_trans(0, "sockcreate", con));
}
