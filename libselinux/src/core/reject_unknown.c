/* core/reject_unknown.c: security_reject_unknown. */
#include <limits.h>

#include <selinux/selinux.h>

#include "internal.h"

/*
 * selinuxfs "reject_unknown" holds the kernel's flag as a decimal number.  The value
 * is returned as the kernel printed it (as the established library does);
 * a negative or non-numeric one is EINVAL, since -1 is the error sentinel.
 */
_public_ int security_reject_unknown(void)
{
	long v;
	int r = core_fs_read_long("reject_unknown", &v);

	if (r < 0)
		return RET_ERRNO(r);
	if (v < 0 || v > INT_MAX)
		return RET_ERRNO(-EINVAL);
	return (int)v;
}
