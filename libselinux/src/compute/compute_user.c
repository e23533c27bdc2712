/* compute/compute_user.c: security_compute_user and its _raw twin. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static void freeconaryp(char ***ary)
{
	freeconary(*ary);
}

/*
 * The kernel answers "user" with the count in decimal and its NUL, then
 * each context with its NUL.  The count is checked against what was
 * read: the established library trusts it and reads past the answer.
 */
static int parse_answer(const char *ans, size_t len, char ***out)
{
	_cleanup_(freeconaryp) char **ary = NULL;
	const char *p, *end = ans + len;
	unsigned int nel;

	if (sscanf(ans, "%u", &nel) != 1 || nel > len)
		return -EINVAL;
	ary = calloc((size_t)nel + 1, sizeof(*ary));
	if (!ary)
		return -ENOMEM;
	p = ans + strlen(ans) + 1;
	for (unsigned int i = 0; i < nel; i++) {
		size_t l;

		if (p >= end)
			return -EINVAL;
		l = strnlen(p, (size_t)(end - p));
		/*
		 * analyzer: false positive (gcc malloc-leak): each string is
		 * freed with ary by freeconaryp() on every error return;
		 * freeconary() is in another file, out of the analyzer's sight.
		 */
		ary[i] = strndup(p, l);
		if (!ary[i])
			return -ENOMEM;
		p += l + 1;
	}
	*out = TAKE_PTR(ary);
	return 0;
}

static int compute_user_raw(const char *scon, const char *user, char ***con)
{
	_cleanup_free_ char *ans = NULL;
	ssize_t n;

	core_log(SELINUX_WARNING,
		 "Direct use of security_compute_user() is deprecated, "
		 "switch to get_ordered_context_list()\n");
	if (!selinux_mnt)
		return -ENOENT;
	if (!scon || !user || !con)
		return -EINVAL;
	n = comp_query("user", &ans, "%s %s", scon, user);
	if (n < 0)
		return (int)n;
	return parse_answer(ans, (size_t)n, con);
}

_public_ int security_compute_user_raw(const char *scon, const char *username,
				       char ***con)
{
	return RET_ERRNO(compute_user_raw(scon, username, con));
}

static int compute_user(const char *scon, const char *user, char ***con)
{
	_cleanup_free_ char *rs = NULL;
	_cleanup_(freeconaryp) char **ary = NULL;
	int r;

	r = core_trans_to_raw(scon, &rs);
	if (r < 0)
		return r;
	r = compute_user_raw(rs, user, &ary);
	if (r < 0)
		return r;
	/*
	 * analyzer: false positive (gcc null-dereference): compute_user_raw()
	 * returns 0 only after parse_answer() stored a non-NULL array; the
	 * analyzer cannot follow comp_query() (transact.c) and assumes a
	 * success without it.
	 */
	for (size_t i = 0; ary[i]; i++) {
		char *t;

		r = core_raw_to_trans(ary[i], &t);
		if (r < 0)
			return r;
		free(ary[i]);
		ary[i] = t;
	}
	*con = TAKE_PTR(ary);
	return 0;
}

_public_ int security_compute_user(const char *scon, const char *username,
				   char ***con)
{
	return RET_ERRNO(compute_user(scon, username, con));
}
