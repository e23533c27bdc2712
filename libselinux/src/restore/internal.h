/*
 * restore/: the relabel walk (selinux_restorecon, _parallel) and the
 * security.sehash digests (selinux_restorecon_xattr), above label/.
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

/* restorecon.c: the process-wide settings both walks read. */
/* The handle set by selinux_restorecon_set_sehandle, or the default one
 * opened on first use; *have_digest (unless NULL): it was opened with
 * SELABEL_OPT_DIGEST.  0 or -errno. */
int rst_handle(struct selabel_handle **h, bool *have_digest);
/* Is path under an excluded directory (the caller's list, or a mount
 * that does not support labels)? */
bool rst_excluded(const char *path);
/* Read the non-seclabel mounts into the exclude list, once. */
void rst_read_mounts(void);

#endif
