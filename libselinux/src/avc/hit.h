/* avc/hit.h: the AVC's hit path, inline in avc_has_perm_noaudit. */
#ifndef SELINUX_AVC_HIT_H
#define SELINUX_AVC_HIT_H

#include "internal.h"

/*
 * A cached decision is the common case of every object manager's check,
 * so its path is written out here, in one piece the compiler inlines into
 * avc_has_perm_noaudit (has_perm.c): no call, no stack frame, no lock, no
 * store to memory another thread writes.  It is the locked path's answer
 * read under the cache's sequence count (internal.h), and gives up - the
 * caller then takes the locked path - on anything else: a writer at work,
 * a miss, a status page that moved.
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
 * page's sequence as selinux_status_updated() last saw it (odd: never). */
extern const struct status_page *cache_status_page;
extern uint32_t cache_status_seen;

/* True when the mapped page shows nothing new since the last
 * selinux_status_updated() (the common case, which needs no call).  The
 * page and the fallback are never both in use: no page, no quiet. */
static inline __attribute__((always_inline)) bool
cache_status_quiet(void)
{
	const struct status_page *fp =
	    __atomic_load_n(&cache_status_page, __ATOMIC_ACQUIRE);
	uint32_t seq;

	if (!fp)
		return false;
	seq = __atomic_load_n(&fp->sequence, __ATOMIC_ACQUIRE);
	return !(seq & 1) &&
	       seq == __atomic_load_n(&cache_status_seen, __ATOMIC_RELAXED);
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

/*
 * No lock: the entry for the triple whose decided vector covers
 * requested - ae (the caller's reference) if it is that entry, else the
 * cache's - with its decision copied into *avd and the hit counted as
 * the locked path counts; NULL when the locked path must decide.  ssid
 * and tsid are not NULL.
 */
static inline __attribute__((always_inline)) struct avc_entry *
cache_hit(security_id_t ssid, security_id_t tsid, security_class_t tclass,
	  access_vector_t requested, struct avc_entry *ae,
	  struct av_decision *avd)
{
	uint32_t seq = __atomic_load_n(&cache_avc.seq, __ATOMIC_ACQUIRE);
	struct avc_entry *found = NULL;
	unsigned k = 0;

	if (__builtin_expect(seq & 1, 0))
		return NULL;
	if (ae && HIT_LD(ae->ssid) == ssid && HIT_LD(ae->tsid) == tsid &&
	    HIT_LD(ae->tclass) == tclass &&
	    (HIT_LD(ae->avd.decided) & requested) == requested)
		found = ae;
	if (!found) {
		struct cache_node *n =
		    HIT_LD(cache_avc.slots[cache_slot_of(ssid, tsid, tclass)]);

		k = 1;
		/* A chain changing under us may be followed anywhere, even
		 * round a loop: walk no further than the cache can hold. */
		for (; n && k <= CACHE_MAXNODES; n = HIT_LD(n->next), k++)
			if (HIT_LD(n->ae.ssid) == ssid &&
			    HIT_LD(n->ae.tsid) == tsid &&
			    HIT_LD(n->ae.tclass) == tclass)
				break;
		if (!n || k > CACHE_MAXNODES ||
		    (HIT_LD(n->ae.avd.decided) & requested) != requested)
			return NULL;
		found = &n->ae;
	}
	avd->allowed = HIT_LD(found->avd.allowed);
	avd->decided = HIT_LD(found->avd.decided);
	avd->auditallow = HIT_LD(found->avd.auditallow);
	avd->auditdeny = HIT_LD(found->avd.auditdeny);
	avd->seqno = HIT_LD(found->avd.seqno);
	avd->flags = HIT_LD(found->avd.flags);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (HIT_LD(cache_avc.seq) != seq)
		return NULL;
	/* The second-chance mark: written only when clear, so a hot entry's
	 * line stays shared between the cores that read it. */
	if (!HIT_LD(found->used))
		__atomic_store_n(&found->used, 1, __ATOMIC_RELAXED);
	cache_count_hit(k == 0, ae && k != 0, k);
	return found;
}

#undef HIT_LD

#endif
