/* avc/reset.c: avc_reset, and the resets of the kernel's notifications. */
#include "internal.h"

static int reset(int *err)
{
	*err = 0;
	if (!__atomic_load_n(&cache_avc.running, __ATOMIC_ACQUIRE))
		return 0;
	cache_lock();
	cache_flush();
	cache_unlock();
	return cache_notify_reset_rc(err);
}

int cache_reset(void)
{
	int err, r = reset(&err);

	return r ? -(err ? err : EINVAL) : 0;
}

/*
 * latest_notif first, then the flush: a decision computed before the
 * change but entered after the flush would otherwise stay cached after
 * the callbacks returned (the established library updates it last).
 */
int cache_ss_reset(uint32_t seqno)
{
	cache_lock();
	if (seqno > cache_avc.latest_notif)
		cache_avc.latest_notif = seqno;
	cache_unlock();
	return cache_reset();
}

/*
 * errno is 0 after a success, as the established library leaves it; a
 * failing callback's value is returned as it returned it.
 */
_public_ int avc_reset(void)
{
	int err, r = reset(&err);

	errno = err;
	return r;
}
