/*
 * Suite label_cut_write: what a crash in the middle of writing a
 * compiled file leaves, and what the next open makes of it.  A set of
 * file_contexts (with .homedirs, .local and .subs) is compiled to a
 * .bin and indexed to file_contexts.idx; each is then replaced by
 * itself cut at every offset, by zeros of its full size, and by the
 * states a rename interrupted leaves (the temporary file beside, the
 * target absent or the old one).  Each time a fresh handle must answer
 * a fixed list of lookups exactly as the text files alone answer them,
 * computed here by opening the text with no .bin and no image.
 *
 * Why that is the answer (label/file/open.c, index/image.c): a .bin
 * that fails to load is dropped for its text file, as the reference
 * does; a .bin shorter than its 4-byte magic is no .bin at all but a
 * text file (the reference's fcontext_is_binary): empty, it holds no
 * spec, so the base's specs are missing - the reference's answer too,
 * asserted here against the set with an empty file_contexts.  An image
 * whose header does not give its own size, or whose units do not check
 * out, is not used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "fixture.h"
#include "label/file/file.h"

static const char fc_text[] =
    "/.*\t\tu:r:default_t:s0\n"
    "/\t-d\tu:r:root_t:s0\n"
    "/bin(/.*)?\t\tu:r:bin_t:s0\n"
    "/bin/su\t--\tu:r:su_exec_t:s0\n"
    "/dev(/.*)?\t\tu:r:device_t:s0\n"
    "/dev/null\t-c\tu:r:null_device_t:s0\n"
    "/dev/tty[0-9]+\t-c\tu:r:tty_device_t:s0\n"
    "/dev/sd[a-z][0-9]*\t-b\tu:r:fixed_disk_device_t:s0\n"
    "/dev/log\t-s\tu:r:devlog_t:s0\n"
    "/etc(/.*)?\t\tu:r:etc_t:s0\n"
    "/etc/passwd\t--\tu:r:passwd_file_t:s0\n"
    "/etc/shadow.*\t--\tu:r:shadow_t:s0\n"
    "/etc/ssh/ssh_host_.*_key\t--\tu:r:sshd_key_t:s0\n"
    "/etc/selinux(/.*)?\t\tu:r:selinux_config_t:s0\n"
    "/home\t-d\tu:r:home_root_t:s0\n"
    "/lib(64)?(/.*)?\t\tu:r:lib_t:s0\n"
    "/lib(64)?/ld-[^/]*\\.so(\\.[^/]*)*\t--\tu:r:ld_so_t:s0\n"
    "/opt(/.*)?\t\tu:r:usr_t:s0\n"
    "/proc(/.*)?\t\t<<none>>\n"
    "/run(/.*)?\t\tu:r:var_run_t:s0\n"
    "/run/.*\\.pid\t--\tu:r:var_run_t:s0\n"
    "/srv(/.*)?\t\tu:r:var_t:s0\n"
    "/sys(/.*)?\t\t<<none>>\n"
    "/tmp(/.*)?\t\tu:r:tmp_t:s0\n"
    "/tmp/\\.X11-unix(/.*)?\t\tu:r:xdm_tmp_t:s0\n"
    "/usr(/.*)?\t\tu:r:usr_t:s0\n"
    "/usr/bin(/.*)?\t\tu:r:bin_t:s0\n"
    "/usr/sbin/sshd\t--\tu:r:sshd_exec_t:s0\n"
    "/usr/lib/[^/]+/libc\\.so.*\t--\tu:r:lib_t:s0\n"
    "/usr/share(/.*)?\t\tu:r:usr_t:s0\n"
    "/var(/.*)?\t\tu:r:var_t:s0\n"
    "/var/log(/.*)?\t\tu:r:var_log_t:s0\n"
    "/var/log/wtmp.*\t--\tu:r:wtmp_t:s0\n"
    "/var/lib/[^/]*/cache(/.*)?\t\tu:r:cache_t:s0\n"
    "/var/spool/cron\t-d\tu:r:cron_spool_t:s0\n"
    "/var/run\t-l\tu:r:var_run_t:s0\n"
    "/var/tmp(/.*)?\t\tu:r:tmp_t:s0\n";
static const char hd_text[] = "/home/[^/]+\t-d\tu:r:user_home_dir_t:s0\n"
			      "/home/[^/]+/.+\t\tu:r:user_home_t:s0\n"
			      "/home/[^/]+/\\.ssh(/.*)?\t\tu:r:ssh_home_t:s0\n";
static const char local_text[] =
    "/srv/www(/.*)?\t\tu:r:httpd_sys_content_t:s0\n"
    "/etc/passwd\t--\tu:r:local_passwd_t:s0\n";
static const char subs_text[] = "/web /srv/www\n/lib64 /lib\n";
/* The set before its last change: what a half-done rename leaves. */
static const char old_text[] = "/.*\t\tu:r:old_default_t:s0\n"
			       "/etc(/.*)?\t\tu:r:old_etc_t:s0\n";

static const struct {
	const char *path;
	mode_t mode;
} keys[] = {
    {"/", S_IFDIR},
    {"/bin/su", S_IFREG},
    {"/bin/ls", S_IFREG},
    {"/dev/null", S_IFCHR},
    {"/dev/tty12", S_IFCHR},
    {"/dev/sda1", S_IFBLK},
    {"/dev/log", S_IFSOCK},
    {"/dev/log", S_IFREG},
    {"/etc/passwd", S_IFREG},
    {"/etc/passwd", S_IFDIR},
    {"/etc/shadow-", S_IFREG},
    {"/etc/ssh/ssh_host_ed25519_key", S_IFREG},
    {"/etc/selinux/config", S_IFREG},
    {"/home", S_IFDIR},
    {"/home/alice", S_IFDIR},
    {"/home/alice/.ssh/authorized_keys", S_IFREG},
    {"/home/alice/notes.txt", S_IFREG},
    {"/lib/x86_64-linux-gnu/libc.so.6", S_IFREG},
    {"/lib64/ld-linux-x86-64.so.2", S_IFREG},
    {"/proc/self/status", S_IFREG},
    {"/run/sshd.pid", S_IFREG},
    {"/srv/www/index.html", S_IFREG},
    {"/web/index.html", S_IFREG},
    {"/sys/kernel", S_IFDIR},
    {"/tmp/.X11-unix/X0", S_IFSOCK},
    {"/usr/sbin/sshd", S_IFREG},
    {"/usr/lib/x86_64-linux-gnu/libc.so.6", S_IFREG},
    {"/var/log/wtmp", S_IFREG},
    {"/var/lib/apt/cache/x", S_IFREG},
    {"/var/spool/cron", S_IFDIR},
    {"/var/run", S_IFLNK},
    {"/nowhere", 0},
};
#define NKEYS (sizeof(keys) / sizeof(*keys))

/* One answer per key: the context, or "errno N". */
typedef char answers[NKEYS][64];

static void setup(void)
{
	fx_setup_quiet();
}

static void teardown(void)
{
	fx_teardown();
}

static void write_set(const char *base_text)
{
	fx_writes("p/file_contexts", base_text);
	fx_writes("p/file_contexts.homedirs", hd_text);
	fx_writes("p/file_contexts.local", local_text);
	fx_writes("p/file_contexts.subs", subs_text);
}

/* A fresh handle's answers for every key; false if the open failed. */
static bool answer(answers out)
{
	struct selinux_opt opt = {SELABEL_OPT_PATH, NULL};
	struct selabel_handle *h;

	opt.value = fx_path("p/file_contexts");
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	if (!h)
		return false;
	for (size_t i = 0; i < NKEYS; i++) {
		char *con;

		if (selabel_lookup_raw(h, &con, keys[i].path, keys[i].mode)) {
			snprintf(out[i], sizeof(out[i]), "errno %d", errno);
		} else {
			snprintf(out[i], sizeof(out[i]), "%s", con);
			freecon(con);
		}
	}
	selabel_close(h);
	return true;
}

static void assert_answers(answers want, const char *what, size_t at)
{
	answers got;

	ck_assert_msg(answer(got), "%s %zu: open failed: %s", what, at,
		      strerror(errno));
	for (size_t i = 0; i < NKEYS; i++)
		ck_assert_msg(!strcmp(got[i], want[i]),
			      "%s %zu: %s (mode %o): %s, the text gives %s",
			      what, at, keys[i].path, (unsigned)keys[i].mode,
			      got[i], want[i]);
}

/* The text files' answers, with base_text as file_contexts. */
static void text_answers(const char *base_text, answers out)
{
	unlink(fx_path("p/file_contexts.bin"));
	unlink(fx_path("p/file_contexts.idx"));
	write_set(base_text);
	ck_assert(answer(out));
}

static void compile_bin(void)
{
	const char *what;
	int stage;

	ck_assert_int_eq(lbl_fc_compile(fx_path("p/file_contexts"),
					fx_path("p/file_contexts.bin"), 5,
					false, NULL, &stage, &what),
			 0);
}

static void index_set(void)
{
	const char *why;

	ck_assert_int_eq(
	    lbl_fc_write_index(fx_path("p/file_contexts"), NULL, &why), 0);
}

/* Is file_contexts.idx mapped by a fresh handle (/proc/self/maps)? */
static bool image_used(void)
{
	struct selinux_opt opt = {SELABEL_OPT_PATH, NULL};
	struct selabel_handle *h;
	char line[4096];
	bool mapped = false;
	FILE *f;

	opt.value = fx_path("p/file_contexts");
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	ck_assert_ptr_nonnull(h);
	f = fopen("/proc/self/maps", "re");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		mapped |= strstr(line, "file_contexts.idx") != NULL;
	fclose(f);
	selabel_close(h);
	return mapped;
}

/*
 * The next offset to cut at.  Every offset of the first and last 512
 * bytes: the headers (the .bin's magic, version, counts; the image's
 * header and its section table) and the end, where the last unit and
 * the check of the whole lie.  Between them each multiple of 8 and the
 * byte before it: the image's sections and units start 8-aligned
 * (index/image.h), so each boundary is cut at and one byte short of
 * it; a .bin's fields (4-byte counts and lengths, strings, serialized
 * regexes) lie at offsets that drift with each string, so a quarter of
 * the offsets cuts through each kind of field many times over.
 */
static size_t next_cut(size_t off, size_t len)
{
	off++;
	while (off >= 512 && off + 512 < len && (off + 1) % 8 > 1)
		off++;
	return off;
}

/* The installed name rel replaced by its first n bytes of data, or
 * by n zero bytes. */
static void put_cut(const char *rel, const char *data, size_t n, bool zero)
{
	char *z = NULL;

	if (zero)
		z = calloc(1, n + 1);
	fx_write(rel, zero ? z : data, n);
	free(z);
}

START_TEST(test_bin_cut)
{
	answers text, empty;
	size_t len;
	char *bin;

	text_answers("", empty);
	text_answers(fc_text, text);
	compile_bin();
	/* The .bin holds the set: alone, it answers as the text. */
	ck_assert_int_eq(
	    rename(fx_path("p/file_contexts"), fx_path("p/file_contexts.away")),
	    0);
	assert_answers(text, "the .bin alone", 0);
	ck_assert_int_eq(
	    rename(fx_path("p/file_contexts.away"), fx_path("p/file_contexts")),
	    0);
	bin = fx_read("p/file_contexts.bin", &len);
	for (size_t n = 0; n <= len; n = next_cut(n, len)) {
		put_cut("p/file_contexts.bin", bin, n, false);
		/* The reference's rule: an empty .bin is an empty text. */
		assert_answers(n ? text : empty, "the .bin cut at", n);
	}
	/* Zeros (what a crash can leave of a file renamed before its
	 * data reached the disk) are no magic: a text file of NULs, no
	 * spec, as for the reference. */
	put_cut("p/file_contexts.bin", bin, len, true);
	assert_answers(empty, "the .bin zeroed, of size", len);
	free(bin);
}
END_TEST

START_TEST(test_image_cut)
{
	answers text;
	size_t len;
	char *img;

	text_answers(fc_text, text);
	index_set();
	img = fx_read("p/file_contexts.idx", &len);
	/* Written again whole, the image is used (the cuts are tested,
	 * not an image that is never read). */
	put_cut("p/file_contexts.idx", img, len, false);
	ck_assert(image_used());
	assert_answers(text, "the image whole, of size", len);
	for (size_t n = 0; n < len; n = next_cut(n, len)) {
		put_cut("p/file_contexts.idx", img, n, false);
		assert_answers(text, "the image cut at", n);
	}
	put_cut("p/file_contexts.idx", img, len, true);
	assert_answers(text, "the image zeroed, of size", len);
	free(img);
}
END_TEST

/* A temporary file as the writers name it: the target + 6 characters. */
static void put_tmp(const char *target, const char *data, size_t n)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "%sAb12Cd", target);
	fx_write(rel, data, n);
}

START_TEST(test_bin_half_renamed)
{
	answers text, old;
	size_t len, olen;
	char *bin, *obin;

	text_answers(old_text, old);
	compile_bin();
	obin = fx_read("p/file_contexts.bin", &olen);
	text_answers(fc_text, text);
	compile_bin();
	bin = fx_read("p/file_contexts.bin", &len);
	/* the new .bin written, not yet renamed; no old one */
	ck_assert_int_eq(unlink(fx_path("p/file_contexts.bin")), 0);
	put_tmp("p/file_contexts.bin", bin, len);
	assert_answers(text, "the .bin's temporary file, no .bin", len);
	/* the old one still in place: it is what the open reads */
	fx_write("p/file_contexts.bin", obin, olen);
	assert_answers(old, "the .bin's temporary file, the old .bin", len);
	free(bin);
	free(obin);
}
END_TEST

START_TEST(test_image_half_renamed)
{
	answers text;
	size_t len, olen;
	char *img, *oimg;

	write_set(old_text);
	index_set();
	oimg = fx_read("p/file_contexts.idx", &olen);
	text_answers(fc_text, text);
	index_set();
	img = fx_read("p/file_contexts.idx", &len);
	ck_assert_int_eq(unlink(fx_path("p/file_contexts.idx")), 0);
	put_tmp("p/file_contexts.idx", img, len);
	assert_answers(text, "the image's temporary file, no image", len);
	/* the old image, of the old files, is stale */
	fx_write("p/file_contexts.idx", oimg, olen);
	ck_assert(!image_used());
	assert_answers(text, "the image's temporary file, the old image", len);
	free(img);
	free(oimg);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_cut_write");
	TCase *tc;

	tc = tcase_create("cut");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_bin_cut);
	tcase_add_test(tc, test_image_cut);
	suite_add_tcase(s, tc);

	tc = tcase_create("half_renamed");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bin_half_renamed);
	tcase_add_test(tc, test_image_half_renamed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
