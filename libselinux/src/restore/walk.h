/*
 * restore/walk.h: one relabel walk's context, and what its files share:
 * restorecon.c starts and ends a walk, walk_seq.c and walk_par.c go
 * through the tree, entry.c handles each entry they find.
 */
#ifndef SELINUX_RESTORE_WALK_H
#define SELINUX_RESTORE_WALK_H

#include <dirent.h>
#include <sys/statfs.h>

#include <selinux/restorecon.h>

#include "internal.h"

struct rst_assoc;
struct rst_digest;

/*
 * Everything one call of selinux_restorecon(_parallel) needs, made at its
 * start and passed down: two walks in one process share none of it (what
 * they do share is settings.c's, by the public API's definition).
 */
struct rst_walk {
	/* Fixed at the start, read by every thread. */
	struct selabel_handle *h;
	unsigned int flags;
	bool verbose;
	bool digest; /* check and write security.sehash */
	char *root;  /* the alternate root, without a trailing '/' */
	size_t rootlen;
	unsigned long long efiles; /* MASS_RELABEL: inodes in use */
	dev_t dev;		   /* XDEV: the device the walk started on */
	size_t nthreads;
	struct statfs sfs;	 /* the start's file system */
	struct rst_assoc *assoc; /* ADD_ASSOC, RECURSE: assoc.c */

	/* Progress: the entries counted, an atomic counter. */
	unsigned long long count;

	/*
	 * Shared by the threads, guarded by lock: the outcome, and the
	 * digests to write once the walk succeeded.  abort is also read
	 * without it (atomically) to stop early; cv wakes the parallel
	 * walk's threads waiting for work (walk_par.c, which keeps its stack
	 * of directories under the same lock).
	 */
	pthread_mutex_t lock;
	pthread_cond_t cv;
	unsigned long skipped;
	unsigned long relabeled;
	int error;
	bool abort;
	struct rst_digest *digests;
};

#define RST_F(w, f) (((w)->flags & SELINUX_RESTORECON_##f) != 0)

static inline bool rst_aborted(struct rst_walk *w)
{
	return __atomic_load_n(&w->abort, __ATOMIC_RELAXED);
}

/* entry.c */
/*
 * The per-file step of both walks: check and fix the label of one entry
 * (path, lstat'ed into st), and account a failure as the flags say.
 * first: it is the walk's start; dirfd and name, when dirfd >= 0, the
 * same entry as a name in a directory the walk holds open (its label is
 * read relative to it).
 */
void rst_walk_entry(struct rst_walk *w, const char *path, const struct stat *st,
		    bool first, int dirfd, const char *name);
/* Check and fix one entry: 0 (also "no spec matches"), or -errno after
 * logging why. */
int rst_restore(struct rst_walk *w, const char *path, const struct stat *st,
		bool first, int dirfd, const char *name);
/* A failed entry's fate (error, count or abort), as the flags say. */
void rst_account(struct rst_walk *w, int r);
/* The walk ends now with r; takes w->lock. */
void rst_fail(struct rst_walk *w, int r);
/* A directory found is left alone, silently: another file system under
 * XDEV, sysfs where no spec reaches, an excluded path. */
bool rst_dir_left_out(struct rst_walk *w, const char *path,
		      const struct stat *st);
/* A file (not a directory) found on another file system under XDEV. */
bool rst_file_left_out(const struct rst_walk *w, const struct stat *st);
/* The names of directory path (open as dir), NUL-separated, into *names
 * (malloc'd); their number, or -1 after an error was logged and the walk
 * failed. */
ssize_t rst_list_dir(struct rst_walk *w, const char *path, DIR *dir,
		     char **names);

/* digest.c */
/* A directory whose stored digest lets the walk skip it (said so);
 * otherwise its new digest is kept for rst_digests_write. */
bool rst_dir_digest_skip(struct rst_walk *w, const char *path);
/* Writes the digests kept (once the walk succeeded), frees them. */
void rst_digests_write(struct rst_walk *w);
void rst_digests_free(struct rst_walk *w);

/* assoc.c: ADD_ASSOC's table of the inodes a walk labelled. */
/* A new table for a walk of path (xdev: under XDEV): 0, or -ENOMEM. */
int rst_assoc_new(struct rst_assoc **a, const char *path, bool xdev);
void rst_assoc_free(struct rst_assoc *a);
/* Whether the inode of st is tracked: whether the walk may reach it by
 * another path (an untracked one needs no rst_assoc_add). */
bool rst_assoc_tracks(const struct rst_assoc *a, const struct stat *st);
/* The inode of st gets con (a string that outlives the table) through
 * file: 0 when file is the inode's first path (recorded), 1 when an
 * earlier path decides its label (a different context is logged as a
 * conflict), -errno on a conflict treated as an error (conflict_error)
 * or on allocation failure.  Safe from several threads. */
int rst_assoc_add(struct rst_assoc *a, const struct stat *st, const char *con,
		  const char *file, bool conflict_error);

/* walk_seq.c, walk_par.c: the walk from path (lstat'ed into st), in one
 * thread or in w->nthreads. */
void rst_walk_seq(struct rst_walk *w, const char *path, const struct stat *st);
void rst_walk_par(struct rst_walk *w, const char *path, const struct stat *st);

#endif
