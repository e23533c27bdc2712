/*
 * Suite restore_xattr: the security.sehash digests a walk
 * leaves on directories, and selinux_restorecon_xattr() which lists and
 * removes them (upstream's post-3.11 fix of this class: a use-after-free
 * in restorecon_xattr, whose list outlived the call that made it).
 *
 * A digest is the SHA-1 of the specs that partially match a directory
 * (selabel_get_digests_all_partial_matches); a recursive walk with a
 * handle opened with SELABEL_OPT_DIGEST stores it on each directory it
 * relabelled, and a later walk skips a directory whose digest still
 * matches.  selinux_restorecon_xattr() lists the directories holding
 * one (MATCH or NOMATCH against the specs in force) and removes them
 * as its flags say; the list belongs to the caller, a new one each call.
 * Run under ASan, a list handed out twice or appended to after its
 * owner freed it is caught.
 *
 * The tree lives on a disk file system (FX_DISK_DIR, else TMPDIR or
 * /tmp): the walks skip tmpfs and ramfs.  Setting security.* attributes
 * needs root.  Without either, the tests say so and pass.
 */
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
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

#define SEHASH "security.sehash"
#define TMPFS_MAGIC 0x01021994
#define RAMFS_MAGIC 0x858458f6

static struct selabel_handle *hnd;
static bool usable;

static int quiet(int type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
	return 0;
}

/* A handle on file_contexts "fc" + suffix with digests. */
static struct selabel_handle *open_fc(const char *rel)
{
	struct selinux_opt opt[] = {{SELABEL_OPT_PATH, fx_path(rel)},
				    {SELABEL_OPT_DIGEST, (char *)1}};
	struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, opt, 2);

	ck_assert_ptr_nonnull(h);
	return h;
}

/* fc1: d, and d/b apart; fc2: d only (d/b's partial matches change,
 * and d's, whose partial matches included d/b's spec). */
static void write_fcs(const char *root)
{
	char fc[12288];

	snprintf(fc, sizeof(fc),
		 "%s/d(/.*)?\tu:r:d_t:s0\n"
		 "%s/d/b(/.*)?\tu:r:b_t:s0\n",
		 root, root);
	fx_writes("fc1", fc);
	snprintf(fc, sizeof(fc), "%s/d(/.*)?\tu:r:d_t:s0\n", root);
	fx_writes("fc2", fc);
}

static void setup(void)
{
	union selinux_callback cb = {.func_log = quiet};
	const char *base = getenv("FX_DISK_DIR");
	struct statfs s;

	if (!base)
		base = getenv("TMPDIR");
	fx_setup_in(base ? base : "/tmp");
	selinux_set_callback(SELINUX_CB_LOG, cb);
	fx_writes("d/a/f", "");
	fx_writes("d/b/g", "");
	write_fcs(fx_root);
	usable = statfs(fx_root, &s) == 0 && s.f_type != TMPFS_MAGIC &&
		 s.f_type != RAMFS_MAGIC &&
		 setxattr(fx_path("d"), SEHASH, "x", 1, 0) == 0 &&
		 removexattr(fx_path("d"), SEHASH) == 0;
	if (!usable)
		fprintf(stderr,
			"%s: no security.sehash here (tmpfs, or "
			"not root): skipped\n",
			fx_root);
	hnd = open_fc("fc1");
	selinux_restorecon_set_sehandle(hnd);
}

static void teardown(void)
{
	selinux_restorecon_set_sehandle(NULL);
	if (hnd)
		selabel_close(hnd);
	hnd = NULL;
	fx_teardown();
}

static void free_list(struct dir_xattr *e)
{
	while (e) {
		struct dir_xattr *n = e->next;

		free(e->directory);
		free(e->digest);
		free(e);
		e = n;
	}
}

/* The stored digest of rel as hex, or "" without one. */
static const char *stored_hex(const char *rel)
{
	static char hex[41];
	uint8_t d[21];
	ssize_t n = getxattr(fx_path(rel), SEHASH, d, sizeof(d));

	hex[0] = '\0';
	if (n == 20)
		for (int i = 0; i < 20; i++)
			snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return hex;
}

/* The result of rel in list, or -1 when not listed; its digest must be
 * hex_before (the stored one when the list was made). */
static int result_of(struct dir_xattr *list, const char *rel,
		     const char *hex_before)
{
	for (struct dir_xattr *e = list; e; e = e->next)
		if (!strcmp(e->directory, fx_path(rel))) {
			ck_assert_str_eq(e->digest, hex_before);
			return e->result;
		}
	return -1;
}

static size_t length(struct dir_xattr *list)
{
	size_t n = 0;

	for (; list; list = list->next)
		n++;
	return n;
}

static int walk(unsigned flags)
{
	return selinux_restorecon(fx_path("d"),
				  flags | SELINUX_RESTORECON_RECURSE |
				      SELINUX_RESTORECON_IGNORE_MOUNTS);
}

static struct dir_xattr *xattrs(unsigned flags)
{
	struct dir_xattr **list = NULL;

	ck_assert_int_eq(
	    selinux_restorecon_xattr(fx_path("d"),
				     flags | SELINUX_RESTORECON_XATTR_RECURSE |
					 SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS,
				     &list),
	    0);
	return list ? *list : NULL;
}

START_TEST(test_selinux_restorecon_stores_digests)
{
	static const char *const dirs[] = {"d", "d/a", "d/b"};

	if (!usable)
		return;
	/* Not with NOCHANGE, nor SKIP_DIGEST. */
	ck_assert_int_eq(walk(SELINUX_RESTORECON_NOCHANGE), 0);
	ck_assert_str_eq(stored_hex("d"), "");
	ck_assert_int_eq(walk(SELINUX_RESTORECON_SKIP_DIGEST), 0);
	ck_assert_str_eq(stored_hex("d"), "");
	ck_assert_int_eq(walk(0), 0);
	for (size_t i = 0; i < 3; i++) {
		uint8_t *calc = NULL, *stored = NULL;
		size_t len = 0;

		ck_assert_msg(selabel_get_digests_all_partial_matches(
				  hnd, fx_path(dirs[i]), &calc, &stored, &len),
			      "%s: no matching digest", dirs[i]);
		ck_assert_uint_eq(len, 20);
		ck_assert_mem_eq(calc, stored, 20);
		free(calc);
		free(stored);
	}
}
END_TEST

/* A matching digest spares a directory the walk; IGNORE_DIGEST not. */
START_TEST(test_selinux_restorecon_digest_skips)
{
	char con[64];
	ssize_t n;

	if (!usable)
		return;
	ck_assert_int_eq(walk(0), 0);
	ck_assert_int_eq(setxattr(fx_path("d/a/f"), "security.selinux",
				  "u:r:other_t:s0", 15, 0),
			 0);
	ck_assert_int_eq(walk(0), 0);
	n = getxattr(fx_path("d/a/f"), "security.selinux", con, sizeof(con));
	ck_assert_int_eq(n, 15);
	ck_assert_str_eq(con, "u:r:other_t:s0");
	ck_assert_int_eq(walk(SELINUX_RESTORECON_IGNORE_DIGEST), 0);
	n = getxattr(fx_path("d/a/f"), "security.selinux", con, sizeof(con));
	ck_assert_int_eq(n, 11);
	ck_assert_str_eq(con, "u:r:d_t:s0");
}
END_TEST

START_TEST(test_selinux_restorecon_xattr_match_and_delete)
{
	struct selabel_handle *h2;
	struct dir_xattr *l;
	char d[41], a[41], b[41];

	if (!usable)
		return;
	ck_assert_int_eq(walk(0), 0);
	strcpy(d, stored_hex("d"));
	strcpy(a, stored_hex("d/a"));
	strcpy(b, stored_hex("d/b"));
	ck_assert_uint_eq(strlen(d) + strlen(a) + strlen(b), 120);

	/* The specs the digests were made from: all match. */
	l = xattrs(0);
	ck_assert_uint_eq(length(l), 3);
	ck_assert_int_eq(result_of(l, "d", d), MATCH);
	ck_assert_int_eq(result_of(l, "d/a", a), MATCH);
	ck_assert_int_eq(result_of(l, "d/b", b), MATCH);
	free_list(l);

	/* Without d/b's spec: d and d/b no longer match, d/a does. */
	h2 = open_fc("fc2");
	selinux_restorecon_set_sehandle(h2);
	l = xattrs(0);
	ck_assert_uint_eq(length(l), 3);
	ck_assert_int_eq(result_of(l, "d", d), NOMATCH);
	ck_assert_int_eq(result_of(l, "d/a", a), MATCH);
	ck_assert_int_eq(result_of(l, "d/b", b), NOMATCH);
	free_list(l);
	ck_assert_str_eq(stored_hex("d"), d); /* listing removes nothing */

	l = xattrs(SELINUX_RESTORECON_XATTR_DELETE_NONMATCH_DIGESTS);
	ck_assert_int_eq(result_of(l, "d", d), DELETED_NOMATCH);
	ck_assert_int_eq(result_of(l, "d/a", a), MATCH);
	ck_assert_int_eq(result_of(l, "d/b", b), DELETED_NOMATCH);
	free_list(l);
	ck_assert_str_eq(stored_hex("d"), "");
	ck_assert_str_eq(stored_hex("d/a"), a);
	ck_assert_str_eq(stored_hex("d/b"), "");

	l = xattrs(SELINUX_RESTORECON_XATTR_DELETE_ALL_DIGESTS);
	ck_assert_uint_eq(length(l), 1);
	ck_assert_int_eq(result_of(l, "d/a", a), DELETED_MATCH);
	free_list(l);
	ck_assert_str_eq(stored_hex("d/a"), "");

	/* Nothing left: no list. */
	ck_assert_ptr_null(xattrs(0));
	selinux_restorecon_set_sehandle(hnd);
	selabel_close(h2);
}
END_TEST

/*
 * Each call's list is new: a list freed by its owner is never appended
 * to (the reference's use-after-free), a list kept while the next call
 * runs is not touched, and a call that lists nothing leaves the
 * caller's pointer alone.
 */
START_TEST(test_selinux_restorecon_xattr_lists_are_the_callers)
{
	struct dir_xattr **list = NULL, *kept, *l;

	if (!usable)
		return;
	ck_assert_int_eq(walk(0), 0);
	l = xattrs(0);
	ck_assert_uint_eq(length(l), 3);
	free_list(l);
	l = xattrs(0); /* after the first list was freed */
	ck_assert_uint_eq(length(l), 3);
	kept = l;
	l = xattrs(0); /* while the second is kept */
	ck_assert_uint_eq(length(l), 3);
	ck_assert_ptr_ne(l, kept);
	ck_assert_uint_eq(length(kept), 3);
	free_list(kept);
	free_list(l);
	/* One directory, no recursion; then one without a digest. */
	ck_assert_int_eq(
	    selinux_restorecon_xattr(
		fx_path("d/a"), SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS, &list),
	    0);
	ck_assert_ptr_nonnull(list);
	l = *list;
	ck_assert_uint_eq(length(l), 1);
	free_list(l);
	ck_assert_int_eq(removexattr(fx_path("d/a"), SEHASH), 0);
	list = NULL;
	ck_assert_int_eq(
	    selinux_restorecon_xattr(
		fx_path("d/a"), SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS, &list),
	    0);
	ck_assert_ptr_null(list);
	/* No list wanted: the digests found are freed by the call. */
	ck_assert_int_eq(
	    selinux_restorecon_xattr(fx_path("d"),
				     SELINUX_RESTORECON_XATTR_RECURSE |
					 SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS,
				     NULL),
	    0);
}
END_TEST

/* Two threads, each listing its own tree many times: each list holds
 * its own tree's directories only. */
struct lister {
	char top[8192];
	int bad;
};

static void *lister(void *arg)
{
	struct lister *t = arg;
	size_t n = strlen(t->top);

	for (int i = 0; i < 200; i++) {
		struct dir_xattr **list = NULL;
		size_t k = 0;

		if (selinux_restorecon_xattr(
			t->top,
			SELINUX_RESTORECON_XATTR_RECURSE |
			    SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS,
			&list) != 0 ||
		    !list) {
			t->bad++;
			continue;
		}
		for (struct dir_xattr *e = *list; e; e = e->next, k++)
			if (strncmp(e->directory, t->top, n))
				t->bad++;
		if (k != 3)
			t->bad++;
		free_list(*list);
	}
	return NULL;
}

START_TEST(test_selinux_restorecon_xattr_threads)
{
	struct lister t[2];
	pthread_t id[2];

	if (!usable)
		return;
	ck_assert_int_eq(walk(0), 0);
	/* d2: a copy of d with its digests (the same specs cover it). */
	fx_writes("d2/a/f", "");
	fx_writes("d2/b/g", "");
	{
		char fc[12288];

		snprintf(fc, sizeof(fc),
			 "%s/d(2)?(/.*)?\tu:r:d_t:s0\n"
			 "%s/d(2)?/b(/.*)?\tu:r:b_t:s0\n",
			 fx_root, fx_root);
		fx_writes("fc3", fc);
	}
	selinux_restorecon_set_sehandle(NULL);
	selabel_close(hnd);
	hnd = open_fc("fc3");
	selinux_restorecon_set_sehandle(hnd);
	ck_assert_int_eq(walk(SELINUX_RESTORECON_IGNORE_DIGEST), 0);
	ck_assert_int_eq(
	    selinux_restorecon(fx_path("d2"),
			       SELINUX_RESTORECON_RECURSE |
				   SELINUX_RESTORECON_IGNORE_MOUNTS),
	    0);
	for (int i = 0; i < 2; i++) {
		snprintf(t[i].top, sizeof(t[i].top), "%s",
			 fx_path(i ? "d2" : "d"));
		t[i].bad = 0;
		ck_assert_int_eq(pthread_create(&id[i], NULL, lister, &t[i]),
				 0);
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(id[i], NULL);
		ck_assert_int_eq(t[i].bad, 0);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("restore_xattr");
	TCase *tc = tcase_create("sehash");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selinux_restorecon_stores_digests);
	tcase_add_test(tc, test_selinux_restorecon_digest_skips);
	tcase_add_test(tc, test_selinux_restorecon_xattr_match_and_delete);
	tcase_add_test(tc, test_selinux_restorecon_xattr_lists_are_the_callers);
	tcase_add_test(tc, test_selinux_restorecon_xattr_threads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
