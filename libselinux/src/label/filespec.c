/* label/filespec.c: matchpathcon_filespec_*, the inode -> spec table. */
#include <string.h>

#include "internal.h"

/*
 * setfiles and restorecon record which spec each inode got, so that two
 * hard links labelled by different specs are noticed.  One table per
 * process, guarded by table_lock.
 */
#define NBUCKETS 65536

struct ino_entry {
	ino_t ino;
	int specind;
	char *file;
	struct ino_entry *next;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ino_entry **table; /* guarded by table_lock */

static int filespec_add(ino_t ino, int specind, const char *file)
{
	struct ino_entry *e, **b;

	if (!file)
		return -EINVAL;
	if (!table) {
		table = calloc(NBUCKETS, sizeof(*table));
		if (!table)
			return -ENOMEM;
	}
	b = &table[ino & (NBUCKETS - 1)];
	for (e = *b; e; e = e->next) {
		char *f;

		if (e->ino != ino)
			continue;
		if (e->specind == specind)
			return specind;
		/* Keep the later spec in file_contexts order. */
		core_log(SELINUX_WARNING,
			 "%s: conflicting specifications for %s and %s, using %s.\n",
			 __func__, file, e->file,
			 specind > e->specind ? file : e->file);
		if (specind < e->specind)
			return e->specind;
		/*
		 * analyzer: false positive (gcc malloc-leak): f replaces
		 * e->file in the table, freed with it; GCC 12 loses the store
		 * into the list entry.
		 */
		f = strdup(file);
		if (!f)
			return -ENOMEM;
		free(e->file);
		e->file = f;
		e->specind = specind;
		return specind;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->file = strdup(file);
	if (!e->file) {
		free(e);
		return -ENOMEM;
	}
	e->ino = ino;
	e->specind = specind;
	e->next = *b;
	*b = e;
	return specind;
}

_public_ int matchpathcon_filespec_add(ino_t ino, int specind,
				       const char *file)
{
	int r;

	pthread_mutex_lock(&table_lock);
	r = filespec_add(ino, specind, file);
	pthread_mutex_unlock(&table_lock);
	return RET_ERRNO(r);
}

_public_ void matchpathcon_filespec_destroy(void)
{
	pthread_mutex_lock(&table_lock);
	for (size_t i = 0; table && i < NBUCKETS; i++) {
		struct ino_entry *e = table[i];

		while (e) {
			struct ino_entry *n = e->next;

			free(e->file);
			free(e);
			e = n;
		}
	}
	free(table);
	table = NULL;
	pthread_mutex_unlock(&table_lock);
}

_public_ void matchpathcon_filespec_eval(void)
{
	size_t used = 0, nel = 0, longest = 0;

	pthread_mutex_lock(&table_lock);
	for (size_t i = 0; table && i < NBUCKETS; i++) {
		size_t len = 0;

		for (struct ino_entry *e = table[i]; e; e = e->next)
			len++;
		if (len)
			used++;
		nel += len;
		if (len > longest)
			longest = len;
	}
	pthread_mutex_unlock(&table_lock);
	core_log(SELINUX_INFO,
		 "%s:  hash table stats: %zu elements, %zu/%d buckets used, longest chain length %zu\n",
		 __func__, nel, used, NBUCKETS, longest);
}
