/* restore/entry.c: what a relabel walk does with each entry it finds. */
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <selinux/context.h>

#include "release.h"
#include "walk.h"

/* PROGRESS prints once per this many files. */
#define STAR_COUNT 1000

static void progress(struct rst_walk *w)
{
	unsigned long long n =
	    __atomic_add_fetch(&w->count, 1, __ATOMIC_RELAXED);

	if (n % STAR_COUNT)
		return;
	if (RST_F(w, MASS_RELABEL) && w->efiles) {
		double pc = (double)n / (double)w->efiles * 100.0;

		fprintf(stdout, "\r%-.1f%%", pc < 99.9 ? pc : 99.9);
	} else {
		fprintf(stdout, "\r%lluk", n / STAR_COUNT);
	}
	fflush(stdout);
}

/*
 * A second name of an inode may have been made by whoever can write the
 * directory being relabelled (a home, /tmp): relabelling through it
 * would change a file that lives elsewhere, perhaps another user's.  Not
 * an error: the walk goes on.  3.11 says so for each file skipped,
 * VERBOSE or not, before any lookup.
 */
static bool multilink_skipped(const struct rst_walk *w, const char *path,
			      const struct stat *st)
{
	if (!RST_F(w, SKIP_MULTILINK) || !rst_rel_skip_multilink() ||
	    S_ISDIR(st->st_mode) || st->st_nlink <= 1)
		return false;
	rst_log(SELINUX_INFO, "Skipping %s: file has multiple links\n", path);
	return true;
}

/* The name the spec files know path by: path itself, or path below the
 * alternate root with the root taken off.  0, or -EINVAL (logged). */
static int spec_key(const struct rst_walk *w, const char *path,
		    const char **key)
{
	*key = path;
	if (!w->root)
		return 0;
	if (strncmp(w->root, path, w->rootlen)) {
		rst_log(SELINUX_ERROR, "%s is not located in alt_rootpath %s\n",
			path, w->root);
		return -EINVAL;
	}
	*key = path[w->rootlen] ? path + w->rootlen : "/";
	return 0;
}

/* The spec's context for key: 1 and *con (the handle's, not a copy), 0
 * when no spec gives one (said so for the walk's start), or -errno. */
static int spec_context(struct rst_walk *w, const char *key,
			const struct stat *st, bool first, const char **con)
{
	struct lbl_result res;
	int r = lbl_lookup(w->h, key, (int)st->st_mode, &res);

	if (r == -ENOENT) {
		if (first)
			rst_log(SELINUX_INFO,
				"Warning no default label for %s\n", key);
		return 0;
	}
	if (r < 0)
		return r;
	*con = res.ctx_raw;
	return 1;
}

/* ADD_ASSOC: 1 when an earlier path of the same inode decides its label
 * (this one is left alone), 0 when this path does, -errno (logged). */
static int assoc_decides(struct rst_walk *w, const struct stat *st,
			 const char *con, const char *path)
{
	int r;

	if (!w->assoc || !rst_assoc_tracks(w->assoc, st))
		return 0;
	r = rst_assoc_add(w->assoc, st, con, path, RST_F(w, CONFLICT_ERROR));
	if (r < 0)
		rst_log(SELINUX_ERROR, "filespec_add error: %s\n", path);
	return r;
}

/*
 * Without SET_SPECFILE_CTX only part of the spec context is applied:
 * *out becomes curcon with the spec's type and, with user_role
 * (SET_USER_ROLE), the spec's user and role too.  The range is always
 * the file's own, as restorecon(8) -U documents: "also change the user
 * and role portions, but not the range portion".
 */
static int merge_spec(const char *curcon, const char *spec, bool user_role,
		      char **out)
{
	context_t cc = context_new(curcon), nc = context_new(spec);
	const char *s;
	int r = 0;

	if (!cc || !nc)
		r = -EINVAL;
	else if (context_type_set(cc, context_type_get(nc)) < 0 ||
		 (user_role &&
		  (context_user_set(cc, context_user_get(nc)) < 0 ||
		   context_role_set(cc, context_role_get(nc)) < 0)) ||
		 !(s = context_str(cc)) || !(*out = strdup(s)))
		r = -ENOMEM;
	if (cc)
		context_free(cc);
	if (nc)
		context_free(nc);
	return r;
}

/*
 * The label path is to get, given its current one (NULL: none) and the
 * spec's: 1 and *newcon (spec, or *merged, which the caller frees), 0
 * when it is to stay as it is (a customizable type is said so), -errno.
 */
static int label_wanted(const struct rst_walk *w, const char *path,
			const char *curcon, const char *spec, char **merged,
			const char **newcon)
{
	int r;

	*newcon = spec;
	if (curcon && !strcmp(curcon, spec))
		return 0;
	if (!curcon || RST_F(w, SET_SPECFILE_CTX))
		return 1;
	if (rst_customizable(curcon)) {
		if (w->verbose)
			rst_log(SELINUX_INFO,
				"%s not reset as customized by admin to %s\n",
				path, curcon);
		return 0;
	}
	r = merge_spec(curcon, spec,
		       RST_F(w, SET_USER_ROLE) && rst_rel_set_user_role(),
		       merged);
	if (r < 0)
		return r;
	*newcon = *merged;
	return strcmp(curcon, *newcon) ? 1 : 0;
}

/* A change made (or, NOCHANGE, that would be): counted, logged, sent to
 * syslog as the flags say. */
static void label_changed(struct rst_walk *w, const char *path,
			  const char *curcon, const char *newcon)
{
	/* 3.11 counts the files relabelled, not those NOCHANGE would
	 * (measured: 0 after a NOCHANGE walk that logged changes). */
	if (RST_F(w, COUNT_RELABELED) && !RST_F(w, NOCHANGE)) {
		pthread_mutex_lock(&w->lock);
		w->relabeled++;
		pthread_mutex_unlock(&w->lock);
	}
	if (w->verbose)
		rst_log(SELINUX_INFO, "%s %s from %s to %s\n",
			RST_F(w, NOCHANGE) ? "Would relabel" : "Relabeled",
			path, curcon ? curcon : rst_rel_no_context(), newcon);
	if (RST_F(w, SYSLOG_CHANGES) && !RST_F(w, NOCHANGE)) {
		if (curcon)
			syslog(LOG_INFO, "relabeling %s from %s to %s\n", path,
			       curcon, newcon);
		else
			syslog(LOG_INFO, "labeling %s to %s\n", path, newcon);
	}
}

/*
 * An entry removed since the walk listed it is gone, not an error: the
 * reference reads and sets the label through a descriptor it opened
 * before the lookup, on the removed file, and says nothing (later
 * releases skip such entries, as this does): -ENOENT from here ends the
 * entry quietly.
 */
static int relabel(struct rst_walk *w, const char *path, const char *spec,
		   int dirfd, const char *name)
{
	_cleanup_free_ char *curcon = NULL, *merged = NULL;
	const char *newcon;
	ssize_t n;
	int r;

	n = core_xattr_get_at(dirfd, name, path, &curcon);
	if (n < 0 && n != -ENODATA)
		return (int)n;
	r = label_wanted(w, path, curcon, spec, &merged, &newcon);
	if (r <= 0)
		return r;
	if (!RST_F(w, NOCHANGE)) {
		r = core_xattr_set(path, -1, CORE_XATTR_NOFOLLOW, newcon);
		if (r < 0)
			return r;
	}
	label_changed(w, path, curcon, newcon);
	return 0;
}

int rst_restore(struct rst_walk *w, const char *path, const struct stat *st,
		bool first, int dirfd, const char *name)
{
	const char *key, *spec;
	int r;

	if (multilink_skipped(w, path, st))
		return 0;
	r = spec_key(w, path, &key);
	if (r < 0)
		return r;
	r = spec_context(w, key, st, first, &spec);
	if (r <= 0)
		return r;
	if (RST_F(w, PROGRESS))
		progress(w);
	if (RST_F(w, ADD_ASSOC)) {
		r = assoc_decides(w, st, spec, path);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	if (RST_F(w, LOG_MATCHES))
		rst_log(SELINUX_INFO, "%s matched by %s\n", path, spec);
	r = relabel(w, path, spec, dirfd, name);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		rst_log(SELINUX_ERROR, "Could not set context for %s:  %s\n",
			path, strerror(-r));
	return r;
}

void rst_account(struct rst_walk *w, int r)
{
	pthread_mutex_lock(&w->lock);
	if (RST_F(w, ABORT_ON_ERROR)) {
		w->error = r;
		__atomic_store_n(&w->abort, true, __ATOMIC_RELAXED);
	} else if (RST_F(w, COUNT_ERRORS)) {
		w->skipped++;
	} else {
		w->error = r;
	}
	pthread_mutex_unlock(&w->lock);
}

void rst_walk_entry(struct rst_walk *w, const char *path, const struct stat *st,
		    bool first, int dirfd, const char *name)
{
	int r = rst_restore(w, path, st, first, dirfd, name);

	if (r < 0)
		rst_account(w, r);
}

void rst_fail(struct rst_walk *w, int r)
{
	pthread_mutex_lock(&w->lock);
	w->error = r;
	__atomic_store_n(&w->abort, true, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->lock);
}

bool rst_dir_left_out(struct rst_walk *w, const char *path,
		      const struct stat *st)
{
	return (RST_F(w, XDEV) && st->st_dev != w->dev) ||
	       (w->sfs.f_type == SYSFS_MAGIC &&
		!selabel_partial_match(w->h, path)) ||
	       rst_excluded(path);
}

/* A file (not a directory) found on another file system than the walk's
 * start, under XDEV (a file bind-mounted into the tree): left alone,
 * silently, as directories are - 3.4, 3.8.1 and 3.11 alike (measured;
 * setfiles always sets XDEV).  Named as the walk's start it is
 * relabelled. */
bool rst_file_left_out(const struct rst_walk *w, const struct stat *st)
{
	return RST_F(w, XDEV) && st->st_dev != w->dev;
}

ssize_t rst_list_dir(struct rst_walk *w, const char *path, DIR *dir,
		     char **names)
{
	size_t used = 0, cap = 0, n = 0;
	struct dirent *e;
	char *buf = NULL;

	while ((errno = 0, e = readdir(dir)) != NULL) {
		size_t len = strlen(e->d_name) + 1;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!buf || cap - used < len) {
			char *b;

			cap = cap ? 2 * cap : 4096;
			if (cap - used < len)
				cap = used + len;
			b = realloc(buf, cap);
			if (!b) {
				free(buf);
				rst_fail(w, -ENOMEM);
				return -1;
			}
			buf = b;
		}
		memcpy(buf + used, e->d_name, len);
		used += len;
		n++;
	}
	if (errno)
		rst_log(SELINUX_ERROR, "Error on %s: %s.\n", path,
			strerror(errno));
	*names = buf;
	return (ssize_t)n;
}
