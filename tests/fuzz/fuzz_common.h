/*
 * tests/fuzz/fuzz_common.h: what the fuzz targets share - a private
 * directory for the files that hold the fuzzer's bytes, a silent log
 * callback, and the splitting of one input into the several files a
 * target reads.  Header-only: each target is one source plus driver.c
 * (or libFuzzer), as fuzz_fc.c.
 */
#ifndef TESTS_FUZZ_COMMON_H
#define TESTS_FUZZ_COMMON_H

#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <selinux/selinux.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Unexported hooks of the static archive (the targets link it). */
void core_set_config_root(const char *dir);

/* The target's directory; "" until fz_init(). */
static char fz_dir[256];

static inline int fz_quiet(int type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
	return 0;
}

static inline int fz_rm(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static inline void fz_cleanup(void)
{
	if (fz_dir[0])
		nftw(fz_dir, fz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* fz_dir + "/" + rel, in one of 4 rotating buffers. */
static inline const char *fz_path(const char *rel)
{
	static char buf[4][1024];
	static int slot;
	char *b = buf[slot++ % 4];

	snprintf(b, sizeof(buf[0]), "%s/%s", fz_dir, rel);
	return b;
}

static inline void fz_mkdirs(const char *rel)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s/", fz_dir, rel);
	for (char *s = p + strlen(fz_dir) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
}

/* Write len bytes as fz_dir/rel (truncated first); abort on failure,
 * which is the harness's, not the library's. */
static inline void fz_write(const char *rel, const void *data, size_t len)
{
	int fd =
	    open(fz_path(rel), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len))
		abort();
	close(fd);
}

static inline void fz_writes(const char *rel, const char *s)
{
	fz_write(rel, s, strlen(s));
}

/* Once per process: the directory (under base), the log callback, the
 * cleanup. */
static inline int fz_init_in(const char *name, const char *base)
{
	union selinux_callback cb = {.func_log = fz_quiet};

	if (fz_dir[0])
		return 0;
	selinux_set_callback(SELINUX_CB_LOG, cb);
	if ((size_t)snprintf(fz_dir, sizeof(fz_dir), "%s/fuzz_%s.XXXXXX", base,
			     name) >= sizeof(fz_dir) ||
	    !mkdtemp(fz_dir))
		abort();
	atexit(fz_cleanup);
	return 1;
}

static inline int fz_init(const char *name)
{
	/*
	 * tmpfs where there is one: on ext4, rewriting a file with O_TRUNC
	 * makes its close() start writeback (auto_da_alloc), which costs
	 * more than the library's work on the file.
	 */
	return fz_init_in(name,
			  access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
}

/*
 * Cut an input into at most max parts at each line "@@" ("\n@@\n"; the
 * first newline stays with the part before it, so every part but the
 * last ends in one).  Parts past the last separator are empty; the
 * number of parts found is returned.  The parts point into data.
 */
struct fz_part {
	const uint8_t *p;
	size_t n;
};

static inline size_t fz_split(const uint8_t *data, size_t size,
			      struct fz_part *part, size_t max)
{
	size_t k = 0, start = 0;

	for (size_t i = 0; i < max; i++)
		part[i] = (struct fz_part){data, 0};
	for (size_t i = 0; k + 1 < max && i + 4 <= size; i++) {
		if (memcmp(data + i, "\n@@\n", 4))
			continue;
		part[k++] = (struct fz_part){data + start, i + 1 - start};
		start = i + 4;
		i += 3;
	}
	part[k++] = (struct fz_part){data + start, size - start};
	return k;
}

#endif
