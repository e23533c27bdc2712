/*
 * restore/: the relabel walk (selinux_restorecon, _parallel) and the
 * security.sehash digests (selinux_restorecon_xattr), a layer above
 * label/: it asks label/ for answers through label/internal.h, and
 * nothing in label/ calls it.
 *
 *   settings.c     what the public API keeps process-wide: the handle,
 *                  the alternate root, the exclude list, the last walk's
 *                  counts (selinux_restorecon_set_*, _get_*)
 *   log.c          the walk's messages, batched per thread
 *   restorecon.c   selinux_restorecon(_parallel): a walk's start and end
 *   entry.c        what a walk does with each entry it finds
 *   walk_seq.c     the walk in one thread, in fts's order
 *   walk_par.c     the walk in several threads
 *   assoc.c        ADD_ASSOC's inode table
 *   xattr.c        selinux_restorecon_xattr
 *   release.h      what 3.4, 3.8.1 and 3.11 do differently here
 *
 * walk.h has the walk's context, shared by the files of the walk only.
 */
#ifndef SELINUX_RESTORE_INTERNAL_H
#define SELINUX_RESTORE_INTERNAL_H

#include <stdbool.h>

#include "../label/internal.h"

/* Where a directory's digest of its partial matches is kept. */
#define SEHASH_XATTR "security.sehash"
/* File systems whose labels need no restoring (nothing kept on disk). */
#define RAMFS_MAGIC 0x858458f6
#define TMPFS_MAGIC 0x01021994
#define SYSFS_MAGIC 0x62656572

/* settings.c: the process-wide settings both walks read. */
/* The handle set by selinux_restorecon_set_sehandle, or the default one
 * opened on first use; *have_digest (unless NULL): it was opened with
 * SELABEL_OPT_DIGEST.  0 or -errno. */
int rst_handle(struct selabel_handle **h, bool *have_digest);
/* Is path under an excluded directory (the caller's list, or a mount
 * that does not support labels)? */
bool rst_excluded(const char *path);
/* Read the non-seclabel mounts into the exclude list, once. */
void rst_read_mounts(void);
/* Whether a mount's options (/proc/mounts' fourth field, comma-separated;
 * changed by the call) include seclabel. */
bool rst_has_seclabel(char *opts);
/* A copy of the alternate root (NULL: none) and its length, without a
 * trailing '/'.  0 or -ENOMEM. */
int rst_alt_root(char **root, size_t *len);
/* Is con's type one of customizable_types (read once)? */
bool rst_customizable(const char *con);
/* What selinux_restorecon_get_relabeled_files and _get_skipped_errors
 * answer: set at the start of a walk (0, 0) and at its end. */
void rst_set_results(unsigned long relabeled, unsigned long skipped);

/* log.c: messages to the SELINUX_CB_LOG callback, serialized. */
void rst_log(int type, const char *fmt, ...) _printf_(2, 3);
/* A thread of a parallel walk keeps its messages in a batch of its own
 * from _begin to _end; _flush hands the batch over now.  Without the
 * memory for a batch, messages go out at once. */
void rst_log_batch_begin(void);
bool rst_log_batch_pending(void);
void rst_log_batch_flush(void);
void rst_log_batch_end(void);

#endif
