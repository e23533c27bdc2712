/* label/filespec.c: matchpathcon_filespec_*, the inode -> spec table. */
#include <string.h>

#include "internal.h"

/*
 * setfiles and restorecon record which spec each inode got, so that two
 * hard links labelled by different specs are noticed.  One table per
 * process, guarded by table_lock.  The API knows an inode by its number
 * alone (no device).
 *
 * Open addressing (linear probing) on a hash of the inode, doubled when
 * 3/4 full: an add is O(1) whatever the number of inodes (the 65,536
 * fixed buckets of lists before made n adds cost O(n^2 / 65,536)).  A
 * slot is 24 bytes (the inode, the spec, the file); the file names live
 * in chunks of STR_CHUNK bytes freed with the table.
 */
#define MIN_SLOTS 1024
#define STR_CHUNK 65536
/* matchpathcon_filespec_eval's figures are those of a table of this many
 * buckets, indexed by the inode's low bits: what it has always printed. */
#define EVAL_BUCKETS 65536

struct ino_slot {
	ino_t ino;
	int specind;
	char *file; /* NULL: a free slot */
};

struct str_chunk {
	struct str_chunk *next;
	size_t used;
	char data[STR_CHUNK];
};

/* All guarded by table_lock. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ino_slot *table; /* mask + 1 slots, or NULL */
static size_t mask, used;
static struct str_chunk *strs;

static char *str_copy(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (n > STR_CHUNK) /* not a path: a string of its own */
		return NULL;
	if (!strs || n > STR_CHUNK - strs->used) {
		struct str_chunk *c = malloc(sizeof(*c));

		if (!c)
			return NULL;
		c->next = strs;
		c->used = 0;
		strs = c;
	}
	p = strs->data + strs->used;
	strs->used += n;
	memcpy(p, s, n);
	return p;
}

/* splitmix64's finalizer: the low bits of a hash of the inode. */
static size_t slot_of(ino_t ino)
{
	uint64_t x = (uint64_t)ino;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (size_t)(x ^ (x >> 31));
}

static struct ino_slot *find(struct ino_slot *t, size_t m, ino_t ino)
{
	for (size_t i = slot_of(ino) & m;; i = (i + 1) & m)
		if (!t[i].file || t[i].ino == ino)
			return &t[i];
}

/* Room for one more inode.  0 or -ENOMEM. */
static int reserve(void)
{
	size_t n = table ? 2 * (mask + 1) : MIN_SLOTS;
	struct ino_slot *t;

	if (table && (used + 1) * 4 <= (mask + 1) * 3)
		return 0;
	t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; table && i <= mask; i++)
		if (table[i].file)
			*find(t, n - 1, table[i].ino) = table[i];
	free(table);
	table = t;
	mask = n - 1;
	return 0;
}

/* A second file of an inode recorded: the later spec in file_contexts
 * order wins, with a warning when they differ. */
static int second_file(struct ino_slot *e, int specind, const char *file)
{
	char *f;

	if (e->specind == specind)
		return specind;
	core_log(SELINUX_WARNING,
		 "%s: conflicting specifications for %s and %s, using %s.\n",
		 "filespec_add", file, e->file,
		 specind > e->specind ? file : e->file);
	if (specind < e->specind)
		return e->specind;
	f = str_copy(file);
	if (!f)
		return -ENOMEM;
	e->file = f;
	e->specind = specind;
	return specind;
}

static int filespec_add(ino_t ino, int specind, const char *file)
{
	struct ino_slot *e;
	int r;

	if (!file)
		return -EINVAL;
	r = reserve();
	if (r < 0)
		return r;
	e = find(table, mask, ino);
	if (e->file)
		return second_file(e, specind, file);
	e->file = str_copy(file);
	if (!e->file)
		return -ENOMEM;
	e->ino = ino;
	e->specind = specind;
	used++;
	return specind;
}

_public_ int matchpathcon_filespec_add(ino_t ino, int specind, const char *file)
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
	free(table);
	table = NULL;
	mask = used = 0;
	while (strs) {
		struct str_chunk *n = strs->next;

		free(strs);
		strs = n;
	}
	pthread_mutex_unlock(&table_lock);
}

_public_ void matchpathcon_filespec_eval(void)
{
	uint32_t *len = calloc(EVAL_BUCKETS, sizeof(*len));
	size_t nel = 0, nused = 0, longest = 0;

	pthread_mutex_lock(&table_lock);
	for (size_t i = 0; table && i <= mask; i++) {
		uint32_t *l;

		if (!table[i].file)
			continue;
		nel++;
		if (!len)
			continue;
		l = &len[table[i].ino & (EVAL_BUCKETS - 1)];
		nused += !*l;
		if (++*l > longest)
			longest = *l;
	}
	pthread_mutex_unlock(&table_lock);
	free(len);
	core_log(SELINUX_INFO,
		 "%s:  hash table stats: %zu elements, %zu/%d buckets used, "
		 "longest chain length %zu\n",
		 __func__, nel, nused, EVAL_BUCKETS, longest);
}
