/*
 * Suite label_file_dfa: the automaton that matches a trie node's specs
 * (fc_dfa.c) and the lookups that go through it.  Each expectation is
 * written by hand from PCRE2's rules for "^regex$" with PCRE2_DOTALL on
 * bytes (no UTF-8, the "C" locale's \d \s \w) and the reference's rule
 * for the winner: the last matching spec of the file whose file type
 * fits; "<<none>>" answers ENOENT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "fixture.h"
#include "label/index/node.h"
#include "label/internal.h"

/* ---- the automaton on its own ---- */

/* The specs regexes re[0..n) (spec k is index k) accept for key, highest
 * first, as "3 1 0" ("-" for none, "ERR e" when the build fails). */
static const char *accepts(const char *const *re, uint32_t n, const char *key,
			   size_t keylen)
{
	static char buf[256];
	uint32_t spec[16], mode[16], cnt;
	bool in[16];
	struct fc_dfa *a;
	const uint32_t *v;
	size_t o = 0;
	int r;

	/* No pruning: every spec that matches is listed. */
	for (uint32_t k = 0; k < n; k++) {
		spec[k] = k;
		mode[k] = FC_DFA_NODOM;
	}
	r = fc_dfa_build(re, spec, mode, n, FC_DFA_MAX_STATES, in, &a);
	if (r < 0) {
		snprintf(buf, sizeof(buf), "ERR %d", -r);
		return buf;
	}
	v = fc_dfa_match(a, key, keylen, &cnt);
	buf[0] = '\0';
	for (uint32_t k = 0; k < cnt; k++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%u", k ? " " : "",
			      v[k]);
	if (!cnt)
		strcpy(buf, "-");
	fc_dfa_free(a);
	return buf;
}

/* Does the one regex re match all of key? */
static bool m1(const char *re, const char *key)
{
	return !strcmp(accepts(&re, 1, key, strlen(key)), "0");
}

START_TEST(test_fc_dfa_supported_subset)
{
	static const char *const yes[] = {
	    "a",	"(/.*)?",
	    "[^/]*",	"x{2,3}",
	    "x{2,}",	"x{0}",
	    "a|b",	"(foo|bar)baz",
	    "\\.",	"\\d+\\s\\w\\D\\S\\W",
	    "[]a]",	"[a-]",
	    "[-a]",	"[^-a]",
	    "(?:ab)*?", "a+?b??",
	    "[\\]\\-]", "",
	    "()",	"(a|)",
	    "]}",	"[a-z0-9_]",
	    "\xc3\xa9",
	};
	static const char *const no[] = {
	    "(a)\\1",  "(?i)a",	      "^a",	 "a$",	    "a*+",
	    "a?+",     "[[:alpha:]]", "\\x41",	 "[a-c-e]", "[\\d-z]",
	    "a{2}{3}", "(*UTF)a",     "\\Qa\\E", "a{,3}",   "a{3,2}",
	    "{",       "a)",	      "(a",	 "[a",	    "*a",
	    "a|*",     "\\b",	      "[[.a.]]", "(?=a)",   "\\\xc3",
	};

	for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		ck_assert_msg(fc_dfa_supported(yes[i]), "%s", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		ck_assert_msg(!fc_dfa_supported(no[i]), "%s", no[i]);
}
END_TEST

START_TEST(test_fc_dfa_match_anchored)
{
	ck_assert(m1("abc", "abc"));
	ck_assert(!m1("abc", "abcd"));
	ck_assert(!m1("abc", "xabc"));
	ck_assert(!m1("abc", "ab"));
	ck_assert(m1("", ""));
	ck_assert(!m1("", "a"));
}
END_TEST

START_TEST(test_fc_dfa_match_optional_subtree)
{
	ck_assert(m1("(/.*)?", ""));
	ck_assert(m1("(/.*)?", "/"));
	ck_assert(m1("(/.*)?", "/a/b"));
	ck_assert(!m1("(/.*)?", "a"));
	ck_assert(!m1("(/.*)?", "a/b"));
	ck_assert(m1("(.*/)?lib(/.*)?", "x/y/lib/z"));
	ck_assert(m1("(.*/)?lib(/.*)?", "lib"));
	ck_assert(!m1("(.*/)?lib(/.*)?", "xlib"));
}
END_TEST

START_TEST(test_fc_dfa_match_component)
{
	ck_assert(m1("[^/]*", ""));
	ck_assert(m1("[^/]*", "abc"));
	ck_assert(!m1("[^/]*", "a/b"));
	ck_assert(m1("[^/]+\\.so", "x.so"));
	ck_assert(!m1("[^/]+\\.so", ".so"));
	/* [^/] is every other byte: newline and 0xff too */
	ck_assert(m1("[^/]", "\n"));
	ck_assert(m1("[^/]", "\xff"));
}
END_TEST

START_TEST(test_fc_dfa_match_braces)
{
	ck_assert(!m1("x{2,3}", "x"));
	ck_assert(m1("x{2,3}", "xx"));
	ck_assert(m1("x{2,3}", "xxx"));
	ck_assert(!m1("x{2,3}", "xxxx"));
	ck_assert(m1("x{2,}", "xxxxx"));
	ck_assert(!m1("x{2,}", "x"));
	ck_assert(m1("x{0}", ""));
	ck_assert(!m1("x{0}", "x"));
	ck_assert(m1("x{0,1}y", "y"));
	ck_assert(m1("(ab){2}", "abab"));
	ck_assert(!m1("(ab){2}", "ab"));
	ck_assert(m1("[0-9]{3}", "123"));
	ck_assert(!m1("[0-9]{3}", "12a"));
}
END_TEST

START_TEST(test_fc_dfa_match_alternation)
{
	ck_assert(m1("(foo|bar)baz", "foobaz"));
	ck_assert(m1("(foo|bar)baz", "barbaz"));
	ck_assert(!m1("(foo|bar)baz", "baz"));
	ck_assert(m1("(foo|)baz", "baz"));
	ck_assert(m1("a|b", "b"));
	ck_assert(!m1("a|b", "ab"));
}
END_TEST

START_TEST(test_fc_dfa_match_escapes_and_classes)
{
	ck_assert(m1("a\\.b", "a.b"));
	ck_assert(!m1("a\\.b", "axb"));
	ck_assert(m1("a.b", "a\nb")); /* PCRE2_DOTALL */
	ck_assert(m1("\\d", "7"));
	ck_assert(!m1("\\d", "a"));
	ck_assert(m1("\\s", "\v")); /* \s holds VT since PCRE2 10.0 */
	ck_assert(!m1("\\s", "a"));
	ck_assert(m1("\\w", "_"));
	ck_assert(!m1("\\w", "\xe9"));
	ck_assert(m1("\\W", "\xe9"));
	ck_assert(m1("\\D", "\x80"));
	ck_assert(m1("[]a]", "]"));
	ck_assert(m1("[a-]", "-"));
	ck_assert(!m1("[^-a]", "-"));
	ck_assert(m1("[^-a]", "b"));
	ck_assert(m1("[\\]x]", "]"));
	ck_assert(m1("[\\d_]", "_"));
	ck_assert(!m1("[\\d_]", "a"));
	ck_assert(m1("]}", "]}"));
}
END_TEST

START_TEST(test_fc_dfa_match_high_bytes)
{
	ck_assert(m1("\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9"));
	ck_assert(!m1("\xc3\xa9", "\xc3\xa8"));
	ck_assert(m1("[\x80-\xff]+", "\x90\xff"));
	ck_assert(!m1("[\x80-\xff]", "a"));
	ck_assert(m1(".", "\xff"));
	/* one byte, not one UTF-8 character */
	ck_assert(!m1(".", "\xc3\xa9"));
}
END_TEST

START_TEST(test_fc_dfa_match_priority)
{
	const char *re[] = {".*", "ab", "a.*", "(a|b)b"};

	ck_assert_str_eq(accepts(re, 4, "ab", 2), "3 2 1 0");
	ck_assert_str_eq(accepts(re, 4, "bb", 2), "3 0");
	ck_assert_str_eq(accepts(re, 4, "ac", 2), "2 0");
	ck_assert_str_eq(accepts(re, 4, "", 0), "0");
	/* a key may hold NUL bytes in the middle for the automaton */
	ck_assert_str_eq(accepts(re, 4, "a\0b", 3), "2 0");
}
END_TEST

/* The specs accepting key with modes mode[] (pruning on). */
static const char *accepts_mode(const char *const *re, const uint32_t *mode,
				uint32_t n, const char *key)
{
	static char buf[256];
	uint32_t spec[16], cnt;
	bool in[16];
	struct fc_dfa *a;
	const uint32_t *v;
	size_t o = 0;

	for (uint32_t k = 0; k < n; k++)
		spec[k] = k;
	ck_assert_int_eq(fc_dfa_build(re, spec, mode, n, 100, in, &a), 0);
	v = fc_dfa_match(a, key, strlen(key), &cnt);
	strcpy(buf, "-");
	for (uint32_t k = 0; k < cnt; k++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%u", k ? " " : "",
			      v[k]);
	fc_dfa_free(a);
	return buf;
}

START_TEST(test_fc_dfa_match_prune)
{
	/* Once "a.*" (any file type) matched "a", the lower ".*" and "ab"
	 * can never win: they are dropped.  A directory-only "a.*" hides
	 * nothing of any type, a NODOM one nothing at all. */
	const char *re[] = {".*", "ab", "a.*", "(a|b)b"};
	uint32_t any[] = {0, 0, 0, 0};
	uint32_t dir[] = {0, 0, S_IFDIR, 0};
	uint32_t dir2[] = {S_IFDIR, S_IFDIR, S_IFDIR, 0};
	uint32_t nodom[] = {0, 0, FC_DFA_NODOM, 0};

	ck_assert_str_eq(accepts_mode(re, any, 4, "ab"), "3 2");
	ck_assert_str_eq(accepts_mode(re, any, 4, "bb"), "3 0");
	ck_assert_str_eq(accepts_mode(re, any, 4, "b"), "0");
	ck_assert_str_eq(accepts_mode(re, dir, 4, "ab"), "3 2 1 0");
	ck_assert_str_eq(accepts_mode(re, dir2, 4, "ab"), "3 2");
	ck_assert_str_eq(accepts_mode(re, nodom, 4, "ab"), "3 2 1 0");
}
END_TEST

START_TEST(test_fc_dfa_build_mixed)
{
	/* Unsupported specs are left out, the others still matched. */
	const char *re[] = {"(a)\\1", "a+", "^a"};
	uint32_t spec[] = {7, 5, 3}, mode[3] = {0}, cnt;
	bool in[3];
	struct fc_dfa *a;
	const uint32_t *v;

	ck_assert_int_eq(fc_dfa_build(re, spec, mode, 3, 100, in, &a), 0);
	ck_assert(!in[0]);
	ck_assert(in[1]);
	ck_assert(!in[2]);
	ck_assert_uint_eq(a->acc_top, 5);
	v = fc_dfa_match(a, "aa", 2, &cnt);
	ck_assert_uint_eq(cnt, 1);
	ck_assert_uint_eq(v[0], 5);
	fc_dfa_match(a, "aa/", 3, &cnt);
	ck_assert_uint_eq(cnt, 0);
	fc_dfa_free(a);
}
END_TEST

START_TEST(test_fc_dfa_build_too_many_states)
{
	/* "(a|b)*a(a|b){n}": 2^(n+1) states; 8 states cannot hold n = 4 */
	const char *re[] = {"(a|b)*a(a|b){4}"};
	uint32_t spec[] = {0}, mode[] = {0};
	bool in[1];
	struct fc_dfa *a;

	ck_assert_int_eq(fc_dfa_build(re, spec, mode, 1, 8, in, &a), -E2BIG);
	ck_assert_ptr_null(a);
	ck_assert_int_eq(fc_dfa_build(re, spec, mode, 1, 100, in, &a), 0);
	ck_assert(m1(re[0], "bbabbbb"));
	ck_assert(!m1(re[0], "bbbabbb"));
	fc_dfa_free(a);
}
END_TEST

START_TEST(test_fc_dfa_build_limited_budget)
{
	/* 2^5 states: a budget of one op cannot pay for them, nor for
	 * the start; a large one can, and is charged what it took. */
	const char *re[] = {"(a|b)*a(a|b){4}"};
	uint32_t spec[] = {0}, mode[] = {0};
	uint64_t budget = 1;
	bool in[1];
	struct fc_dfa *a;

	ck_assert_int_eq(
	    fc_dfa_build_limited(re, spec, mode, 1, 100, &budget, in, &a),
	    -ETIME);
	ck_assert_ptr_null(a);
	ck_assert_uint_eq(budget, 0);
	budget = 1000000;
	ck_assert_int_eq(
	    fc_dfa_build_limited(re, spec, mode, 1, 100, &budget, in, &a), 0);
	ck_assert_ptr_nonnull(a);
	ck_assert(in[0]);
	ck_assert_uint_lt(budget, 1000000);
	ck_assert_uint_gt(budget, 0);
	fc_dfa_free(a);
}
END_TEST

START_TEST(test_fc_dfa_match_many_same)
{
	/* Walked side by side, each automaton accepts what it accepts
	 * alone: on every key, every count k of them, a dead walk among
	 * live ones, the empty key. */
	const char *re[][2] = {
	    {"[^/]*", "a.*"}, {"(.*/)?b[0-9]+", "x"},
	    {"c(/.*)?", ".*\\.gz"}, {"[a-z]+/[a-z]+", "(b|c)*"},
	};
	const char *keys[] = {"", "a", "b12", "c/d/e.gz", "q/b7", "bcbc",
			      "x", "ab/cd", "zzz.gz", "/"};
	struct fc_dfa *a[4];
	uint32_t spec[] = {1, 0}, mode[] = {FC_DFA_NODOM, FC_DFA_NODOM};
	bool in[2];

	for (int j = 0; j < 4; j++)
		ck_assert_int_eq(
		    fc_dfa_build(re[j], spec, mode, 2, 100, in, &a[j]), 0);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		size_t n = strlen(keys[i]);

		for (uint32_t k = 1; k <= FC_DFA_LOCKSTEP && k <= 4; k++) {
			const uint32_t *acc[4], *one;
			uint32_t cnt[4], c1;

			fc_dfa_match_many((const struct fc_dfa *const *)a, k,
					  keys[i], n, acc, cnt);
			for (uint32_t j = 0; j < k; j++) {
				one = fc_dfa_match(a[j], keys[i], n, &c1);
				ck_assert_msg(cnt[j] == c1 &&
						  !memcmp(acc[j], one,
							  c1 * sizeof(*one)),
					      "key %s, %u side by side, #%u",
					      keys[i], k, j);
			}
		}
	}
	/* and against the hand-written answers */
	ck_assert_str_eq(accepts(re[0], 2, "a/b", 3), "1");
	ck_assert_str_eq(accepts(re[2], 2, "c/x.gz", 6), "1 0");
	for (int j = 0; j < 4; j++)
		fc_dfa_free(a[j]);
}
END_TEST

START_TEST(test_fc_dfa_build_rows_fit)
{
	/* Rows are 16-bit offsets: states times byte classes above 65536
	 * is too large whatever max_states allows.  "(a|b)*a(a|b){n}" has
	 * about 2^(n+1) states and 3 classes (a, b, the rest): n = 13 fits
	 * (some 16 000 states), n = 14 (some 32 000) does not. */
	const char *re13[] = {"(a|b)*a(a|b){13}"};
	const char *re14[] = {"(a|b)*a(a|b){14}"};
	uint32_t spec[] = {0}, mode[] = {0}, cnt;
	bool in[1];
	struct fc_dfa *a;

	ck_assert_int_eq(fc_dfa_build(re14, spec, mode, 1, 65535, in, &a),
			 -E2BIG);
	ck_assert_ptr_null(a);
	ck_assert_int_eq(fc_dfa_build(re13, spec, mode, 1, 65535, in, &a), 0);
	ck_assert_uint_eq(a->ncls, 3);
	ck_assert_uint_gt(a->nstates, 16384);
	ck_assert_uint_le((size_t)a->nstates * a->ncls, 65536);
	/* the a 14 bytes before the end, and only there */
	fc_dfa_match(a, "bbabbbbbbbbbbbbb", 16, &cnt);
	ck_assert_uint_eq(cnt, 1);
	fc_dfa_match(a, "bbbabbbbbbbbbbbbb", 17, &cnt);
	ck_assert_uint_eq(cnt, 1);
	fc_dfa_match(a, "bbbbabbbbbbbbbbbb", 17, &cnt);
	ck_assert_uint_eq(cnt, 0);
	fc_dfa_free(a);
}
END_TEST

/* ---- lookups through the automaton ---- */

static struct selabel_handle *open_fc(const char *data)
{
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, fx_path("fc")},
	    {SELABEL_OPT_BASEONLY, (char *)1},
	};

	fx_writes("fc", data);
	return selabel_open(SELABEL_CTX_FILE, opt, 2);
}

/* The answer for key: the context, or "ERR <errno>". */
static const char *look(struct selabel_handle *h, const char *key, int mode)
{
	static char buf[256];
	char *con = NULL;

	errno = 0;
	if (selabel_lookup_raw(h, &con, key, mode) < 0) {
		snprintf(buf, sizeof(buf), "ERR %d", errno);
	} else {
		snprintf(buf, sizeof(buf), "%s", con);
		freecon(con);
	}
	return buf;
}

/* Every node of h with its automata (what lookups through it build once
 * they have paid for them): the checks of a test run once with the
 * specs matched one by one, as a fresh handle does, once with these. */
static void build_all(struct selabel_handle *h)
{
	ck_assert_int_eq(fc_index_build_all(h->data), 0);
}

/* checks(h) with the specs matched one by one, then with automata. */
static void both_stages(struct selabel_handle *h,
			void (*checks)(struct selabel_handle *h))
{
	checks(h);
	build_all(h);
	checks(h);
}

static void selabel_lookup_mode_filter_checks(struct selabel_handle *h)
{
	ck_assert_str_eq(look(h, "/p/xy", S_IFDIR), "u:r:dir:s0");
	ck_assert_str_eq(look(h, "/p/xy", S_IFREG), "u:r:reg:s0");
	ck_assert_str_eq(look(h, "/p/xy", 0), "u:r:reg:s0");
	ck_assert_str_eq(look(h, "/p/xa", S_IFREG), "u:r:any:s0");
	ck_assert_str_eq(look(h, "/p/xa", 0), "u:r:dir:s0");
	ck_assert_str_eq(look(h, "/p/xy", S_IFLNK), "u:r:any:s0");
	ck_assert_str_eq(look(h, "/p/q", S_IFDIR), "u:r:any:s0");
	ck_assert_str_eq(look(h, "/q", 0), "ERR 2");
}

START_TEST(test_selabel_lookup_mode_filter)
{
	/* "/p/x.*" (directories only) is a sure match once "x" is read:
	 * it must not hide the lower "/p/.*" from other file types. */
	struct selabel_handle *h = open_fc("/p/.*\tu:r:any:s0\n"
					   "/p/[x].*\t-d\tu:r:dir:s0\n"
					   "/p/[x][yz].*\t--\tu:r:reg:s0\n");

	ck_assert_ptr_nonnull(h);
	both_stages(h, selabel_lookup_mode_filter_checks);
	selabel_close(h);
}
END_TEST

static void selabel_lookup_last_spec_wins_checks(struct selabel_handle *h)
{
	ck_assert_str_eq(look(h, "/s/xaxbx", 0), "u:r:b:s0");
	ck_assert_str_eq(look(h, "/s/xbxax", 0), "u:r:b:s0");
	ck_assert_str_eq(look(h, "/s/xa", 0), "u:r:a:s0");
	ck_assert_str_eq(look(h, "/s/xa/c", 0), "u:r:c:s0");
	ck_assert_str_eq(look(h, "/s/x/y/c/z", 0), "u:r:c:s0");
	ck_assert_str_eq(look(h, "/s/d/e", 0), "ERR 2");
	ck_assert_str_eq(look(h, "/s/n/b", 0), "ERR 2");
	ck_assert_str_eq(look(h, "/s/nb", 0), "u:r:b:s0");
}

START_TEST(test_selabel_lookup_last_spec_wins)
{
	struct selabel_handle *h = open_fc("/s/[^/]*a.*\tu:r:a:s0\n"
					   "/s/[^/]*b.*\tu:r:b:s0\n"
					   "/s/(.*/)?c(/.*)?\tu:r:c:s0\n"
					   "/s/n(/.*)?\t<<none>>\n");

	ck_assert_ptr_nonnull(h);
	both_stages(h, selabel_lookup_last_spec_wins_checks);
	selabel_close(h);
}
END_TEST

static void selabel_lookup_pcre2_fallback_checks1(struct selabel_handle *h)
{
	ck_assert_str_eq(look(h, "/f/bb", 0), "u:r:dfa:s0");
	ck_assert_str_eq(look(h, "/f/bq", 0), "u:r:posix:s0");
	ck_assert_str_eq(look(h, "/f/b1", 0), "u:r:any:s0");
	ck_assert_str_eq(look(h, "/f/cc", 0), "u:r:cplus:s0");
	ck_assert_str_eq(look(h, "/f/c", 0), "u:r:cplus:s0");
}

static void selabel_lookup_pcre2_fallback_checks2(struct selabel_handle *h)
{
	ck_assert_str_eq(look(h, "/f/bb", 0), "u:r:posix:s0");
	ck_assert_str_eq(look(h, "/f/b1", 0), "ERR 2");
	ck_assert_str_eq(look(h, "/f/cc", 0), "ERR 2");
	ck_assert_str_eq(look(h, "/f/bbx", 0), "u:r:backref:s0");
}

START_TEST(test_selabel_lookup_pcre2_fallback)
{
	/* A POSIX class and a possessive quantifier stay with PCRE2 in the
	 * node "/f/", whose other specs the automaton matches; a back
	 * reference is matched on its own (never in a trie node). */
	struct selabel_handle *h = open_fc("/f/.*\tu:r:any:s0\n"
					   "/f/b[[:alpha:]]\tu:r:posix:s0\n"
					   "/f/c*+c\tu:r:possessive:s0\n"
					   "/f/bb[x]?\tu:r:dfa:s0\n"
					   "/f/c[c]\tu:r:cc:s0\n"
					   "/f/[c]+\tu:r:cplus:s0\n");

	ck_assert_ptr_nonnull(h);
	both_stages(h, selabel_lookup_pcre2_fallback_checks1);
	selabel_close(h);
	h = open_fc("/f/[b]b\tu:r:dfa:s0\n"
		    "/f/b[[:alpha:]]\tu:r:posix:s0\n"
		    "/f/c*+c\tu:r:possessive:s0\n"
		    "/f/(b)\\1x\tu:r:backref:s0\n");
	ck_assert_ptr_nonnull(h);
	both_stages(h, selabel_lookup_pcre2_fallback_checks2);
	selabel_close(h);
}
END_TEST

static void selabel_lookup_final_newline_checks(struct selabel_handle *h)
{
	ck_assert_str_eq(look(h, "/n/end\n", 0), "u:r:end:s0");
	ck_assert_str_eq(look(h, "/n/end\n\n", 0), "ERR 2");
	ck_assert_str_eq(look(h, "/n/ax\n", 0), "u:r:x:s0");
	ck_assert_str_eq(look(h, "/n/a\nx", 0), "u:r:x:s0");
}

START_TEST(test_selabel_lookup_final_newline)
{
	/* "$" also matches before a final newline. */
	struct selabel_handle *h = open_fc("/n/e[n]d\tu:r:end:s0\n"
					   "/n/[^/]*x\tu:r:x:s0\n");

	ck_assert_ptr_nonnull(h);
	both_stages(h, selabel_lookup_final_newline_checks);
	selabel_close(h);
}
END_TEST

static void selabel_lookup_many_specs_split_checks(struct selabel_handle *h)
{
	ck_assert_str_eq(look(h, "/w/aw03qbw17qcw05q", S_IFREG), "u:r:w17:s0");
	ck_assert_str_eq(look(h, "/w/w39qw00q", 0), "u:r:w39:s0");
	ck_assert_str_eq(look(h, "/w/w00q", S_IFREG), "u:r:w00:s0");
	ck_assert_str_eq(look(h, "/w/w00q", S_IFDIR), "ERR 2");
	ck_assert_str_eq(look(h, "/w/x/w00q", 0), "ERR 2");
}

START_TEST(test_selabel_lookup_many_specs_split)
{
	/* 40 "[^/]*wordN.*" specs under one prefix: more states than one
	 * automaton may hold, so the node is split; answers unchanged. */
	char buf[4096];
	size_t o = 0;
	struct selabel_handle *h;

	for (int i = 0; i < 40; i++)
		o += snprintf(buf + o, sizeof(buf) - o,
			      "/w/[^/]*w%02dq.*\t--\tu:r:w%02d:s0\n", i, i);
	h = open_fc(buf);
	ck_assert_ptr_nonnull(h);
	both_stages(h, selabel_lookup_many_specs_split_checks);
	selabel_close(h);
}
END_TEST

/* The stage of the node of h whose prefix is pfx. */
static int stage_of(struct selabel_handle *h, const char *pfx)
{
	struct fc_data *d = h->data;

	for (uint32_t k = 0; k < d->trie.nnode; k++) {
		const struct fc_tnode *n = &d->trie.node[k];

		if (n->depth == strlen(pfx) && n->nspecs &&
		    !strncmp(fc_lit(d, &d->ix[fc_node_specs(d, k)[0]]), pfx,
			     n->depth))
			return __atomic_load_n(&d->ns[k].built,
					       __ATOMIC_ACQUIRE);
	}
	return -1;
}

START_TEST(test_selabel_lookup_node_stages)
{
	/* 24 specs under "/t/": a lookup of a short-lived process matches
	 * them one by one (no automaton, no combined regex); lookups that
	 * go on move the node to its combined regex, then its automata;
	 * the answers never change on the way. */
	char buf[4096];
	size_t o = 0;
	struct selabel_handle *h;
	int st;

	for (int i = 0; i < 24; i++)
		o += snprintf(buf + o, sizeof(buf) - o,
			      "/t/[^/]*k%02d(/.*)?\tu:r:k%02d:s0\n", i, i);
	h = open_fc(buf);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/t/ak07", 0), "u:r:k07:s0");
	ck_assert_int_eq(stage_of(h, "/t/"), FC_NODE_COLD);
	for (int i = 0; i < 5000; i++) {
		ck_assert_str_eq(look(h, "/t/ak07/k21", 0), "u:r:k07:s0");
		ck_assert_str_eq(look(h, "/t/k21k03", 0), "u:r:k03:s0");
		ck_assert_str_eq(look(h, "/t/x/k2", 0), "ERR 2");
	}
	st = stage_of(h, "/t/");
	ck_assert(st == FC_NODE_SMALL || st == FC_NODE_BUILT);
	ck_assert_str_eq(look(h, "/t/ak07", 0), "u:r:k07:s0");
	ck_assert_str_eq(look(h, "/t/k23", S_IFREG), "u:r:k23:s0");
	selabel_close(h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_file_dfa");
	TCase *tc;

	tc = tcase_create("fc_dfa");
	tcase_add_test(tc, test_fc_dfa_supported_subset);
	tcase_add_test(tc, test_fc_dfa_match_anchored);
	tcase_add_test(tc, test_fc_dfa_match_optional_subtree);
	tcase_add_test(tc, test_fc_dfa_match_component);
	tcase_add_test(tc, test_fc_dfa_match_braces);
	tcase_add_test(tc, test_fc_dfa_match_alternation);
	tcase_add_test(tc, test_fc_dfa_match_escapes_and_classes);
	tcase_add_test(tc, test_fc_dfa_match_high_bytes);
	tcase_add_test(tc, test_fc_dfa_match_priority);
	tcase_add_test(tc, test_fc_dfa_match_prune);
	tcase_add_test(tc, test_fc_dfa_build_mixed);
	tcase_add_test(tc, test_fc_dfa_build_too_many_states);
	tcase_add_test(tc, test_fc_dfa_build_rows_fit);
	tcase_add_test(tc, test_fc_dfa_build_limited_budget);
	tcase_add_test(tc, test_fc_dfa_match_many_same);
	suite_add_tcase(s, tc);

	tc = tcase_create("selabel_lookup");
	tcase_add_checked_fixture(tc, fx_setup_quiet, fx_teardown);
	tcase_add_test(tc, test_selabel_lookup_mode_filter);
	tcase_add_test(tc, test_selabel_lookup_last_spec_wins);
	tcase_add_test(tc, test_selabel_lookup_pcre2_fallback);
	tcase_add_test(tc, test_selabel_lookup_final_newline);
	tcase_add_test(tc, test_selabel_lookup_many_specs_split);
	tcase_add_test(tc, test_selabel_lookup_node_stages);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
