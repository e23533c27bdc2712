/* core/disable.c: security_disable. */
#include <selinux/selinux.h>

#include "internal.h"

/*
 * Writing "1" to selinuxfs "disable" turns SELinux off before the first
 * policy load.  Kernels since 6.4 no longer have runtime disable and
 * answer the write with an error, which is passed on.
 */
_public_ int security_disable(void)
{
	return RET_ERRNO(core_fs_write("disable", "1", 1));
}
