/*
 * avc_bench: the userspace AVC's cached paths, in nanoseconds per call
 * and calls per second with threads.  Built against the public headers,
 * linked against the system's libselinux.so.1 and run once as is
 * (Debian's library) and once with LD_LIBRARY_PATH set to ours, by
 * bench/avc/run.sh, which prints the two side by side.
 *
 * Usage: avc_bench MNT SCON TCON CLASS PERM N
 *   MNT is the selinuxfs (set_selinuxmnt): kernel/'s server.
 * Prints, one a line, "NAME VALUE":
 *   hit_ns      avc_has_perm_noaudit on one cached decision, no entry
 *               reference (the AVC opened without lock callbacks, as a
 *               single-threaded daemon does)
 *   check_ns    selinux_check_access with the strings, cached, the same
 *               buffers every call (a daemon's stored contexts, literals)
 *   check_copies_ns  the same strings in one of 256 copies in turn (a
 *               caller that builds its strings anew: Python, say)
 *   t1_per_s    calls per second of avc_has_perm_noaudit in 1 thread,
 *   t2_per_s    and in 2 threads at once on the same decision, the AVC
 *               opened with lock callbacks (a pthread mutex) as a
 *               threaded program must for Debian's library: the two
 *               threads start together, run for the same time (100 ms)
 *               and their calls per second are added up (equal shares
 *               of work would time the slower core twice)
 *   t1b_per_s   t1 again, on the second CPU
 *
 * With two CPUs or more, every figure but t1b is taken on the first CPU
 * the process may use, and the two threads of t2 run one on each of the
 * first two: the two libraries are then timed on the same core, and t2
 * can be compared with what each core does alone (t1 + t1b), cores of a
 * virtual machine being not always equal.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <selinux/avc.h>
#include <selinux/selinux.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static security_id_t ssid, tsid;
static security_class_t cls;
static access_vector_t perm;
static long n;
/* Each figure is the best of REPS runs of N / REPS calls: the least
 * disturbed by other work on the machine. */
#define REPS 5
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *alloc_lock(void)
{
	return &mu;
}

static void get_lock(void *l)
{
	pthread_mutex_lock(l);
}

static void release_lock(void *l)
{
	pthread_mutex_unlock(l);
}

static void free_lock(void *l)
{
	(void)l;
}

static struct avc_lock_callback locks = {alloc_lock, get_lock, release_lock,
					 free_lock};

static long errors;
static int cpus[2] = {-1, -1};

/* The first two CPUs this process may run on (cpus[1] -1 if one). */
static void find_cpus(void)
{
	cpu_set_t set;
	int k = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE && k < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[k++] = c;
}

/* Run the calling thread on CPU c only (nothing when c is -1). */
static void pin(int c)
{
	cpu_set_t set;

	if (c < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		fprintf(stderr, "avc_bench: cannot run on CPU %d\n", c);
}

static void *loop(void *arg)
{
	struct av_decision avd;

	if (arg)
		pin(*(int *)arg);
	for (long i = 0; i < n; i++)
		if (avc_has_perm_noaudit(ssid, tsid, cls, perm, NULL, &avd))
			__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* The best time of REPS runs of loop() in this thread. */
static double best_loop(void)
{
	double best = 1e30;

	for (int r = 0; r < REPS; r++) {
		double t0 = now(), t;

		loop(NULL);
		t = now() - t0;
		if (t < best)
			best = t;
	}
	return best;
}

/* t2: two threads started together and stopped together. */
static pthread_barrier_t start_line;
static int stop;
struct share {
	int *cpu;
	double per_s;
};

static void *timed(void *arg)
{
	struct share *sh = arg;
	struct av_decision avd;
	long calls = 0;
	double t0;

	if (sh->cpu)
		pin(*sh->cpu);
	loop(NULL); /* warm: the thread's first calls set up its counters */
	pthread_barrier_wait(&start_line);
	t0 = now();
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < 1024; i++)
			if (avc_has_perm_noaudit(ssid, tsid, cls, perm, NULL,
						 &avd))
				__atomic_add_fetch(&errors, 1,
						   __ATOMIC_RELAXED);
		calls += 1024;
	}
	sh->per_s = (double)calls / (now() - t0);
	return NULL;
}

static int open_avc(int with_locks, const char *s, const char *t)
{
	if (avc_init("bench", NULL, NULL, NULL, with_locks ? &locks : NULL) ||
	    avc_context_to_sid(s, &ssid) || avc_context_to_sid(t, &tsid)) {
		perror("avc_init");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct av_decision avd;
	pthread_t th[2];
	double t0, t1, best;

	if (argc != 7) {
		fprintf(stderr, "usage: avc_bench MNT SCON TCON CLASS PERM N\n");
		return 2;
	}
	set_selinuxmnt(argv[1]);
	find_cpus();
	if (cpus[1] >= 0)
		pin(cpus[0]);
	n = atol(argv[6]) / REPS;
	cls = string_to_security_class(argv[4]);
	perm = string_to_av_perm(cls, argv[5]);
	if (!cls || !perm) {
		fprintf(stderr, "avc_bench: no class %s or permission %s\n",
			argv[4], argv[5]);
		return 1;
	}

	if (open_avc(0, argv[2], argv[3]))
		return 1;
	if (avc_has_perm_noaudit(ssid, tsid, cls, perm, NULL, &avd)) {
		perror("avc_bench: the decision is not granted");
		return 1;
	}
	best = best_loop();
	printf("hit_ns %.2f\n", best * 1e9 / (double)n);

	if (selinux_check_access(argv[2], argv[3], argv[4], argv[5], NULL)) {
		perror("avc_bench: selinux_check_access");
		return 1;
	}
	best = 1e30;
	for (int r = 0; r < REPS; r++) {
		t0 = now();
		for (long i = 0; i < n / 4; i++)
			if (selinux_check_access(argv[2], argv[3], argv[4],
						 argv[5], NULL))
				errors++;
		t1 = now();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	printf("check_ns %.2f\n", best * 1e9 / (double)(n / 4));
	{
		static char copies[256][4][256];

		for (int i = 0; i < 256; i++)
			for (int j = 0; j < 4; j++)
				snprintf(copies[i][j], sizeof(copies[i][j]),
					 "%s", argv[2 + j]);
		best = 1e30;
		for (int r = 0; r < REPS; r++) {
			t0 = now();
			for (long i = 0; i < n / 4; i++) {
				char(*c)[256] = copies[i & 255];

				if (selinux_check_access(c[0], c[1], c[2],
							 c[3], NULL))
					errors++;
			}
			t1 = now();
			if (t1 - t0 < best)
				best = t1 - t0;
		}
		printf("check_copies_ns %.2f\n", best * 1e9 / (double)(n / 4));
	}
	avc_destroy();

	if (open_avc(1, argv[2], argv[3]))
		return 1;
	loop(NULL); /* warm */
	best = best_loop();
	printf("t1_per_s %.0f\n", (double)n / best);
	best = 0;
	pthread_barrier_init(&start_line, NULL, 3);
	for (int r = 0; r < REPS; r++) {
		struct share sh[2] = {{cpus[1] >= 0 ? &cpus[0] : NULL, 0},
				      {cpus[1] >= 0 ? &cpus[1] : NULL, 0}};
		struct timespec window = {0, 100 * 1000 * 1000};

		__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
		for (int i = 0; i < 2; i++)
			pthread_create(&th[i], NULL, timed, &sh[i]);
		pthread_barrier_wait(&start_line);
		nanosleep(&window, NULL);
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
		for (int i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		if (sh[0].per_s + sh[1].per_s > best)
			best = sh[0].per_s + sh[1].per_s;
	}
	pthread_barrier_destroy(&start_line);
	printf("t2_per_s %.0f\n", best);
	if (cpus[1] >= 0) {
		pin(cpus[1]);
		loop(NULL);
		best = best_loop();
		printf("t1b_per_s %.0f\n", (double)n / best);
	}
	avc_destroy();
	if (errors)
		fprintf(stderr, "avc_bench: %ld calls failed\n", errors);
	return errors ? 1 : 0;
}
