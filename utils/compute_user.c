/*
 * compute_user - print the contexts a SELinux user may reach from a context
 *
 * SYNOPSIS
 *     compute_user context user
 *
 * DESCRIPTION
 *     Prints, one a line, the contexts of SELinux user user that context may
 *     transition to, as security_compute_user(3) returns them, or "none".
 *     Login programs use get_ordered_context_list(3) instead; see
 *     getconlist(8).
 *
 * EXIT STATUS
 *     0
 *         The list was printed.
 *     1
 *         Wrong number of arguments.
 *     2
 *         The security server refused the request (unknown user ...).
 *     4
 *         context is not a valid context.
 *
 * SEE ALSO
 *     getconlist(8), security_compute_user(3)
 */
#include <stdio.h>
#include <stdlib.h>

#include <selinux/selinux.h>

#include "util.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

int main(int argc, char **argv)
{
	char **cons = NULL;

	if (argc != 3)
		util_usage(argv[0], "context user", NULL, 1);
	if (!util_context_ok(argv[0], "source", argv[1]))
		return 4;
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
