/*
 * setfilecon - set the SELinux context of files
 *
 * SYNOPSIS
 *     setfilecon context path...
 *
 * DESCRIPTION
 *     Sets the security.selinux attribute of each path to context with
 *     setfilecon(3), following symbolic links.  Nothing is printed on
 *     success; the first path that fails ends the program with a message
 *     naming the path and the context.  restorecon(8) sets the context
 *     file_contexts(5) gives instead.
 *
 * EXIT STATUS
 *     0
 *         Every path was labelled.
 *     1
 *         Fewer than two arguments.
 *     2
 *         A path could not be labelled (invalid context, no permission ...).
 *
 * SEE ALSO
 *     getfilecon(8), chcon(1), setfilecon(3)
 */
#include <stdio.h>

#include <selinux/selinux.h>

#include "util.h"

/*
 * As in selinux-utils 3.4: silent on success; the first path that fails
 * ends the program with status 2, naming path and context; fewer than
 * two arguments is a usage error, status 1.  Symbolic links are followed.
 */
int main(int argc, char **argv)
{
	if (argc < 3)
		util_usage(argv[0], "context path...", NULL, 1);
	for (int i = 2; i < argc; i++) {
		if (setfilecon(argv[i], argv[1]) < 0) {
			util_failed(argv[0], "setfilecon(%s,%s)", argv[i],
				    argv[1]);
			return 2;
		}
	}
	return 0;
}
