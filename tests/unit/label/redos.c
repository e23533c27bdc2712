/*
 * Suite label_redos: catastrophic regexes in file_contexts (upstream's
 * post-3.11 fix of this class: a PCRE2 match limit against ReDoS).
 *
 * A spec like "/(a+)+b" backtracks 2^n ways on a key of n 'a's without
 * the 'b': with a key of thousands of them, a regex engine without a
 * bound never returns.  PCRE2 gives up at its match limit; what this
 * suite checks is that every call reaching such specs returns, and
 * does bounded work besides: each regex (a spec's alone, or several
 * combined) is matched at most twice per key (a JIT match and the
 * interpreter's retry), and all of them at most twice per spec per
 * key, counted by wrapping pcre2_match and its JIT and
 * DFA twins (this program defines them; the library's objects, linked
 * statically, call these).  No time is measured: a call that never
 * returns is caught by the test's timeout, which a bounded call is far
 * from (PCRE2's default limit, 10^7 steps, costs well under a second).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* pcre2_match and twins, counted -------------------------------------- */

/* The matches, in all and per compiled regex (the most of any one). */
static unsigned long calls, gave_up, most;
static struct {
	const pcre2_code *code;
	unsigned long n;
} per[256];
static size_t nper;

static void reset(void)
{
	calls = gave_up = most = 0;
	nper = 0;
}

static void count(const pcre2_code *code, int rc)
{
	size_t i;

	calls++;
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT)
		gave_up++;
	for (i = 0; i < nper && per[i].code != code; i++)
		;
	if (i == nper) {
		if (nper == sizeof(per) / sizeof(per[0]))
			abort();
		per[nper++] = (typeof(per[0])){code, 0};
	}
	if (++per[i].n > most)
		most = per[i].n;
}

typedef int match_fn(const pcre2_code *, PCRE2_SPTR, PCRE2_SIZE, PCRE2_SIZE,
		     uint32_t, pcre2_match_data *, pcre2_match_context *);

static match_fn *next_fn(const char *name)
{
	match_fn *f = (match_fn *)dlsym(RTLD_NEXT, name);

	if (!f)
		abort();
	return f;
}

int pcre2_match_8(const pcre2_code *code, PCRE2_SPTR s, PCRE2_SIZE n,
		  PCRE2_SIZE start, uint32_t opts, pcre2_match_data *md,
		  pcre2_match_context *mc)
{
	static match_fn *real;
	int rc;

	if (!real)
		real = next_fn("pcre2_match_8");
	rc = real(code, s, n, start, opts, md, mc);
	count(code, rc);
	return rc;
}

int pcre2_jit_match_8(const pcre2_code *code, PCRE2_SPTR s, PCRE2_SIZE n,
		      PCRE2_SIZE start, uint32_t opts, pcre2_match_data *md,
		      pcre2_match_context *mc)
{
	static match_fn *real;
	int rc;

	if (!real)
		real = next_fn("pcre2_jit_match_8");
	rc = real(code, s, n, start, opts, md, mc);
	count(code, rc);
	return rc;
}

int pcre2_dfa_match_8(const pcre2_code *code, PCRE2_SPTR s, PCRE2_SIZE n,
		      PCRE2_SIZE start, uint32_t opts, pcre2_match_data *md,
		      pcre2_match_context *mc, int *ws, PCRE2_SIZE wscount)
{
	static int (*real)(const pcre2_code *, PCRE2_SPTR, PCRE2_SIZE,
			   PCRE2_SIZE, uint32_t, pcre2_match_data *,
			   pcre2_match_context *, int *, PCRE2_SIZE);
	int rc;

	if (!real) {
		*(void **)&real = dlsym(RTLD_NEXT, "pcre2_dfa_match_8");
		if (!real)
			abort();
	}
	rc = real(code, s, n, start, opts, md, mc, ws, wscount);
	count(code, rc);
	return rc;
}

/* Fixtures --------------------------------------------------------------- */

/*
 * The specs: each one that can backtrack without end on "/aaa...a"
 * comes after "/.*", so that it is tried first: a regular one (which an
 * automaton matches without backtracking), a top-level alternation
 * (matched on its own, as the reference does), a back reference (no
 * automaton can), and nested stars under a directory.
 */
#define NSPEC 5
static const char specs[] = "/.*\tu:r:any_t:s0\n"
			    "/(a+)+b\tu:r:nested_t:s0\n"
			    "/(a|aa)+c|/zzz\tu:r:alt_t:s0\n"
			    "/((a+)+)\\2d\tu:r:backref_t:s0\n"
			    "/(a*)*e/.*\tu:r:star_t:s0\n";

/* Long enough that 2^n steps never end; short of PATH_MAX. */
#define KEYLEN 4000

static struct selabel_handle *hnd;
static char *key;

static void setup(void)
{
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, NULL},
	    {SELABEL_OPT_BASEONLY, (char *)1},
	};

	fx_setup();
	fx_writes("fc", specs);
	opt[0].value = fx_path("fc");
	hnd = selabel_open(SELABEL_CTX_FILE, opt, 2);
	ck_assert_ptr_nonnull(hnd);
	key = malloc(KEYLEN + 1);
	ck_assert_ptr_nonnull(key);
	key[0] = '/';
	memset(key + 1, 'a', KEYLEN - 1);
	key[KEYLEN] = '\0';
	reset();
}

static void teardown(void)
{
	selinux_restorecon_set_sehandle(NULL);
	if (hnd)
		selabel_close(hnd);
	hnd = NULL;
	free(key);
	fx_teardown();
}

/* At most two matches of any regex per key looked up, and of all of
 * them together, two per spec per key. */
static void bounded(unsigned keys)
{
	fprintf(stderr,
		"%lu regex matches (at most %lu of one), %lu at PCRE2's "
		"limit\n",
		calls, most, gave_up);
	ck_assert_uint_le(most, 2 * keys);
	ck_assert_uint_le(calls, 2 * NSPEC * keys);
}

/* A lookup's answer: a context, or -1 with the errno of a regex that
 * gave up (EINVAL here, ENOENT in the reference). */
static void answer_or_gave_up(int r, char *con)
{
	if (r == 0) {
		ck_assert_ptr_nonnull(con);
		freecon(con);
	} else {
		ck_assert_int_eq(r, -1);
		ck_assert(errno == EINVAL || errno == ENOENT);
	}
}

/* The bounded calls ------------------------------------------------------ */

START_TEST(test_selabel_lookup_redos_bounded)
{
	char *con = NULL;
	int r;

	errno = 0;
	r = selabel_lookup_raw(hnd, &con, key, S_IFREG);
	answer_or_gave_up(r, con);
	bounded(1);
	/* A key the nested stars reach: under "/aaa...a/" (a directory). */
	reset();
	key[KEYLEN - 2] = '/';
	con = NULL;
	errno = 0;
	r = selabel_lookup_raw(hnd, &con, key, 0);
	answer_or_gave_up(r, con);
	bounded(1);
}
END_TEST

START_TEST(test_selabel_lookup_best_match_redos_bounded)
{
	const char *aliases[] = {"/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				 key + 1, key, NULL};
	char *con = NULL;
	int r;

	errno = 0;
	r = selabel_lookup_best_match_raw(hnd, &con, key, aliases, 0);
	answer_or_gave_up(r, con);
	bounded(4);
}
END_TEST

START_TEST(test_selabel_partial_match_redos_bounded)
{
	(void)selabel_partial_match(hnd, key);
	bounded(1);
}
END_TEST

START_TEST(test_selabel_hash_all_partial_matches_redos_bounded)
{
	uint8_t digest[20];

	(void)selabel_hash_all_partial_matches(hnd, key, digest);
	bounded(1);
}
END_TEST

START_TEST(test_selabel_get_digests_all_partial_matches_redos_bounded)
{
	uint8_t *calc = NULL, *stored = NULL;
	size_t len = 0;

	(void)selabel_get_digests_all_partial_matches(hnd, key, &calc, &stored,
						      &len);
	free(calc);
	free(stored);
	bounded(1);
}
END_TEST

/*
 * A walk over a file whose name (255 'a's, the longest a name may be)
 * backtracks without end against the specs below: the walk returns.
 */
START_TEST(test_selinux_restorecon_redos_returns)
{
	struct selinux_opt opt[] = {{SELABEL_OPT_PATH, NULL},
				    {SELABEL_OPT_DIGEST, (char *)1}};
	struct selabel_handle *h;
	char name[300], fc[20000];
	int r;

	memcpy(name, "d/", 2);
	memset(name + 2, 'a', 255);
	name[257] = '\0';
	fx_writes(name, "");
	/* fx_root's own characters are matched literally or as '.'. */
	snprintf(fc, sizeof(fc),
		 "%s/d(/.*)?\tu:r:d_t:s0\n"
		 "%s/d/(a+)+b\tu:r:nested_t:s0\n"
		 "%s/d/(a|aa)+c|/zzz\tu:r:alt_t:s0\n"
		 "%s/d/((a+)+)\\2d\tu:r:backref_t:s0\n",
		 fx_root, fx_root, fx_root, fx_root);
	fx_writes("fc2", fc);
	opt[0].value = fx_path("fc2");
	h = selabel_open(SELABEL_CTX_FILE, opt, 2);
	ck_assert_ptr_nonnull(h);
	selinux_restorecon_set_sehandle(h);
	errno = 0;
	r = selinux_restorecon(fx_path("d"),
			       SELINUX_RESTORECON_RECURSE |
				   SELINUX_RESTORECON_NOCHANGE |
				   SELINUX_RESTORECON_IGNORE_MOUNTS);
	ck_assert(r == 0 || (r == -1 && errno != 0));
	selinux_restorecon_set_sehandle(NULL);
	selabel_close(h);
	fprintf(stderr, "walk: %lu regex matches, %lu at PCRE2's limit\n",
		calls, gave_up);
}
END_TEST

/* Once known bugs, fixed ----------------------------------------------- */

/*
 * The reference tries the specs from the last line up: "/.*" (line 2)
 * matches and wins, and the alternation on line 1 is never run (Debian
 * 12's library answers u:r:any_t:s0 at once).  Ours matched the specs
 * it holds apart (a top-level '|') before the others, gave up with
 * them at PCRE2's limit and failed the lookup with EINVAL, although a
 * spec of a higher line matches.  Now a regex that cannot be matched
 * only fails the lookup when no higher spec matches.
 */
START_TEST(test_selabel_lookup_limit_below_a_match)
{
	struct selinux_opt opt[] = {{SELABEL_OPT_PATH, NULL},
				    {SELABEL_OPT_BASEONLY, (char *)1}};
	struct selabel_handle *h;
	char *con = NULL;

	fx_writes("fc3", "/(a|aa)+c|/zzz\tu:r:alt_t:s0\n"
			 "/.*\tu:r:any_t:s0\n");
	opt[0].value = fx_path("fc3");
	h = selabel_open(SELABEL_CTX_FILE, opt, 2);
	ck_assert_ptr_nonnull(h);
	key[41] = '\0'; /* "/" and 40 'a's: 2^40 ways */
	errno = 0;
	ck_assert_int_eq(selabel_lookup_raw(h, &con, key, S_IFREG), 0);
	ck_assert_str_eq(con, "u:r:any_t:s0");
	freecon(con);
	selabel_close(h);
}
END_TEST

/*
 * The same within a node of the index: line 1 (a back reference, left
 * to PCRE2) and line 3 (not matching) share the prefix "/x/"; that node
 * is tried first, for its line 3, and line 1 giving up fails the lookup,
 * although "/x(/.*)?" (line 2, another node) matches.  Debian 12's
 * library answers u:r:x_t:s0.
 */
START_TEST(test_selabel_lookup_limit_in_node_below_a_match)
{
	struct selinux_opt opt[] = {{SELABEL_OPT_PATH, NULL},
				    {SELABEL_OPT_BASEONLY, (char *)1}};
	struct selabel_handle *h;
	char *con = NULL;

	fx_writes("fc4", "/x/((a+)+)\\2(b|c)\tu:r:cat_t:s0\n"
			 "/x(/.*)?\tu:r:x_t:s0\n"
			 "/x/(q|r)\tu:r:q_t:s0\n");
	opt[0].value = fx_path("fc4");
	h = selabel_open(SELABEL_CTX_FILE, opt, 2);
	ck_assert_ptr_nonnull(h);
	memcpy(key, "/x/", 3);
	key[43] = '\0'; /* "/x/" and 40 'a's */
	errno = 0;
	ck_assert_int_eq(selabel_lookup_raw(h, &con, key, S_IFREG), 0);
	ck_assert_str_eq(con, "u:r:x_t:s0");
	freecon(con);
	selabel_close(h);
}
END_TEST

/*
 * Not backtracking but the index's own work: a counted repetition is
 * expanded into one automaton position per copy, up to 4096 for a spec
 * (MAX_SPEC_POS in fc_dfa.c), and "u{1,4000}" - 4000 optional copies,
 * each followed by every later one - costs the automaton's build some
 * 15 to 25 seconds and 300 MB of allocations here, on the first lookup
 * of its node (Debian 12's library: no time at all; PCRE2 compiles it
 * in microseconds).  The work grows about as the cube of the count
 * below the cap.  Sixteen such specs, each in a node of its own and
 * each looked up once: the case's timeout (BOUNDED_TIMEOUT) is far
 * above what building or skipping sixteen small automata needs, and far
 * below sixteen times that cost on any machine.  (fc_dfa.c now gives a
 * spec's lists a budget: 5 ms for all sixteen.)
 */
#define NCOUNTED 16
START_TEST(test_selabel_lookup_counted_repetition_cheap)
{
	struct selinux_opt opt[] = {{SELABEL_OPT_PATH, NULL},
				    {SELABEL_OPT_BASEONLY, (char *)1}};
	struct selabel_handle *h;
	char fc[NCOUNTED * 40] = "", line[40], k[16];

	for (int i = 0; i < NCOUNTED; i++) {
		snprintf(line, sizeof(line), "/d%d/u{1,4000}\tu:r:t:s0\n", i);
		strcat(fc, line);
	}
	fx_writes("fc5", fc);
	opt[0].value = fx_path("fc5");
	h = selabel_open(SELABEL_CTX_FILE, opt, 2);
	ck_assert_ptr_nonnull(h);
	for (int i = 0; i < NCOUNTED; i++) {
		char *con = NULL;

		snprintf(k, sizeof(k), "/d%d/uuu", i);
		ck_assert_int_eq(selabel_lookup_raw(h, &con, k, S_IFREG), 0);
		ck_assert_str_eq(con, "u:r:t:s0");
		freecon(con);
	}
	selabel_close(h);
}
END_TEST

/* Seconds for a case of the fixed ones (see the test above). */
#define BOUNDED_TIMEOUT 20

static Suite *suite(void)
{
	Suite *s = suite_create("label_redos");
	TCase *tc;

	tc = tcase_create("fixed");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selabel_lookup_limit_below_a_match);
	tcase_add_test(tc, test_selabel_lookup_limit_in_node_below_a_match);
	tcase_add_test(tc, test_selabel_lookup_counted_repetition_cheap);
	tcase_set_timeout(tc, BOUNDED_TIMEOUT);
	suite_add_tcase(s, tc);
	tc = tcase_create("bounded");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selabel_lookup_redos_bounded);
	tcase_add_test(tc, test_selabel_lookup_best_match_redos_bounded);
	tcase_add_test(tc, test_selabel_partial_match_redos_bounded);
	tcase_add_test(tc, test_selabel_hash_all_partial_matches_redos_bounded);
	tcase_add_test(
	    tc, test_selabel_get_digests_all_partial_matches_redos_bounded);
	tcase_add_test(tc, test_selinux_restorecon_redos_returns);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
