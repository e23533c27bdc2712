/* Suite label_filespec: the inode -> spec table of setfiles
 * (matchpathcon_filespec_*) and selinux_file_context_cmp. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* matchpathcon_filespec_* are deprecated in the header. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static char logged[4096];
static int logged_type;

static int log_cb(int type, const char *fmt, ...)
{
	size_t n = strlen(logged);
	va_list ap;

	logged_type = type;
	va_start(ap, fmt);
	vsnprintf(logged + n, sizeof(logged) - n, fmt, ap);
	va_end(ap);
	return 0;
}

static void setup(void)
{
	union selinux_callback cb = { .func_log = log_cb };

	logged[0] = '\0';
	logged_type = -1;
	selinux_set_callback(SELINUX_CB_LOG, cb);
}

static void teardown(void)
{
	matchpathcon_filespec_destroy();
}

START_TEST(test_add_returns_the_spec)
{
	ck_assert_int_eq(matchpathcon_filespec_add(10, 3, "/a"), 3);
	ck_assert_int_eq(matchpathcon_filespec_add(11, 0, "/b"), 0);
	/* The same inode by the same spec again: no conflict. */
	ck_assert_int_eq(matchpathcon_filespec_add(10, 3, "/a2"), 3);
	ck_assert_str_eq(logged, "");
}
END_TEST

/* Two links of one inode by different specs: the later spec (the higher
 * index) wins, whichever link comes first, with a warning. */
START_TEST(test_conflict_keeps_the_later_spec)
{
	ck_assert_int_eq(matchpathcon_filespec_add(7, 5, "/x"), 5);
	ck_assert_int_eq(matchpathcon_filespec_add(7, 2, "/y"), 5);
	ck_assert_int_eq(logged_type, SELINUX_WARNING);
	ck_assert_str_eq(logged,
		"filespec_add: conflicting specifications for /y and /x, using /x.\n");
	logged[0] = '\0';
	ck_assert_int_eq(matchpathcon_filespec_add(7, 9, "/z"), 9);
	ck_assert_str_eq(logged,
		"filespec_add: conflicting specifications for /z and /x, using /z.\n");
	/* /z is now the inode's file and 9 its spec. */
	logged[0] = '\0';
	ck_assert_int_eq(matchpathcon_filespec_add(7, 6, "/w"), 9);
	ck_assert_str_eq(logged,
		"filespec_add: conflicting specifications for /w and /z, using /z.\n");
}
END_TEST

/* Many inodes: the table grows and keeps every one (a second add by
 * another spec is a conflict, which only a kept inode can be). */
START_TEST(test_add_many_inodes)
{
	char file[32];

	for (ino_t i = 0; i < 200000; i++) {
		snprintf(file, sizeof(file), "/f%lu", (unsigned long)i);
		ck_assert_int_eq(matchpathcon_filespec_add(i * 7919, 1, file),
				 1);
	}
	ck_assert_str_eq(logged, "");
	for (ino_t i = 0; i < 200000; i += 1000) {
		logged[0] = '\0';
		ck_assert_int_eq(matchpathcon_filespec_add(i * 7919, 0, "/g"),
				 1);
		snprintf(file, sizeof(file), "/f%lu", (unsigned long)i);
		ck_assert_ptr_nonnull(strstr(logged, file));
	}
	logged[0] = '\0';
	matchpathcon_filespec_eval();
	ck_assert_ptr_nonnull(strstr(logged, "stats: 200000 elements"));
}
END_TEST

START_TEST(test_null_file_is_einval)
{
	errno = 0;
	ck_assert_int_eq(matchpathcon_filespec_add(1, 1, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* Inodes 65536 apart share a bucket: the statistics count the chain. */
START_TEST(test_eval_statistics)
{
	ck_assert_int_eq(matchpathcon_filespec_add(1, 0, "/1"), 0);
	ck_assert_int_eq(matchpathcon_filespec_add(1 + 65536, 0, "/2"), 0);
	ck_assert_int_eq(matchpathcon_filespec_add(1 + 2 * 65536, 1, "/3"), 1);
	ck_assert_int_eq(matchpathcon_filespec_add(2, 0, "/4"), 0);
	matchpathcon_filespec_eval();
	ck_assert_int_eq(logged_type, SELINUX_INFO);
	ck_assert_str_eq(logged,
		"matchpathcon_filespec_eval:  hash table stats: 4 elements, 2/65536 buckets used, longest chain length 3\n");
}
END_TEST

START_TEST(test_eval_empty_and_after_destroy)
{
	matchpathcon_filespec_eval();
	ck_assert_str_eq(logged,
		"matchpathcon_filespec_eval:  hash table stats: 0 elements, 0/65536 buckets used, longest chain length 0\n");
	ck_assert_int_eq(matchpathcon_filespec_add(5, 1, "/5"), 1);
	matchpathcon_filespec_destroy();
	matchpathcon_filespec_destroy(); /* twice is harmless */
	/* A new table: inode 5 by another spec is no conflict. */
	logged[0] = '\0';
	ck_assert_int_eq(matchpathcon_filespec_add(5, 0, "/5"), 0);
	ck_assert_str_eq(logged, "");
}
END_TEST

/* selinux_file_context_cmp compares from the first ':' on (the user is
 * ignored); a missing context sorts first. */
START_TEST(test_file_context_cmp)
{
	ck_assert_int_eq(selinux_file_context_cmp(NULL, NULL), 0);
	ck_assert_int_lt(selinux_file_context_cmp(NULL, "u:r:t:s0"), 0);
	ck_assert_int_gt(selinux_file_context_cmp("u:r:t:s0", NULL), 0);
	ck_assert_int_eq(selinux_file_context_cmp("system_u:object_r:t:s0",
						  "user_u:object_r:t:s0"), 0);
	ck_assert_int_lt(selinux_file_context_cmp("u:object_r:a_t:s0",
						  "u:object_r:b_t:s0"), 0);
	ck_assert_int_gt(selinux_file_context_cmp("u:object_r:b_t:s0",
						  "x:object_r:a_t:s0"), 0);
	/* Without a ':' there is nothing to compare. */
	ck_assert_int_eq(selinux_file_context_cmp("abc", "xyz"), 0);
	ck_assert_int_lt(selinux_file_context_cmp("abc", "u:r:t"), 0);
	ck_assert_int_gt(selinux_file_context_cmp("u:r:t", "abc"), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_filespec");
	TCase *tc = tcase_create("matchpathcon_filespec");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_add_returns_the_spec);
	tcase_add_test(tc, test_conflict_keeps_the_later_spec);
	tcase_add_test(tc, test_add_many_inodes);
	tcase_add_test(tc, test_null_file_is_einval);
	tcase_add_test(tc, test_eval_statistics);
	tcase_add_test(tc, test_eval_empty_and_after_destroy);
	suite_add_tcase(s, tc);

	tc = tcase_create("selinux_file_context_cmp");
	tcase_add_test(tc, test_file_context_cmp);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
