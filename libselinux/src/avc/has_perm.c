/* avc/has_perm.c: avc_has_perm(_noaudit), avc_compute_create/member. */
#include <string.h>

#include "hit.h"

/* What a decision reads as before anything is known: all denied, all
 * audited (so that a failed request is logged as a denial). */
static void avd_init(struct av_decision *avd)
{
	avd->allowed = 0;
	avd->decided = 0;
	avd->auditallow = 0;
	avd->auditdeny = 0xffffffff;
	avd->seqno = cache_avc.latest_notif;
	avd->flags = 0;
}

/*
 * The decision for the triple, from the caller's reference, the cache or
 * the security server, in aeref (AVC lock held on entry and on return;
 * released while the server is asked, which may take a while).  1 when
 * the server refused the request with EINVAL in permissive mode: then
 * the established library answers "granted" without a decision.
 */
static int lookup_or_compute(security_id_t ssid, security_id_t tsid,
			     security_class_t tclass, access_vector_t requested,
			     struct avc_entry_ref *aeref)
{
	struct avc_entry *ae = aeref->ae;
	struct cache_counts c = {.entry_lookups = 1};
	struct av_decision fresh;
	int r;

	if (ae) {
		if (ae->ssid == ssid && ae->tsid == tsid &&
		    ae->tclass == tclass &&
		    (ae->avd.decided & requested) == requested) {
			c.entry_hits = 1;
			cache_count(&c);
			if (!__atomic_load_n(&ae->used, __ATOMIC_RELAXED))
				__atomic_store_n(&ae->used, 1, __ATOMIC_RELAXED);
			return 0;
		}
		c.entry_discards = 1;
	}
	c.entry_misses = 1;
	cache_count(&c);
	if (cache_lookup(ssid, tsid, tclass, requested, aeref) == 0)
		return 0;

	cache_unlock();
	r = security_compute_av_flags_raw(ssid->ctx, tsid->ctx, tclass,
					  requested, &fresh);
	if (r < 0)
		r = -errno;
	cache_lock();
	if (r == -EINVAL && !cache_get_enforcing())
		return 1;
	if (r < 0)
		return r;
	return cache_insert(ssid, tsid, tclass, &fresh, aeref);
}

/*
 * hit: the entry avc_has_perm_noaudit's hit path found and counted (its
 * decision in *avd), which did not grant; NULL when it found none.
 */
static int has_perm_noaudit(security_id_t ssid, security_id_t tsid,
			    security_class_t tclass, access_vector_t requested,
			    struct avc_entry_ref *aeref,
			    struct av_decision *avd, struct avc_entry *hit)
{
	struct avc_entry_ref ref = {NULL};
	struct av_decision local;
	access_vector_t denied;
	struct avc_entry *ae;
	int r;

	if (!avd)
		avd = &local;
	if (!aeref)
		aeref = &ref;
	if (hit) {
		aeref->ae = hit;
		goto denied;
	}
	/* The status page is how a policy load or setenforce reaches us,
	 * unless a netlink thread or the caller's main loop handles them. */
	if (!cache_avc.using_threads &&
	    !__atomic_load_n(&cache_avc.app_main_loop, __ATOMIC_ACQUIRE) &&
	    !cache_status_quiet())
		(void)selinux_status_updated();

	/* A hit: no lock.  Granted, or denied in enforcing mode for an
	 * enforcing domain; permissive mode changes the entry, and takes the
	 * lock below. */
	if (__atomic_load_n(&cache_avc.running, __ATOMIC_ACQUIRE) && ssid &&
	    tsid && requested &&
	    (ae = cache_hit(ssid, tsid, tclass, requested, aeref->ae, avd))) {
		aeref->ae = ae;
denied:
		denied = requested & ~avd->allowed;
		if (!denied)
			return 0;
		if (cache_get_enforcing() &&
		    !(avd->flags & SELINUX_AVD_FLAGS_PERMISSIVE))
			return -EACCES;
	}

	cache_lock();
	avd_init(avd);
	if (!__atomic_load_n(&cache_avc.running, __ATOMIC_ACQUIRE) || !ssid || !tsid) {
		cache_unlock();
		return -EINVAL;
	}
	r = lookup_or_compute(ssid, tsid, tclass, requested, aeref);
	if (r != 0) {
		cache_unlock();
		return r;
	}
	ae = aeref->ae;
	*avd = ae->avd;
	denied = requested & ~ae->avd.allowed;
	/*
	 * Permissive (the AVC's mode or the domain's flag): grant, and add
	 * the permissions to the entry, so the caller's avd shows this one
	 * denial (avc_has_perm logs it) and later requests pass silently.
	 */
	if (!requested || denied) {
		if (!cache_get_enforcing() ||
		    (ae->avd.flags & SELINUX_AVD_FLAGS_PERMISSIVE))
			cache_grant(ae, requested);
		else
			r = -EACCES;
	}
	cache_unlock();
	return r;
}

/* has_perm_noaudit with the public function's return convention. */
static int has_perm_ret(security_id_t ssid, security_id_t tsid,
			security_class_t tclass, access_vector_t requested,
			struct avc_entry_ref *aeref, struct av_decision *avd,
			struct avc_entry *hit)
{
	int r = has_perm_noaudit(ssid, tsid, tclass, requested, aeref, avd,
				 hit);

	if (r == 1) {
		errno = 0;
		return 0;
	}
	return RET_ERRNO(r);
}

/*
 * The two ways out of the hit path, apart so that it stays a leaf: six
 * arguments (all in registers), so that the compiler makes the miss a
 * jump, and the hit path needs no stack frame.
 */
__attribute__((noinline, cold)) static int
has_perm_miss(security_id_t ssid, security_id_t tsid, security_class_t tclass,
	      access_vector_t requested, struct avc_entry_ref *aeref,
	      struct av_decision *avd)
{
	return has_perm_ret(ssid, tsid, tclass, requested, aeref, avd, NULL);
}

/* A denial found by the hit path (with the entry, counted once). */
__attribute__((noinline, cold)) static int
has_perm_denied(security_id_t ssid, security_id_t tsid,
		security_class_t tclass, access_vector_t requested,
		struct avc_entry_ref *aeref, struct av_decision *avd,
		struct avc_entry *hit)
{
	return has_perm_ret(ssid, tsid, tclass, requested, aeref, avd, hit);
}

/*
 * The hit path first, whole (hit.h): a mapped status page that has not
 * moved (or events handled elsewhere), a cached decision that grants.
 * Everything else goes to has_perm_noaudit(): a denial found here (with
 * the entry, counted once), or a miss, a status change, no avd (which
 * it tries the hit for again after the status).
 */
_public_ int avc_has_perm_noaudit(security_id_t ssid, security_id_t tsid,
				  security_class_t tclass,
				  access_vector_t requested,
				  struct avc_entry_ref *aeref,
				  struct av_decision *avd)
{
	access_vector_t allowed;
	struct avc_entry *ae;

	/* NULL SIDs need no test here: no entry has one but a cleared
	 * entry, whose decided vector is empty (so it cannot cover a
	 * non-empty request); nor does the AVC's state: the cache's
	 * sequence count is odd while it is not running. */
	if (__builtin_expect(!avd || !requested || !cache_status_quiet(), 0))
		return has_perm_miss(ssid, tsid, tclass, requested, aeref,
				     avd);
	ae = cache_hit_first(ssid, tsid, tclass, requested, aeref, avd,
			     &allowed);
	if (__builtin_expect(!ae, 0))
		return has_perm_miss(ssid, tsid, tclass, requested, aeref,
				     avd);
	if (__builtin_expect(requested & ~allowed, 0))
		return has_perm_denied(ssid, tsid, tclass, requested, aeref,
				       avd, ae);
	if (aeref)
		aeref->ae = ae;
	return 0;
}

_public_ int avc_has_perm(security_id_t ssid, security_id_t tsid,
			  security_class_t tclass, access_vector_t requested,
			  struct avc_entry_ref *aeref, void *auditdata)
{
	struct av_decision avd;
	int r, saved;

	r = avc_has_perm_noaudit(ssid, tsid, tclass, requested, aeref, &avd);
	saved = errno;
	avc_audit(ssid, tsid, tclass, requested, &avd, r, auditdata);
	errno = saved;
	return r;
}

static int compute_create(security_id_t ssid, security_id_t tsid,
			  security_class_t tclass, security_id_t *newsid)
{
	struct avc_entry_ref ref = {NULL};
	_cleanup_free_ char *con = NULL;
	struct av_decision avd;
	security_id_t sid;
	int r;

	if (!__atomic_load_n(&cache_avc.running, __ATOMIC_ACQUIRE) || !ssid || !tsid)
		return -EINVAL;
	/* The answer is kept in the triple's cache entry; make one. */
	cache_lock();
	if (cache_lookup(ssid, tsid, tclass, 0, &ref) < 0) {
		cache_unlock();
		if (security_compute_av_flags_raw(ssid->ctx, tsid->ctx, tclass,
						  0, &avd) < 0)
			return -errno;
		cache_lock();
		r = cache_insert(ssid, tsid, tclass, &avd, &ref);
		if (r < 0) {
			cache_unlock();
			return r;
		}
	}
	if (ref.ae->create_sid) {
		*newsid = ref.ae->create_sid;
		cache_unlock();
		return 0;
	}
	cache_unlock();

	if (security_compute_create_raw(ssid->ctx, tsid->ctx, tclass, &con) < 0)
		return -errno;
	cache_lock();
	r = cache_sid_lookup(con, &sid);
	/* The entry may have been reclaimed or flushed meanwhile. */
	if (r == 0 && ref.ae->ssid == ssid && ref.ae->tsid == tsid &&
	    ref.ae->tclass == tclass)
		ref.ae->create_sid = sid;
	cache_unlock();
	if (r < 0)
		return r;
	*newsid = sid;
	return 0;
}

_public_ int avc_compute_create(security_id_t ssid, security_id_t tsid,
				security_class_t tclass, security_id_t *newsid)
{
	*newsid = NULL;
	return RET_ERRNO(compute_create(ssid, tsid, tclass, newsid));
}

static int compute_member(security_id_t ssid, security_id_t tsid,
			  security_class_t tclass, security_id_t *newsid)
{
	_cleanup_free_ char *con = NULL;
	int r;

	if (!__atomic_load_n(&cache_avc.running, __ATOMIC_ACQUIRE) || !ssid || !tsid)
		return -EINVAL;
	if (security_compute_member_raw(ssid->ctx, tsid->ctx, tclass, &con) < 0)
		return -errno;
	cache_lock();
	r = cache_sid_lookup(con, newsid);
	cache_unlock();
	return r;
}

_public_ int avc_compute_member(security_id_t ssid, security_id_t tsid,
				security_class_t tclass, security_id_t *newsid)
{
	*newsid = NULL;
	return RET_ERRNO(compute_member(ssid, tsid, tclass, newsid));
}
