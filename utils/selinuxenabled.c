/*
 * selinuxenabled - tell a shell script whether SELinux is enabled
 *
 * SYNOPSIS
 *     selinuxenabled
 *
 * DESCRIPTION
 *     Prints nothing; the exit status says whether SELinux is enabled, as
 *     is_selinux_enabled(3) decides.  Arguments are ignored.
 *
 * EXIT STATUS
 *     0
 *         SELinux is enabled.
 *     1
 *         It is not.
 *
 * EXAMPLES
 *         if selinuxenabled; then restorecon -R /srv; fi
 *
 * SEE ALSO
 *     getenforce(8), setenforce(8), is_selinux_enabled(3)
 */
#include <selinux/selinux.h>

int main(void)
{
	/* An error (never returned by the library today) reads as "not". */
	return is_selinux_enabled() > 0 ? 0 : 1;
}
