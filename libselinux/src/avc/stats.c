/* avc/stats.c: avc_cache_stats, avc_av_stats, avc_sid_stats. */
#include <string.h>

#include "internal.h"

_public_ void avc_cache_stats(struct avc_cache_stats *stats)
{
	if (!stats)
		return;
	cache_lock();
	*stats = cache_avc.stats;
	cache_unlock();
}

_public_ void avc_av_stats(void)
{
	unsigned used, longest, active;

	cache_lock();
	cache_chain_stats(&used, &longest);
	active = cache_avc.active_nodes;
	cache_unlock();
	cache_log(SELINUX_INFO,
		  "%s:  %u AV entries and %u/%d buckets used, longest chain "
		  "length %u\n",
		  cache_avc.prefix, active, used, CACHE_SLOTS, longest);
}

_public_ void avc_sid_stats(void)
{
	char buf[256];

	cache_lock();
	cache_sid_stats(buf, sizeof(buf));
	cache_unlock();
	cache_log(SELINUX_INFO, "%s", buf);
}
