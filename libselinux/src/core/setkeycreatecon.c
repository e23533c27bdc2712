/* core/setkeycreatecon.c: setkeycreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of keyrings this thread creates.  NULL resets it to the policy default. */
_public_ int setkeycreatecon_raw(const char *con)
{
	return RET_ERRNO(core_procattr_set("keycreate", con));
}

_public_ int setkeycreatecon(const char *con)
{
	return RET_ERRNO(core_procattr_set_trans("keycreate", con));
}
