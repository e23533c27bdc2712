/*
 * Suite login_context_list: get_ordered_context_list and the
 * get_default_context family over fixture trees.  The fake selinuxfs
 * accepts every context, so what is tested here is the files' reading:
 * order, duplicates, ranges, the failsafe, broken input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <selinux/get_context_list.h>

#include "common.h"

static void setup(void)
{
	login_setup(0);
}

static void setup_mls(void)
{
	login_setup(1);
}

static char **list;

/* The list joined by spaces (or "rc=N errno=E"), in a static buffer. */
static const char *got(int r)
{
	static char buf[4096];
	size_t n = 0;

	if (r < 0) {
		snprintf(buf, sizeof(buf), "rc=%d errno=%d", r, errno);
		return buf;
	}
	buf[0] = '\0';
	for (char **p = list; p && *p; p++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " " : "",
			      *p);
	freeconary(list);
	list = NULL;
	return buf;
}

#define FROM "system_u:system_r:sshd_t"

START_TEST(test_get_ordered_context_list_order)
{
	fx_writes(TREE "contexts/users/jo",
		  "system_r:init_t b_r:b_t\n"
		  "  system_r:sshd_t\tb_r:b_t a_r:a_t\n");
	fx_writes(TREE "contexts/default_contexts",
		  "system_r:sshd_t c_r:c_t a_r:a_t\n"
		  "system_r:sshd_t d_r:d_t\n");
	ck_assert_int_eq(get_ordered_context_list("jo", FROM, &list), 3);
	ck_assert_str_eq(got(3), "jo:b_r:b_t jo:a_r:a_t jo:c_r:c_t");
}
END_TEST

START_TEST(test_get_ordered_context_list_failsafe)
{
	fx_writes(TREE "contexts/default_contexts", "user_r:user_t a_r:a_t\n");
	fx_writes(TREE "contexts/failsafe_context", "sysadm_r:sysadm_t\nx\n");
	ck_assert_int_eq(get_ordered_context_list("kim", FROM, &list), 1);
	ck_assert_str_eq(got(1), "kim:sysadm_r:sysadm_t");
}
END_TEST

START_TEST(test_get_ordered_context_list_no_files)
{
	int r = get_ordered_context_list("kim", FROM, &list);

	ck_assert_str_eq(got(r), "rc=-1 errno=2");
	fx_writes(TREE "contexts/failsafe_context", "");
	r = get_ordered_context_list("kim", FROM, &list);
	ck_assert_str_eq(got(r), "rc=-1 errno=2");
}
END_TEST

START_TEST(test_get_ordered_context_list_broken)
{
	char *big = huge_line(300000, 'z'), *text;

	/* A first field alone, junk words, a huge line, a bad caller. */
	ck_assert_int_ne(asprintf(&text,
				  "system_r:sshd_t\n%s"
				  "system_r:sshd_t junk a_r:a_t %s",
				  big, big),
			 -1);
	fx_writes(TREE "contexts/default_contexts", text);
	free(text);
	free(big);
	fx_writes(TREE "contexts/failsafe_context", "f_r:f_t");
	ck_assert_int_eq(get_ordered_context_list("lee", FROM, &list), 1);
	ck_assert_str_eq(got(1), "lee:a_r:a_t");
	ck_assert_int_eq(get_ordered_context_list("lee", "bogus", &list), 1);
	ck_assert_str_eq(got(1), "lee:f_r:f_t");
	ck_assert_int_eq(get_ordered_context_list(NULL, FROM, &list), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_get_ordered_context_list_mls_range)
{
	fx_writes(TREE "contexts/default_contexts",
		  "system_r:sshd_t:s0 a_r:a_t:s0 b_r:b_t:s3\n");
	ck_assert_int_eq(get_ordered_context_list("mo", FROM ":s1-s2", &list),
			 2);
	ck_assert_str_eq(got(2), "mo:a_r:a_t:s1-s2 mo:b_r:b_t:s1-s2");
	ck_assert_int_eq(
	    get_ordered_context_list_with_level("mo", "s0", FROM ":s1", &list),
	    2);
	ck_assert_str_eq(got(2), "mo:a_r:a_t:s0 mo:b_r:b_t:s0");
}
END_TEST

START_TEST(test_get_default_context_with_role)
{
	char *con = NULL;

	fx_writes(TREE "contexts/default_contexts",
		  "system_r:sshd_t a_r:a_t b_r:b_t\n");
	ck_assert_int_eq(get_default_context("ned", FROM, &con), 0);
	ck_assert_str_eq(con, "ned:a_r:a_t");
	freecon(con);
	ck_assert_int_eq(
	    get_default_context_with_role("ned", "b_r", FROM, &con), 0);
	ck_assert_str_eq(con, "ned:b_r:b_t");
	freecon(con);
	ck_assert_int_eq(
	    get_default_context_with_role("ned", "c_r", FROM, &con), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(get_default_context_with_role("ned", NULL, FROM, &con),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* query_user_context reads its answers from stdin. */
static void answers(const char *text)
{
	fx_writes("stdin", text);
	ck_assert_ptr_nonnull(freopen(fx_path("stdin"), "r", stdin));
}

START_TEST(test_query_user_context_choice)
{
	char *l[] = {"a:b:c", "d:e:f", NULL}, *con = NULL;

	answers("y\n7\n2\n");
	ck_assert_int_eq(query_user_context(l, &con), 0);
	ck_assert_str_eq(con, "d:e:f");
	freecon(con);
	answers("n\n");
	ck_assert_int_eq(query_user_context(l, &con), 0);
	ck_assert_str_eq(con, "a:b:c");
	freecon(con);
	answers("y\n");
	ck_assert_int_eq(query_user_context(l, &con), -1);
	answers("");
	ck_assert_int_eq(query_user_context(l, &con), -1);
}
END_TEST

START_TEST(test_manual_user_enter_context_eof)
{
	char *con = NULL;

	/* The reference prompts forever at the end of input; we give up. */
	answers("y\n\n");
	ck_assert_int_eq(manual_user_enter_context("ned", &con), -1);
	answers("y\nr_r\nt_t\n");
	ck_assert_int_eq(manual_user_enter_context("ned", &con), 0);
	ck_assert_str_eq(con, "ned:r_r:t_t");
	freecon(con);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("login_context_list");
	TCase *tc = tcase_create("get_ordered_context_list");
	TCase *mls = tcase_create("get_ordered_context_list_mls");
	TCase *def = tcase_create("get_default_context");
	TCase *q = tcase_create("query_user_context");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, login_teardown);
	tcase_add_test(tc, test_get_ordered_context_list_order);
	tcase_add_test(tc, test_get_ordered_context_list_failsafe);
	tcase_add_test(tc, test_get_ordered_context_list_no_files);
	tcase_add_test(tc, test_get_ordered_context_list_broken);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(mls, setup_mls, login_teardown);
	tcase_add_test(mls, test_get_ordered_context_list_mls_range);
	suite_add_tcase(s, mls);
	tcase_add_checked_fixture(def, setup, login_teardown);
	tcase_add_test(def, test_get_default_context_with_role);
	suite_add_tcase(s, def);
	tcase_add_checked_fixture(q, setup, login_teardown);
	tcase_add_test(q, test_query_user_context_choice);
	tcase_add_test(q, test_manual_user_enter_context_eof);
	suite_add_tcase(s, q);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
