/* label/fc_index.c: finding the winning spec fast, with the same answer. */
#include <string.h>
#include <sys/mman.h>

#include "../file/fc.h"
#include "image.h"

/*
 * The reference tries every spec from the highest index down and takes
 * the first that matches (about 5000 regexes for a path that matches only
 * "/.*").  We get the same spec from three sources and keep the highest
 * index found:
 *  - exact strings (FC_FIXED) in a hash table;
 *  - FC_TRIE specs hang in a radix trie under their fixed prefix; for a
 *    key we visit only the nodes on its path, and each node matches all
 *    its specs at once with one combined, JIT-compiled regex: the
 *    alternatives are the specs' remainders (after the prefix), highest
 *    index first, each ending in "$" and a callout that checks the file
 *    type and the reference's stem rule.  PCRE2 tries alternatives in
 *    order, so the first one that gets through its callout is the node's
 *    highest matching spec;
 *  - FC_SINGLE specs one by one, highest first, as the reference does.
 * A source is skipped when it cannot hold an index above the best so far.
 */

#define NONE UINT32_MAX

/* Per-thread PCRE2 match data and match context (pcre2_match needs its
 * own for every concurrent call).  Freed by the key destructor when the
 * thread ends. */
struct tls_match {
	pcre2_match_data *md;
	pcre2_match_context *mc;
};

static pthread_once_t tls_once = PTHREAD_ONCE_INIT;
static pthread_key_t tls_key; /* written once, under tls_once */
static bool tls_ok; /* written once, under tls_once */

static void tls_free(void *p)
{
	struct tls_match *t = p;

	pcre2_match_data_free(t->md);
	pcre2_match_context_free(t->mc);
	free(t);
}

static void tls_init(void)
{
	tls_ok = pthread_key_create(&tls_key, tls_free) == 0;
}

static struct tls_match *tls_get(void)
{
	struct tls_match *t;

	pthread_once(&tls_once, tls_init);
	if (!tls_ok)
		return NULL;
	t = pthread_getspecific(tls_key);
	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->md = pcre2_match_data_create(1, NULL);
	t->mc = pcre2_match_context_create(NULL);
	if (!t->md || !t->mc || pthread_setspecific(tls_key, t) != 0) {
		tls_free(t);
		return NULL;
	}
	return t;
}

/* ---- the radix trie ---- */

/*
 * Built as linked nodes (struct bnode, in d's arena: thousands of them,
 * one malloc each cost as much as the rest of the build; their arrays
 * are malloc'd), then flattened into d->trie (struct fc_tnode, fc.h) and
 * freed.
 */
struct bnode {
	const char *label; /* edge label (points into a spec's lit) */
	uint32_t label_len;
	uint32_t depth;
	uint32_t nchild;
	struct bnode **child; /* sorted by label[0] */
	uint8_t *keys; /* keys[i] == child[i]->label[0] */
	uint32_t *specs; /* spec indices, highest first */
	uint32_t nspecs, aspecs;
};

static struct bnode *bnode_new(struct fc_data *d, const char *label,
			       uint32_t len, uint32_t depth)
{
	struct bnode *n = fc_arena_alloc(d, sizeof(*n));

	if (!n)
		return NULL;
	n->label = label;
	n->label_len = len;
	n->depth = depth;
	return n;
}

static void bnode_free(struct bnode *n)
{
	if (!n)
		return;
	for (uint32_t i = 0; i < n->nchild; i++)
		bnode_free(n->child[i]);
	free(n->child);
	free(n->keys);
	free(n->specs);
}

/* The child whose label starts with c, and its slot in *pos. */
static struct bnode *bnode_child(const struct bnode *n, uint8_t c,
				 uint32_t *pos)
{
	uint32_t lo = 0, hi = n->nchild;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		uint8_t m = n->keys[mid];

		if (m == c) {
			*pos = mid;
			return n->child[mid];
		}
		if (m < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pos = lo;
	return NULL;
}

/* child and keys hold room for nchild rounded up to a power of two. */
static int bnode_add_child(struct bnode *n, uint32_t pos, struct bnode *c)
{
	struct bnode **nc = n->child;
	uint8_t *nk = n->keys;

	if (!(n->nchild & (n->nchild - 1))) {
		uint32_t cap = n->nchild ? 2 * n->nchild : 1;

		nc = realloc(n->child, cap * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		n->child = nc;
		nk = realloc(n->keys, cap);
		if (!nk)
			return -ENOMEM;
		n->keys = nk;
	}
	memmove(nc + pos + 1, nc + pos, (n->nchild - pos) * sizeof(*nc));
	memmove(nk + pos + 1, nk + pos, n->nchild - pos);
	nk[pos] = c->label[0];
	nc[pos] = c;
	n->nchild++;
	return 0;
}

static int bnode_add_spec(struct bnode *n, uint32_t idx)
{
	if (n->nspecs == n->aspecs) {
		uint32_t a = n->aspecs ? n->aspecs * 2 : 4;
		uint32_t *ns = realloc(n->specs, a * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		n->specs = ns;
		n->aspecs = a;
	}
	n->specs[n->nspecs++] = idx;
	return 0;
}

static int trie_insert(struct fc_data *d, struct bnode *root, const char *s,
		       uint32_t len, uint32_t idx)
{
	struct bnode *n = root;
	uint32_t p = 0;

	for (;;) {
		struct bnode *c, *mid;
		uint32_t pos, k;

		if (p == len)
			return bnode_add_spec(n, idx);
		c = bnode_child(n, s[p], &pos);
		if (!c) {
			c = bnode_new(d, s + p, len - p, len);
			if (!c || bnode_add_child(n, pos, c) < 0)
				return -ENOMEM;
			return bnode_add_spec(c, idx);
		}
		for (k = 0; k < c->label_len && p + k < len &&
			    c->label[k] == s[p + k];
		     k++)
			;
		if (k == c->label_len) {
			n = c;
			p += k;
			continue;
		}
		/* Split c's edge after k bytes. */
		mid = bnode_new(d, c->label, k, n->depth + k);
		if (!mid)
			return -ENOMEM;
		mid->child = malloc(sizeof(*mid->child));
		mid->keys = malloc(1);
		if (!mid->child || !mid->keys) {
			free(mid->child);
			free(mid->keys);
			return -ENOMEM;
		}
		mid->child[0] = c;
		mid->nchild = 1;
		c->label += k;
		c->label_len -= k;
		mid->keys[0] = c->label[0];
		n->child[pos] = mid;
		n = mid;
		p += k;
	}
}

struct flat {
	struct fc_tnode *node;
	uint8_t *keys;
	uint32_t *kids, *specs;
	char *labels;
	uint32_t nnode, nkids, nspecs, nlabels;
};

static void count(const struct bnode *n, struct flat *f)
{
	f->nnode++;
	f->nkids += n->nchild;
	f->nspecs += n->nspecs;
	f->nlabels += n->label_len;
	for (uint32_t i = 0; i < n->nchild; i++)
		count(n->child[i], f);
}

/* Node n becomes f->node[k]; its children follow it, each subtree
 * before the next (so a child's index is above its parent's). */
static void flatten(const struct bnode *n, struct flat *f, uint32_t k)
{
	struct fc_tnode *t = &f->node[k];
	uint32_t first = f->nkids;

	t->label = f->nlabels;
	t->label_len = n->label_len;
	if (n->label_len)
		memcpy(f->labels + f->nlabels, n->label, n->label_len);
	f->nlabels += n->label_len;
	t->depth = n->depth;
	t->specs = f->nspecs;
	t->nspecs = n->nspecs;
	if (n->nspecs)
		memcpy(f->specs + f->nspecs, n->specs,
		       n->nspecs * sizeof(*f->specs));
	f->nspecs += n->nspecs;
	t->child = first;
	t->nchild = n->nchild;
	t->set = UINT32_MAX;
	if (n->nchild)
		memcpy(f->keys + first, n->keys, n->nchild);
	f->nkids += n->nchild;
	for (uint32_t i = 0; i < n->nchild; i++) {
		f->kids[first + i] = f->nnode;
		flatten(n->child[i], f, f->nnode++);
	}
}

/* d->trie from the linked trie at root, in one allocation (d->trie.node
 * is its start). */
static int trie_flatten(struct fc_data *d, const struct bnode *root)
{
	struct flat c = {0}, f = {0};
	size_t sz_node, sz_kids, sz_specs, sz_keys;
	char *mem;

	count(root, &c);
	sz_node = (size_t)c.nnode * sizeof(*f.node);
	sz_kids = (size_t)c.nkids * sizeof(*f.kids);
	sz_specs = (size_t)c.nspecs * sizeof(*f.specs);
	sz_keys = c.nkids;
	mem = malloc(sz_node + sz_kids + sz_specs + sz_keys + c.nlabels + 1);
	if (!mem)
		return -ENOMEM;
	f.node = (struct fc_tnode *)mem;
	f.kids = (uint32_t *)(mem + sz_node);
	f.specs = (uint32_t *)(mem + sz_node + sz_kids);
	f.keys = (uint8_t *)(mem + sz_node + sz_kids + sz_specs);
	f.labels = (char *)f.keys + sz_keys;
	f.nnode = 1;
	flatten(root, &f, 0);
	d->trie.node = f.node;
	d->trie.nnode = f.nnode;
	d->trie.keys = f.keys;
	d->trie.kids = f.kids;
	d->trie.nkids = f.nkids;
	d->trie.specs = f.specs;
	d->trie.nspecs = f.nspecs;
	d->trie.labels = f.labels;
	d->trie.nlabels = f.nlabels;
	return 0;
}

static int index_build(struct fc_data *d)
{
	uint32_t nfixed = 0, size = 16, lits_len = 0;
	struct fc_ix *ix;
	uint32_t *heads, *single;
	char *lits;
	size_t lits_cap = 1;
	struct bnode *root;
	int r;

	for (uint32_t i = 0; i < d->nspec; i++)
		lits_cap += (size_t)d->spec[i].rlen + 1;
	if (lits_cap > UINT32_MAX)
		return -EOVERFLOW;
	d->ix = ix = malloc((d->nspec + 1) * sizeof(*ix));
	d->lits = lits = malloc(lits_cap);
	if (!ix || !lits)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->nspec; i++) {
		r = fc_spec_analyze(d, &d->spec[i], &ix[i], lits, &lits_len);
		if (r < 0)
			return r;
		nfixed += ix[i].kind == FC_FIXED;
	}
	d->nlits = lits_len;

	while (size < nfixed * 2)
		size *= 2;
	d->heads = heads = malloc(size * sizeof(*heads));
	d->single = single = malloc((d->nspec + 1) * sizeof(*single));
	root = bnode_new(d, "", 0, 0);
	if (!heads || !single || !root)
		return -ENOMEM;
	d->mask = size - 1;
	memset(heads, 0xff, size * sizeof(*heads));
	/* Ascending, so a chain's head is its highest index. */
	for (uint32_t i = 0; i < d->nspec; i++) {
		struct fc_ix *s = &ix[i];

		if (s->kind == FC_FIXED) {
			uint32_t b = fc_hash(fc_lit(d, s), s->lit_len) & d->mask;

			if (s->lit_len < FC_LENBITS)
				d->fixed_lens[s->lit_len / 64] |=
					1ull << (s->lit_len % 64);
			s->hnext = heads[b];
			heads[b] = i;
		}
	}
	/* Descending, so node and single lists run highest first. */
	d->nsingle = 0;
	r = 0;
	for (uint32_t i = d->nspec; i-- > 0 && r >= 0;) {
		struct fc_ix *s = &ix[i];

		if (s->kind == FC_SINGLE)
			single[d->nsingle++] = i;
		else if (s->kind == FC_TRIE)
			r = trie_insert(d, root, fc_lit(d, s), s->lit_len, i);
	}
	if (r >= 0)
		r = trie_flatten(d, root);
	bnode_free(root);
	if (r < 0)
		return r;
	return fc_nstate_alloc(d);
}

/*
 * LeakSanitizer does not look for pointers in memory the program maps
 * itself: the sets the node states point to would show as leaks in a
 * process that exits with a handle open (restorecon's default one).
 */
#if defined(__SANITIZE_ADDRESS__)
#define FC_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define FC_LSAN 1
#endif
#endif
#ifdef FC_LSAN
#include <sanitizer/lsan_interface.h>
#endif

static size_t nstate_len(const struct fc_data *d)
{
	return d->trie.nnode ? (size_t)d->trie.nnode * sizeof(*d->ns) : 1;
}

int fc_nstate_alloc(struct fc_data *d)
{
	/* Mapped, not calloc'd: zero pages that only the nodes a process
	 * uses ever fault in (calloc clears the whole array, a page fault
	 * per 4 KiB: a third of an index image's open). */
	size_t len = nstate_len(d);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -ENOMEM;
#ifdef FC_LSAN
	__lsan_register_root_region(p, len);
#endif
	d->ns = p;
	return 0;
}

void fc_nstate_free(struct fc_data *d)
{
	if (!d->ns)
		return;
#ifdef FC_LSAN
	__lsan_unregister_root_region(d->ns, nstate_len(d));
#endif
	munmap(d->ns, nstate_len(d));
	d->ns = NULL;
}

/* Under d->lock: node k gets a state to free at close. */
static int note_used(struct fc_data *d, uint32_t k)
{
	if (d->nused == d->aused) {
		uint32_t a = d->aused ? 2 * d->aused : 16;
		uint32_t *v = realloc(d->used_nodes, a * sizeof(*v));

		if (!v)
			return -ENOMEM;
		d->used_nodes = v;
		d->aused = a;
	}
	d->used_nodes[d->nused++] = k;
	return 0;
}

/*
 * The analysis of the specs and the index are built on first use, under
 * d->lock, and published with d->indexed: an open that is followed by
 * few lookups (matchpathcon from the shell) or none pays nothing for it.
 * With an index image, they come with it (fc_image.c) and indexed is set
 * at the open.
 */
int fc_index_ensure(struct fc_data *d)
{
	int r;

	if (__atomic_load_n(&d->indexed, __ATOMIC_ACQUIRE))
		return d->index_err;
	pthread_mutex_lock(&d->lock);
	if (!d->indexed) {
		r = index_build(d);
		d->index_err = r < 0 ? r : 0;
		__atomic_store_n(&d->indexed, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&d->lock);
	return d->index_err;
}

static void set_free(struct fc_set *t)
{
	while (t) {
		struct fc_set *older = t->older;

		if (t->owned) {
			free((uint32_t *)t->rest);
			for (uint32_t i = 0; i < t->ndfa; i++)
				fc_dfa_free((struct fc_dfa *)t->dfa[i]);
		}
		free((struct fc_dfa **)t->dfa);
		pcre2_code_free(t->code);
		free(t);
		t = older;
	}
}

void fc_index_free(struct fc_data *d)
{
	for (uint32_t i = 0; d->ns && i < d->nused; i++) {
		uint32_t k = d->used_nodes[i];

		set_free(d->ns[k].set);
		pcre2_code_free(d->ns[k].warm);
	}
	free(d->used_nodes);
	d->used_nodes = NULL;
	d->nused = d->aused = 0;
	fc_nstate_free(d);
	free(d->used);
	d->used = NULL;
	if (!d->img) {
		free((struct fc_ix *)d->ix);
		free((char *)d->lits);
		free((uint32_t *)d->heads);
		free((uint32_t *)d->single);
		free((struct fc_tnode *)d->trie.node);
	}
	d->ix = NULL;
	d->lits = NULL;
	d->heads = NULL;
	d->single = NULL;
	memset(&d->trie, 0, sizeof(d->trie));
}

/* ---- matching ---- */

/* An index image's part did not check out: the lookup fails, and the
 * handle reads the files instead (fc_image_fallback). */
static int corrupt(struct fc_data *d)
{
	__atomic_store_n(&d->img_bad, 1, __ATOMIC_RELEASE);
	return -EINVAL;
}

struct match_ctx {
	struct fc_data *d;
	const char *key;
	size_t keylen;
	uint32_t mode;
	uint32_t hit;
};

bool fc_candidate(const struct fc_data *d, uint32_t i, const char *key,
		  size_t keylen, uint32_t mode)
{
	uint32_t smode = fc_smode(d, i);
	uint32_t stem = d->ix[i].stem_len;

	if (mode && smode && mode != smode)
		return false;
	if (stem && (keylen <= stem || key[stem] != '/' ||
		     memcmp(key, fc_regex(d, i), stem)))
		return false;
	return true;
}

static int callout(pcre2_callout_block *cb, void *p)
{
	struct match_ctx *m = p;
	uint32_t idx = 0;

	for (PCRE2_SIZE i = 0; i < cb->callout_string_length; i++)
		idx = idx * 10 + (cb->callout_string[i] - '0');
	if (idx >= m->d->nspec ||
	    !fc_candidate(m->d, idx, m->key, m->keylen, m->mode))
		return 1; /* fail here: PCRE2 backtracks to what follows */
	m->hit = idx;
	return 0;
}

/* One regex on its own: 1 match, 0 none; -ENOENT when PCRE2 fails to
 * match it (its match limit: a catastrophic regex), where the reference
 * gives up the lookup with ENOENT. */
static int match_one(pcre2_code *re, const char *key, size_t keylen,
		     uint32_t opts)
{
	struct tls_match *t = tls_get();
	int rc;

	if (!t)
		return -ENOMEM;
	rc = pcre2_match(re, (PCRE2_SPTR)key, keylen, 0, opts, t->md, NULL);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc == PCRE2_ERROR_PARTIAL)
		return 2;
	return -ENOENT;
}

/* The combined regex of the cnt specs v[] (highest first) of a node,
 * each alternative reporting its spec through a callout; NULL when it
 * does not compile (a bad regex among them) or on ENOMEM.  JIT-compiled
 * when jit (and the process may). */
static pcre2_code *combined_build(struct fc_data *d, const uint32_t *v,
				  uint32_t cnt, bool jit)
{
	size_t len = 0, off = 0;
	_cleanup_free_ char *pat = NULL;
	pcre2_code *code;
	int err;
	PCRE2_SIZE eoff;

	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t k = v[i];

		len += fc_rlen(d, k) - d->ix[k].rem_off + 24;
	}
	pat = malloc(len + 1);
	if (!pat)
		return NULL;
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t k = v[i];

		/* by length: an index image's regex has no NUL of its own
		 * at rlen (fc_image.c) */
		off += sprintf(pat + off, "%s(?:%.*s)$(?C{%u})", i ? "|" : "",
			       (int)(fc_rlen(d, k) - d->ix[k].rem_off),
			       fc_regex(d, k) + d->ix[k].rem_off, k);
	}
	code = pcre2_compile((PCRE2_SPTR)pat, off,
			     PCRE2_ANCHORED | PCRE2_DOTALL, &err, &eoff, NULL);
	if (code && jit) {
		if (d->jit < 0)
			d->jit = lbl_jit_allowed();
		if (d->jit)
			pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	}
	return code;
}

/* Does spec i pass candidate()'s stem test for every key reaching its
 * trie node?  Yes without a stem, or when the fixed prefix holds the
 * stem as written and the '/' after it. */
static bool stem_sure(const struct fc_data *d, uint32_t i)
{
	const struct fc_ix *x = &d->ix[i];

	return !x->stem_len ||
	       (!memchr(fc_regex(d, i), '\\', x->stem_len) &&
		x->lit_len > x->stem_len && fc_lit(d, x)[x->stem_len] == '/');
}

/* The automata of the cnt specs from spec (see fc.h), appended to t's;
 * in[k] false for the specs left to PCRE2.  0 or -ENOMEM. */
static int build_dfas(struct fc_set *t, const char **re, const uint32_t *spec,
		      const uint32_t *mode, uint32_t cnt, bool *in,
		      uint32_t max_states)
{
	struct fc_dfa *a;
	const struct fc_dfa **v;
	bool any = false;
	int r = fc_dfa_build(re, spec, mode, cnt, max_states, in, &a);

	if (r == -E2BIG && cnt > 1) {
		uint32_t h = cnt / 2;

		r = build_dfas(t, re, spec, mode, h, in, max_states);
		if (r >= 0)
			r = build_dfas(t, re + h, spec + h, mode + h, cnt - h,
				       in + h, max_states);
		return r;
	}
	if (r == -E2BIG) {
		in[0] = false;
		return 0;
	}
	if (r < 0)
		return r;
	for (uint32_t k = 0; k < cnt; k++)
		any = any || in[k];
	if (!any) {
		fc_dfa_free(a);
		return 0;
	}
	v = realloc((void *)t->dfa, (t->ndfa + 1) * sizeof(*v));
	if (!v) {
		fc_dfa_free(a);
		return -ENOMEM;
	}
	t->dfa = v;
	v[t->ndfa++] = a;
	return 0;
}

static const uint32_t *node_specs(const struct fc_data *d, uint32_t k)
{
	return d->trie.specs + d->trie.node[k].specs;
}

/* Build node k's automata (at most max_states states each) and the
 * combined regex of the rest (under d->lock), and publish them as its
 * set, then stage as its stage. */
static void node_build(struct fc_data *d, uint32_t k, uint32_t max_states,
		       int stage)
{
	struct fc_nstate *ns = &d->ns[k];
	uint32_t nspecs = d->trie.node[k].nspecs;
	const uint32_t *specs = node_specs(d, k);
	_cleanup_free_ const char **re = malloc(nspecs * sizeof(*re));
	_cleanup_free_ bool *in = calloc(nspecs, sizeof(*in));
	_cleanup_free_ uint32_t *mode = calloc(nspecs, sizeof(*mode));
	struct fc_set *t = calloc(1, sizeof(*t));
	uint32_t *rest = malloc(nspecs * sizeof(*rest));

	if (!t || !rest) {
		/* Out of memory: keep the set there is, and its stage (a
		 * lookup tries again); with none, a lookup fails (ENOMEM). */
		free(t);
		free(rest);
		if (ns->set)
			stage = ns->built;
		goto out;
	}
	t->owned = true;
	t->rest = rest;
	if (re && in && mode) {
		for (uint32_t i = 0; i < nspecs; i++) {
			uint32_t j = specs[i];

			re[i] = fc_regex(d, j) + d->ix[j].rem_off;
			mode[i] = fc_smode(d, j);
			if (!stem_sure(d, j))
				mode[i] |= FC_DFA_NODOM;
		}
		if (build_dfas(t, re, specs, mode, nspecs, in, max_states) <
		    0) {
			for (uint32_t i = 0; i < t->ndfa; i++)
				fc_dfa_free((struct fc_dfa *)t->dfa[i]);
			free((void *)t->dfa);
			t->dfa = NULL;
			t->ndfa = 0;
			memset(in, 0, nspecs * sizeof(*in));
		}
	}
	for (uint32_t i = 0; i < nspecs; i++)
		if (!in || !in[i])
			rest[t->nrest++] = specs[i];
	if (t->nrest) {
		t->code = combined_build(d, t->rest, t->nrest, true);
		t->code_state = t->code ? FC_CODE_OK : FC_CODE_FAILED;
	}
	t->older = ns->set;
	__atomic_store_n(&ns->set, t, __ATOMIC_RELEASE);
out:
	__atomic_store_n(&ns->built, stage, __ATOMIC_RELEASE);
}

/*
 * Node k's set from the index image (under d->lock), its automata and
 * spec lists checked first (an image is an input like any other: the
 * node is refused, and the lookup fails with EINVAL, if one of them
 * would take a walk outside its block or name a spec that is not
 * there).  The combined regex of its rest is built on first need
 * (node_match).
 */
static void node_attach(struct fc_data *d, uint32_t k)
{
	const struct fc_trie *tr = &d->trie;
	const struct fc_tnode *n = &tr->node[k];
	const struct fc_iset *is;
	const struct fc_dfa **dfa = NULL;
	struct fc_set *t;

	/* (the walk checked the node: here for its set, again) */
	if (!fc_node_ok(d, k) || n->set >= tr->nsets)
		goto bad;
	is = &tr->sets[n->set];
	/* every spec the node can answer with is among its specs */
	for (uint32_t i = 0; i < n->nspecs; i++)
		if (tr->specs[n->specs + i] >= d->nspec ||
		    !fc_spec_ok(d, tr->specs[n->specs + i]))
			goto bad;
	for (uint32_t i = 0; i < is->nrest; i++)
		if (tr->rest[is->rest + i] >= d->nspec ||
		    !fc_spec_ok(d, tr->rest[is->rest + i]))
			goto bad;
	if (is->ndfa) {
		dfa = malloc(is->ndfa * sizeof(*dfa));
		if (!dfa)
			return; /* a lookup tries again */
	}
	for (uint32_t i = 0; i < is->ndfa; i++) {
		uint64_t off = tr->dfas[is->dfa + i];
		const struct fc_dfa *a = (const void *)(tr->dfa_base + off);

		if (off > tr->dfa_len || off % 8 ||
		    !fc_dfa_valid(a, tr->dfa_len - off, d->nspec) ||
		    fc_sum_end(fc_sum(FC_SUM_INIT, a, a->size)) !=
			    tr->dfa_sum[is->dfa + i]) {
			free(dfa);
			goto bad;
		}
		dfa[i] = a;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		free(dfa);
		return;
	}
	t->dfa = dfa;
	t->ndfa = is->ndfa;
	t->rest = tr->rest + is->rest;
	t->nrest = is->nrest;
	__atomic_store_n(&d->ns[k].set, t, __ATOMIC_RELEASE);
	__atomic_store_n(&d->ns[k].built, FC_NODE_BUILT, __ATOMIC_RELEASE);
	return;
bad:
	corrupt(d);
	__atomic_store_n(&d->ns[k].built, FC_NODE_BAD, __ATOMIC_RELEASE);
}

/* The highest of the specs in acc (cnt, highest first: what an
 * automaton accepts) that is above best and a candidate for key and
 * mode, or NONE. */
static uint32_t dfa_pick(struct fc_data *d, const uint32_t *acc,
			 uint32_t cnt, const char *key, size_t keylen,
			 uint32_t mode, uint32_t best)
{
	for (uint32_t i = 0; i < cnt; i++) {
		if (best != NONE && acc[i] <= best)
			break;
		if (fc_candidate(d, acc[i], key, keylen, mode))
			return acc[i];
	}
	return NONE;
}

/*
 * The best spec of a node's automata for the key after the node's prefix
 * (s, len), above best.  They are taken highest first and only while
 * they may hold an index above best, as one after the other would be;
 * but up to FC_DFA_LOCKSTEP of them are walked side by side, the later
 * ones before knowing whether the earlier ones make them useless (a walk
 * costs the latency of its loads, which side by side overlap).
 */
static uint32_t node_dfas(struct fc_data *d, const struct fc_set *n,
			  const char *s, size_t len, const char *key,
			  size_t keylen, uint32_t mode, uint32_t best)
{
	const uint32_t *acc[FC_DFA_LOCKSTEP], *acc_nl[FC_DFA_LOCKSTEP];
	uint32_t cnt[FC_DFA_LOCKSTEP], cnt_nl[FC_DFA_LOCKSTEP];
	/* "$" also matches before a final newline */
	bool nl = len && s[len - 1] == '\n';

	for (uint32_t g = 0; g < n->ndfa;) {
		uint32_t k = n->ndfa - g, h;

		if (k > FC_DFA_LOCKSTEP)
			k = FC_DFA_LOCKSTEP;
		/* a's highest spec is no better than best: nor the next */
		if (best != NONE && n->dfa[g]->acc_top <= best)
			break;
		fc_dfa_match_many(n->dfa + g, k, s, len, acc, cnt);
		if (nl)
			fc_dfa_match_many(n->dfa + g, k, s, len - 1, acc_nl,
					  cnt_nl);
		for (uint32_t j = 0; j < k; j++) {
			if (best != NONE && n->dfa[g + j]->acc_top <= best)
				return best;
			h = dfa_pick(d, acc[j], cnt[j], key, keylen, mode,
				     best);
			if (h != NONE)
				best = h;
			if (!nl)
				continue;
			h = dfa_pick(d, acc_nl[j], cnt_nl[j], key, keylen, mode,
				     best);
			if (h != NONE)
				best = h;
		}
		g += k;
	}
	return best;
}

/* The highest spec above best that code, the combined regex of some of
 * a node's specs (the node's prefix depth bytes long), matches; best if
 * none; -EAGAIN when PCRE2 fails to match (its limits are the whole
 * combined regex's, where the reference's are each spec's: the caller
 * asks each spec on its own), -errno. */
static int64_t combined_match(struct fc_data *d, uint32_t depth,
			      pcre2_code *code, const char *key, size_t keylen,
			      uint32_t mode, uint32_t best)
{
	struct tls_match *t = tls_get();
	struct match_ctx m = { d, key, keylen, mode, NONE };
	int rc;

	if (!t)
		return -ENOMEM;
	pcre2_set_callout(t->mc, callout, &m);
	rc = pcre2_match(code, (PCRE2_SPTR)key, keylen, depth, 0, t->md,
			 t->mc);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		/* JIT stack exhausted by a huge key: the interpreter keeps
		 * its backtracking frames on the heap. */
		m.hit = NONE;
		rc = pcre2_match(code, (PCRE2_SPTR)key, keylen, depth,
				 PCRE2_NO_JIT, t->md, t->mc);
	}
	pcre2_set_callout(t->mc, NULL, NULL);
	if (rc >= 0 && (best == NONE || m.hit > best))
		return m.hit;
	if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH)
		return best;
	return -EAGAIN;
}

/* The higher of two spec indices, NONE standing for none. */
static uint32_t above(uint32_t a, uint32_t b)
{
	return a == NONE ? b : b == NONE ? a : a > b ? a : b;
}

/*
 * The highest of the cnt specs v[] (highest first) above best that
 * matches, each regex on its own as the reference matches them: the
 * spec, best if none, -ENOMEM.  A regex PCRE2 rejects or fails to match
 * (its match limit) is where the reference's lookup would end, with
 * ENOENT, if it gets there: its index goes to *err (the highest so
 * far) and the search of v stops - a lower spec of v cannot win over
 * it, a higher spec of another source still can.
 */
static int64_t each_one(struct fc_data *d, const uint32_t *v, uint32_t cnt,
			const char *key, size_t keylen, uint32_t mode,
			uint32_t best, uint32_t *err)
{
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t idx = v[i];
		pcre2_code *re;
		int rc;

		if (best != NONE && idx <= best)
			break;
		if (!fc_spec_ok(d, idx))
			return corrupt(d);
		if (!fc_candidate(d, idx, key, keylen, mode))
			continue;
		re = fc_spec_re(d, idx);
		if (!re && !fc_spec_bad(d, idx))
			return -ENOMEM;
		rc = re ? match_one(re, key, keylen, 0) : -ENOENT;
		if (rc < 0) {
			*err = above(*err, idx);
			return best;
		}
		if (rc == 1)
			return idx;
	}
	return best;
}

/* Under d->lock: move node k on from the stage it is in (see
 * FC_NODE_WARM, FC_NODE_SMALL). */
static void node_prepare(struct fc_data *d, uint32_t k)
{
	struct fc_nstate *ns = &d->ns[k];
	uint32_t nspecs = d->trie.node[k].nspecs;

	if (ns->built == FC_NODE_BUILT || ns->built == FC_NODE_BAD)
		return;
	/* its first state: remember to free it (a lookup tries again) */
	if (!ns->noted && note_used(d, k) < 0)
		return;
	ns->noted = true;
	if (d->img) {
		node_attach(d, k);
		return;
	}
	if (ns->built == 0 && nspecs > FC_DFA_SMALL) {
		ns->warm = combined_build(d, node_specs(d, k), nspecs, true);
		if (ns->warm) {
			__atomic_store_n(&ns->built, FC_NODE_WARM,
					 __ATOMIC_RELEASE);
			return;
		}
	}
	if ((ns->built == 0 || ns->built == FC_NODE_WARM) &&
	    nspecs > FC_DFA_SMALL && nspecs <= FC_DFA_EAGER) {
		node_build(d, k, FC_DFA_SMALL_STATES, FC_NODE_SMALL);
		return;
	}
	node_build(d, k, FC_DFA_MAX_STATES, FC_NODE_BUILT);
}

/* How many lookups a node of nspecs specs answers in its stage before
 * the next. */
static uint32_t stage_uses(uint32_t nspecs, int stage)
{
	if (stage == FC_NODE_WARM && nspecs <= FC_DFA_EAGER)
		return FC_DFA_SMALL_AFTER;
	return FC_DFA_WARMUP;
}

/* The combined regex of set t's rest, built on first need (an index
 * image's sets come without it): NULL if it cannot be (then each regex
 * is matched on its own). */
static pcre2_code *set_code(struct fc_data *d, struct fc_set *t)
{
	int st = __atomic_load_n(&t->code_state, __ATOMIC_ACQUIRE);

	if (st == FC_CODE_NONE) {
		pthread_mutex_lock(&d->lock);
		if (t->code_state == FC_CODE_NONE) {
			/* Interpreted: a process that looks a few paths up
			 * would pay more for the JIT than it saves. */
			t->code = combined_build(d, t->rest, t->nrest, false);
			__atomic_store_n(&t->code_state,
					 t->code ? FC_CODE_OK : FC_CODE_FAILED,
					 __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&d->lock);
		st = t->code_state;
	}
	return st == FC_CODE_OK ? t->code : NULL;
}

/* The highest spec of node k above best matching, or best; -errno on
 * error; a regex that cannot be matched goes to *err (each_one). */
static int64_t node_match(struct fc_data *d, uint32_t k, const char *key,
			  size_t keylen, uint32_t mode, uint32_t best,
			  uint32_t *err)
{
	struct fc_nstate *ns = &d->ns[k];
	const struct fc_tnode *n = &d->trie.node[k];
	struct fc_set *t;
	pcre2_code *code;
	int stage = __atomic_load_n(&ns->built, __ATOMIC_ACQUIRE);

	if ((stage == FC_NODE_WARM || stage == FC_NODE_SMALL) &&
	    __atomic_add_fetch(&ns->uses, 1, __ATOMIC_RELAXED) <=
		stage_uses(n->nspecs, stage))
		goto interim;
	if (stage != FC_NODE_BUILT) {
		/* While another thread builds the automata (tens of ms for
		 * a large node), the interim answers instead of waiting for
		 * the lock. */
		if (stage != FC_NODE_WARM && stage != FC_NODE_SMALL)
			pthread_mutex_lock(&d->lock);
		else if (pthread_mutex_trylock(&d->lock))
			goto interim;
		node_prepare(d, k);
		pthread_mutex_unlock(&d->lock);
		stage = __atomic_load_n(&ns->built, __ATOMIC_ACQUIRE);
	}
interim:
	if (stage == FC_NODE_BAD)
		return corrupt(d);
	if (stage == FC_NODE_WARM) {
		int64_t m;

		if (best != NONE && node_specs(d, k)[0] <= best)
			return best;
		m = combined_match(d, n->depth, ns->warm, key, keylen, mode,
				   best);
		return m != -EAGAIN ? m :
				      each_one(d, node_specs(d, k), n->nspecs,
					       key, keylen, mode, best, err);
	}
	t = __atomic_load_n(&ns->set, __ATOMIC_ACQUIRE);
	if (!t || !t->rest)
		return -ENOMEM;
	best = node_dfas(d, t, key + n->depth, keylen - n->depth, key, keylen,
			 mode, best);
	if (!t->nrest || (best != NONE && t->rest[0] <= best))
		return best;
	code = set_code(d, t);
	if (code) {
		int64_t m = combined_match(d, n->depth, code, key, keylen,
					   mode, best);

		if (m != -EAGAIN)
			return m;
	}
	/* The combined regex failed to build or to match: one at a time. */
	return each_one(d, t->rest, t->nrest, key, keylen, mode, best, err);
}

/* The highest exact spec for key and mode, or NONE; *bad set if an
 * index image's chain holds a spec that does not check out. */
static uint32_t fixed_lookup(const struct fc_data *d, const char *key,
			     size_t keylen, uint32_t mode, bool *bad)
{
	uint32_t i;

	/* Most keys have a length no exact spec has. */
	if (keylen < FC_LENBITS &&
	    !(d->fixed_lens[keylen / 64] & (1ull << (keylen % 64))))
		return NONE;
	i = fc_hash(key, keylen) & d->mask;
	if (!fc_heads_ok(d, i)) {
		*bad = true;
		return NONE;
	}
	i = d->heads[i];

	for (; i != NONE; i = d->ix[i].hnext) {
		const struct fc_ix *x = &d->ix[i];
		uint32_t smode;

		if (!fc_spec_ok(d, i)) {
			*bad = true;
			return NONE;
		}
		smode = fc_smode(d, i);
		if (x->lit_len == keylen &&
		    !memcmp(fc_lit(d, x), key, keylen) &&
		    (!mode || !smode || smode == mode))
			return i;
	}
	return NONE;
}

/* The child of node k (checked: fc_node_ok) whose label starts with c,
 * or NONE; CORRUPT for an index image's child that is not after its
 * parent (no cycle) or not in the trie. */
#define CORRUPT (NONE - 1)
static uint32_t trie_child(const struct fc_trie *t, uint32_t k, uint8_t c)
{
	const struct fc_tnode *n = &t->node[k];
	uint32_t lo = 0, hi = n->nchild;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		uint8_t m = t->keys[n->child + mid];

		if (m == c) {
			uint32_t kid = t->kids[n->child + mid];

			/* a child comes after its parent: no cycle */
			return kid > k && kid < t->nnode ? kid : CORRUPT;
		}
		if (m < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

#define MAX_CHAIN 64
#define DONE UINT64_MAX

int fc_index_lookup(struct fc_data *d, const char *key, size_t keylen,
		    uint32_t mode)
{
	const struct fc_trie *tr = &d->trie;
	/* the nodes on the key's path with specs: each (its top spec << 32
	 * | the node), DONE once asked */
	uint64_t stack[MAX_CHAIN], *chain = stack;
	_cleanup_free_ uint64_t *heap = NULL;
	uint32_t n;
	uint32_t best = NONE, nchain = 0, p = 0, cap = MAX_CHAIN;
	/* the highest spec whose regex PCRE2 rejects or cannot match, met
	 * on the way: the reference's lookup fails there if no higher spec
	 * matches (each_one) */
	uint32_t err = NONE;
	bool bad = false;
	int r;

	if (!d->nspec)
		return -ENOENT;
	r = fc_index_ensure(d);
	if (r < 0)
		return r;
	/* Exact strings; "$" also matches before a final newline. */
	best = fixed_lookup(d, key, keylen, mode, &bad);
	if (keylen && key[keylen - 1] == '\n') {
		uint32_t b = fixed_lookup(d, key, keylen - 1, mode, &bad);

		if (b != NONE && (best == NONE || b > best))
			best = b;
	}
	if (bad)
		return corrupt(d);

	/* Specs matched one by one, above the best so far. */
	{
		int64_t m = each_one(d, d->single, d->nsingle, key, keylen,
				     mode, best, &err);

		if (m < 0)
			return m;
		best = m;
	}

	/* The trie nodes on the key's path. */
	n = 0;
	if (tr->nnode && tr->node[0].nspecs)
		chain[nchain++] = (uint64_t)tr->specs[tr->node[0].specs] << 32;
	while (p < keylen && tr->nnode) {
		uint32_t c = trie_child(tr, n, key[p]);
		const struct fc_tnode *cn;

		if (nchain == cap) {
			/* A deeper chain than any real policy has. */
			uint64_t *g = malloc(2 * cap * sizeof(*g));

			if (!g)
				return -ENOMEM;
			memcpy(g, chain, nchain * sizeof(*g));
			free(heap);
			heap = chain = g;
			cap *= 2;
		}
		if (c == NONE)
			break;
		if (c == CORRUPT || !fc_node_ok(d, c))
			return corrupt(d);
		cn = &tr->node[c];
		if (keylen - p < cn->label_len ||
		    memcmp(tr->labels + cn->label, key + p, cn->label_len))
			break;
		p += cn->label_len;
		/* a node's depth is its prefix's length: an image's node
		 * that says otherwise is not used */
		if (cn->depth != p)
			return corrupt(d);
		n = c;
		if (cn->nspecs)
			chain[nchain++] =
			    (uint64_t)tr->specs[cn->specs] << 32 | n;
	}
	for (;;) {
		/* The unvisited node with the highest top index. */
		uint64_t hi = DONE;
		uint32_t which = 0, top, floor;
		int64_t m;

		for (uint32_t i = 0; i < nchain; i++)
			if (chain[i] != DONE && (hi == DONE || chain[i] > hi)) {
				hi = chain[i];
				which = i;
			}
		if (hi == DONE)
			break;
		top = (uint32_t)(hi >> 32);
		floor = above(best, err);
		if (floor != NONE && top <= floor)
			break;
		m = node_match(d, (uint32_t)hi, key, keylen, mode, floor, &err);
		chain[which] = DONE;
		if (m < 0)
			return m;
		if (m != NONE && (floor == NONE || m > floor))
			best = m;
	}

	/* a regex PCRE2 rejects or cannot match above every match: the
	 * reference's lookup fails there, with ENOENT (matchpathcon prints
	 * <<none>>) */
	if (best == NONE || (err != NONE && err > best))
		return -ENOENT;
	return best;
}

int fc_index_build_all(struct fc_data *d)
{
	int r = fc_index_ensure(d);

	if (r < 0)
		return r;
	pthread_mutex_lock(&d->lock);
	for (uint32_t k = 0; k < d->trie.nnode && r >= 0; k++) {
		if (!d->trie.node[k].nspecs)
			continue;
		if (!d->ns[k].noted && note_used(d, k) < 0) {
			r = -ENOMEM;
			break;
		}
		d->ns[k].noted = true;
		if (d->ns[k].built != FC_NODE_BUILT)
			node_build(d, k, FC_DFA_MAX_STATES, FC_NODE_BUILT);
		if (!d->ns[k].set || !d->ns[k].set->rest)
			r = -ENOMEM;
	}
	pthread_mutex_unlock(&d->lock);
	return r;
}
