/* Suite core_selinuxfs: finding the mount, and the context files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdbool.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* Internal helpers of the static archive. */
int core_mountinfo_line(const char *line, char **mnt, bool *ro);
void core_mountinfo_scan(const char *path);
extern char *selinux_mnt;

static void setup(void)
{
	fx_setup();
}

static void teardown(void)
{
	fini_selinuxmnt();
	fx_teardown();
}

/* mountinfo parsing ------------------------------------------------------ */

static int parse(const char *line, char **mnt)
{
	*mnt = NULL;
	return core_mountinfo_line(line, mnt, NULL);
}

/* The read-only flag of a line that parses (1), else -1. */
static int parse_ro(const char *line)
{
	char *mnt = NULL;
	bool ro = false;
	int r = core_mountinfo_line(line, &mnt, &ro);

	free(mnt);
	return r == 1 ? ro : -1;
}

START_TEST(test_mountinfo_kernel_selinuxfs)
{
	char *mnt;

	ck_assert_int_eq(parse("21 26 0:20 / /sys/fs/selinux rw,nosuid,"
			       "noexec,relatime shared:6 - selinuxfs "
			       "selinuxfs rw\n",
			       &mnt),
			 1);
	ck_assert_str_eq(mnt, "/sys/fs/selinux");
	free(mnt);
}
END_TEST

START_TEST(test_mountinfo_fuse_by_root)
{
	char *mnt;

	ck_assert_int_eq(parse("88 30 0:52 / /run/sefs rw,nosuid,nodev - "
			       "fuse.selinuxfs selinuxfs rw,user_id=0,"
			       "group_id=0,default_permissions,allow_other",
			       &mnt),
			 1);
	ck_assert_str_eq(mnt, "/run/sefs");
	free(mnt);
}
END_TEST

/* Anyone may mount FUSE: a selinuxfs served by a user is not trusted. */
START_TEST(test_mountinfo_fuse_by_user_rejected)
{
	char *mnt;

	ck_assert_int_eq(parse("88 30 0:52 / /home/eve/fake rw - "
			       "fuse.selinuxfs selinuxfs rw,user_id=1000,"
			       "group_id=1000",
			       &mnt),
			 0);
	ck_assert_ptr_null(mnt);
	/* "user_id=01"?  Only the exact option user_id=0 counts. */
	ck_assert_int_eq(parse("1 2 0:5 / /x rw - fuse.selinuxfs s "
			       "rw,user_id=00",
			       &mnt),
			 0);
}
END_TEST

START_TEST(test_mountinfo_other_fs)
{
	char *mnt;

	ck_assert_int_eq(parse("22 1 8:1 / / rw,relatime - ext4 /dev/vda rw",
			       &mnt),
			 0);
	ck_assert_int_eq(parse("22 1 0:7 / /x rw - fuse.sshfs host: "
			       "rw,user_id=0",
			       &mnt),
			 0);
	ck_assert_int_eq(parse("22 1 0:7 / /x rw - fuse selinuxfs "
			       "rw,user_id=0",
			       &mnt),
			 0);
}
END_TEST

START_TEST(test_mountinfo_escaped_mount_point)
{
	char *mnt;

	ck_assert_int_eq(parse("9 1 0:3 / /mnt/with\\040space\\134x rw - "
			       "selinuxfs selinuxfs rw",
			       &mnt),
			 1);
	ck_assert_str_eq(mnt, "/mnt/with space\\x");
	free(mnt);
}
END_TEST

START_TEST(test_mountinfo_several_optional_fields)
{
	char *mnt;

	ck_assert_int_eq(parse("9 1 0:3 / /s rw shared:1 master:2 "
			       "propagate_from:3 - selinuxfs none rw",
			       &mnt),
			 1);
	ck_assert_str_eq(mnt, "/s");
	free(mnt);
}
END_TEST

START_TEST(test_mountinfo_garbage)
{
	static const char *const bad[] = {
		"",
		"\n",
		"1 2 3",
		"1 2 0:3 / /s rw selinuxfs none rw",
		"1 2 0:3 / /s rw -",
		"1 2 0:3 / /s rw - selinuxfs",
		"- - - - - - - -",
	};
	char *mnt;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(parse(bad[i], &mnt), 0);
		ck_assert_ptr_null(mnt);
	}
}
END_TEST

/*
 * A dead server's mount answers no statvfs: whether it was read-only (a
 * runtime's way of saying "disabled") comes from the line, the mount's
 * options or the super options.
 */
START_TEST(test_mountinfo_read_only)
{
	ck_assert_int_eq(parse_ro("88 30 0:52 / /run/sefs rw,nosuid - "
				  "fuse.selinuxfs selinuxfs rw,user_id=0,"
				  "group_id=0,allow_other"),
			 0);
	ck_assert_int_eq(parse_ro("88 30 0:52 / /run/sefs ro,nosuid - "
				  "fuse.selinuxfs selinuxfs rw,user_id=0,"
				  "group_id=0,allow_other"),
			 1);
	ck_assert_int_eq(parse_ro("21 26 0:20 / /sys/fs/selinux rw,relatime "
				  "- selinuxfs selinuxfs ro"),
			 1);
	/* "ro" as a whole option only */
	ck_assert_int_eq(parse_ro("21 26 0:20 / /s rw,rootcontext=x - "
				  "selinuxfs selinuxfs rw,roo"),
			 0);
	/* no super options at all */
	ck_assert_int_eq(parse_ro("21 26 0:20 / /s ro - selinuxfs selinuxfs"),
			 1);
}
END_TEST

/* set_selinuxmnt / fini_selinuxmnt ------------------------------------- */

START_TEST(test_set_selinuxmnt_sets_variable)
{
	set_selinuxmnt("/some/where");
	ck_assert_str_eq(selinux_mnt, "/some/where");
	set_selinuxmnt("/else");
	ck_assert_str_eq(selinux_mnt, "/else");
	fini_selinuxmnt();
	ck_assert_ptr_null(selinux_mnt);
	set_selinuxmnt(NULL); /* the reference crashes; we clear */
	ck_assert_ptr_null(selinux_mnt);
}
END_TEST

/* A mountinfo line: "HEAD fx_root/DIR TAIL". */
struct mline {
	const char *head, *dir, *tail;
};

static void mountinfo(const struct mline *l, size_t n)
{
	char buf[32768] = "", line[4096 + 256];

	for (size_t i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%s %s/%s %s\n", l[i].head,
			 fx_root, l[i].dir, l[i].tail);
		strcat(buf, line);
	}
	fx_writes("mountinfo", buf);
}

/*
 * The scan adopts the first trusted selinuxfs whose mount point exists:
 * a FUSE one mounted by a user is passed over, as is a mount point gone
 * (statvfs fails), and a later trusted one is not looked at.
 */
START_TEST(test_mountinfo_scan_first_trusted)
{
	static const struct mline l[] = {
	    {"30 1 0:40 /", "user", "rw - fuse.selinuxfs s rw,user_id=1000"},
	    {"31 1 0:41 /", "ext4", "rw - ext4 /dev/vda rw"},
	    {"32 1 0:42 /", "gone", "rw - selinuxfs selinuxfs rw"},
	    {"33 1 0:43 /", "root", "rw - fuse.selinuxfs s rw,user_id=0"},
	    {"34 1 0:44 /", "later", "rw - selinuxfs selinuxfs rw"},
	};

	fx_mkdir("user");
	fx_mkdir("ext4");
	fx_mkdir("root");
	fx_mkdir("later");
	mountinfo(l, 5);
	fini_selinuxmnt();
	core_mountinfo_scan(fx_path("mountinfo"));
	ck_assert_ptr_nonnull(selinux_mnt);
	ck_assert_str_eq(selinux_mnt, fx_path("root"));
}
END_TEST

START_TEST(test_mountinfo_scan_none)
{
	static const struct mline l[] = {
	    {"30 1 0:40 /", "user", "rw - fuse.selinuxfs s rw,user_id=1000"},
	    {"32 1 0:42 /", "gone", "rw - selinuxfs selinuxfs rw"},
	};

	fx_mkdir("user");
	mountinfo(l, 2);
	fini_selinuxmnt();
	core_mountinfo_scan(fx_path("mountinfo"));
	ck_assert_ptr_null(selinux_mnt);
	core_mountinfo_scan(fx_path("no-such-file"));
	ck_assert_ptr_null(selinux_mnt);
}
END_TEST


/* On this host kernel selinuxfs is not known; on a SELinux one it is. */
START_TEST(test_selinuxfs_exists_matches_proc)
{
	FILE *f = fopen("/proc/filesystems", "re");
	char line[256];
	int want = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (strcmp(line, "nodev\tselinuxfs\n") == 0)
			want = 1;
	fclose(f);
	ck_assert_int_eq(selinuxfs_exists(), want);
}
END_TEST

/* security_check_context --------------------------------------------- */

START_TEST(test_security_check_context_writes_with_nul)
{
	size_t len;
	char *got;

	fx_selinuxfs();
	fx_writes("selinuxfs/context", "");
	ck_assert_int_eq(security_check_context("u:r:t:s0"), 0);
	got = fx_read("selinuxfs/context", &len);
	ck_assert_uint_eq(len, 9);
	ck_assert_int_eq(memcmp(got, "u:r:t:s0", 9), 0);
	free(got);
	fx_writes("selinuxfs/context", "");
	ck_assert_int_eq(security_check_context_raw("a:b:c"), 0);
	got = fx_read("selinuxfs/context", &len);
	ck_assert_uint_eq(len, 6);
	free(got);
}
END_TEST

START_TEST(test_security_check_context_errors)
{
	errno = 0;
	ck_assert_int_eq(security_check_context("u:r:t"), -1);
	ck_assert_int_eq(errno, ENOENT); /* no mount */
	fx_selinuxfs();
	errno = 0;
	ck_assert_int_eq(security_check_context_raw("u:r:t"), -1);
	ck_assert_int_eq(errno, ENOENT); /* no context file */
	errno = 0;
	ck_assert_int_eq(security_check_context(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(security_check_context_raw(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* A kernel that cannot read back: the answer is the context itself. */
START_TEST(test_security_canonicalize_context_no_answer)
{
	char *canon = NULL;

	fx_selinuxfs();
	fx_writes("selinuxfs/context", "");
	ck_assert_int_eq(security_canonicalize_context_raw("u:r:t:s0", &canon),
			 0);
	ck_assert_str_eq(canon, "u:r:t:s0");
	freecon(canon);
}
END_TEST

/*
 * A FIFO stands in for the transaction file: what is already queued in it
 * is read back as the kernel's answer, after the request the library
 * wrote; the answer ends at its NUL.
 */
START_TEST(test_security_canonicalize_context_reads_answer)
{
	char *canon = NULL;
	int fd;

	fx_selinuxfs();
	ck_assert_int_eq(mkfifo(fx_path("selinuxfs/context"), 0600), 0);
	fd = open(fx_path("selinuxfs/context"), O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "user_u:object_r:tmp_t:s0", 25), 25);
	ck_assert_int_eq(security_canonicalize_context("user_u:object_r:"
						       "tmp_t:s0-s0",
						       &canon),
			 0);
	ck_assert_str_eq(canon, "user_u:object_r:tmp_t:s0");
	freecon(canon);
	close(fd);
}
END_TEST

START_TEST(test_security_canonicalize_context_errors)
{
	char *canon = NULL;

	errno = 0;
	ck_assert_int_eq(security_canonicalize_context("a:b:c", &canon), -1);
	ck_assert_int_eq(errno, ENOENT);
	fx_selinuxfs();
	fx_writes("selinuxfs/context", "");
	errno = 0;
	ck_assert_int_eq(security_canonicalize_context(NULL, &canon), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(security_canonicalize_context_raw("a:b:c", NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("core_selinuxfs");
	TCase *tc;

	tc = tcase_create("mountinfo");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_mountinfo_kernel_selinuxfs);
	tcase_add_test(tc, test_mountinfo_fuse_by_root);
	tcase_add_test(tc, test_mountinfo_fuse_by_user_rejected);
	tcase_add_test(tc, test_mountinfo_other_fs);
	tcase_add_test(tc, test_mountinfo_escaped_mount_point);
	tcase_add_test(tc, test_mountinfo_several_optional_fields);
	tcase_add_test(tc, test_mountinfo_garbage);
	tcase_add_test(tc, test_mountinfo_read_only);
	tcase_add_test(tc, test_mountinfo_scan_first_trusted);
	tcase_add_test(tc, test_mountinfo_scan_none);
	suite_add_tcase(s, tc);

	tc = tcase_create("set_selinuxmnt");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_set_selinuxmnt_sets_variable);
	tcase_add_test(tc, test_selinuxfs_exists_matches_proc);
	suite_add_tcase(s, tc);

	tc = tcase_create("security_check_context");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_security_check_context_writes_with_nul);
	tcase_add_test(tc, test_security_check_context_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("security_canonicalize_context");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_security_canonicalize_context_no_answer);
	tcase_add_test(tc, test_security_canonicalize_context_reads_answer);
	tcase_add_test(tc, test_security_canonicalize_context_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
