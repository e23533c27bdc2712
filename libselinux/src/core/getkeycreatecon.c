/* core/getkeycreatecon.c: getkeycreatecon and its _raw twin. */
#include <selinux/selinux.h>

#include "internal.h"

/* The context of keyrings this thread creates. */
_public_ int getkeycreatecon_raw(char **con)
{
	return RET_ERRNO(core_procattr_get(0, "keycreate", con));
}

_public_ int getkeycreatecon(char **con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_procattr_get(0, "keycreate", &raw);
	if (r >= 0)
		r = core_raw_to_trans(raw, con);
	return RET_ERRNO(r);
}
