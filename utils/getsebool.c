/*
 * getsebool - print the values of SELinux policy booleans
 *
 * SYNOPSIS
 *     getsebool -a
 *     getsebool boolean...
 *
 * DESCRIPTION
 *     Prints "NAME --> on" or "NAME --> off" for each boolean named, or for
 *     every boolean of the loaded policy with -a.  When a value was set but
 *     not committed yet, the pending value follows:
 *     "NAME --> off pending: on".  A name is printed as the policy's
 *     booleans.subs_dist file translates it (selinux_boolean_sub(3)).
 *
 * OPTIONS
 *     -a
 *         All booleans of the loaded policy.
 *
 * EXIT STATUS
 *     0
 *         The values were printed.
 *     1
 *         Wrong arguments, SELinux disabled, or the names could not be read.
 *     255
 *         A boolean does not exist or could not be read.
 *
 * SEE ALSO
 *     togglesebool(8), setsebool(8), booleans(5), security_get_boolean_active(3)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/selinux.h>

static void usage(const char *prog)
{
	fprintf(stderr, "usage:  %s -a or %s boolean...\n", prog, prog);
	exit(1);
}

int main(int argc, char **argv)
{
	char **names = NULL;
	int len = 0, all = 0, opt, rc = 0;

	while ((opt = getopt(argc, argv, "a")) > 0) {
		if (opt != 'a')
			usage(argv[0]);
		all = 1;
	}
	if (!all && optind >= argc)
		usage(argv[0]);
	if (is_selinux_enabled() <= 0) {
		fprintf(stderr, "%s:  SELinux is disabled\n", argv[0]);
		return 1;
	}
	if (all) {
		if (security_get_boolean_names(&names, &len) < 0) {
			fprintf(stderr, "%s:  Unable to get boolean names:  %s\n",
				argv[0], strerror(errno));
			return 1;
		}
		if (!len) {
			printf("No booleans\n");
			return 0;
		}
	} else {
		names = argv + optind;
		len = argc - optind;
	}
	for (int i = 0; i < len; i++) {
		int active = security_get_boolean_active(names[i]), pending;
		char *alt;

		if (active < 0) {
			fprintf(stderr, "Error getting active value for %s\n",
				names[i]);
			rc = -1;
			break;
		}
		pending = security_get_boolean_pending(names[i]);
		if (pending < 0) {
			fprintf(stderr, "Error getting pending value for %s\n",
				names[i]);
			rc = -1;
			break;
		}
		alt = selinux_boolean_sub(names[i]);
		if (!alt) {
			fprintf(stderr, "%s:  out of memory\n", argv[0]);
			rc = -1;
			break;
		}
		if (pending != active)
			printf("%s --> %s pending: %s\n", alt,
			       active ? "on" : "off", pending ? "on" : "off");
		else
			printf("%s --> %s\n", alt, active ? "on" : "off");
		free(alt);
	}
	if (all) {
		for (int i = 0; i < len; i++)
			free(names[i]);
		free(names);
	}
	return rc;
}
