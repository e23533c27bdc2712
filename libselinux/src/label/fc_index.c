/* label/fc_index.c: finding the winning spec fast, with the same answer. */
#include <string.h>

#include "fc.h"

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

/* Nodes live in d's arena (thousands of them: one malloc each cost as
 * much as the rest of the build); their arrays are malloc'd. */
static struct fc_node *node_new(struct fc_data *d, const char *label,
				uint32_t len, uint32_t depth)
{
	struct fc_node *n = fc_arena_alloc(d, sizeof(*n));

	if (!n)
		return NULL;
	n->label = label;
	n->label_len = len;
	n->depth = depth;
	return n;
}

static void set_free(struct fc_set *t)
{
	while (t) {
		struct fc_set *older = t->older;

		free(t->rest);
		for (uint32_t i = 0; i < t->ndfa; i++)
			fc_dfa_free(t->dfa[i]);
		free(t->dfa);
		pcre2_code_free(t->code);
		free(t);
		t = older;
	}
}

static void node_free(struct fc_node *n)
{
	if (!n)
		return;
	for (uint32_t i = 0; i < n->nchild; i++)
		node_free(n->child[i]);
	free(n->child);
	free(n->keys);
	free(n->specs);
	set_free(n->set);
	pcre2_code_free(n->warm);
}

/* The child whose label starts with c, and its slot in *pos. */
static struct fc_node *node_child(const struct fc_node *n, uint8_t c,
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
static int node_add_child(struct fc_node *n, uint32_t pos, struct fc_node *c)
{
	struct fc_node **nc = n->child;
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

static int node_add_spec(struct fc_node *n, uint32_t idx)
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

static int trie_insert(struct fc_data *d, const char *s, uint32_t len,
		       uint32_t idx)
{
	struct fc_node *n = d->root;
	uint32_t p = 0;

	for (;;) {
		struct fc_node *c, *mid;
		uint32_t pos, k;

		if (p == len)
			return node_add_spec(n, idx);
		c = node_child(n, s[p], &pos);
		if (!c) {
			c = node_new(d, s + p, len - p, len);
			if (!c || node_add_child(n, pos, c) < 0)
				return -ENOMEM;
			return node_add_spec(c, idx);
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
		mid = node_new(d, c->label, k, n->depth + k);
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

static int index_build(struct fc_data *d)
{
	uint32_t nfixed = 0, size = 16;
	int r;

	d->ix = malloc((d->nspec + 1) * sizeof(*d->ix));
	if (!d->ix)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->nspec; i++) {
		r = fc_spec_analyze(d, &d->spec[i], &d->ix[i]);
		if (r < 0)
			return r;
		nfixed += d->ix[i].kind == FC_FIXED;
	}

	while (size < nfixed * 2)
		size *= 2;
	d->heads = malloc(size * sizeof(*d->heads));
	d->single = malloc((d->nspec + 1) * sizeof(*d->single));
	d->root = node_new(d, "", 0, 0);
	if (!d->heads || !d->single || !d->root)
		return -ENOMEM;
	d->mask = size - 1;
	memset(d->heads, 0xff, size * sizeof(*d->heads));
	/* Ascending, so a chain's head is its highest index. */
	for (uint32_t i = 0; i < d->nspec; i++) {
		struct fc_ix *s = &d->ix[i];

		if (s->kind == FC_FIXED) {
			uint32_t b = fc_hash(s->lit, s->lit_len) & d->mask;

			if (s->lit_len < FC_LENBITS)
				d->fixed_lens[s->lit_len / 64] |=
					1ull << (s->lit_len % 64);
			s->hnext = d->heads[b];
			d->heads[b] = i;
		}
	}
	/* Descending, so node and single lists run highest first. */
	d->nsingle = 0;
	for (uint32_t i = d->nspec; i-- > 0;) {
		struct fc_ix *s = &d->ix[i];

		if (s->kind == FC_SINGLE) {
			d->single[d->nsingle++] = i;
		} else if (s->kind == FC_TRIE) {
			r = trie_insert(d, s->lit, s->lit_len, i);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/*
 * The analysis of the specs and the index are built on first use, under
 * d->lock, and published with d->indexed: an open that is followed by
 * few lookups (matchpathcon from the shell) or none pays nothing for it.
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

void fc_index_free(struct fc_data *d)
{
	free(d->ix);
	d->ix = NULL;
	free(d->heads);
	d->heads = NULL;
	free(d->single);
	d->single = NULL;
	node_free(d->root);
	d->root = NULL;
}

/* ---- matching ---- */

struct match_ctx {
	struct fc_data *d;
	const char *key;
	size_t keylen;
	uint32_t mode;
	uint32_t hit;
};

/* The reference considers a spec only if its file type fits and, when
 * the spec has a stem, the key's first component is that stem. */
static bool candidate(const struct fc_data *d, uint32_t i, const char *key,
		      size_t keylen, uint32_t mode)
{
	const struct fc_spec *s = &d->spec[i];
	uint32_t stem = d->ix[i].stem_len;

	if (mode && s->mode && mode != s->mode)
		return false;
	if (stem && (keylen <= stem || key[stem] != '/' ||
		     memcmp(key, s->regex, stem)))
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
	    !candidate(m->d, idx, m->key, m->keylen, m->mode))
		return 1; /* fail here: PCRE2 backtracks to what follows */
	m->hit = idx;
	return 0;
}

/* One regex on its own: 1 match, 0 none, -EINVAL on a PCRE2 error. */
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
	return -EINVAL;
}

/* The combined regex of the cnt specs v[] (highest first) of node n,
 * each alternative reporting its spec through a callout; NULL when it
 * does not compile (a bad regex among them) or on ENOMEM. */
static pcre2_code *combined_build(struct fc_data *d, const uint32_t *v,
				  uint32_t cnt)
{
	size_t len = 0, off = 0;
	_cleanup_free_ char *pat = NULL;
	pcre2_code *code;
	int err;
	PCRE2_SIZE eoff;

	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t k = v[i];

		len += d->spec[k].rlen - d->ix[k].rem_off + 24;
	}
	pat = malloc(len + 1);
	if (!pat)
		return NULL;
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t k = v[i];

		off += sprintf(pat + off, "%s(?:%s)$(?C{%u})", i ? "|" : "",
			       d->spec[k].regex + d->ix[k].rem_off, k);
	}
	code = pcre2_compile((PCRE2_SPTR)pat, off,
			     PCRE2_ANCHORED | PCRE2_DOTALL, &err, &eoff, NULL);
	if (code) {
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
	       (!memchr(d->spec[i].regex, '\\', x->stem_len) &&
		x->lit_len > x->stem_len && x->lit[x->stem_len] == '/');
}

/* The automata of the cnt specs from spec (see fc.h), appended to n's;
 * in[k] false for the specs left to PCRE2.  0 or -ENOMEM. */
static int build_dfas(struct fc_set *n, const char **re, const uint32_t *spec,
		      const uint32_t *mode, uint32_t cnt, bool *in,
		      uint32_t max_states)
{
	struct fc_dfa *a, **v;
	bool any = false;
	int r = fc_dfa_build(re, spec, mode, cnt, max_states, in, &a);

	if (r == -E2BIG && cnt > 1) {
		uint32_t h = cnt / 2;

		r = build_dfas(n, re, spec, mode, h, in, max_states);
		if (r >= 0)
			r = build_dfas(n, re + h, spec + h, mode + h, cnt - h,
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
	v = realloc(n->dfa, (n->ndfa + 1) * sizeof(*v));
	if (!v) {
		fc_dfa_free(a);
		return -ENOMEM;
	}
	n->dfa = v;
	v[n->ndfa++] = a;
	return 0;
}

/* Build n's automata (at most max_states states each) and the combined
 * regex of the rest (under d->lock), and publish them as n's set, then
 * stage as n's stage. */
static void node_build(struct fc_data *d, struct fc_node *n,
		       uint32_t max_states, int stage)
{
	_cleanup_free_ const char **re = malloc(n->nspecs * sizeof(*re));
	_cleanup_free_ bool *in = calloc(n->nspecs, sizeof(*in));
	_cleanup_free_ uint32_t *mode = malloc(n->nspecs * sizeof(*mode));
	struct fc_set *t = calloc(1, sizeof(*t));

	if (!t || !(t->rest = malloc(n->nspecs * sizeof(*t->rest)))) {
		/* Out of memory: keep the set there is, and its stage (a
		 * lookup tries again); with none, a lookup fails (ENOMEM). */
		free(t);
		if (n->set)
			stage = n->built;
		goto out;
	}
	if (re && in && mode) {
		for (uint32_t i = 0; i < n->nspecs; i++) {
			uint32_t k = n->specs[i];

			re[i] = d->spec[k].regex + d->ix[k].rem_off;
			mode[i] = d->spec[k].mode;
			if (!stem_sure(d, k))
				mode[i] |= FC_DFA_NODOM;
		}
		if (build_dfas(t, re, n->specs, mode, n->nspecs, in,
			       max_states) < 0) {
			for (uint32_t i = 0; i < t->ndfa; i++)
				fc_dfa_free(t->dfa[i]);
			free(t->dfa);
			t->dfa = NULL;
			t->ndfa = 0;
			memset(in, 0, n->nspecs * sizeof(*in));
		}
	}
	for (uint32_t i = 0; i < n->nspecs; i++)
		if (!in || !in[i])
			t->rest[t->nrest++] = n->specs[i];
	if (t->nrest)
		t->code = combined_build(d, t->rest, t->nrest);
	t->older = n->set;
	__atomic_store_n(&n->set, t, __ATOMIC_RELEASE);
out:
	__atomic_store_n(&n->built, stage, __ATOMIC_RELEASE);
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
		if (candidate(d, acc[i], key, keylen, mode))
			return acc[i];
	}
	return NONE;
}

/*
 * The best spec of node n's automata for the key after the node's prefix
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
		fc_dfa_match_many((const struct fc_dfa *const *)n->dfa + g, k,
				  s, len, acc, cnt);
		if (nl)
			fc_dfa_match_many(
			    (const struct fc_dfa *const *)n->dfa + g, k, s,
			    len - 1, acc_nl, cnt_nl);
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
 * node n's specs, matches; best if none; -errno on error. */
static int64_t combined_match(struct fc_data *d, const struct fc_node *n,
			      pcre2_code *code, const char *key, size_t keylen,
			      uint32_t mode, uint32_t best)
{
	struct tls_match *t = tls_get();
	struct match_ctx m = { d, key, keylen, mode, NONE };
	int rc;

	if (!t)
		return -ENOMEM;
	pcre2_set_callout(t->mc, callout, &m);
	rc = pcre2_match(code, (PCRE2_SPTR)key, keylen, n->depth, 0, t->md,
			 t->mc);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		/* JIT stack exhausted by a huge key: the interpreter keeps
		 * its backtracking frames on the heap. */
		m.hit = NONE;
		rc = pcre2_match(code, (PCRE2_SPTR)key, keylen, n->depth,
				 PCRE2_NO_JIT, t->md, t->mc);
	}
	pcre2_set_callout(t->mc, NULL, NULL);
	if (rc >= 0 && (best == NONE || m.hit > best))
		return m.hit;
	if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH)
		return best;
	return -EINVAL;
}

/* Under d->lock: move n on from the stage it is in (see FC_NODE_WARM,
 * FC_NODE_SMALL). */
static void node_prepare(struct fc_data *d, struct fc_node *n)
{
	if (n->built == 0 && n->nspecs > FC_DFA_SMALL) {
		n->warm = combined_build(d, n->specs, n->nspecs);
		if (n->warm) {
			__atomic_store_n(&n->built, FC_NODE_WARM,
					 __ATOMIC_RELEASE);
			return;
		}
	}
	if ((n->built == 0 || n->built == FC_NODE_WARM) &&
	    n->nspecs > FC_DFA_SMALL && n->nspecs <= FC_DFA_EAGER) {
		node_build(d, n, FC_DFA_SMALL_STATES, FC_NODE_SMALL);
		return;
	}
	if (n->built != FC_NODE_BUILT)
		node_build(d, n, FC_DFA_MAX_STATES, FC_NODE_BUILT);
}

/* How many lookups node n answers in its stage before the next. */
static uint32_t stage_uses(const struct fc_node *n, int stage)
{
	if (stage == FC_NODE_WARM && n->nspecs <= FC_DFA_EAGER)
		return FC_DFA_SMALL_AFTER;
	return FC_DFA_WARMUP;
}

/* The highest spec of node n matching, or NONE; -errno on error. */
static int64_t node_match(struct fc_data *d, struct fc_node *n,
			  const char *key, size_t keylen, uint32_t mode,
			  uint32_t best)
{
	const struct fc_set *t;
	pcre2_code *code;
	int rc;
	int stage = __atomic_load_n(&n->built, __ATOMIC_ACQUIRE);

	if ((stage == FC_NODE_WARM || stage == FC_NODE_SMALL) &&
	    __atomic_add_fetch(&n->uses, 1, __ATOMIC_RELAXED) <=
		stage_uses(n, stage))
		goto interim;
	if (stage != FC_NODE_BUILT) {
		/* While another thread builds the automata (tens of ms for
		 * a large node), the interim answers instead of waiting for
		 * the lock. */
		if (stage != FC_NODE_WARM && stage != FC_NODE_SMALL)
			pthread_mutex_lock(&d->lock);
		else if (pthread_mutex_trylock(&d->lock))
			goto interim;
		node_prepare(d, n);
		pthread_mutex_unlock(&d->lock);
		stage = __atomic_load_n(&n->built, __ATOMIC_ACQUIRE);
	}
interim:
	if (stage == FC_NODE_WARM) {
		if (best != NONE && n->specs[0] <= best)
			return best;
		return combined_match(d, n, n->warm, key, keylen, mode, best);
	}
	t = __atomic_load_n(&n->set, __ATOMIC_ACQUIRE);
	if (!t || !t->rest)
		return -ENOMEM;
	best = node_dfas(d, t, key + n->depth, keylen - n->depth, key, keylen,
			 mode, best);
	if (!t->nrest || (best != NONE && t->rest[0] <= best))
		return best;
	code = t->code;
	if (!code) {
		/* The combined regex failed to build: one at a time. */
		for (uint32_t i = 0; i < t->nrest; i++) {
			uint32_t idx = t->rest[i];
			pcre2_code *re;

			if (best != NONE && idx <= best)
				break;
			if (!candidate(d, idx, key, keylen, mode))
				continue;
			re = fc_spec_re(d, idx);
			if (!re)
				/* reached a bad regex */
				return fc_spec_bad(d, idx) ? (int64_t)idx :
							    -ENOMEM;
			rc = match_one(re, key, keylen, 0);
			if (rc < 0)
				return rc;
			if (rc == 1)
				return idx;
		}
		return best;
	}
	return combined_match(d, n, code, key, keylen, mode, best);
}

static uint32_t fixed_lookup(const struct fc_data *d, const char *key,
			     size_t keylen, uint32_t mode)
{
	uint32_t i;

	/* Most keys have a length no exact spec has. */
	if (keylen < FC_LENBITS &&
	    !(d->fixed_lens[keylen / 64] & (1ull << (keylen % 64))))
		return NONE;
	i = d->heads[fc_hash(key, keylen) & d->mask];

	for (; i != NONE; i = d->ix[i].hnext) {
		const struct fc_ix *x = &d->ix[i];
		uint32_t smode = d->spec[i].mode;

		if (x->lit_len == keylen && !memcmp(x->lit, key, keylen) &&
		    (!mode || !smode || smode == mode))
			return i;
	}
	return NONE;
}

#define MAX_CHAIN 64

int fc_index_lookup(struct fc_data *d, const char *key, size_t keylen,
		    uint32_t mode)
{
	struct fc_node *stack[MAX_CHAIN], **chain = stack, *n;
	_cleanup_free_ struct fc_node **heap = NULL;
	uint32_t best = NONE, nchain = 0, p = 0, cap = MAX_CHAIN;
	bool best_bad = false;
	int r;

	if (!d->nspec)
		return -ENOENT;
	r = fc_index_ensure(d);
	if (r < 0)
		return r;
	n = d->root;
	/* Exact strings; "$" also matches before a final newline. */
	best = fixed_lookup(d, key, keylen, mode);
	if (keylen && key[keylen - 1] == '\n') {
		uint32_t b = fixed_lookup(d, key, keylen - 1, mode);

		if (b != NONE && (best == NONE || b > best))
			best = b;
	}

	/* Specs matched one by one, above the best so far. */
	for (uint32_t i = 0; i < d->nsingle; i++) {
		uint32_t idx = d->single[i];
		pcre2_code *re;
		int rc;

		if (best != NONE && idx <= best)
			break;
		if (!candidate(d, idx, key, keylen, mode))
			continue;
		re = fc_spec_re(d, idx);
		if (!re) {
			if (!fc_spec_bad(d, idx))
				return -ENOMEM;
			best = idx;
			best_bad = true;
			break;
		}
		rc = match_one(re, key, keylen, 0);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			best = idx;
			break;
		}
	}

	/* The trie nodes on the key's path. */
	if (n->nspecs)
		chain[nchain++] = n;
	while (p < keylen) {
		uint32_t pos;
		struct fc_node *c = node_child(n, key[p], &pos);

		if (nchain == cap) {
			/* A deeper chain than any real policy has. */
			struct fc_node **g = malloc(2 * cap * sizeof(*g));

			if (!g)
				return -ENOMEM;
			memcpy(g, chain, nchain * sizeof(*g));
			free(heap);
			heap = chain = g;
			cap *= 2;
		}

		if (!c || keylen - p < c->label_len ||
		    memcmp(c->label, key + p, c->label_len))
			break;
		p += c->label_len;
		n = c;
		if (n->nspecs)
			chain[nchain++] = n;
	}
	for (;;) {
		/* The unvisited node with the highest top index. */
		uint32_t top = NONE, which = 0;
		int64_t m;

		for (uint32_t i = 0; i < nchain; i++) {
			if (!chain[i])
				continue;
			if (top == NONE || chain[i]->specs[0] > top) {
				top = chain[i]->specs[0];
				which = i;
			}
		}
		if (top == NONE || (best != NONE && top <= best))
			break;
		m = node_match(d, chain[which], key, keylen, mode, best);
		chain[which] = NULL;
		if (m < 0)
			return m;
		if (m != NONE && (best == NONE || m > best)) {
			best = m;
			best_bad = fc_spec_bad(d, m);
		}
	}

	if (best == NONE)
		return -ENOENT;
	if (best_bad)
		return -EINVAL;
	return best;
}
