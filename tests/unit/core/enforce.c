/* Suite core_enforce: the selinuxfs integer files and their parsers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

static void setup(void)
{
	fx_setup();
	fx_selinuxfs();
}

static void teardown(void)
{
	fini_selinuxmnt();
	fx_teardown();
}

/* security_getenforce ------------------------------------------------ */

START_TEST(test_security_getenforce_enforcing)
{
	fx_writes("selinuxfs/enforce", "1");
	ck_assert_int_eq(security_getenforce(), 1);
}
END_TEST

START_TEST(test_security_getenforce_permissive)
{
	fx_writes("selinuxfs/enforce", "0");
	ck_assert_int_eq(security_getenforce(), 0);
}
END_TEST

START_TEST(test_security_getenforce_nonzero_is_enforcing)
{
	/* The kernel takes any non-zero as enforcing; so does the reader. */
	fx_writes("selinuxfs/enforce", "2");
	ck_assert_int_eq(security_getenforce(), 1);
}
END_TEST

START_TEST(test_security_getenforce_newline)
{
	fx_writes("selinuxfs/enforce", "1\n");
	ck_assert_int_eq(security_getenforce(), 1);
}
END_TEST

START_TEST(test_security_getenforce_garbage)
{
	fx_writes("selinuxfs/enforce", "x");
	errno = 0;
	ck_assert_int_eq(security_getenforce(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_getenforce_empty)
{
	fx_writes("selinuxfs/enforce", "");
	errno = 0;
	ck_assert_int_eq(security_getenforce(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_getenforce_trailing_garbage)
{
	fx_writes("selinuxfs/enforce", "1x");
	errno = 0;
	ck_assert_int_eq(security_getenforce(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_getenforce_very_long)
{
	char buf[100000];

	memset(buf, '1', sizeof(buf));
	fx_write("selinuxfs/enforce", buf, sizeof(buf));
	errno = 0;
	ck_assert_int_eq(security_getenforce(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_getenforce_missing)
{
	errno = 0;
	ck_assert_int_eq(security_getenforce(), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_security_getenforce_no_mount)
{
	fini_selinuxmnt();
	errno = 0;
	ck_assert_int_eq(security_getenforce(), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* security_setenforce ------------------------------------------------ */

START_TEST(test_security_setenforce_writes_value)
{
	char *s;

	fx_writes("selinuxfs/enforce", "0");
	ck_assert_int_eq(security_setenforce(1), 0);
	s = fx_read("selinuxfs/enforce", NULL);
	ck_assert_str_eq(s, "1");
	free(s);
	ck_assert_int_eq(security_setenforce(0), 0);
	s = fx_read("selinuxfs/enforce", NULL);
	ck_assert_str_eq(s, "0");
	free(s);
}
END_TEST

START_TEST(test_security_setenforce_no_mount)
{
	fini_selinuxmnt();
	errno = 0;
	ck_assert_int_eq(security_setenforce(1), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* security_policyvers ------------------------------------------------ */

START_TEST(test_security_policyvers_value)
{
	fx_writes("selinuxfs/policyvers", "33");
	ck_assert_int_eq(security_policyvers(), 33);
}
END_TEST

START_TEST(test_security_policyvers_missing_file_is_15)
{
	ck_assert_int_eq(security_policyvers(), 15);
}
END_TEST

START_TEST(test_security_policyvers_garbage)
{
	fx_writes("selinuxfs/policyvers", "thirty");
	errno = 0;
	ck_assert_int_eq(security_policyvers(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_policyvers_negative)
{
	fx_writes("selinuxfs/policyvers", "-5");
	errno = 0;
	ck_assert_int_eq(security_policyvers(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_policyvers_no_mount)
{
	fini_selinuxmnt();
	errno = 0;
	ck_assert_int_eq(security_policyvers(), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* deny_unknown, reject_unknown, checkreqprot ------------------------- */

START_TEST(test_security_deny_unknown_values)
{
	fx_writes("selinuxfs/deny_unknown", "1");
	ck_assert_int_eq(security_deny_unknown(), 1);
	fx_writes("selinuxfs/deny_unknown", "0");
	ck_assert_int_eq(security_deny_unknown(), 0);
	fx_writes("selinuxfs/deny_unknown", "junk");
	errno = 0;
	ck_assert_int_eq(security_deny_unknown(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_reject_unknown_values)
{
	fx_writes("selinuxfs/reject_unknown", "1");
	ck_assert_int_eq(security_reject_unknown(), 1);
	fx_writes("selinuxfs/reject_unknown", "0\n");
	ck_assert_int_eq(security_reject_unknown(), 0);
	errno = 0;
	fx_writes("selinuxfs/reject_unknown", "");
	ck_assert_int_eq(security_reject_unknown(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_get_checkreqprot_values)
{
	fx_writes("selinuxfs/checkreqprot", "0");
	ck_assert_int_eq(security_get_checkreqprot(), 0);
	fx_writes("selinuxfs/checkreqprot", "1");
	ck_assert_int_eq(security_get_checkreqprot(), 1);
}
END_TEST

START_TEST(test_security_get_checkreqprot_missing)
{
	errno = 0;
	ck_assert_int_eq(security_get_checkreqprot(), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* is_selinux_mls_enabled --------------------------------------------- */

START_TEST(test_is_selinux_mls_enabled_values)
{
	fx_writes("selinuxfs/mls", "1");
	ck_assert_int_eq(is_selinux_mls_enabled(), 1);
	fx_writes("selinuxfs/mls", "0");
	ck_assert_int_eq(is_selinux_mls_enabled(), 0);
	/* Only exactly 1 means MLS, and errors read as "no". */
	fx_writes("selinuxfs/mls", "33");
	ck_assert_int_eq(is_selinux_mls_enabled(), 0);
	fx_writes("selinuxfs/mls", "x");
	ck_assert_int_eq(is_selinux_mls_enabled(), 0);
}
END_TEST

START_TEST(test_is_selinux_mls_enabled_no_mount)
{
	fini_selinuxmnt();
	ck_assert_int_eq(is_selinux_mls_enabled(), 0);
}
END_TEST

/* security_disable --------------------------------------------------- */

START_TEST(test_security_disable_writes_1)
{
	char *s;

	fx_writes("selinuxfs/disable", "");
	ck_assert_int_eq(security_disable(), 0);
	s = fx_read("selinuxfs/disable", NULL);
	ck_assert_str_eq(s, "1");
	free(s);
}
END_TEST

START_TEST(test_security_disable_missing)
{
	errno = 0;
	ck_assert_int_eq(security_disable(), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("core_enforce");
	TCase *tc;

	tc = tcase_create("security_getenforce");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_security_getenforce_enforcing);
	tcase_add_test(tc, test_security_getenforce_permissive);
	tcase_add_test(tc, test_security_getenforce_nonzero_is_enforcing);
	tcase_add_test(tc, test_security_getenforce_newline);
	tcase_add_test(tc, test_security_getenforce_garbage);
	tcase_add_test(tc, test_security_getenforce_empty);
	tcase_add_test(tc, test_security_getenforce_trailing_garbage);
	tcase_add_test(tc, test_security_getenforce_very_long);
	tcase_add_test(tc, test_security_getenforce_missing);
	tcase_add_test(tc, test_security_getenforce_no_mount);
	suite_add_tcase(s, tc);

	tc = tcase_create("security_setenforce");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_security_setenforce_writes_value);
	tcase_add_test(tc, test_security_setenforce_no_mount);
	suite_add_tcase(s, tc);

	tc = tcase_create("security_policyvers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_security_policyvers_value);
	tcase_add_test(tc, test_security_policyvers_missing_file_is_15);
	tcase_add_test(tc, test_security_policyvers_garbage);
	tcase_add_test(tc, test_security_policyvers_negative);
	tcase_add_test(tc, test_security_policyvers_no_mount);
	suite_add_tcase(s, tc);

	tc = tcase_create("flags");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_security_deny_unknown_values);
	tcase_add_test(tc, test_security_reject_unknown_values);
	tcase_add_test(tc, test_security_get_checkreqprot_values);
	tcase_add_test(tc, test_security_get_checkreqprot_missing);
	tcase_add_test(tc, test_is_selinux_mls_enabled_values);
	tcase_add_test(tc, test_is_selinux_mls_enabled_no_mount);
	tcase_add_test(tc, test_security_disable_writes_1);
	tcase_add_test(tc, test_security_disable_missing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
