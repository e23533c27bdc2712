/*
 * Fuzz target for the file_contexts backend: the input is written as a
 * file_contexts (text; FUZZ_BIN: a file_contexts.bin, alone in its
 * directory so that nothing falls back to a text file) and opened with
 * selabel_open(SELABEL_CTX_FILE, PATH, BASEONLY); a few lookups, partial
 * and best matches follow on success.  The open must either fail with
 * errno set or give a handle that answers; no crash, no leak, no
 * sanitizer report.
 *
 * Built with libFuzzer (clang -fsanitize=fuzzer,address) or with
 * driver.c, a main() that feeds seed files and mutations of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

#include "fuzz_explain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int quiet(int type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
	return 0;
}

static char dir[64], spec[128], file[160];

static void setup(void)
{
	union selinux_callback cb = { .func_log = quiet };

	selinux_set_callback(SELINUX_CB_LOG, cb);
	/*
	 * tmpfs where there is one (as fuzz_common.h): on ext4 the O_TRUNC
	 * rewrite of every input made close() start writeback, a third of
	 * the run's time.
	 */
	snprintf(dir, sizeof(dir), "%s/fuzz_fc.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(spec, sizeof(spec), "%s/file_contexts", dir);
#ifdef FUZZ_BIN
	snprintf(file, sizeof(file), "%s.bin", spec);
#else
	snprintf(file, sizeof(file), "%s", spec);
#endif
}

static void cleanup(void)
{
	unlink(file);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		const char *key;
		int mode;
	} keys[] = {
		{ "/a/b", 0100000 }, { "/a/x.conf", 0 }, { "/usr/lib/x", 0 },
		{ "/usr/local/bin/x12", 0120000 }, { "/dev/tty1", 020000 },
		{ "/proc/1", 0 }, { "/", 040000 }, { "/tmp/ac", 0 },
		{ "//a///b/", 0 }, { "/x", 0 }, { "relative", 0 },
	};
	static const char *aliases[] = { "/a/b", "/usr/lib", NULL };
	struct selinux_opt opts[] = {
		{ SELABEL_OPT_PATH, spec },
		{ SELABEL_OPT_BASEONLY, (char *)1 },
	};
	struct selabel_handle *h;
	int fd;

	if (!dir[0]) {
		setup();
		atexit(cleanup);
	}
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);

	errno = 0;
	h = selabel_open(SELABEL_CTX_FILE, opts, 2);
	if (!h) {
		if (!errno)
			abort(); /* a failure must say why */
		return 0;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *con = NULL;
		unsigned char digest[20];

		if (selabel_lookup_raw(h, &con, keys[i].key, keys[i].mode) == 0)
			freecon(con);
		fz_explain(h, keys[i].key, keys[i].mode, true);
		if (i < 3) {
			(void)selabel_partial_match(h, keys[i].key);
			(void)selabel_hash_all_partial_matches(h, keys[i].key,
							       digest);
			if (selabel_lookup_best_match(h, &con, keys[i].key,
						      aliases, 0) == 0)
				freecon(con);
		}
	}
	selabel_close(h);
	return 0;
}
