/*
 * label/file/release.h: every way the file backend behaves otherwise for
 * the release the build replaces (meson -Dcompat, core/compat.h: Debian
 * 12's 3.4, Debian 13's 3.8.1, upstream's 3.11), by name.  The backend's
 * code asks these and never compat_since() itself; each rule was measured
 * with the release's own programs (tests/release, README "Which release a
 * build replaces" gives the cases that show it).
 *
 *   rule                  3.4              3.8.1              3.11
 *   rel_bin_version()     5                6                  6
 *     the .bin sefcontext_compile writes by default; a .bin of an older
 *     version is read (3.4), or skipped with "Old compiled fcontext
 *     format, skipping" and the text read instead (3.8.1, 3.11: bin.c)
 *   rel_literals()        REL_34           REL_38             REL_311
 *     several literal specs of one path (open.c's rank_literals, and the
 *     order sefcontext_compile writes them in a version 6 .bin,
 *     bin6_write.c): the last read wins (3.4); by file kind, then the
 *     first read (3.8.1); the later file, in one file the first (3.11)
 *   rel_tree()            false            true               true
 *     selabel_cmp, selabel_stats and SELABEL_OPT_VALIDATE's duplicate
 *     check walk the version 6 tree, in its order and words (tree.c);
 *     3.4 walks its flat list (ops.c, open.c's check_dups)
 *   rel_partial_digest()  REL_34           REL_38             REL_311
 *     selabel_hash_all_partial_matches (restorecon's security.sehash):
 *     the flat list's partial matches (3.4, ops.c); the tree's chain from
 *     the key's directory up to the root (3.8.1), the subtrees under the
 *     key's last component first (3.11) (partial6.c)
 */
#ifndef SELINUX_LABEL_FILE_RELEASE_H
#define SELINUX_LABEL_FILE_RELEASE_H

#include <stdbool.h>

#include "../../core/compat.h"

/* The releases, as core_compat numbers them (ordered: a later release
 * compares higher). */
#define REL_34 304u
#define REL_38 308u
#define REL_311 311u

/* The release of the build, as one of the above. */
static inline unsigned rel_build(void)
{
	return compat_since(3, 11)  ? REL_311
	       : compat_since(3, 8) ? REL_38
				    : REL_34;
}

static inline int rel_bin_version(void)
{
	return rel_build() >= REL_38 ? 6 : 5;
}

static inline unsigned rel_literals(void)
{
	return rel_build();
}

static inline bool rel_tree(void)
{
	return rel_build() >= REL_38;
}

static inline unsigned rel_partial_digest(void)
{
	return rel_build();
}

#endif
