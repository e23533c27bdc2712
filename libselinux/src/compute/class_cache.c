/* compute/class_cache.c: the classes and permissions selinuxfs lists. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#define NBITS (sizeof(access_vector_t) * 8)

/* A class as selinuxfs describes it: class/NAME/index holds its value,
 * class/NAME/perms/PERM the value (bit + 1) of each permission. */
struct class_node {
	char *name;
	security_class_t value;
	char *perms[NBITS];
	struct class_node *next;
};

/*
 * Classes discovered so far, newest first.  Guarded by cache_lock.  The
 * names are handed out as "static storage" (security_class_to_string):
 * they stay valid until selinux_flush_class_cache(), as in the
 * established library.
 */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct class_node *cache;

/* comp_names_generation(): atomic, moved by comp_names_changed(). */
static uint32_t names_gen;

uint32_t comp_names_generation(void)
{
	return __atomic_load_n(&names_gen, __ATOMIC_ACQUIRE);
}

/* Held for reading while a handed-out name is used, for writing while
 * flushed nodes are freed. */
static pthread_rwlock_t names_life = PTHREAD_RWLOCK_INITIALIZER;

void comp_names_hold(void)
{
	pthread_rwlock_rdlock(&names_life);
}

void comp_names_release(void)
{
	pthread_rwlock_unlock(&names_life);
}

void comp_names_changed(void)
{
	__atomic_add_fetch(&names_gen, 1, __ATOMIC_ACQ_REL);
}

static void node_free(struct class_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < NBITS; i++)
		free(n->perms[i]);
	free(n->name);
	free(n);
}

static void node_freep(struct class_node **n)
{
	node_free(*n);
}

static void closedirp(DIR **d)
{
	if (*d) {
		int saved = errno;

		closedir(*d);
		errno = saved;
	}
}

static int read_value(const char *rel, long max, long *out)
{
	long v;
	int r = core_fs_read_long(rel, &v);

	if (r < 0)
		return r;
	if (v < 1 || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * Read one class from selinuxfs.  Every permission file must hold a value
 * from 1 to 32, or the class is unusable (the established library fails
 * the lookup the same way).  Entries that are not regular files are
 * skipped (".", "..").
 */
static int discover(const char *name, struct class_node **out)
{
	_cleanup_(node_freep) struct class_node *n = NULL;
	_cleanup_(closedirp) DIR *dir = NULL;
	char rel[PATH_MAX], path[PATH_MAX];
	struct dirent *de;
	long v;
	int r;

	if (snprintf(rel, sizeof(rel), "class/%s/index", name) >=
	    (int)sizeof(rel))
		return -EINVAL;
	r = read_value(rel, USHRT_MAX, &v);
	if (r < 0)
		return r;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->value = (security_class_t)v;
	n->name = strdup(name);
	if (!n->name)
		return -ENOMEM;
	snprintf(rel, sizeof(rel), "class/%s/perms", name);
	r = core_fs_path(rel, path, sizeof(path));
	if (r < 0)
		return r;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((errno = 0, de = readdir(dir))) {
		char prel[PATH_MAX];
		struct stat st;

		if (snprintf(prel, sizeof(prel), "%s/%s", rel, de->d_name) >=
		    (int)sizeof(prel))
			return -EINVAL;
		r = core_fs_path(prel, path, sizeof(path));
		if (r < 0)
			return r;
		if (stat(path, &st) < 0)
			return -errno;
		if (!S_ISREG(st.st_mode))
			continue;
		r = read_value(prel, NBITS, &v);
		if (r < 0)
			return r;
		free(n->perms[v - 1]);
		/*
		 * analyzer: false positive (gcc malloc-leak): the string
		 * belongs to n, freed by node_freep() on error or handed out by
		 * TAKE_PTR(); the store through the index v - 1 is lost to GCC
		 * 12.
		 */
		n->perms[v - 1] = strdup(de->d_name);
		if (!n->perms[v - 1])
			return -ENOMEM;
	}
	if (errno)
		return -errno;
	*out = TAKE_PTR(n);
	return 0;
}

static struct class_node *find_name(const char *name)
{
	for (struct class_node *n = cache; n; n = n->next)
		if (!strcmp(n->name, name))
			return n;
	return NULL;
}

static struct class_node *find_value(security_class_t value)
{
	for (struct class_node *n = cache; n; n = n->next)
		if (n->value == value)
			return n;
	return NULL;
}

/*
 * A name with a slash would reach outside class/ (the established
 * library follows it); no class is called that, so it is refused.
 * Discovery runs under the lock so that two threads looking up the same
 * class do not both add it.
 */
int comp_class_value(const char *name)
{
	struct class_node *n;
	int r = 0;

	if (!name || !*name || strchr(name, '/'))
		return -EINVAL;
	pthread_mutex_lock(&cache_lock);
	n = find_name(name);
	if (!n) {
		/*
		 * analyzer: false positive (clang NullDereference): discover()
		 * returns 0 only after setting n; clang assumes a failing
		 * opendir() may leave errno 0, so "return -errno" could look
		 * like success.
		 */
		r = discover(name, &n);
		if (r >= 0) {
			n->next = cache;
			cache = n;
		}
	}
	if (r >= 0)
		r = n->value;
	pthread_mutex_unlock(&cache_lock);
	/* Whatever went wrong, for the caller the class is not there. */
	return r < 0 ? (r == -ENOMEM ? r : -EINVAL) : r;
}

int comp_class_name(security_class_t kclass, const char **out)
{
	struct class_node *n;

	pthread_mutex_lock(&cache_lock);
	n = find_value(kclass);
	if (n)
		*out = n->name;
	pthread_mutex_unlock(&cache_lock);
	return n ? 0 : -EINVAL;
}

/* The lowest bit of kperm names the permission, as in the reference. */
int comp_perm_name(security_class_t kclass, access_vector_t kperm,
		   const char **out)
{
	struct class_node *n;
	const char *s = NULL;

	if (!kperm)
		return -EINVAL;
	pthread_mutex_lock(&cache_lock);
	n = find_value(kclass);
	if (n)
		s = n->perms[__builtin_ctz(kperm)];
	pthread_mutex_unlock(&cache_lock);
	if (!s)
		return -EINVAL;
	*out = s;
	return 0;
}

/*
 * Only classes already discovered (by name) are searched, as in the
 * established library: string_to_av_perm() after a lookup of the class.
 * The search stops at the first unnumbered bit, as the established
 * library's does: with perms/read = 1 and perms/write = 3, "write" is not
 * found (selinux_set_mapping then reports it undefined).  The kernel
 * numbers permissions without gaps, so only odd fixtures see this.
 */
int comp_perm_value(security_class_t kclass, const char *name,
		    access_vector_t *out)
{
	struct class_node *n;
	int r = -EINVAL;

	if (!name)
		return -EINVAL;
	pthread_mutex_lock(&cache_lock);
	n = find_value(kclass);
	for (size_t i = 0; n && i < NBITS && n->perms[i]; i++)
		if (!strcmp(n->perms[i], name)) {
			*out = (access_vector_t)1 << i;
			r = 0;
			break;
		}
	pthread_mutex_unlock(&cache_lock);
	return r;
}

/*
 * Forget every class.  Strings handed out earlier become invalid, as in
 * the established library: callers flush after a policy load, before
 * asking again.
 */
_public_ void selinux_flush_class_cache(void)
{
	struct class_node *n;

	pthread_mutex_lock(&cache_lock);
	n = cache;
	cache = NULL;
	comp_names_changed();
	pthread_mutex_unlock(&cache_lock);
	pthread_rwlock_wrlock(&names_life);
	while (n) {
		struct class_node *next = n->next;

		node_free(n);
		n = next;
	}
	pthread_rwlock_unlock(&names_life);
}
