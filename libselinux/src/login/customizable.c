/* login/customizable.c: types restorecon leaves alone (customizable_types). */
#include <pthread.h>
#include <string.h>

#include <selinux/context.h>

#include "internal.h"

/*
 * The list is read once per process, at the first call, as the reference
 * does (later selinux_set_policy_root() calls do not change it).  Written
 * under types_once only (and by the single-threaded test hook); NULL when
 * the file is missing or lists nothing.
 */
static pthread_once_t types_once = PTHREAD_ONCE_INIT;
static char **types;

/*
 * One type a line, leading whitespace skipped, blank lines ignored.  Each
 * line loses its last character, meant to be the newline, as in the
 * reference; lines are read in chunks of a page.
 */
static void types_load(void)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *buf = NULL;
	size_t n = 0, cap = 0, size = (size_t)core_page_size;
	char **v = NULL;

	if (login_fopen(selinux_customizable_types_path(), &f) < 0)
		return;
	buf = malloc(size);
	if (!buf)
		return;
	while (fgets(buf, (int)size, f)) {
		size_t len = strlen(buf);
		char *p;

		if (len)
			buf[len - 1] = '\0';
		p = login_skip_space(buf);
		if (!*p)
			continue;
		if (n + 2 > cap) {
			char **nv =
			    realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n] = strdup(p);
		if (!v[n])
			break;
		v[++n] = NULL;
	}
	types = n ? v : (free(v), NULL);
}

static int customizable(const char *scontext)
{
	context_t c;
	const char *type;
	int r = 0;

	pthread_once(&types_once, types_load);
	if (!types)
		return -ENOENT;
	if (!scontext)
		return -EINVAL;
	c = context_new(scontext);
	if (!c)
		return login_errno();
	type = context_type_get(c);
	if (!type)
		r = -EINVAL;
	for (char **p = types; type && *p; p++)
		if (!strcmp(*p, type)) {
			r = 1;
			break;
		}
	context_free(c);
	return r;
}

_public_ int is_context_customizable(const char *scontext)
{
	return RET_ERRNO(customizable(scontext));
}

void login_customizable_reset(void)
{
	if (types)
		for (char **p = types; *p; p++)
			free(*p);
	free(types);
	types = NULL;
	types_once = (pthread_once_t)PTHREAD_ONCE_INIT;
}
