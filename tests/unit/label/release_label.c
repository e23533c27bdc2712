/*
 * Suites label_release_3_8 and label_release_3_11: the file backend of a
 * library built for 3.8 or 3.11 (libselinux-all-R.a, -Dcompat), where
 * those releases read file_contexts otherwise than 3.4 (issue 27).  The
 * answers were measured with Debian 13's 3.8.1 and sid's 3.11 in their
 * roots (tests/release, cases mp.v5, v5only, prec2, scmp.pairs,
 * sf.W.types, sf.dups), where the release suite holds them to the
 * releases' own programs; here under the sanitizers too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* The release the archive was built for (core/compat.c). */
extern const unsigned core_compat;

/* The log, one line per message: "TYPE message". */
static char logbuf[16384];

static int log_cb(int type, const char *fmt, ...)
{
	size_t n = strlen(logbuf);
	va_list ap;

	if (n + 4 >= sizeof(logbuf))
		return 0;
	snprintf(logbuf + n, sizeof(logbuf) - n, "%d ", type);
	n = strlen(logbuf);
	va_start(ap, fmt);
	vsnprintf(logbuf + n, sizeof(logbuf) - n, fmt, ap);
	va_end(ap);
	return 0;
}

static int validate_ok(char **ctx)
{
	(void)ctx;
	return 0;
}

static void setup(void)
{
	fx_setup();
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){.func_log = log_cb});
	selinux_set_callback(
	    SELINUX_CB_VALIDATE,
	    (union selinux_callback){.func_validate = validate_ok});
	logbuf[0] = '\0';
}

static struct selabel_handle *open_fc(const char *rel, bool validate)
{
	struct selinux_opt o[] = {
	    {SELABEL_OPT_PATH, fx_path(rel)},
	    {SELABEL_OPT_VALIDATE, validate ? (char *)1 : NULL},
	};

	return selabel_open(SELABEL_CTX_FILE, o, 2);
}

static bool r311(void)
{
	return core_compat >= 311;
}

/* A compiled file of version 5 (Debian 12's): its header is all the
 * releases read of it. */
static void write_v5(const char *rel)
{
	uint32_t w[8] = {0xf97cff8aU, 5, 0, 0, 0, 0, 0, 0};
	struct timespec t[2] = {{2000000000, 0}, {2000000000, 0}};

	fx_write(rel, w, sizeof(w));
	ck_assert_int_eq(utimensat(AT_FDCWD, fx_path(rel), t, 0), 0);
}

START_TEST(test_v5_alone_refused)
{
	char want[8192];
	const char *bin = fx_path("v5/fc.bin");

	write_v5("v5/fc.bin");
	errno = 0;
	ck_assert_ptr_null(open_fc("v5/fc", false));
	ck_assert_int_eq(errno, EINVAL);
	/* tried twice, as the file alone is: the message twice */
	snprintf(want, sizeof(want),
		 "%d %s:  Old compiled fcontext format, skipping\n"
		 "%d %s:  Old compiled fcontext format, skipping\n",
		 SELINUX_INFO, bin, SELINUX_INFO, bin);
	ck_assert_str_eq(logbuf, want);
}
END_TEST

START_TEST(test_v5_beside_text)
{
	char want[8192], *con = NULL;
	struct selabel_handle *h;

	fx_writes("v5/fc", "/x\tu:r:text_t:s0\n");
	write_v5("v5/fc.bin"); /* newer than the text: tried first */
	h = open_fc("v5/fc", false);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(selabel_lookup_raw(h, &con, "/x", 0), 0);
	ck_assert_str_eq(con, "u:r:text_t:s0");
	snprintf(want, sizeof(want),
		 "%d %s:  Old compiled fcontext format, skipping\n",
		 SELINUX_INFO, fx_path("v5/fc.bin"));
	ck_assert_str_eq(logbuf, want);
	freecon(con);
	selabel_close(h);
}
END_TEST

static const char *lookup(struct selabel_handle *h, const char *key,
			  mode_t mode)
{
	static char out[256];
	char *con = NULL;

	if (selabel_lookup_raw(h, &con, key, mode) < 0)
		return "ENOENT";
	snprintf(out, sizeof(out), "%s", con);
	freecon(con);
	return out;
}

/* The same literal path in one file and across file_contexts and
 * .local: which spec wins. */
START_TEST(test_literal_precedence)
{
	struct selabel_handle *h;

	fx_writes("p/fc", "/nd\tu:r:first_t:s0\n"
			  "/nd\t-d\tu:r:second_t:s0\n"
			  "/df\t-d\tu:r:first_t:s0\n"
			  "/df\t--\tu:r:second_t:s0\n"
			  "/both\tu:r:base_t:s0\n"
			  "/typed\t-d\tu:r:base_t:s0\n");
	fx_writes("p/fc.local", "/both\tu:r:local_t:s0\n"
				"/typed\tu:r:local_t:s0\n");
	h = open_fc("p/fc", false);
	ck_assert_ptr_nonnull(h);
	if (r311()) {
		/* the first of one file; the later file */
		ck_assert_str_eq(lookup(h, "/nd", 0), "u:r:first_t:s0");
		ck_assert_str_eq(lookup(h, "/df", 0), "u:r:first_t:s0");
		ck_assert_str_eq(lookup(h, "/both", 0), "u:r:local_t:s0");
		ck_assert_str_eq(lookup(h, "/typed", 0), "u:r:local_t:s0");
	} else {
		/* by file type (reg, ..., dir, none), then the first read */
		ck_assert_str_eq(lookup(h, "/nd", 0), "u:r:second_t:s0");
		ck_assert_str_eq(lookup(h, "/df", 0), "u:r:second_t:s0");
		ck_assert_str_eq(lookup(h, "/both", 0), "u:r:base_t:s0");
		ck_assert_str_eq(lookup(h, "/typed", 0), "u:r:base_t:s0");
	}
	ck_assert_str_eq(lookup(h, "/nd", S_IFREG), "u:r:first_t:s0");
	ck_assert_str_eq(lookup(h, "/df", S_IFDIR), "u:r:first_t:s0");
	ck_assert_str_eq(lookup(h, "/typed", S_IFREG), "u:r:local_t:s0");
	selabel_close(h);
}
END_TEST

static const struct {
	const char *a, *b;
	enum selabel_cmp_result res;
	const char *log; /* the messages, each "2 selabel_cmp: ..." */
} pairs[] = {
    {"/a.*\tu:r:e_t:s0\n/b.*\tu:r:e_t:s0\n", "/b.*\tu:r:e_t:s0\n",
     SELABEL_SUPERSET, ""},
    {"/b.*\tu:r:e_t:s0\n", "/a.*\tu:r:e_t:s0\n/b.*\tu:r:e_t:s0\n",
     SELABEL_SUBSET, ""},
    /* contexts are not compared */
    {"/a.*\tu:r:e_t:s0\n", "/a.*\tu:r:other_t:s0\n", SELABEL_EQUAL, ""},
    /* literal specs in any order */
    {"/x\tu:r:e_t:s0\n/y\tu:r:e_t:s0\n", "/y\tu:r:e_t:s0\n/x\tu:r:e_t:s0\n",
     SELABEL_EQUAL, ""},
    {"/a.*\tu:r:e_t:s0\n/b.*\tu:r:e_t:s0\n",
     "/b.*\tu:r:e_t:s0\n/a.*\tu:r:e_t:s0\n", SELABEL_INCOMPARABLE,
     "2 selabel_cmp: mismatch regex left remnant in stem (root) entry 1: "
     "(/b.*, wildcard, u:r:e_t:s0)\n"},
    {"/a.*\tu:r:e_t:s0\n", "/a.*\t-d\tu:r:e_t:s0\n", SELABEL_INCOMPARABLE,
     "2 selabel_cmp: mismatched regex in stem (root) on regex entry 0: "
     "(/a.*, wildcard, u:r:e_t:s0) vs entry 0: (/a.*, directory, "
     "u:r:e_t:s0)\n"},
    {"/x\tu:r:e_t:s0\n", "/x\t-d\tu:r:e_t:s0\n", SELABEL_INCOMPARABLE,
     "2 selabel_cmp: mismatch literal left remnant in stem (root)\n"},
    {"/x\tu:r:e_t:s0\n/z\tu:r:e_t:s0\n", "/y\tu:r:e_t:s0\n/z\tu:r:e_t:s0\n",
     SELABEL_INCOMPARABLE,
     "2 selabel_cmp: mismatched literal_str in stem (root) on literal "
     "entry 1: (/z, wildcard, u:r:e_t:s0) vs entry 0: (/y, wildcard, "
     "u:r:e_t:s0)\n"},
    {"/usr/lib/a.*\tu:r:e_t:s0\n", "/usr/lib/b.*\tu:r:e_t:s0\n",
     SELABEL_INCOMPARABLE,
     "2 selabel_cmp: mismatched regex in stem lib on regex entry 0: "
     "(/usr/lib/a.*, wildcard, u:r:e_t:s0) vs entry 0: (/usr/lib/b.*, "
     "wildcard, u:r:e_t:s0)\n"
     "2 selabel_cmp: mismatch child node lib stem usr\n"
     "2 selabel_cmp: mismatch child node usr stem (root)\n"},
    {"/k/a/x\tu:r:e_t:s0\n/k/c/x\tu:r:e_t:s0\n",
     "/k/b/x\tu:r:e_t:s0\n/k/c/x\tu:r:e_t:s0\n", SELABEL_INCOMPARABLE,
     "2 selabel_cmp: mismatch right remnant child node c stem k\n"
     "2 selabel_cmp: mismatch child node k stem (root)\n"},
    {"/usr/lib/x\tu:r:e_t:s0\n", "/etc/q\tu:r:e_t:s0\n", SELABEL_INCOMPARABLE,
     "2 selabel_cmp: mismatch child left remnant in stem (root)\n"},
};

START_TEST(test_cmp)
{
	struct selabel_handle *a, *b;

	fx_writes("c/a", pairs[_i].a);
	fx_writes("c/b", pairs[_i].b);
	a = open_fc("c/a", false);
	b = open_fc("c/b", false);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(selabel_cmp(a, b), pairs[_i].res);
	ck_assert_str_eq(logbuf, pairs[_i].log);
	selabel_close(a);
	selabel_close(b);
}
END_TEST

/* A literal path with two file types: 3.8 holds them by type, 3.11 as
 * read, and the comparison walks them in that order. */
START_TEST(test_cmp_literal_order)
{
	struct selabel_handle *a, *b;

	fx_writes("c/a", "/x\t-d\tu:r:e_t:s0\n/x\t--\tu:r:e_t:s0\n");
	fx_writes("c/b", "/x\t--\tu:r:e_t:s0\n");
	a = open_fc("c/a", false);
	b = open_fc("c/b", false);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	if (r311()) {
		ck_assert_int_eq(selabel_cmp(a, b), SELABEL_INCOMPARABLE);
		ck_assert_str_eq(logbuf, "2 selabel_cmp: mismatch literal left "
					 "remnant in stem (root)\n");
	} else {
		ck_assert_int_eq(selabel_cmp(a, b), SELABEL_SUPERSET);
		ck_assert_str_eq(logbuf, "");
	}
	selabel_close(a);
	selabel_close(b);
}
END_TEST

START_TEST(test_stats)
{
	struct selabel_handle *h;
	char *con = NULL;

	fx_writes("s/fc", "/w/b/c/d/e\t--\tu:r:e_t:s0\n"
			  "/w/r.*\t-c\tu:r:e_t:s0\n"
			  "/w/s.*\t-b\tu:r:e_t:s0\n"
			  "/w/t.*\t-s\tu:r:e_t:s0\n"
			  "/w/u.*\t-p\tu:r:e_t:s0\n"
			  "/w/v.*\t-l\tu:r:e_t:s0\n"
			  "/w/lost\\+found\t-d\tu:r:e_t:s0\n"
			  "/w/a\tu:r:e_t:s0\n"
			  "/a(/.*)?\tu:r:b_t:s0\n");
	h = open_fc("s/fc", false);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(selabel_lookup_raw(h, &con, "/a/x", 0), 0);
	freecon(con);
	selabel_stats(h);
	ck_assert_str_eq(
	    logbuf,
	    "1 Warning!  No matches for (/w/a, wildcard, u:r:e_t:s0)\n"
	    "1 Warning!  No matches for (/w/lost\\+found, directory, "
	    "u:r:e_t:s0)\n"
	    "1 Warning!  No matches for (/w/r.*, character-device, "
	    "u:r:e_t:s0)\n"
	    "1 Warning!  No matches for (/w/s.*, block-device, u:r:e_t:s0)\n"
	    "1 Warning!  No matches for (/w/t.*, sock-file, u:r:e_t:s0)\n"
	    "1 Warning!  No matches for (/w/u.*, fifo-file, u:r:e_t:s0)\n"
	    "1 Warning!  No matches for (/w/v.*, symlink, u:r:e_t:s0)\n"
	    "1 Warning!  No matches for (/w/b/c/d/e, regular-file, "
	    "u:r:e_t:s0)\n");
	selabel_close(h);
}
END_TEST

START_TEST(test_dups)
{
	fx_writes("d/fc", "/d/x\tu:r:e_t:s0\n"
			  "/d/x\t-d\tu:r:b_t:s0\n"
			  "/d/x\t--\tu:r:e_t:s0\n"
			  "/d/x\t-d\tu:r:e_t:s0\n"
			  "/r.*\tu:r:e_t:s0\n"
			  "/r.*\t-d\tu:r:e_t:s0\n");
	errno = 0;
	ck_assert_ptr_null(open_fc("d/fc", true));
	ck_assert_int_eq(errno, EINVAL);
	char want[4096];
	const char *p = fx_path("d/fc");

	if (r311())
		snprintf(want, sizeof(want),
			 "0 %s: Multiple same specifications for wildcard "
			 "/r.*.\n"
			 "0 %s: Multiple different specifications for "
			 "wildcard /d/x  (u:r:e_t:s0 and u:r:b_t:s0).\n",
			 p, p);
	else
		snprintf(want, sizeof(want),
			 "0 %s: Multiple same specifications for wildcard "
			 "/r.*.\n"
			 "0 %s: Multiple different specifications for "
			 "directory /d/x  (u:r:b_t:s0 and u:r:e_t:s0).\n"
			 "0 %s: Multiple same specifications for directory "
			 "/d/x.\n",
			 p, p, p);
	ck_assert_str_eq(logbuf, want);
}
END_TEST

static Suite *suite(void)
{
	Suite *s =
	    suite_create(r311() ? "label_release_3_11" : "label_release_3_8");
	TCase *tc = tcase_create("file");

	tcase_add_checked_fixture(tc, setup, fx_teardown);
	tcase_add_test(tc, test_v5_alone_refused);
	tcase_add_test(tc, test_v5_beside_text);
	tcase_add_test(tc, test_literal_precedence);
	tcase_add_loop_test(tc, test_cmp, 0,
			    (int)(sizeof(pairs) / sizeof(pairs[0])));
	tcase_add_test(tc, test_cmp_literal_order);
	tcase_add_test(tc, test_stats);
	tcase_add_test(tc, test_dups);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
