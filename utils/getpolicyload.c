/*
 * getpolicyload - print how many times a policy was loaded
 *
 * SYNOPSIS
 *     getpolicyload
 *
 * DESCRIPTION
 *     Prints the policy load count of the kernel's SELinux status page
 *     (selinux_status_policyload(3)); committing booleans counts as a load.
 *     Arguments are ignored.
 *
 * EXIT STATUS
 *     0
 *         The count was printed.
 *     1
 *         The status page could not be opened or read.
 *
 * SEE ALSO
 *     selinux_status_open(3), getenforce(8)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/avc.h>

/*
 * Debian 12's selinux-utils does not ship this program; upstream's
 * (libselinux 3.2 and later) prints the bare count and exits 1 on
 * failure, and so does this one.  The count is the status page's
 * policyload, which boolean commits advance too.  No netlink fallback:
 * without the page there is no count to read.
 */
int main(int argc, char **argv)
{
	const char *name = argc > 0 ? argv[0] : "getpolicyload";
	int r;

	if (selinux_status_open(0) != 0) {
		fprintf(stderr, "%s:  failed to open SELinux status map:  %s\n",
			name, strerror(errno));
		return EXIT_FAILURE;
	}
	r = selinux_status_policyload();
	if (r < 0)
		fprintf(stderr,
			"%s:  failed to read policyload from SELinux status "
			"page:  %s\n",
			name, strerror(errno));
	else
		printf("%d\n", r);
	selinux_status_close();
	return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
