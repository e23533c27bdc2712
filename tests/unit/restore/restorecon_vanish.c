/*
 * Suite restore_vanish: selinux_restorecon() over a tree whose
 * entries are removed while it walks (upstream's post-3.11 fixes of
 * this class concern files gone between the walk's steps).
 *
 * The removals are made at known points through the log callback: with
 * SELINUX_RESTORECON_LOG_MATCHES the walk logs "PATH matched by CON"
 * for each entry between its lookup and the reading of its label, and
 * the callback removes files there - the entry itself (gone between its
 * lookup and its label), or entries of its directory listed but not
 * reached yet, and a whole subdirectory.  Whatever the order readdir
 * gives, the walk must go on to the end: every entry never removed is
 * labelled, the return is 0 or -1 with ENOENT (a vanished file, which
 * Debian 12's library reports in some of these windows and not in
 * others), and every error logged names a removed entry.  A last test
 * removes and recreates entries from another thread while walks of
 * one and two threads run (no crash, no sanitizer report, the same
 * answers).

 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
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

#define CON "u:r:d_t:s0"
#define NFILES 20

static struct selabel_handle *hnd;

/* What the callback removes: when the entry named trigger is matched,
 * the entries named in victims (relative to fx_root). */
static struct {
	const char *trigger;
	const char *const *victims;
	bool done;
} plan[4];
static size_t nplan;

/* The removed entries and the error messages, for the checks. */
static char removed[64][64];
static size_t nremoved;
static char errors[64][512];
static size_t nerrors;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static int rm_tree(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_rel(const char *rel)
{
	nftw(fx_path(rel), rm_tree, 8, FTW_DEPTH | FTW_PHYS);
	if (nremoved < 64)
		snprintf(removed[nremoved++], sizeof(removed[0]), "%s", rel);
}

static int log_cb(int type, const char *fmt, ...)
{
	char msg[512], *m;
	size_t rootlen = strlen(fx_root);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&log_lock);
	if (type == SELINUX_ERROR && nerrors < 64)
		snprintf(errors[nerrors++], sizeof(errors[0]), "%s", msg);
	m = strstr(msg, " matched by ");
	if (m && !strncmp(msg, fx_root, rootlen) && msg[rootlen] == '/') {
		*m = '\0';
		for (size_t i = 0; i < nplan; i++) {
			if (plan[i].done ||
			    strcmp(msg + rootlen + 1, plan[i].trigger))
				continue;
			plan[i].done = true;
			for (size_t k = 0; plan[i].victims[k]; k++)
				remove_rel(plan[i].victims[k]);
		}
	}
	pthread_mutex_unlock(&log_lock);
	return 0;
}

static void tree(void)
{
	char rel[64];

	for (int i = 0; i < NFILES; i++) {
		snprintf(rel, sizeof(rel), "d/f%02d", i);
		fx_writes(rel, "");
	}
	fx_writes("d/sub/x", "");
	fx_writes("d/sub/y", "");
	fx_writes("d/gone/z", "");
	fx_writes("d/gone/deeper/w", "");
}

static void setup(void)
{
	union selinux_callback cb = {.func_log = log_cb};
	struct selinux_opt opt[] = {{SELABEL_OPT_PATH, NULL}};
	char fc[8192];

	fx_setup();
	tree();
	snprintf(fc, sizeof(fc), "%s/d(/.*)?\t" CON "\n", fx_root);
	fx_writes("fc", fc);
	opt[0].value = fx_path("fc");
	hnd = selabel_open(SELABEL_CTX_FILE, opt, 1);
	ck_assert_ptr_nonnull(hnd);
	selinux_restorecon_set_sehandle(hnd);
	selinux_set_callback(SELINUX_CB_LOG, cb);
	nplan = nremoved = nerrors = 0;
}

static void teardown(void)
{
	selinux_restorecon_set_sehandle(NULL);
	selabel_close(hnd);
	hnd = NULL;
	fx_teardown();
}

static bool was_removed(const char *rel)
{
	for (size_t i = 0; i < nremoved; i++) {
		size_t n = strlen(removed[i]);

		if (!strncmp(rel, removed[i], n) &&
		    (rel[n] == '\0' || rel[n] == '/'))
			return true;
	}
	return false;
}

/* Every entry of d never removed carries CON. */
static int check_label(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	char con[64];
	ssize_t n;

	(void)st;
	(void)type;
	(void)ftw;
	n = lgetxattr(path, "security.selinux", con, sizeof(con) - 1);
	ck_assert_msg(n > 0, "%s: not labelled", path);
	con[n] = '\0';
	ck_assert_str_eq(con, CON);
	return 0;
}

/* The checks after a walk that returned r. */
static void walked(int r)
{
	size_t rootlen = strlen(fx_root);

	ck_assert_msg(r == 0 || (r == -1 && errno == ENOENT),
		      "returned %d, errno %d", r, errno);
	ck_assert_int_eq(nftw(fx_path("d"), check_label, 8, FTW_PHYS), 0);
	for (size_t i = 0; i < nerrors; i++) {
		const char *p = strstr(errors[i], fx_root);
		char rel[512];

		ck_assert_msg(p && p[rootlen] == '/', "error: %s", errors[i]);
		snprintf(rel, sizeof(rel), "%s", p + rootlen + 1);
		/* "...: No such file or directory" after the path */
		rel[strcspn(rel, ": ")] = '\0';
		ck_assert_msg(was_removed(rel), "error: %s", errors[i]);
		ck_assert_msg(strstr(errors[i], strerror(ENOENT)), "error: %s",
			      errors[i]);
	}
}

#define FLAGS                                                                  \
	(SELINUX_RESTORECON_RECURSE | SELINUX_RESTORECON_LOG_MATCHES |         \
	 SELINUX_RESTORECON_IGNORE_MOUNTS | SELINUX_RESTORECON_SKIP_DIGEST)

static const char *const later[] = {"d/f10", "d/f11", "d/f12",	"d/f13",
				    "d/f14", "d/f15", "d/f16",	"d/f17",
				    "d/f18", "d/f19", "d/gone", NULL};
static const char *const self[] = {"d/f03", NULL};
static const char *const in_sub[] = {"d/sub/y", NULL};

static void plan_removals(void)
{
	plan[0].trigger = "d/f05";
	plan[0].victims = later;
	plan[1].trigger = "d/f03";
	plan[1].victims = self;
	plan[2].trigger = "d/sub/x";
	plan[2].victims = in_sub;
	nplan = 3;
}

START_TEST(test_selinux_restorecon_entries_removed)
{
	plan_removals();
	errno = 0;
	walked(selinux_restorecon(fx_path("d"), FLAGS));
	ck_assert(plan[0].done && plan[1].done && plan[2].done);
}
END_TEST

/* The same with two threads: the messages (and so the removals) come
 * when a thread flushes them, at no fixed point of the walk. */
START_TEST(test_selinux_restorecon_parallel_entries_removed)
{
	plan_removals();
	errno = 0;
	walked(selinux_restorecon_parallel(fx_path("d"), FLAGS, 2));
}
END_TEST

/* Another thread removes and makes entries while walks run. */
static volatile bool stop;

/* fx_root/d/churn/N/deeper/f made, without the fixture's asserts (not
 * for another thread). */
static void make_churn(const char *churn, unsigned long n)
{
	char p[8192];
	int fd;

	snprintf(p, sizeof(p), "%s/%lu", churn, n);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%lu/deeper", churn, n);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%lu/deeper/f", churn, n);
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

static void *churn(void *arg)
{
	const char *dir = arg;
	char p[8192];
	unsigned long i = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		make_churn(dir, i % 8);
		snprintf(p, sizeof(p), "%s/%lu", dir, (i + 4) % 8);
		nftw(p, rm_tree, 8, FTW_DEPTH | FTW_PHYS);
		i++;
	}
	return NULL;
}

START_TEST(test_selinux_restorecon_concurrent_removals)
{
	static char dir[8192];
	pthread_t t;

	fx_mkdir("d/churn");
	snprintf(dir, sizeof(dir), "%s", fx_path("d/churn"));
	stop = false;
	ck_assert_int_eq(pthread_create(&t, NULL, churn, dir), 0);
	for (int i = 0; i < 40; i++) {
		struct dir_xattr **list = NULL;
		int r;

		errno = 0;
		r = i % 2 ? selinux_restorecon_parallel(
				fx_path("d"),
				SELINUX_RESTORECON_RECURSE |
				    SELINUX_RESTORECON_IGNORE_MOUNTS,
				2)
			  : selinux_restorecon(
				fx_path("d"),
				SELINUX_RESTORECON_RECURSE |
				    SELINUX_RESTORECON_IGNORE_MOUNTS);
		ck_assert_msg(r == 0 || (r == -1 && errno == ENOENT),
			      "returned %d, errno %d", r, errno);
		ck_assert_int_eq(selinux_restorecon_xattr(
				     fx_path("d"),
				     SELINUX_RESTORECON_XATTR_RECURSE |
					 SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS,
				     &list),
				 0);
		for (struct dir_xattr *e = list ? *list : NULL, *n; e; e = n) {
			n = e->next;
			free(e->directory);
			free(e->digest);
			free(e);
		}
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	/* Every error was about an entry of the churn. */
	for (size_t i = 0; i < nerrors; i++)
		ck_assert_msg(strstr(errors[i], "/d/churn/"), "error: %s",
			      errors[i]);
	nftw(fx_path("d/churn"), rm_tree, 8, FTW_DEPTH | FTW_PHYS);
	nerrors = 0;
	walked(selinux_restorecon(fx_path("d"), FLAGS));
}
END_TEST

/* Known differences -------------------------------------------------- */

/*
 * A file removed between its lookup and the reading of its label.
 * Debian 12's library holds the file open (O_PATH) from before its
 * lookup: the label is read and set through that descriptor, on the
 * removed file, and the walk reports nothing (0, no message).  Ours
 * read the label by name, failed with ENOENT, logged "Could not set
 * context" and returned -1; it now takes the entry for gone, as later
 * releases do.
 */
START_TEST(test_selinux_restorecon_removed_after_lookup_no_error)
{
	static const char *const victims[] = {"d/f03", NULL};

	plan[0].trigger = "d/f03";
	plan[0].victims = victims;
	nplan = 1;
	errno = 0;
	ck_assert_int_eq(selinux_restorecon(fx_path("d"), FLAGS), 0);
	ck_assert(plan[0].done);
	ck_assert_uint_eq(nerrors, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("restore_vanish");
	TCase *tc = tcase_create("vanish");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selinux_restorecon_entries_removed);
	tcase_add_test(tc, test_selinux_restorecon_parallel_entries_removed);
	tcase_add_test(tc, test_selinux_restorecon_concurrent_removals);
	tcase_add_test(tc, test_selinux_restorecon_removed_after_lookup_no_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
