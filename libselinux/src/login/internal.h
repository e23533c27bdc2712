/* login/: what login programs ask: seusers, session contexts, types. */
#ifndef SELINUX_LOGIN_INTERNAL_H
#define SELINUX_LOGIN_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include <selinux/selinux.h>

#include "../core/internal.h"

/*
 * Helpers return >= 0 or -errno and leave errno alone; the exported
 * functions end in RET_ERRNO().  Public calls of lower layers (context_new,
 * security_check_context...) report through errno, which the helpers turn
 * into -errno at once with login_errno().
 */

/* -errno of a failed public call, -EINVAL when it left errno at 0. */
static inline int login_errno(void)
{
	return errno > 0 ? -errno : -EINVAL;
}

/* lines.c */
/* Open a policy file read-only, close-on-exec; -errno (path NULL: ENOENT). */
int login_fopen(const char *path, FILE **f);
/* Skip spaces and tabs (isspace) from s. */
char *login_skip_space(char *s);
/* First whitespace or NUL at or after s. */
char *login_skip_word(char *s);

/* seusers.c: the seusers lookup (user, %group, __default__). */
int login_seuser_by_name(const char *name, char **seuser, char **level);

/* context_list.c: the ordered session contexts; count or -errno. */
int login_context_list(const char *user, const char *fromcon, char ***list);
/* fromcon (NULL: getcon) with its range set to level, malloc'd. */
int login_with_level(const char *fromcon, const char *level, char **out);

/* default_type.c */
int login_default_type(const char *role, char **type);

/* customizable.c: test hook, forget the cached list (single-threaded). */
void login_customizable_reset(void);

#endif
