/*
 * compute_create, compute_member, compute_relabel - print the context the policy gives a new, member or relabelled object
 *
 * SYNOPSIS
 *     compute_create scontext tcontext tclass
 *     compute_member scontext tcontext tclass
 *     compute_relabel scontext tcontext tclass
 *
 * DESCRIPTION
 *     Print the context the security server computes for an object of class
 *     tclass when scontext acts on tcontext: compute_create for a new
 *     object created in tcontext (the policy's type_transition rules,
 *     security_compute_create(3)), compute_member for a polyinstantiated
 *     member (type_member, security_compute_member(3)), compute_relabel for
 *     a relabelled object (type_change, security_compute_relabel(3)).
 *
 * EXIT STATUS
 *     0
 *         The context was printed.
 *     1
 *         Wrong number of arguments.
 *     2
 *         tclass is not a class of the policy.
 *     3
 *         The security server refused the request.
 *     4
 *         scontext is not a valid context.
 *     5
 *         tcontext is not a valid context.
 *
 * SEE ALSO
 *     compute_av(8), compute_user(8), security_compute_create(3)
 */
/*
 * One source, three programs: utils/meson.build builds it with COMPUTE set
 * to the library call (security_compute_create, _member or _relabel).
 */
#include <stdio.h>

#include <selinux/selinux.h>

#include "util.h"

#ifndef COMPUTE
#error "COMPUTE names the security_compute_* call"
#endif
#define STR_(x) #x
#define STR(x) STR_(x)

int main(int argc, char **argv)
{
	security_class_t tclass;
	char *con = NULL;

	if (argc != 4)
		util_usage(argv[0], "scontext tcontext tclass", NULL, 1);
	if (!util_context_ok(argv[0], "source", argv[1]))
		return 4;
	if (!util_context_ok(argv[0], "target", argv[2]))
		return 5;
	tclass = util_class(argv[0], argv[3]);
	if (!tclass)
		return 2;
	if (COMPUTE(argv[1], argv[2], tclass, &con) < 0) {
		util_failed(argv[0], STR(COMPUTE));
		return 3;
	}
	puts(con);
	freecon(con);
	return 0;
}
