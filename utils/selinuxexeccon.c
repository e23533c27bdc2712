/*
 * selinuxexeccon - print the context a program would run in
 *
 * SYNOPSIS
 *     selinuxexeccon command [ fromcon ]
 *
 * DESCRIPTION
 *     Prints the context a process in fromcon (by default the caller's own)
 *     gets when it executes the file command: the policy's transition for
 *     class process on the file's label (security_compute_create(3)).
 *
 * EXIT STATUS
 *     0
 *         The context was printed.
 *     255
 *         Wrong arguments, fromcon invalid, or the file's label or the
 *         transition could not be obtained.
 *
 * SEE ALSO
 *     getfilecon(8), compute_create(8), setexecfilecon(3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/selinux.h>

#include "util.h"

/*
 * As Debian's selinux-utils 3.4, every failure exits 255: a wrong
 * argument count prints the usage and a reason; a FROMCON given is
 * checked against the policy first ("invalid from context"), while the
 * caller's own context is taken as it is; a failing getcon, getfilecon
 * (COMMAND's label, symbolic links followed) or computation is reported
 * perror-style, "PROG: <strerror>".  The answer is the policy's
 * transition for class "process", looked up without checking the
 * class, as Debian's does.
 */
int main(int argc, char **argv)
{
	char *fromcon = NULL, *filecon = NULL, *newcon = NULL;
	int status = 255;

	if (argc < 2 || argc > 3)
		util_usage(argv[0], "command [ fromcon ]",
			   "Invalid number of arguments", 255);
	if (argc == 3) {
		fromcon = strdup(argv[2]);
		if (!fromcon) {
			perror(argv[0]);
			return status;
		}
		if (!util_context_ok(argv[0], "from", fromcon))
			goto out;
	} else if (getcon(&fromcon) < 0) {
		perror(argv[0]);
		return status;
	}
	if (getfilecon(argv[1], &filecon) < 0 ||
	    security_compute_create(fromcon, filecon,
				    string_to_security_class("process"),
				    &newcon) < 0) {
		perror(argv[0]);
		goto out;
	}
	puts(newcon ? newcon : "");
	status = 0;
out:
	freecon(newcon);
	freecon(filecon);
	free(fromcon);
	return status;
}
