/*
 * Suite label_file_grammar: what a file_contexts line may hold, and the
 * escapes in a spec's fixed prefix.  Each expectation is written by hand
 * from the reference's rules (the stem is the raw first component; a
 * byte >= 0x80 in the first three fields refuses the file; every spec is
 * matched as "^regex$"; a regex PCRE2 refuses fails the lookups that
 * reach it).  Issue 15's crash and its inputs are here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <utime.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* Open fx_root/fc holding len bytes of data; NULL and errno on failure. */
static struct selabel_handle *open_fc(const char *data, size_t len)
{
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, fx_path("fc")},
	    {SELABEL_OPT_BASEONLY, (char *)1},
	};

	fx_write("fc", data, len);
	errno = 0;
	return selabel_open(SELABEL_CTX_FILE, opt, 2);
}

#define OPEN(s) open_fc(s, sizeof(s) - 1)

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

#define ENOENT_S "ERR 2"

/* Issue 15: a fixed prefix holding "\/" ------------------------------- */

START_TEST(test_selabel_lookup_escaped_slash_two_lines)
{
	/* The reproducer: it crashed (a read past the regex).  Neither spec
	 * can match: "/\/" only matches "//", which a key never is after
	 * normalisation; the stem of "/a\/b" is the raw "/a\", which no
	 * key's first component equals. */
	struct selabel_handle *h = OPEN("/\\/\tsystem_u:object_r:root_t:s0\n"
					"/a\\/b\tsystem_u:object_r:etc_t:s0\n");

	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/", 0), ENOENT_S);
	ck_assert_str_eq(look(h, "/a/b", 0), ENOENT_S);
	ck_assert_str_eq(look(h, "/a/b", S_IFREG), ENOENT_S);
	ck_assert_str_eq(look(h, "/a\\/b", 0), ENOENT_S);
	selabel_close(h);
}
END_TEST

START_TEST(test_selabel_lookup_escaped_slash_fuzz_input)
{
	/* The fuzzer's minimal input: "\/", TAB, 0xff.  The reference
	 * refuses the byte 0xff.  With an ASCII context the spec is all
	 * escapes: its stem is the raw "\" before the '/', so no key
	 * starting with '/' is a candidate, and "\/x" is one the regex
	 * ("^\/$": just "/") does not match. */
	struct selabel_handle *h = OPEN("\\/\t\xff");

	ck_assert_ptr_null(h);
	ck_assert_int_eq(errno, EINVAL);
	h = OPEN("\\/\tu:r:t:s0");
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/", 0), ENOENT_S);
	ck_assert_str_eq(look(h, "//", 0), ENOENT_S);
	ck_assert_str_eq(look(h, "\\/x", 0), ENOENT_S);
	selabel_close(h);
}
END_TEST

START_TEST(test_selabel_lookup_escapes_in_and_after_prefix)
{
	struct selabel_handle *h = OPEN("/usr/a\\.b/.*\tu:r:dot:s0\n"
					"/usr/x\\/y(/.*)?\tu:r:slash:s0\n"
					"/opt\\-z/q\tu:r:dash:s0\n"
					"/srv/k\\.conf\tu:r:lit:s0\n"
					"/srv/k.\\.d/x\\.y\tu:r:after:s0\n");

	ck_assert_ptr_nonnull(h);
	/* "\." in the prefix is a literal dot. */
	ck_assert_str_eq(look(h, "/usr/a.b/c", 0), "u:r:dot:s0");
	ck_assert_str_eq(look(h, "/usr/axb/c", 0), ENOENT_S);
	/* "\/" after the stem: the stem "/usr" still holds. */
	ck_assert_str_eq(look(h, "/usr/x/y", 0), "u:r:slash:s0");
	ck_assert_str_eq(look(h, "/usr/x/y/z", 0), "u:r:slash:s0");
	ck_assert_str_eq(look(h, "/usr/x", 0), ENOENT_S);
	/* A stem with a backslash ("/opt\-z") never equals a key's. */
	ck_assert_str_eq(look(h, "/opt-z/q", 0), ENOENT_S);
	/* A literal spec with an escaped dot, exact only. */
	ck_assert_str_eq(look(h, "/srv/k.conf", 0), "u:r:lit:s0");
	ck_assert_str_eq(look(h, "/srv/kxconf", 0), ENOENT_S);
	/* An escape after the first meta character. */
	ck_assert_str_eq(look(h, "/srv/kQ.d/x.y", 0), "u:r:after:s0");
	ck_assert_str_eq(look(h, "/srv/kQ.d/xzy", 0), ENOENT_S);
	selabel_close(h);
}
END_TEST

/* The line grammar ----------------------------------------------------- */

START_TEST(test_selabel_open_non_ascii_refused)
{
	/* In the regex, the file type or the context: EINVAL. */
	ck_assert_ptr_null(OPEN("/a\xc3\xa9\tu:r:t:s0\n"));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(OPEN("/a\t-\xff\tu:r:t:s0\n"));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(OPEN("/a\tu:r:t\x80:s0\n"));
	ck_assert_int_eq(errno, EINVAL);
	/* A leading 0xa0 is no space: it starts the regex. */
	ck_assert_ptr_null(OPEN("\xa0/a\tu:r:t:s0\n"));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selabel_open_non_ascii_where_not_read)
{
	/* In a comment, or in a fourth field (never read): accepted. */
	struct selabel_handle *h =
	    OPEN("# caf\xc3\xa9\n/a\t--\tu:r:t:s0\t\xff\n");

	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/a", S_IFREG), "u:r:t:s0");
	selabel_close(h);
	/* Without a type, the third field is the context, 0xff the fourth
	 * read: refused. */
	ck_assert_ptr_null(OPEN("/a\tu:r:t:s0\t\xff\n"));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_selabel_open_nul_cr_and_spaces)
{
	/* A NUL ends its line; CR, VT and FF are spaces; the last line
	 * needs no newline. */
	static const char data[] = "/a\tu:r:a:s0\0 garbage\n"
				   "/b\r\tu:r:b:s0\r\n"
				   "\v/c\f--\fu:r:c:s0\v\n"
				   "\0/d\tu:r:d:s0\n"
				   "/e\tu:r:e:s0";
	struct selabel_handle *h = open_fc(data, sizeof(data) - 1);

	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/a", 0), "u:r:a:s0");
	ck_assert_str_eq(look(h, "/b", 0), "u:r:b:s0");
	ck_assert_str_eq(look(h, "/c", S_IFREG), "u:r:c:s0");
	ck_assert_str_eq(look(h, "/c", S_IFDIR), ENOENT_S);
	ck_assert_str_eq(look(h, "/d", 0), ENOENT_S);
	ck_assert_str_eq(look(h, "/e", 0), "u:r:e:s0");
	selabel_close(h);
}
END_TEST

START_TEST(test_selabel_lookup_too_large_for_pcre2)
{
	/* A literal of 70000 characters compiles past PCRE2's 64 KiB:
	 * every lookup reaching it fails, even of a key it does not
	 * start; a lower spec is not consulted ("/a" would answer).  It
	 * fails with ENOENT, as the reference's does in practice (it sets
	 * no errno: what is left is the ENOENT of a file it looked for,
	 * so matchpathcon prints <<none>> and restorecon skips). */
	size_t n = 70000;
	char *big = malloc(n + 64);
	struct selabel_handle *h;

	ck_assert_ptr_nonnull(big);
	strcpy(big, "/a\tu:r:a:s0\n/l");
	memset(big + strlen(big), 'o', n);
	strcpy(big + 14 + n, "\tu:r:big:s0\n");
	h = open_fc(big, strlen(big));
	free(big);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/a", 0), ENOENT_S);
	ck_assert_str_eq(look(h, "/x", 0), ENOENT_S);
	selabel_close(h);
	/* The same for a short regex whose repeated group compiles too
	 * large, for the keys its stem ("/z") lets through.  (Repeats of
	 * single characters, "a{20000}", compile small.) */
	h = OPEN("/a\tu:r:a:s0\n/z/(?:abcdefgh){10000}\tu:r:z:s0\n"
		 "/y/a{20000}b{20000}\tu:r:y:s0\n");
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/a", 0), "u:r:a:s0");
	ck_assert_str_eq(look(h, "/z/x", 0), ENOENT_S);
	ck_assert_str_eq(look(h, "/zz", 0), ENOENT_S);
	ck_assert_str_eq(look(h, "/y/x", 0), ENOENT_S);
	selabel_close(h);
}
END_TEST

START_TEST(test_selabel_open_subset_before_type_check)
{
	/* SUBSET drops a line before its file type is checked. */
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, fx_path("fc")},
	    {SELABEL_OPT_SUBSET, "/a"},
	};
	struct selabel_handle *h;

	fx_writes("fc", "/b/x\t-q\tu:r:b:s0\n/a/x\tu:r:a:s0\n");
	h = selabel_open(SELABEL_CTX_FILE, opt, 2);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/a/x", 0), "u:r:a:s0");
	selabel_close(h);
}
END_TEST

START_TEST(test_selabel_open_empty_bin_falls_back)
{
	/* A compiled file without specs counts as a failed load: the
	 * (older) text is read instead, and without one: ENOENT. */
	static const unsigned char empty_bin[] = {
	    0x8a, 0xff, 0x7c, 0xf9, 5,	 0,   0,   0, /* magic, version 5 */
	    3,	  0,	0,    0,    '1', '0', '.',    /* PCRE2 version */
	    6,	  0,	0,    0,    '8', '-', '8', '-', 'e', 'l', /* arch */
	    0,	  0,	0,    0,				  /* no stems */
	    0,	  0,	0,    0,				  /* no specs */
	};
	struct selinux_opt opt[] = {{SELABEL_OPT_PATH, fx_path("fc")}};
	struct selabel_handle *h;
	struct utimbuf old;

	fx_write("fc.bin", empty_bin, sizeof(empty_bin));
	errno = 0;
	ck_assert_ptr_null(selabel_open(SELABEL_CTX_FILE, opt, 1));
	ck_assert_int_eq(errno, ENOENT);
	fx_writes("fc", "/a\tu:r:a:s0\n");
	old.modtime = old.actime = time(NULL) - 3600;
	ck_assert_int_eq(utime(fx_path("fc"), &old), 0);
	h = selabel_open(SELABEL_CTX_FILE, opt, 1);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/a", 0), "u:r:a:s0");
	selabel_close(h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_file_grammar");
	TCase *tc;

	tc = tcase_create("selabel_lookup");
	tcase_add_checked_fixture(tc, fx_setup_quiet, fx_teardown);
	tcase_add_test(tc, test_selabel_lookup_escaped_slash_two_lines);
	tcase_add_test(tc, test_selabel_lookup_escaped_slash_fuzz_input);
	tcase_add_test(tc, test_selabel_lookup_escapes_in_and_after_prefix);
	tcase_add_test(tc, test_selabel_lookup_too_large_for_pcre2);
	suite_add_tcase(s, tc);

	tc = tcase_create("selabel_open");
	tcase_add_checked_fixture(tc, fx_setup_quiet, fx_teardown);
	tcase_add_test(tc, test_selabel_open_non_ascii_refused);
	tcase_add_test(tc, test_selabel_open_non_ascii_where_not_read);
	tcase_add_test(tc, test_selabel_open_nul_cr_and_spaces);
	tcase_add_test(tc, test_selabel_open_subset_before_type_check);
	tcase_add_test(tc, test_selabel_open_empty_bin_falls_back);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
