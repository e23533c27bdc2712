/*
 * Suite label_verify: selinux_file_context_verify and
 * selinux_lsetfilecon_default, a file's label against file_contexts
 * through matchpathcon's handle.  Files under /dev/shm: tmpfs keeps
 * security.selinux without an LSM.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* matchpathcon_fini is deprecated in the header. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

void core_set_config_root(const char *dir);

#define NAME "security.selinux"

static void label(const char *rel, const char *con)
{
	ck_assert_int_eq(lsetxattr(fx_path(rel), NAME, con, strlen(con) + 1,
				   0), 0);
}

/* The label of fx_root/rel, or "" without one. */
static const char *label_of(const char *rel)
{
	static char buf[256];
	ssize_t n = lgetxattr(fx_path(rel), NAME, buf, sizeof(buf) - 1);

	if (n < 0) {
		ck_assert_int_eq(errno, ENODATA);
		n = 0;
	}
	buf[n] = '\0';
	return buf;
}

static void setup(void)
{
	char *fc;

	fx_setup_in("/dev/shm");
	fx_config_root();
	fx_writes("etc/selinux/config", "SELINUXTYPE=t\n");
	ck_assert_int_gt(asprintf(&fc,
		"%s/a -- system_u:object_r:a_t:s0\n"
		"%s/d(/.*)? system_u:object_r:d_t:s0\n"
		"%s/d/none <<none>>\n",
		fx_root, fx_root, fx_root), 0);
	fx_writes("etc/selinux/t/contexts/files/file_contexts", fc);
	free(fc);
	fx_writes("a", "");
	fx_mkdir("d/sub");
	fx_writes("d/none", "");
	fx_writes("other", "");
}

static void teardown(void)
{
	matchpathcon_fini();
	core_set_config_root(NULL);
	fx_teardown();
}

/* selinux_file_context_verify ------------------------------------------- */

/* The label file_contexts gives: 1, whatever the user part says. */
START_TEST(test_verify_matches)
{
	label("a", "system_u:object_r:a_t:s0");
	ck_assert_int_eq(selinux_file_context_verify(fx_path("a"), S_IFREG),
			 1);
	label("a", "someone_u:object_r:a_t:s0");
	ck_assert_int_eq(selinux_file_context_verify(fx_path("a"), S_IFREG),
			 1);
	label("d/sub", "system_u:object_r:d_t:s0");
	ck_assert_int_eq(selinux_file_context_verify(fx_path("d/sub"),
						     S_IFDIR),
			 1);
}
END_TEST

START_TEST(test_verify_differs)
{
	label("a", "system_u:object_r:d_t:s0");
	errno = 0;
	ck_assert_int_eq(selinux_file_context_verify(fx_path("a"), S_IFREG),
			 0);
	ck_assert_int_eq(errno, 0);
	label("a", "system_u:object_r:a_t:s1");
	ck_assert_int_eq(selinux_file_context_verify(fx_path("a"), 0), 0);
}
END_TEST

/* Nothing in file_contexts for it (or <<none>>): no verdict, 0. */
START_TEST(test_verify_no_spec_is_0)
{
	label("other", "system_u:object_r:a_t:s0");
	ck_assert_int_eq(selinux_file_context_verify(fx_path("other"),
						     S_IFREG),
			 0);
	label("d/none", "system_u:object_r:d_t:s0");
	ck_assert_int_eq(selinux_file_context_verify(fx_path("d/none"),
						     S_IFREG),
			 0);
}
END_TEST

/* No label to read: -1 with getxattr's errno. */
START_TEST(test_verify_unlabelled_and_missing)
{
	errno = 0;
	ck_assert_int_eq(selinux_file_context_verify(fx_path("a"), S_IFREG),
			 -1);
	ck_assert_int_eq(errno, ENODATA);
	errno = 0;
	ck_assert_int_eq(selinux_file_context_verify(fx_path("gone"), S_IFREG),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_int_eq(selinux_file_context_verify(NULL, S_IFREG), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* A labelled file but no file_contexts to compare with: -1, ENOENT. */
START_TEST(test_verify_no_file_contexts)
{
	label("a", "system_u:object_r:a_t:s0");
	ck_assert_int_eq(
		unlink(fx_path("etc/selinux/t/contexts/files/file_contexts")),
		0);
	errno = 0;
	ck_assert_int_eq(selinux_file_context_verify(fx_path("a"), S_IFREG),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* selinux_lsetfilecon_default ------------------------------------------- */

START_TEST(test_lsetfilecon_default_sets_the_spec)
{
	label("a", "system_u:object_r:wrong_t:s0");
	ck_assert_int_eq(selinux_lsetfilecon_default(fx_path("a")), 0);
	ck_assert_str_eq(label_of("a"), "system_u:object_r:a_t:s0");
	ck_assert_int_eq(selinux_lsetfilecon_default(fx_path("d/sub")), 0);
	ck_assert_str_eq(label_of("d/sub"), "system_u:object_r:d_t:s0");
}
END_TEST

/* "--" is for regular files only: a directory named a gets nothing. */
START_TEST(test_lsetfilecon_default_respects_the_file_type)
{
	ck_assert_int_eq(unlink(fx_path("a")), 0);
	fx_mkdir("a");
	ck_assert_int_eq(selinux_lsetfilecon_default(fx_path("a")), 0);
	ck_assert_str_eq(label_of("a"), "");
}
END_TEST

/* No spec, or <<none>>: the label is left as it is, and 0. */
START_TEST(test_lsetfilecon_default_no_spec_leaves_it)
{
	label("d/none", "system_u:object_r:kept_t:s0");
	ck_assert_int_eq(selinux_lsetfilecon_default(fx_path("d/none")), 0);
	ck_assert_str_eq(label_of("d/none"), "system_u:object_r:kept_t:s0");
	ck_assert_int_eq(selinux_lsetfilecon_default(fx_path("other")), 0);
	ck_assert_str_eq(label_of("other"), "");
}
END_TEST

START_TEST(test_lsetfilecon_default_errors)
{
	errno = 0;
	ck_assert_int_eq(selinux_lsetfilecon_default(fx_path("gone")), -1);
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_int_eq(selinux_lsetfilecon_default(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(
		unlink(fx_path("etc/selinux/t/contexts/files/file_contexts")),
		0);
	errno = 0;
	ck_assert_int_eq(selinux_lsetfilecon_default(fx_path("a")), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(label_of("a"), "");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_verify");
	TCase *tc = tcase_create("selinux_file_context_verify");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_verify_matches);
	tcase_add_test(tc, test_verify_differs);
	tcase_add_test(tc, test_verify_no_spec_is_0);
	tcase_add_test(tc, test_verify_unlabelled_and_missing);
	tcase_add_test(tc, test_verify_no_file_contexts);
	suite_add_tcase(s, tc);

	tc = tcase_create("selinux_lsetfilecon_default");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lsetfilecon_default_sets_the_spec);
	tcase_add_test(tc, test_lsetfilecon_default_respects_the_file_type);
	tcase_add_test(tc, test_lsetfilecon_default_no_spec_leaves_it);
	tcase_add_test(tc, test_lsetfilecon_default_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
