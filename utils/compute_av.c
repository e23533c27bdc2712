/*
 * compute_av - print the policy's access decision for two contexts and a class
 *
 * SYNOPSIS
 *     compute_av scontext tcontext tclass
 *
 * DESCRIPTION
 *     Asks the security server (security_compute_av(3)) which permissions
 *     of class tclass scontext has on tcontext, and prints the decision as
 *     lines "allowed={ ... }", then "decided=", "auditallow=" and
 *     "auditdeny" lines when they differ from their defaults (all decided,
 *     nothing audited when allowed, every denial audited).
 *
 * EXIT STATUS
 *     0
 *         The decision was printed.
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
 *     compute_create(8), selinux_check_access(8), security_compute_av(3)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/selinux.h>

int main(int argc, char **argv)
{
	struct av_decision avd;
	security_class_t tclass;

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
	if (security_compute_av(argv[1], argv[2], tclass, 1, &avd) < 0) {
		fprintf(stderr, "%s:  security_compute_av failed:  %s\n",
			argv[0], strerror(errno));
		return 3;
	}
	/* The established tool's layout, "auditdeny" without '=' included. */
	printf("allowed=");
	print_access_vector(tclass, avd.allowed);
	printf("\n");
	if (avd.decided != ~0U) {
		printf("decided=");
		print_access_vector(tclass, avd.decided);
		printf("\n");
	}
	if (avd.auditallow) {
		printf("auditallow=");
		print_access_vector(tclass, avd.auditallow);
		printf("\n");
	}
	if (avd.auditdeny != ~0U) {
		printf("auditdeny");
		print_access_vector(tclass, avd.auditdeny);
		printf("\n");
	}
	return 0;
}
