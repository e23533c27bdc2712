/* Suite compute_names: class/ lookups, the string functions, mapping. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

static void setup(void)
{
	fx_setup();
	fx_selinuxfs();
	fx_writes("selinuxfs/deny_unknown", "1");
	fx_writes("selinuxfs/reject_unknown", "0");
	fx_writes("selinuxfs/class/file/index", "6");
	fx_writes("selinuxfs/class/file/perms/read", "1");
	fx_writes("selinuxfs/class/file/perms/write", "2");
	fx_writes("selinuxfs/class/file/perms/open", "3");
	fx_writes("selinuxfs/class/dir/index", "7");
	fx_writes("selinuxfs/class/dir/perms/search", "1");
}

static void teardown(void)
{
	selinux_flush_class_cache();
	fini_selinuxmnt();
	fx_teardown();
}

START_TEST(test_string_to_security_class_known)
{
	ck_assert_uint_eq(string_to_security_class("file"), 6);
	ck_assert_uint_eq(string_to_security_class("dir"), 7);
}
END_TEST

START_TEST(test_string_to_security_class_unknown)
{
	errno = 0;
	ck_assert_uint_eq(string_to_security_class("nope"), 0);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_uint_eq(string_to_security_class(NULL), 0);
	ck_assert_int_eq(errno, EINVAL);
	/* no walking out of class/ */
	errno = 0;
	ck_assert_uint_eq(string_to_security_class("../class/file"), 0);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_string_to_security_class_bad_perm_value)
{
	fx_writes("selinuxfs/class/dir/perms/x", "33");
	errno = 0;
	ck_assert_uint_eq(string_to_security_class("dir"), 0);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_class_to_string_after_lookup)
{
	/* only discovered classes are known, as in the reference */
	ck_assert_ptr_null(security_class_to_string(6));
	ck_assert_uint_eq(string_to_security_class("file"), 6);
	ck_assert_str_eq(security_class_to_string(6), "file");
	selinux_flush_class_cache();
	ck_assert_ptr_null(security_class_to_string(6));
}
END_TEST

START_TEST(test_string_to_av_perm_values)
{
	ck_assert_uint_eq(string_to_security_class("file"), 6);
	ck_assert_uint_eq(string_to_av_perm(6, "read"), 0x1);
	ck_assert_uint_eq(string_to_av_perm(6, "open"), 0x4);
	errno = 0;
	ck_assert_uint_eq(string_to_av_perm(6, "nope"), 0);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_string_to_av_perm_stops_at_gap)
{
	fx_writes("selinuxfs/class/file/perms/write", "5");
	ck_assert_uint_eq(string_to_security_class("file"), 6);
	errno = 0;
	ck_assert_uint_eq(string_to_av_perm(6, "write"), 0);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_av_perm_to_string_lowest_bit)
{
	ck_assert_uint_eq(string_to_security_class("file"), 6);
	ck_assert_str_eq(security_av_perm_to_string(6, 0x2), "write");
	ck_assert_str_eq(security_av_perm_to_string(6, 0x6), "write");
	ck_assert_ptr_null(security_av_perm_to_string(6, 0));
	ck_assert_ptr_null(security_av_perm_to_string(6, 0x8));
}
END_TEST

START_TEST(test_security_av_string_forms)
{
	char *s = NULL;

	ck_assert_uint_eq(string_to_security_class("file"), 6);
	ck_assert_int_eq(security_av_string(6, 0x5, &s), 0);
	ck_assert_str_eq(s, "{ read open }");
	free(s);
	ck_assert_int_eq(security_av_string(6, 0, &s), 0);
	ck_assert_str_eq(s, "null");
	free(s);
	/* unnamed bits are left out */
	ck_assert_int_eq(security_av_string(6, 0x11, &s), 0);
	ck_assert_str_eq(s, "{ read }");
	free(s);
}
END_TEST

START_TEST(test_mode_to_security_class_kinds)
{
	ck_assert_uint_eq(mode_to_security_class(S_IFREG | 0644), 6);
	ck_assert_uint_eq(mode_to_security_class(S_IFDIR | 0755), 7);
	errno = 0;
	ck_assert_uint_eq(mode_to_security_class(S_IFIFO), 0);
	ck_assert_int_eq(errno, EINVAL); /* no fifo_file class here */
	errno = 0;
	ck_assert_uint_eq(mode_to_security_class(0), 0);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selinux_set_mapping_numbers)
{
	struct security_class_mapping map[] = {
		{ "dir", { "search", NULL } },
		{ "file", { "open", "read", NULL } },
		{ NULL, { NULL } },
	};

	ck_assert_int_eq(selinux_set_mapping(map), 0);
	ck_assert_uint_eq(string_to_security_class("file"), 2);
	ck_assert_uint_eq(string_to_security_class("dir"), 1);
	ck_assert_uint_eq(string_to_av_perm(2, "read"), 0x2);
	ck_assert_uint_eq(string_to_av_perm(2, "open"), 0x1);
	ck_assert_str_eq(security_class_to_string(2), "file");
	ck_assert_str_eq(security_av_perm_to_string(2, 0x1), "open");
	/* write is not in the caller's mapping of file */
	errno = 0;
	ck_assert_uint_eq(string_to_av_perm(2, "write"), 0);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selinux_set_mapping_reject_unknown)
{
	struct security_class_mapping map[] = {
		{ "nope", { "x", NULL } },
		{ NULL, { NULL } },
	};

	fx_writes("selinuxfs/reject_unknown", "1");
	errno = 0;
	ck_assert_int_eq(selinux_set_mapping(map), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(selinux_set_mapping(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compute_names");
	struct {
		const char *name;
		const TTest *t;
	} tests[] = {
		{ "string_to_security_class", test_string_to_security_class_known },
		{ "string_to_security_class", test_string_to_security_class_unknown },
		{ "string_to_security_class", test_string_to_security_class_bad_perm_value },
		{ "security_class_to_string", test_security_class_to_string_after_lookup },
		{ "string_to_av_perm", test_string_to_av_perm_values },
		{ "string_to_av_perm", test_string_to_av_perm_stops_at_gap },
		{ "security_av_perm_to_string", test_security_av_perm_to_string_lowest_bit },
		{ "security_av_string", test_security_av_string_forms },
		{ "mode_to_security_class", test_mode_to_security_class_kinds },
		{ "selinux_set_mapping", test_selinux_set_mapping_numbers },
		{ "selinux_set_mapping", test_selinux_set_mapping_reject_unknown },
	};

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		TCase *tc = tcase_create(tests[i].name);

		tcase_add_checked_fixture(tc, setup, teardown);
		tcase_add_test(tc, tests[i].t);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(void)
{
	return fx_run(suite());
}
