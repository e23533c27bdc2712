/* core/getenforce.c: security_getenforce. */
#include <selinux/selinux.h>

#include "internal.h"

/*
 * The kernel prints "%d" of its enforcing flag.  Any non-zero value means
 * enforcing (the established library answers !!value too).  Unlike it, a
 * value that is not a number is EINVAL rather than -1 with a stale errno.
 */
_public_ int security_getenforce(void)
{
	long v;
	int r = core_fs_read_long("enforce", &v);

	if (r < 0)
		return RET_ERRNO(r);
	return v != 0;
}
