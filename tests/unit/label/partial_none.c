/*
 * Suite label_partial_none: the partial-match calls on paths at and
 * under "<<none>>" specs (upstream's post-3.11 fix of this class: an
 * endless loop in a partial lookup that met a <<none>> spec).
 *
 * The rules, as Debian 12's library applies them: a partial match is a
 * spec whose regex matches the key or could match a longer key
 * starting with it, file type not considered; selabel_partial_match is
 * true when the highest such spec is not <<none>>; the specs hashed by
 * selabel_hash_all_partial_matches (and
 * selabel_get_digests_all_partial_matches) are the partial matches from
 * the highest down, up to the first <<none>> one, and with none of them
 * there is no digest.  The answers below were written from those rules
 * and confirmed with Debian 12's library (libselinux1 3.4), digests
 * included.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

#include "fixture.h"

static const char specs[] = "/\t-d\tu:r:root_t:s0\n"		    /* 1 */
			    "/srv(/.*)?\tu:r:srv_t:s0\n"	    /* 2 */
			    "/srv/none(/.*)?\t<<none>>\n"	    /* 3 */
			    "/srv/none/keep(/.*)?\tu:r:keep_t:s0\n" /* 4 */
			    "/srv/none/x\t<<none>>\n"		    /* 5 */
			    "/opt/.*\t<<none>>\n";		    /* 6 */

/* The SHA-1 of spec 4 alone (regex and NUL, mode, context and NUL). */
#define KEEP_DIGEST "f1ad4d91360b3586cf34dff03167935915cbbc06"

static const struct {
	const char *key;
	const char *con; /* lookup: the context, or NULL for ENOENT */
	int partial;
	const char *digest; /* or NULL: none */
} cases[] = {
    /* Spec 5, a literal <<none>>, could match a longer "/srv...": it is
     * the highest partial match of these, and hashing stops there. */
    {"/", "u:r:root_t:s0", 0, NULL},
    {"/srv", "u:r:srv_t:s0", 0, NULL},
    {"/srv/", "u:r:srv_t:s0", 0, NULL},
    {"/srv/none", NULL, 0, NULL},
    {"/srv/none/sub", NULL, 0, NULL},
    /* Spec 4 is the highest; spec 3 (<<none>>) ends the list. */
    {"/srv/none/keep", "u:r:keep_t:s0", 1, KEEP_DIGEST},
    {"/srv/none/keep/a", "u:r:keep_t:s0", 1, KEEP_DIGEST},
    {"/srv/none/x", NULL, 0, NULL},
    {"/srv/none/x/y", NULL, 0, NULL},
    {"/opt", NULL, 0, NULL},
    {"/opt/a/b", NULL, 0, NULL},
    {"/nothing", NULL, 0, NULL},
};

static struct selabel_handle *hnd;

static struct selabel_handle *open_fc(const char *rel, bool digest)
{
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, fx_path(rel)},
	    {SELABEL_OPT_BASEONLY, (char *)1},
	    {SELABEL_OPT_DIGEST, (char *)1},
	};

	return selabel_open(SELABEL_CTX_FILE, opt, digest ? 3 : 2);
}

static void setup(void)
{
	fx_setup();
	fx_writes("fc", specs);
	hnd = open_fc("fc", false);
	ck_assert_ptr_nonnull(hnd);
}

static void teardown(void)
{
	selinux_restorecon_set_sehandle(NULL);
	if (hnd)
		selabel_close(hnd);
	hnd = NULL;
	fx_teardown();
}

static void hex(const uint8_t *d, char out[41])
{
	for (int i = 0; i < 20; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

START_TEST(test_selabel_lookup_under_none)
{
	char *con = NULL;
	int r;

	errno = 0;
	r = selabel_lookup_raw(hnd, &con, cases[_i].key, 0);
	if (cases[_i].con) {
		ck_assert_int_eq(r, 0);
		ck_assert_str_eq(con, cases[_i].con);
		freecon(con);
	} else {
		ck_assert_int_eq(r, -1);
		ck_assert_int_eq(errno, ENOENT);
	}
}
END_TEST

START_TEST(test_selabel_partial_match_under_none)
{
	ck_assert_int_eq(selabel_partial_match(hnd, cases[_i].key),
			 cases[_i].partial);
}
END_TEST

START_TEST(test_selabel_hash_all_partial_matches_under_none)
{
	uint8_t d[20];
	char h[41];

	if (!cases[_i].digest) {
		ck_assert(
		    !selabel_hash_all_partial_matches(hnd, cases[_i].key, d));
		return;
	}
	ck_assert(selabel_hash_all_partial_matches(hnd, cases[_i].key, d));
	hex(d, h);
	ck_assert_str_eq(h, cases[_i].digest);
}
END_TEST

START_TEST(test_selabel_get_digests_all_partial_matches_under_none)
{
	uint8_t *calc = (uint8_t *)1, *stored = (uint8_t *)1;
	size_t len = 0;
	char h[41];

	/* The keys name no file: nothing stored, so never a match. */
	ck_assert(!selabel_get_digests_all_partial_matches(
	    hnd, cases[_i].key, &calc, &stored, &len));
	ck_assert_ptr_null(stored);
	ck_assert_uint_eq(len, 20);
	if (!cases[_i].digest) {
		ck_assert_ptr_null(calc);
		return;
	}
	ck_assert_ptr_nonnull(calc);
	hex(calc, h);
	ck_assert_str_eq(h, cases[_i].digest);
	free(calc);
}
END_TEST

/* rel's label is want (NULL: it has none). */
static void label_is(const char *rel, const char *want)
{
	char con[64];
	ssize_t n =
	    lgetxattr(fx_path(rel), "security.selinux", con, sizeof(con) - 1);

	if (!want) {
		ck_assert_int_lt(n, 0);
		return;
	}
	ck_assert_int_gt(n, 0);
	con[n] = '\0';
	ck_assert_str_eq(con, want);
}

/*
 * The same rules over a tree: a walk with digests through directories
 * a <<none>> spec covers ends, leaves them unlabelled, labels what a
 * spec below them names, and stores a digest only where there is one.
 */
START_TEST(test_selinux_restorecon_under_none)
{
	static const char *const dirs[] = {"srv/none/keep/a", "srv/none/sub",
					   "srv/none/x/y", "opt/a"};
	struct selabel_handle *h;
	char fc[24000];
	uint8_t d[21];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		fx_mkdir(dirs[i]);
	fx_writes("srv/none/keep/a/f", "");
	fx_writes("srv/none/sub/f", "");
	snprintf(fc, sizeof(fc),
		 "%s/srv(/.*)?\tu:r:srv_t:s0\n"
		 "%s/srv/none(/.*)?\t<<none>>\n"
		 "%s/srv/none/keep(/.*)?\tu:r:keep_t:s0\n"
		 "%s/srv/none/x\t<<none>>\n"
		 "%s/opt/.*\t<<none>>\n",
		 fx_root, fx_root, fx_root, fx_root, fx_root);
	fx_writes("fc2", fc);
	h = open_fc("fc2", true);
	ck_assert_ptr_nonnull(h);
	selinux_restorecon_set_sehandle(h);
	ck_assert_int_eq(
	    selinux_restorecon(fx_path("srv"),
			       SELINUX_RESTORECON_RECURSE |
				   SELINUX_RESTORECON_IGNORE_MOUNTS),
	    0);
	ck_assert_int_eq(
	    selinux_restorecon(fx_path("opt"),
			       SELINUX_RESTORECON_RECURSE |
				   SELINUX_RESTORECON_IGNORE_MOUNTS),
	    0);
	label_is("srv", "u:r:srv_t:s0");
	label_is("srv/none", NULL);
	label_is("srv/none/sub", NULL);
	label_is("srv/none/sub/f", NULL);
	label_is("srv/none/keep", "u:r:keep_t:s0");
	label_is("srv/none/keep/a/f", "u:r:keep_t:s0");
	label_is("srv/none/x/y", NULL);
	label_is("opt/a", NULL);
	/* Where a walk stores digests at all (not on a tmpfs, as root):
	 * none on the directories without partial matches. */
	if (getxattr(fx_path("srv/none/keep"), "security.sehash", d,
		     sizeof(d)) == 20) {
		ck_assert_int_lt(
		    getxattr(fx_path("srv"), "security.sehash", d, sizeof(d)),
		    0);
		ck_assert_int_lt(getxattr(fx_path("srv/none"),
					  "security.sehash", d, sizeof(d)),
				 0);
	}
	selinux_restorecon_set_sehandle(NULL);
	selabel_close(h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_partial_none");
	TCase *tc = tcase_create("partial");
	int n = sizeof(cases) / sizeof(cases[0]);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_selabel_lookup_under_none, 0, n);
	tcase_add_loop_test(tc, test_selabel_partial_match_under_none, 0, n);
	tcase_add_loop_test(
	    tc, test_selabel_hash_all_partial_matches_under_none, 0, n);
	tcase_add_loop_test(
	    tc, test_selabel_get_digests_all_partial_matches_under_none, 0, n);
	tcase_add_test(tc, test_selinux_restorecon_under_none);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
