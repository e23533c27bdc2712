/*
 * selinux_check_securetty_context - tell whether terminal contexts are secure for root logins
 *
 * SYNOPSIS
 *     selinux_check_securetty_context tty_context...
 *
 * DESCRIPTION
 *     Prints, for each context, "CONTEXT securetty." when its type is listed
 *     in the policy's securetty_types(5), "CONTEXT not securetty."
 *     otherwise (selinux_check_securetty_context(3)).  Nothing is asked of
 *     the loaded policy.
 *
 * EXIT STATUS
 *     0
 *         The answers were printed.
 *     1
 *         No argument.
 *
 * SEE ALSO
 *     securetty_types(5), selinux_check_securetty_context(3)
 */
#include <stdio.h>

#include <selinux/selinux.h>

#include "util.h"

/*
 * As Debian's selinux-utils 3.4: one line per argument on stdout, and
 * status 0 whatever the answers; no argument is a usage error, status 1.
 * Nothing is asked of the policy, so it answers the same with SELinux
 * disabled: only the securetty_types file of the configured policy
 * counts.
 */
int main(int argc, char **argv)
{
	if (argc < 2)
		util_usage(argv[0], "tty_context...", NULL, 1);
	for (int i = 1; i < argc; i++)
		printf("%s %s\n", argv[i],
		       selinux_check_securetty_context(argv[i]) == 0
			   ? "securetty."
			   : "not securetty.");
	return 0;
}
