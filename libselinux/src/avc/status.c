/* avc/status.c: selinux_status_*, the kernel's status page. */
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#include "hit.h"

struct status_snap {
	uint32_t sequence, enforcing, policyload, deny_unknown;
};

/*
 * All written under status_lock (cache_status_page and cache_status_seen
 * are read without it by the hit path, internal.h).  cache_status_page:
 * the mapping (NULL when closed); fallback: netlink mode
 * (selinux_status_open(1) without a page), where fb_* stand in for the
 * page and change on each notification.  cache_status_seen starts as
 * UINT64_MAX, which no 32-bit sequence equals (so the hit path never
 * takes the page as quiet before it was seen), and the first
 * selinux_status_updated() only records where we are.
 */
static pthread_mutex_t status_lock = PTHREAD_MUTEX_INITIALIZER;
const struct status_page *cache_status_page;
static bool fallback;
uint64_t cache_status_seen = UINT64_MAX;
static uint32_t last_policyload;
static uint32_t fb_sequence, fb_policyload;
static int fb_enforcing;

static uint32_t read_sequence(const struct status_page *p)
{
	uint32_t s;

	while ((s = __atomic_load_n(&p->sequence, __ATOMIC_ACQUIRE)) & 1)
		sched_yield();
	return s;
}

static void snapshot(const struct status_page *p, struct status_snap *s)
{
	uint32_t seq;

	do {
		seq = read_sequence(p);
		s->enforcing = __atomic_load_n(&p->enforcing, __ATOMIC_RELAXED);
		s->policyload =
		    __atomic_load_n(&p->policyload, __ATOMIC_RELAXED);
		s->deny_unknown =
		    __atomic_load_n(&p->deny_unknown, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (seq != __atomic_load_n(&p->sequence, __ATOMIC_RELAXED));
	s->sequence = seq;
}

bool cache_status_mapped(void)
{
	bool r;

	pthread_mutex_lock(&status_lock);
	r = cache_status_page != NULL;
	pthread_mutex_unlock(&status_lock);
	return r;
}

void cache_status_fallback_event(int type, uint32_t value)
{
	pthread_mutex_lock(&status_lock);
	if (fallback) {
		if (type == SELINUX_CB_SETENFORCE)
			fb_enforcing = value ? 1 : 0;
		else
			fb_policyload = value;
		fb_sequence += 2;
	}
	pthread_mutex_unlock(&status_lock);
}

static int map_page(void)
{
	_cleanup_close_ int fd = -1;
	struct status_snap s;
	void *p;

	fd = core_fs_open("status", O_RDONLY);
	if (fd < 0)
		return fd;
	p = mmap(NULL, (size_t)core_page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* The mapping outlives the descriptor. */
	__atomic_store_n(&cache_status_page, p, __ATOMIC_RELEASE);
	snapshot(cache_status_page, &s);
	__atomic_store_n(&cache_status_seen, UINT64_MAX, __ATOMIC_RELAXED);
	last_policyload = s.policyload;
	return 0;
}

static int status_open(int use_fallback)
{
	int r, enforcing;

	pthread_mutex_lock(&status_lock);
	if (cache_status_page || fallback) {
		r = fallback ? 1 : 0;
		pthread_mutex_unlock(&status_lock);
		return r;
	}
	r = selinux_mnt ? map_page() : -ENOENT;
	pthread_mutex_unlock(&status_lock);
	/* ENOTCONN: a FUSE selinuxfs whose server died.  Netlink cannot
	 * stand in for a security server that is gone. */
	if (r == 0 || !use_fallback || !selinux_mnt || r == -ENOTCONN)
		return r;

	/* No page: the kernel's netlink notifications stand in for it. */
	if (avc_netlink_open(0) < 0)
		return -errno;
	enforcing = security_getenforce();
	pthread_mutex_lock(&status_lock);
	__atomic_store_n(&fallback, true, __ATOMIC_RELEASE);
	fb_sequence = 0;
	fb_policyload = 0;
	fb_enforcing = enforcing;
	__atomic_store_n(&cache_status_seen, UINT64_MAX, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&status_lock);
	/* As the established library, the socket is the status "fd": the
	 * AVC leaves it to selinux_status_updated() callers. */
	(void)avc_netlink_acquire_fd();
	return 1;
}

_public_ int selinux_status_open(int use_fallback)
{
	return RET_ERRNO(status_open(use_fallback));
}

_public_ void selinux_status_close(void)
{
	bool was_fallback;

	pthread_mutex_lock(&status_lock);
	was_fallback = fallback;
	if (cache_status_page)
		munmap((void *)cache_status_page, (size_t)core_page_size);
	__atomic_store_n(&cache_status_page, NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&fallback, false, __ATOMIC_RELEASE);
	__atomic_store_n(&cache_status_seen, UINT64_MAX, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&status_lock);
	if (was_fallback) {
		avc_netlink_release_fd();
		avc_netlink_close();
	}
}

static bool is_fallback(void)
{
	bool r;

	pthread_mutex_lock(&status_lock);
	r = fallback;
	pthread_mutex_unlock(&status_lock);
	return r;
}

/* Notifications arrive on the socket; handle the waiting ones. */
static int fallback_poll(void)
{
	return avc_netlink_check_nb() < 0 ? -errno : 0;
}

static int status_updated(void)
{
	bool do_enforce, do_load;
	struct status_snap s;
	int r;

	/*
	 * The fast path, taken by every avc_has_perm: a mapped page whose
	 * sequence has not moved needs no lock.  (Like the established
	 * library, this reads the page without guarding against a
	 * concurrent selinux_status_close(), which a caller must not do.)
	 */
	if (cache_status_quiet())
		return 0;

	if (is_fallback()) {
		r = fallback_poll();
		if (r < 0)
			return r;
		pthread_mutex_lock(&status_lock);
		if (cache_status_seen == UINT64_MAX)
			__atomic_store_n(&cache_status_seen, fb_sequence, __ATOMIC_RELAXED);
		r = cache_status_seen != fb_sequence;
		__atomic_store_n(&cache_status_seen, fb_sequence, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&status_lock);
		return r;
	}

	pthread_mutex_lock(&status_lock);
	if (!cache_status_page) {
		pthread_mutex_unlock(&status_lock);
		return -EINVAL;
	}
	snapshot(cache_status_page, &s);
	if (cache_status_seen == UINT64_MAX)
		__atomic_store_n(&cache_status_seen, s.sequence, __ATOMIC_RELAXED);
	if (cache_status_seen == s.sequence) {
		pthread_mutex_unlock(&status_lock);
		return 0;
	}
	/*
	 * The established library compares the page's mode with the AVC's,
	 * not with the page's previous value: with AVC_OPT_SETENFORCE at
	 * odds with the kernel, every change notifies a setenforce.
	 */
	do_enforce = (int)s.enforcing != cache_get_enforcing();
	do_load = s.policyload != last_policyload;
	last_policyload = s.policyload;
	__atomic_store_n(&cache_status_seen, s.sequence, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&status_lock);

	/* Callbacks run unlocked: they may call back into the library. */
	if (do_enforce && (r = cache_process_setenforce((int)s.enforcing)) < 0)
		return r;
	if (do_load && (r = cache_process_policyload(s.policyload)) < 0)
		return r;
	return 1;
}

_public_ int selinux_status_updated(void)
{
	return RET_ERRNO(status_updated());
}

enum field { F_ENFORCING, F_POLICYLOAD, F_DENY_UNKNOWN };

/* The field's value into *v; 0, or -errno. */
static int status_field(enum field f, uint32_t *v)
{
	struct status_snap s;
	int r;

	if (is_fallback()) {
		r = fallback_poll();
		if (r < 0)
			return r;
		if (f == F_DENY_UNKNOWN) {
			r = security_deny_unknown();
			if (r < 0)
				return -errno;
			*v = (uint32_t)r;
			return 0;
		}
		pthread_mutex_lock(&status_lock);
		*v = f == F_ENFORCING ? (uint32_t)fb_enforcing
				      : (uint32_t)fb_policyload;
		pthread_mutex_unlock(&status_lock);
		return 0;
	}
	pthread_mutex_lock(&status_lock);
	if (!cache_status_page) {
		pthread_mutex_unlock(&status_lock);
		return -EINVAL;
	}
	snapshot(cache_status_page, &s);
	pthread_mutex_unlock(&status_lock);
	switch (f) {
	case F_ENFORCING:
		*v = s.enforcing ? 1 : 0;
		break;
	case F_POLICYLOAD:
		*v = s.policyload;
		break;
	default:
		*v = s.deny_unknown ? 1 : 0;
		break;
	}
	return 0;
}

_public_ int selinux_status_getenforce(void)
{
	uint32_t v = 0;
	int r = status_field(F_ENFORCING, &v);

	return r < 0 ? RET_ERRNO(r) : (int)v;
}

/* The kernel's count is 32 bits unsigned; past 2^31 - 1 loads it comes
 * out negative, as the reference's int does (and is not an error). */
_public_ int selinux_status_policyload(void)
{
	uint32_t v = 0;
	int r = status_field(F_POLICYLOAD, &v);

	return r < 0 ? RET_ERRNO(r) : (int)v;
}

_public_ int selinux_status_deny_unknown(void)
{
	uint32_t v = 0;
	int r = status_field(F_DENY_UNKNOWN, &v);

	return r < 0 ? RET_ERRNO(r) : (int)v;
}
