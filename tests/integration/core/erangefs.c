/*
 * erangefs - a FUSE file system whose security.selinux never fits
 *
 * SYNOPSIS
 *     erangefs MOUNTPOINT
 *
 * DESCRIPTION
 *     A test-only file system (tests/integration/core/erange.py) with one
 *     regular file, /f, whose security.selinux attribute answers as the
 *     mode says.  The mode is set, and the count of the getxattr requests
 *     for security.selinux read and reset, through user.* attributes of
 *     the root directory:
 *
 *         setfattr -n user.erangefs.mode -v grow MNT
 *         getfattr -n user.erangefs.calls MNT    # and user.erangefs.reset
 *
 *     Modes:
 *       ok      an honest 27-byte label (system_u:object_r:etc_t:s0 and
 *               its NUL): the file system itself works.
 *       long    an honest label of 300 bytes: the caller's first guess is
 *               too small, one size query and one more read get it.
 *       grow    the label grows 4 bytes at every request: the size a
 *               query reports never fits the read that follows (ERANGE).
 *       erange  a size query answers 64 bytes, and every read, however
 *               large its buffer, ERANGE.
 *       settleN the label grows 4 bytes at each of the first N requests
 *               after the mode is set, then stays: a label that changes
 *               under the reader N times, then keeps still.
 *
 *     After CAP requests since the last reset the file system answers EIO:
 *     a reader that never stops asking (the loop these modes provoke in a
 *     library without a bound) ends there, rather than hanging the test.
 *
 *     It runs in the foreground, single-threaded, mounted allow_other;
 *     the caller unmounts it (SIGTERM also does).
 */
#define FUSE_USE_VERSION 35
#include <errno.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CAP 10000
#define SELINUX "security.selinux"
#define HONEST "system_u:object_r:etc_t:s0"

/* Single-threaded (-s): no lock. */
static char mode[16] = "ok";
static unsigned long calls, mode_calls;

static int fs_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/f") == 0) {
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
		return 0;
	}
	return -ENOENT;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	(void)off, (void)fi, (void)flags;
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "f", NULL, 0, 0);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	(void)fi;
	return strcmp(path, "/f") == 0 ? 0 : -ENOENT;
}

/* The value (len bytes) into buf of size bytes, getxattr's way. */
static int answer(const char *value, size_t len, char *buf, size_t size)
{
	if (size == 0)
		return (int)len;
	if (size < len)
		return -ERANGE;
	memcpy(buf, value, len);
	return (int)len;
}

/* A label of len bytes (with its NUL): "system_u:object_r:etc_t:s0:" and
 * padding, so that it stays a plausible string. */
static int label_of(size_t len, char *buf, size_t size)
{
	static char value[300 + 4 * CAP + 1];

	if (len > sizeof(value))
		len = sizeof(value);
	memset(value, 'c', len);
	memcpy(value, HONEST, sizeof(HONEST) - 1);
	value[len - 1] = '\0';
	return answer(value, len, buf, size);
}

static int selinux_attr(char *buf, size_t size)
{
	unsigned long n = mode_calls++;

	if (++calls > CAP)
		return -EIO;
	if (strcmp(mode, "ok") == 0)
		return answer(HONEST, sizeof(HONEST), buf, size);
	if (strcmp(mode, "long") == 0)
		return label_of(300, buf, size);
	if (strcmp(mode, "grow") == 0)
		return label_of(300 + 4 * n, buf, size);
	if (strcmp(mode, "erange") == 0)
		return size == 0 ? 64 : -ERANGE;
	if (strncmp(mode, "settle", 6) == 0) {
		unsigned long settle = strtoul(mode + 6, NULL, 10);

		return label_of(300 + 4 * (n < settle ? n : settle), buf, size);
	}
	return -EIO;
}

static int fs_getxattr(const char *path, const char *name, char *buf,
		       size_t size)
{
	char num[32];

	if (strcmp(path, "/f") == 0) {
		if (strcmp(name, SELINUX) == 0)
			return selinux_attr(buf, size);
		return -ENODATA;
	}
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	if (strcmp(name, "user.erangefs.calls") == 0) {
		snprintf(num, sizeof(num), "%lu", calls);
		return answer(num, strlen(num), buf, size);
	}
	if (strcmp(name, "user.erangefs.mode") == 0)
		return answer(mode, strlen(mode), buf, size);
	return -ENODATA;
}

static int fs_setxattr(const char *path, const char *name, const char *value,
		       size_t size, int flags)
{
	(void)flags;
	if (strcmp(path, "/") != 0)
		return -EPERM;
	if (strcmp(name, "user.erangefs.mode") == 0) {
		if (size == 0 || size >= sizeof(mode))
			return -EINVAL;
		memcpy(mode, value, size);
		mode[size] = '\0';
		calls = mode_calls = 0;
		return 0;
	}
	if (strcmp(name, "user.erangefs.reset") == 0) {
		calls = mode_calls = 0;
		return 0;
	}
	return -EPERM;
}

static const struct fuse_operations ops = {
    .getattr = fs_getattr,
    .readdir = fs_readdir,
    .open = fs_open,
    .getxattr = fs_getxattr,
    .setxattr = fs_setxattr,
};

int main(int argc, char **argv)
{
	char *args[] = {argv[0],
			"-f",
			"-s",
			"-o",
			"allow_other,fsname=erangefs,subtype=erangefs",
			argc == 2 ? argv[1] : NULL,
			NULL};

	if (argc != 2) {
		fprintf(stderr, "usage: erangefs MOUNTPOINT\n");
		return 2;
	}
	return fuse_main(6, args, &ops, NULL);
}
