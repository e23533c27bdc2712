/*
 * getpidprevcon - print the SELinux context a process had before its last exec
 *
 * SYNOPSIS
 *     getpidprevcon pid
 *
 * DESCRIPTION
 *     Prints the previous context of process pid (/proc/pid/attr/prev),
 *     the one it had before its last execve(2), with getpidprevcon(3).
 *     The argument is read as getpidcon(8) reads it.
 *
 * EXIT STATUS
 *     0
 *         The context was printed.
 *     1
 *         Not exactly one argument.
 *     2
 *         The argument is not a number.
 *     3
 *         The context could not be read.
 *
 * SEE ALSO
 *     getpidcon(8), getpidprevcon(3)
 */
#include <errno.h>
#include <stdio.h>
#include <sys/types.h>

#include <selinux/selinux.h>

#include "util.h"

/*
 * Debian 12's selinux-utils (3.4) has no getpidprevcon: the program
 * arrived with getpidprevcon(3) in libselinux 3.5, described there as the
 * getpidcon utility's twin for the context before the last exec.  So it
 * behaves exactly like our getpidcon (usage status 1, "invalid pid"
 * status 2, a failing call status 3), naming getpidprevcon() instead.
 */
int main(int argc, char **argv)
{
	char *con = NULL;
	pid_t pid;

	if (argc != 2)
		util_usage(argv[0], "pid", NULL, 1);
	if (util_pid(argv[0], argv[1], &pid) < 0)
		return 2;
	if (getpidprevcon(pid, &con) < 0) {
		util_failed(argv[0], "getpidprevcon()");
		return 3;
	}
	/*
	 * An attribute the kernel answers with nothing is success with no
	 * context; Debian's program crashes on it (puts(NULL)), ours says so.
	 */
	if (!con) {
		errno = ENODATA;
		util_failed(argv[0], "getpidprevcon()");
		return 3;
	}
	puts(con);
	freecon(con);
	return 0;
}
