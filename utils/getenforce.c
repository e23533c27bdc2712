/* utils/getenforce.c: print whether SELinux is Enforcing, Permissive or
 * Disabled (getenforce(8)). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <selinux/selinux.h>

/*
 * Like Debian's selinux-utils 3.4, the messages name the program
 * "getenforce" whatever argv[0] is, arguments are ignored, and a failure
 * exits 2.  The is_selinux_enabled() message has no newline there either.
 */
int main(void)
{
	int r = is_selinux_enabled();

	if (r < 0) {
		fputs("getenforce:  is_selinux_enabled() failed", stderr);
		return 2;
	}
	if (r == 0) {
		puts("Disabled");
		return 0;
	}
	r = security_getenforce();
	if (r < 0) {
		fprintf(stderr,
			"getenforce:  security_getenforce() failed:  %s\n",
			strerror(errno));
		return 2;
	}
	puts(r ? "Enforcing" : "Permissive");
	return 0;
}
