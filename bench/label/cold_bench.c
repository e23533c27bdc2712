/*
 * cold_bench: one sample of the cold path of one libselinux, in a process
 * of its own: selabel_open of the file_contexts given, then the first N
 * lookups of a corpus on that fresh handle.  The library is dlopen()ed
 * (before the clock starts) from the path given, so the same binary
 * measures Debian's, upstream's (in a chroot of their release) and ours.
 *
 *   cold_bench LIB FILE_CONTEXTS CORPUS N [START]
 *
 * CORPUS holds NUL-terminated "MODE PATH" records (MODE octal, as
 * lookup_bench.c reads them); the lookups are records START, START+1, ...
 * (wrapping), so that the driver gives every sample other paths and every
 * library the same ones.  Prints one line:
 *
 *   open_us total_us minflt maxrss_kib private_kib
 *
 * open_us: selabel_open alone; total_us: open plus the N lookups; minflt:
 * minor page faults during both; maxrss_kib: the process's peak RSS at
 * the end (VmHWM); private_kib: its Private_Clean + Private_Dirty
 * (/proc/self/smaps_rollup) with the handle still open, minus the same
 * before the open: what each further process holding a handle costs
 * (pages of a file mapped by several processes are shared, not private,
 * once another process maps them; the driver runs the measure beside a
 * second holder, see cold.py).  Exit 1 if the open fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_lib.h"

/* The sum of the fields named of a /proc/self file, KiB (-1 if one is
 * missing). */
static long proc_kib(const char *file, const char *f1, const char *f2)
{
	FILE *f = fopen(file, "r");
	char line[256];
	long sum = 0, v;
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *fld[2] = { f1, f2 };

		for (int i = 0; i < 2; i++) {
			size_t n = fld[i] ? strlen(fld[i]) : 0;

			if (n && !strncmp(line, fld[i], n) && line[n] == ':' &&
			    sscanf(line + n + 1, "%ld", &v) == 1) {
				sum += v;
				found++;
			}
		}
	}
	fclose(f);
	return found == (f2 ? 2 : 1) ? sum : -1;
}

/* Microseconds of this process's CPU time. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static long private_kib(void)
{
	return proc_kib("/proc/self/smaps_rollup", "Private_Clean",
			"Private_Dirty");
}

int main(int argc, char **argv)
{
	struct selinux_opt opt = { SELABEL_OPT_PATH, NULL };
	struct selabel_handle *h;
	struct rusage r0, r1;
	size_t n = 0, count, start;
	double t0, t1, t2, c0, c1, c2;
	long priv0;
	struct rec *v;
	struct bench_lib L;

	if (argc < 5)
		return 2;
	bench_lib_load(argv[1], &L);
	opt.value = argv[2];
	v = bench_corpus(argv[3], &n, 1);
	count = strtoul(argv[4], NULL, 10);
	start = argc > 5 ? strtoul(argv[5], NULL, 10) : 0;
	if (!n)
		return 2;

	priv0 = private_kib();
	getrusage(RUSAGE_SELF, &r0);
	c0 = cpu_now();
	t0 = bench_now();
	h = L.open(0, &opt, 1);
	t1 = bench_now();
	c1 = cpu_now();
	if (!h)
		return 1;
	for (size_t i = 0; i < count; i++) {
		const struct rec *r = &v[(start + i) % n];
		char *con;

		if (L.lookup(h, &con, r->path, r->mode) == 0)
			L.freecon(con);
	}
	t2 = bench_now();
	c2 = cpu_now();
	getrusage(RUSAGE_SELF, &r1);
	/* COLD_HOLD: a holder the driver keeps running beside a measured
	 * sample (its pages of a shared mapping become shared): say so,
	 * then wait for stdin to close. */
	if (getenv("COLD_HOLD")) {
		printf("ready\n");
		fflush(stdout);
		while (getchar() != EOF)
			;
	}
	/* VmHWM, not ru_maxrss: that one survives execve and would be the
	 * driver's. */
	printf("%.1f %.1f %ld %ld %ld %.1f %.1f\n", t1 - t0, t2 - t0,
	       r1.ru_minflt - r0.ru_minflt,
	       proc_kib("/proc/self/status", "VmHWM", NULL),
	       private_kib() - priv0, c1 - c0, c2 - c0);
	return 0;
}
