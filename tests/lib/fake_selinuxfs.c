/*
 * tests/lib/fake_selinuxfs.c: an LD_PRELOAD shim that makes one directory
 * look like a mounted selinuxfs.
 *
 * This host kernel has no SELinux, so nothing can be mounted with
 * selinuxfs's magic.  Both the reference library and ours recognise the
 * mount point by statfs(2) reporting SELINUX_MAGIC (0xf97cff8c) on
 * /sys/fs/selinux, then read plain files below it.  The drop-in tests
 * bind-mount a fixture directory there in a private mount namespace and
 * preload this shim, so that the statfs check passes and every other
 * access sees the fixture's ordinary files.
 *
 * FAKE_SELINUXFS names the directory (default /sys/fs/selinux).  Only an
 * exact match of the path string is faked; everything else, including
 * statvfs (whose ST_RDONLY both libraries honour), goes to the C library.
 */
/* Both names must be defined here, so no large-file renaming of statfs. */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#define SELINUX_MAGIC 0xf97cff8c

static int faked(const char *path)
{
	const char *want = getenv("FAKE_SELINUXFS");

	if (!want || !*want)
		want = "/sys/fs/selinux";
	return path && strcmp(path, want) == 0;
}

/*
 * On 64-bit glibc statfs and statfs64 are the same function under two
 * names; a library built with _FILE_OFFSET_BITS=64 calls the second.
 * Each wrapper finds the real one with RTLD_NEXT and patches f_type.
 */
int statfs(const char *path, struct statfs *buf)
{
	int (*real)(const char *, struct statfs *) =
		(int (*)(const char *, struct statfs *))dlsym(RTLD_NEXT,
							      "statfs");
	int r = real(path, buf);

	if (r == 0 && faked(path))
		buf->f_type = SELINUX_MAGIC;
	return r;
}

int statfs64(const char *path, struct statfs64 *buf)
{
	int (*real)(const char *, struct statfs64 *) =
		(int (*)(const char *, struct statfs64 *))dlsym(RTLD_NEXT,
								"statfs64");
	int r = real(path, buf);

	if (r == 0 && faked(path))
		buf->f_type = SELINUX_MAGIC;
	return r;
}
