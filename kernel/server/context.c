/*
 * context.c: context strings to context structures with the kernel's
 * grammar, and the SID table's index.
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
 * The index: libsepol's sidtab_t finds a context's SID by scanning every
 * entry (sepol_sidtab_context_to_sid), and a SID's context in a list of
 * one of 128 buckets; with tens of thousands of SIDs both dominate a
 * request.  sidx_* keep beside it an open-addressed hash of contexts and
 * an array by SID, pointing at the sidtab's own copies (its nodes never
 * move), so that both directions cost O(1).  New SIDs are given here, in
 * the sidtab's order (next_sid), and inserted into both.
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

/* ---------- the index */

static sidtab_t *tab; /* the sidtab indexed */
static uint32_t *slot; /* hash slots: a SID, 0 empty */
static uint32_t mask; /* slots - 1 */
static uint32_t used; /* SIDs in the hash */
static context_struct_t **by_sid; /* [sid]: the sidtab's copy */
static uint32_t nsid; /* by_sid's length */

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

static void hash_put(uint32_t sid)
{
	uint32_t i = ctx_hash(by_sid[sid]) & mask;

	while (slot[i])
		i = (i + 1) & mask;
	slot[i] = sid;
	used++;
}

/* Room for one more SID: the hash under 1/2 full, by_sid long enough. */
static int grow(uint32_t sid)
{
	if (sid >= nsid) {
		uint32_t n = nsid ? nsid : 256;
		context_struct_t **b;

		if (sid >= UINT32_MAX / 2) /* n would wrap to 0 */
			return -ENOMEM;

		while (n <= sid)
			n *= 2;
		b = reallocarray(by_sid, n, sizeof(*b));
		if (!b)
			return -ENOMEM;
		memset(b + nsid, 0, (n - nsid) * sizeof(*b));
		by_sid = b;
		nsid = n;
	}
	if (!slot || 2 * (used + 1) > mask + 1) {
		uint32_t n = slot ? 2 * (mask + 1) : 1024;
		uint32_t *old = slot, oldn = slot ? mask + 1 : 0;

		slot = calloc(n, sizeof(*slot));
		if (!slot) {
			slot = old;
			return -ENOMEM;
		}
		mask = n - 1;
		used = 0;
		for (uint32_t i = 0; i < oldn; i++)
			if (old[i])
				hash_put(old[i]);
		free(old);
	}
	return 0;
}

static int index_one(sepol_security_id_t sid, context_struct_t *c, void *arg)
{
	(void)arg;
	if (grow(sid) < 0)
		return -ENOMEM;
	by_sid[sid] = c;
	hash_put(sid);
	return 0;
}

void sidx_free(void)
{
	free(slot);
	free(by_sid);
	slot = NULL;
	by_sid = NULL;
	mask = used = nsid = 0;
	tab = NULL;
}

int sidx_reset(sidtab_t *s)
{
	sidx_free();
	tab = s;
	if (sepol_sidtab_map(s, index_one, NULL)) {
		sidx_free();
		return -ENOMEM;
	}
	return 0;
}

context_struct_t *sidx_search(uint32_t sid)
{
	return sid < nsid ? by_sid[sid] : NULL;
}

int sidx_context_to_sid(context_struct_t *c, uint32_t *out)
{
	uint32_t h = ctx_hash(c), sid;

	if (!tab)
		return -ENOMEM;
	if (slot)
		for (uint32_t i = h & mask; (sid = slot[i]); i = (i + 1) & mask)
			if (context_cmp(by_sid[sid], c)) {
				*out = sid;
				return 0;
			}
	sid = tab->next_sid;
	if (grow(sid) < 0 || sepol_sidtab_insert(tab, sid, c))
		return -ENOMEM;
	tab->next_sid = sid + 1;
	by_sid[sid] = sepol_sidtab_search(tab, sid);
	hash_put(sid);
	*out = sid;
	return 0;
}
