/* core/getcon.c: getcon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The calling thread's current context. */
_public_ int getcon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "current", con));
}

_public_ int getcon(char **con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_procattr_get(0, "current", &raw);
	if (r >= 0)
		r = core_raw_to_trans(raw, con);
	return RET_ERRNO(r);
}
