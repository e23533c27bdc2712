/*
 * sid_bound POLICY N: the security server's SID table under a client that
 * names N distinct contexts (kernel/server/context.c), through the
 * server's request path (files.c's transactions, as fuse.c calls them)
 * without a mount, so that N = 10^6 takes seconds.
 *
 * POLICY is the bundled MLS policy.  Each request is an access decision
 * "SOURCE TARGET file" whose target carries a category set of its own:
 * the bits of the request's number, spread over c0..c255 (so that its
 * bitmaps take several nodes, as a hostile client's would).  Checked,
 * every CHECK requests:
 *
 *  - the SIDs held (ss/sidtab_hash_stats' entries) stay within the
 *    table's bound: SRV_SID_CAP (16384) besides the initial SIDs (at
 *    most 27), plus the 2 of the request in flight;
 *  - the memory the server holds stays bounded: the allocator's bytes
 *    in use (mallinfo2: exact, whatever the allocator keeps free) and
 *    the process's VmRSS (not under a sanitizer, whose quarantine keeps
 *    freed memory resident; its own count of bytes in use replaces
 *    mallinfo2's then) may exceed what they were after the first
 *    2 * SRV_SID_CAP requests (the table full, with its working size
 *    reached) by at most BOUND_KIB.  What the bound guards against: a
 *    SID kept per context, at least 160 bytes (a 96-byte entry and two
 *    32-byte bitmap nodes; the old table, libsepol's, took some 350),
 *    or 16 MB per 10^5 contexts; the table itself, full, is about
 *    16384 * (96 + 16 + up to 8 * 32) bytes = 6 MiB, all of it there
 *    at the first checkpoint.  BOUND_KIB (2 MiB) is an eighth of what
 *    the first 10^5 contexts past that checkpoint would add if kept.
 *    (The old table also slowed with its size: 10^5 requests took 17 s,
 *    10^6 more than 10 minutes; the first checkpoint past the bound
 *    ends the test.)
 *  - answers stay right: every request answers what a target of its
 *    type (etc_t, or shadow_t for every third) answers, which differ,
 *    so that a decision cached under a SID given again to another
 *    context would show; a hot query (asked every HOT requests, so
 *    that its SIDs stay in the table) and the first context named
 *    (long since reclaimed, then named again) answer as they did at the
 *    start, and "context" gives back every 1000th context as named.
 *
 * Built a second time with a bound of 1000 SIDs and SID numbers that
 * restart past 50,000 (SRV_SID_CAP, SIDX_RESTART): 300,000 contexts then
 * make the table reclaim all the time and the numbers restart (and
 * the decision cache empty) five times, under the same checks.
 *
 * Prints the figures at each checkpoint; exits 1 on a failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "mem.h"

/* SRV_SID_CAP, kernel/server/policy.c: a build of this test may lower
 * it, and SIDX_RESTART (context.h), for both the server and the test */
#ifndef SRV_SID_CAP
#define SRV_SID_CAP 16384
#endif
#define SID_CAP ((unsigned long)SRV_SID_CAP)
#define INITIAL_MAX 27u
#define BOUND_KIB 2048
#define CHECK 100000u
#define HOT 64u
#define SOURCE "system_u:system_r:sshd_t:s0-s3:c0.c255"
#define HOTQ SOURCE " system_u:object_r:etc_t:s0:c1,c7 "

static int failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	failures++;
	va_start(ap, fmt);
	printf("FAIL ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

static uint64_t ino_of(uint64_t dir, const char *name)
{
	struct sfs_node n;

	if (sfs_lookup(dir, name, &n) < 0) {
		fprintf(stderr, "sid_bound: no %s\n", name);
		exit(2);
	}
	return n.ino;
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) < 0 || !(b = malloc((size_t)n)) ||
	    fread(b, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* The target context of request i: shadow_t for every third, etc_t for
 * the others, whose decisions differ; bit k of i names c(37 k mod 256). */
static void target(unsigned long i, char *buf, size_t size)
{
	bool cat[256] = {false};
	size_t n = (size_t)snprintf(buf, size, "system_u:object_r:%s:s0",
				    i % 3 ? "etc_t" : "shadow_t");
	const char *sep = ":";

	for (unsigned k = 0; k < 32; k++)
		if (i >> k & 1)
			cat[(37 * k) % 256] = true;
	for (unsigned c = 0; c < 256; c++)
		if (cat[c]) {
			n += (size_t)snprintf(buf + n, size - n, "%sc%u", sep,
					      c);
			sep = ",";
		}
}

/* The answer to a transaction, malloc'd ("" with its errno, on error). */
static char *ask(uint64_t ino, const char *req, int *err)
{
	char *ans = NULL;
	size_t len = 0;
	int r = sfs_transact(ino, req, strlen(req), 0, &ans, &len);

	*err = r < 0 ? -r : 0;
	if (r < 0)
		return strdup("");
	return ans;
}

static long long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %lld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static long long in_use_kib(void)
{
	return (long long)(mem_in_use() / 1024);
}

static unsigned long sid_entries(uint64_t stats)
{
	char *data = NULL;
	size_t len = 0;
	unsigned long n = 0;

	if (sfs_read(stats, &data, &len) < 0 ||
	    sscanf(data, "entries: %lu", &n) != 1)
		fail("ss/sidtab_hash_stats unreadable");
	free(data);
	return n;
}

int main(int argc, char **argv)
{
	uint64_t access, context, stats;
	unsigned long n, i, peak = 0;
	long long rss0 = 0, use0 = 0;
	char req[1024], tgt[512], *hot0, *first0, *a, *want[2];
	size_t plen;
	void *pol;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: sid_bound POLICY N\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	pol = slurp(argv[1], &plen);
	if (sfs_start(pol, plen, 0) < 0) {
		fprintf(stderr, "sid_bound: %s does not load\n", argv[1]);
		return 2;
	}
	free(pol);
	access = ino_of(1, "access");
	context = ino_of(1, "context");
	stats = ino_of(ino_of(1, "ss"), "sidtab_hash_stats");

	hot0 = ask(access, HOTQ "6", &err);
	if (err)
		fail("hot query: errno %d", err);
	target(1, tgt, sizeof(tgt));
	snprintf(req, sizeof(req), SOURCE " %s 6", tgt);
	first0 = ask(access, req, &err);
	if (err)
		fail("first query: errno %d", err);

	/* what a target of each type answers (with categories: the
	 * source's low level s0 dominates none, the MLS constraints take
	 * every permission, and what is left differs by type) */
	for (int k = 0; k < 2; k++) {
		target(k ? 1 : 3, tgt, sizeof(tgt));
		snprintf(req, sizeof(req), SOURCE " %s 6", tgt);
		want[k] = ask(access, req, &err);
		if (err)
			fail("access %s: errno %d", req, err);
	}
	if (!strcmp(want[0], want[1]))
		fail("etc_t and shadow_t answer alike (%s): no check of a "
		     "SID mistaken for another",
		     want[0]);

	for (i = 1; i <= n; i++) {
		target(i, tgt, sizeof(tgt));
		snprintf(req, sizeof(req), SOURCE " %s 6", tgt);
		a = ask(access, req, &err);
		if (err)
			fail("access %s: errno %d", req, err);
		else if (strcmp(a, want[i % 3 != 0]))
			fail("access %s answers %s, as the other type", req, a);
		free(a);
		if (failures > 20)
			break;
		if (i % HOT == 0) {
			a = ask(access, HOTQ "6", &err);
			if (err || strcmp(a, hot0))
				fail("hot query answers %s (errno %d)", a, err);
			free(a);
		}
		if (i % 1000 == 0) {
			a = ask(context, tgt, &err);
			if (err || strcmp(a, tgt) != 0) {
				/* the canonical form may differ from ours
				 * only by ranges c1.c3; ours names no runs
				 * of three (37 apart) */
				fail("context %s answers %s (errno %d)", tgt, a,
				     err);
			}
			free(a);
		}
		if (i % 4096 == 0) {
			unsigned long e = sid_entries(stats);

			if (e > peak)
				peak = e;
			if (e > SID_CAP + INITIAL_MAX + 2) {
				fail("%lu SIDs held", e);
				break;
			}
		}
		if (i == 2 * SID_CAP || (i % CHECK == 0 && i > 2 * SID_CAP) ||
		    i == n) {
			long long rss = rss_kib(), use = in_use_kib();

			if (i == 2 * SID_CAP || !rss0) {
				rss0 = rss;
				use0 = use;
			}
			printf("%lu contexts: %lu SIDs held, in use %lld KiB "
			       "(%+lld), VmRSS %lld KiB (%+lld)\n",
			       i, sid_entries(stats), use, use - use0, rss,
			       rss - rss0);
			fflush(stdout);
			if (use - use0 > BOUND_KIB) {
				fail("in use grew %lld KiB", use - use0);
				break;
			}
			if (rss - rss0 > BOUND_KIB && !mem_sanitized()) {
				fail("VmRSS grew %lld KiB", rss - rss0);
				break;
			}
		}
	}
	/* the first context, reclaimed long ago, named again */
	target(1, tgt, sizeof(tgt));
	snprintf(req, sizeof(req), SOURCE " %s 6", tgt);
	a = ask(access, req, &err);
	if (err || strcmp(a, first0))
		fail("the first context again: %s (errno %d)", a, err);
	free(a);
	printf("most SIDs held: %lu (bound %lu + %u initial + 2)\n", peak,
	       SID_CAP, INITIAL_MAX);
	free(hot0);
	free(first0);
	free(want[0]);
	free(want[1]);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
