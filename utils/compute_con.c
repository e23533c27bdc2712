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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/selinux.h>

#ifndef COMPUTE
#error "COMPUTE names the security_compute_* call"
#endif
#define STR_(x) #x
#define STR(x) STR_(x)

int main(int argc, char **argv)
{
	security_class_t tclass;
	char *con = NULL;

	if (argc != 4) {
		fprintf(stderr, "usage:  %s scontext tcontext tclass\n",
			argv[0]);
		return 1;
	}
	if (security_check_context(argv[1]) < 0) {
		fprintf(stderr, "%s:  invalid source context '%s'\n", argv[0],
			argv[1]);
		return 4;
	}
	if (security_check_context(argv[2]) < 0) {
		fprintf(stderr, "%s:  invalid target context '%s'\n", argv[0],
			argv[2]);
		return 5;
	}
	tclass = string_to_security_class(argv[3]);
	if (!tclass) {
		fprintf(stderr, "%s:  invalid class '%s'\n", argv[0], argv[3]);
		return 2;
	}
	if (COMPUTE(argv[1], argv[2], tclass, &con) < 0) {
		fprintf(stderr, "%s:  " STR(COMPUTE) " failed:  %s\n", argv[0],
			strerror(errno));
		return 3;
	}
	puts(con);
	freecon(con);
	return 0;
}
