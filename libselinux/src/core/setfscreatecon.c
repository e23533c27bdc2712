/* core/setfscreatecon.c: setfscreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of files this thread creates.  NULL resets it to the policy default. */
_public_ int setfscreatecon_raw(const char *con)
{
	return RET_ERRNO(core_procattr_set("fscreate", con));
}

_public_ int setfscreatecon(const char *con)
{
	return RET_ERRNO(core_procattr_set_trans("fscreate", con));
}
