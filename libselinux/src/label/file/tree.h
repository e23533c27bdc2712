/*
 * label/fc_tree.h: the specs as libselinux 3.8 and later hold them, a
 * tree of path components, for what a program sees of that tree:
 * selabel_cmp()'s answer and messages, and the order and wording of
 * selabel_stats().  Used when the build follows 3.8 or later
 * (core/compat.h); 3.4's flat list is fc_lookup.c's.
 */
#ifndef SELINUX_LABEL_FC_TREE_H
#define SELINUX_LABEL_FC_TREE_H

#include <selinux/label.h>

#include "fc.h"

/* selabel_cmp() of two file handles' specs, as 3.8 and 3.11 compare
 * them, with their SELINUX_INFO messages on a mismatch.  A spec set
 * that cannot be walked (no memory) is SELABEL_INCOMPARABLE. */
enum selabel_cmp_result fc_tree_cmp(const struct fc_data *a,
				    const struct fc_data *b);

/* selabel_stats(): each spec no lookup matched (used, per spec; NULL:
 * none matched), in the tree's order, its file type in words. */
void fc_tree_stats(const struct fc_data *d, const uint8_t *used);

/* SELABEL_OPT_VALIDATE's check of the specs read from files [0,
 * nfiles) (the base file), once d is sorted (label_file.c): specs of one
 * path whose file types meet (equal, or either none) are refused, each
 * pair said as 3.8 and 3.11 say it (SELINUX_ERROR, PATH: "Multiple
 * same/different specifications for TYPE REGEX ..."), in the tree's
 * order; but of the literal specs only those next to each other in a
 * node's order are compared (3.8 and 3.11 do so).  0, -EINVAL after the
 * messages, or -ENOMEM. */
int fc_tree_check_dups(const struct fc_data *d, uint32_t nfiles,
		       const char *path);

#endif
