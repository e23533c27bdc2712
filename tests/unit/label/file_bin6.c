/*
 * Suite label_file_bin6: compiled file_contexts.bin version 6 (the
 * big-endian tree of libselinux 3.8 and later), read and written, and
 * compiled files of versions we do not read.  The version 6 files here
 * are built byte by byte from specs written by hand (not by our
 * writer), laid out as 3.8's sefcontext_compile lays them out; each
 * expected answer is written by hand from the rules: a literal spec
 * wins over any regex spec, else the matching regex spec of the highest
 * source line, whatever node holds it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
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
#include "label/file/file.h"
#include "label/internal.h"

static int nlogs;
static char last_log[512];

static int count_log(int type, const char *fmt, ...)
{
	va_list ap;

	(void)type;
	va_start(ap, fmt);
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
	va_end(ap);
	nlogs++;
	return 0;
}

static void setup(void)
{
	union selinux_callback cb = {.func_log = count_log};

	selinux_set_callback(SELINUX_CB_LOG, cb);
	nlogs = 0;
	last_log[0] = '\0';
	fx_setup();
}

static void teardown(void)
{
	fx_teardown();
}

/* A file under construction, big-endian. */
struct buf {
	uint8_t b[4096];
	size_t n;
};

static void u8(struct buf *b, uint8_t v)
{
	ck_assert_uint_lt(b->n, sizeof(b->b));
	b->b[b->n++] = v;
}

static void be16(struct buf *b, uint16_t v)
{
	u8(b, v >> 8);
	u8(b, v);
}

static void be32(struct buf *b, uint32_t v)
{
	be16(b, v >> 16);
	be16(b, v);
}

static void bytes(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		u8(b, s[i]);
}

/* u16 len + s + NUL (len counts the NUL): strings of specs and nodes. */
static void str16(struct buf *b, const char *s)
{
	be16(b, strlen(s) + 1);
	bytes(b, s, strlen(s) + 1);
}

/* Magic, version 6, PCRE2 version, arch, spec count, context table. */
static void head6(struct buf *b, uint64_t nspecs, const char *const *ctx)
{
	uint32_t n = 0;

	be32(b, 0xf97cff8a);
	be32(b, 6);
	be32(b, 5);
	bytes(b, "10.42", 5);
	be32(b, 6);
	bytes(b, "8-8-el", 6);
	be32(b, nspecs >> 32);
	be32(b, nspecs);
	while (ctx[n])
		n++;
	be32(b, n);
	for (uint32_t i = 0; i < n; i++) {
		be16(b, strlen(ctx[i]));
		bytes(b, ctx[i], strlen(ctx[i]));
	}
}

static void lit(struct buf *b, uint32_t ctx, const char *regex,
		const char *literal, uint8_t kind)
{
	be32(b, ctx);
	str16(b, regex);
	str16(b, literal);
	u8(b, kind);
}

/* A regex spec without a serialized regex (as "sefcontext_compile -r"
 * writes it). */
static void rx(struct buf *b, uint32_t ctx, uint32_t line, const char *regex,
	       uint16_t prefix_len, uint8_t kind)
{
	be32(b, ctx);
	be32(b, line);
	str16(b, regex);
	be16(b, prefix_len);
	u8(b, kind);
	be32(b, 0);
}

static struct selabel_handle *open_path(const char *rel)
{
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, fx_path(rel)},
	    {SELABEL_OPT_BASEONLY, (char *)1},
	};

	errno = 0;
	return selabel_open(SELABEL_CTX_FILE, opt, 2);
}

/* fx_root/fc.bin alone holding b. */
static struct selabel_handle *open_bin(const struct buf *b)
{
	fx_write("fc.bin", b->b, b->n);
	return open_path("fc");
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

#define ENOENT_S "ERR 2"

/*
 * The file of:
 *   1  /.*                 u:r:root:s0
 *   2  /etc/passwd   --    u:r:pw:s0
 *   3  /etc/.*\.conf       u:r:conf:s0
 *   4  /etc(/.*)?          u:r:etc:s0
 *   5  /etc/.*\.cf         u:r:cf:s0
 *   6  /etc/shadow         <<none>>
 *   7  /etc/rc\.d/x        u:r:rc:s0
 * laid out by 3.8: lines 1 and 4 in the root ("etc(" is no plain
 * component), the rest in node "etc", literal specs sorted.
 */
static void tree_file(struct buf *b)
{
	static const char *const ctx[] = {
	    "u:r:root:s0", "u:r:etc:s0",  "u:r:pw:s0", "u:r:rc:s0",
	    "<<none>>",	   "u:r:conf:s0", "u:r:cf:s0", NULL};

	head6(b, 7, ctx);
	str16(b, ""); /* root */
	be32(b, 0);
	be32(b, 2);
	rx(b, 1, 1, "/.*", 1, 0);
	rx(b, 2, 4, "/etc(/.*)?", 4, 0);
	be32(b, 1);
	str16(b, "etc");
	be32(b, 3);
	lit(b, 3, "/etc/passwd", "/etc/passwd", 7);
	lit(b, 4, "/etc/rc\\.d/x", "/etc/rc.d/x", 0);
	lit(b, 5, "/etc/shadow", "/etc/shadow", 0);
	be32(b, 2);
	rx(b, 6, 3, "/etc/.*\\.conf", 5, 0);
	rx(b, 7, 5, "/etc/.*\\.cf", 5, 0);
	be32(b, 0);
}

START_TEST(test_selabel_lookup_bin6_tree)
{
	struct buf b = {.n = 0};
	struct selabel_handle *h;

	tree_file(&b);
	h = open_bin(&b);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(nlogs, 0);
	ck_assert_str_eq(look(h, "/etc/passwd", S_IFREG), "u:r:pw:s0");
	ck_assert_str_eq(look(h, "/etc/passwd", 0), "u:r:pw:s0");
	/* Not a regular file: the literal does not fit, line 4 does. */
	ck_assert_str_eq(look(h, "/etc/passwd", S_IFDIR), "u:r:etc:s0");
	ck_assert_str_eq(look(h, "/etc/shadow", S_IFREG), ENOENT_S);
	ck_assert_str_eq(look(h, "/etc/rc.d/x", 0), "u:r:rc:s0");
	ck_assert_str_eq(look(h, "/etc/rcxd/x", 0), "u:r:etc:s0");
	/* Line 4 (root node) is later than line 3 (node etc). */
	ck_assert_str_eq(look(h, "/etc/a.conf", S_IFREG), "u:r:etc:s0");
	/* Line 5 (node etc) is later than lines 1 and 4 (root). */
	ck_assert_str_eq(look(h, "/etc/a.cf", S_IFREG), "u:r:cf:s0");
	ck_assert_str_eq(look(h, "/etc", S_IFDIR), "u:r:etc:s0");
	ck_assert_str_eq(look(h, "/usr/bin/ls", S_IFREG), "u:r:root:s0");
	ck_assert_str_eq(look(h, "//etc//passwd/", 0), "u:r:pw:s0");
	selabel_close(h);
}
END_TEST

START_TEST(test_selabel_lookup_bin6_file_kinds)
{
	static const char *const ctx[] = {
	    "u:r:dir:s0",  "u:r:chr:s0", "u:r:blk:s0", "u:r:sock:s0",
	    "u:r:fifo:s0", "u:r:lnk:s0", "u:r:reg:s0", NULL};
	static const char *const path[] = {"/dev/1", "/dev/2", "/dev/3",
					   "/dev/4", "/dev/5", "/dev/6",
					   "/dev/7"};
	static const int mode[] = {S_IFDIR, S_IFCHR, S_IFBLK, S_IFSOCK,
				   S_IFIFO, S_IFLNK, S_IFREG};
	struct buf b = {.n = 0};
	struct selabel_handle *h;

	head6(&b, 7, ctx);
	str16(&b, "");
	be32(&b, 0);
	be32(&b, 0);
	be32(&b, 1);
	str16(&b, "dev");
	be32(&b, 7);
	for (int k = 1; k <= 7; k++)
		lit(&b, k, path[k - 1], path[k - 1], k);
	be32(&b, 0);
	be32(&b, 0);
	h = open_bin(&b);
	ck_assert_ptr_nonnull(h);
	for (int k = 0; k < 7; k++) {
		ck_assert_str_eq(look(h, path[k], mode[k]), ctx[k]);
		ck_assert_str_eq(look(h, path[k], 0), ctx[k]);
		ck_assert_str_eq(look(h, path[k], mode[(k + 1) % 7]), ENOENT_S);
	}
	selabel_close(h);
}
END_TEST

START_TEST(test_selabel_lookup_bin6_same_literal)
{
	/* 3.8.0 sorts literal specs of one path by file kind, the wildcard
	 * last, and answers with the first that fits. */
	static const char *const ctx[] = {"u:r:d:s0", "u:r:any:s0", NULL};
	struct buf b = {.n = 0};
	struct selabel_handle *h;

	head6(&b, 2, ctx);
	str16(&b, "");
	be32(&b, 0);
	be32(&b, 0);
	be32(&b, 1);
	str16(&b, "a");
	be32(&b, 2);
	lit(&b, 1, "/a/b", "/a/b", 1);
	lit(&b, 2, "/a/b", "/a/b", 0);
	be32(&b, 0);
	be32(&b, 0);
	h = open_bin(&b);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/a/b", S_IFDIR), "u:r:d:s0");
	ck_assert_str_eq(look(h, "/a/b", S_IFREG), "u:r:any:s0");
	ck_assert_str_eq(look(h, "/a/b", 0), "u:r:d:s0");
	selabel_close(h);
}
END_TEST

START_TEST(test_selabel_lookup_bin6_serialized_regex_skipped)
{
	/* Bytes where the serialized regex goes are not read: the regex
	 * string is compiled. */
	static const char *const ctx[] = {"u:r:x:s0", NULL};
	struct buf b = {.n = 0};
	struct selabel_handle *h;

	head6(&b, 1, ctx);
	str16(&b, "");
	be32(&b, 0);
	be32(&b, 1);
	be32(&b, 1);
	be32(&b, 1);
	str16(&b, "/x.*");
	be16(&b, 2);
	u8(&b, 0);
	be32(&b, 5);
	bytes(&b, "junk!", 5);
	be32(&b, 0);
	h = open_bin(&b);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/xyz", 0), "u:r:x:s0");
	ck_assert_str_eq(look(h, "/y", 0), ENOENT_S);
	selabel_close(h);
}
END_TEST

/* Open fx_root/fc.bin holding b with byte at changed to v (at < 0:
 * unchanged) and cut to len bytes: must fail with EINVAL. */
static void refused(const struct buf *b, long at, uint8_t v, size_t len)
{
	struct buf c = *b;

	if (at >= 0)
		c.b[at] = v;
	c.n = len;
	ck_assert_msg(open_bin(&c) == NULL, "accepted: byte %ld = %u, len %zu",
		      at, v, len);
	ck_assert_int_eq(errno, EINVAL);
}

/* Offset of the first occurrence of [s, s + n) in b. */
static long find(const struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i + n <= b->n; i++)
		if (!memcmp(b->b + i, s, n))
			return i;
	ck_abort_msg("not found");
	return -1;
}

START_TEST(test_selabel_open_bin6_invalid)
{
	struct buf b = {.n = 0}, c;
	long at;

	tree_file(&b);
	/* Cut anywhere after the magic and version. */
	for (size_t n = 8; n < b.n; n++)
		refused(&b, -1, 0, n);
	/* A byte after the root node. */
	b.b[b.n] = 0;
	refused(&b, -1, 0, b.n + 1);
	/* The first spec's context index: 0, then past the table. */
	at = find(&b, "\0\0\0\x01\0\0\0\x01\0\x04/.*", 12);
	refused(&b, at + 3, 0, b.n);
	refused(&b, at + 3, 8, b.n);
	/* Its line: 0. */
	refused(&b, at + 7, 0, b.n);
	/* Its prefix_len (1): more than the regex's length. */
	refused(&b, at + 15, 4, b.n);
	/* A file kind 3.8 does not have. */
	refused(&b, at + 16, 8, b.n);
	/* A literal that is not what its regex stands for. */
	at = find(&b, "/etc/rc.d/x", 11);
	refused(&b, at + 6, 'C', b.n);
	/* A literal spec whose regex is no literal. */
	at = find(&b, "/etc/shadow", 11);
	refused(&b, at + 1, '.', b.n);
	/* A node's stem without its NUL, and the root's of length 2. */
	at = find(&b,
		  "\0\x04"
		  "etc",
		  5);
	refused(&b, at + 5, 'x', b.n);
	/* The root's stem length (right after the last context): 2. */
	refused(&b, find(&b, "u:r:cf:s0", 9) + 9 + 1, 2, b.n);
	/* An empty node. */
	c.n = 0;
	{
		static const char *const ctx[] = {"u:r:x:s0", NULL};

		head6(&c, 1, ctx);
		str16(&c, "");
		be32(&c, 1);
		lit(&c, 1, "/x", "/x", 0);
		be32(&c, 0);
		be32(&c, 1);
		str16(&c, "a");
		be32(&c, 0);
		be32(&c, 0);
		be32(&c, 0);
		refused(&c, -1, 0, c.n);
	}
	/* Children out of order. */
	c.n = 0;
	{
		static const char *const ctx[] = {"u:r:x:s0", NULL};

		head6(&c, 2, ctx);
		str16(&c, "");
		be32(&c, 0);
		be32(&c, 0);
		be32(&c, 2);
		str16(&c, "b");
		be32(&c, 1);
		lit(&c, 1, "/b/x", "/b/x", 0);
		be32(&c, 0);
		be32(&c, 0);
		str16(&c, "a");
		be32(&c, 1);
		lit(&c, 1, "/a/x", "/a/x", 0);
		be32(&c, 0);
		be32(&c, 0);
		refused(&c, -1, 0, c.n);
	}
}
END_TEST

START_TEST(test_selabel_open_bin6_fallback_to_text)
{
	/* An invalid version 6 file is a failed load like any: an older
	 * text file is read instead. */
	struct buf b = {.n = 0};
	struct selabel_handle *h;
	struct utimbuf old;

	tree_file(&b);
	b.n--;
	fx_write("fc.bin", b.b, b.n);
	fx_writes("fc", "/etc/passwd\tu:r:text:s0\n");
	old.modtime = old.actime = time(NULL) - 3600;
	ck_assert_int_eq(utime(fx_path("fc"), &old), 0);
	h = open_path("fc");
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(look(h, "/etc/passwd", 0), "u:r:text:s0");
	selabel_close(h);
}
END_TEST

/* A version 5 header (host order, as Debian 12 writes it) with the
 * given magic and version words, and no specs after it. */
static void head_words(struct buf *b, uint32_t magic, uint32_t version)
{
	static const char rest[] = "\x03\0\0\0"
				   "10.\x06\0\0\0"
				   "8-8-el";

	memcpy(b->b, &magic, 4);
	memcpy(b->b + 4, &version, 4);
	b->n = 8;
	bytes(b, rest, sizeof(rest));
}

/* One message, then the older text file is read; without it the open
 * fails with ENOENT, as Debian 12's does (without a message). */
static void unknown_version(uint32_t magic, uint32_t version, const char *says)
{
	struct buf b = {.n = 0};
	struct selabel_handle *h;
	struct utimbuf old;

	head_words(&b, magic, version);
	nlogs = 0;
	ck_assert_ptr_null(open_bin(&b));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(nlogs, 1);
	ck_assert_msg(strstr(last_log, says), "message: %s", last_log);

	fx_writes("fc", "/a\tu:r:text:s0\n");
	old.modtime = old.actime = time(NULL) - 3600;
	ck_assert_int_eq(utime(fx_path("fc"), &old), 0);
	nlogs = 0;
	h = open_path("fc");
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(nlogs, 1);
	ck_assert_str_eq(look(h, "/a", 0), "u:r:text:s0");
	selabel_close(h);
}

START_TEST(test_selabel_open_bin_version_99)
{
	unknown_version(0xf97cff8a, 99, "version 99 is not supported");
}
END_TEST

START_TEST(test_selabel_open_bin_version_6_little_endian)
{
	/* Version 6 exists big-endian only. */
	unknown_version(0xf97cff8a, 6, "version 6 is not supported");
}
END_TEST

START_TEST(test_selabel_open_bin_big_endian_version_7)
{
	unknown_version(__builtin_bswap32(0xf97cff8a), __builtin_bswap32(7),
			"version 7 is not supported");
}
END_TEST

/*
 * Round trip: a text file, compiled by our writer into version 6, read
 * back: every answer as from the text.  The text has what moves specs
 * around in the tree: deep paths, "//", escapes 3.8 takes as literal
 * ("\.") and not ("\d"), closing brackets, a top-level '|', specs of
 * one path with different file types, a regex not starting with '/'.
 */
static const char round_trip_text[] = "/.*\t\tu:r:default:s0\n"
				      "/a(/.*)?\t\tu:r:a:s0\n"
				      "/a/b\t-d\tu:r:ab_dir:s0\n"
				      "/a/b\t\tu:r:ab:s0\n"
				      "/a/b\t--\tu:r:ab_file:s0\n"
				      "/a/b/c/d/e/f\t\tu:r:deep:s0\n"
				      "/a/b/c/d/e/.*\t\tu:r:deep_re:s0\n"
				      "/a//x\t\tu:r:dbl:s0\n"
				      "/a/rc\\.d/.*\t\tu:r:rcd:s0\n"
				      "/a/rc\\.d/init\t-l\tu:r:init_lnk:s0\n"
				      "/a/n\\d\t\tu:r:digit:s0\n"
				      "/a/n1\t\tu:r:n1:s0\n"
				      "/a/sq]\t\tu:r:sq:s0\n"
				      "/a/p|/q/r\t\tu:r:alt:s0\n"
				      "/q/r\t-c\tu:r:qr_chr:s0\n"
				      "x/y/.*\t\tu:r:rel:s0\n"
				      "/dev/tty[0-9]+\t-c\tu:r:tty:s0\n"
				      "/dev/null\t-c\t<<none>>\n"
				      "/a/b/c\t-p\tu:r:fifo:s0\n"
				      "/a/b/c\t-s\tu:r:sock:s0\n"
				      "/a/b/c(/.*)?\t\tu:r:c_re:s0\n"
				      "/a/b/c/d/.*\t-d\tu:r:d_dirs:s0\n";

START_TEST(test_lbl_fc_compile_v6_round_trip)
{
	static const char *const keys[] = {
	    "/",	 "/a",	       "/a/b",	       "/a/b/c",
	    "/a/b/c/d",	 "/a/b/c/d/e", "/a/b/c/d/e/f", "/a/b/c/d/e/g",
	    "/a/x",	 "/a//x",      "/a/rc.d/init", "/a/rc.d/x",
	    "/a/rcxd/x", "/a/n1",      "/a/n2",	       "/a/nd",
	    "/a/sq]",	 "/a/p",       "/q/r",	       "/q/rr",
	    "x/y/z",	 "/x/y/z",     "/dev/tty1",    "/dev/null",
	    "/dev/zero", "/a/b/",      "/zzz",	       NULL};
	static const int modes[] = {0,	     S_IFREG, S_IFDIR, S_IFCHR,
				    S_IFBLK, S_IFLNK, S_IFIFO, S_IFSOCK};
	struct selabel_handle *text, *bin;
	const char *what;
	int stage;
	char want[256];

	fx_writes("t/fc", round_trip_text);
	fx_mkdir("b");
	ck_assert_int_eq(lbl_fc_compile(fx_path("t/fc"), fx_path("b/fc.bin"), 6,
					false, NULL, &stage, &what),
			 0);
	text = open_path("t/fc");
	bin = open_path("b/fc");
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(bin);
	for (int i = 0; keys[i]; i++)
		for (size_t m = 0; m < sizeof(modes) / sizeof(*modes); m++) {
			snprintf(want, sizeof(want), "%s",
				 look(text, keys[i], modes[m]));
			ck_assert_msg(
			    !strcmp(look(bin, keys[i], modes[m]), want),
			    "%s mode %o: %s, text: %s", keys[i], modes[m],
			    look(bin, keys[i], modes[m]), want);
		}
	/* A few answers written by hand, to be sure both are right. */
	/* "/a/b" (any type) follows "/a/b -d": it wins for a directory. */
	ck_assert_str_eq(look(bin, "/a/b", S_IFDIR), "u:r:ab:s0");
	ck_assert_str_eq(look(bin, "/a/b", 0), "u:r:ab_file:s0");
	ck_assert_str_eq(look(bin, "/a/b", S_IFREG), "u:r:ab_file:s0");
	ck_assert_str_eq(look(bin, "/a/b", S_IFLNK), "u:r:ab:s0");
	ck_assert_str_eq(look(bin, "/a/n1", 0), "u:r:n1:s0");
	/* "^/a/p|/q/r$" matches "/q/r", but its stem "/a" does not: the
	 * reference skips it. */
	ck_assert_str_eq(look(bin, "/q/r", S_IFREG), "u:r:default:s0");
	ck_assert_str_eq(look(bin, "/q/r", S_IFCHR), "u:r:qr_chr:s0");
	ck_assert_str_eq(look(bin, "/dev/null", S_IFCHR), ENOENT_S);
	selabel_close(text);
	selabel_close(bin);
}
END_TEST

START_TEST(test_lbl_fc_compile_other_version_refused)
{
	const char *what;
	int stage;

	fx_writes("fc", "/a\tu:r:a:s0\n");
	ck_assert_int_eq(lbl_fc_compile(fx_path("fc"), fx_path("fc.bin"), 4,
					false, NULL, &stage, &what),
			 -EINVAL);
}
END_TEST

/*
 * The order of literal specs of one path (several file types) in a node,
 * as each release's sefcontext_compile writes it (measured in trixie's
 * and sid's roots with their own program on the same text): 3.8.1 by
 * file kind from 7 (regular file) down to 1 (directory), the wildcard
 * last, one kind in file order; 3.11 in file order; ours built for 3.4
 * the last line first.  Each spec has a context of its own (its line),
 * so the root node's literal specs name their lines.
 */
static const char order_text[] = "/p\t-d\tu:r:l1:s0\n"
				 "/p\t\tu:r:l2:s0\n"
				 "/p\t--\tu:r:l3:s0\n"
				 "/p\t-l\tu:r:l4:s0\n"
				 "/p\t-c\tu:r:l5:s0\n"
				 "/q\\-r\t--\tu:r:l6:s0\n"
				 "/q-r\t--\tu:r:l7:s0\n"
				 "/.*\t\tu:r:l8:s0\n";

static uint32_t get_be(const char *buf, size_t len, size_t *at, int n)
{
	uint32_t v = 0;

	ck_assert_uint_le(*at + n, len);
	for (int i = 0; i < n; i++)
		v = v << 8 | (uint8_t)buf[(*at)++];
	return v;
}

/* Past a string of a length of n bytes. */
static void skip(const char *buf, size_t len, size_t *at, int n)
{
	uint32_t k = get_be(buf, len, at, n);

	*at += k;
}

/* The lines (contexts "u:r:lN:s0") of the root node's literal specs of
 * the version 6 file rel, in file order, as digits: "53412...". */
static void root_literals(const char *rel, char *out, size_t outlen)
{
	size_t len, at = 8, o = 0;
	char *buf = fx_read(rel, &len);
	char ctx[16][16];
	uint32_t nctx, nlit;

	ck_assert_ptr_nonnull(buf);
	skip(buf, len, &at, 4); /* PCRE2 version */
	skip(buf, len, &at, 4); /* arch */
	at += 8;
	nctx = get_be(buf, len, &at, 4);
	ck_assert_uint_le(nctx, 16);
	for (uint32_t i = 0; i < nctx; i++) {
		uint32_t n = get_be(buf, len, &at, 2);

		ck_assert_uint_lt(n, sizeof(ctx[i]));
		ck_assert_uint_le(at + n, len);
		memcpy(ctx[i], buf + at, n);
		ctx[i][n] = '\0';
		at += n;
	}
	skip(buf, len, &at, 2); /* the root's stem */
	nlit = get_be(buf, len, &at, 4);
	for (uint32_t i = 0; i < nlit; i++) {
		uint32_t c = get_be(buf, len, &at, 4);

		ck_assert_uint_ge(c, 1);
		ck_assert_uint_le(c, nctx);
		ck_assert_uint_lt(o + 1, outlen);
		/* "u:r:lN:s0": N */
		out[o++] = ctx[c - 1][5];
		skip(buf, len, &at, 2); /* regex */
		skip(buf, len, &at, 2); /* literal */
		at += 1;		/* kind */
	}
	out[o] = '\0';
	free(buf);
}

static void check_order(unsigned release, const char *want)
{
	const char *what;
	int stage;
	char got[32];

	fx_writes("t/fc", order_text);
	fx_mkdir("b");
	lbl_test_bin6_order(release);
	ck_assert_int_eq(lbl_fc_compile(fx_path("t/fc"), fx_path("b/fc.bin"), 6,
					true, NULL, &stage, &what),
			 0);
	lbl_test_bin6_order(0);
	root_literals("b/fc.bin", got, sizeof(got));
	ck_assert_msg(!strcmp(got, want), "release %u: lines %s, want %s",
		      release, got, want);
}

START_TEST(test_lbl_fc_compile_v6_literal_order_3_8)
{
	/* /p: reg (3), lnk (4), chr (5), dir (1), any (2); /q-r: one kind,
	 * file order. */
	check_order(308, "3451267");
}
END_TEST

START_TEST(test_lbl_fc_compile_v6_literal_order_3_11)
{
	check_order(311, "1234567");
}
END_TEST

START_TEST(test_lbl_fc_compile_v6_literal_order_3_4)
{
	check_order(304, "5432176");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_file_bin6");
	TCase *tc;

	tc = tcase_create("selabel_lookup");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selabel_lookup_bin6_tree);
	tcase_add_test(tc, test_selabel_lookup_bin6_file_kinds);
	tcase_add_test(tc, test_selabel_lookup_bin6_same_literal);
	tcase_add_test(tc, test_selabel_lookup_bin6_serialized_regex_skipped);
	suite_add_tcase(s, tc);

	tc = tcase_create("selabel_open");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selabel_open_bin6_invalid);
	tcase_add_test(tc, test_selabel_open_bin6_fallback_to_text);
	tcase_add_test(tc, test_selabel_open_bin_version_99);
	tcase_add_test(tc, test_selabel_open_bin_version_6_little_endian);
	tcase_add_test(tc, test_selabel_open_bin_big_endian_version_7);
	suite_add_tcase(s, tc);

	tc = tcase_create("lbl_fc_compile");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lbl_fc_compile_v6_round_trip);
	tcase_add_test(tc, test_lbl_fc_compile_other_version_refused);
	tcase_add_test(tc, test_lbl_fc_compile_v6_literal_order_3_8);
	tcase_add_test(tc, test_lbl_fc_compile_v6_literal_order_3_11);
	tcase_add_test(tc, test_lbl_fc_compile_v6_literal_order_3_4);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
