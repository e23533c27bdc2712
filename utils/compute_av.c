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
#include <stdio.h>

#include <selinux/selinux.h>

#include "util.h"

int main(int argc, char **argv)
{
	struct av_decision avd;
	security_class_t tclass;

	if (argc != 4)
		util_usage(argv[0], "scontext tcontext tclass", NULL, 1);
	if (!util_context_ok(argv[0], "source", argv[1]))
		return 4;
	if (!util_context_ok(argv[0], "target", argv[2]))
		return 5;
	tclass = util_class(argv[0], argv[3]);
	if (!tclass)
		return 2;
	if (security_compute_av(argv[1], argv[2], tclass, 1, &avd) < 0) {
		util_failed(argv[0], "security_compute_av");
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
