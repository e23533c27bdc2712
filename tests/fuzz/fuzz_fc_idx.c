/*
 * Fuzz target for the index image reader (libselinux/src/label/index/image.c):
 * the input is written as file_contexts.idx beside a two-line
 * file_contexts, and the directory is opened with
 * selabel_open (PATH, and once more with DIGEST).  The unexported hook
 * fc_image_test_trust makes the library take the image whatever its
 * header checksum and recorded inputs say (they never match the
 * fuzzer's bytes), so that every other check is what stands between the
 * input and a read outside the mapping.  Lookups, best and partial
 * matches, partial-match hashes, the digest, stats and a comparison with
 * a handle of the files follow.  The open must fail with errno set or
 * give a handle that answers (from the image or, once a part of it does
 * not check out, from the files); no crash, no leak, no sanitizer
 * report.
 *
 * Seeds: the image of seed/file_contexts written by our
 * sefcontext_compile -I (tests/fuzz/meson.build).
 */
#include <errno.h>
#include <stdbool.h>

#include <selinux/label.h>

#include "fuzz_common.h"
#include "fuzz_explain.h"

/* The static archive's hooks (label/file/fc.h). */
extern bool fc_image_test_trust, fc_image_disabled;

/* The files beside the image, read when it does not check out: kept
 * small, so that the fuzzer's time goes to the image. */
static const char fc_text[] =
	"/.*\tsystem_u:object_r:default_t:s0\n"
	"/a(/.*)?\tsystem_u:object_r:a_t:s0\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		const char *key;
		int mode;
	} keys[] = {
		{ "/a/b", 0100000 }, { "/a/x.conf", 0 }, { "/usr/lib/x", 0 },
		{ "/usr/local/bin/x12", 0120000 }, { "/dev/tty1", 020000 },
		{ "/proc/1", 0 }, { "/", 040000 }, { "/tmp/ac", 0 },
		{ "//a///b/", 0 }, { "/x", 0 }, { "/home/u", 040000 },
		{ "/usr/share/doc/a/b/c/d/e/f/g", 0 }, { "/a/b\n", 0 },
	};
	static const char *aliases[] = { "/a/b", "/usr/lib", NULL };
	struct selinux_opt opts[2];
	struct selabel_handle *h, *files;
	unsigned char *dg, hash[20];
	char **names, *con;
	size_t dlen, n;

	if (fz_init("fc_idx")) {
		fz_writes("file_contexts", fc_text);
		fc_image_test_trust = true;
	}
	fz_write("file_contexts.idx", data, size);
	opts[0] = (struct selinux_opt){ SELABEL_OPT_PATH,
					fz_path("file_contexts") };
	opts[1] = (struct selinux_opt){ SELABEL_OPT_DIGEST, (char *)1 };
	/* the second pass with the digest, the first without */
	for (int pass = 0; pass < 2; pass++) {
		errno = 0;
		h = selabel_open(SELABEL_CTX_FILE, opts, pass + 1);
		if (!h) {
			if (!errno)
				abort();
			continue;
		}
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			errno = 0;
			if (selabel_lookup_raw(h, &con, keys[i].key,
					       keys[i].mode) == 0)
				freecon(con);
			else if (!errno)
				abort();
			fz_explain(h, keys[i].key, keys[i].mode, false);
			(void)selabel_partial_match(h, keys[i].key);
			(void)selabel_hash_all_partial_matches(h, keys[i].key,
							       hash);
		}
		if (selabel_lookup_best_match(h, &con, "/usr/lib64/x", aliases,
					      0) == 0)
			freecon(con);
		if (pass && selabel_digest(h, &dg, &dlen, &names, &n) < 0)
			abort();
		selabel_stats(h);
		if (pass) {
			/* against the files' own handle */
			fc_image_disabled = true;
			files = selabel_open(SELABEL_CTX_FILE, opts, 1);
			fc_image_disabled = false;
			if (files) {
				(void)selabel_cmp(h, files);
				selabel_close(files);
			}
		}
		selabel_close(h);
	}
	return 0;
}
