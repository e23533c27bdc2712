/* context/context_new.c: context_new and context_free. */
#include <string.h>

#include "internal.h"

static void ctx_release(struct ctx *c)
{
	if (!c)
		return;
	for (int i = 0; i < CTX_NCOMP; i++)
		free(c->comp[i]);
	free(c->str);
	free(c);
}

/*
 * Copy len bytes of s as component which.  The last component of the
 * string (the type when there is no third colon, else the range) is
 * absent when empty; the others are kept as empty strings.  That is the
 * established library's result for "u:r:" (no type) and "u::t" (role "").
 */
static int take(struct ctx *c, enum ctx_component which, const char *s,
		size_t len, bool last)
{
	if (!ctx_valid_component(which, s, len, false))
		return -EINVAL;
	if (last && len == 0)
		return 0;
	c->comp[which] = strndup(s, len);
	return c->comp[which] ? 0 : -ENOMEM;
}

static int parse(const char *str, context_t *out)
{
	struct ctx *c = NULL;
	const char *p = str, *colon;
	context_t con;
	int r = 0;

	if (!str)
		return -EINVAL;
	/* Fewer than two colons is not a context. */
	colon = strchr(str, ':');
	if (!colon || !strchr(colon + 1, ':'))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (int i = CTX_USER; i <= CTX_TYPE && r >= 0; i++) {
		colon = strchr(p, ':');
		if (i < CTX_TYPE) {
			r = take(c, i, p, (size_t)(colon - p), false);
			p = colon + 1;
		} else if (colon) {
			r = take(c, i, p, (size_t)(colon - p), false);
			if (r >= 0)
				r = take(c, CTX_RANGE, colon + 1,
					 strlen(colon + 1), true);
		} else {
			r = take(c, i, p, strlen(p), true);
		}
	}
	if (r < 0) {
		ctx_release(c);
		return r;
	}
	con = malloc(sizeof(*con));
	if (!con) {
		ctx_release(c);
		return -ENOMEM;
	}
	con->ptr = c;
	*out = con;
	return 0;
}

_public_ context_t context_new(const char *str)
{
	context_t con = NULL;
	int r = parse(str, &con);

	if (r < 0) {
		errno = -r;
		return NULL;
	}
	return con;
}

_public_ void context_free(context_t con)
{
	if (!con)
		return;
	ctx_release(con->ptr);
	free(con);
}
