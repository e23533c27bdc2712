/* Suite avc_check_access: selinux_check_access and the passwd checks. */
#include "avc_fixture.h"

static void setup(void)
{
	avx_tree();
	avx_capture_log();
	/* enabled means a selinuxfs and a config file */
	fx_config_root();
	fx_writes("etc/selinux/config", "SELINUX=enforcing\n");
	fx_config_root();
}

static void teardown(void)
{
	avc_destroy();
	avx_untree();
}

START_TEST(test_selinux_check_access_granted)
{
	avx_answer("access", "7 ffffffff 0 ffffffff 1 0");
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "read", NULL), 0);
	/* the second question is the cache's */
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "open", NULL), 0);
}
END_TEST

START_TEST(test_selinux_check_access_denied)
{
	avx_answer("access", "1 ffffffff 0 ffffffff 1 0");
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "write", NULL), -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_str_eq(avx_log, "avc:  denied  { write } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file permissive=0\n");
}
END_TEST

START_TEST(test_selinux_check_access_unknown_class_denied)
{
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "nope", "read", NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(avx_log, "Unknown class nope");
}
END_TEST

START_TEST(test_selinux_check_access_unknown_perm_allowed)
{
	fx_writes("selinuxfs/deny_unknown", "0");
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "nope", NULL), 0);
	ck_assert_str_eq(avx_log, "Unknown permission nope for class file");
}
END_TEST

START_TEST(test_selinux_check_access_disabled)
{
	unlink(fx_path("etc/selinux/config"));
	fx_config_root();
	/* nothing queued, no status page needed: disabled allows all */
	unlink(fx_path("selinuxfs/status"));
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "write", NULL), 0);
}
END_TEST

/*
 * Enabled, but the AVC cannot be opened (here: no enforce file; for real,
 * a security server that died and left its mount): no mode, no decision,
 * so every check is a denial with avc_open's errno, also one that a
 * queued answer would grant.
 */
START_TEST(test_selinux_check_access_avc_unopenable_denies)
{
	unlink(fx_path("selinuxfs/enforce"));
	avx_answer("access", "7 ffffffff 0 ffffffff 1 0");
	for (int i = 0; i < 2; i++) {
		errno = 0;
		ck_assert_int_eq(selinux_check_access("a:b:c", "d:e:f", "file",
						      "read", NULL),
				 -1);
		ck_assert_int_eq(errno, ENOENT);
	}
}
END_TEST

/*
 * The numbers of the strings are remembered per thread: the tests below
 * change what a name stands for and check that the next call sees it.
 */
START_TEST(test_selinux_check_access_strings_told_apart)
{
	avx_answer("access", "7 ffffffff 0 ffffffff 1 0");
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "read", NULL), 0);
	/* same lengths, one byte apart: a question of its own */
	avx_answer("access", "0 ffffffff 0 ffffffff 1 0");
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access("a:b:d", "d:e:f", "file", "read", NULL), -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_str_eq(avx_log, "avc:  denied  { read } for  scontext=a:b:d "
				  "tcontext=d:e:f tclass=file permissive=0\n");
	/* the first is still granted, from the cache (nothing queued) */
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "read", NULL), 0);
	/* the strings split differently: "file" "read" is not "fil" "eread" */
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "fil", "eread", NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selinux_check_access_buffer_reused)
{
	char scon[16], perm[16];

	strcpy(scon, "a:b:c");
	strcpy(perm, "read");
	avx_answer("access", "1 ffffffff 0 ffffffff 1 0");
	ck_assert_int_eq(
	    selinux_check_access(scon, "d:e:f", "file", perm, NULL), 0);
	ck_assert_int_eq(
	    selinux_check_access(scon, "d:e:f", "file", perm, NULL), 0);
	/* the same buffers with other contents: other questions */
	strcpy(perm, "write");
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access(scon, "d:e:f", "file", perm, NULL), -1);
	ck_assert_int_eq(errno, EACCES);
	strcpy(perm, "read");
	strcpy(scon, "a:b:x");
	avx_answer("access", "0 ffffffff 0 ffffffff 1 0");
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access(scon, "d:e:f", "file", perm, NULL), -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_str_eq(avx_log,
			 "avc:  denied  { write } for  scontext=a:b:c "
			 "tcontext=d:e:f tclass=file permissive=0\n"
			 "avc:  denied  { read } for  scontext=a:b:x "
			 "tcontext=d:e:f tclass=file permissive=0\n");
}
END_TEST

START_TEST(test_selinux_check_access_renumbered_by_policy_load)
{
	avx_answer("access", "7 ffffffff 0 ffffffff 1 0");
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "read", NULL), 0);
	/* a new policy: file is class 7 now, 6 is dir */
	fx_writes("selinuxfs/class/file/index", "7");
	fx_writes("selinuxfs/class/dir/index", "6");
	fx_writes("selinuxfs/class/dir/perms/read", "1");
	avx_status(4, 1, 2, 1);
	avx_answer("access", "0 ffffffff 0 ffffffff 2 0");
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "read", NULL), -1);
	ck_assert_int_eq(errno, EACCES);
	/* tclass=dir would be the old number */
	ck_assert_str_eq(avx_log, "avc:  op=load_policy lsm=selinux seqno=2 "
				  "res=1"
				  "avc:  denied  { read } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file permissive=0\n");
}
END_TEST

START_TEST(test_selinux_check_access_renumbered_by_mapping)
{
	struct security_class_mapping map[] = {
	    {"file", {"write", "read", NULL}},
	    {NULL, {NULL}},
	};

	avx_answer("access", "7 ffffffff 0 ffffffff 1 0");
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "write", NULL), 0);
	ck_assert_int_eq(selinux_set_mapping(map), 0);
	/* mapped: file is 1, write 0x1; the kernel's answer denies write */
	avx_answer("access", "1 ffffffff 0 ffffffff 1 0");
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "write", NULL), -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_str_eq(avx_log, "avc:  denied  { write } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file permissive=0\n");
}
END_TEST

START_TEST(test_selinux_check_access_after_avc_destroy)
{
	avx_answer("access", "7 ffffffff 0 ffffffff 1 0");
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "read", NULL), 0);
	/* the SIDs remembered died with the AVC: a clear error, no use of
	 * freed memory (the ASan build would see it) */
	avc_destroy();
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", "d:e:f", "file", "read", NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selinux_check_access_null_arguments)
{
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access(NULL, "d:e:f", "file", "read", NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(
	    selinux_check_access("a:b:c", NULL, "file", "read", NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selinux_check_passwd_access_no_prev_enforcing)
{
	/* this host has no /proc/self/attr/prev to read: a denial */
	fx_proc_root();
	ck_assert_int_eq(selinux_check_passwd_access(1), -1);
	ck_assert_int_eq(checkPasswdAccess(1), -1);
}
END_TEST

START_TEST(test_selinux_check_passwd_access_permissive)
{
	fx_proc_root();
	fx_writes("selinuxfs/enforce", "0");
	ck_assert_int_eq(selinux_check_passwd_access(1), 0);
}
END_TEST

START_TEST(test_selinux_check_passwd_access_granted)
{
	char rel[128];

	fx_proc_root();
	snprintf(rel, sizeof(rel), "proc/thread-self/attr/prev");
	fx_writes(rel, "a:b:c");
	fx_writes("selinuxfs/class/passwd/index", "9");
	fx_writes("selinuxfs/class/passwd/perms/passwd", "1");
	avx_answer("access", "1 ffffffff 0 ffffffff 1 0");
	ck_assert_int_eq(selinux_check_passwd_access(1), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("avc_check_access");
	TCase *tc;

	tc = avx_tcase(s, "selinux_check_access", setup, teardown);
	tcase_add_test(tc, test_selinux_check_access_granted);
	tcase_add_test(tc, test_selinux_check_access_denied);
	tcase_add_test(tc, test_selinux_check_access_unknown_class_denied);
	tcase_add_test(tc, test_selinux_check_access_unknown_perm_allowed);
	tcase_add_test(tc, test_selinux_check_access_disabled);
	tcase_add_test(tc, test_selinux_check_access_avc_unopenable_denies);
	tcase_add_test(tc, test_selinux_check_access_strings_told_apart);
	tcase_add_test(tc, test_selinux_check_access_buffer_reused);
	tcase_add_test(tc, test_selinux_check_access_renumbered_by_policy_load);
	tcase_add_test(tc, test_selinux_check_access_renumbered_by_mapping);
	tcase_add_test(tc, test_selinux_check_access_after_avc_destroy);
	tcase_add_test(tc, test_selinux_check_access_null_arguments);

	tc = avx_tcase(s, "selinux_check_passwd_access", setup, teardown);
	tcase_add_test(tc, test_selinux_check_passwd_access_no_prev_enforcing);
	tcase_add_test(tc, test_selinux_check_passwd_access_permissive);
	tcase_add_test(tc, test_selinux_check_passwd_access_granted);
	return avx_run(s);
}
