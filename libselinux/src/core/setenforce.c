/* core/setenforce.c: security_setenforce. */
#include <stdio.h>

#include <selinux/selinux.h>

#include "internal.h"

/* Written as "%d" like the established library: the kernel itself decides
 * what a value other than 0 or 1 means (it takes any non-zero as 1). */
_public_ int security_setenforce(int value)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%d", value);

	return RET_ERRNO(core_fs_write("enforce", buf, (size_t)n));
}
