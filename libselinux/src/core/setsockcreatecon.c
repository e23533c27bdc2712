/* core/setsockcreatecon.c: setsockcreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of sockets this thread creates.  NULL resets it to the policy default. */
_public_ int setsockcreatecon_raw(const char *con)
{
	return RET_ERRNO(core_procattr_set("sockcreate", con));
}

_public_ int setsockcreatecon(const char *con)
{
	return RET_ERRNO(core_procattr_set_trans("sockcreate", con));
}
