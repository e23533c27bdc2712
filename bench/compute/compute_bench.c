/*
 * compute_bench: policy decisions per second through a libselinux and
 * kernel/'s security server (or a real selinuxfs).  Built against the
 * public headers, linked against the system's libselinux.so.1, run once
 * as is (Debian's library) and once with LD_LIBRARY_PATH set to ours, by
 * bench/compute/run.sh, which prints the two side by side.
 *
 * Usage: compute_bench MNT TYPES N
 *   MNT    the selinuxfs (set_selinuxmnt)
 *   TYPES  a file of contexts, one a line
 *   N      decisions per measurement
 * Prints:  "uncached <per second>" - every (source, target) pair new to
 *          the server's decision cache (the first pass over the pairs);
 *          "cached <per second>" - the same 64 pairs again and again;
 *          "avc <per second>" - avc_has_perm on those 64 pairs (the
 *          library's cache).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <selinux/avc.h>
#include <selinux/selinux.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char **cons = NULL, line[4096];
	size_t n = 0, cap = 0;
	long want;
	FILE *f;
	security_class_t cls;
	struct av_decision avd;
	double t0, t1;
	long done = 0, errors = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: compute_bench MNT TYPES N\n");
		return 2;
	}
	set_selinuxmnt(argv[1]);
	want = atol(argv[3]);
	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!*line)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			cons = realloc(cons, cap * sizeof(*cons));
		}
		cons[n++] = strdup(line);
	}
	fclose(f);
	if (n < 8) {
		fprintf(stderr, "compute_bench: too few contexts\n");
		return 2;
	}
	cls = string_to_security_class("file");
	if (!cls) {
		fprintf(stderr, "compute_bench: no class file\n");
		return 1;
	}
	/* uncached: pairs in an order that repeats none within N */
	t0 = now();
	for (size_t i = 0; done < want && i < n; i++)
		for (size_t j = 0; done < want && j < n; j++, done++)
			if (security_compute_av_raw(cons[i], cons[j], cls, 0,
						    &avd) < 0)
				errors++;
	t1 = now();
	printf("uncached %.0f\n", (double)done / (t1 - t0));
	done = 0;
	t0 = now();
	while (done < want)
		for (size_t k = 0; k < 64 && done < want; k++, done++)
			if (security_compute_av_raw(cons[k % 8], cons[k / 8],
						    cls, 0, &avd) < 0)
				errors++;
	t1 = now();
	printf("cached %.0f\n", (double)done / (t1 - t0));

	security_id_t sid[8];
	struct av_decision a;

	if (avc_open(NULL, 0) < 0) {
		fprintf(stderr, "compute_bench: avc_open failed\n");
		return 1;
	}
	for (int k = 0; k < 8; k++)
		if (avc_context_to_sid_raw(cons[k], &sid[k]) < 0) {
			fprintf(stderr, "compute_bench: no SID for %s\n",
				cons[k]);
			return 1;
		}
	done = 0;
	t0 = now();
	while (done < want * 500)
		for (size_t k = 0; k < 64; k++, done++)
			(void)avc_has_perm_noaudit(sid[k % 8], sid[k / 8], cls,
						   1, NULL, &a);
	t1 = now();
	printf("avc %.0f\n", (double)done / (t1 - t0));
	avc_destroy();
	printf("errors %ld\n", errors);
	return errors ? 1 : 0;
}
