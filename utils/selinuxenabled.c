/* utils/selinuxenabled.c: exit 0 if SELinux is enabled, 1 if not
 * (selinuxenabled(8)).  Silent, and arguments are ignored. */
#include <selinux/selinux.h>

int main(void)
{
	/* An error (never returned by the library today) reads as "not". */
	return is_selinux_enabled() > 0 ? 0 : 1;
}
