/* avc/avc.c: the AVC's state and life: avc_init, avc_open, avc_destroy. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * The one AVC of the process; see internal.h for which lock guards which
 * field.  enforcing starts at 1: the status page code compares the page
 * with it even before avc_open() (the established library's avc_enforcing
 * is initialised so, and a program calling only selinux_status_updated()
 * sees a setenforce notification when the page says permissive).
 */
struct cache_state cache_avc = {
    .prefix = "uavc",
    .enforcing = 1,
    .seq = 1, /* odd while the AVC is not running (internal.h) */
};

/* Serialises init and destroy (see internal.h). */
pthread_mutex_t cache_life = PTHREAD_MUTEX_INITIALIZER;

/* The AVC lock when the caller gave no lock callbacks. */
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;

void cache_lock(void)
{
	if (cache_avc.lockcb.func_get_lock)
		cache_avc.lockcb.func_get_lock(cache_avc.lock);
	else
		pthread_mutex_lock(&own_lock);
}

void cache_unlock(void)
{
	if (cache_avc.lockcb.func_release_lock)
		cache_avc.lockcb.func_release_lock(cache_avc.lock);
	else
		pthread_mutex_unlock(&own_lock);
}

void *cache_malloc(size_t size)
{
	if (cache_avc.mem.func_malloc)
		return cache_avc.mem.func_malloc(size);
	return malloc(size);
}

void cache_free(void *p)
{
	if (cache_avc.mem.func_free)
		cache_avc.mem.func_free(p);
	else
		free(p);
}

void cache_log(int type, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;
	int saved = errno;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cache_avc.log.func_log)
		cache_avc.log.func_log("%s", msg);
	else
		core_log(type, "%s", msg);
	errno = saved;
}

int cache_get_enforcing(void)
{
	return __atomic_load_n(&cache_avc.enforcing, __ATOMIC_ACQUIRE);
}

static void set_callbacks(const struct avc_memory_callback *mem,
			  const struct avc_log_callback *log,
			  const struct avc_thread_callback *thread,
			  const struct avc_lock_callback *lock)
{
	memset(&cache_avc.mem, 0, sizeof(cache_avc.mem));
	memset(&cache_avc.log, 0, sizeof(cache_avc.log));
	memset(&cache_avc.thread, 0, sizeof(cache_avc.thread));
	memset(&cache_avc.lockcb, 0, sizeof(cache_avc.lockcb));
	if (mem)
		cache_avc.mem = *mem;
	if (log)
		cache_avc.log = *log;
	if (thread)
		cache_avc.thread = *thread;
	/* A lock is usable only whole; half a set would lock unevenly. */
	if (lock && lock->func_get_lock && lock->func_release_lock)
		cache_avc.lockcb = *lock;
	cache_avc.using_threads = thread && thread->func_create_thread;
}

static void drop_lock(void)
{
	if (cache_avc.lock && cache_avc.lockcb.func_free_lock)
		cache_avc.lockcb.func_free_lock(cache_avc.lock);
	cache_avc.lock = NULL;
	memset(&cache_avc.lockcb, 0, sizeof(cache_avc.lockcb));
}

static int mapping_reset(void)
{
	return avc_reset() < 0 ? -1 : 0;
}

/* cache_life held. */
static int init_locked(const char *prefix)
{
	int r;

	if (prefix) {
		strncpy(cache_avc.prefix, prefix, CACHE_PREFIX_SIZE - 1);
		cache_avc.prefix[CACHE_PREFIX_SIZE - 1] = '\0';
	}
	if (cache_avc.lockcb.func_alloc_lock)
		cache_avc.lock = cache_avc.lockcb.func_alloc_lock();

	cache_lock();
	memset(cache_avc.slots, 0, sizeof(cache_avc.slots));
	memset(cache_avc.sids, 0, sizeof(cache_avc.sids));
	cache_avc.freelist = NULL;
	cache_avc.active_nodes = cache_avc.allocated_nodes = 0;
	cache_avc.nsids = 0;
	cache_avc.lru_hint = 0;
	cache_avc.latest_notif = 0;
	cache_avc.callbacks = NULL;
	cache_unlock();
	cache_stats_zero();

	if (!__atomic_load_n(&cache_avc.setenforce_fixed, __ATOMIC_ACQUIRE)) {
		r = security_getenforce();
		if (r < 0) {
			r = -errno;
			cache_log(SELINUX_ERROR,
				  "%s:  could not determine enforcing mode: "
				  "%s\n",
				  cache_avc.prefix, strerror(-r));
			return r;
		}
		__atomic_store_n(&cache_avc.enforcing, r, __ATOMIC_RELEASE);
	}

	/*
	 * The status page tells avc_has_perm of policy loads and enforcing
	 * changes.  Like the established library, no fallback here: without
	 * the page, avc_open fails.
	 */
	if (selinux_status_open(0) < 0) {
		r = -errno;
		cache_log(SELINUX_ERROR,
			  "%s: could not open selinux status page: %d (%s)\n",
			  cache_avc.prefix, -r, strerror(-r));
		return r;
	}

	if (cache_avc.using_threads) {
		if (avc_netlink_open(1) < 0) {
			r = -errno;
			cache_log(SELINUX_ERROR,
				  "%s:  can't open netlink socket: %d (%s)\n",
				  cache_avc.prefix, -r, strerror(-r));
			selinux_status_close();
			return r;
		}
		cache_avc.netlink_thread =
		    cache_avc.thread.func_create_thread(avc_netlink_loop);
	}
	comp_set_mapping_hook(mapping_reset);
	__atomic_add_fetch(&cache_avc.generation, 1, __ATOMIC_ACQ_REL);
	cache_lock();
	if (cache_avc.seq & 1)
		cache_write_end(); /* open to the hit path */
	cache_unlock();
	__atomic_store_n(&cache_avc.running, true, __ATOMIC_RELEASE);
	return 0;
}

static int init(const char *prefix, const struct avc_memory_callback *mem,
		const struct avc_log_callback *log,
		const struct avc_thread_callback *thread,
		const struct avc_lock_callback *lock)
{
	int r;

	pthread_mutex_lock(&cache_life);
	if (__atomic_load_n(&cache_avc.running, __ATOMIC_ACQUIRE)) {
		pthread_mutex_unlock(&cache_life);
		return 0;
	}
	set_callbacks(mem, log, thread, lock);
	r = init_locked(prefix);
	if (r < 0)
		drop_lock();
	pthread_mutex_unlock(&cache_life);
	return r;
}

_public_ int avc_init(const char *prefix,
		      const struct avc_memory_callback *mem_callbacks,
		      const struct avc_log_callback *log_callbacks,
		      const struct avc_thread_callback *thread_callbacks,
		      const struct avc_lock_callback *lock_callbacks)
{
	return RET_ERRNO(init(prefix, mem_callbacks, log_callbacks,
			      thread_callbacks, lock_callbacks));
}

/*
 * The options apply even to an AVC already open (the established library
 * sets them before it finds the AVC running), so a second avc_open()
 * can fix or free the enforcing mode.
 */
_public_ int avc_open(const struct selinux_opt *opts, unsigned nopts)
{
	bool fixed = false;
	int enforcing = 0;

	while (opts && nopts--) {
		if (opts[nopts].type == AVC_OPT_SETENFORCE) {
			fixed = true;
			enforcing = opts[nopts].value != NULL;
		}
	}
	__atomic_store_n(&cache_avc.setenforce_fixed, fixed, __ATOMIC_RELEASE);
	if (fixed)
		__atomic_store_n(&cache_avc.enforcing, enforcing,
				 __ATOMIC_RELEASE);
	return RET_ERRNO(init("avc", NULL, NULL, NULL, NULL));
}

_public_ void avc_destroy(void)
{
	/* The audit extension's socket goes with the AVC's other resources
	 * (selinux/avc_audit.h), even when it was opened before the AVC. */
	cache_audit_close();
	pthread_mutex_lock(&cache_life);
	if (!__atomic_load_n(&cache_avc.running, __ATOMIC_ACQUIRE)) {
		pthread_mutex_unlock(&cache_life);
		return;
	}
	comp_set_mapping_hook(NULL);
	__atomic_add_fetch(&cache_avc.generation, 1, __ATOMIC_ACQ_REL);
	if (cache_avc.netlink_thread && cache_avc.thread.func_stop_thread)
		cache_avc.thread.func_stop_thread(cache_avc.netlink_thread);
	cache_avc.netlink_thread = NULL;
	if (cache_avc.using_threads)
		avc_netlink_close();
	selinux_status_close();

	cache_lock();
	cache_free_nodes();
	/* Closed to the hit path: seq stays odd until the next init. */
	cache_write_begin();
	cache_sid_destroy();
	cache_free_callbacks();
	cache_unlock();

	drop_lock();
	__atomic_store_n(&cache_avc.running, false, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&cache_life);
}

/* SIDs are never freed before avc_destroy(), so there is nothing to do. */
_public_ void avc_cleanup(void)
{
}
