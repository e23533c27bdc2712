/* core/: the only layer that knows the kernel interface's paths and formats. */
#ifndef SELINUX_CORE_INTERNAL_H
#define SELINUX_CORE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <selinux/selinux.h>

#include "../macro.h"

/*
 * Every helper here returns >= 0 on success or -errno on failure and
 * leaves errno alone; exported functions convert with RET_ERRNO().
 */

/* init.c: facts fixed at library load (written once by the constructor). */
extern long core_page_size;
/* Whether /etc/selinux/config existed at load (is_selinux_enabled needs it). */
extern bool core_has_config;

/* selinuxfs.c: the mount point, discovered at load or set_selinuxmnt(). */
extern char *selinux_mnt;
void core_mnt_discover(void);
/* Parse one /proc/self/mountinfo line; 1 and *mnt (malloc'd) if it is a
 * selinuxfs we trust, with *ro (ro may be NULL) whether it is mounted
 * read-only; 0 if not, -errno on allocation failure. */
int core_mountinfo_line(const char *line, char **mnt, bool *ro);
/* Adopt the first trusted selinuxfs listed in the mountinfo file path,
 * or, with none alive, a dead FUSE one (core_mnt_discover's last resort,
 * with /proc/self/mountinfo; a test and the fuzz target pass their own
 * file). */
void core_mountinfo_scan(const char *path);
/* True when statfs(path) reports the selinuxfs magic. */
bool core_is_selinuxfs(const char *path);

/* fsio.c: reading and writing selinuxfs files. */
/* "mnt/name" into buf; -ENOENT without a mount, -ENAMETOOLONG. */
int core_fs_path(const char *name, char *buf, size_t size);
/* open "mnt/name" with flags | O_CLOEXEC; fd or -errno. */
int core_fs_open(const char *name, int flags);
/*
 * Read a small selinuxfs file in one read() (kernfs-style files answer a
 * single read from offset 0; a second read at a later offset is not the
 * same snapshot).  NUL-terminates buf; returns the length read.
 */
ssize_t core_fs_read(const char *name, char *buf, size_t size);
/* Read a file holding one decimal integer, as the kernel prints them. */
int core_fs_read_long(const char *name, long *out);
/* Write len bytes to "mnt/name" in one write(). */
int core_fs_write(const char *name, const void *buf, size_t len);
/*
 * A selinuxfs transaction: write req (reqlen bytes) then read the reply on
 * the same open file.  *reply is malloc'd and NUL-terminated; *replylen
 * (may be NULL) its length.
 */
int core_fs_transact(const char *name, const void *req, size_t reqlen,
		     char **reply, size_t *replylen);
/*
 * Parse a decimal integer with optional surrounding whitespace; anything
 * else (empty, trailing garbage, overflow) is -EINVAL.
 */
int core_parse_long(const char *s, long *out);

/* procfs.c: files of procfs, reached so that no mount redirects them. */
/*
 * Open rel (e.g. "thread-self/attr/exec") beneath /proc with flags |
 * O_CLOEXEC: an fd, or -errno; -ENOENT when /proc is not a procfs, -EXDEV
 * when a mount (a bind mount over the file or a directory on its path)
 * stands in the way or the file is not on procfs.
 */
int core_proc_open(const char *rel, int flags);
/* Test hook: use dir instead of "/proc" (NULL restores); a fixture root
 * is not checked for being procfs.  Not exported. */
void core_set_proc_root(const char *dir);
/* Test hook: whether to try openat2(2) (true at load; cleared for good
 * when the kernel lacks it). */
void core_proc_set_openat2(bool on);

/* procattr.c: /proc/PID/attr/ATTR. */
/* pid 0 means the calling thread.  *con NULL for an empty attribute. */
int core_procattr_get(pid_t pid, const char *attr, char **con);
/* Write con (NULL: clear) to the calling thread's attribute. */
int core_procattr_set(const char *attr, const char *con);
/* The same, with contexts in translated (mcstrans) form. */
int core_procattr_get_trans(pid_t pid, const char *attr, char **con);
int core_procattr_set_trans(const char *attr, const char *con);

/* xattr.c: the security.selinux attribute. */
/* CORE_XATTR_AT (get only): path is a name in the directory open as fd,
 * read through getxattrat(2) (-ENOSYS without it); see core_xattr_get_at. */
enum core_xattr_how {
	CORE_XATTR_FOLLOW,
	CORE_XATTR_NOFOLLOW,
	CORE_XATTR_FD,
	CORE_XATTR_AT
};
ssize_t core_xattr_get(const char *path, int fd, enum core_xattr_how how,
		       char **con);
int core_xattr_set(const char *path, int fd, enum core_xattr_how how,
		   const char *con);
/*
 * core_xattr_get(path, -1, CORE_XATTR_NOFOLLOW, con) for name, an entry
 * of the directory open as dirfd whose full path is path: through
 * getxattrat(2) relative to dirfd where the kernel has it (no walk of
 * the path from /), else by path.  dirfd < 0: by path.
 */
ssize_t core_xattr_get_at(int dirfd, const char *name, const char *path,
			  char **con);
/* The same in translated form; get returns strlen + 1 of *con. */
int core_xattr_get_trans(const char *path, int fd, enum core_xattr_how how,
			 char **con);
int core_xattr_set_trans(const char *path, int fd, enum core_xattr_how how,
			 const char *con);

/* log.c: the SELINUX_CB_* callbacks. */
/* Log through SELINUX_CB_LOG; preserves errno. */
void core_log(int type, const char *fmt, ...) _printf_(2, 3);
/*
 * core_log in two steps, for a caller that serializes the callback but
 * not the formatting: the message into buf (size bytes), or into *big
 * (malloc'd, to free) when it is longer; then the message to the
 * callback (errno preserved).
 */
void core_log_format(char *buf, size_t size, char **big, const char *fmt,
		     va_list ap) _printf_(4, 0);
void core_log_str(int type, const char *msg);
/* Run SELINUX_CB_VALIDATE on *ctx; 0 or -errno (EINVAL if unset). */
int core_validate(char **ctx);
int core_notify_setenforce(int enforcing);
int core_notify_policyload(int seqno);
int core_audit(void *data, security_class_t cls, char *buf, size_t len);

/* setrans.c: mcstrans translation; without a daemon, a plain copy. */
int core_raw_to_trans(const char *raw, char **trans);
int core_trans_to_raw(const char *trans, char **raw);
/* Test hook: the setrans socket path (NULL restores the default). */
void core_set_setrans_socket(const char *path);

/* config.c and paths.c: /etc/selinux/config and the policy paths. */
/* Test hook: use dir instead of "/etc/selinux" (NULL restores).  Also
 * re-reads whether the config file exists, as the constructor does. */
void core_set_config_root(const char *dir);
/* Constructor helper: note whether the config file exists. */
void core_config_recheck(void);
/* The config directory with no trailing slash ("/etc/selinux"). */
const char *core_config_root(void);
/* The full path of the config file ("/etc/selinux/config"). */
int core_config_file(char *buf, size_t size);
/* paths.c: rebuild the path table for a policy root (NULL: clear it);
 * 0, or -ENOMEM with the table unchanged. */
int core_paths_rebuild(const char *root);
void core_paths_free(void);
/* Whether seusers is required (REQUIRESEUSERS= in the config). */
bool core_config_require_seusers(void);

#endif
