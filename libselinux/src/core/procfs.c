/* core/procfs.c: opening procfs files so that no mount can redirect them. */
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

#include "internal.h"

#define PROC_SUPER_MAGIC 0x9fa0U

/*
 * Why: /proc/thread-self/attr/exec and its siblings are files like any
 * other to path lookup.  Whoever may mount in our mount namespace (a
 * container's runtime, an image's setup, a hostile root inside it) can
 * bind a file, or another procfs file (/proc/sys/kernel/core_pattern,
 * /proc/sysrq-trigger), over an attribute or over a directory on its
 * path, and a write meant for the attribute lands there, reported as a
 * success (CVE-2025-52881, fixed in go-selinux and runc); a read returns
 * whatever the mounted file holds as our "context".  A kernel attribute
 * is only ever reached without crossing a mount from procfs's root, so:
 *
 *   - the path is resolved beneath "/proc" by openat2(2) with
 *     RESOLVE_NO_XDEV (a mount anywhere on the path: EXDEV) and
 *     RESOLVE_NO_MAGICLINKS (no jump through a /proc/PID/fd-style link;
 *     the plain symlinks self and thread-self stay inside procfs);
 *   - where openat2 is missing (Linux before 5.6, ENOSYS) or a seccomp
 *     filter refuses it (ENOSYS, or EPERM for some), "/proc" must be a
 *     procfs (statfs magic PROC_SUPER_MAGIC; else ENOENT, as when /proc
 *     is not mounted at all), and the file is opened with openat(2)
 *     beneath it and must sit on the same mount as the root (statx's
 *     STATX_MNT_ID, Linux 5.8) and on procfs, else EXDEV.
 *
 * Why "/proc" itself is checked only on that fallback: statfs(2) needs
 * the filesystem:getattr permission on procfs, which most confined
 * domains lack (refpolicy: setrans_t, sshd's PAM ...): the check logged
 * an AVC denial and, refused, failed every attribute read and write - the
 * system test's ssh logins on our library failed so.  With openat2, a
 * mount over an attribute or a directory on its path (CVE-2025-52881's
 * way) is refused without it; a whole file system mounted on /proc
 * (writes then go to its files) is not told apart.  A kernel with
 * neither openat2 nor STATX_MNT_ID (before 5.6) is left with the file
 * system type alone, which a procfs file mounted over an attribute
 * passes.
 */

/*
 * The procfs root.  Only the unit tests change it (through the unexported
 * core_set_proc_root hook, before any other call); read-only otherwise.
 * A fixture root is not a procfs: its files are opened beneath it, with
 * the same refusal of mounts crossed, but without the procfs checks.
 */
static const char *proc_root = "/proc";
static char *proc_root_owned;

/* Cleared for good when openat2 turns out to be unavailable (atomic). */
static bool have_openat2 = true;

void core_set_proc_root(const char *dir)
{
	free(proc_root_owned);
	proc_root_owned = dir ? strdup(dir) : NULL;
	proc_root = proc_root_owned ? proc_root_owned : "/proc";
}

void core_proc_set_openat2(bool on)
{
	__atomic_store_n(&have_openat2, on, __ATOMIC_RELAXED);
}

/* 1 when fd is on procfs, 0 when not, -errno. */
static int on_procfs(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) < 0)
		return -errno;
	return (uint32_t)sfs.f_type == PROC_SUPER_MAGIC;
}

/* fd's mount id; -ENOSYS when the kernel does not tell it. */
static int mount_id(int fd, uint64_t *id)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID,
		  &stx) < 0)
		return -errno;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -ENOSYS;
	*id = stx.stx_mnt_id;
	return 0;
}

/* rel beneath root by openat(2), refused (EXDEV) on another mount or
 * off procfs. */
static int open_checked(int root, const char *rel, int flags)
{
	_cleanup_close_ int fd = -1;
	uint64_t a, b;
	int r;

	if (!proc_root_owned) {
		r = on_procfs(root);
		if (r <= 0)
			return r < 0 ? r : -ENOENT;
	}
	fd = openat(root, rel, flags | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (mount_id(root, &a) == 0 && mount_id(fd, &b) == 0 && a != b)
		return -EXDEV;
	if (!proc_root_owned) {
		r = on_procfs(fd);
		if (r <= 0)
			return r < 0 ? r : -EXDEV;
	}
	return TAKE_FD(fd);
}

static int open_beneath(int root, const char *rel, int flags)
{
	struct open_how how = {
	    .flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW),
	    .resolve = RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};
	int fd, e, r;

	if (!__atomic_load_n(&have_openat2, __ATOMIC_RELAXED))
		return open_checked(root, rel, flags);
	/* Found without leaving root's mount: on root's procfs. */
	fd = (int)syscall(SYS_openat2, root, rel, &how, sizeof(how));
	if (fd >= 0)
		return fd;
	e = errno;
	if (e != ENOSYS && e != EPERM)
		return -e;
	/* EPERM: a seccomp filter, or the file's own answer, which the
	 * fallback then gets too; only its success tells them apart. */
	r = open_checked(root, rel, flags);
	if (e == ENOSYS || r >= 0)
		core_proc_set_openat2(false);
	return r;
}

int core_proc_open(const char *rel, int flags)
{
	_cleanup_close_ int root = -1;

	root = open(proc_root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	return open_beneath(root, rel, flags);
}
