/*
 * Suite label_media_xattr: two calls whose failure conventions the
 * reference fixes and the Ruby extension's differential test found us
 * departing from: matchmediacon() on a media type its file does not list
 * (-1, errno untouched), and selinux_restorecon_xattr() with no
 * xattr_list (accepted; the digests found are not leaked).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

#include "fixture.h"

void core_set_config_root(const char *dir);

#define SEHASH "security.sehash"
#define TMPFS_MAGIC 0x01021994

static struct selabel_handle *hnd;

static void setup(void)
{
	fx_setup();
	fx_config_root();
	fx_writes("etc/selinux/config", "SELINUXTYPE=t\n");
	fx_writes("etc/selinux/t/contexts/files/media",
		  "cdrom system_u:object_r:removable_device_t:s0\n"
		  "disk system_u:object_r:fixed_disk_device_t:s0\n");
}

static void teardown(void)
{
	if (hnd)
		selabel_close(hnd);
	hnd = NULL;
	core_set_config_root(NULL);
	fx_teardown();
}

/* matchmediacon ---------------------------------------------------------- */

START_TEST(test_matchmediacon_listed)
{
	char *con = NULL;

	ck_assert_int_eq(matchmediacon("disk", &con), 0);
	ck_assert_str_eq(con, "system_u:object_r:fixed_disk_device_t:s0");
	freecon(con);
}
END_TEST

START_TEST(test_matchmediacon_unlisted_keeps_errno)
{
	char *con = NULL;

	errno = EXDEV;
	ck_assert_int_eq(matchmediacon("tape", &con), -1);
	ck_assert_int_eq(errno, EXDEV);
	errno = 0;
	ck_assert_int_eq(matchmediacon("tape", &con), -1);
	ck_assert_int_eq(errno, 0);
	ck_assert_ptr_null(con);
}
END_TEST

START_TEST(test_matchmediacon_no_file)
{
	char *con = NULL;

	ck_assert_int_eq(unlink(fx_path("etc/selinux/t/contexts/files/media")),
			 0);
	errno = 0;
	ck_assert_int_eq(matchmediacon("disk", &con), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* selinux_restorecon_xattr ----------------------------------------------- */

/* The handle of the walks: a file_contexts naming fx_root/d. */
static void fc_handle(void)
{
	const char *fc = fx_path("fc");
	char line[8192];

	snprintf(line, sizeof(line), "%s/d(/.*)?\tsystem_u:object_r:d_t:s0\n",
		 fx_root);
	fx_writes("fc", line);
	hnd = selabel_open(SELABEL_CTX_FILE,
			   (struct selinux_opt[]){{SELABEL_OPT_PATH, fc}}, 1);
	ck_assert_ptr_nonnull(hnd);
	selinux_restorecon_set_sehandle(hnd);
}

/* fx_root/d and fx_root/d/sub, each with a 20-byte digest.  0 when the
 * file system cannot hold the digests (a tmpfs is skipped by the walk,
 * EPERM without root). */
static int digest_tree(void)
{
	static const unsigned char digest[20] = {1, 2, 3};
	struct statfs s;

	fx_mkdir("d/sub");
	if (statfs(fx_root, &s) < 0 || s.f_type == TMPFS_MAGIC ||
	    setxattr(fx_path("d"), SEHASH, digest, sizeof(digest), 0) < 0 ||
	    setxattr(fx_path("d/sub"), SEHASH, digest, sizeof(digest), 0) < 0)
		return 0;
	fc_handle();
	return 1;
}

START_TEST(test_selinux_restorecon_xattr_null_list)
{
	struct dir_xattr **list = NULL;
	struct dir_xattr *e;
	int n = 0;

	if (!digest_tree())
		return;
	/* The walk finds two digests and has nobody to hand them to: they
	 * are freed (an ASan build sees a leak or a double free). */
	ck_assert_int_eq(selinux_restorecon_xattr(
			     fx_path("d"), SELINUX_RESTORECON_XATTR_RECURSE |
					       SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS,
			     NULL),
			 0);
	/* The same walk with a list: both directories are there. */
	ck_assert_int_eq(selinux_restorecon_xattr(
			     fx_path("d"), SELINUX_RESTORECON_XATTR_RECURSE |
					       SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS,
			     &list),
			 0);
	ck_assert_ptr_nonnull(list);
	for (e = *list; e;) {
		struct dir_xattr *next = e->next;

		ck_assert_str_eq(e->digest,
				 "0102030000000000000000000000000000000000");
		free(e->directory);
		free(e->digest);
		free(e);
		e = next;
		n++;
	}
	ck_assert_int_eq(n, 2);
}
END_TEST

START_TEST(test_selinux_restorecon_xattr_null_list_missing_path)
{
	fc_handle();
	ck_assert_int_eq(selinux_restorecon_xattr(fx_path("missing"), 0, NULL),
			 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_media_xattr");
	TCase *tm = tcase_create("matchmediacon");
	TCase *tx = tcase_create("selinux_restorecon_xattr");

	tcase_add_checked_fixture(tm, setup, teardown);
	tcase_add_test(tm, test_matchmediacon_listed);
	tcase_add_test(tm, test_matchmediacon_unlisted_keeps_errno);
	tcase_add_test(tm, test_matchmediacon_no_file);
	suite_add_tcase(s, tm);

	tcase_add_checked_fixture(tx, setup, teardown);
	tcase_add_test(tx, test_selinux_restorecon_xattr_null_list);
	tcase_add_test(tx, test_selinux_restorecon_xattr_null_list_missing_path);
	suite_add_tcase(s, tx);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
