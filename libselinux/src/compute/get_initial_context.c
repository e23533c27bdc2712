/* compute/get_initial_context.c: security_get_initial_context, _raw. */
#include <limits.h>
#include <string.h>

#include "internal.h"

/*
 * initial_contexts/NAME holds the context of an initial SID and its NUL.
 * A name with a slash would reach outside the directory (the established
 * library reads "initial_contexts/../enforce"); no SID is called that,
 * so it is ENOENT, the answer for any other name the policy lacks.
 */
static int get_initial_context_raw(const char *name, char **con)
{
	_cleanup_free_ char *buf = NULL;
	char rel[PATH_MAX];
	ssize_t n;

	if (!selinux_mnt)
		return -ENOENT;
	if (!name || strchr(name, '/'))
		return -ENOENT;
	if (!con)
		return -EINVAL;
	if (snprintf(rel, sizeof(rel), "initial_contexts/%s", name) >=
	    (int)sizeof(rel))
		return -ENAMETOOLONG;
	buf = malloc((size_t)core_page_size);
	if (!buf)
		return -ENOMEM;
	n = core_fs_read(rel, buf, (size_t)core_page_size);
	if (n < 0)
		return (int)n;
	return comp_answer_con(buf, n, con);
}

_public_ int security_get_initial_context_raw(const char *name, char **con)
{
	return RET_ERRNO(get_initial_context_raw(name, con));
}

static int get_initial_context(const char *name, char **con)
{
	_cleanup_free_ char *raw = NULL;
	int r = get_initial_context_raw(name, &raw);

	if (r < 0)
		return r;
	return core_raw_to_trans(raw, con);
}

_public_ int security_get_initial_context(const char *name, char **con)
{
	return RET_ERRNO(get_initial_context(name, con));
}
