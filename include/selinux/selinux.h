/*
 * selinux.h - the core SELinux userspace API.
 *
 * Source compatible with the established libselinux: the same names, types,
 * constants and macro values, so a program written for it compiles here
 * unchanged and links against libselinux.so.1 with the same symbol versions.
 *
 * Conventions, unless a function says otherwise:
 *  - Failure is -1 with errno set; the errno values listed are the ones this
 *    library itself chooses.  Errors of the underlying system calls (open,
 *    read, write, getxattr, ...) pass through unchanged.
 *  - ENOENT from any selinuxfs call means no selinuxfs mount was found
 *    (SELinux disabled, or set_selinuxmnt() was not called).
 *  - A returned context (char *) is owned by the caller; free it with
 *    freecon().  A returned array of contexts: freeconary().
 *  - A "_raw" function takes and returns contexts in the kernel's raw form;
 *    its plain twin translates through mcstrans (setrans) when a translation
 *    daemon runs and otherwise behaves identically.
 */
#ifndef _SELINUX_H_
#define _SELINUX_H_

#include <sys/types.h>
#include <stdarg.h>
/* Included since upstream 3.8, so 3.8+ programs may take uint32_t and the
 * like from this header alone. */
#include <stdint.h>
#include <selinux/release.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Whether SELinux is enabled.  Returns 1 when a selinuxfs is mounted (or
 * was set with set_selinuxmnt()) and /etc/selinux/config exists, 0
 * otherwise.  Never fails.  A FUSE
 * selinuxfs whose security server died counts as mounted (see below).
 */
extern int is_selinux_enabled(void);

/*
 * When the security server is gone.
 *
 * A kernel's selinuxfs never goes away while SELinux is enabled.  The
 * userspace security server (selinuxfsd, a FUSE selinuxfs found in
 * /proc/self/mountinfo as fstype fuse.selinuxfs mounted by root) can die;
 * its mount then stays, and answers ENOTCONN to everything.  Such a mount
 * means that SELinux was enabled and nothing can decide any more, so the
 * library fails closed, in programs running at the death and in those
 * started afterwards alike (the library adopts the dead mount at load,
 * when no live selinuxfs is mounted; mounted read-only, per mountinfo, it
 * means disabled, as a live one does):
 *
 *   is_selinux_enabled()            1 (with /etc/selinux/config)
 *   security_getenforce(), security_setenforce(),
 *   security_deny_unknown(), security_reject_unknown(),
 *   security_get_checkreqprot(), security_policyvers(),
 *   security_check_context(), security_compute_*(),
 *   security_get_initial_context(), security_get_boolean_active(),
 *   security_set_boolean(), security_commit_booleans() ...
 *                                   -1 with ENOTCONN
 *   string_to_security_class(), string_to_av_perm()
 *                                   0 with EINVAL ("not there", as for
 *                                   any failure of theirs)
 *   security_get_boolean_names()    -1 with ENOENT (any failure to list
 *                                   booleans/, as in the established
 *                                   library)
 *   is_selinux_mls_enabled()        0 (every error reads as "no MLS", as
 *                                   in the established library)
 *   avc_open(), selinux_status_open()
 *                                   -1 with ENOTCONN (no netlink fallback)
 *   avc_has_perm()                  a decision cached before the death
 *                                   still answers, in the mode last seen
 *                                   (the policy behind it has not
 *                                   changed); any other question -1 with
 *                                   ENOTCONN, a denial even in permissive
 *                                   mode; with no AVC open, -1 (EINVAL)
 *   selinux_check_access()          the same through the AVC (-1 with
 *                                   EINVAL for a class or permission
 *                                   name not looked up before); in a
 *                                   program whose AVC could not be opened
 *                                   (started after the death), -1 with
 *                                   ENOTCONN for every check
 *   selinux_check_passwd_access()   -1 (denied)
 *   getenforce(8)                   an error, exit status 2
 *
 * The established library would pass such a mount by and report SELinux
 * disabled, granting everything.  Process attributes and file labels do
 * not involve the server and keep working.
 */

/*
 * Whether the loaded policy has MLS enabled.  Returns 1 when it has
 * (selinuxfs "mls" holds 1), 0 otherwise, including when selinuxfs is
 * missing or unreadable.
 */
extern int is_selinux_mls_enabled(void);

/* No longer used; kept for legacy callers.  Use char * instead. */
typedef char *security_context_t
#ifdef __GNUC__
	__attribute__((deprecated))
#endif
	;

/* Free a context returned by any call of this library.  NULL is a no-op. */
extern void freecon(char *con);

/* Free a NULL-terminated array of contexts and each element.  NULL: no-op. */
extern void freeconary(char **con);

/*
 * Process attributes (/proc/PID/attr/...).
 *
 * The get functions return 0 and store a newly allocated context in *con,
 * or store NULL when the attribute is empty (for exec, fscreate, keycreate
 * and sockcreate this means "policy default").  They fail with -1 and
 * EINVAL when the kernel has no SELinux (the attribute files answer
 * EINVAL), ENOMEM, or the errno of open/read.
 *
 * The set functions return 0 on success; NULL resets the attribute to the
 * policy default.  They fail with -1 and the kernel's errno (EINVAL for an
 * invalid context, EACCES when policy denies the transition).
 *
 * Exec, fscreate, keycreate and sockcreate contexts are per thread, as in
 * the kernel: they are read and written through /proc/thread-self.
 *
 * Only the attribute files beneath /proc's own mount are read or
 * written: the file is opened beneath /proc without crossing a mount
 * (openat2(2) with RESOLVE_NO_XDEV and RESOLVE_NO_MAGICLINKS).  A file
 * or directory mounted over an attribute, or over a directory on its
 * path, makes every get and set fail with -1 and EXDEV, writing nothing
 * (a write there could land anywhere: CVE-2025-52881).  Without openat2
 * (Linux before 5.6, or a seccomp filter), /proc must be a procfs (else
 * ENOENT, as when /proc is not mounted) and the file on its mount and on
 * procfs (else EXDEV); kernels before 5.8 (no STATX_MNT_ID) get the
 * procfs check only.  With openat2, /proc's own file system type is not
 * asked (statfs needs a permission confined domains lack): a whole file
 * system mounted on /proc is not told apart.  The established library
 * opens the path as it finds it.
 */

/*
 * Current context of the calling thread.
 *
 * Example: print the context the program runs in, as id -Z does:
 *   #include <stdio.h>
 *   #include <selinux/selinux.h>
 *
 *   int main(void)
 *   {
 *       char *con;
 *
 *       if (getcon(&con) < 0) {
 *           perror("getcon");
 *           return 1;
 *       }
 *       printf("%s\n", con);
 *       freecon(con);
 *       return 0;
 *   }
 */
extern int getcon(char **con);
extern int getcon_raw(char **con);

/*
 * Change the current context (dynamic transition).  Policy must allow
 * setcurrent and dyntransition; with other threads running the new
 * context must be bounded by the old one.
 */
extern int setcon(const char *con);
extern int setcon_raw(const char *con);

/* Context of process pid.  pid <= 0 fails with EINVAL. */
extern int getpidcon(pid_t pid, char **con);
extern int getpidcon_raw(pid_t pid, char **con);

/* Context the calling thread had before its last execve(). */
extern int getprevcon(char **con);
extern int getprevcon_raw(char **con);

/* Previous context of process pid.  pid <= 0 fails with EINVAL. */
extern int getpidprevcon(pid_t pid, char **con);
extern int getpidprevcon_raw(pid_t pid, char **con);

/*
 * Context for the next execve(); reset by the kernel at execve().
 *
 * Example: run a program in a context given on the command line, as runcon(1)
 * does (the policy must allow the transition):
 *   #include <stdio.h>
 *   #include <unistd.h>
 *   #include <selinux/selinux.h>
 *
 *   int main(int argc, char **argv)
 *   {
 *       if (argc < 3) {
 *           fprintf(stderr, "usage: %s CONTEXT PROGRAM [ARG...]\n", argv[0]);
 *           return 2;
 *       }
 *       if (setexeccon(argv[1]) < 0) {
 *           perror("setexeccon");
 *           return 1;
 *       }
 *       execvp(argv[2], argv + 2);
 *       perror(argv[2]);
 *       return 1;
 *   }
 */
extern int getexeccon(char **con);
extern int getexeccon_raw(char **con);
extern int setexeccon(const char *con);
extern int setexeccon_raw(const char *con);

/* Context for newly created files, directories and other fs objects. */
extern int getfscreatecon(char **con);
extern int getfscreatecon_raw(char **con);
extern int setfscreatecon(const char *context);
extern int setfscreatecon_raw(const char *context);

/* Context for newly created kernel keyrings. */
extern int getkeycreatecon(char **con);
extern int getkeycreatecon_raw(char **con);
extern int setkeycreatecon(const char *context);
extern int setkeycreatecon_raw(const char *context);

/* Context for newly created sockets. */
extern int getsockcreatecon(char **con);
extern int getsockcreatecon_raw(char **con);
extern int setsockcreatecon(const char *context);
extern int setsockcreatecon_raw(const char *context);

/*
 * File contexts: the "security.selinux" extended attribute.
 *
 * The get functions return the size of the attribute value in bytes (the
 * kernel stores the terminating NUL, so this is strlen + 1 for labels the
 * kernel wrote) and store a NUL-terminated copy in *con.  Failure is -1
 * with ENODATA (no label), ENOTSUP (no xattr support, or an empty
 * attribute), ENOMEM, or the errno of getxattr/stat.  The plain versions
 * return strlen + 1 of the translated context.
 *
 * ERANGE: the value did not fit the buffer its size asked for, four
 * times (the first guess, then three rounds of a size query and a read:
 * at most seven getxattr calls), because the label changed under the
 * read each time or the file system keeps answering ERANGE.  The
 * established library gives up after the first round (three calls).
 *
 * lgetfilecon does not follow a final symlink; fgetfilecon takes a file
 * descriptor, which may be opened with O_PATH.
 */
extern int getfilecon(const char *path, char **con);
extern int getfilecon_raw(const char *path, char **con);
extern int lgetfilecon(const char *path, char **con);
extern int lgetfilecon_raw(const char *path, char **con);
extern int fgetfilecon(int fd, char **con);
extern int fgetfilecon_raw(int fd, char **con);

/*
 * Set the label of a file.  Returns 0, or -1 with the errno of setxattr
 * (ENOTSUP, ENOSPC, EDQUOT, EACCES, EINVAL ...).  When setxattr answers
 * ENOTSUP but the file already carries exactly this label, the call
 * succeeds: relabelling to the current label is not an error.
 */
extern int setfilecon(const char *path, const char *con);
extern int setfilecon_raw(const char *path, const char *con);
extern int lsetfilecon(const char *path, const char *con);
extern int lsetfilecon_raw(const char *path, const char *con);
extern int fsetfilecon(int fd, const char *con);
extern int fsetfilecon_raw(int fd, const char *con);

/*
 * Context of the peer of a connected socket (SO_PEERSEC).  Returns 0, or
 * -1 with the errno of getsockopt (ENOPROTOOPT when the kernel has no
 * labelled peer, ENOTSOCK, EBADF) or ENOMEM.
 */
extern int getpeercon(int fd, char **con);
extern int getpeercon_raw(int fd, char **con);

/* Access vectors and the kernel's decision structure. */
typedef unsigned int access_vector_t;
typedef unsigned short security_class_t;

struct av_decision {
	access_vector_t allowed;
	access_vector_t decided;
	access_vector_t auditallow;
	access_vector_t auditdeny;
	unsigned int seqno;
	unsigned int flags;
};

/* av_decision.flags: the source domain is permissive. */
#define SELINUX_AVD_FLAGS_PERMISSIVE 0x0001

/* An option for selabel_open(), avc_open() and selinux_status_open(). */
struct selinux_opt {
	int type;
	const char *value;
};

/* Callbacks through which the library logs, audits and notifies. */
union selinux_callback {
	/*
	 * Log a printf-style message; type is one of SELINUX_ERROR ...
	 * SELINUX_SETENFORCE below.  The default prints to stderr.
	 */
	int
#ifdef __GNUC__
		__attribute__((format(printf, 2, 3)))
#endif
		(*func_log)(int type, const char *fmt, ...);
	/*
	 * Write a human-readable form of auditdata (for class cls) into
	 * msgbuf, at most msgbufsize bytes.  The default writes nothing.
	 */
	int (*func_audit)(void *auditdata, security_class_t cls, char *msgbuf,
			  size_t msgbufsize);
	/*
	 * Validate *ctx, optionally replacing it (free the old one with
	 * freecon()).  Return 0 if valid, -1 with errno EINVAL if not.  The
	 * default calls security_check_context().
	 */
	int (*func_validate)(char **ctx);
	/* Called when the enforcing mode changes (1 enforcing, 0 not). */
	int (*func_setenforce)(int enforcing);
	/* Called when a policy is loaded; seqno is the load sequence. */
	int (*func_policyload)(int seqno);
};

#define SELINUX_CB_LOG 0
#define SELINUX_CB_AUDIT 1
#define SELINUX_CB_VALIDATE 2
#define SELINUX_CB_SETENFORCE 3
#define SELINUX_CB_POLICYLOAD 4

/*
 * Return the callback installed for type (the default one if none was
 * set).  An unknown type returns a union whose members are all NULL.
 */
extern union selinux_callback selinux_get_callback(int type);

/*
 * Install cb for type (SELINUX_CB_*).  An unknown type is ignored.  Not
 * synchronised: install callbacks before starting threads.
 */
extern void selinux_set_callback(int type, union selinux_callback cb);

/* Log message types passed to func_log. */
#define SELINUX_ERROR 0
#define SELINUX_WARNING 1
#define SELINUX_INFO 2
#define SELINUX_AVC 3
#define SELINUX_POLICYLOAD 4
#define SELINUX_SETENFORCE 5

/* Directory of the mcstrans (setrans) daemon's socket. */
#define SELINUX_TRANS_DIR "/var/run/setrans"

/*
 * Compute the access decision of scon on tcon for class tclass.  tclass
 * is a kernel class value, or a mapped one after selinux_set_mapping().  Fills *avd
 * and returns 0; -1 with EINVAL for invalid contexts or class, ENOENT
 * without selinuxfs.  The _flags variants also report
 * SELINUX_AVD_FLAGS_PERMISSIVE in avd->flags.
 */
extern int security_compute_av(const char *scon, const char *tcon,
			       security_class_t tclass,
			       access_vector_t requested,
			       struct av_decision *avd);
extern int security_compute_av_raw(const char *scon, const char *tcon,
				   security_class_t tclass,
				   access_vector_t requested,
				   struct av_decision *avd);
extern int security_compute_av_flags(const char *scon, const char *tcon,
				     security_class_t tclass,
				     access_vector_t requested,
				     struct av_decision *avd);
extern int security_compute_av_flags_raw(const char *scon, const char *tcon,
					 security_class_t tclass,
					 access_vector_t requested,
					 struct av_decision *avd);

/*
 * Compute the label of a new object of class tclass created by scon in
 * tcon (type_transition).  The _name variants take the object's name for
 * named type transitions.  Returns 0 and *newcon, or -1 (EINVAL, ENOENT).
 */
extern int security_compute_create(const char *scon, const char *tcon,
				   security_class_t tclass, char **newcon);
extern int security_compute_create_raw(const char *scon, const char *tcon,
				       security_class_t tclass,
				       char **newcon);
extern int security_compute_create_name(const char *scon, const char *tcon,
					security_class_t tclass,
					const char *objname, char **newcon);
extern int security_compute_create_name_raw(const char *scon,
					    const char *tcon,
					    security_class_t tclass,
					    const char *objname,
					    char **newcon);

/* Compute the relabel target (type_change).  0 and *newcon, or -1. */
extern int security_compute_relabel(const char *scon, const char *tcon,
				    security_class_t tclass, char **newcon);
extern int security_compute_relabel_raw(const char *scon, const char *tcon,
					security_class_t tclass,
					char **newcon);

/* Compute the polyinstantiation member (type_member).  0 and *newcon. */
extern int security_compute_member(const char *scon, const char *tcon,
				   security_class_t tclass, char **newcon);
extern int security_compute_member_raw(const char *scon, const char *tcon,
				       security_class_t tclass,
				       char **newcon);

/*
 * The contexts SELinux user username may reach from scon.  Returns 0 and a
 * NULL-terminated array in *con (free with freeconary()), or -1.
 * Deprecated in favour of get_ordered_context_list() (marked so since 3.8:
 * selinux/release.h).
 */
extern int security_compute_user(const char *scon, const char *username,
				 char ***con) SELINUX_DEPRECATED_SINCE_3_8;
extern int security_compute_user_raw(const char *scon, const char *username,
				     char ***con) SELINUX_DEPRECATED_SINCE_3_8;

/*
 * Check a relabelling against the policy's validatetrans constraints.
 * The question is whether relabelling from scon to newcon by tcon is
 * allowed.  0 if allowed; -1 with EPERM if not,
 * EINVAL for bad arguments.
 */
extern int security_validatetrans(const char *scon, const char *tcon,
				  security_class_t tclass,
				  const char *newcon);
extern int security_validatetrans_raw(const char *scon, const char *tcon,
				      security_class_t tclass,
				      const char *newcon);

/*
 * Load the binary policy image data of len bytes.  0, or -1 and errno.
 * data is only read (const since upstream 3.5).
 */
extern int security_load_policy(const void *data, size_t len);

/*
 * Context of the initial SID called name (e.g. "kernel", "unlabeled").
 * 0 and *con, or -1 with ENOENT (unknown name or no selinuxfs).
 */
extern int security_get_initial_context(const char *name, char **con);
extern int security_get_initial_context_raw(const char *name, char **con);

/*
 * Find the binary policy of the configured type and load it: the file of
 * the highest version, from the newest libsepol writes (when libsepol.so.2
 * is installed; it is opened at the call) or else the kernel's, down to
 * 15.  A file newer than the kernel is rewritten to the kernel's version
 * by libsepol first.  preservebools is no longer supported; pass 0.
 * Returns 0, or -1 and errno (ENOENT: no policy file found).
 */
extern int selinux_mkload_policy(int preservebools);

/*
 * Load the policy at boot, for init.  It mounts selinuxfs, honours the
 * kernel command line (selinux=0, enforcing=) and /etc/selinux/config,
 * sets the enforcing mode and loads the policy.  Returns 0 when the policy was
 * loaded (init should re-exec itself); -1 otherwise, with *enforce telling
 * init whether to halt (> 0) or continue without SELinux.
 */
extern int selinux_init_load_policy(int *enforce);

/* A boolean name and value, for security_set_boolean_list(). */
typedef struct {
	char *name;
	int value;
} SELboolean;

/*
 * Set boolcnt booleans and commit them in one transaction.  permanent is
 * no longer supported; pass 0.  Returns 0, or -1 and errno (ENOENT for an
 * unknown boolean).
 */
extern int security_set_boolean_list(size_t boolcnt, SELboolean *boollist,
				     int permanent);

/* Deprecated: local boolean files are no longer supported.  Returns -1. */
extern int security_load_booleans(char *path)
#ifdef __GNUC__
	__attribute__((deprecated))
#endif
	;

/*
 * Check that con is valid in the loaded policy.  Returns 0 if valid; -1
 * with EINVAL if not, ENOENT without selinuxfs.
 */
extern int security_check_context(const char *con);
extern int security_check_context_raw(const char *con);

/*
 * Ask the kernel for the canonical form of con.  Returns 0 and *canoncon
 * (free with freecon()), or -1 (EINVAL, ENOENT, ENOMEM).
 */
extern int security_canonicalize_context(const char *con, char **canoncon);
extern int security_canonicalize_context_raw(const char *con,
					     char **canoncon);

/*
 * The kernel's enforcing mode: 1 enforcing, 0 permissive, -1 on error
 * (ENOENT without selinuxfs, EINVAL when "enforce" is not a number,
 * ENOTCONN when the security server is gone: the mode is unknown).
 */
extern int security_getenforce(void);

/* Set enforcing (value 1) or permissive (0).  0, or -1 and errno. */
extern int security_setenforce(int value);

/*
 * 1 if the loaded policy was built with handle-unknown=reject, 0 if not;
 * -1 with ENOENT or EINVAL on error.
 */
extern int security_reject_unknown(void);

/*
 * 1 if undefined classes/permissions are denied, 0 if allowed; -1 with
 * ENOENT or EINVAL on error.
 */
extern int security_deny_unknown(void);

/*
 * Which protection SELinux checks on mmap and mprotect.  Returns 1 if it
 * checks the protection requested, 0 if it checks the protection actually
 * applied; -1 with ENOENT/EINVAL on error.
 */
extern int security_get_checkreqprot(void);

/* Disable SELinux at runtime (before the first policy load; removed from
 * kernels since 6.4).  0, or -1 and errno.  Deprecated since 3.8. */
extern int security_disable(void) SELINUX_DEPRECATED_SINCE_3_8;

/*
 * The highest policy version the kernel supports.  Returns it; 15 when
 * selinuxfs has no "policyvers" file; -1 with ENOENT without selinuxfs,
 * EINVAL when the file is not a number.
 */
extern int security_policyvers(void);

/*
 * Names of all booleans.  Returns 0, a malloc'd array of *len malloc'd
 * names in *names (free each and the array), or -1 and errno.
 */
extern int security_get_boolean_names(char ***names, int *len);

/* Pending value (0/1) of boolean name, or -1 (ENOENT unknown name). */
extern int security_get_boolean_pending(const char *name);

/* Active value (0/1) of boolean name, or -1 (ENOENT unknown name). */
extern int security_get_boolean_active(const char *name);

/* Set the pending value of a boolean.  0, or -1 and errno. */
extern int security_set_boolean(const char *name, int value);

/* Make every pending boolean value active.  0, or -1 and errno. */
extern int security_commit_booleans(void);

/* Userspace class mapping: one entry per class, perms NULL-terminated. */
struct security_class_mapping {
	const char *name;
	const char *perms[sizeof(access_vector_t) * 8 + 1];
};

/*
 * Install a mapping from the caller's class and permission numbers
 * (indexes into map, starting at 1; map ends with a NULL name) to the
 * loaded policy's.  Returns 0, or -1 with EINVAL for a class or permission
 * the policy lacks (when it rejects unknowns) or ENOMEM.  map is only read
 * and may be freed afterwards (const since upstream 3.7).
 */
extern int selinux_set_mapping(const struct security_class_mapping *map);

/* The file class (file, dir, lnk_file, ...) for a stat mode; 0 if none. */
extern security_class_t mode_to_security_class(mode_t mode);

/* Class value for a class name, or 0 (errno EINVAL) when unknown. */
extern security_class_t string_to_security_class(const char *name);

/* Name of a class value, or NULL when unknown.  Static storage. */
extern const char *security_class_to_string(security_class_t cls);

/* Name of one permission bit of tclass, or NULL.  Static storage. */
extern const char *security_av_perm_to_string(security_class_t tclass,
					      access_vector_t perm);

/* Permission bit of name in tclass, or 0 (errno EINVAL) when unknown. */
extern access_vector_t string_to_av_perm(security_class_t tclass,
					 const char *name);

/*
 * av as "{ perm1 perm2 }" in *result (free with free()).  Returns 0, or
 * -1 with EINVAL or ENOMEM.
 */
extern int security_av_string(security_class_t tclass, access_vector_t av,
			      char **result);

/* Print av as security_av_string() would, to stdout. */
extern void print_access_vector(security_class_t tclass, access_vector_t av);

/* Forget the cached class and permission numbers (after a policy load). */
extern void selinux_flush_class_cache(void);

/* Set the function matchpathcon_init() prints file_contexts errors with;
 * the default is fprintf(stderr, ...). */
extern void set_matchpathcon_printf(
	void (*f)(const char *fmt, ...) SELINUX_PRINTF_SINCE_3_8(1, 2));

/* Set the function that validates each context of file_contexts; it
 * reports its own errors and returns 0 if the context is valid. */
extern void set_matchpathcon_invalidcon(int (*f)(const char *path,
						 unsigned lineno,
						 char *context));

/* As above, but the function may replace *context by a canonical form.
 * The default (with no invalidcon set) is security_canonicalize_context. */
extern void set_matchpathcon_canoncon(int (*f)(const char *path,
					       unsigned lineno,
					       char **context));

/* Flags of matchpathcon_init() and matchpathcon(). */
#define MATCHPATHCON_BASEONLY 1 /* Only load the base file_contexts. */
#define MATCHPATHCON_NOTRANS 2 /* Return raw contexts. */
#define MATCHPATHCON_VALIDATE 4 /* Validate contexts when loading. */
extern void set_matchpathcon_flags(unsigned int flags);

/*
 * Load the file contexts for later matchpathcon() calls.  They are read
 * from path (NULL: selinux_file_context_path()) and, unless
 * MATCHPATHCON_BASEONLY, its .homedirs and .local companions.  Returns 0, or -1 and errno.  Not thread
 * safe: the matchpathcon API keeps one handle per thread.
 */
extern int matchpathcon_init(const char *path)
#ifdef __GNUC__
	__attribute__((deprecated("Use selabel_open with backend SELABEL_CTX_FILE")))
#endif
	;

/* As matchpathcon_init(), but only keep specs whose fixed stem is a
 * prefix of prefix. */
extern int matchpathcon_init_prefix(const char *path, const char *prefix);

/* Release what matchpathcon_init() loaded. */
extern void matchpathcon_fini(void)
#ifdef __GNUC__
	__attribute__((deprecated("Use selabel_close")))
#endif
	;

/*
 * Resolve symlinks and relative parts of name except its last component,
 * into resolved_path (PATH_MAX + 1 bytes).  0, or -1 and errno.
 */
extern int realpath_not_final(const char *name, char *resolved_path);

/*
 * The file_contexts label for path and mode (0: any file type) in *con
 * (free with freecon()).  Returns 0, or -1 with ENOENT when no spec
 * matches or the spec says <<none>>.  Calls matchpathcon_init(NULL) first
 * if needed.
 */
extern int matchpathcon(const char *path, mode_t mode, char **con)
#ifdef __GNUC__
	__attribute__((deprecated("Use selabel_lookup instead")))
#endif
	;

/* As matchpathcon(), returning the index of the matching spec (>= 0). */
extern int matchpathcon_index(const char *path, mode_t mode, char **con);

/*
 * Associate inode ino with spec index specind (for file, a path used in
 * messages).  When another spec is already associated with ino (a hard
 * link), keep the later of the two in file_contexts order.  Returns the
 * index kept, or -1 and errno.  (On 32-bit systems the reference
 * library also has matchpathcon_filespec_add64, the same with a 64-bit
 * inode number; this library does not provide it yet.)
 */
extern int matchpathcon_filespec_add(ino_t ino, int specind, const char *file);

/* Forget all inode associations. */
extern void matchpathcon_filespec_destroy(void);

/* Report hash table statistics of the inode associations. */
extern void matchpathcon_filespec_eval(void);

/* Report the specs that matched nothing, each message prefixed by str. */
extern void matchpathcon_checkmatches(char *str);

/* The label of media type media from the media contexts, in *con.
 * 0, or -1 and errno; a media type the file does not list gives -1 with
 * errno as the caller left it, as in the reference. */
extern int matchmediacon(const char *media, char **con);

/*
 * The mode /etc/selinux/config asks for: *enforce = 1 (enforcing), 0
 * (permissive) or -1 (disabled).  Returns 0, or -1 when the file is
 * missing or has no valid SELINUX= line (*enforce is then untouched).
 */
extern int selinux_getenforcemode(int *enforce);

/*
 * The current name of a boolean, by booleans.subs_dist.  Returns the name
 * that file substitutes for boolean_name, or a copy of boolean_name.  Free with free().  NULL on failure (ENOMEM).
 */
extern char *selinux_boolean_sub(const char *boolean_name);

/*
 * The SELINUXTYPE= of /etc/selinux/config in *policytype (free with
 * free()).  Returns 0, or -1 when no type is configured.
 */
extern int selinux_getpolicytype(char **policytype);

/*
 * The policy root directory: /etc/selinux/ followed by the configured
 * type ("targeted" when the config names none).  Static storage.
 */
extern const char *selinux_policy_root(void);

/*
 * Use rootpath as policy root from now on; the policy type becomes its
 * last component.  Returns 0, or -1 with EINVAL or ENOMEM.  Not thread
 * safe.
 */
extern int selinux_set_policy_root(const char *rootpath);

/*
 * Paths of the policy configuration, under selinux_policy_root().  The
 * strings are static; they change only with selinux_set_policy_root() or
 * selinux_reset_config().  selinux_current_policy_path() is the policy the
 * kernel has loaded (selinuxfs "policy"), else the newest binary policy
 * file the kernel supports, or NULL.
 */
extern const char *selinux_current_policy_path(void);
extern const char *selinux_binary_policy_path(void);
extern const char *selinux_failsafe_context_path(void);
extern const char *selinux_removable_context_path(void);
extern const char *selinux_default_context_path(void);
extern const char *selinux_user_contexts_path(void);
extern const char *selinux_file_context_path(void);
extern const char *selinux_file_context_homedir_path(void);
extern const char *selinux_file_context_local_path(void);
extern const char *selinux_file_context_subs_path(void);
extern const char *selinux_file_context_subs_dist_path(void);
extern const char *selinux_homedir_context_path(void);
extern const char *selinux_media_context_path(void);
extern const char *selinux_virtual_domain_context_path(void);
extern const char *selinux_virtual_image_context_path(void);
extern const char *selinux_lxc_contexts_path(void);
extern const char *selinux_x_context_path(void);
extern const char *selinux_sepgsql_context_path(void);
extern const char *selinux_openrc_contexts_path(void);
extern const char *selinux_openssh_contexts_path(void);
extern const char *selinux_snapperd_contexts_path(void);
extern const char *selinux_systemd_contexts_path(void);
extern const char *selinux_contexts_path(void);
extern const char *selinux_securetty_types_path(void);
extern const char *selinux_booleans_subs_path(void);
extern const char *selinux_customizable_types_path(void);
extern const char *selinux_usersconf_path(void);
extern const char *selinux_translations_path(void);
extern const char *selinux_colors_path(void);
extern const char *selinux_netfilter_context_path(void);

/* Deprecated: local boolean files are no longer supported. */
extern const char *selinux_booleans_path(void)
#ifdef __GNUC__
	__attribute__((deprecated))
#endif
	;

/* Deprecated: the policy's users/ directory is no longer supported. */
extern const char *selinux_users_path(void)
#ifdef __GNUC__
	__attribute__((deprecated))
#endif
	;
/* The top of the configuration, "/etc/selinux/". */
extern const char *selinux_path(void);

/*
 * Check a permission by name through the AVC.  The question is whether
 * scon may perm (a permission name) on tcon of class tclass (a class
 * name); the decision is audited as configured.  Returns 0 if
 * granted, and when SELinux is disabled; -1 with EACCES if denied, EINVAL
 * for unknown names, or avc_open()'s errno when SELinux is enabled but
 * the AVC cannot be opened (ENOTCONN: the security server is gone; every
 * check is then denied, see "When the security server is gone").
 *
 * Example: the same question as avc_has_perm()'s example, by class and
 * permission names; the AVC opens itself:
 *   #include <errno.h>
 *   #include <stdio.h>
 *   #include <selinux/selinux.h>
 *
 *   int main(int argc, char **argv)
 *   {
 *       char *con;
 *       int rc;
 *
 *       if (argc != 2 || getcon(&con) < 0)
 *           return 2;
 *       rc = selinux_check_access(con, argv[1], "file", "read", NULL);
 *       freecon(con);
 *       if (rc == 0) {
 *           printf("allowed\n");
 *           return 0;
 *       }
 *       if (errno == EACCES)
 *           printf("denied\n");
 *       else
 *           perror("selinux_check_access");
 *       return 1;
 *   }
 */
extern int selinux_check_access(const char *scon, const char *tcon,
				const char *tclass, const char *perm,
				void *auditdata);

/*
 * Check a passwd class permission of the caller's previous context.
 * That context (the one the process had before its last exec: the
 * user's, for passwd(1)) must have the permissions requested (bits of the
 * passwd class: passwd, chfn, chsh, rootok, crontab) on itself, asked of
 * the security server without the AVC.  Returns 0 if granted, and also
 * when SELinux is disabled or permissive; -1 if denied or if the decision
 * cannot be made.  checkPasswdAccess() is the older name of the same
 * call.  Both are deprecated: selinux_check_access() asks the same
 * question of the AVC, by class and permission names.
 */
extern int selinux_check_passwd_access(access_vector_t requested)
#ifdef __GNUC__
	__attribute__((deprecated("Use selinux_check_access")))
#endif
	;
extern int checkPasswdAccess(access_vector_t requested)
#ifdef __GNUC__
	__attribute__((deprecated("Use selinux_check_access")))
#endif
	;

/* 0 if tty_context's type is listed in securetty_types, -1 otherwise. */
extern int selinux_check_securetty_context(const char *tty_context);

/*
 * Use mnt as the selinuxfs mount point instead of the one discovered at
 * library load.  Not thread safe.  (The mount point is also exported as
 * the variable "char *selinux_mnt", as in the established library.)
 */
extern void set_selinuxmnt(const char *mnt);

/* 1 if the running kernel knows the selinuxfs filesystem, 0 if not. */
extern int selinuxfs_exists(void);

/* Forget the selinuxfs mount point; selinux_mnt becomes NULL. */
extern void fini_selinuxmnt(void);

/*
 * Set the exec context the policy gives a program.  It is the transition
 * of the current context on the label of filename, or else the current
 * context with fallback_type.  0, or -1 and errno.
 */
extern int setexecfilecon(const char *filename, const char *fallback_type);

#ifndef DISABLE_RPM
/* Deprecated: setexecfilecon() then execve().  Returns only on error. */
extern int rpm_execcon(unsigned int verified, const char *filename,
		       char *const argv[], char *const envp[])
#ifdef __GNUC__
	__attribute__((deprecated("Use setexecfilecon and execve")))
#endif
	;
#endif

/* 1 if scontext's type is in customizable_types, 0 if not, -1 on error. */
extern int is_context_customizable(const char *scontext);

/*
 * Translate between the human-readable (mcstrans) and raw forms.  Without
 * a translation daemon the result is a copy.  Returns 0 and the result
 * (free with freecon()); NULL in gives NULL out and 0; -1 with ENOMEM.
 */
extern int selinux_trans_to_raw_context(const char *trans, char **rawp);
extern int selinux_raw_to_trans_context(const char *raw, char **transp);

/*
 * The display colours of a context, from secolor.conf.  They are ten
 * "#rrggbb" triples separated by spaces, in *color_str (free with
 * free()).  0, or -1.
 */
extern int selinux_raw_context_to_color(const char *raw, char **color_str);

/*
 * SELinux user and MLS level of Linux user linuxuser from seusers.
 * Returns 0 and two malloc'd strings (level may be NULL without MLS), or
 * -1 and errno.
 */
extern int getseuserbyname(const char *linuxuser, char **seuser, char **level);

/* As getseuserbyname(), honouring per-service entries of seusers. */
extern int getseuser(const char *username, const char *service,
		     char **r_seuser, char **r_level);

/* 0 if file contexts a and b are equal ignoring their user, else != 0. */
extern int selinux_file_context_cmp(const char *a, const char *b);

/*
 * Check a file's label against file_contexts.  Does the label of path
 * match what file_contexts says for it and mode?  1 if it does, 0 if not,
 * -1 on error.
 */
extern int selinux_file_context_verify(const char *path, mode_t mode);

/* Set the label of path (not following symlinks) to its file_contexts
 * default.  0, or -1 and errno. */
extern int selinux_lsetfilecon_default(const char *path);

/*
 * Forget the configuration read from /etc/selinux/config so it is read
 * again.  Not thread safe: no other thread may be inside the library.
 */
extern void selinux_reset_config(void);

#ifdef __cplusplus
}
#endif
#endif
