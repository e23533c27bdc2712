/*
 * getdefaultcon - print the default session context of a Linux user
 *
 * SYNOPSIS
 *     getdefaultcon [-l level] [-s service] user [fromcon]
 *
 * DESCRIPTION
 *     Maps Linux user user to its SELinux user and level through seusers(5)
 *     (getseuser(3)) and prints the first context of its ordered list from
 *     fromcon (by default the caller's own context): the context a login
 *     from fromcon would give.
 *
 * OPTIONS
 *     -l level
 *         Use this MLS level instead of the user's default one.
 *     -s service
 *         Use the seusers entries of this service (service_seusers(5)).
 *     -r role
 *         The first context with this role (get_default_context_with_role(3)).
 *     -v
 *         Print "PROG: user from fromcon seuser role level -> context".
 *
 * EXIT STATUS
 *     As in the established program, success is 1:
 *     1
 *         The context was printed; also an invalid option, or SELinux is
 *         disabled.
 *     0
 *         No default context could be found.
 *     2
 *         Wrong number of arguments, or the caller's context is unknown.
 *     3
 *         fromcon is not a valid context.
 *
 * SEE ALSO
 *     getconlist(8), getseuser(8), get_default_context(3)
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
	util_usage(name, "[-l level] [-s service] user [fromcon]", detail, rc);
}

int main(int argc, char **argv)
{
	char *con = NULL, *seuser = NULL, *dlevel = NULL, *usercon = NULL;
	const char *level = NULL, *role = NULL, *service = NULL;
	int opt, r, verbose = 0;

	while ((opt = getopt(argc, argv, "l:r:s:v")) > 0) {
		switch (opt) {
		case 'l':
			level = optarg;
			break;
		case 'r':
			role = optarg;
			break;
		case 's':
			service = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage(argv[0], "invalid option", 1);
		}
	}
	if (argc - optind < 1 || argc - optind > 2)
		usage(argv[0], "invalid number of arguments", 2);
	if (!is_selinux_enabled()) {
		fprintf(stderr, "%s may be used only on a SELinux kernel.\n",
			argv[0]);
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
	if (!util_context_ok(argv[0], "from", con)) {
		free(con);
		return 3;
	}
	r = getseuser(argv[optind], service, &seuser, &dlevel);
	if (r == 0) {
		if (!level)
			level = dlevel;
		if (role && role[0])
			r = get_default_context_with_rolelevel(
			    seuser, role, level, con, &usercon);
		else
			r = get_default_context_with_level(seuser, level, con,
							   &usercon);
	}
	if (r < 0)
		perror(argv[0]);
	else if (verbose)
		printf("%s: %s from %s %s %s %s -> %s\n", argv[0], argv[optind],
		       con, seuser, role ? role : "(null)",
		       level ? level : "(null)", usercon);
	else
		/*
		 * analyzer: false positive (gcc null-argument): r is 0 only
		 * when get_default_context_with_*level() set usercon (in the
		 * library, out of the analyzer's sight).
		 */
		printf("%s\n", usercon);
	free(seuser);
	free(dlevel);
	free(usercon);
	free(con);
	return r >= 0;
}
