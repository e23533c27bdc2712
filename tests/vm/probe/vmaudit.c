/*
 * vmaudit: selinux/avc_audit.h on the real kernel.  Turns the extension
 * on, has avc_has_perm() deny S T CLASS PERM, and prints one canonical
 * line per step: what the log callback got, the check's result and, with
 * -r, the USER_AVC record the kernel's audit produced.
 *
 * Usage: vmaudit [-r] [-d] S T CLASS PERM
 *   -r  read the audit stream: become the audit daemon (AUDIT_SET pid,
 *       as auditd does) before the check, print the record of ours that
 *       comes back, then step down again.  Without auditd the kernel would
 *       print it to the console, rate limited; this way nothing is lost.
 *   -d  drop CAP_AUDIT_WRITE (effective) first: the kernel refuses the
 *       record with EPERM and the library falls back to the log callback.
 *
 * Lines: "reader = 0", "selinux_avc_audit_open = 1", "log TYPE: TEXT",
 * "avc_has_perm = -1 errno=EACCES", "record: TEXT" or "record: none".
 * A newline inside TEXT is printed as \n; in a record the "audit(time:
 * serial): " stamp is left out and the pid, if ours, reads pid=SELF.
 * "# raw: ..." repeats the record as the kernel sent it.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <libaudit.h>
#include <linux/capability.h>

#include <selinux/avc.h>
#include <selinux/avc_audit.h>
#include <selinux/selinux.h>

#include "probe_print.h"

/* s with each newline as the two characters \n, up to len bytes. */
static void put_escaped(const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		if (s[i] == '\n')
			fputs("\\n", stdout);
		else
			putchar(s[i]);
	}
}

static int log_cb(int type, const char *fmt, ...)
{
	static const char *const names[] = {
	    "error", "warning", "info", "avc", "policyload", "setenforce"};
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("log %s: ", type >= 0 && type < 6 ? names[type] : "?");
	put_escaped(buf, sizeof(buf));
	putchar('\n');
	fflush(stdout);
	return 0;
}

static int drop_audit_write(void)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	d[CAP_AUDIT_WRITE / 32].effective &= ~(1u << (CAP_AUDIT_WRITE % 32));
	return (int)syscall(SYS_capset, &h, d);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Print the first USER_AVC record from this process arriving within
 * seconds on fd (the registered audit daemon's socket).  The kernel's
 * text is "audit(TIME:SERIAL): pid=N uid=... msg='...'".
 */
static void read_record(int fd, double seconds)
{
	static struct audit_reply rep; /* big: ~9 KiB */
	char self[32];
	double end = now() + seconds;

	snprintf(self, sizeof(self), "pid=%d ", (int)getpid());
	for (;;) {
		struct pollfd p = {fd, POLLIN, 0};
		double left = end - now();
		const char *text, *body, *pid;
		size_t len;

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			break;
		if (audit_get_reply(fd, &rep, GET_REPLY_NONBLOCKING, 0) <= 0)
			continue;
		if (rep.type != AUDIT_USER_AVC)
			continue;
		text = rep.message;
		len = (size_t)rep.len;
		pid = strstr(text, self);
		if (!pid || (size_t)(pid - text) >= len)
			continue;
		printf("# raw: ");
		put_escaped(text, len);
		putchar('\n');
		body = strstr(text, "): ");
		body = body ? body + 3 : text;
		printf("record: type=%d ", rep.type);
		put_escaped(body, (size_t)(pid - body));
		printf("pid=SELF ");
		put_escaped(pid + strlen(self),
			    len - (size_t)(pid - text) - strlen(self));
		putchar('\n');
		fflush(stdout);
		return;
	}
	printf("record: none\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	union selinux_callback cb = {.func_log = log_cb};
	bool reader = false, drop = false;
	security_id_t ssid = NULL, tsid = NULL;
	security_class_t cls;
	int opt, rfd = -1;

	while ((opt = getopt(argc, argv, "rd")) != -1) {
		if (opt == 'r')
			reader = true;
		else if (opt == 'd')
			drop = true;
		else
			return 2;
	}
	if (argc - optind != 4) {
		fprintf(stderr, "usage: vmaudit [-r] [-d] S T CLASS PERM\n");
		return 2;
	}
	selinux_set_callback(SELINUX_CB_LOG, cb);

	if (reader) {
		rfd = audit_open();
		if (rfd < 0 ||
		    audit_set_pid(rfd, (uint32_t)getpid(), WAIT_YES) <= 0) {
			probe_rc("reader", -1);
			return 1;
		}
		probe_rc("reader", 0);
	}
	if (drop)
		probe_rc("drop CAP_AUDIT_WRITE", drop_audit_write());

	probe_rc("avc_open", avc_open(NULL, 0));
	probe_rc("selinux_avc_audit_open", selinux_avc_audit_open());
	if (avc_context_to_sid(argv[optind], &ssid) < 0 ||
	    avc_context_to_sid(argv[optind + 1], &tsid) < 0) {
		probe_rc("avc_context_to_sid", -1);
		return 1;
	}
	cls = string_to_security_class(argv[optind + 2]);
	probe_rc("avc_has_perm",
		 avc_has_perm(ssid, tsid, cls,
			      string_to_av_perm(cls, argv[optind + 3]), NULL,
			      NULL));

	if (reader) {
		/* a refused record never comes: wait less for "none" */
		read_record(rfd, drop ? 2 : 20);
		audit_set_pid(rfd, 0, WAIT_NO);
		audit_close(rfd);
	}
	selinux_avc_audit_close();
	avc_destroy();
	return 0;
}
