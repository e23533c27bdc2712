/* Suite core_procattr: /proc/PID/attr/ATTR through a fixture procfs. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

void core_set_proc_root(const char *dir);

#define CTX "system_u:system_r:sshd_t:s0"

/* The kernel answers a context with its NUL: "ctx\0". */
static void attr(const char *name, const char *value)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "proc/thread-self/attr/%s", name);
	if (value)
		fx_write(rel, value, strlen(value) + 1);
	else
		fx_write(rel, "", 0);
}

static void setup(void)
{
	fx_setup();
	fx_proc_root();
	fx_mkdir("proc/thread-self/attr");
}

static void teardown(void)
{
	core_set_proc_root(NULL);
	fx_teardown();
}

typedef int (*get_fn)(char **);
typedef int (*set_fn)(const char *);

static const struct {
	const char *attr;
	get_fn get, get_raw;
	set_fn set, set_raw;
} attrs[] = {
	{ "current", getcon, getcon_raw, setcon, setcon_raw },
	{ "exec", getexeccon, getexeccon_raw, setexeccon, setexeccon_raw },
	{ "fscreate", getfscreatecon, getfscreatecon_raw, setfscreatecon,
	  setfscreatecon_raw },
	{ "keycreate", getkeycreatecon, getkeycreatecon_raw, setkeycreatecon,
	  setkeycreatecon_raw },
	{ "sockcreate", getsockcreatecon, getsockcreatecon_raw,
	  setsockcreatecon, setsockcreatecon_raw },
	{ "prev", getprevcon, getprevcon_raw, NULL, NULL },
};

/* Loop tests over attrs[]: _i is the index. */

START_TEST(test_get_reads_attribute)
{
	char *con = NULL;

	attr(attrs[_i].attr, CTX);
	ck_assert_int_eq(attrs[_i].get_raw(&con), 0);
	ck_assert_str_eq(con, CTX);
	freecon(con);
	con = NULL;
	/* No translation daemon: the plain call gives the same. */
	ck_assert_int_eq(attrs[_i].get(&con), 0);
	ck_assert_str_eq(con, CTX);
	freecon(con);
}
END_TEST

START_TEST(test_get_without_nul)
{
	char rel[256];
	char *con = NULL;

	snprintf(rel, sizeof(rel), "proc/thread-self/attr/%s",
		 attrs[_i].attr);
	fx_writes(rel, "user_u:user_r:user_t");
	ck_assert_int_eq(attrs[_i].get_raw(&con), 0);
	ck_assert_str_eq(con, "user_u:user_r:user_t");
	freecon(con);
}
END_TEST

START_TEST(test_get_empty_is_null)
{
	char *con = (char *)"sentinel";

	attr(attrs[_i].attr, NULL);
	ck_assert_int_eq(attrs[_i].get_raw(&con), 0);
	ck_assert_ptr_null(con);
	con = (char *)"sentinel";
	ck_assert_int_eq(attrs[_i].get(&con), 0);
	ck_assert_ptr_null(con);
}
END_TEST

START_TEST(test_get_missing_is_enoent)
{
	char *con = NULL;

	errno = 0;
	ck_assert_int_eq(attrs[_i].get_raw(&con), -1);
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_int_eq(attrs[_i].get(&con), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_get_null_out_is_einval)
{
	attr(attrs[_i].attr, CTX);
	errno = 0;
	ck_assert_int_eq(attrs[_i].get_raw(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(attrs[_i].get(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_set_writes_context_with_nul)
{
	char rel[256];
	size_t len = 0;
	char *got;

	if (!attrs[_i].set)
		return; /* prev is read-only */
	snprintf(rel, sizeof(rel), "proc/thread-self/attr/%s",
		 attrs[_i].attr);
	attr(attrs[_i].attr, NULL);
	ck_assert_int_eq(attrs[_i].set_raw(CTX), 0);
	got = fx_read(rel, &len);
	ck_assert_uint_eq(len, strlen(CTX) + 1);
	ck_assert_int_eq(memcmp(got, CTX "", strlen(CTX) + 1), 0);
	free(got);

	attr(attrs[_i].attr, NULL);
	ck_assert_int_eq(attrs[_i].set("user_u:user_r:user_t"), 0);
	got = fx_read(rel, &len);
	ck_assert_uint_eq(len, strlen("user_u:user_r:user_t") + 1);
	ck_assert_str_eq(got, "user_u:user_r:user_t");
	free(got);
}
END_TEST

START_TEST(test_set_null_writes_nothing)
{
	char rel[256];
	size_t len = 99;
	char *got;

	if (!attrs[_i].set)
		return;
	snprintf(rel, sizeof(rel), "proc/thread-self/attr/%s",
		 attrs[_i].attr);
	attr(attrs[_i].attr, NULL);
	/* A zero-length write is the kernel's "reset to default". */
	ck_assert_int_eq(attrs[_i].set_raw(NULL), 0);
	ck_assert_int_eq(attrs[_i].set(NULL), 0);
	got = fx_read(rel, &len);
	ck_assert_uint_eq(len, 0);
	free(got);
}
END_TEST

START_TEST(test_set_missing_is_enoent)
{
	if (!attrs[_i].set)
		return;
	errno = 0;
	ck_assert_int_eq(attrs[_i].set_raw(CTX), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/*
 * The per-thread memory (as in the established library): a get answers
 * what this thread last set, whatever the kernel would say now; setting
 * the same value again writes nothing; after a reset to the default the
 * kernel is asked again.  prev is never written, so never remembered.
 */
static char *fixture_now(int i)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "proc/thread-self/attr/%s", attrs[i].attr);
	return fx_read(rel, NULL);
}

START_TEST(test_get_answers_what_this_thread_set)
{
	char *con = NULL;

	if (!attrs[_i].set)
		return;
	attr(attrs[_i].attr, NULL);
	ck_assert_int_eq(attrs[_i].set_raw("a:b:c"), 0);
	attr(attrs[_i].attr, "x:y:z"); /* the kernel now says otherwise */
	ck_assert_int_eq(attrs[_i].get_raw(&con), 0);
	ck_assert_str_eq(con, "a:b:c");
	freecon(con);
	ck_assert_int_eq(attrs[_i].get(&con), 0);
	ck_assert_str_eq(con, "a:b:c");
	freecon(con);
}
END_TEST

START_TEST(test_set_same_value_writes_nothing)
{
	char *now;

	if (!attrs[_i].set)
		return;
	attr(attrs[_i].attr, NULL);
	ck_assert_int_eq(attrs[_i].set_raw("a:b:c"), 0);
	attr(attrs[_i].attr, NULL);
	ck_assert_int_eq(attrs[_i].set_raw("a:b:c"), 0);
	now = fixture_now(_i);
	ck_assert_str_eq(now, "");
	free(now);
	ck_assert_int_eq(attrs[_i].set_raw("d:e:f"), 0);
	now = fixture_now(_i);
	ck_assert_str_eq(now, "d:e:f");
	free(now);
}
END_TEST

START_TEST(test_get_after_reset_asks_kernel)
{
	char *con = NULL;

	if (!attrs[_i].set)
		return;
	attr(attrs[_i].attr, NULL);
	ck_assert_int_eq(attrs[_i].set_raw("a:b:c"), 0);
	ck_assert_int_eq(attrs[_i].set_raw(NULL), 0);
	attr(attrs[_i].attr, "k:k:k");
	ck_assert_int_eq(attrs[_i].get_raw(&con), 0);
	ck_assert_str_eq(con, "k:k:k");
	freecon(con);
}
END_TEST

START_TEST(test_failed_set_is_not_remembered)
{
	char *con = NULL;

	if (!attrs[_i].set)
		return;
	/* No attribute file: the write fails, nothing is remembered. */
	errno = 0;
	ck_assert_int_eq(attrs[_i].set_raw("a:b:c"), -1);
	ck_assert_int_eq(errno, ENOENT);
	attr(attrs[_i].attr, "k:k:k");
	ck_assert_int_eq(attrs[_i].get_raw(&con), 0);
	ck_assert_str_eq(con, "k:k:k");
	freecon(con);
}
END_TEST

static void *other_thread_get(void *p)
{
	char *con = NULL;
	int i = *(int *)p;

	if (attrs[i].get_raw(&con) < 0)
		return strdup("error");
	return con ? con : strdup("NULL");
}

START_TEST(test_memory_is_per_thread)
{
	pthread_t t;
	void *got;
	int i = _i;

	if (!attrs[_i].set)
		return;
	attr(attrs[_i].attr, NULL);
	ck_assert_int_eq(attrs[_i].set_raw("a:b:c"), 0);
	attr(attrs[_i].attr, "k:k:k");
	/* The fixture has one thread-self for all threads, so another
	 * thread reads the file: it remembers nothing of ours. */
	ck_assert_int_eq(pthread_create(&t, NULL, other_thread_get, &i), 0);
	ck_assert_int_eq(pthread_join(t, &got), 0);
	ck_assert_str_eq(got, "k:k:k");
	free(got);
}
END_TEST

START_TEST(test_getpidcon_is_never_remembered)
{
	char *con = NULL;

	fx_write("proc/4242/attr/current", "k:k:k", 6);
	attr("current", NULL);
	ck_assert_int_eq(setcon_raw("a:b:c"), 0);
	ck_assert_int_eq(getpidcon_raw(4242, &con), 0);
	ck_assert_str_eq(con, "k:k:k");
	freecon(con);
}
END_TEST

/* Kernels before 3.17 have no /proc/thread-self: /proc/self/task/TID. */
START_TEST(test_getcon_falls_back_to_task_dir)
{
	char rel[256];
	char *con = NULL;

	fx_teardown();
	fx_setup();
	fx_proc_root();
	snprintf(rel, sizeof(rel), "proc/self/task/%ld/attr/current",
		 (long)syscall(SYS_gettid));
	fx_write(rel, CTX, sizeof(CTX));
	ck_assert_int_eq(getcon_raw(&con), 0);
	ck_assert_str_eq(con, CTX);
	freecon(con);
}
END_TEST

/* getpidcon / getpidprevcon ------------------------------------------ */

START_TEST(test_getpidcon_reads_pid_dir)
{
	char *con = NULL;

	fx_write("proc/4242/attr/current", CTX, sizeof(CTX));
	ck_assert_int_eq(getpidcon_raw(4242, &con), 0);
	ck_assert_str_eq(con, CTX);
	freecon(con);
	ck_assert_int_eq(getpidcon(4242, &con), 0);
	ck_assert_str_eq(con, CTX);
	freecon(con);
}
END_TEST

START_TEST(test_getpidcon_bad_pid)
{
	char *con = NULL;

	errno = 0;
	ck_assert_int_eq(getpidcon(0, &con), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(getpidcon_raw(-1, &con), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_getpidcon_no_such_pid)
{
	char *con = NULL;

	errno = 0;
	ck_assert_int_eq(getpidcon(77777, &con), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_getpidprevcon_reads_prev)
{
	char *con = NULL;

	fx_write("proc/4242/attr/prev", "u:r:init_t:s0", 14);
	ck_assert_int_eq(getpidprevcon_raw(4242, &con), 0);
	ck_assert_str_eq(con, "u:r:init_t:s0");
	freecon(con);
	ck_assert_int_eq(getpidprevcon(4242, &con), 0);
	ck_assert_str_eq(con, "u:r:init_t:s0");
	freecon(con);
	errno = 0;
	ck_assert_int_eq(getpidprevcon(0, &con), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* The real /proc of this host: without SELinux the attr files exist but
 * answer EINVAL, and the library passes that on. */
START_TEST(test_getcon_host_kernel_without_selinux)
{
	struct stat st;
	char *con = NULL;

	core_set_proc_root(NULL);
	if (stat("/sys/fs/selinux", &st) == 0)
		return; /* a SELinux kernel: the VM suite covers it */
	errno = 0;
	ck_assert_int_eq(getcon_raw(&con), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(getpidcon(getpid(), &con), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(setfscreatecon_raw("a:b:c"), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("core_procattr");
	int n = (int)(sizeof(attrs) / sizeof(attrs[0]));
	TCase *tc;

	tc = tcase_create("get_set_by_attribute");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_get_reads_attribute, 0, n);
	tcase_add_loop_test(tc, test_get_without_nul, 0, n);
	tcase_add_loop_test(tc, test_get_empty_is_null, 0, n);
	tcase_add_loop_test(tc, test_get_missing_is_enoent, 0, n);
	tcase_add_loop_test(tc, test_get_null_out_is_einval, 0, n);
	tcase_add_loop_test(tc, test_set_writes_context_with_nul, 0, n);
	tcase_add_loop_test(tc, test_set_null_writes_nothing, 0, n);
	tcase_add_loop_test(tc, test_set_missing_is_enoent, 0, n);
	suite_add_tcase(s, tc);

	tc = tcase_create("per_thread_memory");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_get_answers_what_this_thread_set, 0, n);
	tcase_add_loop_test(tc, test_set_same_value_writes_nothing, 0, n);
	tcase_add_loop_test(tc, test_get_after_reset_asks_kernel, 0, n);
	tcase_add_loop_test(tc, test_failed_set_is_not_remembered, 0, n);
	tcase_add_loop_test(tc, test_memory_is_per_thread, 0, n);
	tcase_add_test(tc, test_getpidcon_is_never_remembered);
	suite_add_tcase(s, tc);

	tc = tcase_create("getcon");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_getcon_falls_back_to_task_dir);
	tcase_add_test(tc, test_getcon_host_kernel_without_selinux);
	suite_add_tcase(s, tc);

	tc = tcase_create("getpidcon");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_getpidcon_reads_pid_dir);
	tcase_add_test(tc, test_getpidcon_bad_pid);
	tcase_add_test(tc, test_getpidcon_no_such_pid);
	tcase_add_test(tc, test_getpidprevcon_reads_prev);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
