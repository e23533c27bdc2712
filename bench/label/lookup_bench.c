/*
 * lookup_bench: time one libselinux's file_contexts lookups.  The library
 * is dlopen()ed from the path given, so the same binary measures Debian's
 * libselinux.so.1 and ours; run.sh runs both in one go and prints ratios.
 *
 *   lookup_bench LIB FILE_CONTEXTS CORPUS MODE
 *   MODE: open     - median selabel_open() time (us) over 21 opens
 *         lookup   - mean us per selabel_lookup over the corpus (every
 *                    STRIDE-th record): the first pass after the open
 *                    (lazily compiled regexes count), then a second
 *         paths    - time each record of the corpus 5 times, print the
 *                    best time per path (us) and the path
 *         paths-warm - the same after one untimed pass over the whole
 *                    corpus: what a long-running program (restorecond,
 *                    udev, systemd) or a long walk sees once every node
 *                    of the index on the corpus's paths is built
 *         first    - median time (us) over 21 runs of selabel_open()
 *                    plus the first lookup (of the corpus's first record):
 *                    a lazily built index counts here
 *         rss      - open, look every record up, print peak RSS (KiB)
 *         base     - peak RSS (KiB) of the process with the library
 *                    loaded but no handle open
 * CORPUS holds NUL-terminated "MODE PATH" records (MODE octal).
 * STRIDE comes from the environment (default 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_lib.h"

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct bench_lib L;
	open_fn sopen;
	close_fn sclose;
	lookup_fn slookup;
	free_fn sfree;
	struct selinux_opt opt;
	const char *mode, *env = getenv("STRIDE");
	size_t stride = env ? strtoul(env, NULL, 10) : 1, n = 0;
	struct rec *v;

	if (argc < 5)
		return 2;
	bench_lib_load(argv[1], &L);
	sopen = L.open;
	sclose = L.close;
	slookup = L.lookup;
	sfree = L.freecon;
	opt.type = SELABEL_OPT_PATH;
	opt.value = argv[2];
	mode = argv[4];

	if (!strcmp(mode, "open")) {
		double t[21];

		for (int i = 0; i < 21; i++) {
			double t0 = bench_now();
			struct selabel_handle *h = sopen(0, &opt, 1);

			t[i] = bench_now() - t0;
			if (!h)
				return 1;
			sclose(h);
		}
		qsort(t, 21, sizeof(double), cmpd);
		printf("%.1f\n", t[10]);
		return 0;
	}
	v = bench_corpus(argv[3], &n, stride);
	if (!strcmp(mode, "base")) {
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		printf("%ld\n", ru.ru_maxrss);
		return 0;
	}
	if (!strcmp(mode, "first")) {
		double t[21];
		char *con;

		if (!n)
			return 2;
		for (int i = 0; i < 21; i++) {
			double t0 = bench_now();
			struct selabel_handle *h = sopen(0, &opt, 1);

			if (!h)
				return 1;
			if (slookup(h, &con, v[0].path, v[0].mode) == 0)
				sfree(con);
			t[i] = bench_now() - t0;
			sclose(h);
		}
		qsort(t, 21, sizeof(double), cmpd);
		printf("%.1f\n", t[10]);
		return 0;
	}
	struct selabel_handle *h = sopen(0, &opt, 1);

	if (!h)
		return 1;
	if (!strcmp(mode, "lookup")) {
		double t0;
		char *con;

		/* One warm-up pass over a few paths, as a long-running
		 * program (restorecon, udev) is warm after its first files. */
		for (size_t i = 0; i < n && i < 64; i++)
			if (slookup(h, &con, v[i].path, v[i].mode) == 0)
				sfree(con);
		t0 = bench_now();
		for (size_t i = 0; i < n; i++)
			if (slookup(h, &con, v[i].path, v[i].mode) == 0)
				sfree(con);
		printf("%.3f", (bench_now() - t0) / n);
		/* A second pass: what a long-running program sees. */
		t0 = bench_now();
		for (size_t i = 0; i < n; i++)
			if (slookup(h, &con, v[i].path, v[i].mode) == 0)
				sfree(con);
		printf(" %.3f\n", (bench_now() - t0) / n);
	} else if (!strcmp(mode, "paths") || !strcmp(mode, "paths-warm")) {
		char *con;

		if (!strcmp(mode, "paths-warm"))
			for (size_t i = 0; i < n; i++)
				if (slookup(h, &con, v[i].path, v[i].mode) == 0)
					sfree(con);
		for (size_t i = 0; i < n; i++) {
			double best = 1e18;

			for (int k = 0; k < 5; k++) {
				double t0 = bench_now(), t;

				if (slookup(h, &con, v[i].path, v[i].mode) == 0)
					sfree(con);
				t = bench_now() - t0;
				if (t < best)
					best = t;
			}
			printf("%.3f %s\n", best, v[i].path);
		}
	} else if (!strcmp(mode, "rss")) {
		struct rusage ru;
		char *con;

		for (size_t i = 0; i < n; i++)
			if (slookup(h, &con, v[i].path, v[i].mode) == 0)
				sfree(con);
		getrusage(RUSAGE_SELF, &ru);
		printf("%ld\n", ru.ru_maxrss);
	}
	sclose(h);
	return 0;
}
