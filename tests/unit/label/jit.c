/*
 * Suite label_jit: may the file backend JIT-compile its regexes?  Only
 * when the policy grants this process process:execmem (asked through the
 * access file, which audits nothing), or when there is no SELinux: a JIT
 * attempt in a domain without execmem is an AVC denial (the system test
 * found them in systemd and systemd-tmpfiles on our library).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

bool lbl_jit_allowed(void);
void core_set_proc_root(const char *dir);

static int queued = -1;

static void setup(void)
{
	fx_setup();
	fx_selinuxfs();
	fx_proc_root();
	fx_writes("proc/thread-self/attr/current", "u:r:daemon_t:s0");
	/* process is class 2; execmem is its permission 5 (bit 0x10) */
	fx_writes("selinuxfs/class/process/index", "2");
	fx_writes("selinuxfs/class/process/perms/fork", "1");
	fx_writes("selinuxfs/class/process/perms/transition", "2");
	fx_writes("selinuxfs/class/process/perms/sigchld", "3");
	fx_writes("selinuxfs/class/process/perms/sigkill", "4");
	fx_writes("selinuxfs/class/process/perms/execmem", "5");
}

static void teardown(void)
{
	if (queued >= 0)
		close(queued);
	queued = -1;
	core_set_proc_root(NULL);
	fini_selinuxmnt();
	fx_teardown();
}

/* The access file's answer, queued in a FIFO (see compute/kernel.c). */
static void answer(const char *ans)
{
	const char *path = fx_path("selinuxfs/access");

	ck_assert_int_eq(mkfifo(path, 0600), 0);
	queued = open(path, O_RDWR);
	ck_assert_int_ge(queued, 0);
	ck_assert_int_eq(write(queued, ans, strlen(ans) + 1),
			 (ssize_t)strlen(ans) + 1);
}

START_TEST(test_lbl_jit_allowed_with_execmem)
{
	answer("10 ffffffff 0 ffffffff 1 0");
	ck_assert(lbl_jit_allowed());
}
END_TEST

START_TEST(test_lbl_jit_allowed_without_execmem)
{
	/* everything but execmem */
	answer("ffffffef ffffffff 0 ffffffff 1 0");
	ck_assert(!lbl_jit_allowed());
}
END_TEST

START_TEST(test_lbl_jit_allowed_unanswered_is_no)
{
	/* no access file: do not JIT (a denial costs more than a slow
	 * match) */
	ck_assert(!lbl_jit_allowed());
}
END_TEST

START_TEST(test_lbl_jit_allowed_without_selinux)
{
	fini_selinuxmnt();
	ck_assert(lbl_jit_allowed());
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_jit");
	TCase *tc = tcase_create("lbl_jit_allowed");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lbl_jit_allowed_with_execmem);
	tcase_add_test(tc, test_lbl_jit_allowed_without_execmem);
	tcase_add_test(tc, test_lbl_jit_allowed_unanswered_is_no);
	tcase_add_test(tc, test_lbl_jit_allowed_without_selinux);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
