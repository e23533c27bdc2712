/*
 * selinux/restorecon.h: relabel files from the file_contexts in force.
 *
 * selinux_restorecon() walks a path (optionally a whole tree), asks a
 * file-contexts selabel handle for each file's context and writes it to
 * the file's security.selinux attribute where it differs.  setfiles(8) and
 * restorecon(8) are thin front ends to it.
 *
 * Process-wide, by this API's definition: the settings of the
 * configuration calls (set_sehandle, set_exclude_list, set_alt_rootpath),
 * which every later relabelling uses - make them before starting walks in
 * other threads; a walk takes the alternate root and the handle at its
 * start - and the counts of get_skipped_errors and get_relabeled_files,
 * which each walk resets when it starts and sets when it ends (with walks
 * in several threads at once, they tell of whichever did so last).  The
 * non-seclabel mounts (/proc/mounts) and customizable_types are read once
 * per process.  Everything else is the walk's own: walks in several
 * threads at once share no state but the handle they read (the record
 * of the inodes seen of ADD_ASSOC, the progress count and the digests to
 * write are each walk's).
 * Messages go to the SELINUX_CB_LOG callback (selinux_set_callback()),
 * one call at a time.
 */
#ifndef _RESTORECON_H_
#define _RESTORECON_H_

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

/* selinux_restorecon_set_sehandle() takes a label handle; since upstream
 * 3.8 this header brings selabel_open() and SELABEL_* along with it. */
#include <selinux/label.h>

#ifdef __cplusplus
extern "C" {
#endif

struct selabel_handle;

/*
 * Relabel pathname according to restorecon_flags (SELINUX_RESTORECON_*
 * below).  The first call without a handle set opens one with
 * selinux_restorecon_default_handle().
 *
 * Returns 0 on success, also when pathname does not exist and
 * SELINUX_RESTORECON_IGNORE_NOENTRY is set, or when errors were only
 * counted (SELINUX_RESTORECON_COUNT_ERRORS; see
 * selinux_restorecon_get_skipped_errors()).  Returns -1 with errno set on
 * failure: ENOENT (no such path), EINVAL (a path outside the alternate
 * root), ELOOP (a directory cycle), ENOMEM, or the errno of the failing
 * lstat/setxattr.  Files that could not be relabelled are logged.
 *
 * Example: relabel the trees named on the command line and print each change,
 * as restorecon -R -v does:
 *   #include <stdio.h>
 *   #include <selinux/restorecon.h>
 *
 *   int main(int argc, char **argv)
 *   {
 *       unsigned int flags = SELINUX_RESTORECON_RECURSE |
 *                            SELINUX_RESTORECON_VERBOSE;
 *       int rc = 0;
 *
 *       for (int i = 1; i < argc; i++) {
 *           if (selinux_restorecon(argv[i], flags) < 0) {
 *               perror(argv[i]);
 *               rc = 1;
 *           }
 *       }
 *       return rc;
 *   }
 */
extern int selinux_restorecon(const char *pathname,
			      unsigned int restorecon_flags);

/*
 * As selinux_restorecon(), walking the tree with nthreads threads
 * (0: one per online CPU).  The order of the log messages is then not
 * the walk's order.
 */
extern int selinux_restorecon_parallel(const char *pathname,
				       unsigned int restorecon_flags,
				       size_t nthreads);

/* restorecon_flags. */
/* Check labels even under a directory whose stored digest matches. */
#define SELINUX_RESTORECON_IGNORE_DIGEST 0x00001
/* Change nothing; with VERBOSE, say what would change. */
#define SELINUX_RESTORECON_NOCHANGE 0x00002
/* Set the whole spec context, not only its type (nor only its user, role
 * and type: SET_USER_ROLE changes nothing then); also overrides
 * customizable types. */
#define SELINUX_RESTORECON_SET_SPECFILE_CTX 0x00004
/* Descend into directories. */
#define SELINUX_RESTORECON_RECURSE 0x00008
/* Log each change (PROGRESS wins when both are set). */
#define SELINUX_RESTORECON_VERBOSE 0x00010
/* Print progress to stdout: a percentage with MASS_RELABEL, else the
 * number of files checked in thousands. */
#define SELINUX_RESTORECON_PROGRESS 0x00020
/* Resolve the path's parent directories with realpath(3) first. */
#define SELINUX_RESTORECON_REALPATH 0x00040
/* Stay on the file system the walk starts on: a directory or file found
 * on another (a mount point, a file bind-mounted into the tree) is left
 * alone, silently.  setfiles(8) always sets it. */
#define SELINUX_RESTORECON_XDEV 0x00080
/* Remember which context each inode got during the walk; a second hard
 * link keeps it (and one with another spec is logged as a conflict). */
#define SELINUX_RESTORECON_ADD_ASSOC 0x00100
/* Stop the walk at the first error. */
#define SELINUX_RESTORECON_ABORT_ON_ERROR 0x00200
/* Send each change to syslog(3). */
#define SELINUX_RESTORECON_SYSLOG_CHANGES 0x00400
/* Log the context each file matched. */
#define SELINUX_RESTORECON_LOG_MATCHES 0x00800
/* A missing pathname is not an error. */
#define SELINUX_RESTORECON_IGNORE_NOENTRY 0x01000
/* Do not exclude mounts lacking the seclabel option (/proc/mounts). */
#define SELINUX_RESTORECON_IGNORE_MOUNTS 0x02000
/* The whole system is being relabelled (PROGRESS shows a percentage). */
#define SELINUX_RESTORECON_MASS_RELABEL 0x04000
/* Neither read nor write the security.sehash digests. */
#define SELINUX_RESTORECON_SKIP_DIGEST 0x08000
/* With ADD_ASSOC, two hard links given different contexts are an error. */
#define SELINUX_RESTORECON_CONFLICT_ERROR 0x10000
/* Count errors of the walk instead of failing (see get_skipped_errors). */
#define SELINUX_RESTORECON_COUNT_ERRORS 0x20000
/*
 * The reference added the flags below after 3.4 (restorecon(8) -U and
 * -c, setfiles(8) -U).  Like any bit it does not know, 3.4 ignores them,
 * and so does 3.8.1 SET_USER_ROLE and SKIP_MULTILINK: a library built
 * for those releases (README, "Which release a build replaces") does the
 * same.
 *
 * Since 3.11: without SET_SPECFILE_CTX, set the spec's user and role as
 * well as its type; the file keeps its range (MLS level), and a
 * customizable type is still left alone.
 */
#define SELINUX_RESTORECON_SET_USER_ROLE 0x40000
/* Count the files relabelled (with NOCHANGE none are; see
 * selinux_restorecon_get_relabeled_files()). */
#define SELINUX_RESTORECON_COUNT_RELABELED 0x80000
/*
 * Since 3.11: leave alone (no lookup, no change, no error) every file but
 * a directory that has more than one hard link: in a tree others can
 * write, a link may lead to a file that belongs elsewhere.  Each one is
 * logged (SELINUX_INFO, VERBOSE or not): "Skipping PATH: file has
 * multiple links".
 */
#define SELINUX_RESTORECON_SKIP_MULTILINK 0x100000

/*
 * Use hndl (a SELABEL_CTX_FILE handle; the caller keeps ownership and must
 * keep it open while relabelling) for later calls.  Directory digests are
 * read and written only if hndl was opened with SELABEL_OPT_DIGEST.
 */
extern void selinux_restorecon_set_sehandle(struct selabel_handle *hndl);

/*
 * Open the default file-contexts handle of the policy in force, with
 * SELABEL_OPT_DIGEST.  Returns the handle (the caller closes it with
 * selabel_close()) or NULL with errno set by selabel_open().  It does not
 * install the handle: pass it to selinux_restorecon_set_sehandle().
 */
extern struct selabel_handle *selinux_restorecon_default_handle(void);

/*
 * Never relabel the directories of the NULL-terminated exclude_list (full
 * paths; an entry that does not exist is logged and ignored) nor anything
 * below them.  Adds to the list of earlier calls.
 */
extern void selinux_restorecon_set_exclude_list(const char **exclude_list);

/*
 * Label files under alt_rootpath as if it were "/".  The file
 * alt_rootpath/etc/x is looked up as /etc/x.  Trailing slashes are
 * ignored.  Returns 0, or -1 with errno ENOMEM.
 */
extern int selinux_restorecon_set_alt_rootpath(const char *alt_rootpath);

/* The result of selinux_restorecon_xattr() for one directory. */
enum digest_result {
	MATCH = 0,
	NOMATCH,
	DELETED_MATCH,
	DELETED_NOMATCH,
	ERROR
};

struct dir_xattr {
	char *directory;
	char *digest; /* the stored security.sehash as lower-case hex */
	enum digest_result result;
	struct dir_xattr *next;
};

/*
 * List or remove the security.sehash digests of directories.  They are
 * listed (and, with the DELETE flags, removed) for pathname and, with
 * SELINUX_RESTORECON_XATTR_RECURSE, the directories below it; directories
 * without a digest are not listed.
 *
 * On success returns 0 and, when at least one directory was listed,
 * points *xattr_list at the head pointer of a list the caller owns: free
 * each entry, its directory and its digest.  The head pointer itself is
 * the library's (per thread) and is reset by the next call.  xattr_list
 * may be NULL, as in the reference: the digests are then only removed
 * (DELETE flags), not listed.  Returns -1 with errno set on failure (no
 * handle, lstat, ENOMEM).
 */
extern int selinux_restorecon_xattr(const char *pathname,
				    unsigned int xattr_flags,
				    struct dir_xattr ***xattr_list);

/* xattr_flags. */
#define SELINUX_RESTORECON_XATTR_RECURSE 0x0001
/* Remove the digests that do not match the current file_contexts. */
#define SELINUX_RESTORECON_XATTR_DELETE_NONMATCH_DIGESTS 0x0002
/* Remove every digest found. */
#define SELINUX_RESTORECON_XATTR_DELETE_ALL_DIGESTS 0x0004
/* Do not read /proc/mounts. */
#define SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS 0x0008

/*
 * The number of errors the last relabelling walk ignored.  It counts them
 * for the last successful selinux_restorecon() with
 * SELINUX_RESTORECON_COUNT_ERRORS (0 otherwise).  Process-wide: a walk
 * sets it to 0 when it starts and to its count when it ends.
 */
extern long unsigned selinux_restorecon_get_skipped_errors(void);

/*
 * The number of files the last relabelling walk relabelled.  It counts
 * what the last selinux_restorecon() or selinux_restorecon_parallel() in
 * the process relabelled (with NOCHANGE: nothing, as 3.11 counts), only
 * when it was given SELINUX_RESTORECON_COUNT_RELABELED; 0 otherwise.
 * Also set when the walk failed: the files relabelled before the error.
 * Process-wide, as get_skipped_errors.  Version node LIBSELINUX_3.10, as
 * in the reference.
 */
extern long unsigned selinux_restorecon_get_relabeled_files(void);

#ifdef __cplusplus
}
#endif
#endif
