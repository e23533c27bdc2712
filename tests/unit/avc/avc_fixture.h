/* tests/unit/avc/avc_fixture.h: a fake selinuxfs for the AVC suites. */
#ifndef TESTS_AVC_FIXTURE_H
#define TESTS_AVC_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <selinux/avc.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* The suites test the deprecated calls too (avc_init, sidget...). */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/*
 * selinuxfs/status is a regular file of one page: the library maps it
 * MAP_SHARED, so a pwrite() here is what the kernel's update would be.
 * enforce holds 1, class/file numbers read 0x1, write 0x2, open 0x4 and
 * class 6 is "file".  A transaction file ("access", "create") is a FIFO
 * holding the answer before the call (see tests/unit/compute/kernel.c):
 * each answer serves one request, and a request with none queued reads
 * its own request back, which fails to parse (EINVAL): so a call that
 * succeeds without an answer queued was served from the cache.  Class
 * names are known to the audit message once looked up by name, as in the
 * established library.
 */
static inline void avx_status(uint32_t seq, uint32_t enforcing,
			      uint32_t policyload, uint32_t deny_unknown)
{
	uint32_t v[5] = {1, seq, enforcing, policyload, deny_unknown};
	int fd = open(fx_path("selinuxfs/status"), O_WRONLY | O_CREAT, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, v, sizeof(v), 0), (ssize_t)sizeof(v));
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	close(fd);
}

static inline void avx_tree(void)
{
	fx_setup();
	fx_selinuxfs();
	fx_writes("selinuxfs/enforce", "1");
	fx_writes("selinuxfs/deny_unknown", "1");
	fx_writes("selinuxfs/class/file/index", "6");
	fx_writes("selinuxfs/class/file/perms/read", "1");
	fx_writes("selinuxfs/class/file/perms/write", "2");
	fx_writes("selinuxfs/class/file/perms/open", "3");
	avx_status(2, 1, 1, 1);
}

/* FIFOs left open (the queue) by file. */
static int avx_fifos[4] = {-1, -1, -1, -1};
static const char *const avx_fifo_names[4] = {"access", "create", "member",
					      "context"};

static inline void avx_answer(const char *file, const char *ans)
{
	char rel[64];
	size_t i;

	for (i = 0; i < 4; i++)
		if (!strcmp(avx_fifo_names[i], file))
			break;
	ck_assert_uint_lt(i, 4);
	if (avx_fifos[i] < 0) {
		snprintf(rel, sizeof(rel), "selinuxfs/%s", file);
		ck_assert_int_eq(mkfifo(fx_path(rel), 0600), 0);
		avx_fifos[i] = open(fx_path(rel), O_RDWR);
		ck_assert_int_ge(avx_fifos[i], 0);
	}
	ck_assert_int_eq(write(avx_fifos[i], ans, strlen(ans) + 1),
			 (ssize_t)strlen(ans) + 1);
}

static inline void avx_untree(void)
{
	for (size_t i = 0; i < 4; i++) {
		if (avx_fifos[i] >= 0)
			close(avx_fifos[i]);
		avx_fifos[i] = -1;
	}
	fini_selinuxmnt();
	fx_teardown();
}

/* Everything logged through SELINUX_CB_LOG, concatenated. */
static char avx_log[16384];
static int avx_log_type = -1;

static inline int avx_log_cb(int type, const char *fmt, ...)
{
	size_t len = strlen(avx_log);
	va_list ap;

	avx_log_type = type;
	va_start(ap, fmt);
	vsnprintf(avx_log + len, sizeof(avx_log) - len, fmt, ap);
	va_end(ap);
	return 0;
}

static inline void avx_capture_log(void)
{
	union selinux_callback cb;

	avx_log[0] = '\0';
	cb.func_log = avx_log_cb;
	selinux_set_callback(SELINUX_CB_LOG, cb);
}

static inline security_id_t avx_sid(const char *con)
{
	security_id_t sid = NULL;

	ck_assert_int_eq(avc_context_to_sid_raw(con, &sid), 0);
	ck_assert_ptr_nonnull(sid);
	return sid;
}

/* A TCase with the fixture, added to s. */
static inline TCase *avx_tcase(Suite *s, const char *name, void (*setup)(void),
			       void (*teardown)(void))
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	suite_add_tcase(s, tc);
	return tc;
}

static inline int avx_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

#endif
