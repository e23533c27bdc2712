/*
 * getfilecon - print the SELinux context of files
 *
 * SYNOPSIS
 *     getfilecon path...
 *
 * DESCRIPTION
 *     For each path prints the path, a tab and its context: the
 *     security.selinux extended attribute, read with getfilecon(3)
 *     (symbolic links are followed).  The first path that fails ends the
 *     program; the lines printed before it stay printed.
 *
 * EXIT STATUS
 *     0
 *         Every context was printed.
 *     1
 *         No path was given.
 *     2
 *         A context could not be read (no label, no such file ...).
 *
 * SEE ALSO
 *     setfilecon(8), matchpathcon(8), getfilecon(3)
 */
#include <stdio.h>

#include <selinux/selinux.h>

#include "util.h"

/*
 * As in selinux-utils 3.4: the first path that fails ends the program
 * with status 2 (the lines already printed stay printed); no path at all
 * is a usage error, status 1.  Symbolic links are followed.
 */
int main(int argc, char **argv)
{
	if (argc < 2)
		util_usage(argv[0], "path...", NULL, 1);
	for (int i = 1; i < argc; i++) {
		char *con = NULL;

		if (getfilecon(argv[i], &con) < 0) {
			util_failed(argv[0], "getfilecon(%s)", argv[i]);
			return 2;
		}
		printf("%s\t%s\n", argv[i], con);
		freecon(con);
	}
	return 0;
}
