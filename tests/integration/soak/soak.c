/*
 * soak: the library under policy change, for a minute (issue 37).
 *
 * Usage: soak MNT POLICY1 POLICY2 SEFCONTEXT_COMPILE
 *   MNT: kernel/'s server mounted (tests/lib/with-server.sh), serving
 *   POLICY1 (the bundled non-MLS policy), enforcing.  POLICY2 is the same
 *   policy with the boolean allow_user_exec_tmp false by default (so
 *   user_t may not execute user_tmp_t files once it is loaded).
 *   SEFCONTEXT_COMPILE: the build's utils/sefcontext_compile.
 *   SOAK_SECONDS (default 60) in the environment: how long; the run also
 *   goes on until SOAK_MIN_RELOADS (default 60) reloads were done, so that
 *   the resource check below always has that many reloads to see.
 *
 * At the same time, in one process:
 *   - LOOKERS threads each open a file_contexts handle (SELABEL_OPT_PATH
 *     on a policy directory of the test's own), look up a fixed list of
 *     paths PASSES times, close it and open another;
 *   - a thread asks the AVC (avc_open, the status page) and
 *     security_compute_av about fixed questions;
 *   - a thread walks a small tree of the test's own with
 *     selinux_restorecon (NOCHANGE: nothing written), a new handle each
 *     walk;
 *   - the main thread, the writer, rebuilds the policy again and again:
 *     file_contexts alternately version A and B (written beside and
 *     renamed over, or every few cycles written in place), the .bin and
 *     the index image by sefcontext_compile (which renames its files
 *     over), file_contexts.local rewritten in place with the same bytes
 *     now and then, and POLICY1 / POLICY2 alternately loaded through the
 *     server (security_load_policy).
 *
 * Checks:
 *   - every lookup is A's or B's answer for that path (written by hand
 *     in paths[], and checked before the run on handles on A and on B
 *     alone), and one handle answers one version for its whole life;
 *   - every AVC and compute_av decision is POLICY1's or POLICY2's, and
 *     the current one's once the load was notified (the writer waits for
 *     the AVC's callback before it publishes the new policy);
 *   - the SELINUX_CB_POLICYLOAD callback, the AVC_CALLBACK_RESET callback
 *     and the status page's policyload count each load exactly once, the
 *     callback's sequence numbers one apart;
 *   - the restorecon walks succeed;
 *   - no growth of fds, mappings and RSS between the 10th cycle and the
 *     last, measured with every worker parked at the same point (bounds
 *     at measure(), below).
 *
 * In-place writes: an open that reads a text file while it is rewritten
 * in place sees part of it (in any library: nothing there is atomic), so
 * the writer holds `opening' exclusively while it writes one, and every
 * open holds it shared.  The index image is never written in place
 * (README: a mapped image cut under a handle is SIGBUS by design).
 *
 * Prints one summary line; exit 0, or 1 with the first failures on
 * stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include <selinux/avc.h>
#include <selinux/label.h>
#include <selinux/restorecon.h>
#include <selinux/selinux.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

extern char **environ;

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#define LOOKERS 3
#define PASSES 20     /* passes over the paths per handle */
#define BASE_CYCLE 10 /* the resource baseline: after this many reloads */

static char work[256], pdir[300], fc[320], root[300];
static const char *sfc;

/* ------------------------------------------------------------------ */
/* failures */

static int failed;
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_add_fetch(&failed, 1, __ATOMIC_ACQ_REL) > 10)
		return;
	va_start(ap, fmt);
	fputs("soak: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int quiet_log(int type, const char *fmt, ...)
{
	(void)type, (void)fmt;
	return 0;
}

/* ------------------------------------------------------------------ */
/* the two file_contexts */

/* Each line's "@" is the tree's root.  Lines common to A and B first. */
static const char *const common[] = {
    "@(/.*)?\tsystem_u:object_r:etc_t",
    "@/bin(/.*)?\tsystem_u:object_r:bin_t",
    "@/tmp(/.*)?\tsystem_u:object_r:tmp_t",
    "@/home/[^/]+(/.*)?\tuser_u:object_r:user_home_t",
    NULL,
};
static const char *const only_a[] = {
    "@/home/[^/]+/\\.cache(/.*)?\tuser_u:object_r:user_tmp_t",
    "@/secret\t--\tsystem_u:object_r:shadow_t",
    "@/bin/[^/]*\\.sh\t--\tsystem_u:object_r:bin_t",
    "@/etc/passwd\t--\tsystem_u:object_r:etc_t",
    NULL,
};
static const char *const only_b[] = {
    "@/home/[^/]+/\\.cache(/.*)?\tuser_u:object_r:user_home_t",
    "@/secret\t--\tsystem_u:object_r:etc_t",
    "@/bin/[^/]*\\.sh\t--\tsystem_u:object_r:tmp_t",
    "@/etc/passwd\t--\tsystem_u:object_r:shadow_t",
    "@/none\t<<none>>",
    NULL,
};
/* file_contexts.local, the same in A and B */
static const char local_text[] = "@/tmp/keep\t--\tsystem_u:object_r:bin_t\n";

/* The paths looked up, relative to the root, with a mode ("" the root),
 * and the answers of A and B, by hand from the specs above (NULL:
 * ENOENT).  Seven differ. */
#define O(t) "system_u:object_r:" #t
#define U(t) "user_u:object_r:" #t
static const struct {
	const char *rel;
	mode_t mode;
	const char *want[2];
} paths[] = {
    {"", S_IFDIR, {O(etc_t), O(etc_t)}},
    {"/bin", S_IFDIR, {O(bin_t), O(bin_t)}},
    {"/bin/ls", S_IFREG, {O(bin_t), O(bin_t)}},
    {"/bin/a.sh", S_IFREG, {O(bin_t), O(tmp_t)}},
    {"/bin/a.sh", 0, {O(bin_t), O(tmp_t)}},
    {"/tmp", S_IFDIR, {O(tmp_t), O(tmp_t)}},
    {"/tmp/keep", S_IFREG, {O(bin_t), O(bin_t)}}, /* .local */
    {"/tmp/x", S_IFREG, {O(tmp_t), O(tmp_t)}},
    {"/home/u", S_IFDIR, {U(user_home_t), U(user_home_t)}},
    {"/home/u/f", S_IFREG, {U(user_home_t), U(user_home_t)}},
    {"/home/u/.cache", S_IFDIR, {U(user_tmp_t), U(user_home_t)}},
    {"/home/u/.cache/x", S_IFREG, {U(user_tmp_t), U(user_home_t)}},
    {"/secret", S_IFREG, {O(shadow_t), O(etc_t)}},
    {"/secret", S_IFDIR, {O(etc_t), O(etc_t)}},
    {"/etc", S_IFDIR, {O(etc_t), O(etc_t)}},
    {"/etc/passwd", S_IFREG, {O(etc_t), O(shadow_t)}},
    {"/none", S_IFREG, {O(etc_t), NULL}},
    {"/none/below", S_IFREG, {O(etc_t), O(etc_t)}},
};
#define NPATHS (sizeof(paths) / sizeof(*paths))
static char full[NPATHS][400];

static char *text_of(int v)
{
	size_t cap = 8192, n = 0;
	char *s = malloc(cap);
	const char *const *sets[2] = {common, v ? only_b : only_a};

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; sets[k][i]; i++)
			n += (size_t)snprintf(s + n, cap - n, "%s%s\n", root,
					      sets[k][i] + 1);
	return s;
}

static void write_all(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
	size_t len = strlen(s);

	if (fd < 0 || write(fd, s, len) != (ssize_t)len || close(fd)) {
		fail("write %s: %s", path, strerror(errno));
		exit(1);
	}
}

static pthread_rwlock_t opening = PTHREAD_RWLOCK_INITIALIZER;

/* file_contexts as version v: beside and renamed over, or in place */
static void install_fc(int v, int in_place)
{
	char *s = text_of(v), tmp[400];

	if (in_place) {
		pthread_rwlock_wrlock(&opening);
		write_all(fc, s, O_TRUNC);
		pthread_rwlock_unlock(&opening);
	} else {
		snprintf(tmp, sizeof(tmp), "%s.new", fc);
		write_all(tmp, s, O_TRUNC);
		if (rename(tmp, fc))
			fail("rename %s: %s", tmp, strerror(errno));
	}
	free(s);
}

static void rewrite_local(void)
{
	char path[400], text[512];

	snprintf(path, sizeof(path), "%s.local", fc);
	snprintf(text, sizeof(text), "%s%s", root, local_text + 1);
	pthread_rwlock_wrlock(&opening);
	write_all(path, text, O_TRUNC);
	pthread_rwlock_unlock(&opening);
}

/* sefcontext_compile FC: the .bin and the image, each renamed over */
static void compile_fc(void)
{
	char *argv[] = {(char *)sfc, fc, NULL};
	pid_t pid;
	int st;

	if (posix_spawn(&pid, sfc, NULL, NULL, argv, environ)) {
		fail("spawn %s: %s", sfc, strerror(errno));
		return;
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		fail("sefcontext_compile %s: status 0x%x", fc, st);
}

static struct selabel_handle *open_handle(void)
{
	struct selinux_opt o = {SELABEL_OPT_PATH, fc};
	struct selabel_handle *h;

	pthread_rwlock_rdlock(&opening);
	h = selabel_open(SELABEL_CTX_FILE, &o, 1);
	pthread_rwlock_unlock(&opening);
	if (!h)
		fail("selabel_open %s: %s", fc, strerror(errno));
	return h;
}

static char *answer(struct selabel_handle *h, size_t i)
{
	char *con = NULL;

	if (selabel_lookup(h, &con, full[i], paths[i].mode) == 0)
		return con;
	if (errno != ENOENT)
		fail("lookup %s: %s", full[i], strerror(errno));
	return NULL;
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* ------------------------------------------------------------------ */
/* parking the workers for a measure */

static pthread_mutex_t park_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_cv = PTHREAD_COND_INITIALIZER;
static int park_req, parked, stop;

/* A worker between two handles (a looker holds none, the walker its
 * last: walker()), no walk or question under way, waits here while the
 * writer measures. */
static void park_point(void)
{
	if (!__atomic_load_n(&park_req, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&park_mu);
	parked++;
	pthread_cond_broadcast(&park_cv);
	while (park_req)
		pthread_cond_wait(&park_cv, &park_mu);
	parked--;
	pthread_mutex_unlock(&park_mu);
}

#define WORKERS (LOOKERS + 2)

static void park_all(void)
{
	pthread_mutex_lock(&park_mu);
	__atomic_store_n(&park_req, 1, __ATOMIC_RELEASE);
	while (parked < WORKERS)
		pthread_cond_wait(&park_cv, &park_mu);
	pthread_mutex_unlock(&park_mu);
}

static void unpark_all(void)
{
	pthread_mutex_lock(&park_mu);
	__atomic_store_n(&park_req, 0, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&park_cv);
	pthread_mutex_unlock(&park_mu);
}

/* ------------------------------------------------------------------ */
/* the lookers */

static unsigned long lookups, handles_opened, image_samples;
static int image_mapped(void);

/* got (freed here) must be A's or B's answer for paths[i]; *ver is the
 * version the handle answered so far (-1: none that tells). */
static void check_answer(size_t i, char *got, int *ver)
{
	const char *a = paths[i].want[0], *b = paths[i].want[1];
	int is_a = same(got, a), is_b = same(got, b);

	if (!is_a && !is_b)
		fail("%s (mode 0%o): %s is neither A's %s nor B's %s", full[i],
		     (unsigned)paths[i].mode, got ? got : "ENOENT",
		     a ? a : "ENOENT", b ? b : "ENOENT");
	else if (is_a != is_b) {
		if (*ver >= 0 && *ver != is_b)
			fail("%s: a handle that answered %c now answers %c",
			     full[i], 'A' + *ver, 'A' + is_b);
		*ver = is_b;
	}
	freecon(got);
}

static void *looker(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct selabel_handle *h;
		unsigned long n;
		int ver = -1;

		park_point();
		if (!(h = open_handle()))
			break;
		/* every 64th handle: is an image mapped (this one's or
		 * another thread's)?  A figure for the summary: the image
		 * is stale while a text file written in place is newer. */
		n = __atomic_add_fetch(&handles_opened, 1, __ATOMIC_RELAXED);
		if (n % 64 == 0 && image_mapped())
			__atomic_add_fetch(&image_samples, 1, __ATOMIC_RELAXED);
		for (int p = 0; p < PASSES; p++)
			for (size_t i = 0; i < NPATHS; i++)
				check_answer(i, answer(h, i), &ver);
		__atomic_add_fetch(&lookups, PASSES * NPATHS, __ATOMIC_RELAXED);
		selabel_close(h);
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* the restorecon walker */

static unsigned long walks;
#define WALK                                                                   \
	(SELINUX_RESTORECON_RECURSE | SELINUX_RESTORECON_NOCHANGE |            \
	 SELINUX_RESTORECON_IGNORE_MOUNTS | SELINUX_RESTORECON_SKIP_DIGEST)

/* restorecon's handle is replaced before the old one is closed (it may
 * not be unset): the walker holds one handle, parked or not. */
static void *walker(void *arg)
{
	struct selabel_handle *old = NULL;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct selabel_handle *h;

		park_point();
		if (!(h = open_handle()))
			break;
		selinux_restorecon_set_sehandle(h);
		if (old)
			selabel_close(old);
		old = h;
		if (selinux_restorecon(root, WALK))
			fail("selinux_restorecon %s: %s", root,
			     strerror(errno));
		__atomic_add_fetch(&walks, 1, __ATOMIC_RELAXED);
	}
	return old;
}

/* ------------------------------------------------------------------ */
/* the AVC */

static const struct {
	const char *s, *t, *perm;
	int want[2]; /* granted under POLICY1, POLICY2 */
} questions[] = {
    {"user_u:user_r:user_t", "user_u:object_r:user_tmp_t", "execute", {1, 0}},
    {"user_u:user_r:user_t", "user_u:object_r:user_tmp_t", "read", {1, 1}},
    {"system_u:system_r:sshd_t", "system_u:object_r:etc_t", "read", {1, 1}},
    {"system_u:system_r:sshd_t", "system_u:object_r:etc_t", "write", {0, 0}},
    {"user_u:user_r:user_t", "system_u:object_r:shadow_t", "read", {0, 0}},
};
#define NQ (sizeof(questions) / sizeof(*questions))

static security_id_t qs[NQ], qt[NQ];
/* published: the policy loaded (0, 1); gen odd while a load is under way */
static unsigned gen;
static int cur_policy;
static unsigned long avc_queries, avc_again;
static unsigned policyloads, resets;
static int last_seqno = -1, first_seqno = -1;

static int on_policyload(int seqno)
{
	if (last_seqno >= 0 && seqno != last_seqno + 1)
		fail("policyload callback: seqno %d after %d", seqno,
		     last_seqno);
	if (first_seqno < 0)
		first_seqno = seqno;
	last_seqno = seqno;
	__atomic_add_fetch(&policyloads, 1, __ATOMIC_RELEASE);
	return 0;
}

static int on_reset(uint32_t event, security_id_t s, security_id_t t,
		    security_class_t c, access_vector_t p, access_vector_t *r)
{
	(void)event, (void)s, (void)t, (void)c, (void)p, (void)r;
	__atomic_add_fetch(&resets, 1, __ATOMIC_RELEASE);
	return 0;
}

static void check_decision(const char *how, size_t q, int got, unsigned g1)
{
	unsigned g2 = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);

	if (got != questions[q].want[0] && got != questions[q].want[1])
		fail("%s %s -> %s %s: %d, neither policy's", how,
		     questions[q].s, questions[q].t, questions[q].perm, got);
	else if (g1 == g2 && !(g1 & 1) &&
		 got !=
		     questions[q]
			 .want[__atomic_load_n(&cur_policy, __ATOMIC_ACQUIRE)])
		fail("%s %s -> %s %s: %d, stale after the load was notified",
		     how, questions[q].s, questions[q].t, questions[q].perm,
		     got);
}

static void *avc_thread(void *arg)
{
	unsigned n = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		size_t q = n++ % NQ;
		security_class_t c;
		access_vector_t p;
		struct av_decision avd;
		unsigned g1;
		int r;

		park_point();
		if (selinux_status_updated() < 0)
			fail("selinux_status_updated: %s", strerror(errno));
		g1 = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);
		c = string_to_security_class("file");
		p = c ? string_to_av_perm(c, questions[q].perm) : 0;
		if (!c || !p) {
			/* class/ is replaced while a load is under way */
			if (g1 == __atomic_load_n(&gen, __ATOMIC_ACQUIRE) &&
			    !(g1 & 1))
				fail("no class file / %s", questions[q].perm);
			continue;
		}
		if (n % 4 == 0) {
			r = security_compute_av(questions[q].s, questions[q].t,
						c, p, &avd);
			if (r < 0)
				fail("security_compute_av: %s",
				     strerror(errno));
			else
				check_decision("compute_av", q,
					       (avd.allowed & p) == p, g1);
		} else {
			r = avc_has_perm_noaudit(qs[q], qt[q], c, p, NULL,
						 &avd);
			if (r < 0 && errno == EAGAIN)
				avc_again++;
			else if (r < 0 && errno != EACCES)
				fail("avc_has_perm: %s", strerror(errno));
			else
				check_decision("avc_has_perm", q, r == 0, g1);
		}
		__atomic_add_fetch(&avc_queries, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* resources */

struct res {
	long fds, maps, rss_kb;
};

static struct res measure(void)
{
	struct res r = {0, 0, 0};
	char line[512];
	DIR *d = opendir("/proc/self/fd");
	FILE *f;

	if (d) {
		while (readdir(d))
			r.fds++;
		closedir(d);
		r.fds -= 3; /* ".", ".." and the directory's own fd */
	}
	if ((f = fopen("/proc/self/maps", "re"))) {
		while (fgets(line, sizeof(line), f))
			if (strchr(line, '\n'))
				r.maps++;
		fclose(f);
	}
	if ((f = fopen("/proc/self/status", "re"))) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "VmRSS:", 6))
				r.rss_kb = atol(line + 6);
		fclose(f);
	}
	return r;
}

/* ------------------------------------------------------------------ */

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc((size_t)n)) ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void mk(const char *rel, int dir)
{
	char p[400];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	if (dir ? mkdir(p, 0755) : close(open(p, O_CREAT | O_WRONLY, 0644))) {
		perror(p);
		exit(2);
	}
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Whether this process maps the policy directory's index image (the
 * current one, or one renamed over: " (deleted)"). */
static int image_mapped(void)
{
	char line[1024], want[400];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	snprintf(want, sizeof(want), " %s.idx", fc);
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return found;
}

/* The test's directory goes at any exit (a failure's too). */
static void remove_work(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", work);
	if (system(cmd))
		fprintf(stderr, "soak: could not remove %s\n", work);
}

static void wait_policyload(unsigned want)
{
	/* The AVC thread delivers the event; a minute without it is a
	 * hang, not a slow machine. */
	for (int i = 0; i < 60000; i++) {
		if (__atomic_load_n(&policyloads, __ATOMIC_ACQUIRE) >= want)
			return;
		usleep(1000);
	}
	fail("no policyload callback for load %u after 60 s", want);
	exit(1);
}

int main(int argc, char **argv)
{
	pthread_t th[WORKERS];
	void *pol[2];
	size_t pol_len[2];
	unsigned long seconds = 60, min_reloads = 60, cycles = 0;
	struct res base = {0, 0, 0}, end;
	struct timespec t0, t1;
	int status0, loads = 0;
	const char *e;

	if (argc != 5) {
		fprintf(stderr, "usage: soak MNT POLICY1 POLICY2 "
				"SEFCONTEXT_COMPILE\n");
		return 2;
	}
	if ((e = getenv("SOAK_SECONDS")) && *e)
		seconds = strtoul(e, NULL, 10);
	if ((e = getenv("SOAK_MIN_RELOADS")) && *e)
		min_reloads = strtoul(e, NULL, 10);
	if (min_reloads < 2 * BASE_CYCLE)
		min_reloads = 2 * BASE_CYCLE;
	set_selinuxmnt(argv[1]);
	pol[0] = slurp(argv[2], &pol_len[0]);
	pol[1] = slurp(argv[3], &pol_len[1]);
	sfc = argv[4];
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){.func_log = quiet_log});

	/* tmpfs holds security.* xattrs whatever the kernel's LSMs */
	snprintf(work, sizeof(work), "%s/soak.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(work))
		return perror(work), 2;
	atexit(remove_work);
	snprintf(pdir, sizeof(pdir), "%s/policy", work);
	snprintf(fc, sizeof(fc), "%s/file_contexts", pdir);
	snprintf(root, sizeof(root), "%s/tree", work);
	mkdir(pdir, 0755);
	mkdir(root, 0755);
	mk("/bin", 1), mk("/bin/ls", 0), mk("/bin/a.sh", 0), mk("/tmp", 1);
	mk("/tmp/keep", 0), mk("/tmp/x", 0), mk("/home", 1), mk("/home/u", 1);
	mk("/home/u/f", 0), mk("/home/u/.cache", 1), mk("/home/u/.cache/x", 0);
	mk("/secret", 0), mk("/etc", 1), mk("/etc/passwd", 0), mk("/none", 0);
	for (size_t i = 0; i < NPATHS; i++)
		snprintf(full[i], sizeof(full[i]), "%s%s", root, paths[i].rel);
	rewrite_local();

	/* A handle on each version alone gives that version's answers
	 * (installed and compiled as in the run; A last, the run's start) */
	for (int v = 1; v >= 0; v--) {
		struct selabel_handle *h;

		install_fc(v, 0);
		compile_fc();
		if (!(h = open_handle()))
			return 1;
		for (size_t i = 0; i < NPATHS; i++) {
			char *got = answer(h, i);

			if (!same(got, paths[i].want[v]))
				fail("version %c alone: %s (mode 0%o) is %s, "
				     "not %s",
				     'A' + v, full[i], (unsigned)paths[i].mode,
				     got ? got : "ENOENT",
				     paths[i].want[v] ? paths[i].want[v]
						      : "ENOENT");
			freecon(got);
		}
		/* sefcontext_compile wrote a fresh image: the handle maps it */
		if (!image_mapped())
			fail("a handle on version %c does not map %s.idx",
			     'A' + v, fc);
		selabel_close(h);
	}
	if (failed)
		return 1;

	/* the AVC and the status page; POLICY1 is loaded */
	if (security_setenforce(1) || avc_open(NULL, 0))
		return perror("avc_open"), 1;
	if (selinux_status_open(1) < 0)
		return perror("selinux_status_open"), 1;
	for (size_t q = 0; q < NQ; q++)
		if (avc_context_to_sid(questions[q].s, &qs[q]) ||
		    avc_context_to_sid(questions[q].t, &qt[q]))
			return perror("avc_context_to_sid"), 1;
	if (avc_add_callback(on_reset, AVC_CALLBACK_RESET, NULL, NULL, 0, 0))
		return perror("avc_add_callback"), 1;
	selinux_set_callback(
	    SELINUX_CB_POLICYLOAD,
	    (union selinux_callback){.func_policyload = on_policyload});
	status0 = selinux_status_policyload();

	for (int i = 0; i < LOOKERS; i++)
		pthread_create(&th[i], NULL, looker, NULL);
	pthread_create(&th[LOOKERS], NULL, walker, NULL);
	pthread_create(&th[LOOKERS + 1], NULL, avc_thread, NULL);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int v = (int)(cycles + 1) % 2; /* A (0) is installed */

		install_fc(v, cycles % 5 == 2);
		compile_fc();
		if (cycles % 7 == 3)
			rewrite_local();
		__atomic_add_fetch(&gen, 1, __ATOMIC_ACQ_REL); /* odd */
		if (security_load_policy(pol[v], pol_len[v]))
			fail("security_load_policy: %s", strerror(errno));
		else
			wait_policyload((unsigned)++loads);
		__atomic_store_n(&cur_policy, v, __ATOMIC_RELEASE);
		__atomic_add_fetch(&gen, 1, __ATOMIC_ACQ_REL); /* even */
		cycles++;
		if (failed)
			break;
		if (cycles == BASE_CYCLE) {
			park_all();
			base = measure();
			unpark_all();
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (elapsed(&t0, &t1) >= (double)seconds &&
		    cycles >= min_reloads)
			break;
	}
	if (!failed)
		park_all();
	end = measure();
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	unpark_all();
	for (int i = 0; i < WORKERS; i++) {
		void *h = NULL;

		pthread_join(th[i], &h);
		if (h)
			selabel_close(h); /* the walker's last */
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	/* each load counted once, by every channel */
	(void)selinux_status_updated();
	if (policyloads != (unsigned)loads || resets != (unsigned)loads)
		fail("%d loads, %u policyload callbacks, %u AVC resets", loads,
		     policyloads, resets);
	if (selinux_status_policyload() != status0 + loads)
		fail("status page policyload %d, want %d + %d",
		     selinux_status_policyload(), status0, loads);
	if (first_seqno != status0 + 1)
		fail("first policyload seqno %d, want %d", first_seqno,
		     status0 + 1);

	/*
	 * Resources, both measures taken with every worker parked (park_point:
	 * the lookers between two handles, the walker holding one, no walk or
	 * question under way) and the writer between cycles: the same objects
	 * exist at both points.
	 * - fds: exactly as many (the status page's, the server's; a handle
	 *   keeps none open once it is closed); one leaked per reload would
	 *   be >= min_reloads - BASE_CYCLE more.
	 * - mappings: the same objects mapped; glibc's allocator may add a
	 *   heap to an arena (2 lines: the heap and its reserve) when its
	 *   memory grows, at most one per thread's arena over the run here
	 *   (memory does not grow: next check) - 2 * (WORKERS + 1) lines,
	 *   below the min_reloads - BASE_CYCLE >= 50 that a leaked mapping
	 *   per reload (a handle's image, a policy) would add.
	 * - RSS: allocator slack (free lists and arenas at their high water
	 *   mark, the top of each heap) of at most 1 MiB a thread, 8 MiB
	 *   in all; a handle on these specs is some 100 KiB (compiled regexes,
	 *   specs, the image's pages), so one leaked per reload is >= 5 MiB
	 *   after 50 reloads, and a leak per lookup or per query far more.
	 *   The bound is above that at 50 reloads; the default run reloads
	 *   hundreds of times.
	 * Under a sanitizer the allocator is ASan's (its quarantine holds
	 * hundreds of MB of freed memory, mapped region by region): fds are
	 * checked, mappings and RSS only reported; LeakSanitizer checks the
	 * memory at exit.
	 */
	if (cycles < BASE_CYCLE) /* failed before the baseline */
		;
	else if (end.fds > base.fds)
		fail("fds: %ld after %d reloads, %ld after %d", end.fds, loads,
		     base.fds, BASE_CYCLE);
	if (!SANITIZED && cycles >= BASE_CYCLE &&
	    end.maps > base.maps + 2 * (WORKERS + 1))
		fail("mappings: %ld after %d reloads, %ld after %d", end.maps,
		     loads, base.maps, BASE_CYCLE);
	if (!SANITIZED && cycles >= BASE_CYCLE &&
	    end.rss_kb > base.rss_kb + 8192)
		fail("RSS: %ld KiB after %d reloads, %ld KiB after %d",
		     end.rss_kb, loads, base.rss_kb, BASE_CYCLE);

	printf("soak: %.1f s, %lu reloads, %d policy loads, %lu handles, "
	       "%lu lookups (image mapped at %lu of %lu samples), %lu AVC "
	       "queries (%lu EAGAIN), %lu walks; "
	       "fds %ld -> %ld, maps %ld -> %ld, RSS %ld -> %ld KiB%s\n",
	       elapsed(&t0, &t1), cycles, loads, handles_opened, lookups,
	       image_samples, handles_opened / 64, avc_queries, avc_again,
	       walks, base.fds, end.fds, base.maps, end.maps, base.rss_kb,
	       end.rss_kb,
	       SANITIZED ? " (sanitized: maps, RSS not checked)" : "");

	selinux_status_close();
	avc_destroy();
	free(pol[0]);
	free(pol[1]);
	return failed ? 1 : 0;
}
