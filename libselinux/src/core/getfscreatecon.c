/* core/getfscreatecon.c: getfscreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of files this thread creates. */
_public_ int getfscreatecon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "fscreate", con));
}

_public_ int getfscreatecon(char **con)
{
	return RET_ERRNO(core_procattr_get_trans(0, "fscreate", con));
}
