/*
 * policyvers - print the highest policy version the kernel supports
 *
 * SYNOPSIS
 *     policyvers
 *
 * DESCRIPTION
 *     Prints the number security_policyvers(3) reads from selinuxfs: the
 *     newest binary policy format the kernel can load.  Arguments are
 *     ignored.
 *
 * EXIT STATUS
 *     0
 *         The version was printed.
 *     2
 *         It could not be read (no selinuxfs ...).
 *
 * SEE ALSO
 *     security_policyvers(3), selinux_mkload_policy(3)
 */
#include <stdio.h>

#include <selinux/selinux.h>

#include "util.h"

int main(int argc, char **argv)
{
	int vers = security_policyvers();

	if (vers < 0) {
		util_failed(argv[0], "security_policyvers()");
		return 2;
	}
	printf("%d\n", vers);
	return 0;
}
