/* core/getpidcon.c: getpidcon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The current context of process pid.  A pid <= 0 is EINVAL. */
_public_ int getpidcon_raw(pid_t pid, char **con)
{
	if (pid <= 0)
		return RET_ERRNO(-EINVAL);
	return RET_ERRNO(core_procattr_get(pid, "current", con));
}

_public_ int getpidcon(pid_t pid, char **con)
{
	if (pid <= 0)
		return RET_ERRNO(-EINVAL);
	return RET_ERRNO(core_procattr_get_trans(pid, "current", con));
}
