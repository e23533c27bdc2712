/* label/matchpathcon.c: the matchpathcon API over a per-thread handle. */
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include <selinux/label.h>

#include "internal.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The compat hooks and flags are process-wide settings a program makes
 * once at start-up before any lookup, as with the reference; they are
 * read without a lock. */
int (*lbl_mpc_invalidcon)(const char *path, unsigned lineno, char *context);
int (*lbl_mpc_canoncon)(const char *path, unsigned lineno, char **context);
static void (*mpc_printf)(const char *fmt, ...);
static unsigned int mpc_flags;

/* Each thread has its own handle, as in the reference; the key's
 * destructor closes it when the thread ends. */
static __thread struct selabel_handle *hnd;
static pthread_once_t hnd_once = PTHREAD_ONCE_INIT;
static pthread_key_t hnd_key; /* written once, under hnd_once */

static void hnd_destroy(void *p)
{
	selabel_close(p);
}

static void hnd_init(void)
{
	pthread_key_create(&hnd_key, hnd_destroy);
}

_public_ void set_matchpathcon_printf(void (*f)(const char *fmt, ...))
{
	mpc_printf = f;
}

_public_ void set_matchpathcon_invalidcon(int (*f)(const char *path,
						   unsigned lineno,
						   char *context))
{
	lbl_mpc_invalidcon = f;
}

_public_ void set_matchpathcon_canoncon(int (*f)(const char *path,
						 unsigned lineno,
						 char **context))
{
	lbl_mpc_canoncon = f;
}

_public_ void set_matchpathcon_flags(unsigned int flags)
{
	mpc_flags = flags;
}

_public_ int matchpathcon_init_prefix(const char *path, const char *prefix)
{
	struct selinux_opt opts[4];
	unsigned int n = 0;

	pthread_once(&hnd_once, hnd_init);
	if (mpc_flags & MATCHPATHCON_VALIDATE)
		opts[n++] = (struct selinux_opt){ SELABEL_OPT_VALIDATE, "1" };
	if (mpc_flags & MATCHPATHCON_BASEONLY)
		opts[n++] = (struct selinux_opt){ SELABEL_OPT_BASEONLY, "1" };
	if (path)
		opts[n++] = (struct selinux_opt){ SELABEL_OPT_PATH, path };
	if (prefix)
		opts[n++] = (struct selinux_opt){ SELABEL_OPT_SUBSET, prefix };
	selabel_close(hnd);
	hnd = selabel_open(SELABEL_CTX_FILE, opts, n);
	pthread_setspecific(hnd_key, hnd);
	return hnd ? 0 : -1;
}

_public_ int matchpathcon_init(const char *path)
{
	return matchpathcon_init_prefix(path, NULL);
}

_public_ void matchpathcon_fini(void)
{
	selabel_close(hnd);
	hnd = NULL;
	pthread_once(&hnd_once, hnd_init);
	pthread_setspecific(hnd_key, NULL);
}

static int ensure_handle(void)
{
	if (hnd)
		return 0;
	return matchpathcon_init_prefix(NULL, NULL) < 0 ? -errno : 0;
}

/* As the reference: a symlink keeps its last component, anything else is
 * resolved completely when it exists. */
static const char *resolve(const char *path, mode_t mode, char *buf)
{
	if (S_ISLNK(mode))
		return realpath_not_final(path, buf) == 0 ? buf : path;
	return realpath(path, buf) ? buf : path;
}

_public_ int matchpathcon(const char *path, mode_t mode, char **con)
{
	char buf[PATH_MAX + 1];
	int r;

	if (!path || !con)
		return RET_ERRNO(-EINVAL);
	r = ensure_handle();
	if (r < 0)
		return RET_ERRNO(r);
	path = resolve(path, mode, buf);
	return mpc_flags & MATCHPATHCON_NOTRANS ?
		       selabel_lookup_raw(hnd, con, path, mode) :
		       selabel_lookup(hnd, con, path, mode);
}

/* Spec indices are not part of the handle's interface any more: the
 * reference's 3.4 answers 0 for any match too. */
_public_ int matchpathcon_index(const char *path, mode_t mode, char **con)
{
	return matchpathcon(path, mode, con) < 0 ? -1 : 0;
}

_public_ void matchpathcon_checkmatches(char *str _unused_)
{
	selabel_stats(hnd);
}

_public_ int realpath_not_final(const char *name, char *resolved_path)
{
	_cleanup_free_ char *dir = NULL;
	const char *slash, *last;
	char parent[PATH_MAX + 1];
	size_t plen;

	if (!name || !resolved_path)
		return RET_ERRNO(-EINVAL);
	slash = strrchr(name, '/');
	if (slash == name) {
		parent[0] = '\0';
		last = name + 1;
	} else {
		if (slash) {
			dir = strndup(name, slash - name);
			if (!dir)
				return RET_ERRNO(-ENOMEM);
			last = slash + 1;
		} else {
			last = name;
		}
		if (!realpath(dir ? dir : "./", parent))
			return -1;
	}
	plen = strlen(parent);
	if (plen + strlen(last) + 2 > PATH_MAX)
		return RET_ERRNO(-ENAMETOOLONG);
	memcpy(resolved_path, parent, plen);
	resolved_path[plen] = '/';
	strcpy(resolved_path + plen + 1, last);
	return 0;
}

_public_ int selinux_file_context_cmp(const char *a, const char *b)
{
	const char *ra, *rb;

	if (!a && !b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	ra = strchr(a, ':');
	rb = strchr(b, ':');
	if (!ra && !rb)
		return 0;
	if (!ra)
		return -1;
	if (!rb)
		return 1;
	return strcmp(ra, rb);
}

_public_ int selinux_file_context_verify(const char *path, mode_t mode)
{
	char buf[PATH_MAX + 1];
	char *con = NULL, *fcon = NULL;
	int rc, r;

	if (!path)
		return RET_ERRNO(-EINVAL);
	path = resolve(path, mode, buf);
	if (lgetfilecon_raw(path, &con) < 0)
		return errno == ENOTSUP ? 0 : -1;
	r = ensure_handle();
	if (r < 0) {
		freecon(con);
		return RET_ERRNO(r);
	}
	if (selabel_lookup_raw(hnd, &fcon, path, mode) < 0) {
		rc = errno == ENOENT ? 0 : -1;
	} else {
		errno = 0;
		rc = selinux_file_context_cmp(fcon, con) == 0;
	}
	freecon(con);
	freecon(fcon);
	return rc;
}

_public_ int selinux_lsetfilecon_default(const char *path)
{
	struct stat st;
	char *con = NULL;
	int r;

	if (!path)
		return RET_ERRNO(-EINVAL);
	if (lstat(path, &st) < 0)
		return -1;
	r = ensure_handle();
	if (r < 0)
		return RET_ERRNO(r);
	/* No label for it: leave the default, as the reference does. */
	if (selabel_lookup_raw(hnd, &con, path, st.st_mode) < 0)
		return errno == ENOENT ? 0 : -1;
	r = lsetfilecon_raw(path, con);
	freecon(con);
	return r;
}

_public_ int matchmediacon(const char *media, char **con)
{
	struct selinux_opt opt = { SELABEL_OPT_UNUSED, NULL };
	struct selabel_handle *h;
	int saved_errno = errno;
	int r;

	if (!media || !con)
		return RET_ERRNO(-EINVAL);
	h = selabel_open(SELABEL_CTX_MEDIA, &opt, 0);
	if (!h)
		return -1;
	r = selabel_lookup(h, con, media, 0);
	selabel_close(h);
	/* A media type the file does not list: the reference returns -1
	 * without setting errno (it reads the file itself), and so do we. */
	if (r < 0 && errno == ENOENT)
		errno = saved_errno;
	return r;
}

/* mpc_printf is kept for the ABI; messages go to the SELINUX_CB_LOG
 * callback. */
void lbl_mpc_unused(void);
void lbl_mpc_unused(void)
{
	(void)mpc_printf;
}
