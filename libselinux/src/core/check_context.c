/* core/check_context.c: security_check_context and its _raw twin. */
#include <string.h>

#include <selinux/selinux.h>

#include "internal.h"

/* The kernel validates what is written to selinuxfs "context"; the
 * terminating NUL is part of the write, as the kernel expects. */
_public_ int security_check_context_raw(const char *con)
{
	if (!con)
		return RET_ERRNO(-EINVAL);
	if (!selinux_mnt)
		return RET_ERRNO(-ENOENT);
	return RET_ERRNO(core_fs_write("context", con, strlen(con) + 1));
}

_public_ int security_check_context(const char *con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return RET_ERRNO(-EINVAL);
	r = core_trans_to_raw(con, &raw);
	if (r < 0)
		return RET_ERRNO(r);
	return security_check_context_raw(raw);
}
