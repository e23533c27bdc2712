/*
 * selinux_check_access - ask whether a context may use a permission on another
 *
 * SYNOPSIS
 *     selinux_check_access [-a auditdata] scon tcon class perm
 *
 * DESCRIPTION
 *     Asks the access vector cache, through selinux_check_access(3),
 *     whether scon has permission perm of class class (both by name) on
 *     tcon.  Nothing is printed when it has; otherwise the reason, as
 *     perror(3) gives it.  A denial is also logged by the library as the
 *     kernel logs one ("avc:  denied  { perm } for ...").
 *
 * OPTIONS
 *     -a auditdata
 *         Text added to the denial message after "for".
 *
 * EXIT STATUS
 *     0
 *         The permission is granted.
 *     1
 *         Wrong arguments.
 *     255
 *         It is denied, or the question is invalid (an unknown class or
 *         permission).
 *
 * SEE ALSO
 *     compute_av(8), selinux_check_access(3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <selinux/selinux.h>

/*
 * As Debian's selinux-utils 3.4: nothing on stdout; a granted request
 * exits 0, anything else prints perror("selinux_check_access") and exits
 * 255.  The library's own messages (an unknown class or permission, the
 * AVC's "avc:  denied" lines) go through its default log callback; only
 * the audit callback is ours, to put -a's text after "for ".
 */
static int audit_cb(void *auditdata, security_class_t cls, char *msgbuf,
		    size_t msgbufsize)
{
	(void)cls;
	return snprintf(msgbuf, msgbufsize, "%s",
			auditdata ? (const char *)auditdata : "");
}

static void __attribute__((noreturn)) usage(const char *progname)
{
	fprintf(stderr,
		"usage:  %s [-a auditdata] scon tcon class perm\n\n"
		"Where:\n"
		"\t-a  Optional information added to audit message.\n",
		progname);
	exit(1);
}

int main(int argc, char **argv)
{
	union selinux_callback cb = {.func_audit = audit_cb};
	char *auditdata = NULL;
	int c;

	while ((c = getopt(argc, argv, "a:")) != -1) {
		if (c != 'a')
			usage(argv[0]);
		auditdata = optarg;
	}
	if (argc - optind != 4)
		usage(argv[0]);
	selinux_set_callback(SELINUX_CB_AUDIT, cb);
	if (selinux_check_access(argv[optind], argv[optind + 1],
				 argv[optind + 2], argv[optind + 3],
				 auditdata) != 0) {
		perror("selinux_check_access");
		exit(-1);
	}
	return 0;
}
