/* label/index/lookup.c: the lookup - the spec that wins for a key, found
 * fast, with the reference's answer. */
#include <string.h>

#include "node.h"

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
static bool tls_ok;	      /* written once, under tls_once */

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

/* One regex on its own: 1 match, 0 none; -ENOMEM without memory for
 * the match (this thread's match data, PCRE2's heap); -ENOENT when
 * PCRE2 fails to match it otherwise (its match limit: a catastrophic
 * regex), where the reference gives up the lookup with ENOENT. */
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
	if (rc == PCRE2_ERROR_NOMEMORY)
		return -ENOMEM;
	return -ENOENT;
}

/* The highest of the specs in acc (cnt, highest first: what an
 * automaton accepts) that is above best and a candidate for key and
 * mode, or NONE. */
static uint32_t dfa_pick(struct fc_data *d, const uint32_t *acc, uint32_t cnt,
			 const char *key, size_t keylen, uint32_t mode,
			 uint32_t best)
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
	struct match_ctx m = {d, key, keylen, mode, NONE};
	int rc;

	if (!t)
		return -ENOMEM;
	pcre2_set_callout(t->mc, callout, &m);
	rc = pcre2_match(code, (PCRE2_SPTR)key, keylen, depth, 0, t->md, t->mc);
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
 * it, a higher spec of another source still can.  *ops (if not NULL)
 * grows by what the matches and compiles cost (node.h).
 */
static int64_t each_one(struct fc_data *d, const uint32_t *v, uint32_t cnt,
			const char *key, size_t keylen, uint32_t mode,
			uint32_t best, uint32_t *err, uint64_t *ops)
{
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t idx = v[i];
		pcre2_code **res;
		pcre2_code *re;
		int rc;

		if (best != NONE && idx <= best)
			break;
		if (!fc_spec_ok(d, idx))
			return fc_corrupt(d);
		if (!fc_candidate(d, idx, key, keylen, mode))
			continue;
		if (ops) {
			res = __atomic_load_n(&d->re, __ATOMIC_ACQUIRE);
			*ops += FC_OPS_MATCH + keylen;
			if (!res ||
			    !__atomic_load_n(&res[idx], __ATOMIC_RELAXED))
				*ops += FC_OPS_COMPILE;
		}
		re = fc_spec_re(d, idx);
		if (!re && !fc_spec_bad(d, idx))
			return -ENOMEM;
		rc = re ? match_one(re, key, keylen, 0) : -ENOENT;
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0) {
			*err = above(*err, idx);
			return best;
		}
		if (rc == 1)
			return idx;
	}
	return best;
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

	if (d->img && stage != FC_NODE_BUILT) {
		/* an index image's set, attached on the node's first use */
		pthread_mutex_lock(&d->lock);
		fc_node_prepare(d, k);
		pthread_mutex_unlock(&d->lock);
		stage = __atomic_load_n(&ns->built, __ATOMIC_ACQUIRE);
	} else if (stage != FC_NODE_BUILT && fc_node_due(d, k) &&
		   !pthread_mutex_trylock(&d->lock)) {
		/* While another thread builds (tens of ms for a large
		 * node), the stage there is answers instead of waiting for
		 * the lock. */
		fc_node_prepare(d, k);
		pthread_mutex_unlock(&d->lock);
		stage = __atomic_load_n(&ns->built, __ATOMIC_ACQUIRE);
	}
	if (stage == FC_NODE_BAD)
		return fc_corrupt(d);
	if (stage == FC_NODE_COLD || stage == FC_NODE_WARM) {
		uint64_t ops = 0;
		int64_t m = -EAGAIN;

		if (best != NONE && fc_node_specs(d, k)[0] <= best)
			return best;
		if (stage == FC_NODE_WARM) {
			ops = FC_OPS_MATCH + keylen + 2 * (uint64_t)n->nspecs;
			m = combined_match(d, n->depth, ns->warm, key, keylen,
					   mode, best);
		}
		if (m == -EAGAIN)
			m = each_one(d, fc_node_specs(d, k), n->nspecs, key,
				     keylen, mode, best, err, &ops);
		__atomic_add_fetch(&ns->work, ops, __ATOMIC_RELAXED);
		return m;
	}
	if (stage == FC_NODE_SMALL)
		__atomic_add_fetch(&ns->uses, 1, __ATOMIC_RELAXED);
	t = __atomic_load_n(&ns->set, __ATOMIC_ACQUIRE);
	if (!t || !t->rest)
		return -ENOMEM;
	best = node_dfas(d, t, key + n->depth, keylen - n->depth, key, keylen,
			 mode, best);
	if (!t->nrest || (best != NONE && t->rest[0] <= best))
		return best;
	code = fc_set_code(d, t);
	if (code) {
		int64_t m =
		    combined_match(d, n->depth, code, key, keylen, mode, best);

		if (m != -EAGAIN)
			return m;
	}
	/* The combined regex failed to build or to match: one at a time. */
	return each_one(d, t->rest, t->nrest, key, keylen, mode, best, err,
			NULL);
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

/* The nodes on a key's path that hold specs, each as (its top spec << 32
 * | the node), DONE once asked: on the stack up to MAX_CHAIN of them
 * (deeper than any real policy's paths), else on the heap. */
#define MAX_CHAIN 64
#define DONE UINT64_MAX
struct chain {
	uint64_t *v, stack[MAX_CHAIN];
	uint32_t n, cap;
};

static int chain_add(struct chain *c, const struct fc_trie *tr, uint32_t k)
{
	if (c->n == c->cap) {
		uint64_t *g = malloc(2 * (size_t)c->cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		memcpy(g, c->v, c->n * sizeof(*g));
		if (c->v != c->stack)
			free(c->v);
		c->v = g;
		c->cap *= 2;
	}
	c->v[c->n++] = (uint64_t)tr->specs[tr->node[k].specs] << 32 | k;
	return 0;
}

/* The highest exact spec for key and mode; "$" also matches before a
 * final newline.  NONE if none; CORRUPT if an index image's chain does
 * not check out. */
static uint32_t exact(const struct fc_data *d, const char *key, size_t keylen,
		      uint32_t mode)
{
	bool bad = false;
	uint32_t best = fixed_lookup(d, key, keylen, mode, &bad);

	if (keylen && key[keylen - 1] == '\n') {
		uint32_t b = fixed_lookup(d, key, keylen - 1, mode, &bad);

		if (b != NONE && (best == NONE || b > best))
			best = b;
	}
	return bad ? CORRUPT : best;
}

/* The trie's nodes on key's path that hold specs, root first, into c:
 * 0 or -errno. */
static int path_nodes(struct fc_data *d, const char *key, size_t keylen,
		      struct chain *c)
{
	const struct fc_trie *tr = &d->trie;
	uint32_t n = 0, p = 0;
	int r;

	if (!tr->nnode)
		return 0;
	if (tr->node[0].nspecs && (r = chain_add(c, tr, 0)) < 0)
		return r;
	while (p < keylen) {
		uint32_t k = trie_child(tr, n, key[p]);
		const struct fc_tnode *cn;

		if (k == NONE)
			break;
		if (k == CORRUPT || !fc_node_ok(d, k))
			return fc_corrupt(d);
		cn = &tr->node[k];
		if (keylen - p < cn->label_len ||
		    memcmp(tr->labels + cn->label, key + p, cn->label_len))
			break;
		p += cn->label_len;
		/* a node's depth is its prefix's length: an image's node
		 * that says otherwise is not used */
		if (cn->depth != p)
			return fc_corrupt(d);
		n = k;
		if (cn->nspecs && (r = chain_add(c, tr, n)) < 0)
			return r;
	}
	return 0;
}

/* The nodes of c asked highest top spec first, each only while it may
 * hold a spec above best and *err: the best spec, or -errno. */
static int64_t ask_nodes(struct fc_data *d, struct chain *c, const char *key,
			 size_t keylen, uint32_t mode, uint32_t best,
			 uint32_t *err)
{
	for (;;) {
		uint64_t hi = DONE;
		uint32_t which = 0, top, floor;
		int64_t m;

		for (uint32_t i = 0; i < c->n; i++)
			if (c->v[i] != DONE && (hi == DONE || c->v[i] > hi)) {
				hi = c->v[i];
				which = i;
			}
		if (hi == DONE)
			break;
		top = (uint32_t)(hi >> 32);
		floor = above(best, *err);
		if (floor != NONE && top <= floor)
			break;
		m = node_match(d, (uint32_t)hi, key, keylen, mode, floor, err);
		c->v[which] = DONE;
		if (m < 0)
			return m;
		if (m != NONE && (floor == NONE || m > floor))
			best = m;
	}
	return best;
}

/*
 * Three sources, each asked only for a spec above the best so far: the
 * exact strings, the specs matched one by one, the trie's nodes on the
 * key's path.
 */
int fc_index_lookup(struct fc_data *d, const char *key, size_t keylen,
		    uint32_t mode)
{
	struct chain c = {.n = 0, .cap = MAX_CHAIN};
	/* the highest spec whose regex PCRE2 rejects or cannot match, met
	 * on the way: the reference's lookup fails there if no higher spec
	 * matches (each_one) */
	uint32_t err = NONE, best;
	int64_t m;
	int r;

	if (!d->nspec)
		return -ENOENT;
	r = fc_index_ensure(d);
	if (r < 0)
		return r;
	best = exact(d, key, keylen, mode);
	if (best == CORRUPT)
		return fc_corrupt(d);
	m = each_one(d, d->single, d->nsingle, key, keylen, mode, best, &err,
		     NULL);
	if (m < 0)
		return m;
	c.v = c.stack;
	r = path_nodes(d, key, keylen, &c);
	m = r < 0 ? r : ask_nodes(d, &c, key, keylen, mode, m, &err);
	if (c.v != c.stack)
		free(c.v);
	if (m < 0)
		return m;
	best = m;
	/* a regex PCRE2 rejects or cannot match above every match: the
	 * reference's lookup fails there, with ENOENT (matchpathcon prints
	 * <<none>>) */
	if (best == NONE || (err != NONE && err > best))
		return -ENOENT;
	return best;
}
