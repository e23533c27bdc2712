/*
 * tsan_restorecon: selinux_restorecon_parallel with THREADS threads on
 * TREE (built by tsan_restorecon.sh: hard links, symlinks, an excluded
 * directory, a bind mount), on a fresh handle so the first walk races
 * for the lazily built label index too.  Rounds: setfiles -n -v's flags
 * (NOCHANGE, ADD_ASSOC), a relabel, the same again with digests kept
 * (written at the end), then once more (the digests skip every
 * directory).  Then the labels the parallel relabel left must equal
 * those of a one-thread relabel, for every inode seen under one name
 * only (which name of a hard link or a bind-mounted file comes first is
 * a race).  Built with -fsanitize=thread by tsan_restorecon.sh.
 *
 *   tsan_restorecon FILE_CONTEXTS TREE THREADS EXCLUDED_DIR
 */

#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

#define OLD "system_u:object_r:old_t:s0"

static unsigned long nlog;

static int log_cb(int type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
	/* Called under the library's log lock; atomic all the same. */
	__atomic_add_fetch(&nlog, 1, __ATOMIC_RELAXED);
	return 0;
}

struct ent {
	char *path;
	char *con;
	dev_t dev;
	ino_t ino;
};
static struct ent *ents;
static size_t nents;

static int reset_one(const char *p, const struct stat *st, int f,
		     struct FTW *ftw)
{
	(void)st;
	(void)f;
	(void)ftw;
	lsetxattr(p, "security.selinux", OLD, sizeof(OLD), 0);
	removexattr(p, "security.sehash");
	return 0;
}

static int snap_one(const char *p, const struct stat *st, int f,
		    struct FTW *ftw)
{
	char con[256];
	ssize_t n = lgetxattr(p, "security.selinux", con, sizeof(con) - 1);

	(void)f;
	(void)ftw;
	con[n > 0 ? n : 0] = '\0';
	ents = realloc(ents, (nents + 1) * sizeof(*ents));
	ents[nents++] =
	    (struct ent){strdup(p), strdup(con), st->st_dev, st->st_ino};
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct ent *)a)->path,
		      ((const struct ent *)b)->path);
}

static struct ent *snapshot(const char *tree, size_t *n)
{
	ents = NULL;
	nents = 0;
	nftw(tree, snap_one, 64, FTW_PHYS);
	qsort(ents, nents, sizeof(*ents), by_path);
	*n = nents;
	return ents;
}

static int once(const struct ent *v, size_t n, size_t i)
{
	for (size_t k = 0; k < n; k++)
		if (k != i && v[k].ino == v[i].ino && v[k].dev == v[i].dev)
			return 0;
	return 1;
}

static int walk(const char *tree, unsigned flags, size_t threads)
{
	int r = selinux_restorecon_parallel(tree, flags, threads);

	printf("threads %zu flags 0x%x: %d, relabeled %lu, messages %lu\n",
	       threads, flags, r, selinux_restorecon_get_relabeled_files(),
	       __atomic_load_n(&nlog, __ATOMIC_RELAXED));
	return r;
}

int main(int argc, char **argv)
{
	struct selinux_opt opts[] = {{SELABEL_OPT_PATH, NULL},
				     {SELABEL_OPT_DIGEST, (char *)1}};
	const char *excl[2] = {NULL, NULL};
	const unsigned base =
	    SELINUX_RESTORECON_RECURSE | SELINUX_RESTORECON_ADD_ASSOC |
	    SELINUX_RESTORECON_VERBOSE | SELINUX_RESTORECON_COUNT_RELABELED;
	struct selabel_handle *h;
	struct ent *par, *one;
	size_t npar, none, threads, checked = 0;
	int bad = 0;

	if (argc != 5)
		return 2;
	threads = strtoul(argv[3], NULL, 10);
	opts[0].value = argv[1];
	excl[0] = argv[4];
	union selinux_callback cb = {.func_log = log_cb};
	selinux_set_callback(SELINUX_CB_LOG, cb);
	h = selabel_open(SELABEL_CTX_FILE, opts, 2);
	if (!h) {
		perror("selabel_open");
		return 2;
	}
	selinux_restorecon_set_sehandle(h);
	selinux_restorecon_set_exclude_list(excl);

	nftw(argv[2], reset_one, 64, FTW_PHYS);
	bad |= walk(argv[2],
		    base | SELINUX_RESTORECON_NOCHANGE |
			SELINUX_RESTORECON_SKIP_DIGEST,
		    threads) < 0;
	bad |=
	    walk(argv[2], base | SELINUX_RESTORECON_SKIP_DIGEST, threads) < 0;
	par = snapshot(argv[2], &npar);
	bad |= walk(argv[2], base, threads) < 0;
	bad |= walk(argv[2], base, threads) < 0;

	nftw(argv[2], reset_one, 64, FTW_PHYS);
	bad |= walk(argv[2], base | SELINUX_RESTORECON_SKIP_DIGEST, 1) < 0;
	one = snapshot(argv[2], &none);
	if (npar != none) {
		printf("%zu entries after the parallel walk, %zu after one "
		       "thread's\n",
		       npar, none);
		return 1;
	}
	for (size_t i = 0; i < npar; i++) {
		if (!once(par, npar, i))
			continue;
		checked++;
		if (strcmp(par[i].con, one[i].con)) {
			printf("%s: %s in parallel, %s in one thread\n",
			       par[i].path, par[i].con, one[i].con);
			bad = 1;
		}
	}
	printf("%zu entries, %zu seen under one name: %s\n", npar, checked,
	       bad ? "FAILED" : "same labels");
	selabel_close(h);
	return bad;
}
