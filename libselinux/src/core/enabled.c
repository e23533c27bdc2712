/* core/enabled.c: is_selinux_enabled and is_selinux_mls_enabled. */
#include <selinux/selinux.h>

#include "internal.h"

/*
 * Enabled means a selinuxfs is known and /etc/selinux/config existed when
 * the library was loaded: the established library requires both, and
 * programs (id -Z, ls, sshd) rely on a config-less system being disabled.
 */
_public_ int is_selinux_enabled(void)
{
	return selinux_mnt && core_has_config;
}

/* Only a value of exactly 1 counts, and every error reads as "no MLS". */
_public_ int is_selinux_mls_enabled(void)
{
	int saved = errno;
	long v = 0;

	if (!selinux_mnt)
		return 0;
	if (core_fs_read_long("mls", &v) < 0)
		v = 0;
	errno = saved;
	return v == 1;
}
