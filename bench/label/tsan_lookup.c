/*
 * tsan_lookup: many threads look paths up on one selabel handle, all
 * starting together on a fresh handle (so that the lazily built index,
 * regexes and per-thread match data are raced for), each in its own
 * order; every answer must equal the one a second handle gives in one
 * thread.  Built with -fsanitize=thread by tsan.sh.
 *
 *   tsan_lookup FILE_CONTEXTS THREADS PATH...
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

static struct selabel_handle *h;
static pthread_barrier_t start;
static char **paths;
static int npaths;
static char ***answers;

static char *look(struct selabel_handle *hh, const char *p, int mode)
{
	char *con = NULL;

	if (selabel_lookup_raw(hh, &con, p, mode) < 0)
		return strdup("-");
	return con;
}

static void *worker(void *arg)
{
	long t = (long)arg;
	char **out = answers[t];

	pthread_barrier_wait(&start);
	for (int r = 0; r < 20; r++) {
		for (int k = 0; k < npaths; k++) {
			int i = (k * 7 + t * 13 + r) % npaths;
			char *c = look(h, paths[i], r % 2 ? 0 : 0100000);

			if (r == 0 && !out[i])
				out[i] = c;
			else
				freecon(c);
		}
		/* The other entry points share the lazy state too. */
		(void)selabel_partial_match(h, paths[t % npaths]);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct selinux_opt opt = { SELABEL_OPT_PATH, NULL };
	struct selabel_handle *ref;
	pthread_t *th;
	int n, bad = 0;

	if (argc < 4)
		return 2;
	opt.value = argv[1];
	n = atoi(argv[2]);
	paths = argv + 3;
	npaths = argc - 3;
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	ref = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	if (!h || !ref) {
		perror("selabel_open");
		return 1;
	}
	th = calloc(n, sizeof(*th));
	answers = calloc(n, sizeof(*answers));
	pthread_barrier_init(&start, NULL, n);
	for (long t = 0; t < n; t++) {
		answers[t] = calloc(npaths, sizeof(char *));
		if (pthread_create(&th[t], NULL, worker, (void *)t))
			return 1;
	}
	for (int t = 0; t < n; t++)
		pthread_join(th[t], NULL);
	for (int i = 0; i < npaths; i++) {
		char *want = look(ref, paths[i], 0100000);

		for (int t = 0; t < n; t++) {
			if (strcmp(answers[t][i], want)) {
				fprintf(stderr, "thread %d, %s: %s, want %s\n",
					t, paths[i], answers[t][i], want);
				bad++;
			}
			freecon(answers[t][i]);
		}
		freecon(want);
	}
	selabel_close(h);
	selabel_close(ref);
	printf("%d threads x %d paths x 20 rounds: %d wrong answers\n", n,
	       npaths, bad);
	return bad != 0;
}
