/* label/fc_lookup.c: the file backend's lookup operations. */
#include <string.h>

#include "fc.h"
#include "release.h"
#include "tree.h"

/* Is there a "//" in key?  (memmem's setup costs more than this on a
 * path's length.) */
static bool has_double_slash(const char *key, size_t len)
{
	const char *p = key, *end = key + len;

	while ((p = memchr(p, '/', end - p)) && ++p < end)
		if (*p == '/')
			return true;
	return false;
}

int fc_key(struct fc_data *d, const char *key, char *buf, size_t size,
	   char **out, size_t *outlen, int rules[2])
{
	size_t len = strlen(key), o = 0;
	const char *k = key;
	char *sub = NULL, *dsub = NULL;
	int r;

	*out = NULL;
	if (!len)
		return -EINVAL;
	if ((len > 1 && key[len - 1] == '/') || has_double_slash(key, len)) {
		/*
		 * analyzer: false positive (gcc malloc-leak): a heap n becomes
		 * k, freed below or by the caller's fc_key_free(); GCC 12
		 * cannot tell k from key and buf.
		 */
		char *n = len < size ? buf : malloc(len + 1);

		if (!n)
			return -ENOMEM;
		/* A run of slashes counts as one. */
		for (size_t i = 0; i < len; i++) {
			if (key[i] == '/' && o && n[o - 1] == '/')
				continue;
			n[o++] = key[i];
		}
		/* "/usr/" is looked up as "/usr" (but "/" stays). */
		if (o > 1 && n[o - 1] == '/')
			o--;
		n[o] = '\0';
		k = n;
		len = o;
	}
	/* .subs first; .subs_dist then applies to its result. */
	r = fc_subs_apply(d->subs, d->nsubs, k, len, &sub,
			  rules ? &rules[0] : NULL);
	if (r >= 0)
		r = fc_subs_apply(d->dist_subs, d->ndist_subs, sub ? sub : k,
				  sub ? strlen(sub) : len, &dsub,
				  rules ? &rules[1] : NULL);
	if (r < 0 || dsub || sub) {
		if (k != key && k != buf)
			free((char *)k);
		if (r < 0) {
			free(sub);
			return r;
		}
		if (dsub)
			free(sub);
		k = dsub ? dsub : sub;
		len = strlen(k);
	}
	*out = (char *)k;
	*outlen = len;
	return 0;
}

/*
 * analyzer: false positive (gcc malloc-leak in fc_find, fc_partial_match,
 * fc_hash_all_partial): GCC 12 cannot tell a heap k from key and buf here, and
 * reports k as leaked by its callers.
 */
void fc_key_free(char *k, const char *key, const char *buf)
{
	if (k != key && k != buf)
		free(k);
}

/* Spec i answered a lookup (selabel_stats).  The flags are allocated
 * on first use; out of memory, the mark is lost (a stats line too
 * many), nothing else. */
static void fc_mark_used(struct fc_data *d, uint32_t i)
{
	uint8_t *u = __atomic_load_n(&d->used, __ATOMIC_ACQUIRE);

	if (!u) {
		uint8_t *n = calloc(d->nspec, 1), *expected = NULL;

		if (!n)
			return;
		if (!__atomic_compare_exchange_n(&d->used, &expected, n, false,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			free(n);
		u = __atomic_load_n(&d->used, __ATOMIC_ACQUIRE);
	}
	if (!__atomic_load_n(&u[i], __ATOMIC_RELAXED))
		__atomic_store_n(&u[i], 1, __ATOMIC_RELAXED);
}

struct fc_data *fc_cur(const struct selabel_handle *h)
{
	void *d = __atomic_load_n(&h->data, __ATOMIC_ACQUIRE);

	return d;
}

struct fc_data *fc_retry(struct selabel_handle *h, struct fc_data *d)
{
	if (!d->img || !__atomic_load_n(&d->img_bad, __ATOMIC_ACQUIRE))
		return NULL;
	return fc_image_fallback(h, d);
}

/* The winning spec index of d for key and type, or -errno. */
static int fc_find(struct fc_data *d, const char *key, int type)
{
	char buf[1024], *k;
	size_t klen;
	int r;

	if (!d->nspec)
		return strlen(key) ? -ENOENT : -EINVAL;
	r = fc_key(d, key, buf, sizeof(buf), &k, &klen, NULL);
	if (r < 0)
		return r;
	r = fc_index_lookup(d, k, klen, (uint32_t)type & S_IFMT);
	fc_key_free(k, key, buf);
	if (r < 0)
		return r;
	fc_mark_used(d, r);
	if (!strcmp(fc_ctx(d, r), "<<none>>"))
		return -ENOENT;
	return r;
}

static void fill(struct fc_data *d, int idx, struct lbl_result *res)
{
	res->ctx_raw = fc_ctx(d, idx);
	res->lineno = fc_lineno(d, idx);
	res->file = d->files[fc_sfile(d, idx)];
}

static int fc_lookup(struct selabel_handle *h, const char *key, int type,
		     struct lbl_result *res)
{
	struct fc_data *d = fc_cur(h), *d2;
	int r = fc_find(d, key, type);

	if (r == -EINVAL && (d2 = fc_retry(h, d)))
		r = fc_find(d = d2, key, type);
	if (r < 0)
		return r;
	fill(d, r, res);
	return 0;
}

/*
 * The key and each alias are looked up; an exact (literal) spec match
 * wins at once, otherwise the match with the longest fixed prefix (the
 * reference's prefix_len, the first of equals).
 */
static int best_match(struct fc_data *d, const char *key, const char **aliases,
		      int type, struct lbl_result *res)
{
	int best = -1;
	uint32_t best_len = 0;

	if (fc_index_ensure(d) < 0)
		return -ENOMEM;
	for (size_t i = 0;; i++) {
		const char *k = i ? aliases[i - 1] : key;
		int r;

		if (i && !k)
			break;
		r = fc_find(d, k, type);
		if (r == -ENOMEM)
			return r;
		/* (an index image that does not check out: ask again) */
		if (r == -EINVAL && d->img &&
		    __atomic_load_n(&d->img_bad, __ATOMIC_ACQUIRE))
			return r;
		if (r < 0)
			continue;
		if (!fc_meta_of(d, r)) {
			fill(d, r, res);
			return 0;
		}
		if (best < 0 || d->ix[r].prefix_len > best_len) {
			best = r;
			best_len = d->ix[r].prefix_len;
		}
	}
	if (best < 0)
		return -ENOENT;
	fill(d, best, res);
	return 0;
}

static int fc_best_match(struct selabel_handle *h, const char *key,
			 const char **aliases, int type, struct lbl_result *res)
{
	struct fc_data *d = fc_cur(h), *d2;
	int r;

	if (!aliases || !aliases[0])
		return fc_lookup(h, key, type, res);
	r = best_match(d, key, aliases, type, res);
	if (r == -EINVAL && (d2 = fc_retry(h, d)))
		r = best_match(d2, key, aliases, type, res);
	return r;
}

/*
 * Specs matching key completely or as a prefix (PCRE2_PARTIAL_SOFT),
 * highest first, file type and stem not considered: the reference's
 * rule for partial matches.  Calls f for each; f returns nonzero to stop.
 * Returns the number of matches, or -errno (-EINVAL: a regex PCRE2
 * rejects was reached, where the reference gives up too).
 */
static int each_partial(struct fc_data *d, const char *key,
			int (*f)(struct fc_data *d, uint32_t i, void *u),
			void *u)
{
	pcre2_match_data *md;
	int n = 0;

	if (fc_image_check_all(d) < 0)
		return -EINVAL;
	md = pcre2_match_data_create(1, NULL);
	if (!md)
		return -ENOMEM;
	for (uint32_t i = d->nspec; i-- > 0;) {
		pcre2_code *re = fc_spec_re(d, i);
		int rc;

		if (!re) {
			n = fc_spec_bad(d, i) ? -EINVAL : -ENOMEM;
			break;
		}
		rc = pcre2_match(re, (PCRE2_SPTR)key, strlen(key), 0,
				 PCRE2_PARTIAL_SOFT, md, NULL);
		if (rc >= 0 || rc == PCRE2_ERROR_PARTIAL) {
			n++;
			if (f(d, i, u))
				break;
		} else if (rc != PCRE2_ERROR_NOMATCH) {
			n = -EINVAL;
			break;
		}
	}
	pcre2_match_data_free(md);
	return n;
}

static int stop_first(struct fc_data *d, uint32_t i, void *u)
{
	(void)d;
	*(int64_t *)u = i;
	return 1;
}

static int fc_partial_match(struct selabel_handle *h, const char *key)
{
	struct fc_data *d = fc_cur(h), *d2;
	char buf[1024], *k;
	int64_t s = -1;
	size_t klen;
	int r;

	if (!d->nspec || fc_key(d, key, buf, sizeof(buf), &k, &klen, NULL) < 0)
		return 0;
	r = each_partial(d, k, stop_first, &s);
	if (r == -EINVAL && (d2 = fc_retry(h, d))) {
		d = d2;
		r = each_partial(d, k, stop_first, &s);
	}
	fc_key_free(k, key, buf);
	if (r <= 0 || s < 0)
		return 0;
	/* A "<<none>>" spec answers "no", as the reference's does. */
	return strcmp(fc_ctx(d, s), "<<none>>") != 0;
}

struct hash_state {
	struct lbl_sha1 sha;
	unsigned int n;
};

static int hash_one(struct fc_data *d, uint32_t i, void *u)
{
	struct hash_state *hs = u;
	struct lbl_sha1 *sha = &hs->sha;
	mode_t mode = fc_smode(d, i);
	const char *ctx = fc_ctx(d, i);

	/* The reference's list of partial matches ends before the first
	 * "<<none>>" spec. */
	if (!strcmp(ctx, "<<none>>"))
		return 1;

	lbl_sha1_update(sha, fc_regex(d, i), fc_rlen(d, i) + 1);
	lbl_sha1_update(sha, &mode, sizeof(mode));
	lbl_sha1_update(sha, ctx, strlen(ctx) + 1);
	hs->n++;
	return 0;
}

static int fc_hash_all_partial(struct selabel_handle *h, const char *key,
			       uint8_t digest[LBL_SHA1_LEN])
{
	struct fc_data *d = fc_cur(h), *d2;
	char buf[1024], *k;
	struct hash_state hs = {.n = 0};
	size_t klen;
	int r;

	if (!d->nspec)
		return 0;
	r = fc_key(d, key, buf, sizeof(buf), &k, &klen, NULL);
	if (r < 0)
		return r;
	if (rel_partial_digest() >= REL_38) {
		/* another walk, another hash (fc_partial6.c) */
		r = fc_hash_partial6(d, k, digest);
		if (r == -EINVAL && (d2 = fc_retry(h, d)))
			r = fc_hash_partial6(d2, k, digest);
		fc_key_free(k, key, buf);
		return r;
	}
	lbl_sha1_init(&hs.sha);
	r = each_partial(d, k, hash_one, &hs);
	if (r == -EINVAL && (d2 = fc_retry(h, d))) {
		hs.n = 0;
		lbl_sha1_init(&hs.sha);
		r = each_partial(d2, k, hash_one, &hs);
	}
	fc_key_free(k, key, buf);
	/* Nothing before a "<<none>>": no digest, as the reference. */
	if (r <= 0 || !hs.n)
		return r < 0 ? r : 0;
	lbl_sha1_final(&hs.sha, digest);
	return 1;
}

static void fc_stats(struct selabel_handle *h)
{
	struct fc_data *d = fc_cur(h);
	const uint8_t *used;

	if (fc_image_check_all(d) < 0 && !(d = fc_retry(h, d)))
		return;
	used = __atomic_load_n(&d->used, __ATOMIC_ACQUIRE);
	/* 3.8 and later: in their tree's order, in words (tree.c). */
	if (rel_tree()) {
		fc_tree_stats(d, used);
		return;
	}
	for (uint32_t i = 0; i < d->nspec; i++) {
		const char *t = fc_mode_to_string(fc_smode(d, i));

		if (used && __atomic_load_n(&used[i], __ATOMIC_RELAXED))
			continue;
		if (t)
			core_log(SELINUX_WARNING,
				 "Warning!  No matches for (%s, %s, %s)\n",
				 fc_regex(d, i), t, fc_ctx(d, i));
		else
			core_log(SELINUX_WARNING,
				 "Warning!  No matches for (%s, %s)\n",
				 fc_regex(d, i), fc_ctx(d, i));
	}
}

/*
 * Both handles hold their specs in the same sorted order; compare them
 * pairwise: regex, file type and context must agree.  A handle holding
 * more specs than the other (the rest equal) is its superset.
 */
static enum selabel_cmp_result fc_cmp(const struct selabel_handle *a,
				      const struct selabel_handle *b)
{
	struct fc_data *d1 = fc_cur(a), *d2 = fc_cur(b);
	uint32_t i = 0, j = 0;
	bool skipped1 = false, skipped2 = false;

	if (fc_image_check_all(d1) < 0 &&
	    !(d1 = fc_retry((struct selabel_handle *)a, d1)))
		return SELABEL_INCOMPARABLE;
	if (fc_image_check_all(d2) < 0 &&
	    !(d2 = fc_retry((struct selabel_handle *)b, d2)))
		return SELABEL_INCOMPARABLE;
	/* 3.8 and later compare their trees (tree.c). */
	if (rel_tree())
		return fc_tree_cmp(d1, d2);

	while (i < d1->nspec && j < d2->nspec) {
		bool m1 = fc_meta_of(d1, i), m2 = fc_meta_of(d2, j);

		if (m1 != m2) {
			/* One side has more regex specs. */
			if (m1) {
				skipped1 = true;
				i++;
			} else {
				skipped2 = true;
				j++;
			}
			continue;
		}
		if (strcmp(fc_regex(d1, i), fc_regex(d2, j)) ||
		    fc_smode(d1, i) != fc_smode(d2, j) ||
		    strcmp(fc_ctx(d1, i), fc_ctx(d2, j)))
			return SELABEL_INCOMPARABLE;
		i++;
		j++;
	}
	if (i < d1->nspec)
		skipped1 = true;
	if (j < d2->nspec)
		skipped2 = true;
	if (skipped1 && skipped2)
		return SELABEL_INCOMPARABLE;
	if (skipped1)
		return SELABEL_SUPERSET;
	if (skipped2)
		return SELABEL_SUBSET;
	return SELABEL_EQUAL;
}

static void fc_close(struct selabel_handle *h)
{
	fc_data_free(h->data);
	h->data = NULL;
}

const struct lbl_ops fc_ops = {
    .lookup = fc_lookup,
    .best_match = fc_best_match,
    .partial_match = fc_partial_match,
    .hash_all_partial = fc_hash_all_partial,
    .cmp = fc_cmp,
    .stats = fc_stats,
    .close = fc_close,
};
