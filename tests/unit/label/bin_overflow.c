/*
 * Suite label_bin_overflow: counts and lengths near the limits of their
 * integers in compiled file_contexts.bin files, versions 5 and 6
 * (upstream's post-3.11 fix of this class: integer overflows in the
 * compiled-file loader).
 *
 * Each file here is a small valid one (checked to open and answer) with
 * one field replaced by a value that overflows what a careless reader
 * computes from it: 2^32 - 1 and 2^32 - k (a length plus its NUL or
 * plus the fields after it wraps a 32-bit size_t), 2^31 (negative as an
 * int), and counts whose product with an element size wraps (2^32 / 32,
 * 2^32 / 40, SIZE_MAX / 24 where the field is 64 bits wide).  The open
 * must fail with EINVAL (as for any invalid compiled file), without
 * reading past the file (ASan) and without allocating for the count the
 * file claims: outside ASan builds this program wraps malloc and its
 * kin, and no single allocation of an open may pass MAX_ALLOC (the
 * files are under 1 KiB: nothing they describe needs a MiB; the claims
 * are gigabytes).
 */
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* The largest allocation since watching was set (see above). */
#define MAX_ALLOC ((size_t)1 << 20)
static size_t largest;
static bool watching;

#ifndef __SANITIZE_ADDRESS__
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t k, size_t n);
void *__libc_realloc(void *p, size_t n);

static void saw(size_t k, size_t n)
{
	size_t t;

	if (!watching)
		return;
	if (__builtin_mul_overflow(k, n, &t))
		t = SIZE_MAX;
	if (t > largest)
		largest = t;
}

void *malloc(size_t n)
{
	saw(1, n);
	return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
	saw(k, n);
	return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
	saw(1, n);
	return __libc_realloc(p, n);
}

void *reallocarray(void *p, size_t k, size_t n)
{
	size_t t;

	saw(k, n);
	if (__builtin_mul_overflow(k, n, &t)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, t);
}
#endif

/* A file under construction; at[] records where named fields are. */
struct buf {
	uint8_t b[1024];
	size_t n;
};

static size_t put(struct buf *b, const void *p, size_t n)
{
	size_t at = b->n;

	ck_assert_uint_le(b->n + n, sizeof(b->b));
	memcpy(b->b + b->n, p, n);
	b->n += n;
	return at;
}

/* Version 5: host-order u32 (the writer's machine: little-endian). */
static size_t h32(struct buf *b, uint32_t v)
{
	return put(b, &v, 4);
}

static size_t be16(struct buf *b, uint16_t v)
{
	uint16_t x = htobe16(v);

	return put(b, &x, 2);
}

static size_t be32(struct buf *b, uint32_t v)
{
	uint32_t x = htobe32(v);

	return put(b, &x, 4);
}

static size_t be64(struct buf *b, uint64_t v)
{
	uint64_t x = htobe64(v);

	return put(b, &x, 8);
}

static void set_h32(struct buf *b, size_t at, uint32_t v)
{
	memcpy(b->b + at, &v, 4);
}

static void set_be32(struct buf *b, size_t at, uint32_t v)
{
	uint32_t x = htobe32(v);

	memcpy(b->b + at, &x, 4);
}

static void set_be16(struct buf *b, size_t at, uint16_t v)
{
	uint16_t x = htobe16(v);

	memcpy(b->b + at, &x, 2);
}

static void set_be64(struct buf *b, size_t at, uint64_t v)
{
	uint64_t x = htobe64(v);

	memcpy(b->b + at, &x, 8);
}

static struct selabel_handle *open_bin(const struct buf *b)
{
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, fx_path("fc")},
	    {SELABEL_OPT_BASEONLY, (char *)1},
	};

	struct selabel_handle *h;

	/* fc.bin alone: no text file to fall back to. */
	fx_write("fc.bin", b->b, b->n);
	largest = 0;
	watching = true;
	errno = 0;
	h = selabel_open(SELABEL_CTX_FILE, opt, 2);
	watching = false;
	return h;
}

static void refused(const struct buf *b, const char *what)
{
	struct selabel_handle *h = open_bin(b);

	ck_assert_msg(h == NULL, "accepted: %s", what);
	ck_assert_msg(errno == EINVAL, "%s: errno %d, not EINVAL", what, errno);
	ck_assert_msg(largest <= MAX_ALLOC, "%s: an allocation of %zu bytes",
		      what, largest);
}

static void answers(const struct buf *b)
{
	struct selabel_handle *h = open_bin(b);
	char *con = NULL;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(selabel_lookup_raw(h, &con, "/etc/passwd", 0), 0);
	ck_assert_str_eq(con, "u:r:pw_t:s0");
	freecon(con);
	ck_assert_int_eq(selabel_lookup_raw(h, &con, "/etc/x", 0), 0);
	ck_assert_str_eq(con, "u:r:etc_t:s0");
	freecon(con);
	selabel_close(h);
}

/* The values a field is set to, with a word for the message. */
static const struct {
	uint32_t v;
	const char *what;
} big32[] = {
    {UINT32_MAX, "2^32-1"},	  {UINT32_MAX - 1, "2^32-2"},
    {UINT32_MAX - 3, "2^32-4"},	  {UINT32_MAX - 7, "2^32-8"},
    {UINT32_MAX - 15, "2^32-16"}, {UINT32_MAX - 27, "2^32-28"},
    {0x80000000u, "2^31"},	  {0x7fffffffu, "2^31-1"},
    {0x08000000u, "2^32/32"},	  {0x06666667u, "2^32/40+1"},
    {0x55555556u, "2^32/3+1"},
};
#define NBIG (sizeof(big32) / sizeof(big32[0]))

/* Version 5 -------------------------------------------------------------- */

/* Where the fields of the version 5 file are. */
struct at5 {
	size_t ver_len, arch_len, nstems, stem_len, nspecs;
	size_t ctx_len, regex_len, stem_id, blob_len; /* of spec 1 */
	size_t ctx_len2, regex_len2, blob_len2;	      /* of spec 2 */
};

static void str5(struct buf *b, const char *s, size_t *len_at)
{
	*len_at = h32(b, strlen(s) + 1);
	put(b, s, strlen(s) + 1);
}

/*
 *   /etc/.*       u:r:etc_t:s0   (stem 0: "/etc")
 *   /etc/passwd   u:r:pw_t:s0
 * in Debian 12's order (regex specs first), without serialized regexes.
 */
static void file5(struct buf *b, struct at5 *a)
{
	b->n = 0;
	h32(b, 0xf97cff8a);
	h32(b, 5);
	a->ver_len = h32(b, 5);
	put(b, "10.42", 5);
	a->arch_len = h32(b, 6);
	put(b, "8-8-el", 6);
	a->nstems = h32(b, 1);
	a->stem_len = h32(b, 4);
	put(b, "/etc", 5);
	a->nspecs = h32(b, 2);
	str5(b, "u:r:etc_t:s0", &a->ctx_len);
	str5(b, "/etc/.*", &a->regex_len);
	h32(b, 0);		/* mode */
	a->stem_id = h32(b, 0); /* stem */
	h32(b, 1);		/* meta */
	h32(b, 4);		/* prefix_len */
	a->blob_len = h32(b, 0);
	str5(b, "u:r:pw_t:s0", &a->ctx_len2);
	str5(b, "/etc/passwd", &a->regex_len2);
	h32(b, 0);
	h32(b, UINT32_MAX); /* no stem */
	h32(b, 0);
	h32(b, 11);
	a->blob_len2 = h32(b, 0);
}

START_TEST(test_selabel_open_bin5_valid)
{
	struct buf b;
	struct at5 a;

	file5(&b, &a);
	answers(&b);
}
END_TEST

START_TEST(test_selabel_open_bin5_big_lengths)
{
	struct buf b;
	struct at5 a;
	const size_t *fields[] = {&a.ver_len,  &a.arch_len,   &a.stem_len,
				  &a.ctx_len,  &a.regex_len,  &a.blob_len,
				  &a.ctx_len2, &a.regex_len2, &a.blob_len2};
	static const char *const names[] = {
	    "pcre version length", "arch length",	"stem length",
	    "context length",	   "regex length",	"regex blob length",
	    "last context length", "last regex length", "last blob length"};
	char what[128];

	for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
		for (size_t i = 0; i < NBIG; i++) {
			file5(&b, &a);
			set_h32(&b, *fields[f], big32[i].v);
			snprintf(what, sizeof(what), "%s %s", names[f],
				 big32[i].what);
			refused(&b, what);
		}
}
END_TEST

START_TEST(test_selabel_open_bin5_big_counts)
{
	struct buf b;
	struct at5 a;
	char what[128];

	for (size_t i = 0; i < NBIG; i++) {
		file5(&b, &a);
		set_h32(&b, a.nstems, big32[i].v);
		snprintf(what, sizeof(what), "stem count %s", big32[i].what);
		refused(&b, what);
		file5(&b, &a);
		set_h32(&b, a.nspecs, big32[i].v);
		snprintf(what, sizeof(what), "spec count %s", big32[i].what);
		refused(&b, what);
		/* A stem index past the stems, or negative but -1. */
		file5(&b, &a);
		set_h32(&b, a.stem_id,
			big32[i].v == UINT32_MAX ? UINT32_MAX - 1 : big32[i].v);
		snprintf(what, sizeof(what), "stem index %s", big32[i].what);
		refused(&b, what);
	}
}
END_TEST

/* Version 6 -------------------------------------------------------------- */

struct at6 {
	size_t ver_len, arch_len, nspecs, nctx, ctx_len;
	size_t root_len, nlit, lit_regex_len, lit_len, nre, line, re_len,
	    prefix_len, blob_len, nkid;
};

static void file6(struct buf *b, struct at6 *a)
{
	b->n = 0;
	be32(b, 0xf97cff8a);
	be32(b, 6);
	a->ver_len = be32(b, 5);
	put(b, "10.42", 5);
	a->arch_len = be32(b, 6);
	put(b, "8-8-el", 6);
	a->nspecs = be64(b, 2);
	a->nctx = be32(b, 2);
	a->ctx_len = be16(b, 12);
	put(b, "u:r:etc_t:s0", 12);
	be16(b, 11);
	put(b, "u:r:pw_t:s0", 11);
	/* The root: its empty stem, one literal spec, one regex spec. */
	a->root_len = be16(b, 1);
	put(b, "", 1);
	a->nlit = be32(b, 1);
	be32(b, 2);
	a->lit_regex_len = be16(b, 12);
	put(b, "/etc/passwd", 12);
	a->lit_len = be16(b, 12);
	put(b, "/etc/passwd", 12);
	put(b, "", 1); /* kind: any */
	a->nre = be32(b, 1);
	be32(b, 1);
	a->line = be32(b, 1);
	a->re_len = be16(b, 8);
	put(b, "/etc/.*", 8);
	a->prefix_len = be16(b, 4);
	put(b, "", 1);
	a->blob_len = be32(b, 0);
	a->nkid = be32(b, 0);
}

START_TEST(test_selabel_open_bin6_valid)
{
	struct buf b;
	struct at6 a;

	file6(&b, &a);
	answers(&b);
	/* The spec count is only summed by 3.8, never trusted: any value
	 * reads the same file. */
	set_be64(&b, a.nspecs, UINT64_MAX);
	answers(&b);
	set_be64(&b, a.nspecs, SIZE_MAX / 24 + 1);
	answers(&b);
}
END_TEST

START_TEST(test_selabel_open_bin6_big_fields)
{
	struct buf b;
	struct at6 a;
	const size_t *f32[] = {&a.ver_len, &a.arch_len, &a.nctx,     &a.nlit,
			       &a.nre,	   &a.line,	&a.blob_len, &a.nkid};
	static const char *const n32[] = {
	    "pcre version length", "arch length", "context count",
	    "literal count",	   "regex count", "line",
	    "regex blob length",   "child count"};
	const size_t *f16[] = {&a.ctx_len, &a.root_len, &a.lit_regex_len,
			       &a.lit_len, &a.re_len,	&a.prefix_len};
	static const char *const n16[] = {
	    "context length", "root stem length", "literal's regex length",
	    "literal length", "regex length",	  "prefix length"};
	static const uint16_t big16[] = {UINT16_MAX, UINT16_MAX - 1, 0x8000,
					 0x7fff};
	char what[128];

	for (size_t f = 0; f < sizeof(f32) / sizeof(f32[0]); f++)
		for (size_t i = 0; i < NBIG; i++) {
			file6(&b, &a);
			set_be32(&b, *f32[f], big32[i].v);
			snprintf(what, sizeof(what), "%s %s", n32[f],
				 big32[i].what);
			/* The line is a number, not a size: only its
			 * sentinel 2^32 - 1 is refused. */
			if (f32[f] == &a.line && big32[i].v != UINT32_MAX) {
				struct selabel_handle *h = open_bin(&b);

				ck_assert_msg(h != NULL, "refused: %s", what);
				selabel_close(h);
				continue;
			}
			refused(&b, what);
		}
	for (size_t f = 0; f < sizeof(f16) / sizeof(f16[0]); f++)
		for (size_t i = 0; i < sizeof(big16) / sizeof(big16[0]); i++) {
			file6(&b, &a);
			set_be16(&b, *f16[f], big16[i]);
			snprintf(what, sizeof(what), "%s %#x", n16[f],
				 big16[i]);
			refused(&b, what);
		}
}
END_TEST

/*
 * A chain of nodes, each the only child of the one before, below the
 * root of the file above; the last holds a literal spec ("/deep") so
 * that no node is empty.  Written to fc.bin; its open returned.
 */
static struct selabel_handle *open_chain(size_t levels)
{
	struct buf b;
	struct at6 a;
	size_t cap, n;
	uint8_t *f;
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, fx_path("fc")},
	    {SELABEL_OPT_BASEONLY, (char *)1},
	};
	static const uint8_t node[16] = {0, 2, 'x', 0, 0, 0, 0, 0,
					 0, 0, 0,   0, 0, 0, 0, 1};
	static const uint8_t last[] = {
	    0,	 2,   'x', 0,	0,   0,	  0,   1, /* stem, 1 literal */
	    0,	 0,   0,   1,	0,   6,	  '/', 'd', 'e',
	    'e', 'p', 0,			       /* ctx 1, regex */
	    0,	 6,   '/', 'd', 'e', 'e', 'p', 0,   0, /* literal, kind */
	    0,	 0,   0,   0,	0,   0,	  0,   0};     /* 0 regex, 0 kids */

	file6(&b, &a);
	cap = a.nkid + 4 + levels * sizeof(node) + sizeof(last);
	f = malloc(cap);
	ck_assert_ptr_nonnull(f);
	memcpy(f, b.b, a.nkid);
	n = a.nkid;
	memcpy(f + n, "\0\0\0\1", 4); /* the root's one child */
	n += 4;
	for (size_t i = 1; i < levels; i++, n += sizeof(node))
		memcpy(f + n, node, sizeof(node));
	memcpy(f + n, last, sizeof(last));
	n += sizeof(last);
	struct selabel_handle *h;

	fx_write("fc.bin", f, n);
	free(f);
	largest = 0;
	watching = true;
	errno = 0;
	h = selabel_open(SELABEL_CTX_FILE, opt, 2);
	watching = false;
	return h;
}

/* 3.8 reads trees up to 32 levels; deeper ones are refused (with no
 * recursion as deep as the file claims: 100000 levels would take more
 * stack than a thread has). */
START_TEST(test_selabel_open_bin6_deep_tree)
{
	struct selabel_handle *h = open_chain(31);
	char *con = NULL;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(selabel_lookup_raw(h, &con, "/deep", 0), 0);
	ck_assert_str_eq(con, "u:r:etc_t:s0");
	freecon(con);
	selabel_close(h);
	ck_assert_ptr_null(open_chain(33));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(open_chain(100000));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_le(largest, 2 * 100000 * 16 + MAX_ALLOC);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_bin_overflow");
	TCase *tc = tcase_create("bin5");

	tcase_add_checked_fixture(tc, fx_setup_quiet, fx_teardown);
	tcase_add_test(tc, test_selabel_open_bin5_valid);
	tcase_add_test(tc, test_selabel_open_bin5_big_lengths);
	tcase_add_test(tc, test_selabel_open_bin5_big_counts);
	suite_add_tcase(s, tc);
	tc = tcase_create("bin6");
	tcase_add_checked_fixture(tc, fx_setup_quiet, fx_teardown);
	tcase_add_test(tc, test_selabel_open_bin6_valid);
	tcase_add_test(tc, test_selabel_open_bin6_big_fields);
	tcase_add_test(tc, test_selabel_open_bin6_deep_tree);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
