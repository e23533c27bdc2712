/*
 * label/file/tree.h: the specs as libselinux 3.8 and later hold them, a
 * tree of path components (the one a version 6 file_contexts.bin
 * holds): built once here for its writer (bin6_write.c) and for what a
 * program sees of it - selabel_cmp()'s answer and messages, the order
 * and wording of selabel_stats(), VALIDATE's duplicate check.  Used when
 * the build follows 3.8 or later (release.h); 3.4's flat list is
 * ops.c's.
 */
#ifndef SELINUX_LABEL_FC_TREE_H
#define SELINUX_LABEL_FC_TREE_H

#include <selinux/label.h>

#include "fc.h"

/*
 * The tree: a spec sits in the node of the first (at most FC_BIN6_DEPTH)
 * components of its path that are plain text, each followed by a '/'
 * (a literal's walk starts at a '/', a regex's at its first character,
 * whatever it is, and stops at its first component that is not plain
 * text, fc_bin6_next).  Specs are named by their index in the caller's
 * array; a node's lists are in the order added until fc_t6_sort.
 */
struct fc_t6node {
	char *stem;		   /* NULL for the root */
	uint32_t *lit, nlit, alit; /* literal specs */
	uint32_t *re, nre, are;	   /* regex specs */
	struct fc_t6node *kid;
	uint32_t nkid, akid;
};

struct fc_t6 {
	char **lit; /* per spec: its literal (fc_bin6_simplify), or NULL */
	uint32_t nspec;
	struct fc_t6node root;
};

/* An empty tree for nspec specs: 0 or -ENOMEM. */
int fc_t6_init(struct fc_t6 *t, uint32_t nspec);
/* Spec i (< nspec), whose regex is re, added to its node: 0 or -errno.
 * A component of max_stem bytes or more ends a regex's walk there, and
 * fails a literal's with -EOVERFLOW (the .bin's 16-bit lengths). */
int fc_t6_add(struct fc_t6 *t, uint32_t i, const char *re, size_t max_stem);
/* Each node's literal specs by cmp_lit, its regex specs by cmp_re
 * (unless NULL), its children by stem, all the way down. */
void fc_t6_sort(struct fc_t6node *n,
		int (*cmp_lit)(const void *, const void *, void *),
		int (*cmp_re)(const void *, const void *, void *), void *u);
void fc_t6_free(struct fc_t6 *t);

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
