/* context/component.c: the getters and setters of context_t. */
#include <string.h>

#include "internal.h"

static const char *get(context_t con, enum ctx_component which)
{
	struct ctx *c = ctx_of(con);

	if (!c) {
		errno = EINVAL;
		return NULL;
	}
	return c->comp[which];
}

/*
 * Replace one component; the others keep their storage, so pointers the
 * caller got from their getters stay valid.  NULL removes the component,
 * except the user, which every context has.
 */
static int set(context_t con, enum ctx_component which, const char *value)
{
	struct ctx *c = ctx_of(con);
	char *copy = NULL;

	if (!c)
		return -EINVAL;
	if (value) {
		if (!ctx_valid_component(which, value, strlen(value), true))
			return -EINVAL;
		copy = strdup(value);
		if (!copy)
			return -ENOMEM;
	} else if (which == CTX_USER) {
		return -EINVAL;
	}
	free(c->comp[which]);
	/*
	 * analyzer: false positive (gcc malloc-leak): copy is now owned by the
	 * context, reachable from con and freed by context_free(); GCC 12 loses
	 * stores through an index it cannot bound.
	 */
	c->comp[which] = copy;
	return 0;
}

_public_ const char *context_user_get(context_t con)
{
	return get(con, CTX_USER);
}

_public_ const char *context_role_get(context_t con)
{
	return get(con, CTX_ROLE);
}

_public_ const char *context_type_get(context_t con)
{
	return get(con, CTX_TYPE);
}

_public_ const char *context_range_get(context_t con)
{
	return get(con, CTX_RANGE);
}

_public_ int context_user_set(context_t con, const char *user)
{
	return RET_ERRNO(set(con, CTX_USER, user));
}

_public_ int context_role_set(context_t con, const char *role)
{
	return RET_ERRNO(set(con, CTX_ROLE, role));
}

_public_ int context_type_set(context_t con, const char *type)
{
	return RET_ERRNO(set(con, CTX_TYPE, type));
}

_public_ int context_range_set(context_t con, const char *range)
{
	return RET_ERRNO(set(con, CTX_RANGE, range));
}
