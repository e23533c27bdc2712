/*
 * Suite label_image_truncated: a handle whose index image is truncated
 * in place under it (an administrator's cp over file_contexts.idx: an
 * open with O_TRUNC, then the writes).  The image is mapped shared for
 * the handle's life (index/image.c: its pages are the page cache's,
 * shared by every process); a page past the file's new end is gone, and
 * the next lookup that touches it is killed by SIGBUS - as 3.8.1 and
 * 3.11 are when their mapped .bin is cut.  The library installs no
 * signal handler (a library must not); label.h says so.  This pins the
 * documented outcome: the child dies of SIGBUS, nothing else.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "fixture.h"
#include "label/file/file.h"

static const char fc_text[] = "/.*\t\tu:r:default_t:s0\n"
			      "/etc(/.*)?\t\tu:r:etc_t:s0\n"
			      "/etc/passwd\t--\tu:r:passwd_t:s0\n"
			      "/usr/lib/[^/]+\\.so\t--\tu:r:lib_t:s0\n";

static void setup(void)
{
	const char *why;

	fx_setup_quiet();
	fx_writes("p/file_contexts", fc_text);
	ck_assert_int_eq(
	    lbl_fc_write_index(fx_path("p/file_contexts"), NULL, &why), 0);
}

static void teardown(void)
{
	fx_teardown();
}

/* The child: a handle on the image, one lookup, the image cut to 0 by
 * an open with O_TRUNC, another lookup.  Exits 0 if that answered as
 * before, 2 if the image was not used, 3 if the first lookup failed. */
static int child(void)
{
	struct selinux_opt opt = {SELABEL_OPT_PATH, NULL};
	struct selabel_handle *h;
	char line[4096], *con;
	int mapped = 0, fd;
	FILE *f;

	/* the default action: a sanitizer's handler would turn the signal
	 * into a report and an exit status */
	signal(SIGBUS, SIG_DFL);
	opt.value = fx_path("p/file_contexts");
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	if (!h)
		return 4;
	f = fopen("/proc/self/maps", "re");
	while (f && fgets(line, sizeof(line), f))
		mapped |= strstr(line, "file_contexts.idx") != NULL;
	if (f)
		fclose(f);
	if (!mapped)
		return 2;
	if (selabel_lookup_raw(h, &con, "/etc/passwd", S_IFREG) ||
	    strcmp(con, "u:r:passwd_t:s0"))
		return 3;
	freecon(con);
	fd = open(fx_path("p/file_contexts.idx"), O_WRONLY | O_TRUNC);
	if (fd < 0)
		return 5;
	close(fd);
	if (selabel_lookup_raw(h, &con, "/usr/lib/libz.so", S_IFREG) ||
	    strcmp(con, "u:r:lib_t:s0"))
		return 6;
	return 0;
}

START_TEST(test_selabel_lookup_image_truncated)
{
	int st;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child());
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFSIGNALED(st), "the child exited with %d",
		      WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	ck_assert_int_eq(WTERMSIG(st), SIGBUS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_image_truncated");
	TCase *tc = tcase_create("selabel_lookup");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selabel_lookup_image_truncated);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
