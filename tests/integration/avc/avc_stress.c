/*
 * avc_stress: the AVC's lock-free hits under ThreadSanitizer, against
 * kernel/'s server on the bundled (non-MLS) policy.
 *
 * Usage: avc_stress MNT POLICY SECONDS READERS
 *
 * READERS threads ask avc_has_perm_noaudit about more distinct triples
 * than the cache holds (so inserts and reclaims never stop), with and
 * without an entry reference, while one more thread, the writer, in turn
 * flips the boolean allow_user_exec_tmp (commit), toggles enforcing and
 * reloads the policy.  Two decisions are watched:
 *   user_t -> user_tmp_t file execute   granted iff the boolean is on
 *   sshd_t -> etc_t file write          denied (EACCES) when enforcing,
 *                                       granted when permissive
 * Half the watched questions go through selinux_check_access by name.
 * The writer publishes each new state only after the AVC's callback for
 * the change (AVC_CALLBACK_RESET, or SELINUX_CB_SETENFORCE) has returned,
 * and marks the time between a change and its publication; a reader's
 * watched call that began and ended inside one published state must give
 * that state's answer: no stale decision once the event was delivered.
 * Exit status 0, or 1 with the first discrepancy on stderr.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <selinux/avc.h>
#include <selinux/selinux.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const char *const srcs[] = {
    "system_u:system_r:sshd_t",
    "user_u:user_r:user_t",
    "staff_u:staff_r:staff_t",
    "staff_u:sysadm_r:sysadm_t",
};
static const char *const tgts[] = {
    "system_u:object_r:etc_t",	    "system_u:object_r:shadow_t",
    "user_u:object_r:user_home_t", "user_u:object_r:user_tmp_t",
    "system_u:object_r:tmp_t",	    "system_u:object_r:bin_t",
};
#define NS (sizeof(srcs) / sizeof(*srcs))
#define NT (sizeof(tgts) / sizeof(*tgts))
#define NCLASS 40 /* with NS x NT: 960 triples, the cache holds 410 */

static security_id_t ssid[NS], tsid[NT];
static security_class_t c_file;
static access_vector_t p_execute, p_write;

/* The published state: gen odd while a change is under way. */
static unsigned gen;
static int pub_bool = 1, pub_enforcing = 1;
static unsigned resets, setenforces;
static int stop, failed;
static char *policy;
static size_t policy_len;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_exchange_n(&failed, 1, __ATOMIC_ACQ_REL))
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int on_reset(uint32_t event, security_id_t s, security_id_t t,
		    security_class_t c, access_vector_t p, access_vector_t *r)
{
	(void)event, (void)s, (void)t, (void)c, (void)p, (void)r;
	__atomic_add_fetch(&resets, 1, __ATOMIC_RELEASE);
	return 0;
}

static int on_setenforce(int enforcing)
{
	(void)enforcing;
	__atomic_add_fetch(&setenforces, 1, __ATOMIC_RELEASE);
	return 0;
}

static unsigned seed_next(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* One watched decision: 1 granted, 0 denied, 2 no answer yet (EAGAIN:
 * the policy changed while it was computed, as the established library
 * also reports), -1 another error. */
static int ask(security_id_t s, security_id_t t, access_vector_t p,
	       struct avc_entry_ref *ref)
{
	struct av_decision avd;

	if (avc_has_perm_noaudit(s, t, c_file, p, ref, &avd) == 0)
		return 1;
	return errno == EACCES ? 0 : errno == EAGAIN ? 2 : -1;
}

/* The same through selinux_check_access, by name (its per-thread memo
 * of the names against the resets that renumber them). */
static int ask_names(const char *s, const char *t, const char *perm)
{
	if (selinux_check_access(s, t, "file", perm, NULL) == 0)
		return 1;
	return errno == EACCES ? 0 : errno == EAGAIN ? 2 : -1;
}

/* The thread's last message, for a failure's report. */
static __thread char last_log[256];

static int quiet_log(int type, const char *fmt, ...)
{
	va_list ap;

	(void)type;
	va_start(ap, fmt);
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
	va_end(ap);
	return 0;
}

static void *reader(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	struct avc_entry_ref ref, wref;
	struct av_decision avd;

	avc_entry_ref_init(&ref);
	avc_entry_ref_init(&wref);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		unsigned r = seed_next(&seed);
		unsigned g1, g2;
		int got, want;

		/* pressure: any triple, a permission bit */
		if (avc_has_perm_noaudit(ssid[r % NS], tsid[(r / NS) % NT],
					 (security_class_t)(1 + (r / 7) % NCLASS),
					 1u << (r % 3), (r & 64) ? &ref : NULL,
					 &avd) < 0 &&
		    errno != EACCES && errno != EAGAIN)
			fail("has_perm: %s", strerror(errno));
		if (r % 4)
			continue;

		/* a watched decision inside one published state */
		g1 = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);
		if ((r & 8) && (r & 32)) {
			got = ask_names(srcs[1], tgts[3], "execute");
			want = __atomic_load_n(&pub_bool, __ATOMIC_ACQUIRE) ||
			       !__atomic_load_n(&pub_enforcing,
						__ATOMIC_ACQUIRE);
		} else if (r & 32) {
			got = ask_names(srcs[0], tgts[0], "write");
			want = !__atomic_load_n(&pub_enforcing,
						__ATOMIC_ACQUIRE);
		} else if (r & 8) {
			got = ask(ssid[1], tsid[3], p_execute,
				  (r & 16) ? &wref : NULL);
			want = __atomic_load_n(&pub_bool, __ATOMIC_ACQUIRE) ||
			       !__atomic_load_n(&pub_enforcing,
						__ATOMIC_ACQUIRE);
		} else {
			got = ask(ssid[0], tsid[0], p_write,
				  (r & 16) ? &wref : NULL);
			want = !__atomic_load_n(&pub_enforcing,
						__ATOMIC_ACQUIRE);
		}
		g2 = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);
		/* A class looked up by name while a load replaces class/ may
		 * not be found (the server's window is wider than the
		 * kernel's): an error then, never inside one stable state. */
		if (got < 0 && (r & 32) && errno == EINVAL &&
		    (g1 != g2 || (g1 & 1)))
			continue;
		if (got < 0)
			fail("watched %s: %s (last message: %s)",
			     (r & 32) ? "selinux_check_access" : "has_perm",
			     strerror(errno), last_log);
		else if (got != 2 && g1 == g2 && !(g1 & 1) && got != want)
			fail("stale decision: %s got %d, want %d (gen %u, "
			     "boolean %d, enforcing %d)",
			     (r & 8) ? "execute user_tmp_t" : "write etc_t",
			     got, want, g1,
			     __atomic_load_n(&pub_bool, __ATOMIC_ACQUIRE),
			     __atomic_load_n(&pub_enforcing, __ATOMIC_ACQUIRE));
	}
	return NULL;
}

/* Wait until *counter moves past was (the callback returned), asking the
 * AVC meanwhile so that it reads the status page. */
static int wait_event(unsigned *counter, unsigned was)
{
	struct av_decision avd;

	for (int i = 0; i < 20000; i++) {
		if (__atomic_load_n(counter, __ATOMIC_ACQUIRE) != was)
			return 0;
		(void)avc_has_perm_noaudit(ssid[2], tsid[2], c_file, p_write,
					   NULL, &avd);
		usleep(100);
	}
	fail("no callback for a change after 2 s");
	return -1;
}

static void *writer(void *arg)
{
	int step = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		unsigned was_r = __atomic_load_n(&resets, __ATOMIC_ACQUIRE);
		unsigned was_e = __atomic_load_n(&setenforces, __ATOMIC_ACQUIRE);
		int kind = step++ % 3, r = 0;

		__atomic_add_fetch(&gen, 1, __ATOMIC_ACQ_REL); /* odd */
		if (kind == 0) {
			int v = !__atomic_load_n(&pub_bool, __ATOMIC_ACQUIRE);
			SELboolean b = {(char *)"allow_user_exec_tmp", v};

			r = security_set_boolean_list(1, &b, 0);
			if (r == 0)
				r = wait_event(&resets, was_r);
			__atomic_store_n(&pub_bool, v, __ATOMIC_RELEASE);
		} else if (kind == 1) {
			int v = !__atomic_load_n(&pub_enforcing,
						 __ATOMIC_ACQUIRE);

			r = security_setenforce(v);
			if (r == 0)
				r = wait_event(&setenforces, was_e);
			__atomic_store_n(&pub_enforcing, v, __ATOMIC_RELEASE);
		} else {
			r = security_load_policy(policy, policy_len);
			if (r == 0)
				r = wait_event(&resets, was_r);
			/* a load makes the booleans the policy's defaults */
			__atomic_store_n(&pub_bool, 1, __ATOMIC_RELEASE);
		}
		if (r < 0) {
			fail("writer step %d: %s", kind, strerror(errno));
			break;
		}
		__atomic_add_fetch(&gen, 1, __ATOMIC_ACQ_REL); /* even */
		usleep(2000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[9];
	int nreaders, seconds;
	FILE *f;

	if (argc != 5) {
		fprintf(stderr, "usage: avc_stress MNT POLICY SECONDS READERS\n");
		return 2;
	}
	set_selinuxmnt(argv[1]);
	seconds = atoi(argv[3]);
	nreaders = atoi(argv[4]);
	if (nreaders < 1 || nreaders > 8)
		nreaders = 4;
	f = fopen(argv[2], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (long)(policy_len = (size_t)ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(policy = malloc(policy_len)) ||
	    fread(policy, 1, policy_len, f) != policy_len) {
		perror(argv[2]);
		return 2;
	}
	fclose(f);
	if (security_setenforce(1) || avc_open(NULL, 0)) {
		perror("avc_open");
		return 1;
	}
	for (size_t i = 0; i < NS; i++)
		if (avc_context_to_sid(srcs[i], &ssid[i]))
			return perror(srcs[i]), 1;
	for (size_t i = 0; i < NT; i++)
		if (avc_context_to_sid(tgts[i], &tsid[i]))
			return perror(tgts[i]), 1;
	c_file = string_to_security_class("file");
	p_execute = string_to_av_perm(c_file, "execute");
	p_write = string_to_av_perm(c_file, "write");
	if (!c_file || !p_execute || !p_write) {
		fprintf(stderr, "avc_stress: no file class or permissions\n");
		return 1;
	}
	if (avc_add_callback(on_reset, AVC_CALLBACK_RESET, NULL, NULL, 0, 0)) {
		perror("avc_add_callback");
		return 1;
	}
	/* selinux_check_access logs its denials: not here */
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){.func_log = quiet_log});
	selinux_set_callback(SELINUX_CB_SETENFORCE,
			     (union selinux_callback){.func_setenforce =
							  on_setenforce});

	for (int i = 0; i < nreaders; i++)
		pthread_create(&th[i], NULL, reader, (void *)(uintptr_t)(i + 1));
	pthread_create(&th[nreaders], NULL, writer, NULL);
	sleep((unsigned)seconds);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i <= nreaders; i++)
		pthread_join(th[i], NULL);
	{
		struct avc_cache_stats st;

		avc_cache_stats(&st);
		printf("avc_stress: %d readers, %u resets, %u setenforce; "
		       "lookups %u, hits %u, cav misses %u\n",
		       nreaders, resets, setenforces, st.entry_lookups,
		       st.entry_hits, st.cav_misses);
	}
	security_setenforce(1);
	avc_destroy();
	free(policy);
	return failed;
}
