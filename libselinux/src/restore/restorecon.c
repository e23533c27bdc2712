/* restore/restorecon.c: selinux_restorecon(_parallel), a walk's start
 * and end. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "release.h"
#include "walk.h"

/* The path to use: REALPATH resolves the parents, not a final symlink. */
static int resolve(const char *in, bool real, char **out)
{
	_cleanup_free_ char *d = NULL, *b = NULL, *rd = NULL;
	const char *base;

	if (!real) {
		*out = strdup(in);
		return *out ? 0 : -ENOMEM;
	}
	b = strdup(in);
	d = strdup(in);
	if (!b || !d)
		return -ENOMEM;
	base = basename(b);
	if (!strcmp(base, ".") || !strcmp(base, "..") || !strcmp(base, "/")) {
		*out = realpath(in, NULL);
		return *out ? 0 : -errno;
	}
	rd = realpath(dirname(d), NULL);
	if (!rd)
		return -errno;
	if (asprintf(out, "%s/%s", strcmp(rd, "/") ? rd : "", base) < 0)
		return -ENOMEM;
	return 0;
}

/*
 * MASS_RELABEL's percentage is of the inodes in use on the seclabel file
 * systems, as the reference counts them: none when SELinux is disabled
 * (no mount shows seclabel), and then progress counts thousands instead.
 */
static unsigned long long seclabel_inodes(void)
{
	_cleanup_fclose_ FILE *f = NULL;
	unsigned long long n = 0;
	char *line = NULL;
	size_t cap = 0;

	if (is_selinux_enabled() <= 0)
		return 0;
	f = fopen("/proc/mounts", "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		char dev[4096], mnt[4096], type[256], opts[4096];
		struct statvfs sv;

		if (sscanf(line, "%4095s %4095s %255s %4095s", dev, mnt, type,
			   opts) != 4)
			continue;
		if (rst_has_seclabel(opts) && statvfs(mnt, &sv) == 0 &&
		    sv.f_files >= sv.f_ffree)
			n += sv.f_files - sv.f_ffree;
	}
	free(line);
	return n;
}

/*
 * The walk's start: w's handle and settings, *path (pathname resolved as
 * the flags say) lstat'ed into st.  0; 1 when there is nothing to do
 * (IGNORE_NOENTRY); -errno after logging why.
 */
static int walk_begin(struct rst_walk *w, const char *pathname, char **path,
		      struct stat *st, bool *have_digest)
{
	int r;

	w->verbose = RST_F(w, VERBOSE) && !RST_F(w, PROGRESS);
	r = rst_handle(&w->h, have_digest);
	if (r < 0)
		return r;
	/*
	 * analyzer: false positive (gcc null-argument, clang
	 * NonNullParamChecker): resolve() returns 0 only with path set; both
	 * take errno for possibly 0 after a failed realpath(), so "return
	 * -errno" looks like success.
	 */
	r = resolve(pathname, RST_F(w, REALPATH), path);
	if (r < 0) {
		rst_log(SELINUX_ERROR,
			"SELinux: Could not get canonical path for %s "
			"restorecon: %s.\n",
			pathname, strerror(-r));
		return r;
	}
	if (lstat(*path, st) < 0) {
		r = -errno;
		if (r == -ENOENT && RST_F(w, IGNORE_NOENTRY))
			return 1;
		rst_log(SELINUX_ERROR, "%s(%s) failed: %s\n",
			rst_rel_start_call(), *path, strerror(-r));
		return r;
	}
	if (!RST_F(w, IGNORE_MOUNTS))
		rst_read_mounts();
	r = rst_alt_root(&w->root, &w->rootlen);
	/* (one entry alone has no second path) */
	if (r == 0 && RST_F(w, ADD_ASSOC) && RST_F(w, RECURSE))
		r = rst_assoc_new(&w->assoc, *path, RST_F(w, XDEV));
	return r;
}

/* The number of threads a walk of nthreads (0: one per CPU) runs. */
static size_t threads_for(size_t nthreads)
{
	long n;

	if (nthreads)
		return nthreads;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (size_t)n : 1;
}

/* The walk of the tree from path (RECURSE), in nthreads threads: 0 or
 * -errno. */
static int walk_tree(struct rst_walk *w, const char *path,
		     const struct stat *st, size_t nthreads)
{
	int r;

	if (!S_ISLNK(st->st_mode) && statfs(path, &w->sfs) < 0) {
		r = -errno;
		rst_log(SELINUX_ERROR, "statfs(%s) failed: %s\n", path,
			strerror(-r));
		return r;
	}
	if (w->sfs.f_type == RAMFS_MAGIC || w->sfs.f_type == TMPFS_MAGIC ||
	    w->sfs.f_type == SYSFS_MAGIC)
		w->digest = false;
	if (RST_F(w, PROGRESS) && RST_F(w, MASS_RELABEL) &&
	    !RST_F(w, IGNORE_MOUNTS))
		w->efiles = seclabel_inodes();

	w->nthreads = threads_for(nthreads);
	if (w->nthreads > 1)
		rst_walk_par(w, path, st);
	else
		rst_walk_seq(w, path, st);
	r = w->error;

	if (RST_F(w, PROGRESS) && RST_F(w, MASS_RELABEL))
		fprintf(stdout, "\r%s 100.0%%\n", path);
	if (r == 0 && !w->abort && w->digest && !RST_F(w, NOCHANGE))
		rst_digests_write(w);
	return r;
}

static void walk_free(struct rst_walk *w)
{
	rst_digests_free(w);
	rst_assoc_free(w->assoc);
	free(w->root);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->lock);
}

static int restorecon_common(const char *pathname, unsigned int flags,
			     size_t nthreads)
{
	_cleanup_free_ char *path = NULL;
	struct rst_walk w = {.flags = flags};
	bool have_digest;
	struct stat st;
	int r;

	rst_set_results(0, 0);
	if (!pathname)
		return -EINVAL;
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.cv, NULL);
	r = walk_begin(&w, pathname, &path, &st, &have_digest);
	if (r == 0) {
		/* Digests need a handle that keeps one, a directory to hang
		 * them on and a file system that keeps them across boots; and
		 * NOCHANGE never writes them. */
		w.digest = have_digest && !RST_F(&w, SKIP_DIGEST) &&
			   S_ISDIR(st.st_mode);
		w.dev = st.st_dev;
		if (!RST_F(&w, RECURSE))
			r = rst_excluded(path)
				? 0
				: rst_restore(&w, path, &st, true, -1, NULL);
		else /* analyzer: false positive (gcc null-argument): as
		      * walk_begin's, path is set when it returned 0 */
			r = walk_tree(&w, path, &st, nthreads);
		rst_set_results(w.relabeled, r == 0 ? w.skipped : 0);
	}
	walk_free(&w);
	return r < 0 ? r : 0;
}

_public_ int selinux_restorecon(const char *pathname,
				unsigned int restorecon_flags)
{
	return RET_ERRNO(restorecon_common(pathname, restorecon_flags, 1));
}

_public_ int selinux_restorecon_parallel(const char *pathname,
					 unsigned int restorecon_flags,
					 size_t nthreads)
{
	return RET_ERRNO(
	    restorecon_common(pathname, restorecon_flags, nthreads));
}
