/* label/index/image_write.c: the index image (image.h) of an indexed
 * fc_data, assembled in memory for its writer (file/image_write.c). */
#include <string.h>

#include "image.h"
#include "node.h"

/* The image being assembled, in memory. */
struct out {
	uint8_t *p;
	size_t len, cap;
	int err;
};

/* n bytes at the end of o, 8-aligned, zeroed: their offset. */
static size_t grow(struct out *o, size_t n)
{
	size_t at = (o->len + 7) & ~(size_t)7;

	if (o->err)
		return 0;
	if (at + n > o->cap) {
		size_t cap = o->cap ? o->cap : 1 << 20;
		uint8_t *p;

		while (cap < at + n)
			cap *= 2;
		p = realloc(o->p, cap);
		if (!p) {
			o->err = -ENOMEM;
			return 0;
		}
		o->p = p;
		o->cap = cap;
	}
	memset(o->p + o->len, 0, at + n - o->len);
	o->len = at + n;
	return at;
}

/* A section of n bytes copied from src (or zeroed): its offset. */
static size_t put_sec(struct out *o, int s, const void *src, size_t n)
{
	size_t at = grow(o, n);
	struct fc_img_hdr *hd = (struct fc_img_hdr *)o->p;

	if (o->err)
		return 0;
	if (src && n)
		memcpy(o->p + at, src, n);
	hd->sec[s].off = at;
	hd->sec[s].len = n;
	return at;
}

/* The string pool: every regex, and each distinct context once (ctxs:
 * their offsets, "<<none>>" apart, in the order first met). */
struct pool {
	char *p;
	size_t len, cap;
	uint32_t *tab; /* offsets + 1 of contexts, open addressing */
	uint32_t mask;
	uint32_t *ctxs, nctxs;
};

static int64_t pool_add(struct pool *pl, const char *s, bool share)
{
	size_t n = strlen(s) + 1;
	uint32_t b = 0;

	if (share) {
		b = fc_hash(s, n - 1) & pl->mask;
		for (; pl->tab[b]; b = (b + 1) & pl->mask)
			if (!strcmp(pl->p + pl->tab[b] - 1, s))
				return pl->tab[b] - 1;
	}
	if (pl->len + n > UINT32_MAX - 1)
		return -EOVERFLOW;
	if (pl->len + n > pl->cap) {
		size_t cap = pl->cap ? 2 * pl->cap : 1 << 16;
		char *p;

		while (cap < pl->len + n)
			cap *= 2;
		p = realloc(pl->p, cap);
		if (!p)
			return -ENOMEM;
		pl->p = p;
		pl->cap = cap;
	}
	memcpy(pl->p + pl->len, s, n);
	if (share) {
		pl->tab[b] = (uint32_t)pl->len + 1;
		if (strcmp(s, "<<none>>"))
			pl->ctxs[pl->nctxs++] = (uint32_t)pl->len;
	}
	pl->len += n;
	return pl->len - n;
}

/* The specs and their strings. */
static int put_specs(struct out *o, const struct fc_data *d)
{
	struct fc_ispec *v = calloc(d->nspec + 1, sizeof(*v));
	struct pool pl = {0};
	int r = 0;

	pl.mask = 1;
	while (pl.mask < 2 * d->nspec + 2)
		pl.mask *= 2;
	pl.tab = calloc(pl.mask, sizeof(*pl.tab));
	pl.ctxs = malloc((d->nspec + 1) * sizeof(*pl.ctxs));
	pl.mask--;
	if (!v || !pl.tab || !pl.ctxs) {
		r = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < d->nspec; i++) {
		const struct fc_spec *s = &d->spec[i];
		int64_t re = pool_add(&pl, s->regex, false);
		int64_t ctx = re < 0 ? re : pool_add(&pl, s->ctx, true);

		if (ctx < 0) {
			r = (int)ctx;
			goto out;
		}
		v[i] = (struct fc_ispec){.regex = (uint32_t)re,
					 .ctx = (uint32_t)ctx,
					 .mode = s->mode,
					 .lineno = s->lineno,
					 .rlen = s->rlen,
					 .file = s->file,
					 .meta = s->meta};
	}
	put_sec(o, FC_SEC_SPEC, v, d->nspec * sizeof(*v));
	put_sec(o, FC_SEC_STR, pl.p, pl.len);
	put_sec(o, FC_SEC_CTXS, pl.ctxs, (size_t)pl.nctxs * 4);
out:
	free(v);
	free(pl.p);
	free(pl.tab);
	free(pl.ctxs);
	return r < 0 ? r : o->err;
}

/* The trie, its nodes' sets and automata. */
static int put_trie(struct out *o, const struct fc_data *d)
{
	const struct fc_trie *t = &d->trie;
	struct fc_tnode *node = malloc((t->nnode + 1) * sizeof(*node));
	struct fc_iset *sets = calloc(t->nnode + 1, sizeof(*sets));
	uint32_t nsets = 0, ndfas = 0, nrest = 0, k, i;
	uint64_t *dfas = NULL;
	uint32_t *rest = NULL;
	size_t dfa_len = 0, base;
	int r = -ENOMEM;

	if (!node || !sets)
		goto out;
	for (k = 0; k < t->nnode; k++) {
		const struct fc_set *s = d->ns[k].set;

		node[k] = t->node[k];
		node[k].set = UINT32_MAX;
		if (!t->node[k].nspecs)
			continue;
		node[k].set = nsets;
		sets[nsets] = (struct fc_iset){ndfas, s->ndfa, nrest, s->nrest};
		nsets++;
		ndfas += s->ndfa;
		nrest += s->nrest;
		for (i = 0; i < s->ndfa; i++)
			dfa_len += (fc_dfa_size(s->dfa[i]) + 7) & ~(size_t)7;
	}
	dfas = malloc((ndfas + 1) * sizeof(*dfas));
	rest = malloc((nrest + 1) * sizeof(*rest));
	if (!dfas || !rest)
		goto out;
	put_sec(o, FC_SEC_TNODE, node, t->nnode * sizeof(*node));
	put_sec(o, FC_SEC_TKEYS, t->keys, t->nkids);
	put_sec(o, FC_SEC_TKIDS, t->kids, t->nkids * sizeof(*t->kids));
	put_sec(o, FC_SEC_TSPECS, t->specs, t->nspecs * sizeof(*t->specs));
	put_sec(o, FC_SEC_TLABELS, t->labels, t->nlabels);
	put_sec(o, FC_SEC_SETS, sets, nsets * sizeof(*sets));
	base = put_sec(o, FC_SEC_DFA, NULL, dfa_len);
	ndfas = nrest = 0;
	dfa_len = 0;
	for (k = 0; !o->err && k < t->nnode; k++) {
		const struct fc_set *s = d->ns[k].set;

		if (!t->node[k].nspecs)
			continue;
		for (i = 0; i < s->ndfa; i++) {
			size_t n = fc_dfa_size(s->dfa[i]);

			memcpy(o->p + base + dfa_len, s->dfa[i], n);
			dfas[ndfas++] = dfa_len;
			dfa_len += (n + 7) & ~(size_t)7;
		}
		if (s->nrest)
			memcpy(rest + nrest, s->rest, s->nrest * sizeof(*rest));
		nrest += s->nrest;
	}
	put_sec(o, FC_SEC_DFAS, dfas, ndfas * sizeof(*dfas));
	put_sec(o, FC_SEC_DFASUM, NULL, (size_t)ndfas * 4);
	put_sec(o, FC_SEC_REST, rest, nrest * sizeof(*rest));
	r = o->err;
out:
	free(node);
	free(sets);
	free(dfas);
	free(rest);
	return r;
}

/* The checksums of every unit of the image in o (fc_image.h), computed
 * over the image itself as a reader sees it. */
static int put_sums(struct out *o)
{
	struct fc_img_hdr *hd = (struct fc_img_hdr *)o->p;
	struct fc_data v = {0};
	uint32_t *spec = (uint32_t *)(o->p + hd->sec[FC_SEC_SPECSUM].off);
	uint32_t *node = (uint32_t *)(o->p + hd->sec[FC_SEC_NODESUM].off);
	uint32_t *head = (uint32_t *)(o->p + hd->sec[FC_SEC_HEADSUM].off);
	uint32_t *dfa = (uint32_t *)(o->p + hd->sec[FC_SEC_DFASUM].off);
	int r = fc_image_view(&v, o->p, o->len);

	if (r < 0)
		return r;
	hd->files_sum =
	    fc_sum_end(fc_sum(FC_SUM_INIT, o->p + hd->sec[FC_SEC_FILES].off,
			      hd->sec[FC_SEC_FILES].len));
	hd->single_sum =
	    fc_sum_end(fc_sum(FC_SUM_INIT, o->p + hd->sec[FC_SEC_SINGLE].off,
			      hd->sec[FC_SEC_SINGLE].len));
	hd->ctxs_sum =
	    fc_sum_end(fc_sum(FC_SUM_INIT, o->p + hd->sec[FC_SEC_CTXS].off,
			      hd->sec[FC_SEC_CTXS].len));
	for (uint32_t i = 0; i < v.trie.ndfas; i++) {
		const struct fc_dfa *a =
		    (const void *)(v.trie.dfa_base + v.trie.dfas[i]);

		dfa[i] = fc_sum_end(fc_sum(FC_SUM_INIT, a, a->size));
	}
	for (uint32_t i = 0; i < v.nspec; i++)
		spec[i] = fc_spec_sum(&v, i);
	for (uint32_t k = 0; k < v.trie.nnode; k++)
		node[k] = fc_node_sum(&v, k);
	for (uint32_t b = 0; b <= v.mask / 64; b++)
		head[b] = fc_heads_sum(&v, b);
	free(v.ok_spec);
	return 0;
}

/* The whole image of d, whose files were read as roles[] (nroles) with
 * the inputs in[] and digest dg, into o. */
static int assemble(struct out *o, const struct fc_data *d,
		    const uint32_t *roles, uint32_t nroles,
		    const struct fc_img_input *in, const uint8_t *dg)
{
	struct fc_img_hdr *hd;
	int r;

	grow(o, sizeof(*hd));
	if (o->err)
		return o->err;
	put_sec(o, FC_SEC_FILES, roles, nroles * sizeof(*roles));
	r = put_specs(o, d);
	if (r < 0)
		return r;
	put_sec(o, FC_SEC_IX, d->ix, d->nspec * sizeof(*d->ix));
	put_sec(o, FC_SEC_LITS, d->lits, d->nlits);
	put_sec(o, FC_SEC_HEADS, d->heads, ((size_t)d->mask + 1) * 4);
	put_sec(o, FC_SEC_SINGLE, d->single, (size_t)d->nsingle * 4);
	r = put_trie(o, d);
	if (r < 0)
		return r;
	put_sec(o, FC_SEC_SPECSUM, NULL, (size_t)d->nspec * 4);
	put_sec(o, FC_SEC_NODESUM, NULL, (size_t)d->trie.nnode * 4);
	put_sec(o, FC_SEC_HEADSUM, NULL, ((size_t)d->mask + 64) / 64 * 4);
	if (o->err)
		return o->err;
	o->len = (o->len + 7) & ~(size_t)7;
	hd = (struct fc_img_hdr *)o->p;
	memcpy(hd->magic, FC_IMG_MAGIC, sizeof(FC_IMG_MAGIC));
	hd->version = FC_IMG_VERSION;
	hd->semantics = FC_IMG_SEMANTICS;
	hd->order = FC_IMG_ORDER;
	hd->word = FC_IMG_WORD;
	hd->sizes = FC_IMG_SIZES;
	hd->nspec = d->nspec;
	hd->nfiles = nroles;
	hd->nsingle = d->nsingle;
	hd->mask = d->mask;
	hd->size = o->len;
	memcpy(hd->digest, dg, sizeof(hd->digest));
	memcpy(hd->fixed_lens, d->fixed_lens, sizeof(hd->fixed_lens));
	memcpy(hd->input, in, sizeof(hd->input));
	r = put_sums(o);
	if (r < 0)
		return r;
	hd->check = fc_img_check(hd, offsetof(struct fc_img_hdr, check));
	return 0;
}

int fc_image_assemble(const struct fc_data *d, const uint32_t *roles,
		      uint32_t nroles, const struct fc_img_input *in,
		      const uint8_t *dg, uint8_t **img, size_t *len)
{
	struct out o = {0};
	int r = assemble(&o, d, roles, nroles, in, dg);

	if (r < 0) {
		free(o.p);
		return r;
	}
	*img = o.p;
	*len = o.len;
	return 0;
}
