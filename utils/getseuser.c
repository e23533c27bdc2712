/*
 * getseuser - print a Linux user's SELinux user, level and session contexts
 *
 * SYNOPSIS
 *     getseuser linuxuser fromcon
 *
 * DESCRIPTION
 *     Prints "seuser:  USER, level LEVEL", the SELinux user and level that
 *     seusers(5) gives linuxuser (getseuserbyname(3)), then the contexts a
 *     session of that user may start in from fromcon, one a line as
 *     "Context N<tab>CONTEXT", most preferred first.
 *
 * EXIT STATUS
 *     0
 *         Everything was printed.
 *     1
 *         Wrong number of arguments.
 *     2
 *         seusers has no entry for the user.
 *     3
 *         No context could be found.
 *     4
 *         SELinux is disabled.
 *     5
 *         fromcon is not a valid context.
 *
 * SEE ALSO
 *     getconlist(8), getdefaultcon(8), seusers(5), getseuserbyname(3)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/get_context_list.h>
#include <selinux/selinux.h>

#include "util.h"

int main(int argc, char **argv)
{
	char *seuser = NULL, *level = NULL, **list = NULL;
	int n;

	if (argc != 3)
		util_usage(argv[0], "linuxuser fromcon", NULL, 1);
	if (!is_selinux_enabled()) {
		fprintf(stderr,
			"%s may be used only on a SELinux enabled kernel.\n",
			argv[0]);
		return 4;
	}
	if (getseuserbyname(argv[1], &seuser, &level)) {
		fprintf(stderr, "getseuserbyname failed:  %s\n",
			strerror(errno));
		return 2;
	}
	printf("seuser:  %s, level %s\n", seuser, level ? level : "(null)");
	if (security_check_context(argv[2])) {
		fprintf(stderr, "context '%s' is invalid\n", argv[2]);
		free(seuser);
		free(level);
		return 5;
	}
	n = get_ordered_context_list_with_level(seuser, level, argv[2], &list);
	free(seuser);
	free(level);
	if (n <= 0) {
		fprintf(stderr,
			"get_ordered_context_list_with_level failed:  %s\n",
			strerror(errno));
		return 3;
	}
	for (int i = 0; i < n; i++)
		printf("Context %d\t%s\n", i, list[i]);
	freeconary(list);
	return 0;
}
