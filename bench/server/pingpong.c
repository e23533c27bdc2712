/*
 * pingpong: what this machine gives two request/reply pairs over one.
 * K pairs of processes run at once; in each, a client writes a byte to a
 * pipe, its server reads it and writes one back, N times: every round
 * trip is two wake-ups of a sleeping process, the pattern of a client and
 * a FUSE server with nothing to decide.  Prints "K ROUNDTRIPS_PER_SECOND"
 * for K = 1 and 2 (best of R runs each).
 *
 *   pingpong [N [R]]	(default 200000 round trips a pair, R = 3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* One pair: fork a server child and a client child; both exit. */
static void pair(long n)
{
	int up[2], down[2];
	char c = 0;

	if (pipe(up) || pipe(down))
		die("pipe");
	switch (fork()) {
	case -1:
		die("fork");
	case 0:
		for (long i = 0; i < n; i++)
			if (read(up[0], &c, 1) != 1 || write(down[1], &c, 1) != 1)
				die("server");
		_exit(0);
	}
	switch (fork()) {
	case -1:
		die("fork");
	case 0:
		for (long i = 0; i < n; i++)
			if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
				die("client");
		_exit(0);
	}
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

static double run(int k, long n)
{
	struct timespec a, b;
	int st;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < k; i++)
		pair(n);
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			die("a pair failed");
	clock_gettime(CLOCK_MONOTONIC, &b);
	return k * n / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	int r = argc > 2 ? atoi(argv[2]) : 3;
	double best[3] = { 0, 0, 0 };

	if (n <= 0 || r <= 0) {
		fprintf(stderr, "usage: pingpong [N [R]]\n");
		return 2;
	}
	for (int i = 0; i < r; i++)
		for (int k = 1; k <= 2; k++) {
			double rate = run(k, n);

			if (rate > best[k])
				best[k] = rate;
		}
	printf("1 %.0f\n2 %.0f\n", best[1], best[2]);
	return 0;
}
