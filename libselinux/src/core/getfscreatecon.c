/* core/getfscreatecon.c: getfscreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of files this thread creates. */
_public_ int getfscreatecon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "fscreate", con));
}

_public_ int getfscreatecon(char **con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_procattr_get(0, "fscreate", &raw);
	if (r >= 0)
		r = core_raw_to_trans(raw, con);
	return RET_ERRNO(r);
}
