/* compute/mapping.c: selinux_set_mapping and the translation it sets up. */
#include <pthread.h>
#include <string.h>

#include "internal.h"

#define NBITS (sizeof(access_vector_t) * 8)

/* One class of the caller's mapping: its kernel value and, for each of
 * the caller's bits, the kernel's bit (0 when the policy lacks it). */
struct mapped_class {
	security_class_t value;
	unsigned int nperms;
	access_vector_t perms[NBITS];
};

/*
 * The installed mapping: classes[1..nclasses-1] are the caller's classes
 * 1, 2, ...; classes[0] stands for class 0 and maps to nothing.  nclasses
 * is 0 when no mapping is installed (every translation is the identity).
 * Guarded by map_lock: written by selinux_set_mapping, read on every
 * decision.  hook is the AVC's reset, written and read under it too.
 */
static pthread_rwlock_t map_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct mapped_class *classes;
static size_t nclasses;
static int (*hook)(void);

void comp_set_mapping_hook(int (*fn)(void))
{
	pthread_rwlock_wrlock(&map_lock);
	hook = fn;
	pthread_rwlock_unlock(&map_lock);
}

bool comp_mapping_active(void)
{
	bool r;

	pthread_rwlock_rdlock(&map_lock);
	r = nclasses != 0;
	pthread_rwlock_unlock(&map_lock);
	return r;
}

/*
 * Resolve one caller's class against the policy.  An unknown class or
 * permission is 0 in the table; with reject_unknown it fails the whole
 * mapping.  An empty permission name keeps its bit, mapped to nothing.
 */
static int resolve(const struct security_class_mapping *in,
		   struct mapped_class *out, bool reject, bool *unknown)
{
	int v = comp_class_value(in->name);

	if (v < 0) {
		core_log(SELINUX_INFO,
			 "SELinux: Class %s not defined in policy.\n",
			 in->name);
		if (reject)
			return -EINVAL;
		*unknown = true;
		return 0;
	}
	out->value = (security_class_t)v;
	for (size_t k = 0; k < NBITS && in->perms[k]; k++) {
		access_vector_t bit = 0;

		out->nperms = (unsigned int)k + 1;
		if (!*in->perms[k])
			continue;
		if (comp_perm_value(out->value, in->perms[k], &bit) < 0) {
			core_log(SELINUX_INFO,
				 "SELinux:  Permission %s in class %s not "
				 "defined in policy.\n",
				 in->perms[k], in->name);
			if (reject)
				return -EINVAL;
			*unknown = true;
		}
		out->perms[k] = bit;
	}
	return 0;
}

/*
 * Like the established library, the old mapping is dropped first (a
 * failed call leaves none installed), the class lookups run unmapped,
 * and whether unknowns are allowed or denied is reported once.
 */
static int set_mapping(const struct security_class_mapping *map)
{
	_cleanup_free_ struct mapped_class *table = NULL;
	bool reject, deny, unknown = false;
	int (*reset)(void);
	size_t n = 0;
	int r;

	pthread_rwlock_wrlock(&map_lock);
	free(classes);
	classes = NULL;
	nclasses = 0;
	reset = hook;
	comp_names_changed();
	pthread_rwlock_unlock(&map_lock);
	if (reset && reset() < 0)
		return errno ? -errno : -EINVAL;
	if (!map)
		return -EINVAL;
	while (map[n].name)
		n++;
	table = calloc(n + 1, sizeof(*table));
	if (!table)
		return -ENOMEM;
	reject = comp_reject_unknown() == 1;
	deny = comp_deny_unknown() == 1;
	for (size_t i = 0; i < n; i++) {
		r = resolve(&map[i], &table[i + 1], reject, &unknown);
		if (r < 0)
			return r;
	}
	if (unknown)
		core_log(SELINUX_INFO,
			 "SELinux: the above unknown classes and permissions "
			 "will be %s\n",
			 deny ? "denied" : "allowed");
	pthread_rwlock_wrlock(&map_lock);
	free(classes);
	classes = TAKE_PTR(table);
	nclasses = n + 1;
	comp_names_changed();
	pthread_rwlock_unlock(&map_lock);
	return 0;
}

_public_ int selinux_set_mapping(const struct security_class_mapping *map)
{
	return RET_ERRNO(set_mapping(map));
}

security_class_t comp_unmap_class(security_class_t tclass, bool *unknown)
{
	security_class_t k = tclass;

	pthread_rwlock_rdlock(&map_lock);
	if (nclasses) {
		if (tclass < nclasses) {
			k = classes[tclass].value;
		} else {
			k = 0;
			if (unknown)
				*unknown = true;
		}
	}
	pthread_rwlock_unlock(&map_lock);
	return k;
}

/* Caller's bits beyond the class's list have no kernel counterpart. */
access_vector_t comp_unmap_perm(security_class_t tclass, access_vector_t tperm)
{
	access_vector_t k = tperm;

	pthread_rwlock_rdlock(&map_lock);
	if (tclass < nclasses) {
		const struct mapped_class *m = &classes[tclass];

		k = 0;
		for (unsigned int i = 0; i < m->nperms; i++)
			if (tperm & ((access_vector_t)1 << i))
				k |= m->perms[i];
	}
	pthread_rwlock_unlock(&map_lock);
	return k;
}

/* The first of the caller's classes that is kclass (class 0 is slot 0). */
security_class_t comp_map_class(security_class_t kclass, bool *unknown)
{
	security_class_t t = kclass;

	pthread_rwlock_rdlock(&map_lock);
	if (nclasses) {
		size_t i = 0;

		while (i < nclasses && classes[i].value != kclass)
			i++;
		t = i < nclasses ? (security_class_t)i : 0;
		if (i == nclasses && unknown)
			*unknown = true;
	}
	pthread_rwlock_unlock(&map_lock);
	return t;
}

access_vector_t comp_map_perm(security_class_t tclass, access_vector_t kperm,
			      bool *unknown)
{
	access_vector_t t = kperm;

	pthread_rwlock_rdlock(&map_lock);
	if (tclass < nclasses) {
		const struct mapped_class *m = &classes[tclass];

		t = 0;
		for (unsigned int i = 0; i < m->nperms; i++)
			if (kperm & m->perms[i])
				t |= (access_vector_t)1 << i;
		if (!t && unknown)
			*unknown = true;
	}
	pthread_rwlock_unlock(&map_lock);
	return t;
}

/* One vector: the caller's bit i is set when its kernel bit is, or, for
 * a permission the policy lacks (kernel bit 0), when unknown says so. */
static access_vector_t map_vector(const struct mapped_class *m,
				  access_vector_t kv, bool unknown)
{
	access_vector_t t = 0;

	for (unsigned int i = 0; i < m->nperms; i++)
		if ((kv & m->perms[i]) || (!m->perms[i] && unknown))
			t |= (access_vector_t)1 << i;
	return t;
}

/*
 * The established library's rules, kept bit for bit: a permission the
 * policy lacks is allowed and decided when deny_unknown is 0, audited on
 * denial when it is not, never audited when allowed; and every bit past
 * the class's list is audited on denial, since asking for one is a bug
 * in the caller.  A class outside the mapping keeps the kernel's answer.
 */
void comp_map_decision(security_class_t tclass, struct av_decision *avd)
{
	bool allow_unknown;
	const struct mapped_class *m;
	access_vector_t extra;

	pthread_rwlock_rdlock(&map_lock);
	if (tclass >= nclasses) {
		pthread_rwlock_unlock(&map_lock);
		return;
	}
	pthread_rwlock_unlock(&map_lock);
	/* Read outside the lock: it is a file read. */
	allow_unknown = comp_deny_unknown() == 0;
	pthread_rwlock_rdlock(&map_lock);
	if (tclass < nclasses) {
		m = &classes[tclass];
		extra = m->nperms < NBITS
			    ? ~(((access_vector_t)1 << m->nperms) - 1)
			    : 0;
		avd->allowed = map_vector(m, avd->allowed, allow_unknown);
		avd->decided = map_vector(m, avd->decided, allow_unknown);
		avd->auditallow = map_vector(m, avd->auditallow, false);
		avd->auditdeny =
		    map_vector(m, avd->auditdeny, !allow_unknown) | extra;
	}
	pthread_rwlock_unlock(&map_lock);
}
