/* utils/selinux_check_securetty_context.c: say whether each tty context
 * is one root may log in on (its type listed in securetty_types). */
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
