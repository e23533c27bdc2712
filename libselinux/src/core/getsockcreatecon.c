/* core/getsockcreatecon.c: getsockcreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of sockets this thread creates. */
_public_ int getsockcreatecon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "sockcreate", con));
}

_public_ int getsockcreatecon(char **con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_procattr_get(0, "sockcreate", &raw);
	if (r >= 0)
		r = core_raw_to_trans(raw, con);
	return RET_ERRNO(r);
}
