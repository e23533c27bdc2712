/* restore/assoc.c: ADD_ASSOC's inode -> context table, one per walk. */
#include <string.h>

#include "walk.h"

/*
 * Every file of a setfiles walk passes through it, from every thread:
 * bucket i is guarded by lock[i % ASSOC_LOCKS], so that the threads of a
 * parallel walk rarely wait for each other there.
 */
struct assoc {
	ino_t ino;
	dev_t dev;
	char *con;
	char *file;
	struct assoc *next;
};
#define ASSOC_BUCKETS 4096
#define ASSOC_LOCKS 64

struct rst_assoc {
	pthread_mutex_t lock[ASSOC_LOCKS];
	struct assoc *bucket[ASSOC_BUCKETS];
};

static void assoc_free(struct assoc *a)
{
	while (a) {
		struct assoc *n = a->next;

		free(a->con);
		free(a->file);
		free(a);
		a = n;
	}
}

int rst_assoc_new(struct rst_assoc **out)
{
	struct rst_assoc *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < ASSOC_LOCKS; i++)
		pthread_mutex_init(&a->lock[i], NULL);
	*out = a;
	return 0;
}

void rst_assoc_free(struct rst_assoc *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < ASSOC_BUCKETS; i++)
		assoc_free(a->bucket[i]);
	for (size_t i = 0; i < ASSOC_LOCKS; i++)
		pthread_mutex_destroy(&a->lock[i]);
	free(a);
}

/* The new entry is made before the bucket is locked; only the search and
 * the link are inside. */
int rst_assoc_add(struct rst_assoc *t, const struct stat *st, const char *con,
		  const char *file, bool conflict_error)
{
	size_t i = st->st_ino % ASSOC_BUCKETS;
	pthread_mutex_t *lock = &t->lock[i % ASSOC_LOCKS];
	struct assoc *n = calloc(1, sizeof(*n)), *a;
	char *old = NULL;
	int r = 0;

	if (!n || !(n->con = strdup(con)) || !(n->file = strdup(file))) {
		assoc_free(n);
		n = NULL;
	}
	pthread_mutex_lock(lock);
	for (a = t->bucket[i]; a; a = a->next)
		if (a->ino == st->st_ino && a->dev == st->st_dev)
			break;
	if (a) {
		r = 1;
		if (!n) {
			r = -ENOMEM;
		} else if (strcmp(a->con, con)) {
			rst_log(SELINUX_ERROR,
				"conflicting specifications for %s and %s, "
				"using %s.\n",
				file, a->file, a->con);
			if (conflict_error) {
				rst_log(SELINUX_ERROR,
					"treating conflicting specifications "
					"as an error.\n");
				r = -EINVAL;
			}
		}
		if (n) {
			old = a->file;
			a->file = n->file;
			n->file = NULL;
		}
	} else if (!n) {
		r = -ENOMEM;
	} else {
		n->ino = st->st_ino;
		n->dev = st->st_dev;
		n->next = t->bucket[i];
		t->bucket[i] = n;
		n = NULL;
	}
	pthread_mutex_unlock(lock);
	free(old);
	assoc_free(n);
	return r;
}
