/* core/getkeycreatecon.c: getkeycreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of keyrings this thread creates. */
_public_ int getkeycreatecon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "keycreate", con));
}

_public_ int getkeycreatecon(char **con)
{
	return RET_ERRNO(core_procattr_get_trans(0, "keycreate", con));
}
