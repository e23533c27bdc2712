/* core/setexeccon.c: setexeccon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context the next execve() will run in.  NULL resets it to the policy default. */
_public_ int setexeccon_raw(const char *con)
{
	return RET_ERRNO(core_procattr_set("exec", con));
}

_public_ int setexeccon(const char *con)
{
	return RET_ERRNO(core_procattr_set_trans("exec", con));
}
