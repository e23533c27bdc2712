/* core/getexeccon.c: getexeccon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context the next execve() will run in. */
_public_ int getexeccon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "exec", con));
}

_public_ int getexeccon(char **con)
{
	return RET_ERRNO(core_procattr_get_trans(0, "exec", con));
}
