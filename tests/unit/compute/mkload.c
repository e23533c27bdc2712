/* Suite compute_mkload: selinux_mkload_policy picks the policy file. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

void core_set_config_root(const char *dir);

static char logged[4096];

static int log_cb(int type, const char *fmt, ...)
{
	size_t n = strlen(logged);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(logged + n, sizeof(logged) - n, fmt, ap);
	va_end(ap);
	return 0;
}

/* A policy root etc/selinux/t (its binary policy: t/policy/policy.N), a
 * fake selinuxfs whose "load" is an empty file, and "policyvers". */
static void setup(void)
{
	union selinux_callback cb = { .func_log = log_cb };

	fx_setup();
	fx_config_root();
	fx_mkdir("etc/selinux/t/policy");
	ck_assert_int_eq(selinux_set_policy_root(fx_path("etc/selinux/t")), 0);
	fx_selinuxfs();
	fx_writes("selinuxfs/load", "");
	fx_writes("selinuxfs/policyvers", "33");
	logged[0] = '\0';
	selinux_set_callback(SELINUX_CB_LOG, cb);
}

static void teardown(void)
{
	core_set_config_root(NULL);
	fini_selinuxmnt();
	fx_teardown();
}

static char *loaded(size_t *len)
{
	return fx_read("selinuxfs/load", len);
}

START_TEST(test_newest_not_above_the_kernel)
{
	size_t len;
	char *got;

	fx_writes("etc/selinux/t/policy/policy.30", "thirty");
	fx_writes("etc/selinux/t/policy/policy.31", "thirty-one");
	fx_writes("etc/selinux/t/policy/policy.34", "too new");
	ck_assert_int_eq(selinux_mkload_policy(1), 0);
	got = loaded(&len);
	ck_assert_uint_eq(len, 10);
	ck_assert_str_eq(got, "thirty-one");
	free(got);
	ck_assert_str_eq(logged, "");
}
END_TEST

START_TEST(test_kernel_version_exactly)
{
	char *got;

	fx_writes("etc/selinux/t/policy/policy.33", "33");
	fx_writes("etc/selinux/t/policy/policy.32", "32");
	ck_assert_int_eq(selinux_mkload_policy(0), 0);
	got = loaded(NULL);
	ck_assert_str_eq(got, "33");
	free(got);
}
END_TEST

/* Only a file newer than the kernel: not converted (no libsepol), ENOENT,
 * nothing written to "load", and the message names the search. */
START_TEST(test_only_newer_file_is_enoent)
{
	size_t len;
	char *got, *want;

	fx_writes("etc/selinux/t/policy/policy.34", "too new");
	errno = 0;
	ck_assert_int_eq(selinux_mkload_policy(0), -1);
	ck_assert_int_eq(errno, ENOENT);
	got = loaded(&len);
	ck_assert_uint_eq(len, 0);
	free(got);
	ck_assert_int_gt(asprintf(&want,
		"SELinux:  Could not open policy file <= %s/policy/policy.33:  %s\n",
		fx_path("etc/selinux/t"), strerror(ENOENT)), 0);
	ck_assert_str_eq(logged, want);
	free(want);
}
END_TEST

START_TEST(test_no_policy_dir_is_enoent)
{
	fx_teardown();
	fx_setup();
	fx_config_root();
	fx_mkdir("etc/selinux/t");
	ck_assert_int_eq(selinux_set_policy_root(fx_path("etc/selinux/t")), 0);
	fx_selinuxfs();
	fx_writes("selinuxfs/load", "");
	fx_writes("selinuxfs/policyvers", "33");
	errno = 0;
	ck_assert_int_eq(selinux_mkload_policy(0), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* A kernel without "policyvers" supports version 15 and nothing newer. */
START_TEST(test_no_policyvers_means_15)
{
	char *got;

	ck_assert_int_eq(unlink(fx_path("selinuxfs/policyvers")), 0);
	fx_writes("etc/selinux/t/policy/policy.16", "sixteen");
	fx_writes("etc/selinux/t/policy/policy.15", "fifteen");
	ck_assert_int_eq(selinux_mkload_policy(0), 0);
	got = loaded(NULL);
	ck_assert_str_eq(got, "fifteen");
	free(got);
}
END_TEST

/* An empty policy file is handed to the kernel as it is (it refuses it). */
START_TEST(test_empty_file_is_written)
{
	size_t len;
	char *got;

	fx_writes("etc/selinux/t/policy/policy.31", "");
	fx_writes("selinuxfs/load", "old");
	ck_assert_int_eq(selinux_mkload_policy(0), 0);
	got = loaded(&len);
	ck_assert_uint_eq(len, 3); /* a zero-length write, nothing replaced */
	free(got);
}
END_TEST

/* A policy file that does not open for another reason than ENOENT stops
 * the search: its error, not an older file. */
START_TEST(test_unopenable_newest_stops_the_search)
{
	fx_writes("etc/selinux/t/policy/policy.32", "32");
	ck_assert_int_eq(symlink("policy.33",
				 fx_path("etc/selinux/t/policy/policy.33")), 0);
	errno = 0;
	ck_assert_int_eq(selinux_mkload_policy(0), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_ptr_nonnull(strstr(logged, "Could not open policy file"));
	ck_assert_ptr_nonnull(strstr(logged, strerror(ELOOP)));
}
END_TEST

/* No selinuxfs: no kernel version to start from. */
START_TEST(test_no_selinuxfs)
{
	fx_writes("etc/selinux/t/policy/policy.31", "x");
	fini_selinuxmnt();
	errno = 0;
	ck_assert_int_eq(selinux_mkload_policy(0), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* A "load" the kernel refuses: its errno, and the library says so. */
START_TEST(test_load_refused)
{
	fx_writes("etc/selinux/t/policy/policy.31", "x");
	ck_assert_int_eq(unlink(fx_path("selinuxfs/load")), 0);
	fx_mkdir("selinuxfs/load");
	errno = 0;
	ck_assert_int_eq(selinux_mkload_policy(0), -1);
	ck_assert_int_eq(errno, EISDIR);
	ck_assert_str_eq(logged, "SELinux:  security_load_policy failed\n");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compute_mkload");
	TCase *tc = tcase_create("selinux_mkload_policy");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_newest_not_above_the_kernel);
	tcase_add_test(tc, test_kernel_version_exactly);
	tcase_add_test(tc, test_only_newer_file_is_enoent);
	tcase_add_test(tc, test_no_policy_dir_is_enoent);
	tcase_add_test(tc, test_no_policyvers_means_15);
	tcase_add_test(tc, test_empty_file_is_written);
	tcase_add_test(tc, test_unopenable_newest_stops_the_search);
	tcase_add_test(tc, test_no_selinuxfs);
	tcase_add_test(tc, test_load_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
