/* avc/: the userspace AVC, its SID table, the status page and netlink. */
#ifndef SELINUX_AVC_INTERNAL_H
#define SELINUX_AVC_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <selinux/avc.h>
#include <selinux/selinux.h>

#include "../compute/internal.h"

/*
 * Helpers return >= 0 or -errno and leave errno alone, as in the lower
 * layers.  The prefix of this layer is cache_.
 *
 * The AVC is one per process (the ABI has no handle), so its state is one
 * structure, cache_avc, defined in avc.c.  Which lock guards what:
 *
 *   cache_life     (a static mutex) serialises avc_init/avc_open/
 *                  avc_destroy, and guards running and the callbacks
 *                  chosen at init (mem, log, lock, thread, prefix).
 *   the AVC lock   (cache_lock()/cache_unlock(): the caller's lock
 *                  callbacks if avc_init got them, else a mutex of ours)
 *                  guards the SID table, the cache's writers,
 *                  latest_notif, the event callback list and enforcing.
 *   seq            a sequence count (seqlock) for the cache's readers: a
 *                  cache hit takes no lock and writes no shared memory.
 *                  Every change of the buckets, chains or entries is made
 *                  under the AVC lock between cache_write_begin() (seq
 *                  becomes odd) and cache_write_end() (even again), with
 *                  atomic stores; the hit path (hit.h) reads seq, finds
 *                  and copies the entry with atomic loads, and keeps the
 *                  copy only if seq was even and has not moved - else the
 *                  caller takes the locked path.  Nodes live until
 *                  avc_destroy(), so a reader never follows a freed one.
 *   statistics     per thread (stats.c), summed by avc_cache_stats().
 *
 * The init-time fields are written only by avc_init and avc_destroy, which
 * the caller must not run concurrently with other AVC calls (as with any
 * destructor); readers then use them without cache_life.
 */

/* The established library's sizes; avc_av_stats()/avc_sid_stats() print
 * the slot counts. */
#define CACHE_SLOTS 512
#define CACHE_MAXNODES 410
#define CACHE_RECLAIM 16
#define CACHE_SIDTAB_SLOTS 128
#define CACHE_PREFIX_SIZE 16

struct avc_entry {
	security_id_t ssid;
	security_id_t tsid;
	/*
	 * The decision, also seen as three 64-bit words (8-aligned here):
	 * written and read word by word with relaxed atomics, so that the
	 * hit path copies it in three loads and three stores.
	 */
	union {
		struct av_decision avd;
		uint64_t avw[3];
	};
	security_class_t tclass;
	/* Set on use, cleared by the reclaim scan (second chance). */
	int used;
	/* avc_compute_create's answer for this triple, or NULL. */
	security_id_t create_sid;
};
_Static_assert(sizeof(struct av_decision) == 3 * sizeof(uint64_t),
	       "struct av_decision is three 64-bit words");

/* A cache node; ae first, so an avc_entry_ref points at the node. */
struct cache_node {
	struct avc_entry ae;
	struct cache_node *next;
};

struct cache_sid {
	struct security_id sid;
	struct cache_sid *next;
};

struct cache_event_cb {
	int (*fn)(uint32_t event, security_id_t ssid, security_id_t tsid,
		  security_class_t tclass, access_vector_t perms,
		  access_vector_t *out_retained);
	uint32_t events;
	security_id_t ssid, tsid;
	security_class_t tclass;
	access_vector_t perms;
	struct cache_event_cb *next;
};

struct cache_state {
	/* guarded by cache_life */
	bool running;
	char prefix[CACHE_PREFIX_SIZE];
	struct avc_memory_callback mem;
	struct avc_log_callback log;
	struct avc_thread_callback thread;
	struct avc_lock_callback lockcb;
	void *lock;	      /* the caller's lock, from func_alloc_lock */
	void *netlink_thread; /* from func_create_thread */
	bool using_threads;

	/* guarded by the AVC lock */
	struct cache_node *slots[CACHE_SLOTS];
	struct cache_node *freelist;
	unsigned active_nodes;
	unsigned allocated_nodes;
	unsigned lru_hint;
	uint32_t latest_notif;
	uint32_t seq; /* see above; odd while the AVC is not running */
	struct cache_sid *sids[CACHE_SIDTAB_SLOTS];
	unsigned nsids;
	struct cache_event_cb *callbacks;

	/* atomics: read without the lock by the status code (and running
	 * by the hit path) */
	int enforcing;	       /* the AVC's mode; 1 before avc_open */
	bool setenforce_fixed; /* AVC_OPT_SETENFORCE given */
	bool app_main_loop;    /* avc_netlink_acquire_fd() in force */
	/* Bumped when the AVC starts and before it is destroyed: the SIDs of
	 * an older generation are gone (check_memo.c keys on it). */
	uint32_t generation;
};

extern struct cache_state cache_avc;
extern pthread_mutex_t cache_life;

/* avc.c */
void cache_lock(void);
void cache_unlock(void);
void *cache_malloc(size_t size);
void cache_free(void *p);
/*
 * Log through avc_init's func_log if there is one, else core_log(type).
 * The message is formatted once; errno is preserved.
 */
void cache_log(int type, const char *fmt, ...) _printf_(2, 3);
int cache_get_enforcing(void);

/* sidtab.c (AVC lock held) */
int cache_sid_lookup(const char *ctx, security_id_t *sid);
void cache_sid_destroy(void);
/* Fill buf with avc_sid_stats()'s message. */
void cache_sid_stats(char *buf, size_t size);

/* stats.c: count into the calling thread's counters (no lock). */
struct cache_counts {
	unsigned entry_lookups, entry_hits, entry_misses, entry_discards;
	unsigned cav_lookups, cav_hits, cav_probes, cav_misses;
};
void cache_count(const struct cache_counts *c);
/*
 * Each thread's counters (stats.c), here so that a hit counts inline.
 * Only the owner writes n (relaxed atomic stores); base, what n was at
 * the last avc_reset, is guarded by stats.c's lock.
 */
struct cache_counters {
	struct avc_cache_stats st;
	unsigned fast_hits;   /* lock-free hits in the cache, not via ref */
	unsigned fast_probes; /* their probes beyond the first */
};
struct cache_stat_block {
	struct cache_counters n;
	struct cache_counters base;
	struct cache_stat_block *next, *prev;
};
/*
 * Initial-exec TLS: the hit path reaches it at a fixed offset from the
 * thread pointer, with no call.  A library with such TLS needs its whole
 * TLS block in the static TLS surplus when it is dlopen()ed (Python's
 * "import selinux"); the block is kept small for that (about 128 bytes:
 * no large __thread arrays in the library, see core/paths.c).
 */
#define CACHE_TLS_IE __attribute__((tls_model("initial-exec")))
extern __thread struct cache_stat_block *cache_stat_mine CACHE_TLS_IE;
#define CACHE_INC(p, v)                                                    \
	__atomic_store_n((p), __atomic_load_n((p), __ATOMIC_RELAXED) + (v), \
			 __ATOMIC_RELAXED)

/*
 * Count a lock-free hit: through the entry reference, or in the cache
 * after probes steps (discarded: a reference was given and did not
 * match).  False, counting nothing, when the thread has no block yet:
 * the caller then takes the locked path, whose count makes the block.
 * No call, so that the hit path stays a leaf function.
 */
static inline __attribute__((always_inline)) bool
cache_count_hit(bool via_ref, bool discarded, unsigned probes)
{
	struct cache_stat_block *b = cache_stat_mine;

	if (__builtin_expect(!b, 0))
		return false;
	if (via_ref) {
		CACHE_INC(&b->n.st.entry_hits, 1u);
		return true;
	}
	if (discarded)
		CACHE_INC(&b->n.st.entry_discards, 1u);
	CACHE_INC(&b->n.fast_hits, 1u);
	if (probes > 1)
		CACHE_INC(&b->n.fast_probes, probes - 1);
	return true;
}
/* Zero every thread's counters (as avc_reset does). */
void cache_stats_zero(void);

/* cache.c (AVC lock held unless noted) */
void cache_write_begin(void);
void cache_write_end(void);
/* Add perms to the entry's allowed vector (permissive mode). */
void cache_grant(struct avc_entry *ae, access_vector_t perms);
/*
 * The entry for the triple whose decided vector covers requested, into
 * aeref; -ENOENT on a miss.  Counts cav_* statistics.
 */
int cache_lookup(security_id_t ssid, security_id_t tsid,
		 security_class_t tclass, access_vector_t requested,
		 struct avc_entry_ref *aeref);
/*
 * Enter a decision for the triple (replacing an entry of the triple) and
 * point aeref at it.  -EAGAIN when avd's seqno predates the latest policy
 * load notified; -ENOMEM.
 */
int cache_insert(security_id_t ssid, security_id_t tsid,
		 security_class_t tclass, const struct av_decision *avd,
		 struct avc_entry_ref *aeref);
/* Move every node to the free list and zero the statistics. */
void cache_flush(void);
/* Free every node (avc_destroy). */
void cache_free_nodes(void);
/* The numbers of avc_av_stats(). */
void cache_chain_stats(unsigned *used, unsigned *longest);

/* callback.c */
/*
 * Call the AVC_CALLBACK_RESET callbacks (no lock held): 0, or the first
 * failing callback's return value with its errno in *err.
 */
int cache_notify_reset_rc(int *err);
void cache_free_callbacks(void);

/* reset.c */
/* avc_reset's work, returning 0 or -errno (the first callback's). */
int cache_reset(void);
/* The same, then latest_notif = max(latest_notif, seqno). */
int cache_ss_reset(uint32_t seqno);

/* events.c: what a notification (status page or netlink) does. */
int cache_process_setenforce(int enforcing);
int cache_process_policyload(uint32_t seqno);

/* status.c */
/* netlink.c tells the fallback status of each notification. */
void cache_status_fallback_event(int type, uint32_t value);
/* Whether the status page (not the fallback) is open. */
bool cache_status_mapped(void);

/* check_memo.c: selinux_check_access's per-thread memo of the names it
 * was given and the SIDs and numbers they stand for. */
struct cache_names {
	const char *s[4]; /* scon, tcon, class, permission */
	size_t len[4];
	uint64_t hash;
};
/* Fill k from the four strings (none NULL). */
void cache_names_key(struct cache_names *k, const char *scon,
		     const char *tcon, const char *tclass, const char *perm);
/* The generations an answer computed from now on belongs to. */
uint64_t cache_names_generation(void);
/* true, with the numbers, when k is remembered for the current
 * generation; no lock, no allocation. */
bool cache_names_find(const struct cache_names *k, security_id_t *ssid,
		      security_id_t *tsid, security_class_t *cls,
		      access_vector_t *av);
/* The same, when these very buffers were asked last (no hash); none
 * NULL. */
bool cache_names_find_fast(const char *scon, const char *tcon,
			   const char *tclass, const char *perm,
			   security_id_t *ssid, security_id_t *tsid,
			   security_class_t *cls, access_vector_t *av);
/* Remember k's numbers, found in generation gen (best effort). */
void cache_names_remember(const struct cache_names *k, uint64_t gen,
			  security_id_t ssid, security_id_t tsid,
			  security_class_t cls, access_vector_t av);

/* netlink.c */
/* The socket's fd, or -1. */
int cache_netlink_fd(void);

/* audit_ext.c: the USER_AVC extension (selinux/avc_audit.h). */
/*
 * Send avc_audit()'s message as a USER_AVC record: true when sent; false
 * when the extension is off or audit refused it (the caller logs it
 * then).  No lock taken when off; errno left alone.
 */
bool cache_audit_send(const char *msg);
/* Close the audit socket (selinux_avc_audit_close, avc_destroy). */
void cache_audit_close(void);
/* Test hooks: send with fn instead of libaudit's
 * audit_log_user_avc_message (NULL: load libaudit again), or load name
 * instead of libaudit.so.1. */
void cache_audit_set_sender(int (*fn)(int fd, int type, const char *message,
				      const char *hostname, const char *addr,
				      const char *tty, uid_t uid));
void cache_audit_set_library(const char *name);

#endif
