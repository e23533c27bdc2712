/* Suite core_callbacks: selinux_set_callback/get_callback and setrans. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

void core_log(int type, const char *fmt, ...);
void core_set_setrans_socket(const char *path);
void core_set_proc_root(const char *dir);

static void setup(void)
{
	fx_setup();
}

static void teardown(void)
{
	core_set_setrans_socket(NULL);
	core_set_proc_root(NULL);
	fini_selinuxmnt();
	fx_teardown();
}

static char logged[1024];
static int logged_type = -1;

static int my_log(int type, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(logged, sizeof(logged), fmt, ap);
	va_end(ap);
	logged_type = type;
	return 0;
}

static int my_validate(char **ctx)
{
	return strcmp(*ctx, "ok:ok:ok") == 0 ? 0 : (errno = EINVAL, -1);
}

static int my_setenforce(int e)
{
	return e + 100;
}

static int my_policyload(int s)
{
	return s + 200;
}

static int my_audit(void *d, security_class_t c, char *b, size_t n)
{
	return (int)c;
}

START_TEST(test_selinux_set_callback_roundtrip)
{
	union selinux_callback cb;

	cb.func_log = my_log;
	selinux_set_callback(SELINUX_CB_LOG, cb);
	cb.func_validate = my_validate;
	selinux_set_callback(SELINUX_CB_VALIDATE, cb);
	cb.func_setenforce = my_setenforce;
	selinux_set_callback(SELINUX_CB_SETENFORCE, cb);
	cb.func_policyload = my_policyload;
	selinux_set_callback(SELINUX_CB_POLICYLOAD, cb);
	cb.func_audit = my_audit;
	selinux_set_callback(SELINUX_CB_AUDIT, cb);

	ck_assert_ptr_eq(selinux_get_callback(SELINUX_CB_LOG).func_log, my_log);
	ck_assert_ptr_eq(selinux_get_callback(SELINUX_CB_VALIDATE).func_validate,
			 my_validate);
	ck_assert_int_eq(
		selinux_get_callback(SELINUX_CB_SETENFORCE).func_setenforce(1),
		101);
	ck_assert_int_eq(
		selinux_get_callback(SELINUX_CB_POLICYLOAD).func_policyload(3),
		203);
	ck_assert_int_eq(selinux_get_callback(SELINUX_CB_AUDIT)
				 .func_audit(NULL, 7, NULL, 0),
			 7);
}
END_TEST

START_TEST(test_selinux_get_callback_defaults)
{
	char msg[16] = "untouched";

	ck_assert_ptr_nonnull(selinux_get_callback(SELINUX_CB_LOG).func_log);
	/* The default audit callback writes nothing and succeeds. */
	ck_assert_int_eq(selinux_get_callback(SELINUX_CB_AUDIT)
				 .func_audit(NULL, 1, msg, sizeof(msg)),
			 0);
	ck_assert_str_eq(msg, "untouched");
	ck_assert_int_eq(
		selinux_get_callback(SELINUX_CB_SETENFORCE).func_setenforce(1),
		0);
	ck_assert_int_eq(
		selinux_get_callback(SELINUX_CB_POLICYLOAD).func_policyload(1),
		0);
}
END_TEST

/* The default validator asks the kernel: here, a fake selinuxfs. */
START_TEST(test_default_validate_uses_check_context)
{
	char *ctx = (char *)"u:r:t";
	int (*v)(char **) = selinux_get_callback(SELINUX_CB_VALIDATE)
				    .func_validate;

	errno = 0;
	ck_assert_int_eq(v(&ctx), -1);
	ck_assert_int_eq(errno, ENOENT);
	fx_selinuxfs();
	fx_writes("selinuxfs/context", "");
	ck_assert_int_eq(v(&ctx), 0);
}
END_TEST

START_TEST(test_selinux_get_callback_unknown_type)
{
	union selinux_callback cb = selinux_get_callback(42);

	ck_assert_ptr_null(cb.func_log);
	cb.func_log = my_log;
	selinux_set_callback(42, cb); /* ignored */
	ck_assert_ptr_null(selinux_get_callback(42).func_log);
}
END_TEST

START_TEST(test_core_log_reaches_callback_and_keeps_errno)
{
	union selinux_callback cb = { .func_log = my_log };

	selinux_set_callback(SELINUX_CB_LOG, cb);
	errno = ERANGE;
	core_log(SELINUX_WARNING, "line %u: %s\n", 12u, "bad");
	ck_assert_int_eq(errno, ERANGE);
	ck_assert_int_eq(logged_type, SELINUX_WARNING);
	ck_assert_str_eq(logged, "line 12: bad\n");
}
END_TEST

static size_t long_len;

static int measure_log(int type, const char *fmt, ...)
{
	va_list ap;

	(void)type;
	va_start(ap, fmt);
	long_len = (size_t)vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return 0;
}

START_TEST(test_core_log_long_message_whole)
{
	union selinux_callback cb = { .func_log = measure_log };
	char *big = malloc(10001);

	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 10000);
	big[10000] = '\0';
	selinux_set_callback(SELINUX_CB_LOG, cb);
	/* 10000 + "line 1: " + "\n": not cut at a buffer's size */
	core_log(SELINUX_WARNING, "line %u: %s\n", 1u, big);
	ck_assert_uint_eq(long_len, 10009);
	free(big);
}
END_TEST

/* setrans: a fake mcstransd ------------------------------------------ */

struct fake {
	int lfd;
	int32_t status; /* answered status */
	int requests;
	uint32_t last_function;
};

/*
 * Serve the wire format as the library speaks it: three uint32 (function,
 * size1, size2), then the two strings; answer uint32 function, uint32
 * size, int32 status, then the string.  The "translation" upper-cases.
 */
static bool read_full(int fd, void *buf, size_t n)
{
	char *b = buf;

	while (n > 0) {
		ssize_t r = read(fd, b, n);

		if (r <= 0)
			return false;
		b += r;
		n -= (size_t)r;
	}
	return true;
}

static void *serve(void *p)
{
	struct fake *f = p;
	int fd;

	while ((fd = accept(f->lfd, NULL, NULL)) >= 0) {
		uint32_t hdr[3], ans[3];
		char in[8192], out[8192];
		size_t i;

		if (!read_full(fd, hdr, sizeof(hdr)) ||
		    hdr[1] + hdr[2] > sizeof(in) ||
		    !read_full(fd, in, hdr[1] + hdr[2])) {
			close(fd);
			continue;
		}
		f->requests++;
		f->last_function = hdr[0];
		for (i = 0; i < hdr[1]; i++)
			out[i] = (char)((in[i] >= 'a' && in[i] <= 'z')
						? in[i] - 32
						: in[i]);
		ans[0] = hdr[0];
		ans[1] = hdr[1];
		ans[2] = (uint32_t)f->status;
		/* The client may hang up after a failure status: no SIGPIPE. */
		if (send(fd, ans, sizeof(ans), MSG_NOSIGNAL) < 0 ||
		    send(fd, out, hdr[1], MSG_NOSIGNAL) < 0) {
		}
		close(fd);
	}
	return NULL;
}

static struct fake fake;
static pthread_t fake_thread;

static void start_fake(int32_t status)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };

	fake.status = status;
	fake.requests = 0;
	fake.lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", fx_path("setrans"));
	ck_assert_int_eq(bind(fake.lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(listen(fake.lfd, 8), 0);
	ck_assert_int_eq(pthread_create(&fake_thread, NULL, serve, &fake), 0);
	core_set_setrans_socket(fx_path("setrans"));
}

START_TEST(test_setrans_no_daemon_is_identity)
{
	char *out = NULL;

	core_set_setrans_socket(fx_path("absent"));
	ck_assert_int_eq(selinux_raw_to_trans_context("u:r:t:s0", &out), 0);
	ck_assert_str_eq(out, "u:r:t:s0");
	freecon(out);
	ck_assert_int_eq(selinux_trans_to_raw_context("u:r:t:Secret", &out),
			 0);
	ck_assert_str_eq(out, "u:r:t:Secret");
	freecon(out);
}
END_TEST

START_TEST(test_setrans_null_gives_null)
{
	char *out = (char *)"x";

	ck_assert_int_eq(selinux_raw_to_trans_context(NULL, &out), 0);
	ck_assert_ptr_null(out);
	out = (char *)"x";
	ck_assert_int_eq(selinux_trans_to_raw_context(NULL, &out), 0);
	ck_assert_ptr_null(out);
}
END_TEST

START_TEST(test_setrans_daemon_translates_and_caches)
{
	char *out = NULL;

	start_fake(0);
	ck_assert_int_eq(selinux_raw_to_trans_context("u:r:t:s0", &out), 0);
	ck_assert_str_eq(out, "U:R:T:S0");
	freecon(out);
	ck_assert_uint_eq(fake.last_function, 2);
	/* The same context again comes from the per-thread cache. */
	ck_assert_int_eq(selinux_raw_to_trans_context("u:r:t:s0", &out), 0);
	ck_assert_str_eq(out, "U:R:T:S0");
	freecon(out);
	ck_assert_int_eq(fake.requests, 1);
	ck_assert_int_eq(selinux_trans_to_raw_context("a:b:c", &out), 0);
	ck_assert_str_eq(out, "A:B:C");
	freecon(out);
	ck_assert_uint_eq(fake.last_function, 3);
}
END_TEST

START_TEST(test_setrans_daemon_failure_leaves_context)
{
	char *out = NULL;

	start_fake(-1);
	ck_assert_int_eq(selinux_raw_to_trans_context("u:r:t:s0", &out), 0);
	ck_assert_str_eq(out, "u:r:t:s0");
	freecon(out);
}
END_TEST

/* The translated getters go through the daemon; _raw ones never do. */
START_TEST(test_getcon_translates_raw_does_not)
{
	char *con = NULL;

	fx_proc_root();
	fx_write("proc/thread-self/attr/current", "u:r:t:s0", 9);
	start_fake(0);
	ck_assert_int_eq(getcon_raw(&con), 0);
	ck_assert_str_eq(con, "u:r:t:s0");
	freecon(con);
	ck_assert_int_eq(fake.requests, 0);
	ck_assert_int_eq(getcon(&con), 0);
	ck_assert_str_eq(con, "U:R:T:S0");
	freecon(con);
	ck_assert_int_eq(fake.requests, 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("core_callbacks");
	TCase *tc;

	tc = tcase_create("selinux_set_callback");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selinux_set_callback_roundtrip);
	tcase_add_test(tc, test_selinux_get_callback_defaults);
	tcase_add_test(tc, test_default_validate_uses_check_context);
	tcase_add_test(tc, test_selinux_get_callback_unknown_type);
	tcase_add_test(tc, test_core_log_reaches_callback_and_keeps_errno);
	tcase_add_test(tc, test_core_log_long_message_whole);
	suite_add_tcase(s, tc);

	tc = tcase_create("setrans");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_setrans_no_daemon_is_identity);
	tcase_add_test(tc, test_setrans_null_gives_null);
	tcase_add_test(tc, test_setrans_daemon_translates_and_caches);
	tcase_add_test(tc, test_setrans_daemon_failure_leaves_context);
	tcase_add_test(tc, test_getcon_translates_raw_does_not);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
