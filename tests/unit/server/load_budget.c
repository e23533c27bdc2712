/*
 * Suite server_load_budget: the bound on what reading a policy may take
 * (kernel/server/budget.h), alone and through pol_load with forged
 * policies.  Linked as selinuxfsd is (malloc and its kin wrapped); the
 * server's sources are built with SRV_LOAD_BASE_MS=100, so that the
 * deadline of a small policy is 100 ms and the time test is quick.
 *
 * argv[1]: a small binary policy (tests/fuzz/seed/load/tiny-mls.33).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <sepol/debug.h>
#include <sepol/handle.h>
#include <sepol/policydb/policydb.h>

#include "budget.h"
#include "log.h"
#include "policy.h"

static const char *policy_path;
static void *image;
static size_t image_len;

static void read_image(void)
{
	FILE *f = fopen(policy_path, "rb");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	image_len = (size_t)ftell(f);
	rewind(f);
	image = malloc(image_len);
	ck_assert_ptr_nonnull(image);
	ck_assert_uint_eq(fread(image, 1, image_len, f), image_len);
	fclose(f);
}

/* The policy with its users' symbol table claiming nprim numbers (as
 * libsepol writes it: the table's header holds nprim as given). */
static void *forge_users(uint32_t nprim, size_t *len)
{
	sepol_handle_t *h = sepol_handle_create();
	policydb_t p;
	policy_file_t pf;
	void *copy = malloc(image_len);
	char *out;

	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(copy);
	sepol_msg_set_callback(h, NULL, NULL);
	memcpy(copy, image, image_len);
	ck_assert_int_eq(policydb_init(&p), 0);
	ck_assert_int_eq(policydb_from_image(h, copy, image_len, &p), 0);
	ck_assert_uint_lt(p.p_users.nprim, nprim);
	p.p_users.nprim = nprim;
	policy_file_init(&pf);
	pf.type = PF_LEN;
	pf.handle = h;
	ck_assert_int_eq(policydb_write(&p, &pf), 0);
	*len = pf.len;
	out = malloc(*len);
	ck_assert_ptr_nonnull(out);
	policy_file_init(&pf);
	pf.type = PF_USE_MEMORY;
	pf.handle = h;
	pf.data = out;
	pf.len = *len;
	ck_assert_int_eq(policydb_write(&p, &pf), 0);
	ck_assert_uint_eq(pf.len, 0);
	p.p_users.nprim = 1; /* what its arrays hold, for the destroy */
	policydb_destroy(&p);
	sepol_handle_destroy(h);
	free(copy);
	return out;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* budget.c -----------------------------------------------------------
 * Check allocates in its assertions (and is wrapped too, being linked
 * in): nothing is asserted while a budget is open. */

START_TEST(test_budget_memory)
{
	size_t used = 1;
	void *a, *b, *c, *d;
	int err;
	enum budget_result r;

	budget_begin(1000, 60000);
	a = malloc(600);
	errno = 0;
	b = calloc(2, 300); /* 1200 > 1000 */
	err = errno;
	/* once refused, always: libsepol may try smaller amounts after */
	c = malloc(1);
	r = budget_end(&used);
	/* closed: no bound */
	d = malloc(1 << 20);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_null(b);
	ck_assert_int_eq(err, ENOMEM);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(r, BUDGET_MEMORY);
	ck_assert_uint_eq(used, 600);
	ck_assert_ptr_nonnull(d);
	free(a);
	free(d);
}
END_TEST

START_TEST(test_budget_realloc_counts_new_size)
{
	void *a, *b, *c;
	enum budget_result r;

	budget_begin(1000, 60000);
	a = malloc(400);
	b = a ? realloc(a, 500) : NULL; /* 900 in all */
	c = b ? realloc(b, 200) : NULL;
	r = budget_end(NULL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(r, BUDGET_MEMORY);
	free(b);
}
END_TEST

START_TEST(test_budget_overflow)
{
	volatile size_t half = SIZE_MAX / 2; /* no compile-time warning */
	void *a, *b;
	int err;
	enum budget_result r1, r2;

	budget_begin(SIZE_MAX, 60000);
	errno = 0;
	a = calloc(half, 4);
	err = errno;
	r1 = budget_end(NULL);
	budget_begin(SIZE_MAX, 60000);
	b = reallocarray(NULL, half, 4);
	r2 = budget_end(NULL);
	ck_assert_ptr_null(a);
	ck_assert_int_eq(err, ENOMEM);
	ck_assert_int_eq(r1, BUDGET_MEMORY);
	ck_assert_ptr_null(b);
	ck_assert_int_eq(r2, BUDGET_MEMORY);
}
END_TEST

START_TEST(test_budget_deadline)
{
	struct timespec ts = { 0, 60 * 1000000 };
	void *a, *b;
	int err;
	enum budget_result r;

	budget_begin(1 << 20, 20);
	a = malloc(10);
	free(a);
	nanosleep(&ts, NULL);
	errno = 0;
	b = malloc(10);
	err = errno;
	r = budget_end(NULL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_null(b);
	ck_assert_int_eq(err, ENOMEM);
	ck_assert_int_eq(r, BUDGET_DEADLINE);
}
END_TEST

START_TEST(test_budget_kept)
{
	size_t used = 0;
	void *a;
	enum budget_result r;

	budget_begin(1 << 20, 60000);
	a = malloc(100);
	free(a);
	r = budget_end(&used);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(r, BUDGET_KEPT);
	ck_assert_uint_eq(used, 100);
}
END_TEST

/* pol_load ----------------------------------------------------------- */

START_TEST(test_load_plain)
{
	read_image();
	ck_assert_int_eq(pol_load(image, image_len), 0);
	ck_assert(pol_loaded());
	pol_unload();
}
END_TEST

/* 2^31 user numbers: 32 GB of tables, which overcommit would grant and
 * libsepol then walk for hours; refused at the first table. */
START_TEST(test_load_forged_memory)
{
	size_t len;
	void *forged;
	double t0;

	read_image();
	forged = forge_users(0x7ffffff0, &len);
	ck_assert_int_eq(pol_load(image, image_len), 0);
	t0 = now();
	ck_assert_int_eq(pol_load(forged, len), -ENOMEM);
	ck_assert_double_lt(now() - t0, 5);
	/* the loaded policy stays */
	ck_assert(pol_loaded());
	ck_assert_int_eq(pol_load(image, image_len), 0);
	pol_unload();
	free(forged);
}
END_TEST

/* 500,000 unused user numbers: 8 MB of tables (within the budget), but
 * libsepol's validation marks each in a list bitmap, about 2e9 steps:
 * minutes.  The deadline (100 ms here + 1 ms per KB) ends it. */
START_TEST(test_load_forged_time)
{
	size_t len;
	void *forged;
	double t0, took;

	read_image();
	forged = forge_users(500000, &len);
	t0 = now();
	ck_assert_int_eq(pol_load(forged, len), -ENOMEM);
	took = now() - t0;
	ck_assert_msg(took < 10, "took %.1f s", took);
	ck_assert(!pol_loaded());
	free(forged);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("server_load_budget");
	TCase *tc = tcase_create("budget");

	tcase_add_test(tc, test_budget_memory);
	tcase_add_test(tc, test_budget_realloc_counts_new_size);
	tcase_add_test(tc, test_budget_overflow);
	tcase_add_test(tc, test_budget_deadline);
	tcase_add_test(tc, test_budget_kept);
	suite_add_tcase(s, tc);

	tc = tcase_create("pol_load");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_load_plain);
	tcase_add_test(tc, test_load_forged_memory);
	tcase_add_test(tc, test_load_forged_time);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	if (argc != 2) {
		fprintf(stderr, "usage: %s POLICY\n", argv[0]);
		return 2;
	}
	policy_path = argv[1];
	srv_log_set_verbose(true); /* which limit ended a load, in the log */
	sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
