/*
 * togglesebool - flip the values of SELinux policy booleans
 *
 * SYNOPSIS
 *     togglesebool boolname1 [boolname2 ...]
 *
 * DESCRIPTION
 *     Sets each boolean named to the opposite of its active value, printing
 *     "NAME: active" or "NAME: inactive", and then commits all of them
 *     together (security_commit_booleans(3)); each change is logged to
 *     syslog(3) with the name of the user who made it.  When a boolean does
 *     not exist or cannot be set, the booleans set so far are put back and
 *     nothing is committed.  The change lasts until the next policy load;
 *     setsebool(8) -P makes it permanent.
 *
 * EXIT STATUS
 *     0
 *         Every boolean was flipped.
 *     1
 *         No argument, SELinux disabled, or a boolean could not be flipped.
 *
 * SEE ALSO
 *     getsebool(8), setsebool(8), booleans(5), security_set_boolean(3)
 */
#include <errno.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <selinux/selinux.h>

/* Put the booleans flipped so far back to their active values. */
static void rollback(int upto, char **argv)
{
	for (int i = 1; i < upto; i++)
		security_set_boolean(argv[i],
				     security_get_boolean_active(argv[i]));
}

int main(int argc, char **argv)
{
	struct passwd *pw;
	int changed = 0;

	if (argc < 2) {
		printf("Usage:  %s boolname1 [boolname2 ...]\n",
		       basename(argv[0]));
		return 1;
	}
	if (is_selinux_enabled() <= 0) {
		fprintf(stderr, "%s:  SELinux is disabled\n", argv[0]);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		int v;

		printf("%s: ", argv[i]);
		v = security_get_boolean_active(argv[i]);
		if (v < 0) {
			if (errno == ENOENT)
				printf("Boolean does not exist - rolling back "
				       "all changes.\n");
			else
				printf("%s - rolling back all changes.\n",
				       strerror(errno));
			rollback(i, argv);
			return 1;
		}
		if (security_set_boolean(argv[i], !v) < 0) {
			printf("%s - rolling back all changes\n",
			       strerror(errno));
			rollback(i, argv);
			return 1;
		}
		printf("%s\n", v ? "inactive" : "active");
		changed++;
	}
	if (!changed)
		return 1;
	if (security_commit_booleans() < 0) {
		printf("Commit failed. (%s)  No change to booleans.\n",
		       strerror(errno));
		return 1;
	}
	pw = getpwuid(getuid());
	for (int i = 1; i < argc; i++) {
		if (pw && pw->pw_name)
			syslog(LOG_NOTICE,
			       "The %s policy boolean was toggled by %s",
			       argv[i], pw->pw_name);
		else
			syslog(LOG_NOTICE,
			       "The %s policy boolean was toggled by uid:%u",
			       argv[i], getuid());
	}
	return 0;
}
