/* compute_user: the contexts a user may reach from a context. */
#include <stdio.h>
#include <stdlib.h>

#include <selinux/selinux.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

int main(int argc, char **argv)
{
	char **cons = NULL;

	if (argc != 3) {
		fprintf(stderr, "usage:  %s context user\n", argv[0]);
		return 1;
	}
	if (security_check_context(argv[1]) < 0) {
		fprintf(stderr, "%s:  invalid source context '%s'\n", argv[0],
			argv[1]);
		return 4;
	}
	if (security_compute_user(argv[1], argv[2], &cons) < 0) {
		fprintf(stderr, "%s:  security_compute_user(%s,%s) failed\n",
			argv[0], argv[1], argv[2]);
		return 2;
	}
	if (!cons[0])
		printf("none\n");
	for (char **p = cons; *p; p++)
		printf("%s\n", *p);
	freeconary(cons);
	return 0;
}
