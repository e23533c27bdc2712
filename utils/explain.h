/* utils/explain.h: printing a selabel_lookup_explain() answer (-x). */
#ifndef UTILS_EXPLAIN_H
#define UTILS_EXPLAIN_H

#include <stdio.h>

#include <selinux/label_explain.h>

/*
 * selabel_lookup_explain() and selabel_explanation_free() of the
 * libselinux.so.1 loaded, found at run time (dlvsym, version node
 * SELINUX_EXPLAIN_1.0): the utilities also run on libraries without them
 * (Debian's), where util_explain() fails with ENOSYS and -x is refused.
 */
int util_explain(struct selabel_handle *h, struct selabel_explanation **e,
		 const char *key, int type);
/* Has the library loaded selabel_lookup_explain()? */
int util_can_explain(void);
void util_explanation_free(struct selabel_explanation *e);

/*
 * Print e to out, for people: the context (or why there is none), the
 * path as matched and the alias that rewrote it, the spec that won with
 * its file and line, its file type, then each spec it overrode and why,
 * and the specs that would match another file type.  One line opens with
 * "PATH<TAB>CONTEXT" (or "<<none>>"), as matchpathcon prints it; the
 * others are indented by 4 spaces.
 */
void util_explain_print(FILE *out, const struct selabel_explanation *e);

#endif
