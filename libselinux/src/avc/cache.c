/* avc/cache.c: the decision cache, keyed by (source, target, class). */
#include <string.h>

#include "internal.h"

/*
 * A chained hash of CACHE_SLOTS buckets, at most CACHE_MAXNODES entries,
 * every function called with the AVC lock held.  Nodes are never freed
 * before avc_destroy(): a caller's avc_entry_ref may point at one, so a
 * flushed or reclaimed node goes to the free list with its SIDs cleared,
 * and a stale reference then fails the (ssid, tsid, tclass) check of
 * avc_has_perm instead of reading freed memory.
 */
static unsigned slot_of(security_id_t ssid, security_id_t tsid,
			security_class_t tclass)
{
	uint64_t h = ((uintptr_t)ssid >> 4) * 0x9e3779b97f4a7c15ull;

	h ^= ((uintptr_t)tsid >> 4) * 0xc2b2ae3d27d4eb4full;
	h ^= tclass;
	h ^= h >> 29;
	return (unsigned)h & (CACHE_SLOTS - 1);
}

static struct cache_node *search(security_id_t ssid, security_id_t tsid,
				 security_class_t tclass, unsigned *probes)
{
	struct cache_node *n = cache_avc.slots[slot_of(ssid, tsid, tclass)];
	unsigned k = 1;

	for (; n; n = n->next, k++) {
		if (n->ae.ssid == ssid && n->ae.tsid == tsid &&
		    n->ae.tclass == tclass) {
			*probes = k;
			n->ae.used = 1;
			return n;
		}
	}
	return NULL;
}

int cache_lookup(security_id_t ssid, security_id_t tsid,
		 security_class_t tclass, access_vector_t requested,
		 struct avc_entry_ref *aeref)
{
	unsigned probes = 0;
	struct cache_node *n;

	cache_avc.stats.cav_lookups++;
	n = search(ssid, tsid, tclass, &probes);
	if (n && (n->ae.avd.decided & requested) == requested) {
		cache_avc.stats.cav_hits++;
		cache_avc.stats.cav_probes += probes;
		aeref->ae = &n->ae;
		return 0;
	}
	cache_avc.stats.cav_misses++;
	return -ENOENT;
}

static void clear_entry(struct avc_entry *ae)
{
	memset(ae, 0, sizeof(*ae));
}

/*
 * Second chance: walk the buckets from where the last walk stopped,
 * clearing "used" marks and freeing unmarked nodes, until CACHE_RECLAIM
 * are free or every bucket has been seen twice.
 */
static void reclaim(void)
{
	unsigned freed = 0;

	for (unsigned step = 0; step < 2 * CACHE_SLOTS && freed < CACHE_RECLAIM;
	     step++) {
		unsigned s = cache_avc.lru_hint;
		struct cache_node **pp = &cache_avc.slots[s];

		cache_avc.lru_hint = (s + 1) & (CACHE_SLOTS - 1);
		while (*pp) {
			struct cache_node *n = *pp;

			if (n->ae.used) {
				n->ae.used = 0;
				pp = &n->next;
				continue;
			}
			*pp = n->next;
			clear_entry(&n->ae);
			n->next = cache_avc.freelist;
			cache_avc.freelist = n;
			cache_avc.active_nodes--;
			freed++;
		}
	}
}

static struct cache_node *claim(void)
{
	struct cache_node *n;

	if (!cache_avc.freelist && cache_avc.allocated_nodes < CACHE_MAXNODES) {
		n = cache_malloc(sizeof(*n));
		if (n) {
			memset(n, 0, sizeof(*n));
			cache_avc.allocated_nodes++;
			n->next = cache_avc.freelist;
			cache_avc.freelist = n;
		}
	}
	if (!cache_avc.freelist)
		reclaim();
	n = cache_avc.freelist;
	if (!n)
		return NULL;
	cache_avc.freelist = n->next;
	n->next = NULL;
	return n;
}

int cache_insert(security_id_t ssid, security_id_t tsid,
		 security_class_t tclass, const struct av_decision *avd,
		 struct avc_entry_ref *aeref)
{
	unsigned probes, s;
	struct cache_node *n;

	if (avd->seqno < cache_avc.latest_notif) {
		cache_log(SELINUX_WARNING, "%s:  seqno %u < latest_notif %u\n",
			  cache_avc.prefix, avd->seqno, cache_avc.latest_notif);
		return -EAGAIN;
	}
	/* A decision for more permissions than the cached one: refresh it
	 * in place, so that references to the entry stay good. */
	n = search(ssid, tsid, tclass, &probes);
	if (n) {
		n->ae.avd = *avd;
		aeref->ae = &n->ae;
		return 0;
	}
	n = claim();
	if (!n)
		return -ENOMEM;
	n->ae.ssid = ssid;
	n->ae.tsid = tsid;
	n->ae.tclass = tclass;
	n->ae.avd = *avd;
	n->ae.create_sid = NULL;
	n->ae.used = 1;
	s = slot_of(ssid, tsid, tclass);
	n->next = cache_avc.slots[s];
	cache_avc.slots[s] = n;
	cache_avc.active_nodes++;
	aeref->ae = &n->ae;
	return 0;
}

void cache_flush(void)
{
	for (unsigned i = 0; i < CACHE_SLOTS; i++) {
		struct cache_node *n = cache_avc.slots[i];

		while (n) {
			struct cache_node *next = n->next;

			clear_entry(&n->ae);
			n->next = cache_avc.freelist;
			cache_avc.freelist = n;
			n = next;
		}
		cache_avc.slots[i] = NULL;
	}
	cache_avc.active_nodes = 0;
	cache_avc.lru_hint = 0;
	memset(&cache_avc.stats, 0, sizeof(cache_avc.stats));
}

void cache_free_nodes(void)
{
	cache_flush();
	while (cache_avc.freelist) {
		struct cache_node *n = cache_avc.freelist;

		cache_avc.freelist = n->next;
		cache_free(n);
	}
	cache_avc.allocated_nodes = 0;
}

void cache_chain_stats(unsigned *used, unsigned *longest)
{
	*used = *longest = 0;
	for (unsigned i = 0; i < CACHE_SLOTS; i++) {
		unsigned len = 0;

		for (struct cache_node *n = cache_avc.slots[i]; n; n = n->next)
			len++;
		if (len)
			(*used)++;
		if (len > *longest)
			*longest = len;
	}
}
