/* Suite avc_audit: the messages of avc_audit and the statistics. */
#include "avc_fixture.h"

#define S "a:b:c"
#define T "d:e:f"

static void setup(void)
{
	avx_tree();
	avx_capture_log();
	ck_assert_int_eq(avc_open(NULL, 0), 0);
	/* names are known once the class was looked up by name */
	ck_assert_int_eq(string_to_security_class("file"), 6);
}

static void setup_undiscovered(void)
{
	avx_tree();
	avx_capture_log();
	ck_assert_int_eq(avc_open(NULL, 0), 0);
}

static void teardown(void)
{
	avc_destroy();
	avx_untree();
}

static void audit(access_vector_t requested, access_vector_t allowed,
		  access_vector_t auditallow, access_vector_t auditdeny,
		  int result, void *data)
{
	struct av_decision avd = {allowed,   0xffffffff, auditallow,
				  auditdeny, 1,		 0};

	avx_log[0] = '\0';
	avc_audit(avx_sid(S), avx_sid(T), 6, requested, &avd, result, data);
}

START_TEST(test_avc_audit_denied)
{
	audit(0x2, 0x1, 0, 0xffffffff, -1, NULL);
	ck_assert_str_eq(avx_log, "avc:  denied  { write } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file permissive=0\n");
	ck_assert_int_eq(avx_log_type, SELINUX_AVC);
}
END_TEST

START_TEST(test_avc_audit_denied_permissive)
{
	audit(0x6, 0x1, 0, 0xffffffff, 0, NULL);
	ck_assert_str_eq(avx_log,
			 "avc:  denied  { write open } for  scontext=a:b:c "
			 "tcontext=d:e:f tclass=file permissive=1\n");
}
END_TEST

START_TEST(test_avc_audit_dontaudit)
{
	audit(0x2, 0x1, 0, 0xfffffffd, -1, NULL);
	ck_assert_str_eq(avx_log, "");
}
END_TEST

START_TEST(test_avc_audit_only_audited_bits)
{
	audit(0x6, 0x1, 0, 0x4, -1, NULL);
	ck_assert_str_eq(avx_log, "avc:  denied  { open } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file permissive=0\n");
}
END_TEST

START_TEST(test_avc_audit_granted_auditallow)
{
	audit(0x1, 0x7, 0x1, 0xffffffff, 0, NULL);
	ck_assert_str_eq(avx_log, "avc:  granted  { read } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file\n");
}
END_TEST

START_TEST(test_avc_audit_granted_silent)
{
	audit(0x1, 0x7, 0, 0xffffffff, 0, NULL);
	ck_assert_str_eq(avx_log, "");
}
END_TEST

START_TEST(test_avc_audit_unnamed_bits)
{
	/* 0x10 has no name in class/file: it and the rest go in hex */
	audit(0x31, 0, 0, 0xffffffff, -1, NULL);
	ck_assert_str_eq(avx_log,
			 "avc:  denied  { read 0x30 } for  scontext=a:b:c "
			 "tcontext=d:e:f tclass=file permissive=0\n");
}
END_TEST

START_TEST(test_avc_audit_error_logs_all_requested)
{
	/* a failure with nothing denied (the server failed) */
	audit(0x1, 0x1, 0, 0, -1, NULL);
	ck_assert_str_eq(avx_log, "avc:  denied  { read } for  scontext=a:b:c "
				  "tcontext=d:e:f tclass=file permissive=0\n");
}
END_TEST

START_TEST(test_avc_audit_class_not_discovered)
{
	audit(0x2, 0x1, 0, 0xffffffff, -1, NULL);
	ck_assert_str_eq(avx_log,
			 "avc:  denied  { 0x2 } for  scontext=a:b:c "
			 "tcontext=d:e:f tclass=(null) permissive=0\n");
}
END_TEST

static int audit_cb(void *data, security_class_t cls, char *buf, size_t len)
{
	snprintf(buf, len, "pid=%s cls=%u", (const char *)data, cls);
	return 0;
}

START_TEST(test_avc_audit_callback_text)
{
	union selinux_callback cb = {.func_audit = audit_cb};

	selinux_set_callback(SELINUX_CB_AUDIT, cb);
	audit(0x2, 0x1, 0, 0xffffffff, -1, "42");
	ck_assert_str_eq(avx_log, "avc:  denied  { write } for pid=42 cls=6 "
				  "scontext=a:b:c tcontext=d:e:f tclass=file "
				  "permissive=0\n");
}
END_TEST

static char old_buf[4096];

static void old_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(old_buf, sizeof(old_buf), fmt, ap);
	va_end(ap);
}

static void old_audit(void *data, security_class_t cls, char *buf, size_t len)
{
	(void)cls;
	snprintf(buf, len, "old=%s", (const char *)data);
}

START_TEST(test_avc_audit_avc_init_callbacks)
{
	static const struct avc_log_callback lc = {old_log, old_audit};

	avc_destroy();
	ck_assert_int_eq(
	    avc_init("a_prefix_longer_than_15", NULL, &lc, NULL, NULL), 0);
	audit(0x2, 0x1, 0, 0xffffffff, -1, "x");
	ck_assert_str_eq(old_buf, "a_prefix_longer:  denied  { write } for "
				  "old=x scontext=a:b:c tcontext=d:e:f "
				  "tclass=file permissive=0\n");
	ck_assert_str_eq(avx_log, "");
}
END_TEST

/* statistics messages ------------------------------------------------- */

START_TEST(test_avc_av_stats_empty)
{
	avc_av_stats();
	ck_assert_str_eq(avx_log, "avc:  0 AV entries and 0/512 buckets used, "
				  "longest chain length 0\n");
	ck_assert_int_eq(avx_log_type, SELINUX_INFO);
}
END_TEST

START_TEST(test_avc_sid_stats_one)
{
	avx_sid(S);
	avc_sid_stats();
	ck_assert_str_eq(avx_log, "avc:  1 SID entries and 1/128 buckets used, "
				  "longest chain length 1\n");
}
END_TEST

START_TEST(test_avc_cache_stats_zero_after_open)
{
	struct avc_cache_stats st;

	memset(&st, 0xee, sizeof(st));
	avc_cache_stats(&st);
	ck_assert_uint_eq(st.entry_lookups, 0);
	ck_assert_uint_eq(st.cav_probes, 0);
	ck_assert_uint_eq(st.cav_misses, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("avc_audit");
	TCase *tc;

	tc = avx_tcase(s, "avc_audit", setup, teardown);
	tcase_add_test(tc, test_avc_audit_denied);
	tcase_add_test(tc, test_avc_audit_denied_permissive);
	tcase_add_test(tc, test_avc_audit_dontaudit);
	tcase_add_test(tc, test_avc_audit_only_audited_bits);
	tcase_add_test(tc, test_avc_audit_granted_auditallow);
	tcase_add_test(tc, test_avc_audit_granted_silent);
	tcase_add_test(tc, test_avc_audit_unnamed_bits);
	tcase_add_test(tc, test_avc_audit_error_logs_all_requested);
	tcase_add_test(tc, test_avc_audit_callback_text);
	tcase_add_test(tc, test_avc_audit_avc_init_callbacks);

	tc = avx_tcase(s, "avc_audit_names", setup_undiscovered, teardown);
	tcase_add_test(tc, test_avc_audit_class_not_discovered);

	tc = avx_tcase(s, "avc_stats", setup, teardown);
	tcase_add_test(tc, test_avc_av_stats_empty);
	tcase_add_test(tc, test_avc_sid_stats_one);
	tcase_add_test(tc, test_avc_cache_stats_zero_after_open);
	return avx_run(s);
}
