/* utils/getfilecon.c: print "PATH<TAB>CONTEXT" for each path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/selinux.h>

/*
 * As in selinux-utils 3.4: the first path that fails ends the program
 * with status 2 (the lines already printed stay printed); no path at all
 * is a usage error, status 1.  Symbolic links are followed.
 */
int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage:  %s path...\n", argv[0]);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		char *con = NULL;

		if (getfilecon(argv[i], &con) < 0) {
			fprintf(stderr, "%s:  getfilecon(%s) failed:  %s\n",
				argv[0], argv[i], strerror(errno));
			return 2;
		}
		printf("%s\t%s\n", argv[i], con);
		freecon(con);
	}
	return 0;
}
