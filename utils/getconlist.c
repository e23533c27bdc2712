/*
 * getconlist - print the contexts a user's session may start in
 *
 * SYNOPSIS
 *     getconlist [-l level] user [context]
 *
 * DESCRIPTION
 *     Prints, most preferred first, the contexts SELinux user user may
 *     start a session in from context (by default the caller's own), as
 *     get_ordered_context_list(3) orders them from default_contexts(5) and
 *     the user's file of user_contexts(5).
 *
 * OPTIONS
 *     -l level
 *         Use this MLS level or range instead of the one of context.
 *
 * EXIT STATUS
 *     0
 *         The list was printed.
 *     1
 *         An invalid option, or SELinux is disabled.
 *     2
 *         Wrong number of arguments, or the caller's context is unknown.
 *     3
 *         context is not a valid context.
 *     4
 *         No context could be found.
 *
 * SEE ALSO
 *     getdefaultcon(8), getseuser(8), get_ordered_context_list(3)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selinux/get_context_list.h>
#include <selinux/selinux.h>

#include "util.h"

static void usage(const char *name, const char *detail, int rc)
{
	util_usage(name, "[-l level] user [context]", detail, rc);
}

int main(int argc, char **argv)
{
	char **list = NULL, *con = NULL;
	const char *level = NULL;
	int opt, r;

	while ((opt = getopt(argc, argv, "l:")) > 0) {
		if (opt != 'l')
			usage(argv[0], "invalid option", 1);
		level = optarg;
	}
	if (argc - optind < 1 || argc - optind > 2)
		usage(argv[0], "invalid number of arguments", 2);
	if (!is_selinux_enabled()) {
		fprintf(stderr,
			"getconlist may be used only on a SELinux kernel.\n");
		return 1;
	}
	if (argc - optind < 2) {
		if (getcon(&con) < 0) {
			fprintf(stderr, "Couldn't get current context:  %s\n",
				strerror(errno));
			return 2;
		}
	} else {
		con = strdup(argv[optind + 1]);
		if (!con)
			return 1;
	}
	if (security_check_context(con)) {
		fprintf(stderr, "Given context '%s' is invalid.\n", con);
		free(con);
		return 3;
	}
	if (level)
		r = get_ordered_context_list_with_level(argv[optind], level,
							con, &list);
	else
		r = get_ordered_context_list(argv[optind], con, &list);
	if (r == -1) {
		fprintf(stderr, "get_ordered_context_list%s failure: %d(%s)\n",
			level ? "_with_level" : "", errno, strerror(errno));
		free(con);
		return 4;
	}
	for (char **p = list; *p; p++)
		puts(*p);
	freeconary(list);
	free(con);
	return 0;
}
