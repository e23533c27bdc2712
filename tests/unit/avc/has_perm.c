/* Suite avc_has_perm: decisions, the cache, modes and resets. */
#include <pthread.h>

#include "avc_fixture.h"

#define S "a:b:c"
#define T "d:e:f"
/* read write open allowed, all decided, nothing audited, seqno 1 */
#define RWO "7 ffffffff 0 ffffffff 1 0"
/* only read allowed */
#define R_ONLY "1 ffffffff 0 ffffffff 1 0"

static void setup(void)
{
	avx_tree();
	avx_capture_log();
	ck_assert_int_eq(avc_open(NULL, 0), 0);
	ck_assert_int_eq(string_to_security_class("file"), 6);
}

static void teardown(void)
{
	avc_destroy();
	avx_untree();
}

static struct avc_cache_stats stats(void)
{
	struct avc_cache_stats st;

	memset(&st, 0xee, sizeof(st));
	avc_cache_stats(&st);
	return st;
}

/* avc_has_perm_noaudit ------------------------------------------------ */

START_TEST(test_avc_has_perm_noaudit_granted)
{
	struct av_decision avd;

	avx_answer("access", RWO);
	ck_assert_int_eq(
	    avc_has_perm_noaudit(avx_sid(S), avx_sid(T), 6, 0x3, NULL, &avd),
	    0);
	ck_assert_uint_eq(avd.allowed, 7);
	ck_assert_uint_eq(avd.decided, 0xffffffff);
	ck_assert_uint_eq(avd.seqno, 1);
}
END_TEST

START_TEST(test_avc_has_perm_noaudit_denied)
{
	struct av_decision avd;

	avx_answer("access", R_ONLY);
	errno = 0;
	ck_assert_int_eq(
	    avc_has_perm_noaudit(avx_sid(S), avx_sid(T), 6, 0x2, NULL, &avd),
	    -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_uint_eq(avd.allowed, 1);
}
END_TEST

START_TEST(test_avc_has_perm_noaudit_nothing_requested)
{
	avx_answer("access", RWO);
	errno = 0;
	ck_assert_int_eq(
	    avc_has_perm_noaudit(avx_sid(S), avx_sid(T), 6, 0, NULL, NULL), -1);
	ck_assert_int_eq(errno, EACCES);
}
END_TEST

START_TEST(test_avc_has_perm_noaudit_server_error)
{
	avx_answer("access", "garbage");
	errno = 0;
	ck_assert_int_eq(
	    avc_has_perm_noaudit(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_avc_has_perm_noaudit_server_error_permissive)
{
	struct selinux_opt opt = {AVC_OPT_SETENFORCE, NULL};

	ck_assert_int_eq(avc_open(&opt, 1), 0);
	avx_answer("access", "garbage");
	errno = 0;
	ck_assert_int_eq(
	    avc_has_perm_noaudit(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL), 0);
	ck_assert_int_eq(errno, 0);
}
END_TEST

START_TEST(test_avc_has_perm_noaudit_null_sid)
{
	errno = 0;
	ck_assert_int_eq(
	    avc_has_perm_noaudit(NULL, avx_sid(T), 6, 1, NULL, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* the cache ----------------------------------------------------------- */

START_TEST(test_avc_has_perm_cache_hit)
{
	struct avc_cache_stats st;

	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	/* no answer queued: only the cache can grant this */
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 4, NULL, NULL),
			 0);
	st = stats();
	ck_assert_uint_eq(st.entry_lookups, 2);
	ck_assert_uint_eq(st.entry_misses, 2);
	ck_assert_uint_eq(st.entry_hits, 0);
	ck_assert_uint_eq(st.cav_lookups, 2);
	ck_assert_uint_eq(st.cav_hits, 1);
	ck_assert_uint_eq(st.cav_misses, 1);
	ck_assert_uint_eq(st.cav_probes, 1);
}
END_TEST

START_TEST(test_avc_has_perm_cache_keyed_by_class)
{
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	avx_answer("access", "0 ffffffff 0 0 1 0");
	errno = 0;
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 7, 1, NULL, NULL),
			 -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_uint_eq(stats().cav_misses, 2);
}
END_TEST

START_TEST(test_avc_has_perm_entry_ref_hit)
{
	struct avc_entry_ref ref;
	struct avc_cache_stats st;

	avc_entry_ref_init(&ref);
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, &ref, NULL),
			 0);
	ck_assert_ptr_nonnull(ref.ae);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 2, &ref, NULL),
			 0);
	st = stats();
	ck_assert_uint_eq(st.entry_lookups, 2);
	ck_assert_uint_eq(st.entry_hits, 1);
	ck_assert_uint_eq(st.entry_misses, 1);
	ck_assert_uint_eq(st.cav_lookups, 1);
}
END_TEST

START_TEST(test_avc_has_perm_entry_ref_discard)
{
	struct avc_entry_ref ref;

	avc_entry_ref_init(&ref);
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, &ref, NULL),
			 0);
	avx_answer("access", RWO);
	ck_assert_int_eq(
	    avc_has_perm(avx_sid(S), avx_sid("x:y:z"), 6, 1, &ref, NULL), 0);
	ck_assert_uint_eq(stats().entry_discards, 1);
}
END_TEST

START_TEST(test_avc_has_perm_entry_ref_after_reset)
{
	struct avc_entry_ref ref;

	avc_entry_ref_init(&ref);
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, &ref, NULL),
			 0);
	ck_assert_int_eq(avc_reset(), 0);
	/* the stale reference is not used: a new decision is asked for */
	avx_answer("access", "0 ffffffff 0 0 2 0");
	errno = 0;
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, &ref, NULL),
			 -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_uint_eq(stats().entry_discards, 1);
}
END_TEST

START_TEST(test_avc_has_perm_many_entries)
{
	char con[64];

	/* more triples than the cache holds (410): old ones are reclaimed */
	for (int i = 0; i < 600; i++) {
		snprintf(con, sizeof(con), "u:r:t%d", i);
		avx_answer("access", RWO);
		ck_assert_int_eq(
		    avc_has_perm(avx_sid(S), avx_sid(con), 6, 1, NULL, NULL),
		    0);
	}
	ck_assert_uint_eq(stats().cav_misses, 600);
	avx_log[0] = '\0';
	avc_av_stats();
	ck_assert_ptr_nonnull(strstr(avx_log, "/512 buckets used"));
	ck_assert_int_le(atoi(avx_log + strlen("avc:  ")), 410);
}
END_TEST

/* modes ---------------------------------------------------------------- */

START_TEST(test_avc_has_perm_permissive_grants_once)
{
	struct selinux_opt opt = {AVC_OPT_SETENFORCE, NULL};
	struct av_decision avd;

	ck_assert_int_eq(avc_open(&opt, 1), 0);
	avx_answer("access", R_ONLY);
	ck_assert_int_eq(
	    avc_has_perm_noaudit(avx_sid(S), avx_sid(T), 6, 2, NULL, &avd), 0);
	/* the caller's copy still shows the denial... */
	ck_assert_uint_eq(avd.allowed, 1);
	/* ...the cached entry no longer does */
	ck_assert_int_eq(
	    avc_has_perm_noaudit(avx_sid(S), avx_sid(T), 6, 2, NULL, &avd), 0);
	ck_assert_uint_eq(avd.allowed, 3);
}
END_TEST

START_TEST(test_avc_has_perm_permissive_domain)
{
	avx_answer("access", "1 ffffffff 0 ffffffff 1 1");
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 2, NULL, NULL),
			 0);
	ck_assert_str_eq(avx_log, "avc:  denied  { write } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file permissive=1\n");
}
END_TEST

START_TEST(test_avc_open_setenforce_fixed)
{
	struct selinux_opt opt = {AVC_OPT_SETENFORCE, (const char *)1};

	ck_assert_int_eq(avc_open(&opt, 1), 0);
	avx_answer("access", R_ONLY);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	/* the kernel goes permissive; the AVC stays enforcing */
	avx_status(4, 0, 1, 1);
	errno = 0;
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 2, NULL, NULL),
			 -1);
	ck_assert_int_eq(errno, EACCES);
}
END_TEST

START_TEST(test_avc_has_perm_follows_setenforce)
{
	avx_answer("access", R_ONLY);
	/* the first call records the page */
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	avx_status(4, 0, 1, 1);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 2, NULL, NULL),
			 0);
	ck_assert_ptr_nonnull(strstr(avx_log, "enforcing=0 res=1"));
	ck_assert_ptr_nonnull(strstr(avx_log, "permissive=1"));
	/* back to enforcing: the cache is flushed of the permissive grant */
	avx_status(6, 1, 1, 1);
	avx_answer("access", R_ONLY);
	errno = 0;
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 2, NULL, NULL),
			 -1);
	ck_assert_int_eq(errno, EACCES);
}
END_TEST

/* resets --------------------------------------------------------------- */

static int resets, reset_rc;
static uint32_t reset_event;

static int on_reset(uint32_t event, security_id_t ssid, security_id_t tsid,
		    security_class_t tclass, access_vector_t perms,
		    access_vector_t *retained)
{
	(void)ssid, (void)tsid, (void)tclass, (void)perms, (void)retained;
	reset_event = event;
	resets++;
	if (reset_rc)
		errno = ENOTSUP;
	return reset_rc;
}

START_TEST(test_avc_reset_flushes)
{
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	ck_assert_int_eq(avc_reset(), 0);
	ck_assert_uint_eq(stats().cav_lookups, 0);
	avx_answer("access", "0 ffffffff 0 0 1 0");
	errno = 0;
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 -1);
	ck_assert_int_eq(errno, EACCES);
}
END_TEST

START_TEST(test_avc_reset_callbacks)
{
	ck_assert_int_eq(
	    avc_add_callback(on_reset, AVC_CALLBACK_RESET, NULL, NULL, 0, 0),
	    0);
	ck_assert_int_eq(
	    avc_add_callback(on_reset, AVC_CALLBACK_GRANT, NULL, NULL, 0, 0),
	    0);
	ck_assert_int_eq(avc_reset(), 0);
	ck_assert_int_eq(resets, 1);
	ck_assert_uint_eq(reset_event, AVC_CALLBACK_RESET);
	reset_rc = 5;
	errno = 0;
	ck_assert_int_eq(avc_reset(), 5);
	ck_assert_int_eq(errno, ENOTSUP);
}
END_TEST

START_TEST(test_avc_reset_on_policyload)
{
	ck_assert_int_eq(
	    avc_add_callback(on_reset, AVC_CALLBACK_RESET, NULL, NULL, 0, 0),
	    0);
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	avx_status(4, 1, 2, 1);
	avx_answer("access", "0 ffffffff 0 0 2 0");
	errno = 0;
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_int_eq(resets, 1);
}
END_TEST

START_TEST(test_avc_has_perm_stale_decision)
{
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	avx_status(4, 1, 5, 1);
	/* a decision of policy 3 after load 5 was notified */
	avx_answer("access", "7 ffffffff 0 0 3 0");
	errno = 0;
	ck_assert_int_eq(avc_has_perm_noaudit(avx_sid(S), avx_sid("x:y:z"), 6,
					      1, NULL, NULL),
			 -1);
	ck_assert_int_eq(errno, EAGAIN);
}
END_TEST

START_TEST(test_selinux_set_mapping_resets_avc)
{
	struct security_class_mapping map[] = {
	    {"file", {"write", "read", NULL}},
	    {NULL, {NULL}},
	};

	ck_assert_int_eq(
	    avc_add_callback(on_reset, AVC_CALLBACK_RESET, NULL, NULL, 0, 0),
	    0);
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	ck_assert_int_eq(selinux_set_mapping(map), 0);
	ck_assert_int_eq(resets, 1);
	ck_assert_uint_eq(stats().cav_lookups, 0);
	/* mapped class 1 is file; mapped bit 0x1 is write, which R_ONLY
	 * denies */
	avx_answer("access", R_ONLY);
	errno = 0;
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 1, 1, NULL, NULL),
			 -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_str_eq(avx_log, "avc:  denied  { write } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file permissive=0\n");
}
END_TEST

/* compute_create / member ---------------------------------------------- */

START_TEST(test_avc_compute_create_cached)
{
	security_id_t n1 = NULL, n2 = NULL;
	char *con = NULL;

	avx_answer("access", RWO);
	avx_answer("create", "g:h:i");
	ck_assert_int_eq(avc_compute_create(avx_sid(S), avx_sid(T), 6, &n1), 0);
	ck_assert_int_eq(avc_sid_to_context_raw(n1, &con), 0);
	ck_assert_str_eq(con, "g:h:i");
	freecon(con);
	/* nothing queued: the answer was kept with the triple */
	ck_assert_int_eq(avc_compute_create(avx_sid(S), avx_sid(T), 6, &n2), 0);
	ck_assert_ptr_eq(n1, n2);
	ck_assert_ptr_eq(n1, avx_sid("g:h:i"));
}
END_TEST

START_TEST(test_avc_compute_create_error)
{
	security_id_t n = (security_id_t)1;

	avx_answer("access", RWO);
	errno = 0;
	ck_assert_int_eq(avc_compute_create(avx_sid(S), avx_sid(T), 6, &n), -1);
	ck_assert_ptr_null(n);
}
END_TEST

START_TEST(test_avc_compute_member)
{
	security_id_t n = NULL;

	avx_answer("member", "j:k:l");
	ck_assert_int_eq(avc_compute_member(avx_sid(S), avx_sid(T), 7, &n), 0);
	ck_assert_ptr_eq(n, avx_sid("j:k:l"));
}
END_TEST

/* concurrency, with the caller's locks ---------------------------------- */

static pthread_mutex_t user_mutex = PTHREAD_MUTEX_INITIALIZER;
static int lock_depth, max_depth, nlocks;

static void *lk_alloc(void)
{
	return &user_mutex;
}

static void lk_get(void *l)
{
	pthread_mutex_lock(l);
	nlocks++;
	if (++lock_depth > max_depth)
		max_depth = lock_depth;
}

static void lk_release(void *l)
{
	lock_depth--;
	pthread_mutex_unlock(l);
}

static void lk_free(void *l)
{
	(void)l;
}

#define NTHREADS 8
#define NCALLS 2000

static void *hammer(void *arg)
{
	security_id_t s = avx_sid(S), t = avx_sid(T);
	struct avc_entry_ref ref;

	avc_entry_ref_init(&ref);
	for (int i = 0; i < NCALLS; i++) {
		if (avc_has_perm(s, t, 6, 1, (i & 1) ? &ref : NULL, NULL) != 0)
			return arg;
	}
	return NULL;
}

START_TEST(test_avc_init_lock_callbacks_threads)
{
	static const struct avc_lock_callback lk = {lk_alloc, lk_get,
						    lk_release, lk_free};
	pthread_t th[NTHREADS];
	struct avc_cache_stats st;
	void *bad;

	avc_destroy();
	ck_assert_int_eq(avc_init("thr", NULL, NULL, NULL, &lk), 0);
	avx_answer("access", RWO);
	ck_assert_int_eq(avc_has_perm(avx_sid(S), avx_sid(T), 6, 1, NULL, NULL),
			 0);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, hammer, NULL), 0);
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], &bad);
		ck_assert_ptr_null(bad);
	}
	st = stats();
	ck_assert_uint_eq(st.entry_lookups, 1 + NTHREADS * NCALLS);
	ck_assert_uint_eq(st.entry_hits + st.entry_misses,
			  1 + NTHREADS * NCALLS);
	ck_assert_uint_eq(st.cav_misses, 1);
	/* the caller's lock guards the miss and the insert; the hits that
	 * follow take no lock at all (avc/internal.h: the sequence count) */
	ck_assert_int_gt(nlocks, 0);
	ck_assert_int_lt(nlocks, NTHREADS * NCALLS / 2);
	ck_assert_int_eq(max_depth, 1);
}
END_TEST

/* open and destroy ------------------------------------------------------ */

START_TEST(test_avc_open_no_status)
{
	avc_destroy();
	unlink(fx_path("selinuxfs/status"));
	avx_log[0] = '\0';
	errno = 0;
	ck_assert_int_eq(avc_open(NULL, 0), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(avx_log, "avc: could not open selinux status page: 2 "
				  "(No such file or directory)\n");
}
END_TEST

START_TEST(test_avc_open_no_enforce)
{
	avc_destroy();
	unlink(fx_path("selinuxfs/enforce"));
	avx_log[0] = '\0';
	errno = 0;
	ck_assert_int_eq(avc_open(NULL, 0), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(avx_log, "avc:  could not determine enforcing mode: "
				  "No such file or directory\n");
}
END_TEST

START_TEST(test_avc_destroy_twice)
{
	avc_destroy();
	avc_destroy();
	errno = 0;
	ck_assert_int_eq(avc_reset(), 0);
	ck_assert_int_eq(avc_open(NULL, 0), 0);
}
END_TEST

START_TEST(test_avc_destroy_closes_status)
{
	avc_destroy();
	errno = 0;
	ck_assert_int_eq(selinux_status_updated(), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("avc_has_perm");
	TCase *tc;

	tc = avx_tcase(s, "avc_has_perm_noaudit", setup, teardown);
	tcase_add_test(tc, test_avc_has_perm_noaudit_granted);
	tcase_add_test(tc, test_avc_has_perm_noaudit_denied);
	tcase_add_test(tc, test_avc_has_perm_noaudit_nothing_requested);
	tcase_add_test(tc, test_avc_has_perm_noaudit_server_error);
	tcase_add_test(tc, test_avc_has_perm_noaudit_server_error_permissive);
	tcase_add_test(tc, test_avc_has_perm_noaudit_null_sid);

	tc = avx_tcase(s, "avc_has_perm", setup, teardown);
	tcase_add_test(tc, test_avc_has_perm_cache_hit);
	tcase_add_test(tc, test_avc_has_perm_cache_keyed_by_class);
	tcase_add_test(tc, test_avc_has_perm_entry_ref_hit);
	tcase_add_test(tc, test_avc_has_perm_entry_ref_discard);
	tcase_add_test(tc, test_avc_has_perm_entry_ref_after_reset);
	tcase_add_test(tc, test_avc_has_perm_many_entries);
	tcase_add_test(tc, test_avc_has_perm_permissive_grants_once);
	tcase_add_test(tc, test_avc_has_perm_permissive_domain);
	tcase_add_test(tc, test_avc_has_perm_follows_setenforce);
	tcase_add_test(tc, test_avc_has_perm_stale_decision);

	tc = avx_tcase(s, "avc_reset", setup, teardown);
	tcase_add_test(tc, test_avc_reset_flushes);
	tcase_add_test(tc, test_avc_reset_callbacks);
	tcase_add_test(tc, test_avc_reset_on_policyload);
	tcase_add_test(tc, test_selinux_set_mapping_resets_avc);

	tc = avx_tcase(s, "avc_compute_create", setup, teardown);
	tcase_add_test(tc, test_avc_compute_create_cached);
	tcase_add_test(tc, test_avc_compute_create_error);
	tcase_add_test(tc, test_avc_compute_member);

	tc = avx_tcase(s, "avc_init", setup, teardown);
	tcase_add_test(tc, test_avc_init_lock_callbacks_threads);

	tc = avx_tcase(s, "avc_open", setup, teardown);
	tcase_add_test(tc, test_avc_open_setenforce_fixed);
	tcase_add_test(tc, test_avc_open_no_status);
	tcase_add_test(tc, test_avc_open_no_enforce);

	tc = avx_tcase(s, "avc_destroy", setup, teardown);
	tcase_add_test(tc, test_avc_destroy_twice);
	tcase_add_test(tc, test_avc_destroy_closes_status);
	return avx_run(s);
}
