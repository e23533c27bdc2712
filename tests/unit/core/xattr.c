/* Suite core_xattr: getfilecon/setfilecon and friends on real xattrs. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "core/internal.h"
#include "fixture.h"

#define LABEL "system_u:object_r:etc_t:s0"
#define NAME "security.selinux"

/* tmpfs: ext4 caps an xattr at one block, tmpfs takes 64 KiB. */
static void setup(void)
{
	fx_setup_in("/dev/shm");
	fx_writes("f", "data");
}

static void teardown(void)
{
	fx_teardown();
}

static void label(const char *rel, const void *v, size_t n)
{
	ck_assert_int_eq(lsetxattr(fx_path(rel), NAME, v, n, 0), 0);
}

/* getfilecon family ----------------------------------------------------- */

START_TEST(test_getfilecon_with_nul)
{
	char *con = NULL;

	label("f", LABEL, sizeof(LABEL)); /* with its NUL: 27 bytes */
	ck_assert_int_eq(getfilecon_raw(fx_path("f"), &con), 27);
	ck_assert_str_eq(con, LABEL);
	freecon(con);
	ck_assert_int_eq(getfilecon(fx_path("f"), &con), 27);
	ck_assert_str_eq(con, LABEL);
	freecon(con);
}
END_TEST

START_TEST(test_getfilecon_without_nul)
{
	char *con = NULL;

	label("f", LABEL, strlen(LABEL)); /* 26 bytes, no NUL */
	ck_assert_int_eq(getfilecon_raw(fx_path("f"), &con), 26);
	ck_assert_str_eq(con, LABEL);
	freecon(con);
	/* The translated call answers strlen + 1 of what it returns. */
	ck_assert_int_eq(getfilecon(fx_path("f"), &con), 27);
	ck_assert_str_eq(con, LABEL);
	freecon(con);
}
END_TEST

START_TEST(test_getfilecon_empty_is_enotsup)
{
	char *con = NULL;

	label("f", "", 0);
	errno = 0;
	ck_assert_int_eq(getfilecon_raw(fx_path("f"), &con), -1);
	ck_assert_int_eq(errno, ENOTSUP);
	ck_assert_ptr_null(con);
}
END_TEST

START_TEST(test_getfilecon_64k)
{
	char *big = malloc(65536), *con = NULL;

	memset(big, 'a', 65536);
	label("f", big, 65536);
	ck_assert_int_eq(getfilecon_raw(fx_path("f"), &con), 65536);
	ck_assert_uint_eq(strlen(con), 65536);
	ck_assert_int_eq(memcmp(con, big, 65536), 0);
	freecon(con);
	ck_assert_int_eq(getfilecon(fx_path("f"), &con), 65537);
	freecon(con);
	free(big);
}
END_TEST

START_TEST(test_getfilecon_unlabeled_is_enodata)
{
	char *con = NULL;

	errno = 0;
	ck_assert_int_eq(getfilecon_raw(fx_path("f"), &con), -1);
	ck_assert_int_eq(errno, ENODATA);
}
END_TEST

START_TEST(test_getfilecon_missing_is_enoent)
{
	char *con = NULL;

	errno = 0;
	ck_assert_int_eq(getfilecon(fx_path("nope"), &con), -1);
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_int_eq(lgetfilecon_raw(fx_path("nope"), &con), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_getfilecon_null_out_is_einval)
{
	label("f", LABEL, sizeof(LABEL));
	errno = 0;
	ck_assert_int_eq(getfilecon_raw(fx_path("f"), NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(fgetfilecon(0, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_lgetfilecon_reads_link_itself)
{
	char *con = NULL;

	label("f", LABEL, sizeof(LABEL));
	ck_assert_int_eq(symlink("f", fx_path("l")), 0);
	label("l", "u:object_r:link_t", sizeof("u:object_r:link_t"));
	ck_assert_int_eq(lgetfilecon_raw(fx_path("l"), &con), 18);
	ck_assert_str_eq(con, "u:object_r:link_t");
	freecon(con);
	/* getfilecon follows the link to f. */
	ck_assert_int_eq(getfilecon_raw(fx_path("l"), &con), 27);
	ck_assert_str_eq(con, LABEL);
	freecon(con);
}
END_TEST

START_TEST(test_fgetfilecon_fd_and_o_path)
{
	char *con = NULL;
	int fd;

	label("f", LABEL, sizeof(LABEL));
	fd = open(fx_path("f"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fgetfilecon_raw(fd, &con), 27);
	ck_assert_str_eq(con, LABEL);
	freecon(con);
	close(fd);
	/* O_PATH descriptors: fgetxattr refuses them, the library does not. */
	fd = open(fx_path("f"), O_PATH);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fgetfilecon(fd, &con), 27);
	ck_assert_str_eq(con, LABEL);
	freecon(con);
	close(fd);
}
END_TEST

START_TEST(test_fgetfilecon_bad_fd)
{
	char *con = NULL;

	errno = 0;
	ck_assert_int_eq(fgetfilecon_raw(-1, &con), -1);
	ck_assert_int_eq(errno, EBADF);
}
END_TEST

/* setfilecon family ----------------------------------------------------- */

static void expect_raw(const char *rel, const char *want, size_t n)
{
	char buf[256];
	ssize_t got = lgetxattr(fx_path(rel), NAME, buf, sizeof(buf));

	ck_assert_int_eq(got, (ssize_t)n);
	ck_assert_int_eq(memcmp(buf, want, n), 0);
}

START_TEST(test_setfilecon_stores_nul)
{
	ck_assert_int_eq(setfilecon_raw(fx_path("f"), LABEL), 0);
	expect_raw("f", LABEL, sizeof(LABEL));
	ck_assert_int_eq(setfilecon(fx_path("f"), "a:b:c"), 0);
	expect_raw("f", "a:b:c", 6);
}
END_TEST

START_TEST(test_lsetfilecon_sets_link_itself)
{
	ck_assert_int_eq(symlink("f", fx_path("l")), 0);
	ck_assert_int_eq(lsetfilecon_raw(fx_path("l"), "x:y:z"), 0);
	expect_raw("l", "x:y:z", 6);
	errno = 0;
	ck_assert_int_lt(lgetxattr(fx_path("f"), NAME, NULL, 0), 0);
	ck_assert_int_eq(errno, ENODATA);
	ck_assert_int_eq(lsetfilecon(fx_path("l"), "x:y:w"), 0);
	expect_raw("l", "x:y:w", 6);
}
END_TEST

START_TEST(test_fsetfilecon_fd_and_o_path)
{
	int fd = open(fx_path("f"), O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fsetfilecon_raw(fd, "p:q:r"), 0);
	expect_raw("f", "p:q:r", 6);
	close(fd);
	fd = open(fx_path("f"), O_PATH);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fsetfilecon(fd, "p:q:s"), 0);
	expect_raw("f", "p:q:s", 6);
	close(fd);
}
END_TEST

START_TEST(test_setfilecon_null_is_einval)
{
	errno = 0;
	ck_assert_int_eq(setfilecon(fx_path("f"), NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(fsetfilecon_raw(0, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_setfilecon_missing_is_enoent)
{
	errno = 0;
	ck_assert_int_eq(setfilecon_raw(fx_path("nope"), LABEL), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* A file system without security xattrs: procfs files refuse them. */
START_TEST(test_setfilecon_unsupported_fs)
{
	errno = 0;
	ck_assert_int_eq(setfilecon_raw("/proc/self/comm", LABEL), -1);
	ck_assert(errno == ENOTSUP || errno == EACCES || errno == EPERM);
}
END_TEST

/* getpeercon ------------------------------------------------------------ */

START_TEST(test_getpeercon_errors)
{
	char *con = NULL;
	int sv[2];

	errno = 0;
	ck_assert_int_eq(getpeercon(-1, &con), -1);
	ck_assert_int_eq(errno, EBADF);
	errno = 0;
	ck_assert_int_eq(getpeercon_raw(0, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	errno = 0;
	if (getpeercon_raw(sv[0], &con) == 0) {
		/* A SELinux kernel labels the peer. */
		ck_assert_ptr_nonnull(con);
		freecon(con);
	} else {
		/* Without SELinux no LSM answers SO_PEERSEC. */
		ck_assert_int_eq(errno, ENOPROTOOPT);
	}
	close(sv[0]);
	close(sv[1]);
	fx_writes("g", "");
	sv[0] = open(fx_path("g"), O_RDONLY);
	errno = 0;
	ck_assert_int_eq(getpeercon(sv[0], &con), -1);
	ck_assert_int_eq(errno, ENOTSOCK);
	close(sv[0]);
}
END_TEST

/* core_xattr_get_at: relative to a directory (getxattrat where the
 * kernel has it), the same answers as by path. ----------------------- */

START_TEST(test_get_at_same_as_by_path)
{
	char *a = NULL, *b = NULL;
	int dfd;

	label("f", LABEL, sizeof(LABEL));
	ck_assert_int_eq(symlink("f", fx_path("l")), 0);
	label("l", "system_u:object_r:link_t:s0", 27);
	fx_writes("u", "");
	dfd = open(fx_path(""), O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dfd, 0);
	/* twice: the first call may find the kernel without getxattrat */
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(core_xattr_get_at(dfd, "f", fx_path("f"), &a),
				 27);
		ck_assert_str_eq(a, LABEL);
		free(a);
		a = NULL;
		/* the link itself, not what it points at */
		ck_assert_int_eq(core_xattr_get_at(dfd, "l", fx_path("l"), &a),
				 27);
		ck_assert_str_eq(a, "system_u:object_r:link_t:s0");
		free(a);
		a = NULL;
		ck_assert_int_eq(core_xattr_get_at(dfd, "u", fx_path("u"), &a),
				 -ENODATA);
		ck_assert_ptr_null(a);
		ck_assert_int_eq(
		    core_xattr_get_at(dfd, "none", fx_path("none"), &a),
		    -ENOENT);
	}
	/* no directory: by path */
	ck_assert_int_eq(core_xattr_get_at(-1, "ignored", fx_path("f"), &b),
			 27);
	ck_assert_str_eq(b, LABEL);
	free(b);
	ck_assert_int_eq(core_xattr_get_at(dfd, "f", fx_path("f"), NULL),
			 -EINVAL);
	close(dfd);
}
END_TEST

START_TEST(test_get_at_grows)
{
	/* A label longer than the first guess (256) is read whole. */
	char big[1000], *a = NULL;
	int dfd;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	label("f", big, sizeof(big));
	dfd = open(fx_path(""), O_RDONLY | O_DIRECTORY);
	ck_assert_int_eq(core_xattr_get_at(dfd, "f", fx_path("f"), &a),
			 (int)sizeof(big));
	ck_assert_str_eq(a, big);
	free(a);
	close(dfd);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("core_xattr");
	TCase *tc;

	tc = tcase_create("getfilecon");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_getfilecon_with_nul);
	tcase_add_test(tc, test_getfilecon_without_nul);
	tcase_add_test(tc, test_getfilecon_empty_is_enotsup);
	tcase_add_test(tc, test_getfilecon_64k);
	tcase_add_test(tc, test_getfilecon_unlabeled_is_enodata);
	tcase_add_test(tc, test_getfilecon_missing_is_enoent);
	tcase_add_test(tc, test_getfilecon_null_out_is_einval);
	tcase_add_test(tc, test_lgetfilecon_reads_link_itself);
	tcase_add_test(tc, test_fgetfilecon_fd_and_o_path);
	tcase_add_test(tc, test_fgetfilecon_bad_fd);
	suite_add_tcase(s, tc);

	tc = tcase_create("setfilecon");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_setfilecon_stores_nul);
	tcase_add_test(tc, test_lsetfilecon_sets_link_itself);
	tcase_add_test(tc, test_fsetfilecon_fd_and_o_path);
	tcase_add_test(tc, test_setfilecon_null_is_einval);
	tcase_add_test(tc, test_setfilecon_missing_is_enoent);
	tcase_add_test(tc, test_setfilecon_unsupported_fs);
	suite_add_tcase(s, tc);

	tc = tcase_create("get_at");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_get_at_same_as_by_path);
	tcase_add_test(tc, test_get_at_grows);
	suite_add_tcase(s, tc);

	tc = tcase_create("getpeercon");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_getpeercon_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
