/* context/: context_t, the four components of a context string. */
#ifndef SELINUX_CONTEXT_INTERNAL_H
#define SELINUX_CONTEXT_INTERNAL_H

#include <stdbool.h>

#include <selinux/context.h>

#include "../macro.h"

enum ctx_component { CTX_USER, CTX_ROLE, CTX_TYPE, CTX_RANGE, CTX_NCOMP };

/*
 * What context_s_t.ptr points to.  comp[i] is NULL when the component is
 * absent; str caches the last context_str() result (its capacity strcap
 * lets a later call reuse the same buffer, as the established library's
 * pointer stays the same across calls).  A context_t is not shared
 * between threads by the library; callers serialise their own use.
 */
struct ctx {
	char *comp[CTX_NCOMP];
	char *str;
	size_t strcap;
};

/* The struct behind con, or NULL when con (or its ptr) is NULL. */
static inline struct ctx *ctx_of(context_t con)
{
	return con ? con->ptr : NULL;
}

/*
 * Whether value may be component which.  user, role and type refuse
 * space, tab, CR and LF; the range refuses tab, CR and LF only.  With
 * setter, a colon is refused too in user, role and type (context_new
 * splits at colons, so it never sees one there).
 */
bool ctx_valid_component(enum ctx_component which, const char *value,
			 size_t len, bool setter);

#endif
