/* core/policyvers.c: security_policyvers. */
#include <limits.h>

#include <selinux/selinux.h>

#include "internal.h"

/* Kernels older than the policyvers file supported up to version 15. */
#define DEFAULT_POLICY_VERSION 15

_public_ int security_policyvers(void)
{
	long v;
	int r;

	if (!selinux_mnt)
		return RET_ERRNO(-ENOENT);
	r = core_fs_read_long("policyvers", &v);
	if (r == -ENOENT)
		return DEFAULT_POLICY_VERSION;
	if (r < 0)
		return RET_ERRNO(r);
	/* The kernel prints an unsigned; -1 is our error sentinel. */
	if (v < 0 || v > INT_MAX)
		return RET_ERRNO(-EINVAL);
	return (int)v;
}
