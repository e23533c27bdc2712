/* compute/init_load_policy.c: selinux_init_load_policy, for init. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "internal.h"

#define SELINUXMNT "/sys/fs/selinux"
#define OLDSELINUXMNT "/selinux"

/*
 * The paths init uses.  When a test sets them (comp_set_init_paths), no
 * mount(2) is made: a mount point counts as mounted when it holds an
 * "enforce" file, and /proc is not mounted first.  Written only by that
 * hook, before the call, in a single-threaded test.
 */
static const char *cmdline_path = "/proc/cmdline";
static const char *mnt_path = SELINUXMNT;
static const char *oldmnt_path = OLDSELINUXMNT;
static bool hooked;

void comp_set_init_paths(const char *cmdline, const char *mnt,
			 const char *oldmnt)
{
	cmdline_path = cmdline ? cmdline : "/proc/cmdline";
	mnt_path = mnt ? mnt : SELINUXMNT;
	oldmnt_path = oldmnt ? oldmnt : OLDSELINUXMNT;
	hooked = cmdline || mnt || oldmnt;
}

/* The value of "key=" as a word of the command line, or -1. */
static int cmdline_value(const char *buf, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = buf; (p = strstr(p, key)); p += klen)
		if (p == buf || ascii_isspace((unsigned char)p[-1]))
			return atoi(p + klen);
	return -1;
}

/*
 * enforcing= and selinux= of the kernel command line.  The established
 * library reads only enforcing=: on a real kernel selinux=0 makes the
 * selinuxfs mount fail with ENODEV, which ends the same way as reading
 * it here (no load, *enforce 0); the FUSE security server cannot make
 * the kernel refuse, hence the word is read.
 */
static void read_cmdline(int *enforcing, int *selinux)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *buf = NULL;
	int mounted = -1;

	*enforcing = *selinux = -1;
	if (!hooked)
		mounted = mount("proc", "/proc", "proc", 0, NULL);
	f = fopen(cmdline_path, "re");
	buf = malloc((size_t)core_page_size);
	if (f && buf && fgets(buf, (int)core_page_size, f)) {
		*enforcing = cmdline_value(buf, "enforcing=");
		*selinux = cmdline_value(buf, "selinux=");
	}
	if (mounted == 0)
		umount2("/proc", MNT_DETACH);
}

static bool fs_known(void)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;

	if (hooked)
		return false;
	f = fopen("/proc/filesystems", "re");
	while (f && getline(&line, &cap, f) >= 0)
		if (strstr(line, "selinuxfs"))
			return true;
	return false;
}

static int try_mount(const char *where, unsigned long flags)
{
	char path[PATH_MAX];

	if (hooked) {
		snprintf(path, sizeof(path), "%s/enforce", where);
		return access(path, F_OK) == 0 ? 0 : -ENODEV;
	}
	if (mount("selinuxfs", where, "selinuxfs", flags, NULL) == 0 ||
	    errno == EBUSY)
		return 0;
	return -errno;
}

static void unmount_selinuxfs(void)
{
	if (!hooked && selinux_mnt)
		umount(selinux_mnt);
	fini_selinuxmnt();
}

/* Returns what mkload returns, or -errno when no policy was loaded. */
static int init_load_policy(int *enforce)
{
	int seconfig = -2, cmd_enforcing, cmd_selinux, cur, r;
	const char *mnt = NULL;

	if (!enforce)
		return -EINVAL;
	selinux_reset_config();
	selinux_getenforcemode(&seconfig);
	read_cmdline(&cmd_enforcing, &cmd_selinux);
	if (cmd_enforcing >= 0)
		*enforce = cmd_enforcing;
	else if (seconfig >= 0)
		*enforce = seconfig;
	else
		*enforce = 0;
	if (cmd_selinux == 0) {
		*enforce = 0;
		return -ENODEV;
	}

	/* selinuxfs at /sys/fs/selinux (with /sys mounted), else /selinux. */
	if (!hooked && mount("sysfs", "/sys", "sysfs", 0, NULL) < 0 &&
	    errno != EBUSY)
		r = -errno;
	else
		r = try_mount(mnt_path, MS_NOEXEC | MS_NOSUID);
	if (r == 0)
		mnt = mnt_path;
	else if ((r = try_mount(oldmnt_path, 0)) == 0)
		mnt = oldmnt_path;
	if (!mnt) {
		/* No SELinux in the kernel (or selinux=0): continue without,
		 * whatever the config and command line said. */
		if (r == -ENODEV || !fs_known())
			*enforce = 0;
		else
			core_log(SELINUX_ERROR,
				 "Mount failed for selinuxfs on %s:  %s\n",
				 mnt_path, strerror(-r));
		return r;
	}
	set_selinuxmnt(mnt);

	/* SELINUX=disabled: runtime disable, where the kernel still has it;
	 * else the best that can be done is permissive. */
	if (seconfig == -1) {
		if (core_fs_write("disable", "1", 1) == 0) {
			unmount_selinuxfs();
			return -ENODEV;
		}
		*enforce = 0;
	}

	cur = security_getenforce();
	if (cur < 0)
		return -errno;
	if (cur != *enforce && security_setenforce(*enforce) < 0) {
		r = -errno;
		core_log(SELINUX_ERROR,
			 "SELinux:  Unable to switch to %s mode:  %s\n",
			 *enforce ? "enforcing" : "permissive", strerror(-r));
		if (*enforce)
			return r;
	}
	if (seconfig == -1) {
		unmount_selinuxfs();
		return -ENODEV;
	}
	return comp_mkload_policy();
}

/*
 * 0 when the policy was loaded; -1 otherwise, with *enforce telling init
 * what to do (halt when > 0).  errno then says why, though the
 * established library leaves it unspecified.
 */
_public_ int selinux_init_load_policy(int *enforce)
{
	return RET_ERRNO(init_load_policy(enforce));
}
