/* login/default_context.c: the preferred session context of a user. */
#include <string.h>

#include <selinux/context.h>
#include <selinux/get_context_list.h>

#include "internal.h"

static void conaryp(char ***v)
{
	if (*v)
		freeconary(*v);
}

/* The first of the list whose role is role (NULL: the first of all). */
static int pick(const char *user, const char *fromcon, const char *role,
		char **newcon)
{
	__attribute__((cleanup(conaryp))) char **list = NULL;
	int r;

	if (!newcon)
		return -EINVAL;
	r = login_context_list(user, fromcon, &list);
	if (r < 0)
		return r;
	for (char **p = list; *p; p++) {
		context_t c;
		bool match;

		if (!role) {
			*newcon = strdup(*p);
			return *newcon ? 0 : -ENOMEM;
		}
		c = context_new(*p);
		if (!c)
			continue;
		match =
		    context_role_get(c) && !strcmp(context_role_get(c), role);
		context_free(c);
		if (match) {
			*newcon = strdup(*p);
			return *newcon ? 0 : -ENOMEM;
		}
	}
	return -EINVAL;
}

static int pick_level(const char *user, const char *fromcon, const char *role,
		      const char *level, char **newcon)
{
	_cleanup_free_ char *from = NULL;
	int r;

	if (level) {
		r = login_with_level(fromcon, level, &from);
		if (r < 0)
			return r;
		fromcon = from;
	}
	return pick(user, fromcon, role, newcon);
}

_public_ int get_default_context(const char *user, const char *fromcon,
				 char **newcon)
{
	return RET_ERRNO(pick(user, fromcon, NULL, newcon));
}

_public_ int get_default_context_with_level(const char *user, const char *level,
					    const char *fromcon, char **newcon)
{
	return RET_ERRNO(pick_level(user, fromcon, NULL, level, newcon));
}

/* A NULL role is refused (EINVAL); the reference crashes on it. */
_public_ int get_default_context_with_role(const char *user, const char *role,
					   const char *fromcon, char **newcon)
{
	if (!role)
		return RET_ERRNO(-EINVAL);
	return RET_ERRNO(pick(user, fromcon, role, newcon));
}

_public_ int get_default_context_with_rolelevel(const char *user,
						const char *role,
						const char *level,
						const char *fromcon,
						char **newcon)
{
	if (!role)
		return RET_ERRNO(-EINVAL);
	return RET_ERRNO(pick_level(user, fromcon, role, level, newcon));
}
