/* login/color.c: the display colours of a context (secolor.conf). */
#include <string.h>

#include "internal.h"

/*
 * The colours are computed by the mcstrans daemon from secolor.conf.
 * Without a daemon the reference answers a copy of the context itself
 * (0), which is what we answer always: talking to a daemon is not
 * implemented here yet.  A NULL context is -1 (EINVAL here; the
 * reference leaves errno alone).
 */
_public_ int selinux_raw_context_to_color(const char *raw, char **color_str)
{
	if (!color_str)
		return RET_ERRNO(-EINVAL);
	if (!raw) {
		*color_str = NULL;
		return RET_ERRNO(-EINVAL);
	}
	*color_str = strdup(raw);
	return *color_str ? 0 : RET_ERRNO(-ENOMEM);
}
