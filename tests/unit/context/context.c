/*
 * Suite context: context_t parsing, formatting, getters and setters.
 *
 * The expected values are the established library's answers, measured on
 * Debian's libselinux1 3.4 and written down here by hand.  context.h is
 * pure: no fixture tree is needed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <selinux/context.h>

#include "fixture.h"

/* Parse s, which must succeed. */
static context_t must_new(const char *s)
{
	context_t c = context_new(s);

	ck_assert_msg(c != NULL, "context_new(\"%s\") failed: %s", s,
		      strerror(errno));
	return c;
}

static void assert_new_fails(const char *s, int err)
{
	errno = 0;
	ck_assert_msg(context_new(s) == NULL, "context_new(\"%s\") accepted",
		      s);
	ck_assert_int_eq(errno, err);
}

/* context_new ------------------------------------------------------- */

START_TEST(test_context_new_three_fields)
{
	context_t c = must_new("system_u:object_r:etc_t");

	ck_assert_str_eq(context_user_get(c), "system_u");
	ck_assert_str_eq(context_role_get(c), "object_r");
	ck_assert_str_eq(context_type_get(c), "etc_t");
	ck_assert_ptr_null(context_range_get(c));
	context_free(c);
}
END_TEST

START_TEST(test_context_new_level)
{
	context_t c = must_new("u:r:t:s0");

	ck_assert_str_eq(context_range_get(c), "s0");
	ck_assert_str_eq(context_str(c), "u:r:t:s0");
	context_free(c);
}
END_TEST

START_TEST(test_context_new_range_with_colons)
{
	context_t c = must_new("u:r:t:s0-s15:c0.c1023");

	ck_assert_str_eq(context_type_get(c), "t");
	ck_assert_str_eq(context_range_get(c), "s0-s15:c0.c1023");
	context_free(c);
	c = must_new("a:b:c:d:e:f");
	ck_assert_str_eq(context_range_get(c), "d:e:f");
	context_free(c);
}
END_TEST

START_TEST(test_context_new_too_few_colons)
{
	assert_new_fails("u:r", EINVAL);
	assert_new_fails(":", EINVAL);
	assert_new_fails("u", EINVAL);
	assert_new_fails("", EINVAL);
}
END_TEST

START_TEST(test_context_new_null)
{
	/* The established library crashes here; we refuse. */
	assert_new_fails(NULL, EINVAL);
}
END_TEST

START_TEST(test_context_new_empty_last_type_is_absent)
{
	context_t c = must_new("u:r:");

	ck_assert_str_eq(context_user_get(c), "u");
	ck_assert_str_eq(context_role_get(c), "r");
	ck_assert_ptr_null(context_type_get(c));
	ck_assert_ptr_null(context_range_get(c));
	ck_assert_str_eq(context_str(c), "u:r");
	context_free(c);
}
END_TEST

START_TEST(test_context_new_empty_last_range_is_absent)
{
	context_t c = must_new("u:r:t:");

	ck_assert_ptr_null(context_range_get(c));
	ck_assert_str_eq(context_str(c), "u:r:t");
	context_free(c);
}
END_TEST

START_TEST(test_context_new_empty_inner_fields)
{
	context_t c = must_new("u::t");

	ck_assert_str_eq(context_role_get(c), "");
	ck_assert_str_eq(context_str(c), "u::t");
	context_free(c);

	c = must_new(":::");
	ck_assert_str_eq(context_user_get(c), "");
	ck_assert_str_eq(context_role_get(c), "");
	ck_assert_str_eq(context_type_get(c), "");
	ck_assert_ptr_null(context_range_get(c));
	ck_assert_str_eq(context_str(c), "::");
	context_free(c);

	c = must_new("::");
	ck_assert_ptr_null(context_type_get(c));
	ck_assert_str_eq(context_str(c), ":");
	context_free(c);

	c = must_new("u:r::");
	ck_assert_str_eq(context_type_get(c), "");
	ck_assert_str_eq(context_str(c), "u:r:");
	context_free(c);
}
END_TEST

START_TEST(test_context_new_trailing_colons_in_range)
{
	context_t c = must_new("u:r:t::");

	ck_assert_str_eq(context_range_get(c), ":");
	context_free(c);
	c = must_new("u:r:t:s0:");
	ck_assert_str_eq(context_range_get(c), "s0:");
	ck_assert_str_eq(context_str(c), "u:r:t:s0:");
	context_free(c);
}
END_TEST

START_TEST(test_context_new_whitespace_in_names)
{
	assert_new_fails("u r:r:t", EINVAL);
	assert_new_fails("u:r r:t", EINVAL);
	assert_new_fails("u:r:t x", EINVAL);
	assert_new_fails("u:r: t", EINVAL);
	assert_new_fails("u:r:t\n", EINVAL);
	assert_new_fails("u:r:t\t", EINVAL);
	assert_new_fails("u\r:r:t", EINVAL);
	assert_new_fails("u:r: :", EINVAL);
}
END_TEST

START_TEST(test_context_new_whitespace_in_range)
{
	context_t c;

	/* A space is allowed in the range; tab, CR and LF are not. */
	c = must_new("u:r:t:s0 s1");
	ck_assert_str_eq(context_range_get(c), "s0 s1");
	context_free(c);
	c = must_new("u:r:t: ");
	ck_assert_str_eq(context_range_get(c), " ");
	context_free(c);
	assert_new_fails("u:r:t:s0\n", EINVAL);
	assert_new_fails("u:r:t:s0\t", EINVAL);
	assert_new_fails("u:r:t:s0\r", EINVAL);
}
END_TEST

START_TEST(test_context_new_other_bytes_pass)
{
	/* Only the four whitespace bytes are checked: VT, FF, DEL, 0x01
	 * and high bytes go through. */
	context_t c = must_new("\x01:r\x0b:t\x0c:s0\x7f\xff");

	ck_assert_str_eq(context_user_get(c), "\x01");
	ck_assert_str_eq(context_role_get(c), "r\x0b");
	ck_assert_str_eq(context_type_get(c), "t\x0c");
	ck_assert_str_eq(context_range_get(c), "s0\x7f\xff");
	context_free(c);
}
END_TEST

START_TEST(test_context_new_long)
{
	static char big[70000];
	context_t c;

	memset(big, 'a', sizeof(big) - 1);
	big[1] = ':';
	big[3] = ':';
	c = must_new(big);
	ck_assert_uint_eq(strlen(context_str(c)), sizeof(big) - 1);
	ck_assert_uint_eq(strlen(context_type_get(c)), sizeof(big) - 5);
	context_free(c);
}
END_TEST

/* context_str ------------------------------------------------------- */

START_TEST(test_context_str_round_trip)
{
	context_t c = must_new("system_u:system_r:sshd_t:s0-s0:c0.c1023");

	ck_assert_str_eq(context_str(c),
			 "system_u:system_r:sshd_t:s0-s0:c0.c1023");
	context_free(c);
}
END_TEST

START_TEST(test_context_str_skips_absent)
{
	context_t c = must_new("u:r:t:s0");

	ck_assert_int_eq(context_role_set(c, NULL), 0);
	ck_assert_str_eq(context_str(c), "u:t:s0");
	ck_assert_int_eq(context_type_set(c, NULL), 0);
	ck_assert_str_eq(context_str(c), "u:s0");
	context_free(c);
}
END_TEST

START_TEST(test_context_str_same_buffer)
{
	context_t c = must_new("u:r:t:s0");
	const char *a = context_str(c);

	ck_assert_ptr_eq(context_str(c), a);
	ck_assert_int_eq(context_type_set(c, "x"), 0);
	ck_assert_str_eq(context_str(c), "u:r:x:s0");
	context_free(c);
}
END_TEST

START_TEST(test_context_str_null)
{
	errno = 0;
	ck_assert_ptr_null(context_str(NULL));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* context_to_str ---------------------------------------------------- */

START_TEST(test_context_to_str_owned_copy)
{
	context_t c = must_new("u:r:t:s0");
	char *s = context_to_str(c);

	ck_assert_str_eq(s, "u:r:t:s0");
	ck_assert_ptr_ne(s, context_str(c));
	context_free(c);
	/* Still ours after the context is gone. */
	ck_assert_str_eq(s, "u:r:t:s0");
	free(s);
}
END_TEST

START_TEST(test_context_to_str_null)
{
	errno = 0;
	ck_assert_ptr_null(context_to_str(NULL));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* context_free ------------------------------------------------------ */

START_TEST(test_context_free_null)
{
	context_free(NULL);
}
END_TEST

START_TEST(test_context_free_after_str)
{
	context_t c = must_new("u:r:t");

	ck_assert_ptr_nonnull(context_str(c));
	context_free(c); /* ASan reports a leak of the cached string */
}
END_TEST

/* getters ----------------------------------------------------------- */

START_TEST(test_context_get_null)
{
	errno = 0;
	ck_assert_ptr_null(context_user_get(NULL));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(context_role_get(NULL));
	ck_assert_ptr_null(context_type_get(NULL));
	ck_assert_ptr_null(context_range_get(NULL));
}
END_TEST

START_TEST(test_context_get_stable_across_other_sets)
{
	context_t c = must_new("u:r:t:s0");
	const char *t = context_type_get(c);

	ck_assert_int_eq(context_user_set(c, "zz"), 0);
	ck_assert_ptr_eq(context_type_get(c), t);
	ck_assert_str_eq(t, "t");
	context_free(c);
}
END_TEST

/* setters ----------------------------------------------------------- */

START_TEST(test_context_user_set_values)
{
	context_t c = must_new("u:r:t:s0");

	ck_assert_int_eq(context_user_set(c, "staff_u"), 0);
	ck_assert_str_eq(context_str(c), "staff_u:r:t:s0");
	ck_assert_int_eq(context_user_set(c, ""), 0);
	ck_assert_str_eq(context_str(c), ":r:t:s0");
	context_free(c);
}
END_TEST

START_TEST(test_context_user_set_invalid)
{
	context_t c = must_new("u:r:t:s0");
	const char *bad[] = {"a:b", "a b", "a\tb", "a\nb", "a\rb"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		ck_assert_int_eq(context_user_set(c, bad[i]), -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	errno = 0;
	ck_assert_int_eq(context_user_set(c, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(context_str(c), "u:r:t:s0");
	context_free(c);
}
END_TEST

START_TEST(test_context_role_set_values)
{
	context_t c = must_new("u:r:t:s0");

	ck_assert_int_eq(context_role_set(c, "object_r"), 0);
	ck_assert_str_eq(context_role_get(c), "object_r");
	ck_assert_int_eq(context_role_set(c, ""), 0);
	ck_assert_str_eq(context_str(c), "u::t:s0");
	errno = 0;
	ck_assert_int_eq(context_role_set(c, "a:b"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(context_role_set(c, "a b"), -1);
	ck_assert_str_eq(context_str(c), "u::t:s0");
	context_free(c);
}
END_TEST

START_TEST(test_context_type_set_values)
{
	context_t c = must_new("u:r:t");

	ck_assert_int_eq(context_type_set(c, "etc_t"), 0);
	ck_assert_str_eq(context_str(c), "u:r:etc_t");
	ck_assert_int_eq(context_type_set(c, ""), 0);
	ck_assert_str_eq(context_str(c), "u:r:");
	errno = 0;
	ck_assert_int_eq(context_type_set(c, "a\nb"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(context_type_set(c, "x:s0"), -1);
	ck_assert_int_eq(context_type_set(c, NULL), 0);
	ck_assert_str_eq(context_str(c), "u:r");
	context_free(c);
}
END_TEST

START_TEST(test_context_range_set_values)
{
	context_t c = must_new("u:r:t");

	ck_assert_int_eq(context_range_set(c, "s0-s1:c0.c3"), 0);
	ck_assert_str_eq(context_str(c), "u:r:t:s0-s1:c0.c3");
	ck_assert_int_eq(context_range_set(c, "a b"), 0);
	ck_assert_str_eq(context_range_get(c), "a b");
	ck_assert_int_eq(context_range_set(c, ""), 0);
	ck_assert_str_eq(context_str(c), "u:r:t:");
	errno = 0;
	ck_assert_int_eq(context_range_set(c, "s0\n"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(context_range_set(c, "s0\t"), -1);
	ck_assert_int_eq(context_range_set(c, NULL), 0);
	ck_assert_ptr_null(context_range_get(c));
	ck_assert_str_eq(context_str(c), "u:r:t");
	context_free(c);
}
END_TEST

START_TEST(test_context_set_null_context)
{
	errno = 0;
	ck_assert_int_eq(context_user_set(NULL, "x"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(context_role_set(NULL, "x"), -1);
	ck_assert_int_eq(context_type_set(NULL, "x"), -1);
	ck_assert_int_eq(context_range_set(NULL, "x"), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("context");
	TCase *tc;

	tc = tcase_create("context_new");
	tcase_add_test(tc, test_context_new_three_fields);
	tcase_add_test(tc, test_context_new_level);
	tcase_add_test(tc, test_context_new_range_with_colons);
	tcase_add_test(tc, test_context_new_too_few_colons);
	tcase_add_test(tc, test_context_new_null);
	tcase_add_test(tc, test_context_new_empty_last_type_is_absent);
	tcase_add_test(tc, test_context_new_empty_last_range_is_absent);
	tcase_add_test(tc, test_context_new_empty_inner_fields);
	tcase_add_test(tc, test_context_new_trailing_colons_in_range);
	tcase_add_test(tc, test_context_new_whitespace_in_names);
	tcase_add_test(tc, test_context_new_whitespace_in_range);
	tcase_add_test(tc, test_context_new_other_bytes_pass);
	tcase_add_test(tc, test_context_new_long);
	suite_add_tcase(s, tc);

	tc = tcase_create("context_str");
	tcase_add_test(tc, test_context_str_round_trip);
	tcase_add_test(tc, test_context_str_skips_absent);
	tcase_add_test(tc, test_context_str_same_buffer);
	tcase_add_test(tc, test_context_str_null);
	suite_add_tcase(s, tc);

	tc = tcase_create("context_to_str");
	tcase_add_test(tc, test_context_to_str_owned_copy);
	tcase_add_test(tc, test_context_to_str_null);
	suite_add_tcase(s, tc);

	tc = tcase_create("context_free");
	tcase_add_test(tc, test_context_free_null);
	tcase_add_test(tc, test_context_free_after_str);
	suite_add_tcase(s, tc);

	tc = tcase_create("context_get");
	tcase_add_test(tc, test_context_get_null);
	tcase_add_test(tc, test_context_get_stable_across_other_sets);
	suite_add_tcase(s, tc);

	tc = tcase_create("context_set");
	tcase_add_test(tc, test_context_user_set_values);
	tcase_add_test(tc, test_context_user_set_invalid);
	tcase_add_test(tc, test_context_role_set_values);
	tcase_add_test(tc, test_context_type_set_values);
	tcase_add_test(tc, test_context_range_set_values);
	tcase_add_test(tc, test_context_set_null_context);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
