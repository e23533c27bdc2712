/* Suite login_execfilecon: setexecfilecon, the exec context a program's
 * label implies, and its forgiveness in permissive mode. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* rpm_execcon is deprecated in the header. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

void core_set_config_root(const char *dir);
void core_set_proc_root(const char *dir);

#define ME "u:r:me_t:s0"
#define PROG_LABEL "u:object_r:prog_exec_t:s0"

static int queued = -1;

/*
 * Enabled (a config file and a selinuxfs), enforcing unless told, our
 * context ME in a fixture procfs, and a program file under /dev/shm
 * (tmpfs keeps security.selinux without an LSM) labelled PROG_LABEL.
 */
static void setup(void)
{
	fx_setup_in("/dev/shm");
	fx_writes("etc/selinux/config", "SELINUX=enforcing\n");
	fx_config_root();
	fx_selinuxfs();
	fx_writes("selinuxfs/enforce", "1");
	fx_writes("selinuxfs/class/process/index", "2");
	fx_proc_root();
	fx_mkdir("proc/thread-self/attr");
	fx_write("proc/thread-self/attr/current", ME, sizeof(ME));
	fx_writes("proc/thread-self/attr/exec", "");
	fx_writes("prog", "#!/bin/sh\n");
	ck_assert_int_eq(lsetxattr(fx_path("prog"), "security.selinux",
				   PROG_LABEL, sizeof(PROG_LABEL), 0), 0);
	ck_assert_int_eq(is_selinux_enabled(), 1);
}

static void teardown(void)
{
	if (queued >= 0)
		close(queued);
	queued = -1;
	core_set_proc_root(NULL);
	core_set_config_root(NULL);
	fini_selinuxmnt();
	fx_teardown();
}

/* The kernel's answer to "create", queued in a FIFO (as compute_kernel). */
static void answer(const char *ans)
{
	const char *path = fx_path("selinuxfs/create");

	ck_assert_int_eq(mkfifo(path, 0600), 0);
	queued = open(path, O_RDWR);
	ck_assert_int_ge(queued, 0);
	ck_assert_int_eq(write(queued, ans, strlen(ans) + 1),
			 (ssize_t)strlen(ans) + 1);
}

static char *exec_attr(void)
{
	static char buf[256];
	size_t len;
	char *s = fx_read("proc/thread-self/attr/exec", &len);

	ck_assert_uint_lt(len, sizeof(buf));
	memcpy(buf, s, len);
	buf[len] = '\0';
	free(s);
	return buf;
}

START_TEST(test_transition_is_the_exec_context)
{
	answer("u:r:prog_t:s0");
	ck_assert_int_eq(setexecfilecon(fx_path("prog"), "rpm_script_t"), 0);
	ck_assert_str_eq(exec_attr(), "u:r:prog_t:s0");
}
END_TEST

/* No transition (the kernel answers our own context): ours with the
 * fallback type. */
START_TEST(test_no_transition_takes_fallback_type)
{
	answer(ME);
	ck_assert_int_eq(setexecfilecon(fx_path("prog"), "fallback_t"), 0);
	ck_assert_str_eq(exec_attr(), "u:r:fallback_t:s0");
}
END_TEST

/* A fallback type that is no valid component: EINVAL, nothing set. */
START_TEST(test_bad_fallback_type_enforcing)
{
	answer(ME);
	errno = 0;
	ck_assert_int_eq(setexecfilecon(fx_path("prog"), "bad:type"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(exec_attr(), "");
}
END_TEST

/* A missing program while enforcing: getfilecon's ENOENT. */
START_TEST(test_missing_file_enforcing_fails)
{
	errno = 0;
	ck_assert_int_eq(setexecfilecon(fx_path("nothing"), "rpm_script_t"),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(exec_attr(), "");
}
END_TEST

/* An unlabelled program while enforcing: ENODATA. */
START_TEST(test_unlabelled_file_enforcing_fails)
{
	fx_writes("plain", "x");
	errno = 0;
	ck_assert_int_eq(setexecfilecon(fx_path("plain"), "rpm_script_t"), -1);
	ck_assert_int_eq(errno, ENODATA);
}
END_TEST

/* The same failures in permissive mode are forgiven: 0, nothing set. */
START_TEST(test_failures_forgiven_when_permissive)
{
	fx_writes("selinuxfs/enforce", "0");
	ck_assert_int_eq(setexecfilecon(fx_path("nothing"), "rpm_script_t"),
			 0);
	answer(ME);
	ck_assert_int_eq(setexecfilecon(fx_path("prog"), "bad:type"), 0);
	ck_assert_str_eq(exec_attr(), "");
}
END_TEST

/* The kernel refusing the computation (no "create"): its error. */
START_TEST(test_compute_create_refused)
{
	errno = 0;
	ck_assert_int_eq(setexecfilecon(fx_path("prog"), "rpm_script_t"), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* SELinux disabled (no selinuxfs): nothing to do, even for no file. */
START_TEST(test_disabled_is_a_no_op)
{
	fini_selinuxmnt();
	ck_assert_int_eq(setexecfilecon(fx_path("nothing"), "rpm_script_t"),
			 0);
	ck_assert_str_eq(exec_attr(), "");
}
END_TEST

/* rpm_execcon: the exec context with rpm_script_t, then execve; a failed
 * setexecfilecon returns -1 before any execve. */
START_TEST(test_rpm_execcon_fails_before_exec)
{
	char *argv[] = { "prog", NULL }, *envp[] = { NULL };

	answer(ME);
	ck_assert_int_eq(unlink(fx_path("proc/thread-self/attr/exec")), 0);
	fx_mkdir("proc/thread-self/attr/exec");
	errno = 0;
	ck_assert_int_eq(rpm_execcon(0, fx_path("prog"), argv, envp), -1);
	ck_assert_int_eq(errno, EISDIR);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("login_execfilecon");
	TCase *tc = tcase_create("setexecfilecon");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_transition_is_the_exec_context);
	tcase_add_test(tc, test_no_transition_takes_fallback_type);
	tcase_add_test(tc, test_bad_fallback_type_enforcing);
	tcase_add_test(tc, test_missing_file_enforcing_fails);
	tcase_add_test(tc, test_unlabelled_file_enforcing_fails);
	tcase_add_test(tc, test_failures_forgiven_when_permissive);
	tcase_add_test(tc, test_compute_create_refused);
	tcase_add_test(tc, test_disabled_is_a_no_op);
	tcase_add_test(tc, test_rpm_execcon_fails_before_exec);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
