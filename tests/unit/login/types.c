/*
 * Suite login_types: get_default_type, is_context_customizable,
 * selinux_check_securetty_context and selinux_raw_context_to_color.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <selinux/get_default_type.h>

#include "common.h"

static void setup(void)
{
	login_setup(0);
}

static char *type;

static int dtype(const char *role)
{
	free(type);
	type = NULL;
	return get_default_type(role, &type);
}

START_TEST(test_get_default_type_found)
{
	fx_writes(
	    TREE "contexts/default_type",
	    "\n  sysadm_r:sysadm_t\nstaff_r:staff_t extra\nuser_r:user_t");
	ck_assert_int_eq(dtype("sysadm_r"), 0);
	ck_assert_str_eq(type, "sysadm_t");
	/* The rest of the line, as the reference. */
	ck_assert_int_eq(dtype("staff_r"), 0);
	ck_assert_str_eq(type, "staff_t extra");
	/* The last character goes even when it is not a newline. */
	ck_assert_int_eq(dtype("user_r"), 0);
	ck_assert_str_eq(type, "user_");
}
END_TEST

START_TEST(test_get_default_type_errors)
{
	char *big = huge_line(5000, 'q'), *text;

	ck_assert_int_eq(dtype("sysadm_r"), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_ne(asprintf(&text, "%ssysadm\nsysadm_r:x_t\n", big), -1);
	fx_writes(TREE "contexts/default_type", text);
	free(text);
	free(big);
	ck_assert_int_eq(dtype("sysadm"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(dtype("nosuch_r"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(dtype(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(dtype("sysadm_r"), 0);
	ck_assert_str_eq(type, "x_t");
}
END_TEST

START_TEST(test_is_context_customizable_listed)
{
	fx_writes(TREE "contexts/customizable_types",
		  "  home_t\n\n\t\nremovable_t\nlast_t");
	ck_assert_int_eq(is_context_customizable("u:object_r:home_t"), 1);
	ck_assert_int_eq(is_context_customizable("u:r:removable_t:s0"), 1);
	ck_assert_int_eq(is_context_customizable("u:r:etc_t"), 0);
	/* "last_t" without a newline is read as "last_". */
	ck_assert_int_eq(is_context_customizable("u:r:last_t"), 0);
	ck_assert_int_eq(is_context_customizable("u:r:last_"), 1);
	ck_assert_int_eq(is_context_customizable("bogus"), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_is_context_customizable_missing)
{
	ck_assert_int_eq(is_context_customizable("u:r:home_t"), -1);
	/* Read once: a file made later is not seen. */
	fx_writes(TREE "contexts/customizable_types", "home_t\n");
	ck_assert_int_eq(is_context_customizable("u:r:home_t"), -1);
}
END_TEST

START_TEST(test_selinux_check_securetty_context_listed)
{
	char *big = huge_line(100000, 'w'), *text;

	ck_assert_int_ne(asprintf(&text, "%s  tty_device_t junk\n\n", big), -1);
	fx_writes(TREE "contexts/securetty_types", text);
	free(text);
	free(big);
	ck_assert_int_eq(
	    selinux_check_securetty_context("system_u:object_r:tty_device_t"),
	    0);
	ck_assert_int_eq(selinux_check_securetty_context("u:r:junk"), -1);
	ck_assert_int_eq(selinux_check_securetty_context("bogus"), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selinux_check_securetty_context_missing)
{
	ck_assert_int_eq(selinux_check_securetty_context("u:r:tty_device_t"),
			 -1);
}
END_TEST

START_TEST(test_selinux_raw_context_to_color_copy)
{
	char *c = NULL;

	/* Without mcstrans the answer is the context itself. */
	ck_assert_int_eq(selinux_raw_context_to_color("u:r:t:s0", &c), 0);
	ck_assert_str_eq(c, "u:r:t:s0");
	free(c);
	ck_assert_int_eq(selinux_raw_context_to_color(NULL, &c), -1);
	ck_assert_ptr_null(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("login_types");
	TCase *dt = tcase_create("get_default_type");
	TCase *cu = tcase_create("is_context_customizable");
	TCase *tt = tcase_create("selinux_check_securetty_context");
	TCase *co = tcase_create("selinux_raw_context_to_color");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(dt, setup, login_teardown);
	tcase_add_test(dt, test_get_default_type_found);
	tcase_add_test(dt, test_get_default_type_errors);
	suite_add_tcase(s, dt);
	tcase_add_checked_fixture(cu, setup, login_teardown);
	tcase_add_test(cu, test_is_context_customizable_listed);
	tcase_add_test(cu, test_is_context_customizable_missing);
	suite_add_tcase(s, cu);
	tcase_add_checked_fixture(tt, setup, login_teardown);
	tcase_add_test(tt, test_selinux_check_securetty_context_listed);
	tcase_add_test(tt, test_selinux_check_securetty_context_missing);
	suite_add_tcase(s, tt);
	tcase_add_checked_fixture(co, setup, login_teardown);
	tcase_add_test(co, test_selinux_raw_context_to_color_copy);
	suite_add_tcase(s, co);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
