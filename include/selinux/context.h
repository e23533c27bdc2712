/*
 * context.h - take a security context string apart and put it together.
 *
 * A context_t holds the four components of "user:role:type[:range]" as
 * separate strings.  Nothing here talks to the kernel: a context_t is not
 * checked against any policy, only against the syntax rules below, which
 * are those of the established libselinux (measured on Debian's 3.4):
 *
 *  - context_new() splits at the first three colons: user, role, type,
 *    and everything after the third colon is the range, colons included
 *    ("u:r:t:s0-s1:c0.c3" has range "s0-s1:c0.c3").  At least two colons
 *    are needed.  A last component that is empty is absent (NULL):
 *    "u:r:" has no type, "u:r:t:" no range; an empty user or role, or an
 *    empty type followed by a colon, is the empty string.
 *  - user, role and type may not contain a space, tab, CR or LF; the range
 *    may not contain a tab, CR or LF (it may contain spaces).
 *  - The setters apply the same rules, and additionally refuse a colon in
 *    user, role and type.
 */
#ifndef _SELINUX_CONTEXT_H_
#define _SELINUX_CONTEXT_H_

#include <selinux/release.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An opaque handle; ptr belongs to the library. */
typedef struct {
	void *ptr;
} context_s_t;

typedef context_s_t *context_t;

/*
 * Parse str into a new context.  Returns the context (release it with
 * context_free()), or NULL with errno EINVAL when str is NULL or breaks a
 * rule above, ENOMEM when out of memory.
 */
extern context_t context_new(const char *str);

/*
 * The context as a string: its present components joined by colons.  The
 * string belongs to con and stays valid until the next context_str() or
 * context_free() on it.  NULL with errno EINVAL when con is NULL, ENOMEM
 * when out of memory.
 *
 * The result is "const char *" since 3.8, "char *" before: this header
 * follows the release the library was built for (selinux/release.h).
 */
extern SELINUX_CONST_SINCE_3_8 char *context_str(context_t con);

/*
 * As context_str(), but the caller owns the result and frees it with
 * free().  NULL with errno EINVAL (con NULL) or ENOMEM.  (LIBSELINUX_3.9)
 */
extern char *context_to_str(context_t con);

/* Release con and every string it handed out.  NULL is a no-op. */
extern void context_free(context_t con);

/*
 * A component of con, or NULL when it is absent (or con is NULL: errno
 * EINVAL).  The string belongs to con and stays valid until that
 * component is set again or con is freed.
 */
extern const char *context_type_get(context_t con);
extern const char *context_range_get(context_t con);
extern const char *context_role_get(context_t con);
extern const char *context_user_get(context_t con);

/*
 * Replace a component with a copy of the string given.  Returns 0, or -1
 * with errno EINVAL when the value breaks a rule above (con unchanged) or
 * con is NULL, ENOMEM when out of memory.  NULL removes the role, type or
 * range component (as the established library does, the context string
 * then simply lacks it); the user cannot be removed (NULL is EINVAL).
 */
extern int context_type_set(context_t con, const char *type);
extern int context_range_set(context_t con, const char *range);
extern int context_role_set(context_t con, const char *role);
extern int context_user_set(context_t con, const char *user);

#ifdef __cplusplus
}
#endif
#endif
