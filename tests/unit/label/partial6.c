/*
 * Suite label_partial6: selabel_hash_all_partial_matches (the digest
 * restorecon keeps in security.sehash) of a library built for 3.8 or
 * 3.11 (-DREL=308 or 311; linked with libselinux-R.a): which specs it
 * hashes, in which order, with which bytes.  Each expected list below is
 * what the release's own selabel_get_digests_all_partial_matches gave
 * (Debian 13's 3.8.1, sid's 3.11) on the same file and key, the order of
 * the specs found by comparing its SHA1 with those of candidate lists;
 * per spec: its regex and NUL, its file kind as one byte (0 any, 1 dir,
 * 2 chr, 3 blk, 4 sock, 5 fifo, 6 lnk, 7 reg), its context and NUL.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "fixture.h"
#include "label/internal.h"

#ifndef REL
#error "REL (308 or 311) must be given"
#endif

struct spec {
	const char *regex, *type, *ctx;
	uint8_t kind;
};

#define END {NULL, NULL, NULL, 0}

/* Specs in several nodes of the version 6 tree: the root, "srv",
 * "srv/t" and below. */
static const struct spec e5[] = {
    {"/.*", "", "u:r:default_t:s0", 0},		      /* 1 */
    {"/srv(/.*)?", "", "u:r:a_t:s0", 0},	      /* 2 */
    {"/srv/t(/.*)?", "", "u:r:var_t:s0", 0},	      /* 3 */
    {"/srv/t/x", "--", "u:r:etc_t:s0", 7},	      /* 4 */
    {"/srv/t/y", "", "u:r:bin_t:s0", 0},	      /* 5 */
    {"/srv/t/d(/.*)?", "", "u:r:usr_t:s0", 0},	      /* 6 */
    {"/srv/t/d/e/f", "", "u:r:lib_t:s0", 0},	      /* 7 */
    {"/srv/t", "-d", "u:r:tmp_t:s0", 1},	      /* 8 */
    {"/srv/u(/.*)?", "", "u:r:man_t:s0", 0},	      /* 9 */
    {"/srv/t/a/b/c/d(/.*)?", "", "u:r:src_t:s0", 0}, /* 10 */
    {"/srv/[^/]+/z", "", "u:r:shadow_t:s0", 0},      /* 11 */
    END};

/* Literal specs sorted, one path with three file types, regexes. */
static const struct spec e6[] = {
    {"/srv/t/b/c/d", "", "u:r:a1_t:s0", 0},	 /* 1 */
    {"/srv/t/a", "", "u:r:a2_t:s0", 0},		 /* 2 */
    {"/srv/t/b/x(/.*)?", "", "u:r:a3_t:s0", 0},	 /* 3 */
    {"/srv/a/q", "", "u:r:a4_t:s0", 0},		 /* 4 */
    {"/srv/t/a/z(/.*)?", "", "u:r:a5_t:s0", 0},	 /* 5 */
    {"/srv/zz", "", "u:r:a6_t:s0", 0},		 /* 6 */
    {"/srv/aa", "", "u:r:a7_t:s0", 0},		 /* 7 */
    {"/srv/.*", "", "u:r:a8_t:s0", 0},		 /* 8 */
    {"/srv/b.*", "", "u:r:a9_t:s0", 0},		 /* 9 */
    {"/srv", "-d", "u:r:a10_t:s0", 1},		 /* 10 */
    {"/srv", "--", "u:r:a11_t:s0", 7},		 /* 11 */
    {"/srv", "", "u:r:a12_t:s0", 0},		 /* 12 */
    {"/s.*", "", "u:r:a13_t:s0", 0},		 /* 13 */
    {"/srv/t/b/c/d", "-d", "u:r:a14_t:s0", 1},	 /* 14 */
    END};

/* Nodes whose first component only starts with the key's last one. */
static const struct spec e12[] = {
    {"/srv/tt/x", "", "u:r:g1_t:s0", 0},      /* 1 */
    {"/srv/t/x", "", "u:r:g2_t:s0", 0},	      /* 2 */
    {"/srv/ta/.*", "", "u:r:g3_t:s0", 0},     /* 3 */
    {"/srv/t/y(/.*)?", "", "u:r:g4_t:s0", 0}, /* 4 */
    {"/srv/s/x", "", "u:r:g5_t:s0", 0},	      /* 5 */
    {"/.*", "", "u:r:g6_t:s0", 0},	      /* 6 */
    {"/srv/t/q/w", "", "u:r:g7_t:s0", 0},     /* 7 */
    {"/srv/tb", "", "u:r:g8_t:s0", 0},	      /* 8 */
    END};

/* A "<<none>>" spec among them. */
static const struct spec e13[] = {
    {"/srv/t", "-d", "u:r:h1_t:s0", 1}, /* 1 */
    {"/srv/t(/.*)?", "", "<<none>>", 0}, /* 2 */
    {"/.*", "", "u:r:h3_t:s0", 0},	 /* 3 */
    END};

static void setup(void)
{
	fx_setup();
}

static void teardown(void)
{
	fx_teardown();
}

/* The digest of f's specs want[] (lines, 0-terminated; {0}: none) for
 * key, against the library's. */
static void check(const struct spec *f, const char *key, const int *want)
{
	char text[2048] = "";
	struct selabel_handle *h;
	struct selinux_opt opt = {SELABEL_OPT_PATH, NULL};
	uint8_t got[LBL_SHA1_LEN], exp[LBL_SHA1_LEN];
	struct lbl_sha1 sha;
	bool have;

	for (int i = 0; f[i].regex; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "%s\t%s\t%s\n", f[i].regex, f[i].type, f[i].ctx);
	fx_writes("fc", text);
	opt.value = fx_path("fc");
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	ck_assert_ptr_nonnull(h);
	have = selabel_hash_all_partial_matches(h, key, got);
	selabel_close(h);
	if (!want[0]) {
		ck_assert_msg(!have, "%s: a digest, want none", key);
		return;
	}
	ck_assert_msg(have, "%s: no digest", key);
	lbl_sha1_init(&sha);
	for (int k = 0; want[k]; k++) {
		const struct spec *s = &f[want[k] - 1];

		lbl_sha1_update(&sha, s->regex, strlen(s->regex) + 1);
		lbl_sha1_update(&sha, &s->kind, 1);
		lbl_sha1_update(&sha, s->ctx, strlen(s->ctx) + 1);
	}
	lbl_sha1_final(&sha, exp);
	ck_assert_msg(!memcmp(got, exp, LBL_SHA1_LEN),
		      "%s: another digest than that of the lines expected",
		      key);
}

#if REL >= 311
/* 3.11: the subtrees under the key's last component first (their first
 * components descending, each in order, literal specs sorted, then
 * regex specs by line), then the chain from the key's directory up to
 * the root (literal specs sorted, regex specs the last line first);
 * <<none>> left out. */
static const int want_e5[] = {4, 5, 6, 10, 7, 8, 11, 3, 2, 1, 0};
static const int want_e6[] = {7, 6, 8, 9, 4, 2, 5, 1, 14, 3, 10, 11, 12, 13, 0};
static const int want_e6_root[] = {7, 6, 8, 9, 4, 2, 5, 1, 14, 3, 10, 11, 12, 13, 0};
static const int want_e12[] = {1, 3, 2, 4, 7, 8, 6, 0};
static const int want_e13[] = {1, 3, 0};
#else
/* 3.8.1: only the chain; literal specs of one path by file kind, 7
 * down to 1, the wildcard last; a <<none>> spec: no digest. */
static const int want_e5[] = {8, 11, 3, 2, 1, 0};
static const int want_e6[] = {11, 10, 12, 13, 0};
static const int want_e6_root[] = {11, 10, 12, 13, 0};
static const int want_e12[] = {8, 6, 0};
static const int want_e13[] = {0};
#endif

START_TEST(test_hash_all_partial_nodes)
{
	check(e5, "/srv/t", want_e5);
	/* the key normalised first */
	check(e5, "//srv/t/", want_e5);
}
END_TEST

START_TEST(test_hash_all_partial_literals_sorted)
{
	check(e6, "/srv", want_e6);
	check(e6, "/", want_e6_root);
}
END_TEST

START_TEST(test_hash_all_partial_prefix_nodes)
{
	check(e12, "/srv/t", want_e12);
}
END_TEST

START_TEST(test_hash_all_partial_none)
{
	check(e13, "/srv/t", want_e13);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_partial6");
	TCase *tc = tcase_create("selabel_hash_all_partial_matches");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_hash_all_partial_nodes);
	tcase_add_test(tc, test_hash_all_partial_literals_sorted);
	tcase_add_test(tc, test_hash_all_partial_prefix_nodes);
	tcase_add_test(tc, test_hash_all_partial_none);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
