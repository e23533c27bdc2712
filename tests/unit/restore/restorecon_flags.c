/*
 * Suite restore_flags: the selinux_restorecon flags the reference
 * added after 3.4 (SET_USER_ROLE, COUNT_RELABELED, SKIP_MULTILINK), on
 * real security.selinux attributes (root sets them on tmpfs even on a
 * kernel without SELinux) and a file_contexts of the test's own.  Built
 * on the main library and on those built for 3.8 and 3.11
 * (tests/unit/meson.build): what is expected follows the release the
 * library replaces (core_compat) - 3.4 and 3.8.1 ignore SET_USER_ROLE
 * and SKIP_MULTILINK as any bit they do not know (measured with Debian's
 * libraries; 3.11 honours them).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

#include "fixture.h"

void core_set_config_root(const char *dir);
/* core/compat.c: the release the library replaces, 304, 308 or 311 */
extern const unsigned core_compat;
#define SINCE_311 (core_compat >= 311)

#define NAME "security.selinux"
#define OLD "system_u:object_r:old_t:s0"
/* Every walk: no /proc/mounts (the host's), no digests. */
#define BASE (SELINUX_RESTORECON_IGNORE_MOUNTS | SELINUX_RESTORECON_SKIP_DIGEST)

static struct selabel_handle *hnd;
static char logbuf[8192];

static int log_cb(int type, const char *fmt, ...)
{
	size_t n = strlen(logbuf);
	va_list ap;

	(void)type;
	va_start(ap, fmt);
	vsnprintf(logbuf + n, sizeof(logbuf) - n, fmt, ap);
	va_end(ap);
	return 0;
}

/* tmpfs: the xattrs live in memory, whatever the kernel's LSMs. */
static void setup(void)
{
	fx_setup_in("/dev/shm");
	/* A policy tree of our own: customizable_types holds cust_t. */
	fx_config_root();
	fx_writes("etc/selinux/config", "SELINUXTYPE=t\n");
	fx_writes("etc/selinux/t/contexts/customizable_types", "cust_t\n");
	logbuf[0] = '\0';
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){.func_log = log_cb});
}

static void teardown(void)
{
	if (hnd)
		selabel_close(hnd);
	hnd = NULL;
	core_set_config_root(NULL);
	fx_teardown();
}

static void label_file(const char *rel, const char *con)
{
	ck_assert_int_eq(lsetxattr(fx_path(rel), NAME, con, strlen(con) + 1, 0),
			 0);
}

/* The label of fx_root/rel, in a static buffer. */
static const char *label_of(const char *rel)
{
	static char buf[256];
	ssize_t n = lgetxattr(fx_path(rel), NAME, buf, sizeof(buf) - 1);

	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	return buf;
}

/* Install a file_contexts of lines, each path in them below fx_root. */
static void specs(const char *const *lines)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s", fx_path("fc"));
	f = fopen(path, "we");
	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; lines[i]; i++)
		fprintf(f, "%s%s\n", fx_root, lines[i]);
	fclose(f);
	hnd = selabel_open(SELABEL_CTX_FILE,
			   (struct selinux_opt[]){{SELABEL_OPT_PATH, path}}, 1);
	ck_assert_ptr_nonnull(hnd);
	selinux_restorecon_set_sehandle(hnd);
}

static int restore(const char *rel, unsigned int flags)
{
	return selinux_restorecon(fx_path(rel), BASE | flags);
}

/* SET_USER_ROLE ---------------------------------------------------------- */

static void user_role_tree(void)
{
	static const char *const l[] = {"/f\t--\tsystem_u:object_r:new_t:s0",
					"/same\t--\tsystem_u:object_r:new_t:s0",
					"/cust\t--\tsystem_u:object_r:new_t:s0",
					NULL};

	fx_writes("f", "");
	fx_writes("same", "");
	fx_writes("cust", "");
	/* The range s0:c1 is the file's own: no flag but SET_SPECFILE_CTX
	 * takes it away. */
	label_file("f", "staff_u:staff_r:old_t:s0:c1");
	label_file("same", "staff_u:staff_r:new_t:s0:c1");
	label_file("cust", "staff_u:staff_r:cust_t:s0:c1");
	specs(l);
}

START_TEST(test_selinux_restorecon_type_only_by_default)
{
	user_role_tree();
	ck_assert_int_eq(restore("f", 0), 0);
	ck_assert_str_eq(label_of("f"), "staff_u:staff_r:new_t:s0:c1");
	ck_assert_int_eq(restore("same", 0), 0);
	ck_assert_str_eq(label_of("same"), "staff_u:staff_r:new_t:s0:c1");
}
END_TEST

START_TEST(test_selinux_restorecon_set_user_role_keeps_range)
{
	user_role_tree();
	ck_assert_int_eq(restore("f", SELINUX_RESTORECON_SET_USER_ROLE), 0);
	ck_assert_str_eq(label_of("f"), SINCE_311
					    ? "system_u:object_r:new_t:s0:c1"
					    : "staff_u:staff_r:new_t:s0:c1");
}
END_TEST

START_TEST(test_selinux_restorecon_set_user_role_same_type)
{
	/* Only user and role differ: still a change to make. */
	user_role_tree();
	ck_assert_int_eq(
	    restore("same", SELINUX_RESTORECON_SET_USER_ROLE |
				SELINUX_RESTORECON_COUNT_RELABELED),
	    0);
	ck_assert_str_eq(label_of("same"),
			 SINCE_311 ? "system_u:object_r:new_t:s0:c1"
				   : "staff_u:staff_r:new_t:s0:c1");
	ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(),
			  SINCE_311 ? 1 : 0);
}
END_TEST

START_TEST(test_selinux_restorecon_set_user_role_not_customizable)
{
	user_role_tree();
	ck_assert_int_eq(restore("cust", SELINUX_RESTORECON_SET_USER_ROLE), 0);
	ck_assert_str_eq(label_of("cust"), "staff_u:staff_r:cust_t:s0:c1");
}
END_TEST

START_TEST(test_selinux_restorecon_set_user_role_with_specfile_ctx)
{
	/* SET_SPECFILE_CTX sets the whole spec context, range included. */
	user_role_tree();
	ck_assert_int_eq(restore("f", SELINUX_RESTORECON_SET_USER_ROLE |
					  SELINUX_RESTORECON_SET_SPECFILE_CTX),
			 0);
	ck_assert_str_eq(label_of("f"), "system_u:object_r:new_t:s0");
	ck_assert_int_eq(
	    restore("cust", SELINUX_RESTORECON_SET_USER_ROLE |
				SELINUX_RESTORECON_SET_SPECFILE_CTX),
	    0);
	ck_assert_str_eq(label_of("cust"), "system_u:object_r:new_t:s0");
}
END_TEST

/* COUNT_RELABELED -------------------------------------------------------- */

/* d (right), d/a (wrong), d/b (right), d/c (unlabelled), d/e/g (wrong). */
static void count_tree(void)
{
	static const char *const l[] = {"/d(/.*)?\tsystem_u:object_r:d_t:s0",
					NULL};

	fx_writes("d/a", "");
	fx_writes("d/b", "");
	fx_writes("d/c", "");
	fx_writes("d/e/g", "");
	label_file("d", "system_u:object_r:d_t:s0");
	label_file("d/a", OLD);
	label_file("d/b", "system_u:object_r:d_t:s0");
	label_file("d/e", "system_u:object_r:d_t:s0");
	label_file("d/e/g", OLD);
	specs(l);
}

START_TEST(test_selinux_restorecon_get_relabeled_files_counts)
{
	count_tree();
	ck_assert_int_eq(restore("d", SELINUX_RESTORECON_RECURSE |
					  SELINUX_RESTORECON_COUNT_RELABELED),
			 0);
	ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(), 3);
	ck_assert_str_eq(label_of("d/c"), "system_u:object_r:d_t:s0");
	/* Nothing left to do: the next walk counts 0. */
	ck_assert_int_eq(restore("d", SELINUX_RESTORECON_RECURSE |
					  SELINUX_RESTORECON_COUNT_RELABELED),
			 0);
	ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(), 0);
}
END_TEST

START_TEST(test_selinux_restorecon_get_relabeled_files_nochange)
{
	/* NOCHANGE relabels nothing, and 3.11 counts nothing then (measured:
	 * 0 after a walk that logged three "Would relabel"). */
	count_tree();
	ck_assert_int_eq(restore("d", SELINUX_RESTORECON_RECURSE |
					  SELINUX_RESTORECON_NOCHANGE |
					  SELINUX_RESTORECON_COUNT_RELABELED),
			 0);
	ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(), 0);
	ck_assert_str_eq(label_of("d/a"), OLD);
}
END_TEST

START_TEST(test_selinux_restorecon_get_relabeled_files_without_flag)
{
	count_tree();
	ck_assert_int_eq(restore("d", SELINUX_RESTORECON_RECURSE |
					  SELINUX_RESTORECON_COUNT_RELABELED),
			 0);
	ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(), 3);
	/* A walk without the flag relabels but counts nothing, and resets
	 * the count of the walk before. */
	label_file("d/a", OLD);
	ck_assert_int_eq(restore("d", SELINUX_RESTORECON_RECURSE), 0);
	ck_assert_str_eq(label_of("d/a"), "system_u:object_r:d_t:s0");
	ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(), 0);
}
END_TEST

START_TEST(test_selinux_restorecon_get_relabeled_files_parallel)
{
	count_tree();
	ck_assert_int_eq(
	    selinux_restorecon_parallel(fx_path("d"),
					BASE | SELINUX_RESTORECON_RECURSE |
					    SELINUX_RESTORECON_COUNT_RELABELED,
					4),
	    0);
	ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(), 3);
}
END_TEST

/* SKIP_MULTILINK --------------------------------------------------------- */

/* m/one (1 link), m/h1 = m/h2 (2 links), m/sub (a directory: 2 links). */
static void multilink_tree(void)
{
	static const char *const l[] = {"/m(/.*)?\tsystem_u:object_r:m_t:s0",
					NULL};

	fx_writes("m/one", "");
	fx_writes("m/h1", "");
	fx_mkdir("m/sub");
	ck_assert_int_eq(link(fx_path("m/h1"), fx_path("m/h2")), 0);
	label_file("m", OLD);
	label_file("m/one", OLD);
	label_file("m/h1", OLD);
	label_file("m/sub", OLD);
	specs(l);
}

START_TEST(test_selinux_restorecon_skip_multilink_walk)
{
	multilink_tree();
	ck_assert_int_eq(restore("m", SELINUX_RESTORECON_RECURSE |
					  SELINUX_RESTORECON_SKIP_MULTILINK |
					  SELINUX_RESTORECON_COUNT_RELABELED),
			 0);
	ck_assert_str_eq(label_of("m"), "system_u:object_r:m_t:s0");
	ck_assert_str_eq(label_of("m/one"), "system_u:object_r:m_t:s0");
	ck_assert_str_eq(label_of("m/sub"), "system_u:object_r:m_t:s0");
	if (!SINCE_311) {
		/* the flag ignored: h1 and h2 relabelled (one inode) */
		ck_assert_str_eq(label_of("m/h1"), "system_u:object_r:m_t:s0");
		ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(), 4);
		ck_assert_str_eq(logbuf, "");
		return;
	}
	ck_assert_str_eq(label_of("m/h1"), OLD);
	ck_assert_str_eq(label_of("m/h2"), OLD);
	ck_assert_uint_eq(selinux_restorecon_get_relabeled_files(), 3);
	/* Each skip is logged, VERBOSE or not (3.11, measured), in the
	 * walk's order. */
	char h1[4200], h2[4200];

	snprintf(h1, sizeof(h1), "Skipping %s/m/h1: file has multiple links\n",
		 fx_root);
	snprintf(h2, sizeof(h2), "Skipping %s/m/h2: file has multiple links\n",
		 fx_root);
	ck_assert_ptr_nonnull(strstr(logbuf, h1));
	ck_assert_ptr_nonnull(strstr(logbuf, h2));
	ck_assert_uint_eq(strlen(logbuf), strlen(h1) + strlen(h2));
}
END_TEST

START_TEST(test_selinux_restorecon_skip_multilink_single_path)
{
	multilink_tree();
	ck_assert_int_eq(restore("m/h2", SELINUX_RESTORECON_SKIP_MULTILINK), 0);
	ck_assert_str_eq(label_of("m/h1"),
			 SINCE_311 ? OLD : "system_u:object_r:m_t:s0");
	ck_assert_int_eq(restore("m/sub", SELINUX_RESTORECON_SKIP_MULTILINK),
			 0);
	ck_assert_str_eq(label_of("m/sub"), "system_u:object_r:m_t:s0");
}
END_TEST

START_TEST(test_selinux_restorecon_skip_multilink_logged)
{
	char want[4200];

	multilink_tree();
	ck_assert_int_eq(restore("m/h1", SELINUX_RESTORECON_SKIP_MULTILINK |
					     SELINUX_RESTORECON_VERBOSE),
			 0);
	if (SINCE_311)
		snprintf(want, sizeof(want),
			 "Skipping %s/m/h1: file has multiple links\n",
			 fx_root);
	else
		snprintf(want, sizeof(want),
			 "Relabeled %s/m/h1 from %s to "
			 "system_u:object_r:m_t:s0\n",
			 fx_root, OLD);
	ck_assert_str_eq(logbuf, want);
	ck_assert_str_eq(label_of("m/h1"),
			 SINCE_311 ? OLD : "system_u:object_r:m_t:s0");
	/* without VERBOSE: the same line from 3.11, nothing before */
	label_file("m/h1", OLD);
	logbuf[0] = '\0';
	ck_assert_int_eq(restore("m/h1", SELINUX_RESTORECON_SKIP_MULTILINK), 0);
	ck_assert_str_eq(logbuf, SINCE_311 ? want : "");
}
END_TEST

START_TEST(test_selinux_restorecon_multilink_relabelled_by_default)
{
	multilink_tree();
	ck_assert_int_eq(restore("m", SELINUX_RESTORECON_RECURSE), 0);
	ck_assert_str_eq(label_of("m/h1"), "system_u:object_r:m_t:s0");
	ck_assert_str_eq(label_of("m/h2"), "system_u:object_r:m_t:s0");
}
END_TEST

/* The messages that follow the release ---------------------------------- */

START_TEST(test_selinux_restorecon_unlabelled_logged)
{
	static const char *const l[] = {"/u\t--\tsystem_u:object_r:new_t:s0",
					NULL};
	char want[4200];

	fx_writes("u", "");
	specs(l);
	ck_assert_int_eq(restore("u", SELINUX_RESTORECON_NOCHANGE |
					  SELINUX_RESTORECON_VERBOSE),
			 0);
	/* 3.4: its null context through "%s"; 3.8.1 and 3.11 say so */
	snprintf(want, sizeof(want),
		 "Would relabel %s/u from %s to system_u:object_r:new_t:s0\n",
		 fx_root, core_compat >= 308 ? "<no context>" : "(null)");
	ck_assert_str_eq(logbuf, want);
}
END_TEST

START_TEST(test_selinux_restorecon_missing_logged)
{
	static const char *const l[] = {"/u\t--\tsystem_u:object_r:new_t:s0",
					NULL};
	char want[4200];

	specs(l);
	errno = 0;
	ck_assert_int_eq(restore("nope", SELINUX_RESTORECON_RECURSE), -1);
	ck_assert_int_eq(errno, ENOENT);
	/* 3.11 names the open() it starts with */
	snprintf(want, sizeof(want),
		 "%s(%s/nope) failed: No such file or directory\n",
		 SINCE_311 ? "open" : "lstat", fx_root);
	ck_assert_str_eq(logbuf, want);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("restore_flags");
	TCase *tc = tcase_create("selinux_restorecon");
	TCase *tn = tcase_create("selinux_restorecon_get_relabeled_files");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selinux_restorecon_type_only_by_default);
	tcase_add_test(tc, test_selinux_restorecon_set_user_role_keeps_range);
	tcase_add_test(tc, test_selinux_restorecon_set_user_role_same_type);
	tcase_add_test(tc,
		       test_selinux_restorecon_set_user_role_not_customizable);
	tcase_add_test(tc,
		       test_selinux_restorecon_set_user_role_with_specfile_ctx);
	tcase_add_test(tc, test_selinux_restorecon_skip_multilink_walk);
	tcase_add_test(tc, test_selinux_restorecon_skip_multilink_single_path);
	tcase_add_test(tc, test_selinux_restorecon_skip_multilink_logged);
	tcase_add_test(tc,
		       test_selinux_restorecon_multilink_relabelled_by_default);
	tcase_add_test(tc, test_selinux_restorecon_unlabelled_logged);
	tcase_add_test(tc, test_selinux_restorecon_missing_logged);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(tn, setup, teardown);
	tcase_add_test(tn, test_selinux_restorecon_get_relabeled_files_counts);
	tcase_add_test(tn,
		       test_selinux_restorecon_get_relabeled_files_nochange);
	tcase_add_test(
	    tn, test_selinux_restorecon_get_relabeled_files_without_flag);
	tcase_add_test(tn,
		       test_selinux_restorecon_get_relabeled_files_parallel);
	suite_add_tcase(s, tn);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
