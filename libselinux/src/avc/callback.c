/* avc/callback.c: avc_add_callback and the reset notification. */
#include "internal.h"

/*
 * The list only grows (new callbacks go to its head) and is freed by
 * avc_destroy() alone, so a walk may start from the head read under the
 * AVC lock and continue without it: callbacks then run unlocked and may
 * call back into the AVC.
 */
_public_ int avc_add_callback(
    int (*callback)(uint32_t event, security_id_t ssid, security_id_t tsid,
		    security_class_t tclass, access_vector_t perms,
		    access_vector_t *out_retained),
    uint32_t events, security_id_t ssid, security_id_t tsid,
    security_class_t tclass, access_vector_t perms)
{
	struct cache_event_cb *c = cache_malloc(sizeof(*c));

	if (!c)
		return RET_ERRNO(-ENOMEM);
	c->fn = callback;
	c->events = events;
	c->ssid = ssid;
	c->tsid = tsid;
	c->tclass = tclass;
	c->perms = perms;
	cache_lock();
	c->next = cache_avc.callbacks;
	cache_avc.callbacks = c;
	cache_unlock();
	return 0;
}

/*
 * Every RESET callback runs, even after one fails; the result is the
 * first failure's return value, its errno in *err (the established
 * library returns the callback's own value, not -1).
 */
int cache_notify_reset_rc(int *err)
{
	struct cache_event_cb *c;
	int rc = 0;

	*err = 0;
	cache_lock();
	c = cache_avc.callbacks;
	cache_unlock();
	for (; c; c = c->next) {
		int r;

		if (!(c->events & AVC_CALLBACK_RESET) || !c->fn)
			continue;
		errno = 0;
		r = c->fn(AVC_CALLBACK_RESET, NULL, NULL, 0, 0, NULL);
		if (r && !rc) {
			rc = r;
			*err = errno;
		}
	}
	return rc;
}

void cache_free_callbacks(void)
{
	while (cache_avc.callbacks) {
		struct cache_event_cb *c = cache_avc.callbacks;

		cache_avc.callbacks = c->next;
		cache_free(c);
	}
}
