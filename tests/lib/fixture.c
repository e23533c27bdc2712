/* tests/lib/fixture.c: temporary trees for the unit tests. */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <selinux/selinux.h>

#include "fixture.h"

/* Unexported hooks of the static archive. */
void core_set_config_root(const char *dir);
void core_set_proc_root(const char *dir);

char fx_root[4096];

void fx_setup_in(const char *base)
{
	snprintf(fx_root, sizeof(fx_root), "%s/selinux-test.XXXXXX", base);
	ck_assert_msg(mkdtemp(fx_root) != NULL, "mkdtemp: %s",
		      strerror(errno));
}

void fx_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(fx_root, sizeof(fx_root), "%s/selinux-test.XXXXXX",
		 tmp ? tmp : "/tmp");
	ck_assert_msg(mkdtemp(fx_root) != NULL, "mkdtemp: %s",
		      strerror(errno));
}

static int quiet(int type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
	return 0;
}

void fx_setup_quiet(void)
{
	union selinux_callback cb = {.func_log = quiet};

	selinux_set_callback(SELINUX_CB_LOG, cb);
	fx_setup();
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

void fx_teardown(void)
{
	if (fx_root[0])
		nftw(fx_root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	fx_root[0] = '\0';
}

const char *fx_path(const char *rel)
{
	static char buf[8][8192];
	static int slot;
	char *b = buf[slot++ % 8];

	snprintf(b, 8192, "%s/%s", fx_root, rel);
	return b;
}

static void mkparents(const char *path)
{
	char tmp[8192];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + strlen(fx_root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
}

void fx_mkdir(const char *rel)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/%s/", fx_root, rel);
	mkparents(path);
}

void fx_write(const char *rel, const void *data, size_t len)
{
	const char *path = fx_path(rel);
	int fd;

	mkparents(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

void fx_writes(const char *rel, const char *s)
{
	fx_write(rel, s, strlen(s));
}

char *fx_read(const char *rel, size_t *len)
{
	const char *path = fx_path(rel);
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n = 0;

	ck_assert_msg(f != NULL, "fopen %s: %s", path, strerror(errno));
	buf = malloc(1 << 20);
	ck_assert_ptr_nonnull(buf);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

const char *fx_selinuxfs(void)
{
	const char *mnt = fx_path("selinuxfs");

	mkdir(mnt, 0755);
	set_selinuxmnt(mnt);
	return mnt;
}

void fx_config_root(void)
{
	fx_mkdir("etc/selinux");
	core_set_config_root(fx_path("etc/selinux"));
}

void fx_proc_root(void)
{
	fx_mkdir("proc");
	core_set_proc_root(fx_path("proc"));
}

int fx_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
