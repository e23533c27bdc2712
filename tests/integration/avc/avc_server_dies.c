/*
 * avc_server_dies: the AVC when the security server dies under it.
 *
 * Usage: avc_server_dies MNT PID
 *   MNT: kernel/'s server (selinuxfsd) mounted, bundled non-MLS policy,
 *   enforcing; PID: that server, which this program kills (SIGKILL) after
 *   a first decision has been cached.
 *
 * What a daemon must see then: the cached decision still answers (the
 * policy it came from has not changed), every question that needs the
 * server fails with a clear error (-1 and errno set, never 0: a dead
 * server grants nothing in enforcing mode), nothing hangs and nothing
 * crashes - the status page stays mapped, avc_destroy() returns.
 * A watchdog (alarm) turns a hang into a failure.  Exit 0, or 1 with
 * the first broken expectation on stderr.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selinux/avc.h>
#include <selinux/selinux.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int failures;

#define EXPECT(cond, ...)                                                  \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "avc_server_dies: " __VA_ARGS__);  \
			fputc('\n', stderr);                               \
			failures++;                                        \
		}                                                          \
	} while (0)

static int quiet_log(int type, const char *fmt, ...)
{
	(void)type, (void)fmt;
	return 0;
}

int main(int argc, char **argv)
{
	const char *s = "system_u:system_r:sshd_t", *t = "system_u:object_r:etc_t";
	security_id_t ssid, tsid, other;
	security_class_t file;
	access_vector_t read, write;
	struct av_decision avd;
	pid_t pid;
	int r, e;

	if (argc != 3) {
		fprintf(stderr, "usage: avc_server_dies MNT PID\n");
		return 2;
	}
	alarm(30);
	set_selinuxmnt(argv[1]);
	pid = (pid_t)atoi(argv[2]);
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){.func_log = quiet_log});
	if (avc_open(NULL, 0) || avc_context_to_sid(s, &ssid) ||
	    avc_context_to_sid(t, &tsid)) {
		perror("avc_server_dies: avc_open");
		return 1;
	}
	file = string_to_security_class("file");
	read = string_to_av_perm(file, "read");
	write = string_to_av_perm(file, "write");
	if (!file || !read || !write) {
		fprintf(stderr, "avc_server_dies: no file read/write\n");
		return 1;
	}
	/* sshd_t reads etc_t files: cached from now on */
	EXPECT(avc_has_perm_noaudit(ssid, tsid, file, read, NULL, &avd) == 0,
	       "read before the kill: %s", strerror(errno));
	EXPECT(selinux_check_access(s, t, "file", "read", NULL) == 0,
	       "check_access before the kill: %s", strerror(errno));

	if (kill(pid, SIGKILL)) {
		perror("avc_server_dies: kill");
		return 1;
	}
	for (int i = 0; i < 500 && kill(pid, 0) == 0; i++)
		usleep(10000);

	/* the cache still answers what it knows */
	EXPECT(avc_has_perm_noaudit(ssid, tsid, file, read, NULL, &avd) == 0,
	       "cached read after the kill: %s", strerror(errno));
	EXPECT(selinux_check_access(s, t, "file", "read", NULL) == 0,
	       "cached check_access after the kill: %s", strerror(errno));
	EXPECT(selinux_status_updated() >= 0 || errno != 0,
	       "selinux_status_updated: -1 without errno");

	/* a question for the server: an error, not a grant, not a hang */
	if (avc_context_to_sid("user_u:user_r:user_t", &other) == 0) {
		errno = 0;
		r = avc_has_perm_noaudit(other, tsid, file, write, NULL, &avd);
		e = errno;
		EXPECT(r == -1 && e != 0 && e != EACCES,
		       "uncached question: %d, errno %d (%s)", r, e,
		       strerror(e));
	} else {
		EXPECT(0, "avc_context_to_sid needs no server: %s",
		       strerror(errno));
	}
	errno = 0;
	r = selinux_check_access("user_u:user_r:user_t", t, "dir", "search",
				 NULL);
	e = errno;
	EXPECT(r == -1 && e != 0, "check_access of a new class: %d, errno %d",
	       r, e);
	errno = 0;
	r = security_getenforce();
	e = errno;
	EXPECT(r == -1 && e != 0, "security_getenforce: %d, errno %d", r, e);

	avc_destroy();
	if (!failures)
		printf("avc_server_dies: cached answers kept, %s for new "
		       "questions, no hang\n",
		       "errors");
	return failures ? 1 : 0;
}
