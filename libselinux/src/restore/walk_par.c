/*
 * restore/walk_par.c: the walk of several threads.  Each thread reads
 * whole directories of its own: a directory found is pushed on a shared
 * stack, a thread pops one, reads it with readdir and fstatat relative to
 * it (no path walk from / per entry), restores each entry and pushes the
 * subdirectories it may descend.  The lock (the walk's) is held only to
 * push and pop, and for the digests.  The walk ends when no directory is
 * waiting or being read (par->pending).  (fts is one stream: whoever
 * reads it holds the lock, and its reading was a quarter of a walk, which
 * bounded two threads to ~1.5 times one.)
 *
 * What the one-thread walk does in fts's way is done here too, with
 * fts's messages: a physical walk (no symlink followed, O_NOFOLLOW), a
 * directory that is its own ancestor (a bind mount) ends the walk with
 * ELOOP ("Directory cycle"), XDEV leaves other file systems' mount points
 * alone, and the checks a directory gets before it is read (exclusions,
 * sysfs, digests) are the same.  The order of the messages is the
 * threads'.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "walk.h"

/*
 * A directory of many entries would keep one thread busy while the other
 * has nothing to do (the root of /usr/share/doc, man1): its entries are
 * restored in chunks of PAR_CHUNK, the first by the thread that read
 * it, the others pushed for any thread.  A chunk is an entry of the
 * stack with the directory's path and identity and the chunk's names.
 */
#define PAR_CHUNK 64

struct pdir {
	struct pdir *next;   /* on the stack */
	struct pdir *parent; /* a reference: the ancestors, for cycles */
	unsigned refs;	     /* the walk's (until read) + each child's */
	dev_t dev;
	ino_t ino;
	char *names;   /* a chunk: these entries of the directory, else NULL */
	size_t nnames; /* (NUL-separated; the chunk owns them) */
	char path[];
};

/* The stack of directories to read, under w->lock; w->cv wakes the
 * threads waiting for it. */
struct par_walk {
	struct rst_walk *w;
	struct pdir *todo;
	size_t pending; /* directories on the stack or being read */
};

static void pdir_put(struct pdir *d)
{
	while (d && __atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		struct pdir *up = d->parent;

		free(d->names);
		free(d);
		d = up;
	}
}

/* Whether (dev, ino) is d or one of its ancestors. */
static bool pdir_cycle(const struct pdir *d, const struct stat *st)
{
	for (; d; d = d->parent)
		if (d->dev == st->st_dev && d->ino == st->st_ino)
			return true;
	return false;
}

/* A new entry of the stack for the directory path (len bytes). */
static struct pdir *pdir_new(const char *path, size_t len,
			     const struct stat *st, struct pdir *parent)
{
	struct pdir *d = malloc(sizeof(*d) + len + 1);

	if (!d)
		return NULL;
	memcpy(d->path, path, len + 1);
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	d->refs = 1;
	d->parent = parent;
	d->names = NULL;
	d->nnames = 0;
	if (parent)
		__atomic_add_fetch(&parent->refs, 1, __ATOMIC_RELAXED);
	return d;
}

/* A chunk of directory d: the k names at names. */
static struct pdir *pdir_chunk(const struct pdir *d, const char *names,
			       size_t bytes, size_t k)
{
	struct pdir *c = calloc(1, sizeof(*c) + strlen(d->path) + 1);

	if (!c || !(c->names = malloc(bytes))) {
		free(c);
		return NULL;
	}
	memcpy(c->names, names, bytes);
	c->nnames = k;
	strcpy(c->path, d->path);
	c->dev = d->dev;
	c->ino = d->ino;
	c->refs = 1;
	c->parent = d->parent;
	if (c->parent)
		__atomic_add_fetch(&c->parent->refs, 1, __ATOMIC_RELAXED);
	return c;
}

/*
 * A directory just found (path, st), below parent (NULL: the root):
 * whether it is to be restored, and to be read.
 */
static bool par_dir_ok(struct rst_walk *w, const char *path,
		       const struct stat *st, struct pdir *parent)
{
	if (rst_dir_left_out(w, path, st))
		return false;
	if (pdir_cycle(parent, st)) {
		rst_log(SELINUX_ERROR, "Directory cycle on %s.\n", path);
		rst_fail(w, -ELOOP);
		return false;
	}
	return !rst_dir_digest_skip(w, path);
}

/* Pushes the list (through ->next, n entries) on the stack. */
static void par_push(struct par_walk *p, struct pdir *list, size_t n)
{
	struct rst_walk *w = p->w;
	struct pdir *last = list;

	if (!list)
		return;
	while (last->next)
		last = last->next;
	pthread_mutex_lock(&w->lock);
	last->next = p->todo;
	p->todo = list;
	p->pending += n;
	if (n > 1)
		pthread_cond_broadcast(&w->cv);
	else
		pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->lock);
}

/* An entry whose full path would not fit. */
static void par_too_long(struct rst_walk *w, const struct pdir *d,
			 const char *name)
{
	char *full = NULL;

	if (asprintf(&full, "%s/%s", strcmp(d->path, "/") ? d->path : "",
		     name) >= 0) {
		rst_log(SELINUX_ERROR, "Could not set context for %s:  %s\n",
			full, strerror(ENAMETOOLONG));
		free(full);
	}
	rst_account(w, -ENAMETOOLONG);
}

/* Restores entries (NUL-separated) of directory d (open as fd): returns
 * the subdirectories to read next as a list (through ->next). */
static struct pdir *par_entries(struct rst_walk *w, struct pdir *d, int fd,
				const char *names, size_t nnames)
{
	struct pdir *found = NULL;
	size_t len = strlen(d->path);
	char path[PATH_MAX];

	if (len == 1) /* "/": its entries are "/name" */
		len = 0;
	memcpy(path, d->path, len);
	path[len] = '/';
	for (size_t i = 0; i < nnames; i++, names += strlen(names) + 1) {
		size_t n = strlen(names);
		struct pdir *sub;
		struct stat st;

		if (rst_aborted(w))
			break;
		if (len + 1 + n >= PATH_MAX) {
			par_too_long(w, d, names);
			continue;
		}
		memcpy(path + len + 1, names, n + 1);
		if (fstatat(fd, names, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rst_log(SELINUX_ERROR, "Could not stat %s: %s.\n", path,
				strerror(errno));
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (!rst_file_left_out(w, &st))
				rst_walk_entry(w, path, &st, false, fd, names);
			continue;
		}
		if (!par_dir_ok(w, path, &st, d))
			continue;
		rst_walk_entry(w, path, &st, false, fd, names);
		sub = pdir_new(path, len + 1 + n, &st, d);
		if (!sub) {
			rst_fail(w, -ENOMEM);
			break;
		}
		sub->next = found;
		found = sub;
	}
	return found;
}

/* Pushes the chunks of directory d after its first: the n names at
 * names.  Returns how many names the first chunk keeps. */
static size_t par_push_chunks(struct par_walk *p, struct pdir *d,
			      const char *names, size_t n)
{
	size_t first = n < PAR_CHUNK ? n : PAR_CHUNK, nchunks = 0;
	struct pdir *chunks = NULL;
	const char *s = names;

	for (size_t i = 0; i < first; i++)
		s += strlen(s) + 1;
	for (size_t i = first; i < n; i += PAR_CHUNK) {
		size_t k = n - i < PAR_CHUNK ? n - i : PAR_CHUNK;
		const char *e = s;
		struct pdir *c;

		for (size_t j = 0; j < k; j++)
			e += strlen(e) + 1;
		c = pdir_chunk(d, s, (size_t)(e - s), k);
		if (!c) {
			rst_fail(p->w, -ENOMEM);
			break;
		}
		c->next = chunks;
		chunks = c;
		nchunks++;
		s = e;
	}
	par_push(p, chunks, nchunks);
	return first;
}

/* Opens d's directory; NULL after logging why. */
static DIR *par_open(const struct pdir *d)
{
	int fd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;

	if (!dir) {
		rst_log(SELINUX_ERROR, "Could not read %s: %s.\n", d->path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return dir;
}

/*
 * Works on d, a directory to read or a chunk of one: restores entries,
 * pushes the subdirectories found (and, for a large directory, its
 * chunks after the first).
 */
static void par_read(struct par_walk *p, struct pdir *d)
{
	struct pdir *found;
	char *names = NULL;
	size_t k = 0;
	ssize_t n;
	DIR *dir = par_open(d);

	if (!dir)
		return;
	if (d->names) {
		found = par_entries(p->w, d, dirfd(dir), d->names, d->nnames);
	} else {
		n = rst_list_dir(p->w, d->path, dir, &names);
		if (n < 0) {
			closedir(dir);
			return;
		}
		k = par_push_chunks(p, d, names, (size_t)n);
		found = par_entries(p->w, d, dirfd(dir), names, k);
	}
	k = 0;
	for (struct pdir *f = found; f; f = f->next)
		k++;
	par_push(p, found, k);
	free(names);
	closedir(dir);
}

/* The next directory to read, or NULL when the walk is over (nothing
 * waiting nor being read, or aborted).  Called and returns under
 * w->lock; flushes the thread's messages before it waits. */
static struct pdir *par_pop(struct par_walk *p)
{
	struct rst_walk *w = p->w;
	struct pdir *d;

	for (;;) {
		if (!p->todo && p->pending && !w->abort &&
		    rst_log_batch_pending()) {
			/* (the log lock is a leaf lock: not under w->lock) */
			pthread_mutex_unlock(&w->lock);
			rst_log_batch_flush();
			pthread_mutex_lock(&w->lock);
			continue;
		}
		while (!p->todo && p->pending && !w->abort)
			pthread_cond_wait(&w->cv, &w->lock);
		if (!p->todo || w->abort)
			return NULL;
		d = p->todo;
		p->todo = d->next;
		return d;
	}
}

/* One thread of the walk: pop, read, push, until nothing is pending. */
static void *par_thread(void *arg)
{
	struct par_walk *p = arg;
	struct rst_walk *w = p->w;
	struct pdir *d;

	rst_log_batch_begin();
	pthread_mutex_lock(&w->lock);
	while ((d = par_pop(p)) != NULL) {
		pthread_mutex_unlock(&w->lock);

		par_read(p, d);

		pthread_mutex_lock(&w->lock);
		p->pending--;
		if (!p->pending || w->abort)
			pthread_cond_broadcast(&w->cv);
		pdir_put(d);
	}
	pthread_mutex_unlock(&w->lock);
	rst_log_batch_end();
	return NULL;
}

/* Runs par_thread in w->nthreads threads (this one among them). */
static void par_run(struct par_walk *p)
{
	size_t nt = p->w->nthreads - 1, started = 0;
	pthread_t *t = calloc(nt, sizeof(*t));

	for (size_t i = 0; t && i < nt; i++, started++)
		if (pthread_create(&t[i], NULL, par_thread, p))
			break;
	par_thread(p);
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
}

void rst_walk_par(struct rst_walk *w, const char *path, const struct stat *st)
{
	struct par_walk p = {.w = w};
	struct pdir *root;

	if (!S_ISDIR(st->st_mode)) {
		rst_walk_entry(w, path, st, true, -1, NULL);
		return;
	}
	if (!par_dir_ok(w, path, st, NULL))
		return;
	rst_walk_entry(w, path, st, true, -1, NULL);
	root = pdir_new(path, strlen(path), st, NULL);
	if (!root) {
		rst_fail(w, -ENOMEM);
		return;
	}
	root->next = NULL;
	p.todo = root;
	p.pending = 1;
	par_run(&p);
	/* What an abort left on the stack. */
	while (p.todo) {
		struct pdir *d = p.todo;

		p.todo = d->next;
		pdir_put(d);
	}
}
