/* context/context_str.c: context_str and context_to_str. */
#include <string.h>

#include "internal.h"

/*
 * The present components joined by colons, into a malloc'd buffer.  An
 * absent role or type is skipped, not left empty: the established library
 * prints "u:t:s0" for a context whose role was set to NULL.
 */
static int format(const struct ctx *c, char **out, size_t *outlen)
{
	size_t len = 0;
	char *buf, *p;
	bool first = true;

	for (int i = 0; i < CTX_NCOMP; i++)
		if (c->comp[i])
			len += strlen(c->comp[i]) + 1;
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	p = buf;
	for (int i = 0; i < CTX_NCOMP; i++) {
		size_t n;

		if (!c->comp[i])
			continue;
		if (!first)
			*p++ = ':';
		first = false;
		n = strlen(c->comp[i]);
		memcpy(p, c->comp[i], n);
		p += n;
	}
	*p = '\0';
	*out = buf;
	*outlen = (size_t)(p - buf);
	return 0;
}

_public_ SELINUX_CONST_SINCE_3_8 char *context_str(context_t con)
{
	struct ctx *c = ctx_of(con);
	_cleanup_free_ char *s = NULL;
	size_t len;
	int r;

	if (!c) {
		errno = EINVAL;
		return NULL;
	}
	r = format(c, &s, &len);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	/*
	 * Reuse the cached buffer; realloc usually keeps the pointer, as
	 * the established library's does, for callers that held on to it.
	 */
	if (!c->str || c->strcap <= len) {
		char *bigger = realloc(c->str, len + 1);

		if (!bigger) {
			errno = ENOMEM;
			return NULL;
		}
		c->str = bigger;
		c->strcap = len + 1;
	}
	memcpy(c->str, s, len + 1);
	return c->str;
}

_public_ char *context_to_str(context_t con)
{
	struct ctx *c = ctx_of(con);
	char *s = NULL;
	size_t len;
	int r;

	if (!c) {
		errno = EINVAL;
		return NULL;
	}
	r = format(c, &s, &len);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	return s;
}
