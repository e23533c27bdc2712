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
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_procattr_get(0, "exec", &raw);
	if (r >= 0)
		r = core_raw_to_trans(raw, con);
	return RET_ERRNO(r);
}
