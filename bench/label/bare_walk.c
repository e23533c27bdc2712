/*
 * bare_walk: the syscalls of `setfiles -n -v` without the labelling, the
 * floor a restorecon walk is measured against.  fts(3) over each PATH
 * (FTS_PHYSICAL | FTS_NOCHDIR, as selinux_restorecon: one lstat per
 * entry, getdents per directory), one lgetxattr("security.selinux") per
 * entry, and with -p one "Would relabel" line per entry on stdout, as
 * setfiles -v prints for an unlabelled tree.  No file_contexts lookup.
 *
 *   bare_walk [-p] [-s] [-T NTHREADS] PATH...
 *
 * With -T, NTHREADS threads share each fts stream under one mutex,
 * taking 32 entries at a time from a FTS_NOSTAT stream, and do the
 * lstat, lgetxattr and printing outside it (the shape
 * selinux_restorecon_parallel had before each of its threads read
 * directories of its own).  -s reads the FTS_NOSTAT stream alone: the
 * serial part of a walk that shares one stream.
 * Prints the number of entries on stderr.
 */
#include <errno.h>
#include <fts.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

struct walk {
	FTS *fts;
	pthread_mutex_t lock;
	unsigned long n;
	int print, nostat, batch;
};

/* One entry: lstat when fts did not, lgetxattr, the line. */
static void one(struct walk *w, const char *path)
{
	char con[256];
	struct stat st;
	ssize_t len;

	if (w->nostat && lstat(path, &st) < 0)
		return;
	len = lgetxattr(path, "security.selinux", con, sizeof(con) - 1);
	if (len >= 0)
		con[len] = '\0';
	if (w->print)
		printf("Would relabel %s from %s to %s\n", path,
		       len >= 0 ? con : "(null)", "system_u:object_r:usr_t:s0");
}

static void *worker(void *arg)
{
	struct walk *w = arg;
	static __thread char paths[32][4096];
	FTSENT *e;
	int n;

	pthread_mutex_lock(&w->lock);
	do {
		for (n = 0; n < w->batch && (e = fts_read(w->fts)) != NULL;) {
			if (e->fts_info == FTS_DP || e->fts_pathlen >= 4096)
				continue;
			memcpy(paths[n++], e->fts_path, e->fts_pathlen + 1);
			w->n++;
		}
		pthread_mutex_unlock(&w->lock);
		for (int i = 0; i < n; i++)
			one(w, paths[i]);
		pthread_mutex_lock(&w->lock);
	} while (n > 0);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int main(int argc, char **argv)
{
	struct walk w = {.lock = PTHREAD_MUTEX_INITIALIZER};
	long nthreads = 1;
	int c, stream_only = 0;

	while ((c = getopt(argc, argv, "psT:")) != -1) {
		if (c == 'p')
			w.print = 1;
		else if (c == 's')
			stream_only = 1;
		else if (c == 'T')
			nthreads = strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (nthreads < 1)
		nthreads = 1;
	/* As selinux_restorecon_parallel: threads take 32 entries a time
	 * and stat outside the lock. */
	w.nostat = nthreads > 1 || stream_only;
	w.batch = nthreads > 1 ? 32 : 1;
	for (int i = optind; i < argc; i++) {
		char *paths[] = {argv[i], NULL};
		pthread_t t[64];
		long started = 0;

		w.fts = fts_open(paths,
				 FTS_PHYSICAL | FTS_NOCHDIR |
				     (w.nostat ? FTS_NOSTAT : 0),
				 NULL);
		if (!w.fts) {
			perror(argv[i]);
			return 1;
		}
		if (stream_only) {
			for (FTSENT *e; (e = fts_read(w.fts)) != NULL;)
				w.n += e->fts_info != FTS_DP;
			fts_close(w.fts);
			continue;
		}
		for (; started < nthreads - 1 && started < 64; started++)
			if (pthread_create(&t[started], NULL, worker, &w))
				break;
		worker(&w);
		for (long k = 0; k < started; k++)
			pthread_join(t[k], NULL);
		fts_close(w.fts);
	}
	fprintf(stderr, "%lu\n", w.n);
	return 0;
}
