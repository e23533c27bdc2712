/* restore/restorecon.c: selinux_restorecon and its settings. */
#include <dirent.h>
#include <stdarg.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <syslog.h>

#include <selinux/context.h>
#include <selinux/restorecon.h>

#include "../core/compat.h"
#include "internal.h"

#define SYSFS_MAGIC 0x62656572
/* PROGRESS prints once per this many files. */
#define STAR_COUNT 1000

/*
 * Process-wide settings, as the reference keeps them: set by the
 * selinux_restorecon_set_* calls, read by every walk.  Guarded by
 * rc_lock; a walk copies what it needs at its start.
 */
static pthread_mutex_t rc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct selabel_handle *rc_handle; /* the caller's, or ours */
static bool rc_have_digest;		 /* rc_handle has SELABEL_OPT_DIGEST */
static char *rc_root;			 /* alternate root, no trailing '/' */
static size_t rc_rootlen;
static char **rc_excludes; /* caller's exclude list, full paths */
static size_t rc_nexcludes;
static char **rc_mount_excludes; /* non-seclabel mounts, read once */
static size_t rc_nmount_excludes;
static bool rc_mounts_read;
/* Results of the last walk. */
static unsigned long rc_skipped_errors;
static unsigned long rc_relabeled;
/* customizable_types, read once (NULL list: none). */
static char **rc_custom;
static bool rc_custom_read;

/*
 * The reference calls the log callback under a process-wide mutex, so a
 * callback that prints in pieces is never interleaved by the threads of
 * selinux_restorecon_parallel.  core_log takes no lock; until it does,
 * this file's messages are serialized here - the callback only: each
 * thread formats its message before it takes the lock (setfiles -v
 * prints a line per file, and two threads waited on each other's
 * formatting).  A leaf lock: nothing else is taken while it is held.
 */
static pthread_mutex_t rc_log_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * A thread of a parallel walk keeps its messages in a batch of its own
 * and hands them to the callback RC_BATCH_MSGS at a time, under one
 * taking of the lock: setfiles -v prints a line per file, and its
 * stdout (the FILE, its buffer) went from one core to the other at every
 * line.  Each thread's messages keep their order; the threads' order
 * among themselves was never fixed.  A thread flushes its batch before
 * it waits for work and when it ends.
 */
#define RC_BATCH_MSGS 64
#define RC_BATCH_BYTES 16384
struct rc_batch {
	size_t used, n;
	char buf[RC_BATCH_BYTES]; /* per message: its type (an int), its
				   * text with the NUL */
};
static __thread struct rc_batch *rc_batch_mine;

static void rc_batch_flush(struct rc_batch *b)
{
	size_t off = 0;
	int type;

	if (!b || !b->n)
		return;
	pthread_mutex_lock(&rc_log_lock);
	for (size_t i = 0; i < b->n; i++) {
		memcpy(&type, b->buf + off, sizeof(type));
		off += sizeof(type);
		core_log_str(type, b->buf + off);
		off += strlen(b->buf + off) + 1;
	}
	pthread_mutex_unlock(&rc_log_lock);
	b->n = b->used = 0;
}

static void _printf_(2, 3) rc_log(int type, const char *fmt, ...)
{
	struct rc_batch *b = rc_batch_mine;
	char msg[1024], *big;
	int saved = errno;
	const char *m;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	core_log_format(msg, sizeof(msg), &big, fmt, ap);
	va_end(ap);
	m = big ? big : msg;
	len = strlen(m) + 1;
	if (b && sizeof(type) + len <= RC_BATCH_BYTES) {
		if (b->n == RC_BATCH_MSGS ||
		    RC_BATCH_BYTES - b->used < sizeof(type) + len)
			rc_batch_flush(b);
		memcpy(b->buf + b->used, &type, sizeof(type));
		memcpy(b->buf + b->used + sizeof(type), m, len);
		b->used += sizeof(type) + len;
		b->n++;
	} else {
		rc_batch_flush(b);
		pthread_mutex_lock(&rc_log_lock);
		core_log_str(type, m);
		pthread_mutex_unlock(&rc_log_lock);
	}
	free(big);
	errno = saved;
}

/*
 * The inode -> context table of ADD_ASSOC, per walk.  Every file of a
 * setfiles walk passes through it, from every thread: bucket i is
 * guarded by rc_assoc_lock[i % ASSOC_LOCKS], not by rc_lock, so that the
 * threads of a parallel walk rarely wait for each other there.
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
static struct assoc *rc_assoc[ASSOC_BUCKETS];
static pthread_mutex_t rc_assoc_lock[ASSOC_LOCKS] = {
    [0 ... ASSOC_LOCKS - 1] = PTHREAD_MUTEX_INITIALIZER};

static int strv_add(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	/*
	 * analyzer: false positive (gcc malloc-leak): the string belongs to *v,
	 * freed with it; GCC 12 loses stores through an index.
	 */
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -ENOMEM;
	nv[++*n] = NULL;
	return 0;
}

_public_ struct selabel_handle *selinux_restorecon_default_handle(void)
{
	struct selinux_opt opts[] = {{SELABEL_OPT_DIGEST, (char *)1}};
	struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, opts, 1);

	if (!h)
		rc_log(SELINUX_ERROR,
		       "Error obtaining file context handle: %s\n",
		       strerror(errno));
	return h;
}

static void set_handle_locked(struct selabel_handle *h)
{
	unsigned char *d;
	size_t dlen, nf;
	char **files;

	rc_handle = h;
	/* The digests are used only when the handle was asked for one. */
	rc_have_digest = h && selabel_digest(h, &d, &dlen, &files, &nf) == 0;
}

_public_ void selinux_restorecon_set_sehandle(struct selabel_handle *hndl)
{
	pthread_mutex_lock(&rc_lock);
	set_handle_locked(hndl);
	pthread_mutex_unlock(&rc_lock);
}

/* The handle for a walk: the one set, or the default opened now.  A failed
 * default open is retried by the next call (the reference gives up for the
 * life of the process). */
int rst_handle(struct selabel_handle **h, bool *have_digest)
{
	int r = 0;

	pthread_mutex_lock(&rc_lock);
	if (!rc_handle) {
		struct selabel_handle *d = selinux_restorecon_default_handle();

		if (d)
			set_handle_locked(d);
		else
			r = -errno;
	}
	*h = rc_handle;
	if (have_digest)
		*have_digest = rc_have_digest;
	pthread_mutex_unlock(&rc_lock);
	return r;
}

_public_ void selinux_restorecon_set_exclude_list(const char **exclude_list)
{
	struct stat st;

	pthread_mutex_lock(&rc_lock);
	for (size_t i = 0; exclude_list && exclude_list[i]; i++) {
		const char *p = exclude_list[i];

		if (lstat(p, &st) < 0) {
			rc_log(SELINUX_ERROR,
			       "lstat error on exclude path \"%s\", %s - "
			       "ignoring.\n",
			       p, strerror(errno));
			continue;
		}
		if (p[0] != '/') {
			rc_log(SELINUX_ERROR,
			       "Full path required for exclude: %s.\n", p);
			continue;
		}
		if (strv_add(&rc_excludes, &rc_nexcludes, p) < 0) {
			rc_log(SELINUX_ERROR, "%s:  Out of memory\n", __func__);
			continue;
		}
		/* "/a/" excludes /a: compare without trailing slashes. */
		for (char *e = rc_excludes[rc_nexcludes - 1],
			  *z = e + strlen(e);
		     z > e + 1 && z[-1] == '/';)
			*--z = '\0';
	}
	pthread_mutex_unlock(&rc_lock);
}

_public_ int selinux_restorecon_set_alt_rootpath(const char *alt_rootpath)
{
	char *r = alt_rootpath ? strdup(alt_rootpath) : NULL;
	size_t n;

	if (alt_rootpath && !r) {
		rc_log(SELINUX_ERROR, "%s:  Out of memory\n", __func__);
		return RET_ERRNO(-ENOMEM);
	}
	n = r ? strlen(r) : 0;
	while (n && r[n - 1] == '/')
		r[--n] = '\0';
	pthread_mutex_lock(&rc_lock);
	free(rc_root);
	rc_root = r;
	rc_rootlen = n;
	pthread_mutex_unlock(&rc_lock);
	return 0;
}

_public_ long unsigned selinux_restorecon_get_skipped_errors(void)
{
	unsigned long n;

	pthread_mutex_lock(&rc_lock);
	n = rc_skipped_errors;
	pthread_mutex_unlock(&rc_lock);
	return n;
}

_public_ long unsigned selinux_restorecon_get_relabeled_files(void)
{
	unsigned long n;

	pthread_mutex_lock(&rc_lock);
	n = rc_relabeled;
	pthread_mutex_unlock(&rc_lock);
	return n;
}

/*
 * Mount points without the seclabel option hold no labels worth checking.
 * Like the reference, only consulted when SELinux is enabled (a kernel
 * without SELinux shows seclabel nowhere).  Caller holds rc_lock.
 */
static void read_mount_excludes_locked(void)
{
	_cleanup_fclose_ FILE *f = NULL;
	char *line = NULL;
	size_t cap = 0;

	if (rc_mounts_read)
		return;
	rc_mounts_read = true;
	if (is_selinux_enabled() <= 0)
		return;
	f = fopen("/proc/mounts", "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char dev[4096], mnt[4096], type[256], opts[4096];
		bool seclabel = false;

		if (sscanf(line, "%4095s %4095s %255s %4095s", dev, mnt, type,
			   opts) != 4)
			continue;
		for (char *s, *t = strtok_r(opts, ",", &s); t;
		     t = strtok_r(NULL, ",", &s))
			if (!strcmp(t, "seclabel"))
				seclabel = true;
		if (!seclabel)
			strv_add(&rc_mount_excludes, &rc_nmount_excludes, mnt);
	}
	free(line);
}

/* path is an excluded directory or below one.  Only directories are
 * checked during a walk (as by the reference): a file named explicitly
 * below an excluded directory is still relabelled. */
static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

bool rst_excluded(const char *path)
{
	bool ex = false;

	pthread_mutex_lock(&rc_lock);
	for (size_t i = 0; !ex && i < rc_nexcludes; i++)
		ex = below(path, rc_excludes[i]);
	for (size_t i = 0; !ex && i < rc_nmount_excludes; i++)
		ex = below(path, rc_mount_excludes[i]);
	pthread_mutex_unlock(&rc_lock);
	return ex;
}

void rst_read_mounts(void)
{
	pthread_mutex_lock(&rc_lock);
	read_mount_excludes_locked();
	pthread_mutex_unlock(&rc_lock);
}

/* customizable_types: one type a line.  Caller holds rc_lock. */
static void read_custom_locked(void)
{
	_cleanup_fclose_ FILE *f = NULL;
	char *line = NULL;
	size_t cap = 0, n = 0;
	const char *p;

	if (rc_custom_read)
		return;
	rc_custom_read = true;
	p = selinux_customizable_types_path();
	f = p ? fopen(p, "re") : NULL;
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *s = line + strspn(line, " \t");

		s[strcspn(s, " \t\r\n")] = '\0';
		if (*s && *s != '#')
			strv_add(&rc_custom, &n, s);
	}
	free(line);
}

static bool is_customizable(const char *con)
{
	context_t c = context_new(con);
	const char *t = c ? context_type_get(c) : NULL;
	bool r = false;

	pthread_mutex_lock(&rc_lock);
	read_custom_locked();
	for (size_t i = 0; t && rc_custom && rc_custom[i] && !r; i++)
		r = !strcmp(rc_custom[i], t);
	pthread_mutex_unlock(&rc_lock);
	if (c)
		context_free(c);
	return r;
}

/*
 * Without SET_SPECFILE_CTX only part of the spec context is applied:
 * *newcon becomes curcon with the spec's type and, with user_role
 * (SET_USER_ROLE), the spec's user and role too.  The range is always
 * the file's own, as restorecon(8) -U documents: "also change the user
 * and role portions, but not the range portion".
 */
static int merge_spec(const char *curcon, char **newcon, bool user_role)
{
	context_t cc = context_new(curcon), nc = context_new(*newcon);
	const char *s;
	char *d;
	int r = 0;

	if (!cc || !nc) {
		r = -EINVAL;
	} else if (context_type_set(cc, context_type_get(nc)) < 0 ||
		   (user_role &&
		    (context_user_set(cc, context_user_get(nc)) < 0 ||
		     context_role_set(cc, context_role_get(nc)) < 0)) ||
		   !(s = context_str(cc)) || !(d = strdup(s))) {
		r = -ENOMEM;
	} else {
		free(*newcon);
		*newcon = d;
	}
	if (cc)
		context_free(cc);
	if (nc)
		context_free(nc);
	return r;
}

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

/* Called under rc_lock, at the start and end of a walk. */
static void assoc_clear_locked(void)
{
	for (size_t i = 0; i < ASSOC_BUCKETS; i++) {
		struct assoc *a;

		pthread_mutex_lock(&rc_assoc_lock[i % ASSOC_LOCKS]);
		a = rc_assoc[i];
		rc_assoc[i] = NULL;
		pthread_mutex_unlock(&rc_assoc_lock[i % ASSOC_LOCKS]);
		assoc_free(a);
	}
}

/*
 * ADD_ASSOC: 0 when file is the inode's first path (recorded), 1 when an
 * earlier path of the same inode decides its label, -errno on a conflict
 * treated as an error or on allocation failure.  The new entry is made
 * before the bucket is locked; only the search and the link are inside.
 */
static int assoc_add(const struct stat *st, const char *con, const char *file,
		     bool conflict_error)
{
	size_t i = st->st_ino % ASSOC_BUCKETS;
	pthread_mutex_t *lock = &rc_assoc_lock[i % ASSOC_LOCKS];
	struct assoc *n = calloc(1, sizeof(*n)), *a;
	char *old = NULL;
	int r = 0;

	if (!n || !(n->con = strdup(con)) || !(n->file = strdup(file))) {
		assoc_free(n);
		n = NULL;
	}
	pthread_mutex_lock(lock);
	for (a = rc_assoc[i]; a; a = a->next)
		if (a->ino == st->st_ino && a->dev == st->st_dev)
			break;
	if (a) {
		r = 1;
		if (!n) {
			r = -ENOMEM;
		} else if (strcmp(a->con, con)) {
			rc_log(SELINUX_ERROR,
			       "conflicting specifications for %s and %s, "
			       "using %s.\n",
			       file, a->file, a->con);
			if (conflict_error) {
				rc_log(SELINUX_ERROR,
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
		n->next = rc_assoc[i];
		rc_assoc[i] = n;
		n = NULL;
	}
	pthread_mutex_unlock(lock);
	free(old);
	assoc_free(n);
	return r;
}

/* What one walk needs, fixed at its start. */
struct walk {
	struct selabel_handle *h;
	unsigned int flags;
	bool verbose;
	bool digest; /* check and write security.sehash */
	char *root;
	size_t rootlen;
	unsigned long long efiles; /* MASS_RELABEL: inodes in use */
	dev_t dev;		   /* XDEV: the device the walk started on */
	size_t nthreads;
	struct statfs sfs;
	/* Guarded by lock, with the directories waiting to be read (several
	 * threads: par_*). */
	pthread_mutex_t lock;
	pthread_cond_t cv;
	struct pdir *todo;
	size_t pending; /* directories in todo or being read */
	unsigned long long count;
	unsigned long skipped;
	unsigned long relabeled;
	int error;
	bool abort;
	struct digest_node *digests;
};

struct digest_node {
	char *path;
	uint8_t digest[LBL_SHA1_LEN];
	struct digest_node *next;
};

#define F(w, f) (((w)->flags & SELINUX_RESTORECON_##f) != 0)

static void progress(struct walk *w)
{
	unsigned long long n;

	pthread_mutex_lock(&w->lock);
	n = ++w->count;
	pthread_mutex_unlock(&w->lock);
	if (n % STAR_COUNT)
		return;
	if (F(w, MASS_RELABEL) && w->efiles) {
		double pc = (double)n / (double)w->efiles * 100.0;

		fprintf(stdout, "\r%-.1f%%", pc < 99.9 ? pc : 99.9);
	} else {
		fprintf(stdout, "\r%lluk", n / STAR_COUNT);
	}
	fflush(stdout);
}

/*
 * Check and fix one file.  0 (also "no spec matches"), or -errno after
 * logging why.
 */
/*
 * path: the entry's full path; dirfd and name, when dirfd >= 0, the same
 * entry as a name in a directory the walk holds open (its label is read
 * relative to it, core_xattr_get_at).
 */
static int restore_one(struct walk *w, const char *path, const struct stat *st,
		       bool first, int dirfd, const char *name)
{
	_cleanup_free_ char *newcon = NULL, *curcon = NULL;
	const char *key = path;
	ssize_t n;
	int r;

	/* A second name of an inode may have been made by whoever can write
	 * the directory being relabelled (a home, /tmp): relabelling through
	 * it would change a file that lives elsewhere, perhaps another
	 * user's.  Not an error: the walk goes on.  3.11 says so for each
	 * file skipped, VERBOSE or not, before any lookup; 3.4 and 3.8.1
	 * ignore the flag, as any bit they do not know (measured). */
	if (F(w, SKIP_MULTILINK) && compat_since(3, 11) &&
	    !S_ISDIR(st->st_mode) && st->st_nlink > 1) {
		rc_log(SELINUX_INFO, "Skipping %s: file has multiple links\n",
		       path);
		return 0;
	}
	if (w->root) {
		if (strncmp(w->root, path, w->rootlen)) {
			rc_log(SELINUX_ERROR,
			       "%s is not located in alt_rootpath %s\n", path,
			       w->root);
			return -EINVAL;
		}
		key = path[w->rootlen] ? path + w->rootlen : "/";
	}
	if (selabel_lookup_raw(w->h, &newcon, key, st->st_mode) < 0) {
		r = -errno;
		if (r == -ENOENT) {
			if (first)
				rc_log(SELINUX_INFO,
				       "Warning no default label for %s\n",
				       key);
			return 0;
		}
		return r;
	}
	if (F(w, PROGRESS))
		progress(w);
	if (F(w, ADD_ASSOC)) {
		r = assoc_add(st, newcon, path, F(w, CONFLICT_ERROR));
		if (r < 0) {
			rc_log(SELINUX_ERROR, "filespec_add error: %s\n", path);
			return r;
		}
		if (r > 0)
			return 0;
	}
	if (F(w, LOG_MATCHES))
		rc_log(SELINUX_INFO, "%s matched by %s\n", path, newcon);

	/* An entry removed since the walk listed it is gone, not an error:
	 * the reference reads and sets the label through a descriptor it
	 * opened before the lookup, on the removed file, and says nothing
	 * (later releases skip such entries, as this does). */
	n = core_xattr_get_at(dirfd, name, path, &curcon);
	if (n == -ENOENT)
		return 0;
	if (n < 0 && n != -ENODATA) {
		r = (int)n;
		goto err;
	}
	if (curcon && !strcmp(curcon, newcon))
		return 0;
	if (curcon && !F(w, SET_SPECFILE_CTX)) {
		if (is_customizable(curcon)) {
			if (w->verbose)
				rc_log(SELINUX_INFO,
				       "%s not reset as customized by admin "
				       "to %s\n",
				       path, curcon);
			return 0;
		}
		/* SET_USER_ROLE: since 3.11 (3.8.1 ignores the bit) */
		r = merge_spec(curcon, &newcon,
			       F(w, SET_USER_ROLE) && compat_since(3, 11));
		if (r < 0)
			goto err;
		if (!strcmp(curcon, newcon))
			return 0;
	}
	if (!F(w, NOCHANGE)) {
		r = core_xattr_set(path, -1, CORE_XATTR_NOFOLLOW, newcon);
		if (r == -ENOENT)
			return 0; /* removed meanwhile, as above */
		if (r < 0)
			goto err;
	}
	/* 3.11 counts the files relabelled, not those NOCHANGE would
	 * (measured: 0 after a NOCHANGE walk that logged changes). */
	if (F(w, COUNT_RELABELED) && !F(w, NOCHANGE)) {
		pthread_mutex_lock(&w->lock);
		w->relabeled++;
		pthread_mutex_unlock(&w->lock);
	}
	/* An unlabelled file: 3.4 hands its null context to "%s", which
	 * glibc prints as "(null)"; 3.8 onwards print "<no context>". */
	if (w->verbose)
		rc_log(SELINUX_INFO, "%s %s from %s to %s\n",
		       F(w, NOCHANGE) ? "Would relabel" : "Relabeled", path,
		       curcon			? curcon
		       : compat_since(3, 8)	? "<no context>"
						: "(null)",
		       newcon);
	if (F(w, SYSLOG_CHANGES) && !F(w, NOCHANGE)) {
		if (curcon)
			syslog(LOG_INFO, "relabeling %s from %s to %s\n", path,
			       curcon, newcon);
		else
			syslog(LOG_INFO, "labeling %s to %s\n", path, newcon);
	}
	return 0;
err:
	rc_log(SELINUX_ERROR, "Could not set context for %s:  %s\n", path,
	       strerror(-r));
	return r;
}

/*
 * A directory whose stored digest equals the digest of the specs that can
 * match below it needs no walk.  Otherwise remember the new digest, to be
 * written once the walk succeeded.  Caller holds w->lock.
 */
static bool digest_matches(struct walk *w, const char *path)
{
	uint8_t *calc = NULL, *stored = NULL;
	size_t len = 0;
	bool match = selabel_get_digests_all_partial_matches(w->h, path, &calc,
							     &stored, &len);

	if (!match && calc && !w->error && len == LBL_SHA1_LEN) {
		struct digest_node *d = calloc(1, sizeof(*d));

		if (d && (d->path = strdup(path))) {
			memcpy(d->digest, calc, LBL_SHA1_LEN);
			d->next = w->digests;
			w->digests = d;
		} else {
			free(d);
		}
	}
	free(calc);
	free(stored);
	return match;
}

/* A failed entry's fate, as the flags say.  Caller holds w->lock. */
static void account(struct walk *w, int r)
{
	if (F(w, ABORT_ON_ERROR)) {
		w->error = r;
		__atomic_store_n(&w->abort, true, __ATOMIC_RELAXED);
	} else if (F(w, COUNT_ERRORS)) {
		w->skipped++;
	} else {
		w->error = r;
	}
}

/*
 * The walk of several threads.  fts is one stream: whoever reads it
 * holds the walk's lock, and its reading (getdents, the stat of every
 * directory, its allocations) was a quarter of a walk, which bounded two
 * threads to ~1.5 times one.  Here each thread reads whole directories
 * of its own instead: a directory found is pushed on a shared stack
 * (w->todo), a thread pops one, reads it with readdir and fstatat
 * relative to it (no path walk from / per entry), restores each entry and
 * pushes the subdirectories it may descend.  The lock is held only to
 * push and pop, and for what fts's reader did under it (the digests).
 * The walk ends when no directory is waiting or being read (w->pending).
 *
 * What the one-thread walk does through fts is done here by hand, with
 * fts's messages: a physical walk (no symlink followed, O_NOFOLLOW), a
 * directory that is its own ancestor (a bind mount) ends the walk with
 * ELOOP ("Directory cycle"), XDEV leaves other file systems' mount
 * points alone, and the checks a directory gets before it is read
 * (exclusions, sysfs, digests) are the same.  The order of the messages
 * is the threads', as before.
 */
struct pdir {
	struct pdir *next;   /* on w->todo */
	struct pdir *parent; /* a reference: the ancestors, for cycles */
	unsigned refs;	     /* the walk's (until read) + each child's */
	dev_t dev;
	ino_t ino;
	char *names;   /* a chunk: these entries of the directory, else NULL */
	size_t nnames; /* (NUL-separated; the chunk owns them) */
	char path[];
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

/* Under w->lock. */
static void par_fail(struct walk *w, int r)
{
	w->error = r;
	__atomic_store_n(&w->abort, true, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&w->cv);
}

/*
 * A directory just found (path, st), below parent (NULL: the root):
 * whether it is to be restored, and to be read.  fts's reader made these
 * checks under the lock; digest_matches still needs it.
 */
/* The walk leaves a directory found alone, silently: another file
 * system under XDEV, sysfs where no spec reaches, an excluded path. */
static bool dir_left_out(struct walk *w, const char *path,
			 const struct stat *st)
{
	return (F(w, XDEV) && st->st_dev != w->dev) ||
	       (w->sfs.f_type == SYSFS_MAGIC &&
		!selabel_partial_match(w->h, path)) ||
	       rst_excluded(path);
}

/* A file (not a directory) found on another file system than the walk's
 * start, under XDEV (a file bind-mounted into the tree): left alone,
 * silently, as directories are - 3.4, 3.8.1 and 3.11 alike (measured;
 * setfiles always sets XDEV).  Named as the walk's start it is
 * relabelled. */
static bool file_left_out(const struct walk *w, const struct stat *st)
{
	return F(w, XDEV) && st->st_dev != w->dev;
}

/* Whether a directory's stored digest lets the walk skip it (said so);
 * takes w->lock for digest_matches. */
static bool dir_digest_skip(struct walk *w, const char *path)
{
	bool skip;

	if (!w->digest)
		return false;
	pthread_mutex_lock(&w->lock);
	skip = digest_matches(w, path) && !F(w, IGNORE_DIGEST);
	pthread_mutex_unlock(&w->lock);
	if (skip)
		rc_log(SELINUX_INFO, "Skipping restorecon on directory(%s)\n",
		       path);
	return skip;
}

static bool par_dir_ok(struct walk *w, const char *path, const struct stat *st,
		       struct pdir *parent)
{
	if (dir_left_out(w, path, st))
		return false;
	if (pdir_cycle(parent, st)) {
		rc_log(SELINUX_ERROR, "Directory cycle on %s.\n", path);
		pthread_mutex_lock(&w->lock);
		par_fail(w, -ELOOP);
		pthread_mutex_unlock(&w->lock);
		return false;
	}
	return !dir_digest_skip(w, path);
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

/* Restores one entry, accounting a failure as the flags say. */
static void par_restore(struct walk *w, const char *path,
			const struct stat *st, bool first, int dirfd,
			const char *name)
{
	int r = restore_one(w, path, st, first, dirfd, name);

	if (r < 0) {
		pthread_mutex_lock(&w->lock);
		account(w, r);
		pthread_mutex_unlock(&w->lock);
	}
}

/*
 * A directory of many entries would keep one thread busy while the other
 * has nothing to do (the root of /usr/share/doc, man1): its entries are
 * restored in chunks of PAR_CHUNK, the first by the thread that read
 * it, the others pushed for any thread.  A chunk is an entry of the
 * stack with the directory's path and identity and the chunk's names.
 */
#define PAR_CHUNK 64

/* Restores entries (NUL-separated) of directory d (open as fd): returns
 * the subdirectories to read next as a list (through ->next). */
static struct pdir *par_entries(struct walk *w, struct pdir *d, int fd,
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

		if (__atomic_load_n(&w->abort, __ATOMIC_RELAXED))
			break;
		if (len + 1 + n >= PATH_MAX) {
			char *full = NULL;

			if (asprintf(&full, "%s/%s", len ? d->path : "",
				     names) >= 0) {
				rc_log(SELINUX_ERROR,
				       "Could not set context for %s:  %s\n",
				       full, strerror(ENAMETOOLONG));
				free(full);
			}
			pthread_mutex_lock(&w->lock);
			account(w, -ENAMETOOLONG);
			pthread_mutex_unlock(&w->lock);
			continue;
		}
		memcpy(path + len + 1, names, n + 1);
		if (fstatat(fd, names, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rc_log(SELINUX_ERROR, "Could not stat %s: %s.\n", path,
			       strerror(errno));
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (!file_left_out(w, &st))
				par_restore(w, path, &st, false, fd, names);
			continue;
		}
		if (!par_dir_ok(w, path, &st, d))
			continue;
		par_restore(w, path, &st, false, fd, names);
		sub = pdir_new(path, len + 1 + n, &st, d);
		if (!sub) {
			pthread_mutex_lock(&w->lock);
			par_fail(w, -ENOMEM);
			pthread_mutex_unlock(&w->lock);
			break;
		}
		sub->next = found;
		found = sub;
	}
	return found;
}

/* Pushes the list (through ->next, n entries) on the stack.  Under
 * w->lock. */
static void par_push(struct walk *w, struct pdir *list, size_t n)
{
	struct pdir *last = list;

	if (!list)
		return;
	while (last->next)
		last = last->next;
	last->next = w->todo;
	w->todo = list;
	w->pending += n;
	if (n > 1)
		pthread_cond_broadcast(&w->cv);
	else
		pthread_cond_signal(&w->cv);
}

/*
 * The names of directory path (open as dir), NUL-separated, into *names
 * (malloc'd); their number, or -1 after an error was logged and
 * accounted.
 */
static ssize_t par_list(struct walk *w, const char *path, DIR *dir,
			char **names)
{
	size_t used = 0, cap = 0, n = 0;
	struct dirent *e;
	char *buf = NULL;

	while ((errno = 0, e = readdir(dir)) != NULL) {
		size_t len = strlen(e->d_name) + 1;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (cap - used < len) {
			char *b;

			cap = cap ? 2 * cap : 4096;
			if (cap - used < len)
				cap = used + len;
			b = realloc(buf, cap);
			if (!b) {
				free(buf);
				pthread_mutex_lock(&w->lock);
				par_fail(w, -ENOMEM);
				pthread_mutex_unlock(&w->lock);
				return -1;
			}
			buf = b;
		}
		memcpy(buf + used, e->d_name, len);
		used += len;
		n++;
	}
	if (errno)
		rc_log(SELINUX_ERROR, "Error on %s: %s.\n", path,
		       strerror(errno));
	*names = buf;
	return (ssize_t)n;
}

/*
 * Works on d, a directory to read or a chunk of one: restores entries,
 * pushes the subdirectories found (and, for a large directory, its
 * chunks after the first).
 */
static void par_read(struct walk *w, struct pdir *d)
{
	struct pdir *chunks = NULL, *found;
	size_t nchunks = 0;
	char *names = NULL;
	ssize_t n;
	DIR *dir;
	int fd;

	fd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		rc_log(SELINUX_ERROR, "Could not read %s: %s.\n", d->path,
		       strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	if (d->names) {
		found = par_entries(w, d, fd, d->names, d->nnames);
	} else {
		n = par_list(w, d->path, dir, &names);
		if (n < 0)
			goto out;
		/* The chunks after the first, each with its own names. */
		const char *p = names;
		size_t first = (size_t)n < PAR_CHUNK ? (size_t)n : PAR_CHUNK;

		for (size_t i = 0; i < first; i++)
			p += strlen(p) + 1;
		for (size_t i = first; i < (size_t)n; i += PAR_CHUNK) {
			size_t k = (size_t)n - i < PAR_CHUNK ? (size_t)n - i
							       : PAR_CHUNK;
			const char *q = p;
			struct pdir *c;

			for (size_t j = 0; j < k; j++)
				q += strlen(q) + 1;
			c = calloc(1, sizeof(*c) + strlen(d->path) + 1);
			if (!c || !(c->names = malloc((size_t)(q - p)))) {
				free(c);
				pthread_mutex_lock(&w->lock);
				par_fail(w, -ENOMEM);
				pthread_mutex_unlock(&w->lock);
				break;
			}
			memcpy(c->names, p, (size_t)(q - p));
			c->nnames = k;
			strcpy(c->path, d->path);
			c->dev = d->dev;
			c->ino = d->ino;
			c->refs = 1;
			c->parent = d->parent;
			if (c->parent)
				__atomic_add_fetch(&c->parent->refs, 1,
						   __ATOMIC_RELAXED);
			c->next = chunks;
			chunks = c;
			nchunks++;
			p = q;
		}
		if (chunks) {
			pthread_mutex_lock(&w->lock);
			par_push(w, chunks, nchunks);
			pthread_mutex_unlock(&w->lock);
		}
		found = par_entries(w, d, fd, names, first);
	}
	if (found) {
		size_t k = 0;

		for (struct pdir *f = found; f; f = f->next)
			k++;
		pthread_mutex_lock(&w->lock);
		par_push(w, found, k);
		pthread_mutex_unlock(&w->lock);
	}
out:
	free(names);
	closedir(dir);
}

/* One thread of the walk: pop, read, push, until nothing is pending. */
static void *par_thread(void *arg)
{
	struct walk *w = arg;
	struct rc_batch *b = malloc(sizeof(*b)); /* NULL: log at once */

	if (b)
		b->n = b->used = 0;
	rc_batch_mine = b;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct pdir *d;

		if (!w->todo && w->pending && !w->abort && b && b->n) {
			/* (rc_log_lock is a leaf lock: not under w->lock) */
			pthread_mutex_unlock(&w->lock);
			rc_batch_flush(b);
			pthread_mutex_lock(&w->lock);
			continue;
		}
		while (!w->todo && w->pending && !w->abort)
			pthread_cond_wait(&w->cv, &w->lock);
		if (!w->todo || w->abort)
			break;
		d = w->todo;
		w->todo = d->next;
		pthread_mutex_unlock(&w->lock);

		par_read(w, d);

		pthread_mutex_lock(&w->lock);
		w->pending--;
		if (!w->pending || w->abort)
			pthread_cond_broadcast(&w->cv);
		pdir_put(d);
	}
	pthread_mutex_unlock(&w->lock);
	rc_batch_flush(b);
	rc_batch_mine = NULL;
	free(b);
	return NULL;
}

/* The walk from path (lstat'ed into st) with w->nthreads threads. */
static void par_walk(struct walk *w, const char *path, const struct stat *st)
{
	pthread_t *t;
	size_t started = 0;
	struct pdir *root;

	pthread_cond_init(&w->cv, NULL);
	if (!S_ISDIR(st->st_mode)) {
		par_restore(w, path, st, true, -1, NULL);
		goto out;
	}
	if (!par_dir_ok(w, path, st, NULL))
		goto out;
	par_restore(w, path, st, true, -1, NULL);
	root = pdir_new(path, strlen(path), st, NULL);
	if (!root) {
		w->error = -ENOMEM;
		goto out;
	}
	root->next = NULL;
	w->todo = root;
	w->pending = 1;
	t = calloc(w->nthreads - 1, sizeof(*t));
	for (size_t i = 0; t && i < w->nthreads - 1; i++, started++)
		if (pthread_create(&t[i], NULL, par_thread, w))
			break;
	par_thread(w);
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
	/* What an abort left on the stack. */
	while (w->todo) {
		struct pdir *d = w->todo;

		w->todo = d->next;
		pdir_put(d);
	}
out:
	pthread_cond_destroy(&w->cv);
}

/*
 * The walk of one thread: the entries in fts's order - a directory, then
 * each of its entries in the order readdir gives them, a subdirectory's
 * whole tree before the next entry - with fts's messages, so that they
 * come in the order of the reference's walk (fts_open with FTS_PHYSICAL |
 * FTS_NOCHDIR, no comparison).  But fts in that mode stats every entry
 * by its full path, a walk of the path from / each time; here a
 * directory is held open while its entries are handled, and they are
 * stat'ed, and their labels read (core_xattr_get_at), relative to it.
 * An explicit stack, not recursion: a tree may be as deep as PATH_MAX
 * allows.  Below SEQ_OPEN_DEPTH levels a directory is closed once
 * listed and its entries go by full path, so that a deep tree does not
 * hold a descriptor per level.
 */
#define SEQ_OPEN_DEPTH 64

struct seq_dir {
	DIR *dir;	  /* NULL: closed once listed */
	int fd;		  /* dirfd(dir), or -1: entries by full path */
	char *names;	  /* its entries, NUL-separated (par_list) */
	const char *next; /* the next of them */
	size_t left;	  /* how many are left */
	size_t len;	  /* its path's length, without a final '/' */
	dev_t dev;
	ino_t ino;
};

struct seq_walk {
	struct walk *w;
	struct seq_dir *dirs; /* the stack: the directories being read */
	size_t n, cap;
	char *path; /* PATH_MAX bytes: the entry at hand's full path */
};

/*
 * A directory found (sw->path, st): whether to restore and enter it, as
 * the reference's walk decides on fts's FTS_D (and FTS_DC before it).
 */
static bool seq_dir_ok(struct seq_walk *sw, const struct stat *st)
{
	struct walk *w = sw->w;
	const char *path = sw->path;

	for (size_t i = 0; i < sw->n; i++)
		if (sw->dirs[i].dev == st->st_dev &&
		    sw->dirs[i].ino == st->st_ino) {
			rc_log(SELINUX_ERROR, "Directory cycle on %s.\n", path);
			w->error = -ELOOP;
			__atomic_store_n(&w->abort, true, __ATOMIC_RELAXED);
			return false;
		}
	return !dir_left_out(w, path, st) && !dir_digest_skip(w, path);
}

static void seq_leave(struct seq_dir *d)
{
	if (d->dir)
		closedir(d->dir);
	free(d->names);
}

/*
 * Enter the directory sw->path (len bytes; name in parent, an open
 * directory, or parent -1): list it on top of the stack.  A directory
 * that cannot be read is logged as fts's FTS_DNR and left.
 */
static void seq_enter(struct seq_walk *sw, size_t len, const struct stat *st,
		      int parent, const char *name)
{
	struct walk *w = sw->w;
	struct seq_dir *d;
	ssize_t k;
	int fd;

	if (sw->n == sw->cap) {
		size_t c = sw->cap ? 2 * sw->cap : 16;
		struct seq_dir *v = reallocarray(sw->dirs, c, sizeof(*v));

		if (!v) {
			w->error = -ENOMEM;
			__atomic_store_n(&w->abort, true, __ATOMIC_RELAXED);
			return;
		}
		sw->dirs = v;
		sw->cap = c;
	}
	d = &sw->dirs[sw->n];
	fd = parent >= 0 ? openat(parent, name, O_RDONLY | O_DIRECTORY |
						    O_NOFOLLOW | O_CLOEXEC)
			 : open(sw->path,
				O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(d->dir = fdopendir(fd))) {
		rc_log(SELINUX_ERROR, "Could not read %s: %s.\n", sw->path,
		       strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	d->names = NULL;
	k = par_list(w, sw->path, d->dir, &d->names);
	if (k < 0) {
		closedir(d->dir);
		return;
	}
	d->fd = fd;
	if (sw->n >= SEQ_OPEN_DEPTH) {
		closedir(d->dir);
		d->dir = NULL;
		d->fd = -1;
	}
	d->next = d->names;
	d->left = (size_t)k;
	/* "/" and "dir/": the entries are "/name", "dir/name" */
	d->len = len && sw->path[len - 1] == '/' ? len - 1 : len;
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	sw->n++;
}

/* The next entry of the directory on top of the stack. */
static void seq_step(struct seq_walk *sw)
{
	struct seq_dir *d = &sw->dirs[sw->n - 1];
	struct walk *w = sw->w;
	const char *name = d->next;
	size_t nl = strlen(name), len = d->len;
	int fd = d->fd;
	struct stat st;

	d->next += nl + 1;
	d->left--;
	if (len + 1 + nl >= PATH_MAX) {
		/* fts's lstat of the full path fails: FTS_NS */
		char *full = NULL;

		if (asprintf(&full, "%.*s/%s", (int)len, sw->path, name) >= 0) {
			rc_log(SELINUX_ERROR, "Could not stat %s: %s.\n", full,
			       strerror(ENAMETOOLONG));
			free(full);
		}
		return;
	}
	sw->path[len] = '/';
	memcpy(sw->path + len + 1, name, nl + 1);
	if (fstatat(fd >= 0 ? fd : AT_FDCWD, fd >= 0 ? name : sw->path, &st,
		    AT_SYMLINK_NOFOLLOW) < 0) {
		rc_log(SELINUX_ERROR, "Could not stat %s: %s.\n", sw->path,
		       strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!file_left_out(w, &st))
			par_restore(w, sw->path, &st, false, fd, name);
		return;
	}
	if (!seq_dir_ok(sw, &st))
		return;
	par_restore(w, sw->path, &st, false, fd, name);
	if (!__atomic_load_n(&w->abort, __ATOMIC_RELAXED))
		seq_enter(sw, len + 1 + nl, &st, fd, name);
}

/* The walk from root (lstat'ed into st) in one thread. */
static void seq_walk(struct walk *w, const char *root, const struct stat *st)
{
	struct seq_walk sw = {.w = w};

	pthread_cond_init(&w->cv, NULL); /* par_list's failure broadcasts */
	if (!S_ISDIR(st->st_mode)) {
		par_restore(w, root, st, true, -1, NULL);
		goto out;
	}
	sw.path = malloc(PATH_MAX);
	if (!sw.path) {
		w->error = -ENOMEM;
		goto out;
	}
	/* the root was lstat'ed: its path is shorter than PATH_MAX */
	snprintf(sw.path, PATH_MAX, "%s", root);
	if (!seq_dir_ok(&sw, st))
		goto out;
	par_restore(w, root, st, true, -1, NULL);
	if (!__atomic_load_n(&w->abort, __ATOMIC_RELAXED))
		seq_enter(&sw, strlen(sw.path), st, -1, NULL);
	while (sw.n && !__atomic_load_n(&w->abort, __ATOMIC_RELAXED)) {
		if (!sw.dirs[sw.n - 1].left)
			seq_leave(&sw.dirs[--sw.n]);
		else
			seq_step(&sw);
	}
	while (sw.n)
		seq_leave(&sw.dirs[--sw.n]);
out:
	free(sw.dirs);
	free(sw.path);
	pthread_cond_destroy(&w->cv);
}

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
		bool seclabel = false;

		if (sscanf(line, "%4095s %4095s %255s %4095s", dev, mnt, type,
			   opts) != 4)
			continue;
		for (char *s, *t = strtok_r(opts, ",", &s); t;
		     t = strtok_r(NULL, ",", &s))
			if (!strcmp(t, "seclabel"))
				seclabel = true;
		if (seclabel && statvfs(mnt, &sv) == 0 &&
		    sv.f_files >= sv.f_ffree)
			n += sv.f_files - sv.f_ffree;
	}
	free(line);
	return n;
}

static void digests_write(struct walk *w)
{
	for (struct digest_node *d = w->digests; d; d = d->next)
		if (setxattr(d->path, SEHASH_XATTR, d->digest, LBL_SHA1_LEN,
			     0) < 0)
			rc_log(SELINUX_ERROR, "setxattr failed: %s: %s\n",
			       d->path, strerror(errno));
}

static void digests_free(struct walk *w)
{
	while (w->digests) {
		struct digest_node *n = w->digests->next;

		free(w->digests->path);
		free(w->digests);
		w->digests = n;
	}
}

static int restorecon_common(const char *pathname, unsigned int flags,
			     size_t nthreads)
{
	_cleanup_free_ char *path = NULL;
	struct walk w = {.flags = flags, .lock = PTHREAD_MUTEX_INITIALIZER};
	bool have_digest;
	struct stat st;
	int r;

	pthread_mutex_lock(&rc_lock);
	rc_skipped_errors = 0;
	rc_relabeled = 0;
	pthread_mutex_unlock(&rc_lock);
	if (!pathname)
		return -EINVAL;
	w.verbose = F(&w, VERBOSE) && !F(&w, PROGRESS);
	r = rst_handle(&w.h, &have_digest);
	if (r < 0)
		return r;
	/*
	 * analyzer: false positive (gcc null-argument, clang
	 * NonNullParamChecker): resolve() returns 0 only with path set; both
	 * take errno for possibly 0 after a failed realpath(), so "return
	 * -errno" looks like success.
	 */
	r = resolve(pathname, F(&w, REALPATH), &path);
	if (r < 0) {
		rc_log(SELINUX_ERROR,
		       "SELinux: Could not get canonical path for %s "
		       "restorecon: %s.\n",
		       pathname, strerror(-r));
		return r;
	}
	if (lstat(path, &st) < 0) {
		r = -errno;
		if (r == -ENOENT && F(&w, IGNORE_NOENTRY))
			return 0;
		/* 3.11 opens the path first, and names the open() */
		rc_log(SELINUX_ERROR, "%s(%s) failed: %s\n",
		       compat_since(3, 11) ? "open" : "lstat", path,
		       strerror(-r));
		return r;
	}
	if (!F(&w, IGNORE_MOUNTS))
		rst_read_mounts();

	pthread_mutex_lock(&rc_lock);
	if (rc_root) {
		w.root = strdup(rc_root);
		w.rootlen = rc_rootlen;
		if (!w.root)
			r = -ENOMEM;
	}
	if (F(&w, ADD_ASSOC))
		assoc_clear_locked();
	pthread_mutex_unlock(&rc_lock);
	if (r < 0)
		return r;

	/* Digests need a handle that keeps one, a directory to hang them on
	 * and a file system that keeps them across boots; and NOCHANGE never
	 * writes them. */
	w.digest = have_digest && !F(&w, SKIP_DIGEST) && S_ISDIR(st.st_mode);

	w.dev = st.st_dev;
	if (!F(&w, RECURSE)) {
		r = rst_excluded(path)
			? 0
			: restore_one(&w, path, &st, true, -1, NULL);
		goto out;
	}
	if (!S_ISLNK(st.st_mode) && statfs(path, &w.sfs) < 0) {
		r = -errno;
		rc_log(SELINUX_ERROR, "statfs(%s) failed: %s\n", path,
		       strerror(-r));
		goto out;
	}
	if (w.sfs.f_type == RAMFS_MAGIC || w.sfs.f_type == TMPFS_MAGIC ||
	    w.sfs.f_type == SYSFS_MAGIC)
		w.digest = false;
	if (F(&w, PROGRESS) && F(&w, MASS_RELABEL) && !F(&w, IGNORE_MOUNTS))
		w.efiles = seclabel_inodes();

	if (nthreads == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		nthreads = n > 0 ? (size_t)n : 1;
	}
	w.nthreads = nthreads;
	if (nthreads > 1)
		par_walk(&w, path, &st);
	else
		seq_walk(&w, path, &st);
	r = w.error;

	if (F(&w, PROGRESS) && F(&w, MASS_RELABEL))
		fprintf(stdout, "\r%s 100.0%%\n", path);
	if (r == 0 && !w.abort && w.digest && !F(&w, NOCHANGE))
		digests_write(&w);
out:
	digests_free(&w);
	free(w.root);
	pthread_mutex_lock(&rc_lock);
	if (F(&w, ADD_ASSOC))
		assoc_clear_locked();
	rc_relabeled = w.relabeled;
	rc_skipped_errors = r == 0 ? w.skipped : 0;
	pthread_mutex_unlock(&rc_lock);
	return r;
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
