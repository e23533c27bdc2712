/* login/securetty.c: terminals root may log in on (securetty_types). */
#include <string.h>

#include <selinux/context.h>

#include "internal.h"

/*
 * 0 when the type of tty_context is listed (the first word of a line),
 * -ENOENT when not, as the reference: it answers -1 and leaves errno
 * alone there; we set ENOENT rather than leave a stale value.
 */
static int securetty(const char *tty_context)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	context_t c;
	const char *type;
	size_t cap = 0;
	ssize_t len;
	int r;

	r = login_fopen(selinux_securetty_types_path(), &f);
	if (r < 0)
		return r;
	if (!tty_context)
		return -EINVAL;
	c = context_new(tty_context);
	if (!c)
		return login_errno();
	type = context_type_get(c);
	r = -ENOENT;
	while (type && (len = getline(&line, &cap, f)) != -1) {
		char *p;

		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		p = login_skip_space(line);
		if (!*p)
			continue;
		*login_skip_word(p) = '\0';
		if (!strcmp(type, p)) {
			r = 0;
			break;
		}
	}
	context_free(c);
	return r;
}

_public_ int selinux_check_securetty_context(const char *tty_context)
{
	return RET_ERRNO(securetty(tty_context));
}
