/*
 * tests/lib/fake_procattr.c: an LD_PRELOAD shim that makes fixture files
 * bind-mounted over the files of /proc/PID/attr pass for the kernel's attributes.
 *
 * This host kernel has no SELinux: its attribute files answer EINVAL, so
 * the differential tests (tests/compat, tests/dropin) give both libraries
 * process contexts by bind-mounting fixture files over them.  The
 * reference library reads and writes whatever the path leads to; ours
 * refuses a file that a mount put in an attribute's place (EXDEV, see
 * libselinux/src/core/procfs.c), which is what protects it from such
 * mounts in earnest.  To compare the two on the fixture's contents, this
 * shim, preloaded into the program under test, takes the three checks
 * away for the fixture's files only:
 *
 *   - openat2(2) through syscall(2): ENOSYS, so that the library falls
 *     back to openat(2), which crosses the bind mount;
 *   - statx(2): no STATX_MNT_ID in the answer, so that the fallback
 *     cannot compare mount ids;
 *   - fstatfs(2) of a descriptor on the file system that holds
 *     FAKE_PROCATTR (a fixture file or directory; unset: nothing is
 *     faked): procfs's magic.  (By file system, not by path: the path of
 *     a descriptor opened through a bind mount is the mount point's.)
 *
 * Everything else goes to the C library.  Without the shim our library
 * refuses the same fixtures: the tests check that too.
 */
/* Both names must be defined here, so no large-file renaming of fstatfs. */
#undef _FILE_OFFSET_BITS
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PROC_SUPER_MAGIC 0x9fa0

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* Whether fd's file is on the file system of FAKE_PROCATTR. */
static int faked(int fd)
{
	const char *want = getenv("FAKE_PROCATTR");
	struct stat a, b;

	if (!want || !*want)
		return 0;
	return stat(want, &a) == 0 && fstat(fd, &b) == 0 &&
	       a.st_dev == b.st_dev;
}

/* Six argument registers, as the kernel takes them. */
long syscall(long nr, ...)
{
	long (*real)(long, ...) =
		(long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	long a[6];
	va_list ap;

	if (nr == SYS_openat2) {
		errno = ENOSYS;
		return -1;
	}
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int statx(int dirfd, const char *path, int flags, unsigned int mask,
	  struct statx *buf)
{
	int (*real)(int, const char *, int, unsigned int, struct statx *) =
		(int (*)(int, const char *, int, unsigned int,
			 struct statx *))dlsym(RTLD_NEXT, "statx");
	int r = real(dirfd, path, flags, mask, buf);

	if (r == 0)
		buf->stx_mask &= ~(unsigned int)STATX_MNT_ID;
	return r;
}

/*
 * On 64-bit glibc fstatfs and fstatfs64 are the same function under two
 * names; a library built with _FILE_OFFSET_BITS=64 calls the second.
 */
int fstatfs(int fd, struct statfs *buf)
{
	int (*real)(int, struct statfs *) =
		(int (*)(int, struct statfs *))dlsym(RTLD_NEXT, "fstatfs");
	int r = real(fd, buf);

	if (r == 0 && faked(fd))
		buf->f_type = PROC_SUPER_MAGIC;
	return r;
}

int fstatfs64(int fd, struct statfs64 *buf)
{
	int (*real)(int, struct statfs64 *) =
		(int (*)(int, struct statfs64 *))dlsym(RTLD_NEXT,
						       "fstatfs64");
	int r = real(fd, buf);

	if (r == 0 && faked(fd))
		buf->f_type = PROC_SUPER_MAGIC;
	return r;
}
