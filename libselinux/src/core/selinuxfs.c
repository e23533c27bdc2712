/* core/selinuxfs.c: finding the selinuxfs mount point. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include "internal.h"

#define SELINUX_MAGIC 0xf97cff8cU
#define SELINUXMNT "/sys/fs/selinux"
#define OLDSELINUXMNT "/selinux"

/*
 * The mount point, exported as data for programs of the established
 * library that read it directly.  Written by the constructor, by
 * set_selinuxmnt() and fini_selinuxmnt(); like the established library we
 * do not lock it: those two calls are documented as not thread safe.
 */
_public_ char *selinux_mnt;

bool core_is_selinuxfs(const char *path)
{
	struct statfs sfs;

	if (RETRY_EINTR(statfs(path, &sfs)) < 0)
		return false;
	return (uint32_t)sfs.f_type == SELINUX_MAGIC;
}

/*
 * A selinuxfs mounted read-only is how container runtimes tell the
 * programs inside that SELinux is off for them: the established library
 * then stops looking and reports SELinux disabled.  We do the same.
 * Returns 1 when the search is over (found, or read-only), 0 to go on.
 */
static int adopt(const char *mnt, bool ro)
{
	if (!ro) {
		char *copy = strdup(mnt);

		if (!copy)
			return 0;
		free(selinux_mnt);
		selinux_mnt = copy;
	}
	return 1;
}

/* adopt() a mount that answers statvfs; 0 (go on) when it does not. */
static int adopt_live(const char *mnt)
{
	struct statvfs vfs;

	if (statvfs(mnt, &vfs) < 0)
		return 0;
	return adopt(mnt, vfs.f_flag & ST_RDONLY);
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* True when the comma-separated option list opts contains exactly opt. */
static bool has_option(const char *opts, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = opts; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && strncmp(p, opt, n) == 0)
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

/*
 * mountinfo(5): "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] -
 * FSTYPE SOURCE SUPEROPTS".  A kernel selinuxfs has fstype "selinuxfs".
 * The userspace security server of kernel/ mounts through FUSE with
 * subtype selinuxfs, so its fstype is "fuse.selinuxfs"; any user may mount
 * a FUSE file system, so we trust one only if it was mounted by root,
 * which FUSE records as user_id=0 in the super options.  Read-only is
 * "ro" in the mount's options or in the super options.
 */
int core_mountinfo_line(const char *line, char **mnt, bool *ro)
{
	_cleanup_free_ char *copy = strdup(line);
	char *field[6] = {0}, *save = NULL, *tok, *fstype, *superopts;
	int n = 0;

	if (!copy)
		return -ENOMEM;
	copy[strcspn(copy, "\n")] = '\0';
	while (n < 6 && (tok = strtok_r(n ? NULL : copy, " ", &save)))
		field[n++] = tok;
	if (n < 6)
		return 0;
	/* Skip the optional fields up to the "-" separator. */
	do
		tok = strtok_r(NULL, " ", &save);
	while (tok && strcmp(tok, "-") != 0);
	if (!tok)
		return 0;
	fstype = strtok_r(NULL, " ", &save);
	if (!fstype || !strtok_r(NULL, " ", &save))
		return 0;
	superopts = strtok_r(NULL, " ", &save);
	if (strcmp(fstype, "selinuxfs") != 0) {
		if (strcmp(fstype, "fuse.selinuxfs") != 0)
			return 0;
		if (!superopts || !has_option(superopts, "user_id=0"))
			return 0;
	}
	if (ro)
		*ro = has_option(field[5], "ro") ||
		      (superopts && has_option(superopts, "ro"));
	unescape(field[4]);
	*mnt = strdup(field[4]);
	return *mnt ? 1 : -ENOMEM;
}

/*
 * A FUSE selinuxfs whose server died stays mounted (until someone
 * unmounts it) and answers ENOTCONN to everything, statvfs included.  A
 * kernel's selinuxfs never goes away while SELinux is enabled, so such a
 * mount says that SELinux was enabled and its security server is gone.
 * Passing it by, as any unusable mount, would leave no selinuxfs and
 * SELinux "disabled": is_selinux_enabled() 0, selinux_check_access()
 * granting everything, getenforce printing Disabled - failing open for
 * every program started after the death.  So it is adopted (when no live
 * selinuxfs is mounted): SELinux reads as enabled and every question to
 * it fails with ENOTCONN (selinux.h, "When the security server is gone").
 * Its read-only flag, which statvfs cannot tell, comes from mountinfo.
 */
void core_mountinfo_scan(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *line = NULL, *dead = NULL;
	bool ro, dead_ro = false;
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		_cleanup_free_ char *mnt = NULL;
		struct statvfs vfs;

		if (core_mountinfo_line(line, &mnt, &ro) != 1)
			continue;
		if (statvfs(mnt, &vfs) == 0) {
			if (adopt(mnt, vfs.f_flag & ST_RDONLY))
				return;
		} else if (errno == ENOTCONN && !dead) {
			dead = TAKE_PTR(mnt);
			dead_ro = ro;
		}
	}
	if (dead)
		(void)adopt(dead, dead_ro);
}

void core_mnt_discover(void)
{
	if (selinux_mnt)
		return;
	if (core_is_selinuxfs(SELINUXMNT) && adopt_live(SELINUXMNT))
		return;
	if (core_is_selinuxfs(OLDSELINUXMNT) && adopt_live(OLDSELINUXMNT))
		return;
	core_mountinfo_scan("/proc/self/mountinfo");
}

_public_ void set_selinuxmnt(const char *mnt)
{
	char *copy;

	/* The established library crashes on NULL; we treat it as "none". */
	if (!mnt) {
		fini_selinuxmnt();
		return;
	}
	copy = strdup(mnt);
	if (!copy)
		return;
	free(selinux_mnt);
	selinux_mnt = copy;
}

_public_ void fini_selinuxmnt(void)
{
	free(selinux_mnt);
	selinux_mnt = NULL;
}

/*
 * Whether the kernel knows selinuxfs.  As in the established library, an
 * unreadable /proc/filesystems counts as "yes" so that early boot (before
 * /proc is mounted) still tries to mount it.
 */
_public_ int selinuxfs_exists(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/filesystems", "re");
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;

	if (!f)
		return 1;
	while (getline(&line, &cap, f) > 0) {
		/* "nodev\tselinuxfs\n" */
		char *name = strrchr(line, '\t');

		name = name ? name + 1 : line;
		name[strcspn(name, "\n")] = '\0';
		if (strcmp(name, "selinuxfs") == 0)
			return 1;
	}
	return 0;
}
