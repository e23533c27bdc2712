/*
 * setenforce - switch SELinux between enforcing and permissive mode
 *
 * SYNOPSIS
 *     setenforce [ Enforcing | Permissive | 1 | 0 ]
 *
 * DESCRIPTION
 *     Puts the running kernel (or selinuxfsd(8)) in enforcing mode
 *     (Enforcing or 1) or permissive mode (Permissive or 0), through
 *     security_setenforce(3).  The words may be written in any case; nothing
 *     else is accepted.  The change lasts until the next reboot: the mode at
 *     boot is the SELINUX= line of selinux_config(5).
 *
 * EXIT STATUS
 *     0
 *         The mode was set.
 *     1
 *         Wrong arguments (the usage is printed), or SELinux is disabled.
 *     2
 *         The kernel refused, for example for lack of permission.
 *
 * SEE ALSO
 *     getenforce(8), selinuxenabled(8), selinux_config(5), security_setenforce(3)
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <selinux/selinux.h>

#include "util.h"

static void usage(const char *prog)
{
	util_usage(prog, "[ Enforcing | Permissive | 1 | 0 ]", NULL, 1);
}

/*
 * The mode is exactly "1" or "0", or the words of setenforce(8) in any
 * case; anything else ("01", " 1", "2", "perm") is a usage error.  As in
 * selinux-utils 3.4, the argument count is checked first, then whether
 * SELinux is enabled, and only then the mode itself.
 */
static int parse_mode(const char *arg)
{
	if (strcmp(arg, "1") == 0 || strcasecmp(arg, "enforcing") == 0)
		return 1;
	if (strcmp(arg, "0") == 0 || strcasecmp(arg, "permissive") == 0)
		return 0;
	return -1;
}

int main(int argc, char **argv)
{
	int mode;

	if (argc != 2)
		usage(argv[0]);
	if (is_selinux_enabled() <= 0) {
		fprintf(stderr, "%s: SELinux is disabled\n", argv[0]);
		return 1;
	}
	mode = parse_mode(argv[1]);
	if (mode < 0)
		usage(argv[0]);
	if (security_setenforce(mode) < 0) {
		util_failed(argv[0], "security_setenforce()");
		return 2;
	}
	return 0;
}
