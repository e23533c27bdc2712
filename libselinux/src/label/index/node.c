/* label/index/node.c: a trie node's matchers, built once they have paid
 * for themselves and moved on by stages (node.h): its combined regex,
 * its automata, or an index image's set attached. */
#include <string.h>

#include "image.h"
#include "node.h"

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

void fc_nodes_free(struct fc_data *d)
{
	for (uint32_t i = 0; d->ns && i < d->nused; i++) {
		uint32_t k = d->used_nodes[i];

		set_free(d->ns[k].set);
		pcre2_code_free(d->ns[k].warm);
	}
	free(d->used_nodes);
	d->used_nodes = NULL;
	d->nused = d->aused = 0;
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
 * in[k] false for the specs left to PCRE2.  0, -ENOMEM, or -ETIME when
 * the work would pass *budget (NULL: none; see fc_dfa_build_limited). */
static int build_dfas(struct fc_set *t, const char **re, const uint32_t *spec,
		      const uint32_t *mode, uint32_t cnt, bool *in,
		      uint32_t max_states, uint64_t *budget)
{
	struct fc_dfa *a;
	const struct fc_dfa **v;
	bool any = false;
	int r = fc_dfa_build_limited(re, spec, mode, cnt, max_states, budget,
				     in, &a);

	if (r == -E2BIG && cnt > 1) {
		uint32_t h = cnt / 2;

		t->split = true;
		r = build_dfas(t, re, spec, mode, h, in, max_states, budget);
		if (r >= 0)
			r = build_dfas(t, re + h, spec + h, mode + h, cnt - h,
				       in + h, max_states, budget);
		return r;
	}
	if (r == -E2BIG) {
		t->split = true;
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

/* Build node k's automata (at most max_states states each, within
 * *budget when budget is not NULL) and the combined regex of the rest
 * (under d->lock), and publish them as its set, then stage as its
 * stage.  -ETIME: over budget, nothing changed. */
static int node_build(struct fc_data *d, uint32_t k, uint32_t max_states,
		      int stage, uint64_t *budget)
{
	struct fc_nstate *ns = &d->ns[k];
	uint32_t nspecs = d->trie.node[k].nspecs;
	const uint32_t *specs = fc_node_specs(d, k);
	_cleanup_free_ const char **re = malloc(nspecs * sizeof(*re));
	_cleanup_free_ bool *in = calloc(nspecs, sizeof(*in));
	_cleanup_free_ uint32_t *mode = calloc(nspecs, sizeof(*mode));
	struct fc_set *t = calloc(1, sizeof(*t));
	uint32_t *rest = malloc(nspecs * sizeof(*rest));
	int r = 0;

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
		r = build_dfas(t, re, specs, mode, nspecs, in, max_states,
			       budget);
		if (r < 0) {
			for (uint32_t i = 0; i < t->ndfa; i++)
				fc_dfa_free((struct fc_dfa *)t->dfa[i]);
			free((void *)t->dfa);
			t->dfa = NULL;
			t->ndfa = 0;
			memset(in, 0, nspecs * sizeof(*in));
			if (r == -ETIME) {
				free(rest);
				free(t);
				return r;
			}
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
	return 0;
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
	fc_corrupt(d);
	__atomic_store_n(&d->ns[k].built, FC_NODE_BAD, __ATOMIC_RELEASE);
}

/* The work at which node k tries automata next. */
static uint64_t next_try(const struct fc_nstate *ns)
{
	uint64_t next = __atomic_load_n(&ns->next, __ATOMIC_RELAXED);

	return next ? next : FC_OPS_FIRST;
}

bool fc_node_due(const struct fc_data *d, uint32_t k)
{
	const struct fc_nstate *ns = &d->ns[k];
	uint32_t nspecs = d->trie.node[k].nspecs;
	uint64_t work = __atomic_load_n(&ns->work, __ATOMIC_RELAXED);

	switch (__atomic_load_n(&ns->built, __ATOMIC_ACQUIRE)) {
	case FC_NODE_COLD:
		return work >= next_try(ns) ||
		       (nspecs > FC_DFA_SMALL &&
			work >= (uint64_t)nspecs * FC_OPS_WARM);
	case FC_NODE_WARM:
		return work >= next_try(ns);
	case FC_NODE_SMALL:
		return __atomic_load_n(&ns->uses, __ATOMIC_RELAXED) >=
		       FC_DFA_REBUILD;
	}
	return false;
}

void fc_node_prepare(struct fc_data *d, uint32_t k)
{
	struct fc_nstate *ns = &d->ns[k];
	uint32_t nspecs = d->trie.node[k].nspecs;
	uint64_t budget;

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
	if (!fc_node_due(d, k))
		return;
	if (ns->built == FC_NODE_SMALL) {
		node_build(d, k, FC_DFA_MAX_STATES, FC_NODE_BUILT, NULL);
		return;
	}
	budget = __atomic_load_n(&ns->work, __ATOMIC_RELAXED);
	if (budget >= next_try(ns)) {
		budget /= FC_RENT;
		int r = node_build(d, k, FC_DFA_SMALL_STATES, FC_NODE_SMALL,
				   &budget);

		if (r == 0) {
			/* a set that needed no split is final */
			struct fc_set *t = ns->set;

			if (t && !t->split)
				__atomic_store_n(&ns->built, FC_NODE_BUILT,
						 __ATOMIC_RELEASE);
			return;
		}
		/* over budget: again once the work has doubled */
		__atomic_store_n(
		    &ns->next, 2 * __atomic_load_n(&ns->work, __ATOMIC_RELAXED),
		    __ATOMIC_RELAXED);
	}
	if (ns->built == FC_NODE_COLD && nspecs > FC_DFA_SMALL &&
	    __atomic_load_n(&ns->work, __ATOMIC_RELAXED) >=
		(uint64_t)nspecs * FC_OPS_WARM) {
		ns->warm = combined_build(d, fc_node_specs(d, k), nspecs, true);
		if (ns->warm)
			__atomic_store_n(&ns->built, FC_NODE_WARM,
					 __ATOMIC_RELEASE);
	}
}

/* The combined regex of set t's rest, built on first need (an index
 * image's sets come without it): NULL if it cannot be (then each regex
 * is matched on its own). */
pcre2_code *fc_set_code(struct fc_data *d, struct fc_set *t)
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
			node_build(d, k, FC_DFA_MAX_STATES, FC_NODE_BUILT,
				   NULL);
		if (!d->ns[k].set || !d->ns[k].set->rest)
			r = -ENOMEM;
	}
	pthread_mutex_unlock(&d->lock);
	return r;
}
