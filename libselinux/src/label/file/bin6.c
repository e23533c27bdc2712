/* label/fc_bin6.c: compiled file_contexts.bin version 6, read. */
#include <endian.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fc.h"

/*
 * Version 6 is the "tree layout" of upstream commit 92306daf
 * ("libselinux: rework selabel_file(5) database"), released in 3.8 with
 * the regex specs' line numbers (3.8-rc1's files lack them, under the
 * same version number: they are refused as invalid); 3.11's
 * sefcontext_compile writes it and reads nothing else.  Every integer is
 * big-endian, whatever the machine:
 *   u32 magic 0xf97cff8a, u32 version 6,
 *   u32 len + the PCRE2 version string, u32 len + the arch string
 *   ("8-8-el"), neither with a NUL,
 *   u64 number of specs,
 *   u32 number of contexts, then per context: u16 len + the raw context
 *   (no NUL); specs name them by index, from 1,
 *   the root node.
 * A node: u16 len + stem + NUL (len counts the NUL; the root's stem is
 * empty, len 1), u32 count + literal specs, u32 count + regex specs,
 * u32 count + child nodes (sorted by strcmp of their stems, distinct).
 * A literal spec: u32 context index, u16 len + regex + NUL, u16 len +
 * the literal path the regex stands for + NUL, u8 file kind.
 * A regex spec: u32 context index, u32 source line, u16 len + regex +
 * NUL, u16 prefix_len, u8 file kind, u32 len + pcre2_serialize_encode()
 * bytes of "^regex$" (len 0 without them).
 * File kinds: 0 any, 1 dir, 2 chr, 3 blk, 4 sock, 5 fifo, 6 lnk, 7 reg.
 *
 * The tree is 3.8's index: a spec sits in the node of the first (at
 * most 3) components of its path that are plain text, each followed by
 * a '/'.  A spec is literal when its regex has none of the characters
 * ".^$?*+|[({])}" and escapes only those and "-_,"; the literal is the
 * regex with its backslashes dropped.  Nodes hold their literal specs
 * sorted by strcmp of the literal (3.8 binary-searches them and takes
 * the first of equal ones whose file kind fits; 3.8.1 writes equal ones
 * by file kind, 7 down to 1, the wildcard last, 3.11 in file order:
 * fc_bin6_write.c) and their regex specs in
 * source order; 3.8 answers with a literal spec before any regex spec,
 * else with the matching regex spec of the highest line.
 *
 * We read the specs back into our own index, in the order that gives
 * those answers under Debian 12's rule (the highest index wins; regex
 * specs before literal ones): regex specs by line, then literal specs in
 * reverse file order.  The serialized regexes are skipped, as in
 * fc_bin.c.  A literal spec's line is not stored, so between two literal
 * specs of one path whose file kinds overlap, the text's order is lost:
 * we answer as 3.8+ does (the first in the file).  Built for 3.4, our
 * writer orders such specs last line first, so that 3.8 and we both
 * answer as the text; built for 3.8 or 3.11, as that release does.
 */

const uint32_t fc_bin6_kind_mode[FC_BIN6_KINDS] = {
    0, S_IFDIR, S_IFCHR, S_IFBLK, S_IFSOCK, S_IFIFO, S_IFLNK, S_IFREG,
};

/* 3.8 refuses deeper trees than this when reading (its writer builds 3
 * levels at most). */
#define MAX_DEPTH 32

/* What a literal may not hold (1), and what it may hold escaped (2:
 * those and "-_,"). */
static const uint8_t lit_class[256] = {
    ['.'] = 1, ['^'] = 1,  ['$'] = 1, ['?'] = 1, ['*'] = 1, ['+'] = 1,
    ['|'] = 1, ['['] = 1,  ['('] = 1, ['{'] = 1, [']'] = 1, [')'] = 1,
    ['}'] = 1, ['\0'] = 1, ['-'] = 2, ['_'] = 2, [','] = 2,
};

ssize_t fc_bin6_simplify(const char *s, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\') {
			if (++i == n || !lit_class[(uint8_t)s[i]] || !s[i])
				return -1;
			c = s[i];
		} else if (lit_class[(uint8_t)c] == 1) {
			return -1;
		}
		if (out)
			out[o] = c;
		o++;
	}
	if (out)
		out[o] = '\0';
	return o;
}

int fc_bin6_next(const char **p, bool lit, const char **comp, size_t *len)
{
	for (;;) {
		const char *q;

		if (lit && **p != '/')
			return 0;
		if (!**p || !(q = strchr(*p + 1, '/')))
			return 0;
		if (q == *p + 1) {
			*p = q;
			continue;
		}
		*comp = *p + 1;
		*len = (size_t)(q - *p - 1);
		*p = q;
		return 1;
	}
}

int fc_bin6_grow(void **p, uint32_t *cap, uint32_t n, size_t size)
{
	uint32_t c = *cap ? 2 * *cap : 4;
	void *q;

	if (n < *cap)
		return 0;
	if (c < *cap)
		return -EOVERFLOW;
	q = reallocarray(*p, c, size);
	if (!q)
		return -ENOMEM;
	/*
	 * analyzer: false positive (gcc malloc-leak): q is stored in *p, the
	 * caller's array, freed with it.
	 */
	*p = q;
	*cap = c;
	return 0;
}

/* The reader ------------------------------------------------------- */

struct item {
	const char *regex; /* into the file's bytes, NUL-terminated */
	uint32_t rlen;
	uint32_t ctx;	   /* index into rd6.ctx */
	uint32_t line;	   /* regex specs: the source line; 0 for literal */
	uint32_t pos;	   /* order in the file */
	uint32_t mode;
};

struct rd6 {
	const uint8_t *p, *end;
	const char **ctx;
	uint16_t *clen;
	uint32_t nctx;
	struct item *it;
	uint32_t n, cap;
};

static int need(struct rd6 *r, size_t n)
{
	return (size_t)(r->end - r->p) >= n ? 0 : -EINVAL;
}

static int get_u8(struct rd6 *r, uint8_t *v)
{
	if (need(r, 1) < 0)
		return -EINVAL;
	*v = *r->p++;
	return 0;
}

static int get_u16(struct rd6 *r, uint16_t *v)
{
	uint16_t x;

	if (need(r, 2) < 0)
		return -EINVAL;
	memcpy(&x, r->p, 2);
	r->p += 2;
	*v = be16toh(x);
	return 0;
}

static int get_u32(struct rd6 *r, uint32_t *v)
{
	uint32_t x;

	if (need(r, 4) < 0)
		return -EINVAL;
	/*
	 * analyzer: false positive (gcc null-dereference, use-of-uninitialized-
	 * value): need() has checked that 4 bytes of the file lie here; slurp()
	 * succeeds only with its buffer set and filled by pread(), which GCC 12
	 * does not model.
	 */
	memcpy(&x, r->p, 4);
	r->p += 4;
	*v = be32toh(x);
	return 0;
}

/* u32 len + len bytes, skipped. */
static int skip_blob(struct rd6 *r)
{
	uint32_t n;

	if (get_u32(r, &n) < 0 || need(r, n) < 0)
		return -EINVAL;
	r->p += n;
	return 0;
}

/* u16 len + a string of len bytes whose last is its only NUL and first
 * is not one (3.8 checks the first and the last; an inner NUL would cut
 * its copy short: we refuse it instead). */
static int get_str(struct rd6 *r, const char **s, uint16_t *len)
{
	uint16_t n;

	if (get_u16(r, &n) < 0 || n < 2 || need(r, n) < 0 ||
	    memchr(r->p, '\0', n) != r->p + n - 1)
		return -EINVAL;
	*s = (const char *)r->p;
	*len = n - 1;
	r->p += n;
	return 0;
}

/* The context index, from 1. */
static int get_ctx(struct rd6 *r, struct item *it)
{
	uint32_t c;

	if (get_u32(r, &c) < 0 || !c || c > r->nctx)
		return -EINVAL;
	it->ctx = c - 1;
	return 0;
}

static int get_kind(struct rd6 *r, struct item *it)
{
	uint8_t k;

	/* 3.8 keeps a kind it does not know (it then fits only lookups
	 * without a file type); no writer makes one, and our modes could
	 * not say it: we refuse the file. */
	if (get_u8(r, &k) < 0 || k >= FC_BIN6_KINDS)
		return -EINVAL;
	it->mode = fc_bin6_kind_mode[k];
	return 0;
}

static int push(struct rd6 *r, const struct item *it)
{
	if (r->n == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 256;
		struct item *v;

		if (cap < r->cap)
			return -EINVAL;
		v = reallocarray(r->it, cap, sizeof(*v));
		if (!v)
			return -ENOMEM;
		r->it = v;
		r->cap = cap;
	}
	r->it[r->n] = *it;
	r->it[r->n].pos = r->n;
	r->n++;
	return 0;
}

static int literal_spec(struct rd6 *r)
{
	struct item it = {0};
	const char *regex, *lit;
	uint16_t rlen, llen;
	char buf[256], *want = buf;
	_cleanup_free_ char *own = NULL;
	int e;

	if ((e = get_ctx(r, &it)) < 0 || (e = get_str(r, &regex, &rlen)) < 0 ||
	    (e = get_str(r, &lit, &llen)) < 0 || (e = get_kind(r, &it)) < 0)
		return e;
	/* The literal must be the one the regex stands for: we match the
	 * regex, 3.8 the literal, and the two must agree. */
	if (rlen >= sizeof(buf) && !(want = own = malloc(rlen + 1)))
		return -ENOMEM;
	if (fc_bin6_simplify(regex, rlen, want) != llen ||
	    memcmp(want, lit, llen))
		return -EINVAL;
	it.regex = regex;
	it.rlen = rlen;
	return push(r, &it);
}

static int regex_spec(struct rd6 *r)
{
	struct item it = {0};
	const char *regex;
	uint16_t rlen, plen;
	uint32_t line;
	int e;

	if ((e = get_ctx(r, &it)) < 0 || (e = get_u32(r, &line)) < 0)
		return e;
	if (!line || line == UINT32_MAX)
		return -EINVAL;
	if ((e = get_str(r, &regex, &rlen)) < 0 ||
	    (e = get_u16(r, &plen)) < 0 || plen > rlen ||
	    (e = get_kind(r, &it)) < 0 || (e = skip_blob(r)) < 0)
		return e < 0 ? e : -EINVAL;
	it.regex = regex;
	it.rlen = rlen;
	it.line = line;
	return push(r, &it);
}

static int node(struct rd6 *r, unsigned depth)
{
	const char *stem, *prev = NULL;
	uint16_t slen;
	uint32_t nlit, nre, nkid;
	int e;

	if (depth >= MAX_DEPTH)
		return -EINVAL;
	if (depth == 0) {
		/* The root's stem: just its NUL (3.8 does not look at the
		 * byte). */
		if (get_u16(r, &slen) < 0 || slen != 1 || need(r, 1) < 0)
			return -EINVAL;
		r->p++;
	} else if ((e = get_str(r, &stem, &slen)) < 0) {
		return e;
	}
	if ((e = get_u32(r, &nlit)) < 0)
		return e;
	for (uint32_t i = 0; i < nlit; i++)
		if ((e = literal_spec(r)) < 0)
			return e;
	if ((e = get_u32(r, &nre)) < 0)
		return e;
	for (uint32_t i = 0; i < nre; i++)
		if ((e = regex_spec(r)) < 0)
			return e;
	if ((e = get_u32(r, &nkid)) < 0)
		return e;
	for (uint32_t i = 0; i < nkid; i++) {
		/* The child's stem is its first field: checked for order
		 * here, as 3.8 does, before the child is read. */
		const uint8_t *at = r->p + 2;

		if ((e = node(r, depth + 1)) < 0)
			return e;
		if (prev && strcmp(prev, (const char *)at) >= 0)
			return -EINVAL;
		prev = (const char *)at;
	}
	/* 3.8 refuses a node other than the root with nothing in it. */
	if (depth && !nlit && !nre && !nkid)
		return -EINVAL;
	return 0;
}

static int header(struct rd6 *r)
{
	uint32_t magic, version, n;
	uint16_t clen;
	int e;

	if (get_u32(r, &magic) < 0 || magic != FC_BIN_MAGIC ||
	    get_u32(r, &version) < 0 || version != 6)
		return -EINVAL;
	/* The PCRE2 version and arch strings, then the spec count (a u64
	 * 3.8 only adds up): informational for us. */
	if ((e = skip_blob(r)) < 0 || (e = skip_blob(r)) < 0 ||
	    (e = need(r, 8)) < 0)
		return e;
	r->p += 8;
	if ((e = get_u32(r, &n)) < 0)
		return e;
	/* Each context takes 3 bytes at least. */
	if (n > (size_t)(r->end - r->p) / 3)
		return -EINVAL;
	r->ctx = calloc(n + 1, sizeof(*r->ctx));
	r->clen = calloc(n + 1, sizeof(*r->clen));
	if (!r->ctx || !r->clen)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		if (get_u16(r, &clen) < 0 || !clen || clen == UINT16_MAX ||
		    need(r, clen) < 0)
			return -EINVAL;
		r->ctx[i] = (const char *)r->p;
		/* 3.8 copies it and cuts it at a NUL; an empty one is no
		 * context for us. */
		r->clen[i] = strnlen(r->ctx[i], clen);
		if (!r->clen[i])
			return -EINVAL;
		r->p += clen;
	}
	r->nctx = n;
	return 0;
}

/*
 * r->it in our order: regex specs by line (then file order), then
 * literal specs last one in the file first.  Each node holds its regex
 * specs in line order, so the lines come in a few ascending runs: a
 * counting sort by line (stable: file order among equal lines), or
 * qsort where the lines are too sparse for one.  0 or -ENOMEM.
 */
static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int order_items(struct rd6 *r)
{
	_cleanup_free_ struct item *v = malloc(r->n * sizeof(*v));
	_cleanup_free_ uint32_t *cnt = NULL;
	uint32_t nre = 0, lo = UINT32_MAX, hi = 0, o = 0;

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < r->n; i++) {
		uint32_t line = r->it[i].line;

		if (!line)
			continue;
		nre++;
		lo = line < lo ? line : lo;
		hi = line > hi ? line : hi;
	}
	if (nre && hi - lo < 8 * (uint64_t)nre + 1024) {
		cnt = calloc((size_t)(hi - lo) + 2, sizeof(*cnt));
		if (!cnt)
			return -ENOMEM;
		for (uint32_t i = 0; i < r->n; i++)
			if (r->it[i].line)
				cnt[r->it[i].line - lo + 1]++;
		for (uint32_t k = 1; k <= hi - lo + 1; k++)
			cnt[k] += cnt[k - 1];
		for (uint32_t i = 0; i < r->n; i++)
			if (r->it[i].line)
				v[cnt[r->it[i].line - lo]++] = r->it[i];
	} else {
		for (uint32_t i = 0; i < r->n; i++)
			if (r->it[i].line)
				v[o++] = r->it[i];
		qsort(v, nre, sizeof(*v), cmp_item);
	}
	o = nre;
	for (uint32_t i = r->n; i-- > 0;)
		if (!r->it[i].line)
			v[o++] = r->it[i];
	memcpy(r->it, v, r->n * sizeof(*v));
	return 0;
}

/* The whole file into *out (malloc'd), where it cannot be mapped. */
static int slurp(int fd, size_t len, uint8_t **out)
{
	uint8_t *b = malloc(len ? len : 1);
	size_t got = 0;

	if (!b)
		return -ENOMEM;
	while (got < len) {
		ssize_t k = pread(fd, b + got, len - got, got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int e = k < 0 ? -errno : -EINVAL;

			free(b);
			return e;
		}
		got += k;
	}
	*out = b;
	return 0;
}

int fc_parse_bin6(struct fc_load *l, int fd, const uint8_t *buf, size_t len)
{
	_cleanup_free_ uint8_t *own = NULL;
	void *map = MAP_FAILED;
	const char **ictx = NULL;
	struct rd6 r = {0};
	size_t bytes = 64;
	int e;

	/*
	 * Mapped whole, its pages entered at once: the serialized regexes
	 * we skip fill most of it (refpolicy's: 3.7 MB), and the specs lie
	 * between them on every page.  Read into the heap instead, each of
	 * those pages was a fresh page faulted in and a copy (900 faults:
	 * as long as the rest of the open).
	 */
	if (fd >= 0 && len) {
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
			   0);
		if (map != MAP_FAILED)
			buf = map;
		else if ((e = slurp(fd, len, &own)) < 0)
			return e;
		else
			buf = own;
	}
	r.p = buf;
	r.end = buf + len;
	e = header(&r);
	if (e == 0)
		e = node(&r, 0);
	/* Nothing may follow the root (3.8 ignores what does). */
	if (e == 0 && r.p != r.end)
		e = -EINVAL;
	if (e == -EINVAL)
		core_log(SELINUX_ERROR, "%s: invalid compiled file contexts\n",
			 l->path);
	/* As for version 5 (fc_bin.c): no specs counts as a failed load. */
	if (e == 0 && !r.n)
		e = -ENOENT;
	if (e == 0)
		e = order_items(&r);
	if (e == 0 && !(ictx = calloc(r.nctx + 1, sizeof(*ictx))))
		e = -ENOMEM;
	if (e == 0) {
		for (uint32_t i = 0; i < r.n; i++)
			bytes += r.it[i].rlen + 1;
		for (uint32_t i = 0; i < r.nctx; i++)
			bytes += r.clen[i] + 1;
		e = fc_prepare(l->d, r.n, bytes);
	}
	for (uint32_t i = 0; e == 0 && i < r.n; i++) {
		const struct item *it = &r.it[i];

		/* A spec's line number in a .bin is its position (as in
		 * version 5): it only appears in messages. */
		e = fc_add_spec_cached(l, it->regex, it->rlen, it->mode,
				       r.ctx[it->ctx], r.clen[it->ctx],
				       &ictx[it->ctx], i + 1);
		if (e == FC_STOP) {
			e = 0;
			break;
		}
	}
	free(r.it);
	free(r.ctx);
	free(r.clen);
	free(ictx);
	if (map != MAP_FAILED)
		munmap(map, len);
	return e;
}
