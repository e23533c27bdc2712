/* Suite login_seusers: getseuserbyname and getseuser over fixture trees. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static void setup(void)
{
	login_setup(0);
}

static void setup_mls(void)
{
	login_setup(1);
}

static char *seuser, *level;

static int lookup(const char *name)
{
	free(seuser);
	free(level);
	seuser = level = NULL;
	return getseuserbyname(name, &seuser, &level);
}

START_TEST(test_getseuserbyname_user_first)
{
	fx_writes(TREE "seusers", "__default__:user_u\nalice:staff_u\n"
				  "alice:sysadm_u\n");
	ck_assert_int_eq(lookup("alice"), 0);
	ck_assert_str_eq(seuser, "staff_u");
	ck_assert_ptr_null(level);
}
END_TEST

START_TEST(test_getseuserbyname_default)
{
	fx_writes(TREE "seusers", "# comment\n\nroot:root\n"
				  "__default__:user_u\n__default__:x_u\n");
	ck_assert_int_eq(lookup("bob"), 0);
	ck_assert_str_eq(seuser, "user_u");
}
END_TEST

/* root is in group "root" (gid 0) on every system the tests run on. */
START_TEST(test_getseuserbyname_group_before_default)
{
	fx_writes(TREE "seusers", "__default__:user_u\n%nosuchgroup:x_u\n"
				  "%root:staff_u\n%root:other_u\n");
	ck_assert_int_eq(lookup("root"), 0);
	ck_assert_str_eq(seuser, "staff_u");
}
END_TEST

START_TEST(test_getseuserbyname_no_match)
{
	fx_writes(TREE "seusers", "root:root\n");
	ck_assert_int_eq(lookup("carol"), 0);
	ck_assert_str_eq(seuser, "carol");
	ck_assert_ptr_null(level);
}
END_TEST

START_TEST(test_getseuserbyname_missing_file)
{
	ck_assert_int_eq(lookup("carol"), 0);
	ck_assert_str_eq(seuser, "carol");
}
END_TEST

START_TEST(test_getseuserbyname_broken_lines)
{
	char *big = huge_line(200000, 'y'), *text;

	/* No colon, an empty seuser, a 200000-byte line, then the entry. */
	ck_assert_int_ne(
	    asprintf(&text, "nocolon\n:\ndave:\n%sdave:staff_u\n", big), -1);
	fx_writes(TREE "seusers", text);
	free(text);
	free(big);
	ck_assert_int_eq(lookup("dave"), 0);
	ck_assert_str_eq(seuser, "staff_u");
}
END_TEST

START_TEST(test_getseuserbyname_level_ignored_without_mls)
{
	fx_writes(TREE "seusers", "erin:staff_u:s0-s1\n");
	ck_assert_int_eq(lookup("erin"), 0);
	ck_assert_str_eq(seuser, "staff_u");
	ck_assert_ptr_null(level);
}
END_TEST

START_TEST(test_getseuserbyname_level_mls)
{
	fx_writes(TREE "seusers", "erin:staff_u:s0-s1:c0.c3 junk\n"
				  "frank:user_u:\n__default__:user_u:s0\n");
	ck_assert_int_eq(lookup("erin"), 0);
	ck_assert_str_eq(seuser, "staff_u");
	ck_assert_str_eq(level, "s0-s1:c0.c3");
	/* An empty level spoils the line: frank falls to __default__. */
	ck_assert_int_eq(lookup("frank"), 0);
	ck_assert_str_eq(seuser, "user_u");
	ck_assert_str_eq(level, "s0");
}
END_TEST

START_TEST(test_getseuserbyname_require_seusers)
{
	fx_writes("etc/selinux/config", "SELINUX=enforcing\nSELINUXTYPE=t\n"
					"REQUIRESEUSERS=1\n");
	selinux_reset_config();
	ck_assert_int_eq(selinux_set_policy_root(fx_path("etc/selinux/t")), 0);
	ck_assert_int_eq(lookup("carol"), -1);
}
END_TEST

START_TEST(test_getseuser_service)
{
	fx_writes(TREE "seusers", "__default__:user_u\n");
	fx_writes(TREE "logins/gina", "*:staff_u:s0\nsshd:sysadm_u:s1\n"
				      "*:other_u:s2\n");
	ck_assert_int_eq(getseuser("gina", "sshd", &seuser, &level), 0);
	ck_assert_str_eq(seuser, "sysadm_u");
	ck_assert_str_eq(level, "s1");
	free(seuser);
	free(level);
	/* Another service: the last "*" line before the end. */
	ck_assert_int_eq(getseuser("gina", "cron", &seuser, &level), 0);
	ck_assert_str_eq(seuser, "other_u");
	ck_assert_str_eq(level, "s2");
	free(seuser);
	free(level);
	seuser = level = NULL;
}
END_TEST

START_TEST(test_getseuser_fallback)
{
	fx_writes(TREE "seusers", "__default__:user_u\n");
	fx_writes(TREE "logins/hal", "sshd:staff_u\n");
	/* A record without a level is unusable: seusers decides. */
	ck_assert_int_eq(getseuser("hal", "sshd", &seuser, &level), 0);
	ck_assert_str_eq(seuser, "user_u");
	free(seuser);
	free(level);
	ck_assert_int_eq(getseuser("ivy", NULL, &seuser, &level), 0);
	ck_assert_str_eq(seuser, "user_u");
	free(seuser);
	free(level);
	seuser = level = NULL;
}
END_TEST

int main(void)
{
	Suite *s = suite_create("login_seusers");
	TCase *tc = tcase_create("getseuserbyname");
	TCase *mls = tcase_create("getseuserbyname_mls");
	TCase *gs = tcase_create("getseuser");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, login_teardown);
	tcase_add_test(tc, test_getseuserbyname_user_first);
	tcase_add_test(tc, test_getseuserbyname_default);
	tcase_add_test(tc, test_getseuserbyname_group_before_default);
	tcase_add_test(tc, test_getseuserbyname_no_match);
	tcase_add_test(tc, test_getseuserbyname_missing_file);
	tcase_add_test(tc, test_getseuserbyname_broken_lines);
	tcase_add_test(tc, test_getseuserbyname_level_ignored_without_mls);
	tcase_add_test(tc, test_getseuserbyname_require_seusers);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(mls, setup_mls, login_teardown);
	tcase_add_test(mls, test_getseuserbyname_level_mls);
	suite_add_tcase(s, mls);
	tcase_add_checked_fixture(gs, setup, login_teardown);
	tcase_add_test(gs, test_getseuser_service);
	tcase_add_test(gs, test_getseuser_fallback);
	suite_add_tcase(s, gs);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
