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
 * Zeroing (avc_reset, avc_init) cannot write other threads' counters
 * without racing their increments: it copies each block's counters into
 * the block's base instead (under stat_lock, which guards every base),
 * and a block counts what it gained since.  The hit path then reads no
 * shared word to know whether it may count.
 *
 * If a block cannot be allocated the thread counts in "spare", shared,
 * with atomic additions.
 *
 * A hit found without a lock counts inline (cache_count_hit() in
 * internal.h): one store to fast_hits, folded into entry_misses, cav_hits
 * and cav_probes when read; lookups are hits + misses, added up then too.
 */
static pthread_mutex_t stat_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cache_stat_block *blocks;
static struct cache_counters retired;
static struct cache_stat_block spare;
static pthread_key_t stat_key;
static pthread_once_t stat_once = PTHREAD_ONCE_INIT;
static bool have_key;
__thread struct cache_stat_block *cache_stat_mine CACHE_TLS_IE;

#define NFIELDS (sizeof(struct cache_counters) / sizeof(unsigned))

static unsigned *field(struct cache_counters *st, size_t i)
{
	return (unsigned *)st + i;
}

/* Thread exit: the block's counts go to retired. */
static void retire(void *p)
{
	struct cache_stat_block *b = p;

	pthread_mutex_lock(&stat_lock);
	for (size_t i = 0; i < NFIELDS; i++)
		*field(&retired, i) += __atomic_load_n(field(&b->n, i),
						       __ATOMIC_RELAXED) -
				       *field(&b->base, i);
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

/* The calling thread's block, made here (spare when it cannot be). */
static struct cache_stat_block *block_slow(void)
{
	struct cache_stat_block *b;

	pthread_once(&stat_once, make_key);
	b = calloc(1, sizeof(*b));
	if (!b || !have_key || pthread_setspecific(stat_key, b)) {
		free(b);
		return &spare;
	}
	pthread_mutex_lock(&stat_lock);
	b->next = blocks;
	if (blocks)
		blocks->prev = b;
	blocks = b;
	pthread_mutex_unlock(&stat_lock);
	cache_stat_mine = b;
	return b;
}

static inline struct cache_stat_block *block(void)
{
	struct cache_stat_block *b = cache_stat_mine;

	return __builtin_expect(b != NULL, 1) ? b : block_slow();
}

#define BUMP(b, f, v)                                                          \
	do {                                                                   \
		if (v) {                                                       \
			if ((b) == &spare)                                     \
				__atomic_add_fetch(&(b)->n.st.f, (v),          \
						   __ATOMIC_RELAXED);          \
			else                                                   \
				__atomic_store_n(                              \
				    &(b)->n.st.f,                              \
				    __atomic_load_n(&(b)->n.st.f,              \
						    __ATOMIC_RELAXED) +        \
					(v),                                   \
				    __ATOMIC_RELAXED);                         \
		}                                                              \
	} while (0)

/*
 * entry_lookups and cav_lookups are not counted: every lookup is a hit or
 * a miss, so avc_cache_stats() adds them up (two stores fewer a hit).
 */
void cache_count(const struct cache_counts *c)
{
	struct cache_stat_block *b = block();

	BUMP(b, entry_hits, c->entry_hits);
	BUMP(b, entry_misses, c->entry_misses);
	BUMP(b, entry_discards, c->entry_discards);
	BUMP(b, cav_hits, c->cav_hits);
	BUMP(b, cav_probes, c->cav_probes);
	BUMP(b, cav_misses, c->cav_misses);
}

/* Every counter's current value becomes its base: counted from zero. */
static void rebase(struct cache_stat_block *b)
{
	for (size_t i = 0; i < NFIELDS; i++)
		*field(&b->base, i) =
		    __atomic_load_n(field(&b->n, i), __ATOMIC_RELAXED);
}

/* What b counted since its base, added to sum (stat_lock held). */
static void add_since(struct cache_counters *sum,
		      const struct cache_stat_block *b)
{
	for (size_t i = 0; i < NFIELDS; i++)
		*field(sum, i) +=
		    __atomic_load_n(field((struct cache_counters *)&b->n, i),
				    __ATOMIC_RELAXED) -
		    *field((struct cache_counters *)&b->base, i);
}

void cache_stats_zero(void)
{
	pthread_mutex_lock(&stat_lock);
	memset(&retired, 0, sizeof(retired));
	rebase(&spare);
	for (struct cache_stat_block *b = blocks; b; b = b->next)
		rebase(b);
	pthread_mutex_unlock(&stat_lock);
}

_public_ void avc_cache_stats(struct avc_cache_stats *stats)
{
	struct cache_counters sum;

	if (!stats)
		return;
	pthread_mutex_lock(&stat_lock);
	sum = retired;
	add_since(&sum, &spare);
	for (struct cache_stat_block *b = blocks; b; b = b->next)
		add_since(&sum, b);
	pthread_mutex_unlock(&stat_lock);
	/* a lock-free hit in the cache: an entry miss, a cache hit */
	sum.st.entry_misses += sum.fast_hits;
	sum.st.cav_hits += sum.fast_hits;
	sum.st.cav_probes += sum.fast_hits + sum.fast_probes;
	sum.st.entry_lookups = sum.st.entry_hits + sum.st.entry_misses;
	sum.st.cav_lookups = sum.st.cav_hits + sum.st.cav_misses;
	*stats = sum.st;
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
