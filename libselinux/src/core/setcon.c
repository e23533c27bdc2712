/* core/setcon.c: setcon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* Dynamic transition of the calling thread.  NULL resets it to the policy default. */
_public_ int setcon_raw(const char *con)
{
	return RET_ERRNO(core_procattr_set("current", con));
}

_public_ int setcon(const char *con)
{
	return RET_ERRNO(core_procattr_set_trans("current", con));
}
