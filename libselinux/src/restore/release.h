/*
 * restore/release.h: what the relabel walk does differently for each
 * release a build replaces (-Dcompat; README, "Which release a build
 * replaces"), one name per difference.  The rest of restore/ asks these
 * names, never compat_since() itself.
 *
 *                        3.4              3.8.1            3.11
 *   SKIP_MULTILINK       ignored [1]      ignored          honoured [2]
 *   SET_USER_ROLE        ignored [1]      ignored          honoured [3]
 *   -v, unlabelled file  "from (null)"    "from <no        as 3.8.1
 *                                         context>"
 *   start path missing   "lstat(P)        "lstat(P)        "open(P) failed"
 *                        failed"          failed"
 *
 *   [1] as any bit it does not know
 *   [2] "Skipping P: file has multiple links" (SELINUX_INFO), no change
 *   [3] the spec's user and role as well as its type
 *
 * The same in every build (so not here): COUNT_RELABELED counts nothing
 * under NOCHANGE (3.11's rule; 3.4 and 3.8.1 have no such flag, and
 * the library exports get_relabeled_files in every build); XDEV leaves a
 * file of another file system alone; a directory cycle ends the walk
 * with ELOOP.  Measured in each release's root (tests/release, cases
 * sf.nv, sf.missing, sf.Uuser, py.restorecon-*; tests/unit/restore's
 * restore_flags-3.8 and -3.11 pin them).
 */
#ifndef SELINUX_RESTORE_RELEASE_H
#define SELINUX_RESTORE_RELEASE_H

#include <stdbool.h>

#include "../core/compat.h"

/* SELINUX_RESTORECON_SKIP_MULTILINK is honoured (3.11). */
static inline bool rst_rel_skip_multilink(void)
{
	return compat_since(3, 11);
}

/* SELINUX_RESTORECON_SET_USER_ROLE is honoured (3.11). */
static inline bool rst_rel_set_user_role(void)
{
	return compat_since(3, 11);
}

/* What a verbose walk prints for the old label of an unlabelled file:
 * 3.4 hands its null context to "%s", which glibc prints as "(null)". */
static inline const char *rst_rel_no_context(void)
{
	return compat_since(3, 8) ? "<no context>" : "(null)";
}

/* The call a failed start path is reported by, "CALL(P) failed": 3.11
 * opens the path before anything else. */
static inline const char *rst_rel_start_call(void)
{
	return compat_since(3, 11) ? "open" : "lstat";
}

#endif
