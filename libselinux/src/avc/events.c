/* avc/events.c: a setenforce or policy load notified by the kernel. */
#include "internal.h"

/*
 * Both the status page (status.c) and netlink (netlink.c) end here, with
 * the established library's messages (no newline: they are one-line
 * records like the kernel's audit messages), then the caller's
 * SELINUX_CB_SETENFORCE / SELINUX_CB_POLICYLOAD callback.  No lock held.
 */
static int notified(int r)
{
	return r < 0 ? -(errno ? errno : EINVAL) : 0;
}

static int reset_logged(uint32_t seqno)
{
	int r = cache_ss_reset(seqno);

	if (r < 0)
		cache_log(SELINUX_ERROR,
			  "%s:  cache reset returned %d (errno %d)\n",
			  cache_avc.prefix, -1, -r);
	return r;
}

int cache_process_setenforce(int enforcing)
{
	int r;

	cache_log(SELINUX_SETENFORCE,
		  "%s:  op=setenforce lsm=selinux enforcing=%d res=1",
		  cache_avc.prefix, enforcing);
	if (!__atomic_load_n(&cache_avc.setenforce_fixed, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&cache_avc.enforcing, enforcing,
				 __ATOMIC_RELEASE);
		/* Permissive mode added denied permissions to entries. */
		if (enforcing) {
			r = reset_logged(0);
			if (r < 0)
				return r;
		}
	}
	return notified(core_notify_setenforce(enforcing));
}

int cache_process_policyload(uint32_t seqno)
{
	int r;

	cache_log(SELINUX_POLICYLOAD,
		  "%s:  op=load_policy lsm=selinux seqno=%u res=1",
		  cache_avc.prefix, seqno);
	r = reset_logged(seqno);
	if (r < 0)
		return r;
	/* A new policy may number classes and permissions anew. */
	selinux_flush_class_cache();
	return notified(core_notify_policyload((int)seqno));
}
