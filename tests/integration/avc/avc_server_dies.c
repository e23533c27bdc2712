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
 * A watchdog (alarm) turns a hang into a failure.
 *
 * Then a program started after the death (this one again, run as
 * "avc_server_dies --fresh MNT"): it finds the dead mount through
 * mountinfo as it would a live one, and SELinux must read as enabled with
 * every question failing - fail closed (selinux.h, "When the security
 * server is gone"): is_selinux_enabled() 1, security_getenforce() and
 * the other selinuxfs reads -1 with ENOTCONN, avc_open() and
 * selinux_status_open() -1 with ENOTCONN, selinux_check_access() -1 with
 * ENOTCONN for what was granted before, the AVC denying, and the
 * getenforce utility (GETENFORCE in the environment, when set) failing
 * with status 2 rather than printing Disabled.  A library that passes the
 * dead mount by reports SELinux disabled and grants everything.  (Only
 * where /etc/selinux/config exists: without it SELinux is disabled
 * whatever is mounted, as in the established library.)
 *
 * Exit 0, or 1 with each broken expectation on stderr.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selinux/avc.h>
#include <selinux/selinux.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Exported as data, as in the established library (not in selinux.h). */
extern char *selinux_mnt;

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

/* The selinuxfs reads on a dead server: -1 with ENOTCONN. */
#define EXPECT_ENOTCONN(call)                                              \
	do {                                                               \
		int r_, e_;                                                \
		errno = 0;                                                 \
		r_ = (call);                                               \
		e_ = errno;                                                \
		EXPECT(r_ == -1 && e_ == ENOTCONN,                         \
		       "fresh: %s: %d, errno %d (%s), not -1 ENOTCONN",    \
		       #call, r_, e_, strerror(e_));                       \
	} while (0)

/* A program started after the server died (see the top). */
static int fresh(const char *mnt)
{
	const char *s = "system_u:system_r:sshd_t", *t = "system_u:object_r:etc_t";
	const char *getenforce = getenv("GETENFORCE");
	struct av_decision avd;
	security_id_t sid = NULL;
	int r, e, st;
	pid_t pid;

	alarm(30);
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){.func_log = quiet_log});
	if (access("/etc/selinux/config", F_OK) != 0) {
		printf("avc_server_dies: SKIP the fresh program: no "
		       "/etc/selinux/config, so SELinux reads as disabled\n");
		return 0;
	}
	EXPECT(selinux_mnt && strcmp(selinux_mnt, mnt) == 0,
	       "fresh: the dead mount %s is not found (selinux_mnt %s)", mnt,
	       selinux_mnt ? selinux_mnt : "NULL");
	EXPECT(is_selinux_enabled() == 1, "fresh: is_selinux_enabled() %d",
	       is_selinux_enabled());
	EXPECT_ENOTCONN(security_getenforce());
	EXPECT_ENOTCONN(security_deny_unknown());
	EXPECT_ENOTCONN(security_policyvers());
	EXPECT_ENOTCONN(selinux_status_open(0));
	EXPECT_ENOTCONN(selinux_status_open(1));
	EXPECT_ENOTCONN(security_compute_av_raw(s, t, 1, 1, &avd));
	/* granted before the kill (see main), denied now */
	EXPECT_ENOTCONN(selinux_check_access(s, t, "file", "read", NULL));
	EXPECT_ENOTCONN(selinux_check_access(s, t, "file", "read", NULL));
	EXPECT_ENOTCONN(avc_open(NULL, 0));
	errno = 0;
	r = avc_context_to_sid(s, &sid);
	e = errno;
	EXPECT(r == -1 && e == EINVAL, "fresh: avc_context_to_sid: %d, %s", r,
	       strerror(e));
	r = avc_has_perm_noaudit(sid, sid, 1, 1, NULL, &avd);
	EXPECT(r == -1, "fresh: avc_has_perm_noaudit: %d", r);
	r = selinux_check_passwd_access(1);
	EXPECT(r == -1, "fresh: selinux_check_passwd_access: %d", r);
	EXPECT(is_selinux_mls_enabled() == 0,
	       "fresh: is_selinux_mls_enabled() %d", is_selinux_mls_enabled());
	if (getenforce) {
		int out[2];
		char buf[64] = "";
		ssize_t n;

		if (pipe(out) < 0 || (pid = fork()) < 0) {
			perror("avc_server_dies: fork");
			return 1;
		}
		if (pid == 0) {
			dup2(out[1], 1);
			close(out[0]);
			execl(getenforce, "getenforce", (char *)NULL);
			_exit(127);
		}
		close(out[1]);
		n = read(out[0], buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		close(out[0]);
		waitpid(pid, &st, 0);
		EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 2 && !buf[0],
		       "fresh: getenforce: status %d, printed \"%s\"",
		       WIFEXITED(st) ? WEXITSTATUS(st) : -1, buf);
	}
	if (!failures)
		printf("avc_server_dies: a program started after the death "
		       "finds SELinux enabled and every question failing "
		       "(ENOTCONN)\n");
	return failures ? 1 : 0;
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

	if (argc == 3 && strcmp(argv[1], "--fresh") == 0)
		return fresh(argv[2]);
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

	/* a program started now */
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("avc_server_dies: fork");
		return 1;
	}
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "--fresh", argv[1],
		      (char *)NULL);
		_exit(127);
	}
	r = -1;
	if (waitpid(pid, &r, 0) < 0 || !WIFEXITED(r) || WEXITSTATUS(r) != 0)
		EXPECT(0, "the program started after the death: status %d", r);
	if (!failures)
		printf("avc_server_dies: cached answers kept, %s for new "
		       "questions, no hang\n",
		       "errors");
	return failures ? 1 : 0;
}
