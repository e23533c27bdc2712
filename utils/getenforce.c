/*
 * getenforce - print the current mode of SELinux
 *
 * SYNOPSIS
 *     getenforce
 *
 * DESCRIPTION
 *     Prints Enforcing, Permissive or Disabled: Disabled when
 *     is_selinux_enabled(3) says SELinux is off (no selinuxfs, or no
 *     /etc/selinux/config), otherwise the kernel's mode as
 *     security_getenforce(3) reads it from selinuxfs.
 *
 *     Arguments are ignored.
 *
 * EXIT STATUS
 *     0
 *         The mode was printed.
 *     2
 *         It could not be read; a message names the failing call.
 *
 * SEE ALSO
 *     setenforce(8), selinuxenabled(8), selinux_config(5), security_getenforce(3)
 */
#include <stdio.h>

#include <selinux/selinux.h>

#include "util.h"

/*
 * Like Debian's selinux-utils 3.4, the messages name the program
 * "getenforce" whatever argv[0] is, arguments are ignored, and a failure
 * exits 2.  The is_selinux_enabled() message has no newline there either.
 */
int main(void)
{
	int r = is_selinux_enabled();

	if (r < 0) {
		fputs("getenforce:  is_selinux_enabled() failed", stderr);
		return 2;
	}
	if (r == 0) {
		puts("Disabled");
		return 0;
	}
	r = security_getenforce();
	if (r < 0) {
		util_failed("getenforce", "security_getenforce()");
		return 2;
	}
	puts(r ? "Enforcing" : "Permissive");
	return 0;
}
