/* avc/hit.h: the AVC's hit path, inline in avc_has_perm_noaudit. */
#ifndef SELINUX_AVC_HIT_H
#define SELINUX_AVC_HIT_H

#include <string.h>

#include "internal.h"

/*
 * A cached decision is the common case of every object manager's check,
 * so its path is written out here, in pieces the compiler inlines:
 * cache_hit_first() into avc_has_perm_noaudit (has_perm.c), the caller's
 * reference or the first entry of the bucket, with no call, no stack
 * frame, no lock and no store to memory another thread writes (about 95
 * instructions a call with the bench's loop, against Debian's 162: the
 * hit runs at several instructions a cycle, so their number is its
 * cost); cache_hit(), the whole chain, in the out-of-line path that
 * everything else takes first.  Both read the locked path's answer
 * under the cache's sequence count (internal.h), and give up - the
 * caller then takes the locked path - on anything else: a writer at
 * work, a miss, a status page that moved, an AVC not running.
 */

/*
 * The page selinuxfs "status" maps (struct selinux_kernel_status of the
 * kernel, version 1).  The kernel makes sequence odd, writes the fields,
 * and makes it even again: a reader retries while it is odd or changed
 * under it.  Only the kernel writes the page, so the mapping is read-only.
 */
struct status_page {
	uint32_t version;
	uint32_t sequence;
	uint32_t enforcing;
	uint32_t policyload;
	uint32_t deny_unknown;
};

/* status.c: the mapping (NULL when closed or in netlink fallback) and the
 * page's sequence as selinux_status_updated() last saw it (UINT64_MAX:
 * never; a sequence seen is even, as the page's is when no write is
 * under way). */
extern const struct status_page *cache_status_page;
extern uint64_t cache_status_seen;

/* True when the mapped page shows nothing new since the last
 * selinux_status_updated() (the common case, which needs no call).  The
 * page and the fallback are never both in use: no page, no quiet. */
static inline __attribute__((always_inline)) bool
cache_status_quiet(void)
{
	const struct status_page *fp =
	    __atomic_load_n(&cache_status_page, __ATOMIC_ACQUIRE);
	uint32_t seq;

	if (__builtin_expect(!fp, 0))
		return false;
	seq = __atomic_load_n(&fp->sequence, __ATOMIC_ACQUIRE);
	/* Equal to a sequence seen, so even: no write under way. */
	return seq == __atomic_load_n(&cache_status_seen, __ATOMIC_RELAXED);
}

/* One multiply: the slot is the top bits of the product, which every
 * bit of the key reaches (SIDs are heap pointers: their low bits are
 * alike, their middle bits differ). */
static inline unsigned cache_slot_of(security_id_t ssid, security_id_t tsid,
				     security_class_t tclass)
{
	uint64_t k = (uintptr_t)ssid ^ ((uint64_t)(uintptr_t)tsid << 17) ^
		     ((uint64_t)tclass << 3);

	return (unsigned)((k * 0x9e3779b97f4a7c15ull) >> 55) &
	       (CACHE_SLOTS - 1);
}

#define HIT_LD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* The halves of avc_entry's first decision word (internal.h). */
static inline access_vector_t avw_allowed(uint64_t w0)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (access_vector_t)w0;
#else
	return (access_vector_t)(w0 >> 32);
#endif
}

static inline access_vector_t avw_decided(uint64_t w0)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (access_vector_t)(w0 >> 32);
#else
	return (access_vector_t)w0;
#endif
}

/*
 * No lock: the entry for the triple whose decided vector covers
 * requested - ae (the caller's reference) if it is that entry, else the
 * cache's - with its decision copied into *avd and the hit counted as
 * the locked path counts; NULL when the locked path must decide (and
 * count: also when this thread has not counted before).  ssid
 * and tsid are not NULL.
 */
static inline __attribute__((always_inline)) struct avc_entry *
cache_hit(security_id_t ssid, security_id_t tsid, security_class_t tclass,
	  access_vector_t requested, struct avc_entry *ae,
	  struct av_decision *avd)
{
	uint32_t seq = __atomic_load_n(&cache_avc.seq, __ATOMIC_ACQUIRE);
	struct avc_entry *found = ae;
	uint64_t w[3];
	unsigned k = 0;

	if (__builtin_expect(seq & 1, 0))
		return NULL;
	if (!ae || HIT_LD(ae->ssid) != ssid || HIT_LD(ae->tsid) != tsid ||
	    HIT_LD(ae->tclass) != tclass) {
		struct cache_node *n =
		    HIT_LD(cache_avc.slots[cache_slot_of(ssid, tsid, tclass)]);

		/* A chain changing under us may be followed anywhere, even
		 * round a loop: walk no further than the cache can hold. */
		for (k = 1;; n = HIT_LD(n->next), k++) {
			if (!n || k > CACHE_MAXNODES)
				return NULL;
			if (HIT_LD(n->ae.ssid) == ssid &&
			    HIT_LD(n->ae.tsid) == tsid &&
			    HIT_LD(n->ae.tclass) == tclass)
				break;
		}
		found = &n->ae;
	}
	w[0] = HIT_LD(found->avw[0]);
	w[1] = HIT_LD(found->avw[1]);
	w[2] = HIT_LD(found->avw[2]);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (HIT_LD(cache_avc.seq) != seq)
		return NULL;
	/* allowed and decided are the first word's two halves. */
	if ((avw_decided(w[0]) & requested) != requested ||
	    !cache_count_hit(k == 0, ae && k != 0, k))
		return NULL;
	/* One word at a time, from registers (a copy through memory of
	 * the whole would stall on store forwarding). */
	memcpy((char *)avd, &w[0], sizeof(w[0]));
	memcpy((char *)avd + 8, &w[1], sizeof(w[1]));
	memcpy((char *)avd + 16, &w[2], sizeof(w[2]));
	/* The second-chance mark: written only when clear, so a hot entry's
	 * line stays shared between the cores that read it. */
	if (!HIT_LD(found->used))
		__atomic_store_n(&found->used, 1, __ATOMIC_RELAXED);
	return found;
}

/*
 * The hit as avc_has_perm_noaudit makes it inline: the caller's
 * reference if it is the triple's entry, else the first entry of the
 * triple's bucket (nearly always the one: the cache holds 410 entries in
 * 512 buckets); anything else - a miss, a longer chain, a writer at work,
 * a thread that has not counted yet - is NULL, and cache_hit() above
 * (through the out-of-line path) does the rest.  The decision goes to
 * *avd even when NULL is returned (the caller then overwrites it);
 * *allowed gets its allowed vector.  Written for few live values, so
 * that the caller needs no stack frame.
 */
static inline __attribute__((always_inline)) struct avc_entry *
cache_hit_first(security_id_t ssid, security_id_t tsid,
		security_class_t tclass, access_vector_t requested,
		struct avc_entry_ref *aeref, struct av_decision *avd,
		access_vector_t *allowed)
{
	uint32_t seq = __atomic_load_n(&cache_avc.seq, __ATOMIC_ACQUIRE);
	struct avc_entry *found = aeref ? HIT_LD(aeref->ae) : NULL;
	struct cache_stat_block *b;
	uint64_t w;

	if (__builtin_expect(seq & 1, 0))
		return NULL;
	if (!found || HIT_LD(found->ssid) != ssid ||
	    HIT_LD(found->tsid) != tsid || HIT_LD(found->tclass) != tclass) {
		/* A reference to another triple: the long way, which counts
		 * the discard. */
		if (found)
			return NULL;
		found = (struct avc_entry *)HIT_LD(
		    cache_avc.slots[cache_slot_of(ssid, tsid, tclass)]);
		if (!found || HIT_LD(found->ssid) != ssid ||
		    HIT_LD(found->tsid) != tsid ||
		    HIT_LD(found->tclass) != tclass)
			return NULL;
	}
	w = HIT_LD(found->avw[0]);
	memcpy((char *)avd, &w, sizeof(w));
	*allowed = avw_allowed(w);
	if ((avw_decided(w) & requested) != requested)
		return NULL;
	w = HIT_LD(found->avw[1]);
	memcpy((char *)avd + 8, &w, sizeof(w));
	w = HIT_LD(found->avw[2]);
	memcpy((char *)avd + 16, &w, sizeof(w));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	b = cache_stat_mine;
	if (HIT_LD(cache_avc.seq) != seq || __builtin_expect(!b, 0))
		return NULL;
	/* Found through the reference: there is one, and it was not NULL
	 * (a reference to another triple went the long way).  Read again
	 * rather than kept in a register: the caller's memory, not shared. */
	if (aeref && aeref->ae)
		CACHE_INC(&b->n.st.entry_hits, 1u);
	else
		CACHE_INC(&b->n.fast_hits, 1u);
	if (!HIT_LD(found->used))
		__atomic_store_n(&found->used, 1, __ATOMIC_RELAXED);
	return found;
}

#undef HIT_LD

#endif
