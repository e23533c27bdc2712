/* Suite avc_sid: the SID table, initial SIDs, sidget/sidput. */
#include "avc_fixture.h"

static void setup(void)
{
	avx_tree();
	avx_capture_log();
	fx_writes("selinuxfs/initial_contexts/kernel",
		  "system_u:system_r:kernel_t");
	ck_assert_int_eq(avc_open(NULL, 0), 0);
}

static void teardown(void)
{
	avc_destroy();
	avx_untree();
}

START_TEST(test_avc_context_to_sid_same_pointer)
{
	security_id_t a = NULL, b = NULL, c = NULL;

	ck_assert_int_eq(avc_context_to_sid("u:r:t", &a), 0);
	ck_assert_int_eq(avc_context_to_sid_raw("u:r:t", &b), 0);
	ck_assert_int_eq(avc_context_to_sid_raw("u:r:t2", &c), 0);
	ck_assert_ptr_eq(a, b);
	ck_assert_ptr_ne(a, c);
	ck_assert_str_eq(a->ctx, "u:r:t");
	ck_assert_uint_eq(a->refcnt, 1);
}
END_TEST

/* SIDs are numbered 1, 2, 3 ... in the order entered (upstream 3.8+);
 * refcnt, 3.4's name, reads the same number. */
START_TEST(test_avc_context_to_sid_ids)
{
	security_id_t a = NULL, b = NULL, c = NULL, again = NULL;

	ck_assert_int_eq(avc_context_to_sid_raw("u:r:a", &a), 0);
	ck_assert_int_eq(avc_context_to_sid_raw("u:r:b", &b), 0);
	ck_assert_int_eq(avc_context_to_sid_raw("u:r:a", &again), 0);
	ck_assert_int_eq(avc_context_to_sid_raw("u:r:c", &c), 0);
	ck_assert_uint_eq(a->id, 1);
	ck_assert_uint_eq(b->id, 2);
	ck_assert_uint_eq(again->id, 1);
	ck_assert_uint_eq(c->id, 3);
	ck_assert_uint_eq(c->refcnt, 3);
}
END_TEST

/* After avc_destroy() numbering starts again. */
START_TEST(test_avc_context_to_sid_ids_restart)
{
	security_id_t a = NULL, b = NULL;

	ck_assert_int_eq(avc_context_to_sid_raw("u:r:a", &a), 0);
	ck_assert_int_eq(avc_context_to_sid_raw("u:r:b", &b), 0);
	ck_assert_uint_eq(b->id, 2);
	avc_destroy();
	ck_assert_int_eq(avc_open(NULL, 0), 0);
	ck_assert_int_eq(avc_context_to_sid_raw("u:r:b", &b), 0);
	ck_assert_uint_eq(b->id, 1);
}
END_TEST

START_TEST(test_avc_context_to_sid_not_open)
{
	security_id_t a = NULL;

	avc_destroy();
	errno = 0;
	ck_assert_int_eq(avc_context_to_sid_raw("u:r:t", &a), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_avc_sid_to_context_copy)
{
	security_id_t a = avx_sid("u:r:t:s0");
	char *con = NULL;

	ck_assert_int_eq(avc_sid_to_context(a, &con), 0);
	ck_assert_str_eq(con, "u:r:t:s0");
	ck_assert_ptr_ne(con, a->ctx);
	freecon(con);
	ck_assert_int_eq(avc_sid_to_context_raw(a, &con), 0);
	ck_assert_str_eq(con, "u:r:t:s0");
	freecon(con);
}
END_TEST

START_TEST(test_avc_sid_to_context_invalid_sid)
{
	struct security_id dead = {.ctx = (char *)"u:r:t", .id = 0};
	char *con = (char *)1;

	errno = 0;
	ck_assert_int_eq(avc_sid_to_context_raw(&dead, &con), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(con);
}
END_TEST

START_TEST(test_avc_get_initial_sid_kernel)
{
	security_id_t sid = NULL;

	ck_assert_int_eq(avc_get_initial_sid("kernel", &sid), 0);
	ck_assert_str_eq(sid->ctx, "system_u:system_r:kernel_t");
	ck_assert_ptr_eq(sid, avx_sid("system_u:system_r:kernel_t"));
}
END_TEST

START_TEST(test_avc_get_initial_sid_unknown)
{
	security_id_t sid = NULL;

	errno = 0;
	ck_assert_int_eq(avc_get_initial_sid("nope", &sid), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_sidget_sidput_are_one)
{
	security_id_t a = avx_sid("u:r:t");

	ck_assert_int_eq(sidget(a), 1);
	ck_assert_int_eq(sidput(a), 1);
	ck_assert_int_eq(sidput(a), 1);
	avc_cleanup();
	ck_assert_str_eq(a->ctx, "u:r:t");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("avc_sid");
	TCase *tc;

	tc = avx_tcase(s, "avc_context_to_sid", setup, teardown);
	tcase_add_test(tc, test_avc_context_to_sid_same_pointer);
	tcase_add_test(tc, test_avc_context_to_sid_not_open);
	tcase_add_test(tc, test_avc_context_to_sid_ids);
	tcase_add_test(tc, test_avc_context_to_sid_ids_restart);

	tc = avx_tcase(s, "avc_sid_to_context", setup, teardown);
	tcase_add_test(tc, test_avc_sid_to_context_copy);
	tcase_add_test(tc, test_avc_sid_to_context_invalid_sid);

	tc = avx_tcase(s, "avc_get_initial_sid", setup, teardown);
	tcase_add_test(tc, test_avc_get_initial_sid_kernel);
	tcase_add_test(tc, test_avc_get_initial_sid_unknown);

	tc = avx_tcase(s, "sidget", setup, teardown);
	tcase_add_test(tc, test_sidget_sidput_are_one);
	return avx_run(s);
}
