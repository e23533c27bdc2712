/* utils/setfilecon.c: set the context of each path to CONTEXT. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <selinux/selinux.h>

/*
 * As in selinux-utils 3.4: silent on success; the first path that fails
 * ends the program with status 2, naming path and context; fewer than
 * two arguments is a usage error, status 1.  Symbolic links are followed.
 */
int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage:  %s context path...\n", argv[0]);
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		if (setfilecon(argv[i], argv[1]) < 0) {
			fprintf(stderr, "%s:  setfilecon(%s,%s) failed:  %s\n",
				argv[0], argv[i], argv[1], strerror(errno));
			return 2;
		}
	}
	return 0;
}
