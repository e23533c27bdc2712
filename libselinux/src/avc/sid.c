/* avc/sid.c: contexts to SIDs and back, initial SIDs, sidget/sidput. */
#include <string.h>

#include "internal.h"

static int context_to_sid_raw(const char *ctx, security_id_t *sid)
{
	int r;

	if (!ctx || !sid)
		return -EINVAL;
	/* The established library asserts that the AVC is open. */
	if (!__atomic_load_n(&cache_avc.running, __ATOMIC_ACQUIRE))
		return -EINVAL;
	cache_lock();
	r = cache_sid_lookup(ctx, sid);
	cache_unlock();
	return r;
}

_public_ int avc_context_to_sid_raw(const char *ctx, security_id_t *sid)
{
	return RET_ERRNO(context_to_sid_raw(ctx, sid));
}

_public_ int avc_context_to_sid(const char *ctx, security_id_t *sid)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (sid)
		*sid = NULL;
	if (!ctx)
		return RET_ERRNO(-EINVAL);
	r = core_trans_to_raw(ctx, &raw);
	if (r < 0)
		return RET_ERRNO(r);
	return RET_ERRNO(context_to_sid_raw(raw, sid));
}

static int sid_to_context_raw(security_id_t sid, char **ctx)
{
	int r = 0;

	if (!sid || !ctx)
		return -EINVAL;
	*ctx = NULL;
	cache_lock();
	if (sid->id > 0) {
		*ctx = strdup(sid->ctx);
		if (!*ctx)
			r = -ENOMEM;
	} else {
		r = -EINVAL;
	}
	cache_unlock();
	return r;
}

_public_ int avc_sid_to_context_raw(security_id_t sid, char **ctx)
{
	return RET_ERRNO(sid_to_context_raw(sid, ctx));
}

_public_ int avc_sid_to_context(security_id_t sid, char **ctx)
{
	_cleanup_free_ char *raw = NULL;
	int r = sid_to_context_raw(sid, &raw);

	if (r < 0)
		return RET_ERRNO(r);
	return RET_ERRNO(core_raw_to_trans(raw, ctx));
}

_public_ int avc_get_initial_sid(const char *name, security_id_t *sid)
{
	_cleanup_free_ char *con = NULL;

	if (security_get_initial_context_raw(name, &con) < 0)
		return -1;
	return RET_ERRNO(context_to_sid_raw(con, sid));
}

/* SIDs are not reference counted any more: these only keep the ABI. */
_public_ int sidget(security_id_t sid _unused_)
{
	return 1;
}

_public_ int sidput(security_id_t sid _unused_)
{
	return 1;
}
