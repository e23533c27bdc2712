/* avc/stats.c: avc_cache_stats, avc_av_stats, avc_sid_stats, and the
 * counters behind them. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * The counters are per thread, so that a cache hit writes no memory
 * another thread reads or writes: each thread counts in a block of its
 * own (only it writes there, with relaxed atomic stores), registered in a
 * list that avc_cache_stats() sums under stat_lock.  A thread's block is
 * folded into "retired" when the thread exits.
 *
 * Zeroing (avc_reset, avc_init) cannot write other threads' blocks
 * without racing their increments: it bumps epoch instead.  A block
 * counts only while its epoch is the current one; its owner, seeing a new
 * epoch at its next count, starts the block again from zero.
 *
 * If a block cannot be allocated the thread counts in "spare", shared,
 * with atomic additions.
 */
struct stat_block {
	struct avc_cache_stats st;
	uint32_t epoch;
	struct stat_block *next, *prev;
};

static pthread_mutex_t stat_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stat_block *blocks;
static struct avc_cache_stats retired;
static struct stat_block spare;
static uint32_t epoch = 1;
static pthread_key_t stat_key;
static pthread_once_t stat_once = PTHREAD_ONCE_INIT;
static bool have_key;
static __thread struct stat_block *mine;

#define NFIELDS (sizeof(struct avc_cache_stats) / sizeof(unsigned))

static unsigned *field(struct avc_cache_stats *st, size_t i)
{
	return (unsigned *)st + i;
}

/* Thread exit: the block's counts go to retired. */
static void retire(void *p)
{
	struct stat_block *b = p;

	pthread_mutex_lock(&stat_lock);
	if (b->epoch == epoch)
		for (size_t i = 0; i < NFIELDS; i++)
			*field(&retired, i) += *field(&b->st, i);
	if (b->prev)
		b->prev->next = b->next;
	else
		blocks = b->next;
	if (b->next)
		b->next->prev = b->prev;
	pthread_mutex_unlock(&stat_lock);
	free(b);
}

static void make_key(void)
{
	have_key = pthread_key_create(&stat_key, retire) == 0;
}

/* A library unloaded (dlclose) must not leave its destructor to threads
 * that outlive it. */
__attribute__((destructor)) static void forget_key(void)
{
	if (have_key)
		pthread_key_delete(stat_key);
	have_key = false;
}

/* The calling thread's block, made (or restarted at a new epoch) here. */
static __attribute__((noinline)) struct stat_block *block_slow(void)
{
	struct stat_block *b = mine;

	if (!b) {
		pthread_once(&stat_once, make_key);
		b = calloc(1, sizeof(*b));
		if (!b || !have_key || pthread_setspecific(stat_key, b)) {
			free(b);
			return &spare;
		}
		pthread_mutex_lock(&stat_lock);
		b->epoch = epoch;
		b->next = blocks;
		if (blocks)
			blocks->prev = b;
		blocks = b;
		pthread_mutex_unlock(&stat_lock);
		mine = b;
	}
	if (__atomic_load_n(&b->epoch, __ATOMIC_RELAXED) !=
	    __atomic_load_n(&epoch, __ATOMIC_RELAXED)) {
		for (size_t i = 0; i < NFIELDS; i++)
			__atomic_store_n(field(&b->st, i), 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->epoch, __atomic_load_n(&epoch, __ATOMIC_RELAXED),
				 __ATOMIC_RELEASE);
	}
	return b;
}

static inline struct stat_block *block(void)
{
	struct stat_block *b = mine;

	if (__builtin_expect(b && __atomic_load_n(&b->epoch, __ATOMIC_RELAXED) ==
				      __atomic_load_n(&epoch, __ATOMIC_RELAXED),
			     1))
		return b;
	return block_slow();
}

#define BUMP(b, f, n)                                                      \
	do {                                                               \
		if (n) {                                                   \
			if ((b) == &spare)                                 \
				__atomic_add_fetch(&(b)->st.f, (n),        \
						   __ATOMIC_RELAXED);      \
			else                                               \
				__atomic_store_n(                          \
				    &(b)->st.f,                            \
				    __atomic_load_n(&(b)->st.f,            \
						    __ATOMIC_RELAXED) +    \
					(n),                               \
				    __ATOMIC_RELAXED);                     \
		}                                                          \
	} while (0)

/*
 * entry_lookups and cav_lookups are not counted: every lookup is a hit or
 * a miss, so avc_cache_stats() adds them up (two stores fewer a hit).
 */
void cache_count(const struct cache_counts *c)
{
	struct stat_block *b = block();

	BUMP(b, entry_hits, c->entry_hits);
	BUMP(b, entry_misses, c->entry_misses);
	BUMP(b, entry_discards, c->entry_discards);
	BUMP(b, cav_hits, c->cav_hits);
	BUMP(b, cav_probes, c->cav_probes);
	BUMP(b, cav_misses, c->cav_misses);
}

void cache_count_hit(bool via_ref, bool discarded, unsigned probes)
{
	struct stat_block *b = block();

	if (via_ref) {
		BUMP(b, entry_hits, 1u);
		return;
	}
	BUMP(b, entry_discards, discarded ? 1u : 0u);
	BUMP(b, entry_misses, 1u);
	BUMP(b, cav_hits, 1u);
	BUMP(b, cav_probes, probes);
}

void cache_stats_zero(void)
{
	pthread_mutex_lock(&stat_lock);
	memset(&retired, 0, sizeof(retired));
	for (size_t i = 0; i < NFIELDS; i++)
		__atomic_store_n(field(&spare.st, i), 0, __ATOMIC_RELAXED);
	__atomic_store_n(&epoch, epoch + 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&stat_lock);
}

_public_ void avc_cache_stats(struct avc_cache_stats *stats)
{
	uint32_t e;

	if (!stats)
		return;
	pthread_mutex_lock(&stat_lock);
	e = epoch;
	*stats = retired;
	for (size_t i = 0; i < NFIELDS; i++)
		*field(stats, i) +=
		    __atomic_load_n(field(&spare.st, i), __ATOMIC_RELAXED);
	for (struct stat_block *b = blocks; b; b = b->next) {
		if (__atomic_load_n(&b->epoch, __ATOMIC_ACQUIRE) != e)
			continue;
		for (size_t i = 0; i < NFIELDS; i++)
			*field(stats, i) +=
			    __atomic_load_n(field(&b->st, i), __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&stat_lock);
	stats->entry_lookups = stats->entry_hits + stats->entry_misses;
	stats->cav_lookups = stats->cav_hits + stats->cav_misses;
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
