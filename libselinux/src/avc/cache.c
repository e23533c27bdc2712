/* avc/cache.c: the decision cache, keyed by (source, target, class). */
#include <string.h>

#include "hit.h"

/*
 * A chained hash of CACHE_SLOTS buckets, at most CACHE_MAXNODES entries,
 * every function called with the AVC lock held but the hit path of hit.h.
 * Nodes are never freed before avc_destroy(): a caller's avc_entry_ref
 * may point at one, so a flushed or reclaimed node goes to the free list
 * with its SIDs cleared, and a stale reference then fails the (ssid,
 * tsid, tclass) check of avc_has_perm instead of reading freed memory.
 *
 * Hits take no lock (internal.h: the sequence count; hit.h): what a lock-free
 * reader reads - the buckets, the chain links, an entry's key, decision
 * and used mark - is written with relaxed atomic stores between
 * cache_write_begin() and cache_write_end(), and read with relaxed atomic
 * loads, so that a torn read is only ever a wrong value the sequence
 * check throws away, never undefined behaviour.
 */
#define LD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define ST(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

void cache_write_begin(void)
{
	ST(cache_avc.seq, LD(cache_avc.seq) + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

void cache_write_end(void)
{
	__atomic_store_n(&cache_avc.seq, LD(cache_avc.seq) + 1,
			 __ATOMIC_RELEASE);
}

/* The entry's decision becomes *s, word by word (internal.h). */
static void avd_store(struct avc_entry *ae, const struct av_decision *s)
{
	uint64_t w[3];

	memcpy(w, s, sizeof(w));
	for (int i = 0; i < 3; i++)
		ST(ae->avw[i], w[i]);
}

static struct cache_node *search(security_id_t ssid, security_id_t tsid,
				 security_class_t tclass, unsigned *probes)
{
	struct cache_node *n = cache_avc.slots[cache_slot_of(ssid, tsid, tclass)];
	unsigned k = 1;

	for (; n; n = n->next, k++) {
		if (n->ae.ssid == ssid && n->ae.tsid == tsid &&
		    n->ae.tclass == tclass) {
			*probes = k;
			if (!LD(n->ae.used))
				ST(n->ae.used, 1);
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
	struct cache_counts c = {.cav_lookups = 1};

	n = search(ssid, tsid, tclass, &probes);
	if (n && (n->ae.avd.decided & requested) == requested) {
		c.cav_hits = 1;
		c.cav_probes = probes;
		cache_count(&c);
		aeref->ae = &n->ae;
		return 0;
	}
	c.cav_misses = 1;
	cache_count(&c);
	return -ENOENT;
}

static void clear_entry(struct avc_entry *ae)
{
	static const struct av_decision none;

	ST(ae->ssid, NULL);
	ST(ae->tsid, NULL);
	ST(ae->tclass, 0);
	avd_store(ae, &none);
	ae->create_sid = NULL;
	ST(ae->used, 0);
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

			if (LD(n->ae.used)) {
				ST(n->ae.used, 0);
				pp = &n->next;
				continue;
			}
			ST(*pp, n->next);
			clear_entry(&n->ae);
			ST(n->next, cache_avc.freelist);
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
	ST(n->next, NULL);
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
	cache_write_begin();
	n = search(ssid, tsid, tclass, &probes);
	if (n) {
		avd_store(&n->ae, avd);
		aeref->ae = &n->ae;
		cache_write_end();
		return 0;
	}
	n = claim();
	if (!n) {
		cache_write_end();
		return -ENOMEM;
	}
	ST(n->ae.ssid, ssid);
	ST(n->ae.tsid, tsid);
	ST(n->ae.tclass, tclass);
	avd_store(&n->ae, avd);
	n->ae.create_sid = NULL;
	ST(n->ae.used, 1);
	s = cache_slot_of(ssid, tsid, tclass);
	ST(n->next, cache_avc.slots[s]);
	ST(cache_avc.slots[s], n);
	cache_avc.active_nodes++;
	aeref->ae = &n->ae;
	cache_write_end();
	return 0;
}

void cache_flush(void)
{
	cache_write_begin();
	for (unsigned i = 0; i < CACHE_SLOTS; i++) {
		struct cache_node *n = cache_avc.slots[i];

		while (n) {
			struct cache_node *next = n->next;

			clear_entry(&n->ae);
			ST(n->next, cache_avc.freelist);
			cache_avc.freelist = n;
			n = next;
		}
		ST(cache_avc.slots[i], NULL);
	}
	cache_avc.active_nodes = 0;
	cache_avc.lru_hint = 0;
	cache_write_end();
	cache_stats_zero();
}

void cache_grant(struct avc_entry *ae, access_vector_t perms)
{
	struct av_decision d = ae->avd;

	d.allowed |= perms;
	cache_write_begin();
	avd_store(ae, &d);
	cache_write_end();
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
