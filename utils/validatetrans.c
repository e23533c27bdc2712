/*
 * validatetrans - ask the policy whether a relabelling is allowed
 *
 * SYNOPSIS
 *     validatetrans scontext tcontext tclass newcontext
 *
 * DESCRIPTION
 *     Asks the security server whether an object of class tclass labelled
 *     scontext may be relabelled to newcontext by a process in tcontext,
 *     under the policy's validatetrans constraints
 *     (security_validatetrans(3)), and prints
 *     "security_validatetrans returned R errno: MESSAGE".
 *
 * EXIT STATUS
 *     0
 *         The relabelling is allowed.
 *     1
 *         Wrong number of arguments.
 *     2
 *         tclass is not a class of the policy.
 *     4, 5, 6
 *         scontext, tcontext or newcontext is not a valid context.
 *     255
 *         The relabelling is refused (the printed errno says why).
 *
 * SEE ALSO
 *     compute_av(8), security_validatetrans(3)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <selinux/selinux.h>

#include "util.h"

int main(int argc, char **argv)
{
	security_class_t tclass;
	int r;

	if (argc != 5)
		util_usage(argv[0], "scontext tcontext tclass newcontext", NULL,
			   1);
	if (!util_context_ok(argv[0], "source", argv[1]))
		return 4;
	if (!util_context_ok(argv[0], "target", argv[2]))
		return 5;
	if (!util_context_ok(argv[0], "new", argv[4]))
		return 6;
	tclass = util_class(argv[0], argv[3]);
	if (!tclass)
		return 2;
	errno = 0;
	r = security_validatetrans(argv[1], argv[2], tclass, argv[4]);
	printf("security_validatetrans returned %d errno: %s\n", r,
	       strerror(errno));
	return r;
}
