/*
 * restore/settings.c: what the public API keeps process-wide - the
 * handle, the alternate root, the exclude list, the last walk's counts.
 */
#include <string.h>

#include <selinux/context.h>
#include <selinux/restorecon.h>

#include "internal.h"

/*
 * These are process-wide because the public API makes them so
 * (selinux_restorecon(3) and restorecon.h): the selinux_restorecon_set_*
 * calls take no walk, and _get_skipped_errors / _get_relabeled_files
 * answer for "the last walk" of the process.  Everything else a walk
 * needs lives in its own context (walk.h).  All guarded by set_lock; a
 * walk copies what it needs at its start, so that a setting changed
 * during a walk applies from the next one (but the handle: the caller
 * keeps it open while relabelling, restorecon.h).
 */
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;
static struct selabel_handle *set_handle; /* the caller's, or ours */
static bool set_have_digest; /* set_handle has SELABEL_OPT_DIGEST */
static char *set_root;	     /* alternate root, no trailing '/' */
static size_t set_rootlen;
static char **set_excludes; /* caller's exclude list, full paths */
static size_t set_nexcludes;
/* Caches of files read once per process: the non-seclabel mounts and
 * customizable_types (NULL list: none). */
static char **set_mount_excludes;
static size_t set_nmount_excludes;
static bool set_mounts_read;
static char **set_custom;
static bool set_custom_read;
/* Results of the last walk. */
static unsigned long set_skipped_errors;
static unsigned long set_relabeled;

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
		rst_log(SELINUX_ERROR,
			"Error obtaining file context handle: %s\n",
			strerror(errno));
	return h;
}

static void set_handle_locked(struct selabel_handle *h)
{
	unsigned char *d;
	size_t dlen, nf;
	char **files;

	set_handle = h;
	/* The digests are used only when the handle was asked for one. */
	set_have_digest = h && selabel_digest(h, &d, &dlen, &files, &nf) == 0;
}

_public_ void selinux_restorecon_set_sehandle(struct selabel_handle *hndl)
{
	pthread_mutex_lock(&set_lock);
	set_handle_locked(hndl);
	pthread_mutex_unlock(&set_lock);
}

/* The handle for a walk: the one set, or the default opened now.  A failed
 * default open is retried by the next call (the reference gives up for the
 * life of the process). */
int rst_handle(struct selabel_handle **h, bool *have_digest)
{
	int r = 0;

	pthread_mutex_lock(&set_lock);
	if (!set_handle) {
		struct selabel_handle *d = selinux_restorecon_default_handle();

		if (d)
			set_handle_locked(d);
		else
			r = -errno;
	}
	*h = set_handle;
	if (have_digest)
		*have_digest = set_have_digest;
	pthread_mutex_unlock(&set_lock);
	return r;
}

/* One entry of an exclude list, logged and left out if unusable. */
static void exclude_add_locked(const char *p)
{
	struct stat st;

	if (lstat(p, &st) < 0) {
		rst_log(SELINUX_ERROR,
			"lstat error on exclude path \"%s\", %s - ignoring.\n",
			p, strerror(errno));
		return;
	}
	if (p[0] != '/') {
		rst_log(SELINUX_ERROR, "Full path required for exclude: %s.\n",
			p);
		return;
	}
	if (strv_add(&set_excludes, &set_nexcludes, p) < 0) {
		rst_log(SELINUX_ERROR, "%s:  Out of memory\n",
			"selinux_restorecon_set_exclude_list");
		return;
	}
	/* "/a/" excludes /a: compare without trailing slashes. */
	for (char *e = set_excludes[set_nexcludes - 1], *z = e + strlen(e);
	     z > e + 1 && z[-1] == '/';)
		*--z = '\0';
}

_public_ void selinux_restorecon_set_exclude_list(const char **exclude_list)
{
	pthread_mutex_lock(&set_lock);
	for (size_t i = 0; exclude_list && exclude_list[i]; i++)
		exclude_add_locked(exclude_list[i]);
	pthread_mutex_unlock(&set_lock);
}

_public_ int selinux_restorecon_set_alt_rootpath(const char *alt_rootpath)
{
	char *r = alt_rootpath ? strdup(alt_rootpath) : NULL;
	size_t n;

	if (alt_rootpath && !r) {
		rst_log(SELINUX_ERROR, "%s:  Out of memory\n", __func__);
		return RET_ERRNO(-ENOMEM);
	}
	n = r ? strlen(r) : 0;
	while (n && r[n - 1] == '/')
		r[--n] = '\0';
	pthread_mutex_lock(&set_lock);
	free(set_root);
	set_root = r;
	set_rootlen = n;
	pthread_mutex_unlock(&set_lock);
	return 0;
}

int rst_alt_root(char **root, size_t *len)
{
	int r = 0;

	*root = NULL;
	*len = 0;
	pthread_mutex_lock(&set_lock);
	if (set_root) {
		*root = strdup(set_root);
		*len = set_rootlen;
		if (!*root)
			r = -ENOMEM;
	}
	pthread_mutex_unlock(&set_lock);
	return r;
}

_public_ long unsigned selinux_restorecon_get_skipped_errors(void)
{
	unsigned long n;

	pthread_mutex_lock(&set_lock);
	n = set_skipped_errors;
	pthread_mutex_unlock(&set_lock);
	return n;
}

_public_ long unsigned selinux_restorecon_get_relabeled_files(void)
{
	unsigned long n;

	pthread_mutex_lock(&set_lock);
	n = set_relabeled;
	pthread_mutex_unlock(&set_lock);
	return n;
}

void rst_set_results(unsigned long relabeled, unsigned long skipped)
{
	pthread_mutex_lock(&set_lock);
	set_relabeled = relabeled;
	set_skipped_errors = skipped;
	pthread_mutex_unlock(&set_lock);
}

bool rst_has_seclabel(char *opts)
{
	for (char *s, *t = strtok_r(opts, ",", &s); t;
	     t = strtok_r(NULL, ",", &s))
		if (!strcmp(t, "seclabel"))
			return true;
	return false;
}

/*
 * Mount points without the seclabel option hold no labels worth checking.
 * Like the reference, only consulted when SELinux is enabled (a kernel
 * without SELinux shows seclabel nowhere).
 */
static void read_mount_excludes_locked(void)
{
	_cleanup_fclose_ FILE *f = NULL;
	char *line = NULL;
	size_t cap = 0;

	if (set_mounts_read)
		return;
	set_mounts_read = true;
	if (is_selinux_enabled() <= 0)
		return;
	f = fopen("/proc/mounts", "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char dev[4096], mnt[4096], type[256], opts[4096];

		if (sscanf(line, "%4095s %4095s %255s %4095s", dev, mnt, type,
			   opts) != 4)
			continue;
		if (!rst_has_seclabel(opts))
			strv_add(&set_mount_excludes, &set_nmount_excludes,
				 mnt);
	}
	free(line);
}

void rst_read_mounts(void)
{
	pthread_mutex_lock(&set_lock);
	read_mount_excludes_locked();
	pthread_mutex_unlock(&set_lock);
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

	pthread_mutex_lock(&set_lock);
	for (size_t i = 0; !ex && i < set_nexcludes; i++)
		ex = below(path, set_excludes[i]);
	for (size_t i = 0; !ex && i < set_nmount_excludes; i++)
		ex = below(path, set_mount_excludes[i]);
	pthread_mutex_unlock(&set_lock);
	return ex;
}

/* customizable_types: one type a line. */
static void read_custom_locked(void)
{
	_cleanup_fclose_ FILE *f = NULL;
	char *line = NULL;
	size_t cap = 0, n = 0;
	const char *p;

	if (set_custom_read)
		return;
	set_custom_read = true;
	p = selinux_customizable_types_path();
	f = p ? fopen(p, "re") : NULL;
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *s = line + strspn(line, " \t");

		s[strcspn(s, " \t\r\n")] = '\0';
		if (*s && *s != '#')
			strv_add(&set_custom, &n, s);
	}
	free(line);
}

bool rst_customizable(const char *con)
{
	context_t c = context_new(con);
	const char *t = c ? context_type_get(c) : NULL;
	bool r = false;

	pthread_mutex_lock(&set_lock);
	read_custom_locked();
	for (size_t i = 0; t && set_custom && set_custom[i] && !r; i++)
		r = !strcmp(set_custom[i], t);
	pthread_mutex_unlock(&set_lock);
	if (c)
		context_free(c);
	return r;
}
