/*
 * getpidcon - print the SELinux context of a process
 *
 * SYNOPSIS
 *     getpidcon pid
 *
 * DESCRIPTION
 *     Prints the current context of process pid, read from
 *     /proc/pid/attr/current with getpidcon(3).  The number is read as
 *     scanf's %d reads it: leading blanks and a sign are allowed, and what
 *     follows the digits is ignored.
 *
 * EXIT STATUS
 *     0
 *         The context was printed.
 *     1
 *         Not exactly one argument.
 *     2
 *         The argument is not a number.
 *     3
 *         The context could not be read (no such process, no SELinux ...).
 *
 * SEE ALSO
 *     getpidprevcon(8), ps(1), getpidcon(3)
 */
#include <errno.h>
#include <stdio.h>
#include <sys/types.h>

#include <selinux/selinux.h>

#include "util.h"

/*
 * As in selinux-utils 3.4: exactly one argument (else usage, status 1),
 * read the way sscanf("%d") reads it - leading blanks and a sign allowed,
 * trailing characters ignored, so "12abc" is pid 12 - or "invalid pid",
 * status 2; a failing getpidcon() is status 3.  The library rejects a
 * pid <= 0 with EINVAL.
 */
int main(int argc, char **argv)
{
	char *con = NULL;
	pid_t pid;

	if (argc != 2)
		util_usage(argv[0], "pid", NULL, 1);
	if (util_pid(argv[0], argv[1], &pid) < 0)
		return 2;
	if (getpidcon(pid, &con) < 0) {
		util_failed(argv[0], "getpidcon()");
		return 3;
	}
	/*
	 * An attribute the kernel answers with nothing is success with no
	 * context; Debian's program crashes on it (puts(NULL)), ours says so.
	 */
	if (!con) {
		errno = ENODATA;
		util_failed(argv[0], "getpidcon()");
		return 3;
	}
	puts(con);
	freecon(con);
	return 0;
}
