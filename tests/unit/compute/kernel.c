/* Suite compute_kernel: transactions, initial contexts, booleans, load. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

static int queued = -1;

static void setup(void)
{
	fx_setup();
	fx_selinuxfs();
}

static void teardown(void)
{
	if (queued >= 0)
		close(queued);
	queued = -1;
	fini_selinuxmnt();
	fx_teardown();
}

/*
 * A transaction file stand-in: a FIFO holding the answer (and its NUL)
 * before the call.  The library writes its request behind it and reads
 * once: it gets the answer first, the NUL ends it.
 */
static void answer(const char *file, const char *ans, size_t len)
{
	const char *path = fx_path(file);

	ck_assert_int_eq(mkfifo(path, 0600), 0);
	queued = open(path, O_RDWR);
	ck_assert_int_ge(queued, 0);
	ck_assert_int_eq(write(queued, ans, len), (ssize_t)len);
}

START_TEST(test_security_compute_av_six_fields)
{
	struct av_decision avd;

	answer("selinuxfs/access", "3 ffffffff 1 fffffffc 7 1", 26);
	memset(&avd, 0, sizeof(avd));
	ck_assert_int_eq(security_compute_av_flags_raw("a:b:c", "d:e:f", 6, 3,
						       &avd),
			 0);
	ck_assert_uint_eq(avd.allowed, 3);
	ck_assert_uint_eq(avd.decided, 0xffffffff);
	ck_assert_uint_eq(avd.auditallow, 1);
	ck_assert_uint_eq(avd.auditdeny, 0xfffffffc);
	ck_assert_uint_eq(avd.seqno, 7);
	ck_assert_uint_eq(avd.flags, 1);
}
END_TEST

START_TEST(test_security_compute_av_five_fields)
{
	struct av_decision avd;

	answer("selinuxfs/access", "1 ffffffff 0 ffffffff 2", 24);
	avd.flags = 0x55;
	ck_assert_int_eq(security_compute_av_flags("a:b:c", "d:e:f", 6, 1,
						   &avd),
			 0);
	ck_assert_uint_eq(avd.seqno, 2);
	ck_assert_uint_eq(avd.flags, 0);
}
END_TEST

START_TEST(test_security_compute_av_keeps_flags)
{
	struct av_decision avd;

	answer("selinuxfs/access", "1 ffffffff 0 ffffffff 2 1", 26);
	avd.flags = 0x55;
	ck_assert_int_eq(security_compute_av("a:b:c", "d:e:f", 6, 1, &avd), 0);
	ck_assert_uint_eq(avd.allowed, 1);
	ck_assert_uint_eq(avd.flags, 0x55);
}
END_TEST

START_TEST(test_security_compute_av_errors)
{
	struct av_decision avd;

	errno = 0;
	ck_assert_int_eq(security_compute_av_raw(NULL, "d:e:f", 6, 1, &avd),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(security_compute_av_raw("a:b:c", "d:e:f", 6, 1, &avd),
			 -1);
	ck_assert_int_eq(errno, ENOENT); /* no access file */
	answer("selinuxfs/access", "garbage", 8);
	errno = 0;
	ck_assert_int_eq(security_compute_av_raw("a:b:c", "d:e:f", 6, 1, &avd),
			 -1);
	ck_assert_int_eq(errno, EINVAL);
	fini_selinuxmnt();
	errno = 0;
	ck_assert_int_eq(security_compute_av(NULL, NULL, 6, 1, &avd), -1);
	ck_assert_int_eq(errno, ENOENT); /* mount first, as the reference */
}
END_TEST

START_TEST(test_security_compute_create_answer)
{
	char *con = NULL;

	answer("selinuxfs/create", "u:object_r:tmp_t", 17);
	ck_assert_int_eq(security_compute_create("a:b:c", "d:e:f", 6, &con),
			 0);
	ck_assert_str_eq(con, "u:object_r:tmp_t");
	freecon(con);
}
END_TEST

START_TEST(test_security_compute_create_name_too_long)
{
	char *con = NULL, name[5000];

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	answer("selinuxfs/create", "x:y:z", 6);
	errno = 0;
	ck_assert_int_eq(security_compute_create_name_raw("a:b:c", "d:e:f", 6,
							  name, &con),
			 -1);
	ck_assert_int_eq(errno, ENAMETOOLONG);
}
END_TEST

START_TEST(test_security_compute_user_list)
{
	char **cons = NULL;

	answer("selinuxfs/user", "2\0u:r:a\0u:r:b", 14);
	ck_assert_int_eq(security_compute_user_raw("a:b:c", "u", &cons), 0);
	ck_assert_str_eq(cons[0], "u:r:a");
	ck_assert_str_eq(cons[1], "u:r:b");
	ck_assert_ptr_null(cons[2]);
	freeconary(cons);
}
END_TEST

START_TEST(test_security_compute_user_count_too_big)
{
	char **cons = NULL;

	answer("selinuxfs/user", "9\0u:r:a", 8);
	errno = 0;
	ck_assert_int_eq(security_compute_user_raw("a:b:c", "u", &cons), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_security_validatetrans_request)
{
	char *got;

	fx_writes("selinuxfs/validatetrans", "");
	ck_assert_int_eq(security_validatetrans_raw("o:r:t", "k:r:t", 6,
						    "n:r:t"),
			 0);
	got = fx_read("selinuxfs/validatetrans", NULL);
	/* the kernel's "%s %s %hu %s": old, new, class, task (tests/vm) */
	ck_assert_str_eq(got, "o:r:t k:r:t 6 n:r:t");
	free(got);
}
END_TEST

START_TEST(test_security_get_initial_context_values)
{
	char *con = NULL;

	fx_write("selinuxfs/initial_contexts/kernel", "s:r:kernel_t", 13);
	ck_assert_int_eq(security_get_initial_context("kernel", &con), 0);
	ck_assert_str_eq(con, "s:r:kernel_t");
	freecon(con);
	errno = 0;
	ck_assert_int_eq(security_get_initial_context_raw("nope", &con), -1);
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_int_eq(security_get_initial_context_raw("../enforce", &con),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_security_get_boolean_values)
{
	fx_writes("selinuxfs/booleans/b", "1 0");
	ck_assert_int_eq(security_get_boolean_active("b"), 1);
	ck_assert_int_eq(security_get_boolean_pending("b"), 0);
	fx_writes("selinuxfs/booleans/short", "1");
	errno = 0;
	ck_assert_int_eq(security_get_boolean_active("short"), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(security_get_boolean_active("nope"), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_security_get_boolean_names_sorted)
{
	char **names = NULL;
	int len = -1;

	fx_writes("selinuxfs/booleans/zz", "0 0");
	fx_writes("selinuxfs/booleans/aa", "1 1");
	ck_assert_int_eq(security_get_boolean_names(&names, &len), 0);
	ck_assert_int_eq(len, 2);
	ck_assert_str_eq(names[0], "aa");
	ck_assert_str_eq(names[1], "zz");
	free(names[0]);
	free(names[1]);
	free(names);
}
END_TEST

START_TEST(test_security_get_boolean_names_none)
{
	char **names = NULL;
	int len = -1;

	fx_mkdir("selinuxfs/booleans");
	errno = 0;
	ck_assert_int_eq(security_get_boolean_names(&names, &len), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(len, 0);
}
END_TEST

START_TEST(test_security_set_boolean_writes)
{
	size_t len;
	char *got;

	fx_writes("selinuxfs/booleans/b", "0 0");
	ck_assert_int_eq(security_set_boolean("b", 1), 0);
	got = fx_read("selinuxfs/booleans/b", &len);
	ck_assert_int_eq(got[0], '1');
	ck_assert_int_eq(got[1], '\0');
	free(got);
	errno = 0;
	ck_assert_int_eq(security_set_boolean("b", 2), -1);
	ck_assert_int_eq(errno, EINVAL);
	fx_writes("selinuxfs/commit_pending_bools", "");
	ck_assert_int_eq(security_commit_booleans(), 0);
	got = fx_read("selinuxfs/commit_pending_bools", NULL);
	ck_assert_str_eq(got, "1");
	free(got);
}
END_TEST

START_TEST(test_security_set_boolean_list_normalises)
{
	SELboolean list[] = { { (char *)"b", 5 } };

	fx_writes("selinuxfs/booleans/b", "0 0");
	fx_writes("selinuxfs/commit_pending_bools", "");
	ck_assert_int_eq(security_set_boolean_list(1, list, 0), 0);
	ck_assert_int_eq(list[0].value, 1);
	errno = 0;
	ck_assert_int_eq(security_set_boolean_list(1, list, 1), -1);
	ck_assert_int_eq(errno, EINVAL); /* permanent is gone */
}
END_TEST

START_TEST(test_security_load_policy_writes_all)
{
	size_t len;
	char *got;

	fx_writes("selinuxfs/load", "");
	ck_assert_int_eq(security_load_policy((void *)"POLICY", 6), 0);
	got = fx_read("selinuxfs/load", &len);
	ck_assert_uint_eq(len, 6);
	ck_assert_str_eq(got, "POLICY");
	free(got);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compute_kernel");
	struct {
		const char *name;
		const TTest *t;
	} tests[] = {
		{ "security_compute_av", test_security_compute_av_six_fields },
		{ "security_compute_av", test_security_compute_av_five_fields },
		{ "security_compute_av", test_security_compute_av_keeps_flags },
		{ "security_compute_av", test_security_compute_av_errors },
		{ "security_compute_create", test_security_compute_create_answer },
		{ "security_compute_create_name", test_security_compute_create_name_too_long },
		{ "security_compute_user", test_security_compute_user_list },
		{ "security_compute_user", test_security_compute_user_count_too_big },
		{ "security_validatetrans", test_security_validatetrans_request },
		{ "security_get_initial_context", test_security_get_initial_context_values },
		{ "security_get_boolean_active", test_security_get_boolean_values },
		{ "security_get_boolean_names", test_security_get_boolean_names_sorted },
		{ "security_get_boolean_names", test_security_get_boolean_names_none },
		{ "security_set_boolean", test_security_set_boolean_writes },
		{ "security_set_boolean_list", test_security_set_boolean_list_normalises },
		{ "security_load_policy", test_security_load_policy_writes_all },
	};

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		TCase *tc = tcase_create(tests[i].name);

		tcase_add_checked_fixture(tc, setup, teardown);
		tcase_add_test(tc, tests[i].t);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(void)
{
	return fx_run(suite());
}
