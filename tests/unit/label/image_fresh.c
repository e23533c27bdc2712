/*
 * Suite label_image_fresh: when an index image stands for the files
 * beside it (label/index/image.h): by identity, or, for a copy of the
 * files, by the bytes an open would read (fc_image_inputs); the digest
 * of those bytes (content.c); the writers that stamp an image onto
 * copies (lbl_fc_restamp_index) and make one fresh at least cost
 * (lbl_fc_refresh_index).  The sets are a few lines written here; the
 * expected outcomes follow from the rules in image.h.
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
#include "label/index/image.h"

static const char fc_text[] = "/.*\t\tu:r:default_t:s0\n"
			      "/etc(/.*)?\t\tu:r:etc_t:s0\n"
			      "/etc/passwd\t--\tu:r:passwd_t:s0\n";
static const char hd_text[] = "/home/[^/]+/\\.ssh(/.*)?\tu:r:ssh_t:s0\n";

static void setup(void)
{
	fx_setup();
}

static void teardown(void)
{
	fx_teardown();
}

static void digest(const void *p, size_t n, uint64_t out[2])
{
	struct fc_csum c;

	fc_csum_init(&c);
	fc_csum_update(&c, p, n);
	fc_csum_final(&c, out);
}

START_TEST(test_fc_csum_pieces)
{
	static const size_t step[] = {1, 7, 63, 64, 65, 1000, 4096};
	unsigned char *b = malloc(10000);
	uint64_t whole[2], parts[2];

	for (size_t i = 0; i < 10000; i++)
		b[i] = (unsigned char)(i * 131 + (i >> 7));
	digest(b, 10000, whole);
	for (size_t k = 0; k < sizeof(step) / sizeof(*step); k++) {
		struct fc_csum c;

		fc_csum_init(&c);
		for (size_t i = 0; i < 10000; i += step[k])
			fc_csum_update(&c, b + i,
				       10000 - i < step[k] ? 10000 - i
							   : step[k]);
		fc_csum_final(&c, parts);
		ck_assert_msg(!memcmp(whole, parts, sizeof(whole)),
			      "pieces of %zu", step[k]);
	}
	free(b);
}
END_TEST

START_TEST(test_fc_csum_every_bit)
{
	unsigned char b[1100];
	uint64_t orig[2], flip[2];

	/* a zero buffer: a zero word must not vanish in the multiply */
	memset(b, 0, sizeof(b));
	digest(b, sizeof(b), orig);
	for (size_t i = 0; i < sizeof(b) * 8; i++) {
		b[i / 8] ^= 1u << (i % 8);
		digest(b, sizeof(b), flip);
		b[i / 8] ^= 1u << (i % 8);
		ck_assert_msg(memcmp(orig, flip, sizeof(orig)), "bit %zu", i);
	}
	/* the length counts: one more zero byte */
	digest(b, sizeof(b) - 1, flip);
	ck_assert(memcmp(orig, flip, sizeof(orig)));
}
END_TEST

/* d/file_contexts and d/file_contexts.homedirs, and their image. */
static void make_set(const char *d, bool bin)
{
	char rel[64];
	uint8_t *img;
	size_t len;
	const char *why, *what;
	int stage;

	fx_mkdir(d);
	snprintf(rel, sizeof(rel), "%s/file_contexts", d);
	fx_writes(rel, fc_text);
	snprintf(rel, sizeof(rel), "%s/file_contexts.homedirs", d);
	fx_writes(rel, hd_text);
	if (bin) {
		char out[PATH_MAX];

		snprintf(out, sizeof(out), "%s.bin", fx_path(rel));
		ck_assert_int_eq(lbl_fc_compile(fx_path(rel), out, 6, false,
						NULL, &stage, &what),
				 0);
		snprintf(rel, sizeof(rel), "%s/file_contexts", d);
		snprintf(out, sizeof(out), "%s.bin", fx_path(rel));
		ck_assert_int_eq(lbl_fc_compile(fx_path(rel), out, 6, false,
						NULL, &stage, &what),
				 0);
	}
	snprintf(rel, sizeof(rel), "%s/file_contexts", d);
	ck_assert_int_eq(lbl_fc_index_image(fx_path(rel), &img, &len, &why), 0);
	snprintf(rel, sizeof(rel), "%s/file_contexts.idx", d);
	ck_assert_int_eq(lbl_fc_put_index(fx_path(rel), img, len), 0);
	free(img);
}

/* The files of from copied into to, their mtimes kept (cp -a). */
static void copy_set(const char *from, const char *to)
{
	static const char *const names[] = {
	    "file_contexts", "file_contexts.bin", "file_contexts.homedirs",
	    "file_contexts.homedirs.bin", "file_contexts.idx"};
	char a[64], b[64];

	fx_mkdir(to);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		struct stat st;
		struct timespec ts[2];
		size_t len;
		char *data;

		snprintf(a, sizeof(a), "%s/%s", from, names[i]);
		snprintf(b, sizeof(b), "%s/%s", to, names[i]);
		if (stat(fx_path(a), &st) < 0)
			continue;
		data = fx_read(a, &len);
		fx_write(b, data, len);
		free(data);
		ts[0] = st.st_atim;
		ts[1] = st.st_mtim;
		ck_assert_int_eq(utimensat(AT_FDCWD, fx_path(b), ts, 0), 0);
	}
}

/* mtime of d/name moved by secs. */
static void shift_mtime(const char *rel, int secs)
{
	struct stat st;
	struct timespec ts[2];

	ck_assert_int_eq(stat(fx_path(rel), &st), 0);
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	ts[1].tv_sec += secs;
	ck_assert_int_eq(utimensat(AT_FDCWD, fx_path(rel), ts, 0), 0);
}

/* fc_image_inputs of the image in d for the files of d. */
static int inputs(const char *d, bool every)
{
	char rel[64];
	size_t len;
	uint8_t *img;
	const struct fc_img_hdr *hd;
	struct fc_img_input now[FC_IN_NROLES];
	int r;

	snprintf(rel, sizeof(rel), "%s/file_contexts.idx", d);
	img = (uint8_t *)fx_read(rel, &len);
	hd = (const struct fc_img_hdr *)img;
	ck_assert(fc_image_header_ok(hd, len));
	snprintf(rel, sizeof(rel), "%s/file_contexts", d);
	r = fc_image_inputs(hd,
			    (const uint32_t *)(img + hd->sec[FC_SEC_FILES].off),
			    hd->nfiles, fx_path(rel), every, now);
	free(img);
	return r;
}

/* Does an open of d map its image (/proc/self/maps)?  And its answer
 * for /etc/passwd. */
static bool open_maps(const char *d, char *ans, size_t n)
{
	char rel[64], line[4096];
	struct selinux_opt opt = {SELABEL_OPT_PATH, NULL};
	struct selabel_handle *h;
	bool mapped = false;
	char *con;
	FILE *f;

	snprintf(rel, sizeof(rel), "%s/file_contexts", d);
	opt.value = fx_path(rel);
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	ck_assert_ptr_nonnull(h);
	f = fopen("/proc/self/maps", "re");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		mapped |= strstr(line, "file_contexts.idx") != NULL;
	fclose(f);
	ck_assert_int_eq(selabel_lookup_raw(h, &con, "/etc/passwd", S_IFREG),
			 0);
	snprintf(ans, n, "%s", con);
	freecon(con);
	selabel_close(h);
	return mapped;
}

START_TEST(test_fc_image_inputs_same_files)
{
	char ans[128];

	make_set("a", false);
	ck_assert_int_eq(inputs("a", false), 0);
	ck_assert(open_maps("a", ans, sizeof(ans)));
	ck_assert_str_eq(ans, "u:r:passwd_t:s0");
}
END_TEST

START_TEST(test_fc_image_inputs_copy)
{
	char ans[128];

	make_set("a", false);
	copy_set("a", "b");
	ck_assert_int_eq(inputs("b", false), 1);
	ck_assert(open_maps("b", ans, sizeof(ans)));
	ck_assert_str_eq(ans, "u:r:passwd_t:s0");
}
END_TEST

START_TEST(test_fc_image_inputs_byte_changed)
{
	char ans[128];

	make_set("a", false);
	copy_set("a", "b");
	/* the same size: passwd_t -> pAsswd_t */
	fx_writes("b/file_contexts", "/.*\t\tu:r:default_t:s0\n"
				     "/etc(/.*)?\t\tu:r:etc_t:s0\n"
				     "/etc/passwd\t--\tu:r:pAsswd_t:s0\n");
	ck_assert_int_eq(inputs("b", false), -ESTALE);
	ck_assert(!open_maps("b", ans, sizeof(ans)));
	ck_assert_str_eq(ans, "u:r:pAsswd_t:s0");
}
END_TEST

START_TEST(test_fc_image_inputs_file_added)
{
	make_set("a", false);
	copy_set("a", "b");
	fx_writes("b/file_contexts.local", "/srv\tu:r:srv_t:s0\n");
	ck_assert_int_eq(inputs("b", false), -ESTALE);
}
END_TEST

START_TEST(test_fc_image_inputs_bin_choice_flipped)
{
	char ans[128];

	make_set("a", true);
	copy_set("a", "b");
	ck_assert_int_eq(inputs("b", false), 1);
	/* the text newer than its .bin: the open would read the text */
	shift_mtime("b/file_contexts", 2);
	ck_assert_int_eq(inputs("b", false), -ESTALE);
	ck_assert(!open_maps("b", ans, sizeof(ans)));
}
END_TEST

START_TEST(test_fc_image_inputs_unread_text_changed)
{
	char ans[128];

	make_set("a", true);
	copy_set("a", "b");
	/* the .bin is read (newer); its text, not read, changes; so does
	 * its identity (a new mtime, still older than the .bin) */
	fx_writes("b/file_contexts", "/.*\tu:r:other_t:s0\n");
	shift_mtime("b/file_contexts", -10);
	ck_assert_int_eq(inputs("b", false), 1);
	ck_assert(open_maps("b", ans, sizeof(ans)));
	ck_assert_str_eq(ans, "u:r:passwd_t:s0");
	/* the writer's restamp wants every file as it was */
	ck_assert_int_eq(inputs("b", true), -ESTALE);
}
END_TEST

START_TEST(test_lbl_fc_restamp_index_copy)
{
	size_t len;
	uint8_t *img;

	make_set("a", true);
	copy_set("a", "b");
	img = (uint8_t *)fx_read("a/file_contexts.idx", &len);
	ck_assert_int_eq(inputs("b", false), 1);
	ck_assert_int_eq(
	    lbl_fc_restamp_index(img, len, fx_path("b/file_contexts"), NULL),
	    0);
	ck_assert_int_eq(inputs("b", false), 0);
	/* not onto other bytes */
	fx_writes("b/file_contexts.homedirs",
		  "/home/[^/]+/\\.ssh(/.*)?\tu:r:xxx_t:s0\n");
	ck_assert_int_eq(
	    lbl_fc_restamp_index(img, len, fx_path("b/file_contexts"), NULL),
	    -ESTALE);
	free(img);
}
END_TEST

START_TEST(test_lbl_fc_refresh_index)
{
	struct stat st0, st1;
	const char *why;

	make_set("a", false);
	ck_assert_int_eq(stat(fx_path("a/file_contexts.idx"), &st0), 0);
	/* fresh: left alone */
	ck_assert_int_eq(lbl_fc_refresh_index(fx_path("a/file_contexts"), &why),
			 1);
	ck_assert_int_eq(stat(fx_path("a/file_contexts.idx"), &st1), 0);
	ck_assert_int_eq(st0.st_ino, st1.st_ino);
	/* a copy: stamped */
	copy_set("a", "b");
	ck_assert_int_eq(lbl_fc_refresh_index(fx_path("b/file_contexts"), &why),
			 2);
	ck_assert_int_eq(inputs("b", false), 0);
	/* other files: indexed again */
	fx_writes("b/file_contexts.local", "/srv\tu:r:srv_t:s0\n");
	ck_assert_int_eq(lbl_fc_refresh_index(fx_path("b/file_contexts"), &why),
			 3);
	ck_assert_int_eq(inputs("b", false), 0);
	/* no image at all: indexed */
	ck_assert_int_eq(unlink(fx_path("a/file_contexts.idx")), 0);
	ck_assert_int_eq(lbl_fc_refresh_index(fx_path("a/file_contexts"), &why),
			 3);
	ck_assert_int_eq(inputs("a", false), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("label_image_fresh");
	TCase *tc;

	tc = tcase_create("fc_csum");
	tcase_add_test(tc, test_fc_csum_pieces);
	tcase_add_test(tc, test_fc_csum_every_bit);
	suite_add_tcase(s, tc);

	tc = tcase_create("fc_image_inputs");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fc_image_inputs_same_files);
	tcase_add_test(tc, test_fc_image_inputs_copy);
	tcase_add_test(tc, test_fc_image_inputs_byte_changed);
	tcase_add_test(tc, test_fc_image_inputs_file_added);
	tcase_add_test(tc, test_fc_image_inputs_bin_choice_flipped);
	tcase_add_test(tc, test_fc_image_inputs_unread_text_changed);
	suite_add_tcase(s, tc);

	tc = tcase_create("lbl_fc_restamp_index");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lbl_fc_restamp_index_copy);
	suite_add_tcase(s, tc);

	tc = tcase_create("lbl_fc_refresh_index");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lbl_fc_refresh_index);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run(suite());
}
