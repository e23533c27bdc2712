/*
 * Suite restore_assoc: ADD_ASSOC's table of the inodes a walk labelled
 * (restore/assoc.c, through the static archive), and what a walk with
 * ADD_ASSOC does with an inode it reaches twice: through a hard link, and
 * through a bind mount of a directory of the tree inside it (the inodes
 * a walk tracks follow from /proc/self/mountinfo).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

#include "fixture.h"
#include "restore/walk.h"

static char logbuf[16384];
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static int log_cb(int type, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	(void)type;
	pthread_mutex_lock(&log_lock);
	n = strlen(logbuf);
	va_start(ap, fmt);
	vsnprintf(logbuf + n, sizeof(logbuf) - n, fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&log_lock);
	return 0;
}

static void setup(void)
{
	fx_setup_in("/dev/shm");
	logbuf[0] = '\0';
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){.func_log = log_cb});
}

static void teardown(void)
{
	umount2(fx_path("b"), MNT_DETACH); /* bind_a_on_b's, if any */
	fx_teardown();
}

/* A stat of a regular file of inode ino on device dev, nlink links. */
static struct stat file_st(dev_t dev, ino_t ino, nlink_t nlink)
{
	struct stat st = {.st_dev = dev,
			  .st_ino = ino,
			  .st_nlink = nlink,
			  .st_mode = S_IFREG | 0644};

	return st;
}

/* A table for a walk of fx_root, which holds no mount. */
static struct rst_assoc *table(void)
{
	struct rst_assoc *a = NULL;

	ck_assert_int_eq(rst_assoc_new(&a, fx_root, true), 0);
	ck_assert_ptr_nonnull(a);
	return a;
}

/* rst_assoc_add ------------------------------------------------------------ */

START_TEST(test_rst_assoc_add_second_path)
{
	struct rst_assoc *a = table();
	struct stat st = file_st(8, 5, 2);

	ck_assert_int_eq(rst_assoc_add(a, &st, "u:r:a_t:s0", "/x", false), 0);
	/* the same context by another path: that path is left alone */
	ck_assert_int_eq(rst_assoc_add(a, &st, "u:r:a_t:s0", "/y", false), 1);
	ck_assert_str_eq(logbuf, "");
	/* another context: the first stays, the latest path is named */
	ck_assert_int_eq(rst_assoc_add(a, &st, "u:r:b_t:s0", "/z", false), 1);
	ck_assert_str_eq(logbuf, "conflicting specifications for /z and /y, "
				 "using u:r:a_t:s0.\n");
	logbuf[0] = '\0';
	ck_assert_int_eq(rst_assoc_add(a, &st, "u:r:c_t:s0", "/w", true),
			 -EINVAL);
	ck_assert_str_eq(logbuf,
			 "conflicting specifications for /w and /z, using "
			 "u:r:a_t:s0.\ntreating conflicting specifications as "
			 "an error.\n");
	rst_assoc_free(a);
}
END_TEST

/* An inode is its device and its number: equal numbers on two devices
 * are two inodes. */
START_TEST(test_rst_assoc_add_device_and_inode)
{
	struct rst_assoc *a = table();
	struct stat s1 = file_st(1, 77, 2), s2 = file_st(2, 77, 2);

	ck_assert_int_eq(rst_assoc_add(a, &s1, "u:r:a_t:s0", "/d1/x", false),
			 0);
	ck_assert_int_eq(rst_assoc_add(a, &s2, "u:r:b_t:s0", "/d2/x", false),
			 0);
	ck_assert_str_eq(logbuf, "");
	rst_assoc_free(a);
}
END_TEST

/* Many inodes: the table grows and loses none (a second pass finds every
 * one, and says nothing of the contexts, which are equal). */
START_TEST(test_rst_assoc_add_grows)
{
	struct rst_assoc *a = table();
	char path[64];

	for (int pass = 0; pass < 2; pass++)
		for (ino_t i = 0; i < 300000; i++) {
			struct stat st = file_st(i % 3, i * 4099, 2);

			snprintf(path, sizeof(path), "/t/%d/%lu", pass,
				 (unsigned long)i);
			ck_assert_int_eq(
			    rst_assoc_add(a, &st, "u:r:a_t:s0", path, false),
			    pass);
		}
	ck_assert_str_eq(logbuf, "");
	rst_assoc_free(a);
}
END_TEST

/* Two walks' tables share nothing: an inode in one is new to the other. */
START_TEST(test_rst_assoc_add_tables_apart)
{
	struct rst_assoc *a = table(), *b = table();
	struct stat st = file_st(3, 9, 2);

	ck_assert_int_eq(rst_assoc_add(a, &st, "u:r:a_t:s0", "/a/h", false), 0);
	ck_assert_int_eq(rst_assoc_add(b, &st, "u:r:b_t:s0", "/b/h", false), 0);
	ck_assert_str_eq(logbuf, "");
	rst_assoc_free(a);
	rst_assoc_free(b);
}
END_TEST

#define NTHREADS 4
#define PER_THREAD 50000
static struct rst_assoc *shared;
static int firsts[NTHREADS];

/* Each thread adds the same inodes (every one twice, by two threads):
 * each inode must be first exactly once. */
static void *adder(void *arg)
{
	int t = (int)(long)arg;

	for (ino_t i = 0; i < 2 * PER_THREAD; i++) {
		ino_t ino = ((ino_t)t / 2) * 2 * PER_THREAD + i;
		struct stat st = file_st(1, ino, 2);
		int r = rst_assoc_add(shared, &st, "u:r:a_t:s0", "/p", false);

		ck_assert_int_ge(r, 0);
		if (r == 0)
			firsts[t]++;
	}
	return NULL;
}

START_TEST(test_rst_assoc_add_threads)
{
	pthread_t th[NTHREADS];
	int total = 0;

	shared = table();
	for (long t = 0; t < NTHREADS; t++)
		ck_assert_int_eq(pthread_create(&th[t], NULL, adder, (void *)t),
				 0);
	for (int t = 0; t < NTHREADS; t++) {
		pthread_join(th[t], NULL);
		total += firsts[t];
	}
	/* threads 0 and 1 add one set, 2 and 3 another */
	ck_assert_int_eq(total, 2 * 2 * PER_THREAD);
	rst_assoc_free(shared);
}
END_TEST

/* rst_assoc_tracks -------------------------------------------------------- */

/* No mount inside the tree: only files with several links can be reached
 * twice, and only they are tracked. */
START_TEST(test_rst_assoc_tracks_links_only)
{
	struct rst_assoc *a = table();
	struct stat one = file_st(1, 2, 1), two = file_st(1, 3, 2);
	struct stat dir = {.st_mode = S_IFDIR | 0755, .st_nlink = 5};

	ck_assert(!rst_assoc_tracks(a, &one));
	ck_assert(rst_assoc_tracks(a, &two));
	ck_assert(!rst_assoc_tracks(a, &dir));
	rst_assoc_free(a);
}
END_TEST

/* In a mount namespace of the test's own: fx_root/a bound on fx_root/b.
 * false (the test is skipped) where that is not allowed. */
static bool bind_a_on_b(void)
{
	fx_writes("a/f1", "");
	fx_mkdir("b");
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount(fx_path("a"), fx_path("b"), NULL, MS_BIND, NULL) < 0) {
		fprintf(stderr, "no bind mount (%s): skipped\n",
			strerror(errno));
		return false;
	}
	return true;
}

/* A directory of the tree bound inside it: every inode may be reached
 * twice, so all are tracked; a walk of a tree beside it is not
 * concerned. */
START_TEST(test_rst_assoc_tracks_all_below_a_bind_mount)
{
	struct rst_assoc *a = NULL, *beside = NULL;
	struct stat one = file_st(1, 2, 1);

	fx_mkdir("c");
	if (!bind_a_on_b())
		return;
	ck_assert_int_eq(rst_assoc_new(&a, fx_root, true), 0);
	ck_assert(rst_assoc_tracks(a, &one));
	ck_assert_int_eq(rst_assoc_new(&beside, fx_path("c"), true), 0);
	ck_assert(!rst_assoc_tracks(beside, &one));
	rst_assoc_free(a);
	rst_assoc_free(beside);
}
END_TEST

/* The walk: the file reached through the bind mount is an inode the walk
 * has labelled by the other path, whichever comes first (readdir's
 * order): one conflict, named by its two paths. */
START_TEST(test_selinux_restorecon_bind_mount_conflict)
{
	char fc[4096], line[2 * 4096 + 64];
	struct selabel_handle *h;
	FILE *f;

	if (!bind_a_on_b())
		return;
	snprintf(fc, sizeof(fc), "%s", fx_path("fc"));
	f = fopen(fc, "we");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s(/.*)?\tu:object_r:t_t:s0\n", fx_root);
	fprintf(f, "%s/a(/.*)?\tu:object_r:a_t:s0\n", fx_root);
	fprintf(f, "%s/b(/.*)?\tu:object_r:b_t:s0\n", fx_root);
	fclose(f);
	h = selabel_open(SELABEL_CTX_FILE,
			 (struct selinux_opt[]){{SELABEL_OPT_PATH, fc}}, 1);
	ck_assert_ptr_nonnull(h);
	selinux_restorecon_set_sehandle(h);
	ck_assert_int_eq(
	    selinux_restorecon(fx_root, SELINUX_RESTORECON_RECURSE |
					    SELINUX_RESTORECON_NOCHANGE |
					    SELINUX_RESTORECON_ADD_ASSOC |
					    SELINUX_RESTORECON_XDEV |
					    SELINUX_RESTORECON_IGNORE_MOUNTS |
					    SELINUX_RESTORECON_SKIP_DIGEST),
	    0);
	snprintf(line, sizeof(line),
		 "conflicting specifications for %s/a/f1 and %s/b/f1", fx_root,
		 fx_root);
	if (!strstr(logbuf, line))
		snprintf(line, sizeof(line),
			 "conflicting specifications for %s/b/f1 and %s/a/f1",
			 fx_root, fx_root);
	ck_assert_msg(strstr(logbuf, line), "no conflict for f1 in: %s",
		      logbuf);
	selabel_close(h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("restore_assoc");
	TCase *tc = tcase_create("rst_assoc_add");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rst_assoc_add_second_path);
	tcase_add_test(tc, test_rst_assoc_add_device_and_inode);
	tcase_add_test(tc, test_rst_assoc_add_grows);
	tcase_add_test(tc, test_rst_assoc_add_tables_apart);
	tcase_add_test(tc, test_rst_assoc_add_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("rst_assoc_tracks");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rst_assoc_tracks_links_only);
	tcase_add_test(tc, test_rst_assoc_tracks_all_below_a_bind_mount);
	tcase_add_test(tc, test_selinux_restorecon_bind_mount_conflict);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
