/* label/file/partial6.c: the digest of the specs partially matching a
 * directory (selabel_hash_all_partial_matches, security.sehash), as
 * libselinux 3.8.1 and 3.11 compute it. */
#include <string.h>

#include "fc.h"
#include "release.h"

/*
 * Established by experiment only: each release's
 * selabel_get_digests_all_partial_matches in its Debian root, on small
 * file_contexts of specs placed in chosen nodes, against SHA1s of
 * candidate byte strings (README, "Today's releases").
 *
 * Both releases hash, for each spec taken, its regex as written with its
 * NUL, one byte of file kind (version 6's numbering, fc_bin6.c: 0 any,
 * 1 dir, 2 chr, 3 blk, 4 sock, 5 fifo, 6 lnk, 7 reg) and its context with
 * its NUL.  The specs are those of the tree version 6 describes
 * (fc_bin6.c: a spec sits in the node of the first, at most 3, plain
 * components of its path) that match key completely or as a prefix
 * (PCRE2_PARTIAL_SOFT, as 3.4), taken node by node:
 *
 *  - the chain: the node of key's components that are followed by a '/'
 *    ("/srv/t": node "srv"), up to the root, deepest first; in each node
 *    its literal specs sorted by literal (equal ones as the release's
 *    sefcontext_compile orders them, fc_bin6_write.c), then its regex
 *    specs, the last line first;
 *  - 3.11 only, before the chain: the subtrees below it whose first
 *    component starts with key's last component ("t": nodes "srv/t",
 *    "srv/tt", ... and their descendants), these first components in
 *    descending order, each subtree in ascending order with a node before
 *    its children; in each node its literal specs sorted as above, then
 *    its regex specs in line order.  Nothing when key has more than 3
 *    components before its last.
 *
 * A "<<none>>" spec among them: 3.8.1 gives no digest at all; 3.11
 * leaves it out (its own program hangs when the spec is literal and in
 * the chain; we leave it out as well).  No spec: no digest.
 */

struct p6 {
	uint32_t i;
	uint64_t pos; /* where it was read: its file, then its line (a
		       * .bin's: its position), see cmp_lits */
	uint8_t kind;
	uint8_t part;	 /* 0: in a subtree (3.11), 1: in the chain */
	uint8_t depth;	 /* of its node */
	bool bin;	 /* read from a .bin (see cmp_lits) */
	const char *lit; /* its literal (into buf), NULL for a regex spec */
	const char *comp[FC_BIN6_DEPTH]; /* its node's components (into buf) */
};

struct p6set {
	struct p6 *v;
	uint32_t n;
	uint8_t kn; /* key's components before its last */
	unsigned rel;
};

static uint8_t kind_of(uint32_t mode)
{
	for (uint8_t k = 1; k < FC_BIN6_KINDS; k++)
		if (fc_bin6_kind_mode[k] == mode)
			return k;
	return 0;
}

/*
 * Spec i's literal (if it is one) and node, as fc_bin6_write.c's place()
 * finds them, into *e; the strings into a buffer of its own (e->lit or,
 * for a regex spec, comp[0] points at its start: freed by the caller).
 */
static int analyse(struct fc_data *d, uint32_t i, struct p6 *e)
{
	const char *re = fc_regex(d, i);
	size_t rlen = fc_rlen(d, i);
	ssize_t k = fc_bin6_simplify(re, rlen, NULL);
	char *buf = malloc(2 * rlen + 2), *o = buf;
	const char *p;

	if (!buf)
		return -ENOMEM;
	e->lit = NULL;
	e->depth = 0;
	if (k >= 0) {
		fc_bin6_simplify(re, rlen, buf);
		e->lit = buf;
		o = buf + k + 1;
	}
	p = e->lit ? e->lit : re;
	while (e->depth < FC_BIN6_DEPTH) {
		const char *c;
		size_t len;
		ssize_t n;

		if (!fc_bin6_next(&p, e->lit, &c, &len))
			break;
		if (e->lit) {
			memcpy(o, c, len);
			n = len;
		} else {
			n = fc_bin6_simplify(c, len, o);
			if (n < 0)
				break;
		}
		o[n] = '\0';
		e->comp[e->depth++] = o;
		o += n + 1;
	}
	if (!e->lit && !e->depth)
		free(buf);
	else if (!e->lit)
		e->comp[0] = buf; /* (buf starts with it) */
	return 0;
}

static void p6_free(struct p6 *e)
{
	if (e->lit)
		free((char *)e->lit);
	else if (e->depth)
		free((char *)e->comp[0]);
}

/* Literal specs of one node: by literal, then as the release's
 * sefcontext_compile orders equal ones (fc_bin6_write.c).  "File order"
 * is the order read for specs read from text, its reverse for those
 * read from a version 6 .bin (fc_bin6.c's reader turns them round).
 * The order read, not our index order: label_file.c's rank_literals
 * reorders equal literal specs by which one wins a lookup (for 3.11 the
 * first of a file last), and the digest does not follow that. */
static int cmp_lits(const struct p6set *s, const struct p6 *a,
		    const struct p6 *b)
{
	int c = strcmp(a->lit, b->lit);

	if (c)
		return c;
	if (s->rel < REL_311 && a->kind != b->kind)
		return a->kind > b->kind ? -1 : 1;
	if (a->pos != b->pos) {
		if (a->bin)
			return a->pos > b->pos ? -1 : 1;
		return a->pos < b->pos ? -1 : 1;
	}
	return a->i < b->i ? -1 : a->i > b->i;
}

static int cmp(const void *x, const void *y, void *u)
{
	const struct p6set *s = u;
	const struct p6 *a = x, *b = y;
	uint8_t n;
	int c;

	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	if (a->part == 1) {
		/* the chain: deepest node first */
		if (a->depth != b->depth)
			return a->depth > b->depth ? -1 : 1;
	} else {
		/* subtrees: by their first component (below key's
		 * node), descending, ... */
		c = strcmp(a->comp[s->kn], b->comp[s->kn]);
		if (c)
			return c > 0 ? -1 : 1;
		/* ... each in ascending order, a node before its
		 * children */
		n = a->depth < b->depth ? a->depth : b->depth;
		for (uint8_t k = s->kn + 1; k < n; k++) {
			c = strcmp(a->comp[k], b->comp[k]);
			if (c)
				return c;
		}
		if (a->depth != b->depth)
			return a->depth < b->depth ? -1 : 1;
	}
	if (!a->lit != !b->lit)
		return a->lit ? -1 : 1;
	if (a->lit)
		return cmp_lits(s, a, b);
	if (a->part == 1)
		return a->i > b->i ? -1 : a->i < b->i;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Was spec i read from a compiled file?  (One tie rule for all: the
 * literal specs of a version 6 .bin are in reverse order in our index,
 * those of the text in file order.) */
static bool from_bin(const struct fc_data *d, uint32_t i)
{
	const char *f;
	size_t n;

	if (!d->files || fc_sfile(d, i) >= d->nfiles)
		return false;
	f = d->files[fc_sfile(d, i)];
	n = strlen(f);
	return n > 4 && !strcmp(f + n - 4, ".bin");
}

/* Where e's node lies for key's components kc[0..kn) and last component
 * last (NULL: none): 1 in the chain, 0 in a subtree (3.11), -1 neither. */
static int part_of(const struct p6 *e, const char *const *kc, uint8_t kn,
		   const char *last, size_t lastlen, unsigned rel)
{
	for (uint8_t k = 0; k < e->depth && k < kn; k++)
		if (strcmp(e->comp[k], kc[k]))
			return -1;
	if (e->depth <= kn)
		return 1;
	if (rel < REL_311 || !last || strncmp(e->comp[kn], last, lastlen))
		return -1;
	return 0;
}

/* key's components followed by a '/' (at most 3) as strings in buf
 * (room for strlen(key) + 1 bytes), into kc[*kn]; its last component
 * (after the last '/', if none follows it) in *last, *lastlen, or NULL. */
static void key_parts(const char *key, char *buf, const char **kc, uint8_t *kn,
		      const char **last, size_t *lastlen)
{
	const char *p = key;

	*kn = 0;
	*last = NULL;
	*lastlen = 0;
	while (*kn < FC_BIN6_DEPTH && *p == '/') {
		const char *q = strchr(p + 1, '/');
		size_t len;

		if (!q)
			break;
		len = q - p - 1;
		if (len) {
			memcpy(buf, p + 1, len);
			buf[len] = '\0';
			kc[(*kn)++] = buf;
			buf += len + 1;
		}
		p = q;
	}
	if (*p == '/' && !strchr(p + 1, '/')) {
		*last = p + 1;
		*lastlen = strlen(*last);
	}
}

/* The specs of d that match key partially and lie in the release's part
 * of the tree for it, into s: 0 or -errno (-EINVAL: a regex PCRE2
 * rejects or fails to match). */
static int collect(struct fc_data *d, const char *key, struct p6set *s,
		   const char *const *kc, uint8_t kn, const char *last,
		   size_t lastlen)
{
	size_t klen = strlen(key);
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	int r = 0;

	s->v = calloc(d->nspec ? d->nspec : 1, sizeof(*s->v));
	if (!md || !s->v) {
		pcre2_match_data_free(md);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < d->nspec; i++) {
		pcre2_code *re = fc_spec_re(d, i);
		struct p6 *e = &s->v[s->n];
		int rc, part;

		if (!re) {
			r = fc_spec_bad(d, i) ? -EINVAL : -ENOMEM;
			break;
		}
		rc = pcre2_match(re, (PCRE2_SPTR)key, klen, 0,
				 PCRE2_PARTIAL_SOFT, md, NULL);
		if (rc < 0 && rc != PCRE2_ERROR_PARTIAL) {
			if (rc == PCRE2_ERROR_NOMATCH)
				continue;
			r = -EINVAL;
			break;
		}
		if ((r = analyse(d, i, e)) < 0)
			break;
		part = part_of(e, kc, kn, last, lastlen, s->rel);
		if (part < 0) {
			p6_free(e);
			continue;
		}
		e->i = i;
		e->kind = kind_of(fc_smode(d, i));
		e->part = part;
		e->bin = from_bin(d, i);
		e->pos = (uint64_t)fc_sfile(d, i) << 32 | fc_lineno(d, i);
		s->n++;
	}
	pcre2_match_data_free(md);
	return r;
}

/* The digest of s's specs in the release's order: 1 and digest, or 0
 * (none, or 3.8.1 meeting a "<<none>>"). */
static int digest_of(struct fc_data *d, struct p6set *s,
		     uint8_t digest[LBL_SHA1_LEN])
{
	struct lbl_sha1 sha;
	int n = 0;

	qsort_r(s->v, s->n, sizeof(*s->v), cmp, s);
	lbl_sha1_init(&sha);
	for (uint32_t k = 0; k < s->n; k++) {
		uint32_t i = s->v[k].i;
		const char *ctx = fc_ctx(d, i);

		if (!strcmp(ctx, "<<none>>")) {
			if (s->rel < REL_311)
				return 0;
			continue;
		}
		lbl_sha1_update(&sha, fc_regex(d, i), fc_rlen(d, i) + 1);
		lbl_sha1_update(&sha, &s->v[k].kind, 1);
		lbl_sha1_update(&sha, ctx, strlen(ctx) + 1);
		n++;
	}
	if (!n)
		return 0;
	lbl_sha1_final(&sha, digest);
	return 1;
}

int fc_hash_partial6(struct fc_data *d, const char *key,
		     uint8_t digest[LBL_SHA1_LEN])
{
	struct p6set s = {.rel = rel_partial_digest()};
	const char *kc[FC_BIN6_DEPTH], *last;
	char kbuf[3 * 256], *ko = kbuf;
	_cleanup_free_ char *kheap = NULL;
	size_t klen = strlen(key), lastlen;
	uint8_t kn;
	int r;

	if (klen + 1 > sizeof(kbuf)) {
		kheap = malloc(klen + 1);
		if (!kheap)
			return -ENOMEM;
		ko = kheap;
	}
	key_parts(key, ko, kc, &kn, &last, &lastlen);
	if (fc_image_check_all(d) < 0)
		return -EINVAL;
	r = collect(d, key, &s, kc, kn, last, lastlen);
	if (r == 0 && s.n) {
		s.kn = kn;
		r = digest_of(d, &s, digest);
	}
	for (uint32_t k = 0; k < s.n; k++)
		p6_free(&s.v[k]);
	free(s.v);
	return r;
}
