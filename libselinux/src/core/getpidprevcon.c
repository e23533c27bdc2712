/* core/getpidprevcon.c: getpidprevcon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context process pid had before its last execve().  A pid <= 0 is EINVAL. */
_public_ int getpidprevcon_raw(pid_t pid, char **con)
{
	if (pid <= 0)
		return RET_ERRNO(-EINVAL);
	return RET_ERRNO(core_procattr_get(pid, "prev", con));
}

_public_ int getpidprevcon(pid_t pid, char **con)
{
	if (pid <= 0)
		return RET_ERRNO(-EINVAL);
	return RET_ERRNO(core_procattr_get_trans(pid, "prev", con));
}
