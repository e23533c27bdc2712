/* avc/sidtab.c: the SID table, one security_id per context string. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * A chained hash of CACHE_SIDTAB_SLOTS buckets keyed by the context
 * string (FNV-1a).  Entries are never removed before avc_destroy(): a SID
 * is a pointer the caller keeps, and the established library stopped
 * reference counting them, so "unused" cannot be known.  All of this runs
 * with the AVC lock held.
 *
 * Each new SID gets the next number, 1, 2, 3 ..., in security_id.id (the
 * member 3.4 calls refcnt, there always 1): upstream 3.8 and later number
 * them so, and programs may key their own tables by it.  0 marks a SID
 * that avc_destroy() invalidated.
 */
static unsigned sid_hash(const char *ctx)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)ctx; *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	return h & (CACHE_SIDTAB_SLOTS - 1);
}

int cache_sid_lookup(const char *ctx, security_id_t *sid)
{
	unsigned h = sid_hash(ctx);
	struct cache_sid *e;
	size_t len;

	for (e = cache_avc.sids[h]; e; e = e->next) {
		if (strcmp(e->sid.ctx, ctx) == 0) {
			*sid = &e->sid;
			return 0;
		}
	}
	/* The id must stay unique and non-zero. */
	if (cache_avc.nsids >= UINT_MAX - 1)
		return -ENOMEM;
	len = strlen(ctx) + 1;
	e = cache_malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->sid.ctx = cache_malloc(len);
	if (!e->sid.ctx) {
		cache_free(e);
		return -ENOMEM;
	}
	memcpy(e->sid.ctx, ctx, len);
	e->sid.id = ++cache_avc.nsids;
	e->next = cache_avc.sids[h];
	cache_avc.sids[h] = e;
	*sid = &e->sid;
	return 0;
}

void cache_sid_destroy(void)
{
	for (unsigned i = 0; i < CACHE_SIDTAB_SLOTS; i++) {
		struct cache_sid *e = cache_avc.sids[i];

		while (e) {
			struct cache_sid *next = e->next;

			/* A SID kept by the caller reads as invalid now
			 * (should the memory callbacks not unmap it). */
			e->sid.id = 0;
			cache_free(e->sid.ctx);
			cache_free(e);
			e = next;
		}
		cache_avc.sids[i] = NULL;
	}
	cache_avc.nsids = 0;
}

void cache_sid_stats(char *buf, size_t size)
{
	unsigned used = 0, longest = 0;

	for (unsigned i = 0; i < CACHE_SIDTAB_SLOTS; i++) {
		unsigned len = 0;

		for (struct cache_sid *e = cache_avc.sids[i]; e; e = e->next)
			len++;
		if (len)
			used++;
		if (len > longest)
			longest = len;
	}
	snprintf(buf, size,
		 "%s:  %u SID entries and %u/%d buckets used, longest chain "
		 "length %u\n",
		 cache_avc.prefix, cache_avc.nsids, used, CACHE_SIDTAB_SLOTS,
		 longest);
}
