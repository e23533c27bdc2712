/* core/getprevcon.c: getprevcon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context before the last execve(). */
_public_ int getprevcon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "prev", con));
}

_public_ int getprevcon(char **con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_procattr_get(0, "prev", &raw);
	if (r >= 0)
		r = core_raw_to_trans(raw, con);
	return RET_ERRNO(r);
}
