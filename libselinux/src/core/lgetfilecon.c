/* core/lgetfilecon.c: lgetfilecon and its _raw twin. */
#include <string.h>

#include <selinux/selinux.h>

#include "internal.h"

_public_ int lgetfilecon_raw(const char *path, char **con)
{
	return (int)RET_ERRNO((int)core_xattr_get(path, -1, CORE_XATTR_NOFOLLOW, con));
}

/* Returns strlen + 1 of the translated context. */
_public_ int lgetfilecon(const char *path, char **con)
{
	_cleanup_free_ char *raw = NULL;
	ssize_t n;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	n = core_xattr_get(path, -1, CORE_XATTR_NOFOLLOW, &raw);
	if (n < 0)
		return RET_ERRNO((int)n);
	r = core_raw_to_trans(raw, con);
	if (r < 0)
		return RET_ERRNO(r);
	return (int)strlen(*con) + 1;
}
