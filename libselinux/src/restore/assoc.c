/*
 * restore/assoc.c: ADD_ASSOC's table of the inodes a walk labelled, one
 * per walk: a second path of an inode keeps the first one's label.
 *
 * What is tracked.  A walk reaches an inode twice only through a second
 * hard link (a file with st_nlink > 1; directories have no hard links)
 * or through a mount that shows part of the tree again (a bind mount of
 * a directory or a file of the tree inside it).  The reference tracks
 * every entry, which costs a whole-system relabel memory per file (3.7
 * GB for 15 million, upstream PR 490); here a walk tracks only files
 * with several links, unless /proc/self/mountinfo shows a mount inside
 * the tree that may alias it (mounts_may_alias): then, as the
 * reference, everything.  The answers and messages are the same either
 * way (tests/compat's restorecon, sf-binddir; unit restore_assoc).
 *
 * The table.  Open addressing (linear probing) on a hash of (device,
 * inode), doubled when 3/4 full, split into ASSOC_SHARDS shards each
 * with its lock, so that the threads of a parallel walk rarely meet: an
 * insert is O(1) whatever the number of entries (the 4,096 fixed
 * buckets of lists before made a walk of n files O(n^2)).  A slot is 32
 * bytes: device, inode, the context (the handle's string, not a copy:
 * lbl_lookup's answers live as long as the handle, which outlives the
 * walk) and the path, kept in the shard's arena (for the message of a
 * conflict).  So a tracked inode costs 32 bytes in the table (43 to 85
 * bytes with the free slots) plus its path; an untracked one nothing.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "walk.h"

#define ASSOC_SHARDS 16 /* a power of 2 */
#define ASSOC_MIN 64	/* slots of a shard's first table */
#define ARENA_CHUNK 65536

struct slot {
	dev_t dev;
	ino_t ino;
	const char *con; /* NULL: a free slot */
	const char *file;
};

/* Paths, appended to chunks that are freed with the table (a path is
 * shorter than PATH_MAX, so it fits in a chunk). */
struct chunk {
	struct chunk *next;
	char data[ARENA_CHUNK];
};
struct arena {
	struct chunk *head;
	size_t used; /* bytes of head in use */
};

struct shard {
	pthread_mutex_t lock;
	struct slot *slots; /* mask + 1 of them, or NULL */
	size_t mask;
	size_t used;
	struct arena paths;
};

struct rst_assoc {
	bool all; /* track every inode, not only those with several links */
	struct shard shard[ASSOC_SHARDS];
};

static const char *arena_copy(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (n > ARENA_CHUNK)
		return NULL;
	if (!a->head || n > ARENA_CHUNK - a->used) {
		struct chunk *c = malloc(sizeof(*c));

		if (!c)
			return NULL;
		c->next = a->head;
		a->head = c;
		a->used = 0;
	}
	p = a->head->data + a->used;
	a->used += n;
	memcpy(p, s, n);
	return p;
}

static void arena_free(struct arena *a)
{
	while (a->head) {
		struct chunk *n = a->head->next;

		free(a->head);
		a->head = n;
	}
}

/* A 64-bit mix (splitmix64's finalizer) of the device and inode: the
 * low bits pick the slot, the high bits the shard. */
static uint64_t hash(dev_t dev, ino_t ino)
{
	uint64_t x = (uint64_t)ino ^ ((uint64_t)dev * 0x9e3779b97f4a7c15ULL);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static struct slot *find(const struct shard *s, uint64_t h, dev_t dev,
			 ino_t ino)
{
	for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
		struct slot *e = &s->slots[i];

		if (!e->con || (e->ino == ino && e->dev == dev))
			return e;
	}
}

/* Doubles the shard's table (or makes its first).  0 or -ENOMEM. */
static int grow(struct shard *s)
{
	size_t n = s->slots ? 2 * (s->mask + 1) : ASSOC_MIN;
	struct shard t = {.slots = calloc(n, sizeof(struct slot)),
			  .mask = n - 1};

	if (!t.slots)
		return -ENOMEM;
	for (size_t i = 0; s->slots && i <= s->mask; i++) {
		struct slot *e = &s->slots[i];

		if (e->con)
			*find(&t, hash(e->dev, e->ino), e->dev, e->ino) = *e;
	}
	free(s->slots);
	s->slots = t.slots;
	s->mask = t.mask;
	return 0;
}

/* Whether mount point m is p or below it, component by component. */
static bool path_below(const char *m, const char *p)
{
	size_t n = strlen(p);

	if (!strcmp(p, "/"))
		return m[0] == '/';
	return !strncmp(m, p, n) && (m[n] == '/' || m[n] == '\0');
}

/* mountinfo's octal escapes (\040 for a space ...) undone in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				    (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/*
 * Whether a walk of path can reach an inode by two paths without a hard
 * link: a mount strictly below path of a file system that the walk also
 * reaches elsewhere - under XDEV, the file system of path itself; else
 * any file system mounted twice among path's own and those below it.
 * Read from /proc/self/mountinfo (mount point, "major:minor"); true when
 * it cannot be read, or path resolved.
 */
static bool mounts_may_alias(const char *path, bool xdev)
{
	_cleanup_free_ char *real = realpath(path, NULL);
	_cleanup_fclose_ FILE *f = NULL;
	char **devs = NULL, *line = NULL, top[64] = "";
	size_t n = 0, cap = 0, topl = 0;
	bool alias = false;

	f = real ? fopen("/proc/self/mountinfo", "re") : NULL;
	if (!f)
		return true;
	while (!alias && getline(&line, &cap, f) > 0) {
		char dev[64], mnt[4096];
		char **v;

		if (sscanf(line, "%*s %*s %63s %*s %4095s", dev, mnt) != 2) {
			alias = true;
			break;
		}
		unescape(mnt);
		if (path_below(real, mnt) && strlen(mnt) >= topl) {
			/* the mount path is on (the last, the longest) */
			snprintf(top, sizeof(top), "%s", dev);
			topl = strlen(mnt);
			continue;
		}
		if (!path_below(mnt, real))
			continue;
		v = reallocarray(devs, n + 1, sizeof(*v));
		if (!v || !(v[n] = strdup(dev))) {
			devs = v ? v : devs;
			alias = true;
			break;
		}
		devs = v;
		n++;
	}
	/* path's own file system against those below it, and (without
	 * XDEV, the walk crossing into them) those among themselves */
	for (size_t i = 0; !alias && i < n; i++) {
		alias = !strcmp(devs[i], top);
		for (size_t j = i + 1; !xdev && !alias && j < n; j++)
			alias = !strcmp(devs[i], devs[j]);
	}
	for (size_t i = 0; i < n; i++)
		free(devs[i]);
	free(devs);
	free(line);
	return alias;
}

int rst_assoc_new(struct rst_assoc **out, const char *path, bool xdev)
{
	struct rst_assoc *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < ASSOC_SHARDS; i++)
		pthread_mutex_init(&a->shard[i].lock, NULL);
	a->all = mounts_may_alias(path, xdev);
	*out = a;
	return 0;
}

void rst_assoc_free(struct rst_assoc *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < ASSOC_SHARDS; i++) {
		free(a->shard[i].slots);
		arena_free(&a->shard[i].paths);
		pthread_mutex_destroy(&a->shard[i].lock);
	}
	free(a);
}

bool rst_assoc_tracks(const struct rst_assoc *a, const struct stat *st)
{
	return a->all || (!S_ISDIR(st->st_mode) && st->st_nlink > 1);
}

/* The inode's entry, a new one (con NULL) made room for if need be; NULL
 * without the memory for it.  Under s->lock. */
static struct slot *slot_for(struct shard *s, uint64_t h, const struct stat *st)
{
	struct slot *e;

	if (!s->slots || (s->used + 1) * 4 > (s->mask + 1) * 3)
		if (grow(s) < 0)
			return NULL;
	e = find(s, h, st->st_dev, st->st_ino);
	if (!e->con) {
		e->dev = st->st_dev;
		e->ino = st->st_ino;
	}
	return e;
}

/* Another path of an inode already labelled: says a conflict. */
static int second_path(struct slot *e, const char *con, const char *file,
		       bool conflict_error)
{
	if (!strcmp(e->con, con))
		return 1;
	rst_log(SELINUX_ERROR,
		"conflicting specifications for %s and %s, using %s.\n", file,
		e->file, e->con);
	if (!conflict_error)
		return 1;
	rst_log(SELINUX_ERROR,
		"treating conflicting specifications as an error.\n");
	return -EINVAL;
}

int rst_assoc_add(struct rst_assoc *a, const struct stat *st, const char *con,
		  const char *file, bool conflict_error)
{
	uint64_t h = hash(st->st_dev, st->st_ino);
	struct shard *s = &a->shard[h >> (64 - 4)];
	const char *copy;
	struct slot *e;
	int r = -ENOMEM;

	_Static_assert(ASSOC_SHARDS == 1 << 4, "h's top 4 bits: the shard");
	pthread_mutex_lock(&s->lock);
	e = slot_for(s, h, st);
	copy = e ? arena_copy(&s->paths, file) : NULL;
	if (copy) {
		if (e->con) {
			r = second_path(e, con, file, conflict_error);
		} else {
			r = 0;
			e->con = con;
			s->used++;
		}
		/* the message of a later conflict names the latest path */
		e->file = copy;
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}
