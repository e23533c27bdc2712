/*
 * context.c: context strings to context structures with the kernel's
 * grammar, and the SID table.
 *
 * The grammar is the Linux kernel's (string_to_context_struct() and
 * mls_context_to_sid() of security/selinux/ss, as in Debian 12's 6.1),
 * not libsepol's, which differs on malformed input:
 *
 *   context := USER ':' ROLE ':' TYPE [ ':' MLS ]
 *   USER, ROLE  everything up to the next ':' (which must exist)
 *   TYPE        everything up to the next ':' or the end; an attribute
 *               is no type
 *   MLS         split at its first '-' into LOW and HIGH (HIGH absent:
 *               HIGH = LOW); each is SENS [ ':' CATS ], SENS up to its
 *               first ':'; CATS is split at every ',' into items, each
 *               CAT or CAT '.' CAT, where the text after the first '.'
 *               is the whole upper name (so "c1.c2.c3" names no
 *               category), and the lower's value must be below the upper's
 *   names       exact names (aliases included) of the policy's users,
 *               roles, types, sensitivities and categories; any other
 *               byte sequence, the empty one included, is no name
 *
 * On a non-MLS policy an MLS field is an error; on an MLS policy its
 * absence is (requests from userspace carry no default SID).  The result
 * must then be a valid context of the policy (policydb_context_isvalid:
 * role of the user, type of the role, levels defined, high dominating
 * low, range within the user's).
 *
 * The SID table (sidx_*): libsepol's sidtab_t keeps a SID's context in
 * one of 128 lists sorted by SID (an insert and a search walk one), and
 * every SID for the policy's life: with the index of contexts this file
 * kept beside it, a client naming new contexts (100,000 distinct MLS
 * category sets) still made each request slower (sepol_sidtab_insert
 * and _search: 76% of the server's time) and the server larger without
 * end (69 MB; 350 bytes a context).  Ours holds the SIDs itself, found
 * both ways in O(1) (two open-addressed hashes), and is bounded: past
 * SRV_SID_CAP SIDs besides the initial ones, SIDs are reclaimed between
 * requests (sidx_begin) by a clock, a SID asked for since the hand last
 * passed it being spared once, so that the contexts in use stay and
 * the ones named once go.
 *
 * Why reclaiming is safe: the kernel never gives a SID number to two
 * contexts while a policy is loaded, and neither do we - numbers only
 * grow, and a reclaimed one is not given again.  No SID leaves the
 * server (selinuxfs carries contexts, both ways); inside it, a SID lives
 * from the request that named its context to the next request, or in
 * the decision cache's keys (policy.c), where a reclaimed SID can never
 * match again.  A context named again after its SID went gets a new
 * one, decided afresh.  Should the numbers reach SIDX_RESTART (2^31
 * contexts, or a test's lower value), they restart: every SID but the
 * initial ones goes at once, and sidx_epoch() changes so that policy.c
 * empties its cache.
 *
 * libsepol's services (sepol_compute_av, sepol_sid_to_context,
 * sepol_validate_transition_reason_buffer) look SIDs up in the sidtab_t
 * given to sepol_set_sidtab: sidx_view(), which holds nothing but,
 * during one call, the few SIDs it names (sidx_expose): their entries
 * are sidtab nodes, linked into its sorted lists for the call.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/hashtab.h>

#include "context.h"

/* In libsepol's static archive, not declared by its headers. */
extern int policydb_context_isvalid(const policydb_t *p,
				    const context_struct_t *c);

/* ---------- the grammar */

/* One level: "SENS[:CAT,CAT.CAT,...]" (s is modified). */
static int parse_level(const policydb_t *p, char *s, mls_level_t *l)
{
	char *cats = strchr(s, ':'), *item, *next, *hi;
	level_datum_t *lev;
	cat_datum_t *lo, *up;

	if (cats)
		*cats++ = '\0';
	lev = hashtab_search(p->p_levels.table, s);
	if (!lev)
		return -EINVAL;
	l->sens = lev->level->sens;
	for (item = cats; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		hi = strchr(item, '.');
		if (hi)
			*hi++ = '\0';
		lo = hashtab_search(p->p_cats.table, item);
		if (!lo)
			return -EINVAL;
		if (ebitmap_set_bit(&l->cat, lo->s.value - 1, 1))
			return -ENOMEM;
		if (!hi)
			continue;
		up = hashtab_search(p->p_cats.table, hi);
		if (!up || lo->s.value >= up->s.value)
			return -EINVAL;
		for (uint32_t v = lo->s.value; v < up->s.value; v++)
			if (ebitmap_set_bit(&l->cat, v, 1))
				return -ENOMEM;
	}
	return 0;
}

/* The MLS field (after the type's ':'; has_field: the ':' was there). */
static int parse_mls(const policydb_t *p, bool has_field, char *s,
		     context_struct_t *c)
{
	char *high;
	int r;

	if (!p->mls)
		return has_field ? -EINVAL : 0;
	if (!has_field)
		return -EINVAL;
	high = strchr(s, '-');
	if (high)
		*high++ = '\0';
	if ((r = parse_level(p, s, &c->range.level[0])) < 0)
		return r;
	if (high)
		return parse_level(p, high, &c->range.level[1]);
	return mls_level_cpy(&c->range.level[1], &c->range.level[0]) < 0 ?
		       -ENOMEM :
		       0;
}

int ctx_parse(const policydb_t *p, char *s, context_struct_t *c)
{
	char *role, *type, *mls;
	user_datum_t *u;
	role_datum_t *r;
	type_datum_t *t;
	bool has_mls;
	int rc;

	context_init(c);
	role = strchr(s, ':');
	if (!role)
		return -EINVAL;
	*role++ = '\0';
	type = strchr(role, ':');
	if (!type)
		return -EINVAL;
	*type++ = '\0';
	mls = strchr(type, ':');
	has_mls = mls != NULL;
	if (mls)
		*mls++ = '\0';

	u = hashtab_search(p->p_users.table, s);
	if (!u)
		return -EINVAL;
	c->user = u->s.value;
	r = hashtab_search(p->p_roles.table, role);
	if (!r)
		return -EINVAL;
	c->role = r->s.value;
	t = hashtab_search(p->p_types.table, type);
	if (!t || t->flavor == TYPE_ATTRIB)
		return -EINVAL;
	c->type = t->s.value;

	rc = parse_mls(p, has_mls, mls, c);
	if (rc == 0 && !policydb_context_isvalid(p, c))
		rc = -EINVAL;
	if (rc < 0)
		context_destroy(c);
	return rc;
}

/* ---------- the SID table */

/* Entries are made BLOCK at a time and never move: a context pointer
 * sidx_search gave stays valid while its SID lives. */
#define BLOCK_BITS 10
#define BLOCK (1u << BLOCK_BITS)

struct sent {
	sidtab_node_t node; /* node.sid 0: free; node.next: sidx_expose's */
	uint32_t hash;	    /* ctx_hash of node.context */
	uint32_t next_free; /* the free list: an index + 1, 0 at its end */
	bool pinned;	    /* an initial SID: kept for the policy's life */
	bool ref;	    /* asked for since the clock's hand passed it */
};

struct sidx {
	struct sent **blocks;
	uint32_t nblocks, nent; /* blocks; entries in them (nblocks * BLOCK) */
	uint32_t free_head;	/* an index + 1, 0: none free */
	uint32_t live, pinned;	/* entries in use; of them initial SIDs */
	/* open-addressed, linear probing: an entry's index + 1, 0 empty;
	 * mask + 1 >= 2 * nent, so that both stay under half full */
	uint32_t *by_ctx, *by_sid;
	uint32_t mask;
	uint32_t cap, next_sid, epoch, hand;
	uint64_t reclaimed;
	/* what libsepol's services see: empty but during one call */
	sidtab_t view;
	sidtab_ptr_t buckets[SIDTAB_SIZE];
	uint32_t shown[SIDX_EXPOSE_MAX];
	unsigned nshown;
};

static struct sent *ent(const struct sidx *t, uint32_t i)
{
	return &t->blocks[i >> BLOCK_BITS][i & (BLOCK - 1)];
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t level_hash(uint64_t h, const mls_level_t *l)
{
	h = mix(h, l->sens);
	for (const ebitmap_node_t *n = l->cat.node; n; n = n->next)
		h = mix(mix(h, n->startbit), n->map);
	return h;
}

static uint32_t ctx_hash(const context_struct_t *c)
{
	uint64_t h = mix(mix(mix(0, c->user), c->role), c->type);

	h = level_hash(level_hash(h, &c->range.level[0]), &c->range.level[1]);
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

static uint32_t sid_hash(uint32_t sid)
{
	uint32_t h = sid * 0x9e3779b1u;

	return h ^ (h >> 15);
}

/* Where entry i's search starts in a table by context or by SID. */
static uint32_t home(const struct sidx *t, uint32_t i, bool by_sid)
{
	const struct sent *e = ent(t, i);

	return (by_sid ? sid_hash(e->node.sid) : e->hash) & t->mask;
}

static void put(struct sidx *t, uint32_t i, bool by_sid)
{
	uint32_t *slots = by_sid ? t->by_sid : t->by_ctx;
	uint32_t k = home(t, i, by_sid);

	while (slots[k])
		k = (k + 1) & t->mask;
	slots[k] = i + 1;
}

/* Entry i out of a table, the entries after it moved back so that no
 * search stops early at the hole (no tombstones). */
static void unput(struct sidx *t, uint32_t i, bool by_sid)
{
	uint32_t *slots = by_sid ? t->by_sid : t->by_ctx;
	uint32_t hole = home(t, i, by_sid), j, k;

	while (slots[hole] != i + 1)
		hole = (hole + 1) & t->mask;
	for (j = hole;;) {
		j = (j + 1) & t->mask;
		if (!slots[j])
			break;
		k = home(t, slots[j] - 1, by_sid);
		/* the entry at j may fill the hole when the hole lies on
		 * its way from its home to j */
		if (((j - k) & t->mask) >= ((j - hole) & t->mask)) {
			slots[hole] = slots[j];
			hole = j;
		}
	}
	slots[hole] = 0;
}

static int find_sid(const struct sidx *t, uint32_t sid, uint32_t *out)
{
	for (uint32_t k = sid_hash(sid) & t->mask, x; (x = t->by_sid[k]);
	     k = (k + 1) & t->mask)
		if (ent(t, x - 1)->node.sid == sid) {
			*out = x - 1;
			return 0;
		}
	return -1;
}

static int find_ctx(const struct sidx *t, const context_struct_t *c,
		    uint32_t h, uint32_t *out)
{
	for (uint32_t k = h & t->mask, x; (x = t->by_ctx[k]);
	     k = (k + 1) & t->mask) {
		const struct sent *e = ent(t, x - 1);

		if (e->hash == h && context_cmp(&e->node.context, c)) {
			*out = x - 1;
			return 0;
		}
	}
	return -1;
}

/* Both tables again, of n slots (a power of two). */
static int rehash(struct sidx *t, uint32_t n)
{
	uint32_t *c = calloc(n, sizeof(*c)), *s = calloc(n, sizeof(*s));

	if (!c || !s) {
		free(c);
		free(s);
		return -ENOMEM;
	}
	free(t->by_ctx);
	free(t->by_sid);
	t->by_ctx = c;
	t->by_sid = s;
	t->mask = n - 1;
	for (uint32_t i = 0; i < t->nent; i++)
		if (ent(t, i)->node.sid) {
			put(t, i, false);
			put(t, i, true);
		}
	return 0;
}

/* One more block of free entries. */
static int grow(struct sidx *t)
{
	struct sent **b, *blk;
	uint32_t n = t->mask + 1;

	if (t->nblocks >= UINT32_MAX / BLOCK / 4)
		return -ENOMEM;
	b = reallocarray(t->blocks, t->nblocks + 1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	t->blocks = b;
	blk = calloc(BLOCK, sizeof(*blk));
	if (!blk)
		return -ENOMEM;
	while (n < 2 * (t->nent + BLOCK))
		n *= 2;
	t->blocks[t->nblocks] = blk;
	if (n != t->mask + 1) {
		/* rehash walks nent entries: the new block is not in it yet */
		if (rehash(t, n) < 0) {
			free(blk);
			return -ENOMEM;
		}
	}
	t->nblocks++;
	for (uint32_t i = BLOCK; i-- > 0;) {
		blk[i].next_free = t->free_head;
		t->free_head = t->nent + i + 1;
	}
	t->nent += BLOCK;
	return 0;
}

/* A new entry for sid and a copy of c: its index, or -ENOMEM. */
static int64_t add(struct sidx *t, uint32_t sid, const context_struct_t *c,
		   uint32_t h, bool pinned)
{
	struct sent *e;
	uint32_t i;

	if (!t->free_head && grow(t) < 0)
		return -ENOMEM;
	i = t->free_head - 1;
	e = ent(t, i);
	context_init(&e->node.context);
	if (context_cpy(&e->node.context, c) < 0) {
		context_destroy(&e->node.context);
		return -ENOMEM;
	}
	t->free_head = e->next_free;
	e->next_free = 0;
	e->node.sid = sid;
	e->node.next = NULL;
	e->hash = h;
	e->pinned = pinned;
	e->ref = false;
	put(t, i, false);
	put(t, i, true);
	t->live++;
	t->pinned += pinned;
	return i;
}

static void drop(struct sidx *t, uint32_t i)
{
	struct sent *e = ent(t, i);

	unput(t, i, false);
	unput(t, i, true);
	context_destroy(&e->node.context);
	e->node.sid = 0;
	e->next_free = t->free_head;
	t->free_head = i + 1;
	t->live--;
	t->reclaimed++;
}

static int add_isid(sepol_security_id_t sid, context_struct_t *c, void *arg)
{
	return add(arg, sid, c, ctx_hash(c), true) < 0 ? -ENOMEM : 0;
}

struct sidx *sidx_new(sidtab_t *isids, uint32_t cap)
{
	struct sidx *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = cap;
	t->next_sid = SIDX_FIRST;
	t->view.htable = t->buckets;
	t->mask = 0; /* grow() sizes the tables for the first block */
	if (grow(t) < 0 || sepol_sidtab_map(isids, add_isid, t)) {
		sidx_destroy(t);
		return NULL;
	}
	return t;
}

void sidx_destroy(struct sidx *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->nent; i++)
		if (ent(t, i)->node.sid)
			context_destroy(&ent(t, i)->node.context);
	for (uint32_t b = 0; b < t->nblocks; b++)
		free(t->blocks[b]);
	free(t->blocks);
	free(t->by_ctx);
	free(t->by_sid);
	free(t);
}

void sidx_begin(struct sidx *t)
{
	if (t->next_sid >= SIDX_RESTART) {
		/* The numbers restart: no SID that a decision was cached
		 * under may name another context, so every SID goes (and
		 * the epoch tells policy.c to empty its cache). */
		for (uint32_t i = 0; i < t->nent; i++)
			if (ent(t, i)->node.sid && !ent(t, i)->pinned)
				drop(t, i);
		t->next_sid = SIDX_FIRST;
		t->epoch++;
	}
	/* the clock: an entry asked for since the hand last passed is
	 * spared once (its mark cleared), any other one goes */
	while (t->live - t->pinned > t->cap) {
		struct sent *e = ent(t, t->hand);
		uint32_t i = t->hand;

		t->hand = (t->hand + 1) % t->nent;
		if (!e->node.sid || e->pinned)
			continue;
		if (e->ref)
			e->ref = false;
		else
			drop(t, i);
	}
}

uint32_t sidx_epoch(const struct sidx *t)
{
	return t->epoch;
}

context_struct_t *sidx_search(struct sidx *t, uint32_t sid)
{
	uint32_t i;

	return sid && find_sid(t, sid, &i) == 0 ? &ent(t, i)->node.context :
						   NULL;
}

int sidx_context_to_sid(struct sidx *t, const context_struct_t *c,
			uint32_t *out)
{
	uint32_t h = ctx_hash(c), i;
	int64_t r;

	if (find_ctx(t, c, h, &i) == 0) {
		ent(t, i)->ref = true;
		*out = ent(t, i)->node.sid;
		return 0;
	}
	if (t->next_sid == UINT32_MAX)
		return -ENOMEM;
	r = add(t, t->next_sid, c, h, false);
	if (r < 0)
		return (int)r;
	*out = t->next_sid++;
	return 0;
}

sidtab_t *sidx_view(struct sidx *t)
{
	return &t->view;
}

int sidx_expose(struct sidx *t, const uint32_t *sids, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		sidtab_node_t *node, **p;
		uint32_t i, b = sids[k] & SIDTAB_HASH_MASK;

		if (k >= SIDX_EXPOSE_MAX || !sids[k] ||
		    find_sid(t, sids[k], &i) < 0) {
			sidx_unexpose(t);
			return -EINVAL;
		}
		node = &ent(t, i)->node;
		/* libsepol's buckets are lists sorted by SID */
		for (p = &t->buckets[b]; *p && (*p)->sid < node->sid;
		     p = &(*p)->next)
			;
		if (*p == node)
			continue; /* the same SID twice */
		node->next = *p;
		*p = node;
		t->shown[t->nshown++] = b;
	}
	return 0;
}

void sidx_unexpose(struct sidx *t)
{
	for (unsigned k = 0; k < t->nshown; k++) {
		sidtab_node_t *node = t->buckets[t->shown[k]], *next;

		for (; node; node = next) {
			next = node->next;
			node->next = NULL;
		}
		t->buckets[t->shown[k]] = NULL;
	}
	t->nshown = 0;
}

void sidx_stats(const struct sidx *t, struct sidx_stats *st)
{
	st->entries = t->live;
	st->slots = t->mask + 1;
	st->longest = 0;
	st->reclaimed = t->reclaimed;
	for (uint32_t k = 0; k <= t->mask; k++)
		if (t->by_ctx[k]) {
			uint32_t d = ((k - home(t, t->by_ctx[k] - 1, false)) &
				      t->mask) + 1;

			if (d > st->longest)
				st->longest = d;
		}
}
