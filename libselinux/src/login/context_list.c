/*
 * login/context_list.c: the ordered session contexts of a user
 * (contexts/users/USER, contexts/default_contexts, failsafe_context).
 */
#include <string.h>

#include <selinux/context.h>
#include <selinux/get_context_list.h>

#include "internal.h"

struct con_list {
	char **v; /* NULL-terminated once n > 0 */
	size_t n;
};

static bool list_has(const struct con_list *l, const char *con)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], con))
			return true;
	return false;
}

static int list_add(struct con_list *l, const char *con)
{
	char **v = realloc(l->v, (l->n + 2) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	l->v = v;
	v[l->n] = strdup(con);
	if (!v[l->n])
		return -ENOMEM;
	v[++l->n] = NULL;
	return 0;
}

static void context_freep(context_t *c)
{
	if (*c)
		context_free(*c);
}
#define _cleanup_context_ _cleanup_(context_freep)

/*
 * Whether line's first field "role:type[:...]" is fromcon's role and type
 * (users and ranges may vary).  On a match, *rest is what follows it.
 */
static bool line_matches(char *line, const char *role, const char *type,
			 char **rest)
{
	char *start = login_skip_space(line), *end = login_skip_word(start);
	char *p, *ltype;

	/* A first field with nothing after it lists no contexts. */
	if (!*start || !*end)
		return false;
	*end = '\0';
	p = strchr(start, ':');
	if (!p)
		return false;
	*p = '\0';
	ltype = p + 1;
	p = strchr(ltype, ':');
	if (p)
		*p = '\0';
	if (strcmp(start, role) || strcmp(ltype, type))
		return false;
	*rest = end + 1;
	return true;
}

/*
 * Add to l, in the order of the first line of f for fromcon's role:type,
 * each listed "role:type[:level]" made into "user:role:type" with
 * fromcon's range (none when fromcon has none: the listed level is always
 * replaced, as in the reference), unless already there or refused by
 * the policy.  -ENOENT when no line is for fromcon.  A word that does not
 * make a context is skipped, as the reference does.
 */
static int add_from_file(FILE *f, const char *fromcon, const char *user,
			 struct con_list *l)
{
	_cleanup_context_ context_t from = NULL;
	_cleanup_free_ char *line = NULL;
	const char *role, *type, *range;
	char *rest = NULL, *p, *end;
	size_t cap = 0;
	ssize_t len;
	bool found = false;
	int r;

	from = context_new(fromcon);
	if (!from)
		return login_errno();
	role = context_role_get(from);
	type = context_type_get(from);
	range = context_range_get(from);
	if (!role || !type)
		return -EINVAL;
	errno = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (line_matches(line, role, type, &rest)) {
			found = true;
			break;
		}
	}
	if (!found)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	for (p = login_skip_space(rest); *p; p = login_skip_space(end)) {
		_cleanup_context_ context_t uc = NULL;
		_cleanup_free_ char *s = NULL;
		const char *str;

		end = login_skip_word(p);
		if (*end)
			*end++ = '\0';
		if (asprintf(&s, "%s:%s", user, p) < 0)
			return -ENOMEM;
		/* a word that makes no context is skipped, but running out of
		 * memory must not drop a context the user is entitled to */
		uc = context_new(s);
		if (!uc || context_range_set(uc, range)) {
			if (errno == ENOMEM)
				return -ENOMEM;
			continue;
		}
		str = context_str(uc);
		if (!str)
			return -ENOMEM;
		if (list_has(l, str))
			continue;
		if (security_check_context(str) < 0) {
			if (errno == ENOMEM)
				return -ENOMEM;
			continue;
		}
		r = list_add(l, str);
		if (r < 0)
			return r;
	}
	return 0;
}

/* 0, or -ENOMEM: any other error only costs the file its contexts. */
static int add_from_path(const char *path, const char *fromcon,
			 const char *user, struct con_list *l)
{
	_cleanup_fclose_ FILE *f = NULL;
	int r;

	r = login_fopen(path, &f);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	r = add_from_file(f, fromcon, user, l);
	if (r == -ENOMEM)
		return r;
	/* A broken file only costs its own contexts, as in the reference. */
	if (r < 0 && r != -ENOENT)
		core_log(SELINUX_ERROR,
			 "get_ordered_context_list:  error in processing "
			 "configuration file %s\n",
			 path);
	return 0;
}

/*
 * "user:" + the first line of failsafe_context (up to 254 bytes, without
 * its newline).  A context the policy refuses is an error unless the
 * policy cannot be asked (ENOENT: no selinuxfs).
 */
static int failsafe(const char *user, char **con)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *s = NULL;
	char buf[255];
	size_t n;
	int r;

	r = login_fopen(selinux_failsafe_context_path(), &f);
	if (r < 0)
		return r;
	/* An empty file offers no failsafe context. */
	if (!fgets(buf, sizeof(buf), f))
		return ferror(f) ? -EIO : -ENOENT;
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	if (asprintf(&s, "%s:%s", user, buf) < 0)
		return -ENOMEM;
	if (security_check_context(s) < 0 && errno != ENOENT)
		return login_errno();
	*con = TAKE_PTR(s);
	return 0;
}

int login_context_list(const char *user, const char *fromcon, char ***list)
{
	_cleanup_free_ char *self = NULL, *upath = NULL;
	struct con_list l = {0};
	const char *udir;
	char *con = NULL;
	int r;

	if (!user || !list)
		return -EINVAL;
	if (!fromcon) {
		if (getcon(&self) < 0)
			return login_errno();
		fromcon = self;
	}
	udir = selinux_user_contexts_path();
	if (!udir && errno == ENOMEM)
		return -ENOMEM;
	if (udir && asprintf(&upath, "%s%s", udir, user) < 0)
		return -ENOMEM;
	r = upath ? add_from_path(upath, fromcon, user, &l) : 0;
	if (r == 0)
		r = add_from_path(selinux_default_context_path(), fromcon,
				  user, &l);
	if (r < 0) {
		freeconary(l.v);
		return r;
	}
	if (l.n > 0) {
		*list = l.v;
		return (int)l.n;
	}
	free(l.v);
	/* Nothing reachable: the failsafe context lets root in to repair. */
	r = failsafe(user, &con);
	if (r < 0)
		return r;
	l.v = calloc(2, sizeof(*l.v));
	if (!l.v) {
		free(con);
		return -ENOMEM;
	}
	l.v[0] = con;
	*list = l.v;
	return 1;
}

int login_with_level(const char *fromcon, const char *level, char **out)
{
	_cleanup_context_ context_t c = NULL;
	_cleanup_free_ char *self = NULL;
	const char *s;

	if (!fromcon) {
		if (getcon(&self) < 0)
			return login_errno();
		fromcon = self;
	}
	c = context_new(fromcon);
	if (!c || context_range_set(c, level))
		return login_errno();
	s = context_str(c);
	if (!s)
		return login_errno();
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

_public_ int get_ordered_context_list(const char *user, const char *fromcon,
				      char ***list)
{
	return RET_ERRNO(login_context_list(user, fromcon, list));
}

_public_ int get_ordered_context_list_with_level(const char *user,
						 const char *level,
						 const char *fromcon,
						 char ***list)
{
	_cleanup_free_ char *from = NULL;
	int r;

	if (!level)
		return get_ordered_context_list(user, fromcon, list);
	r = login_with_level(fromcon, level, &from);
	if (r >= 0)
		r = login_context_list(user, from, list);
	return RET_ERRNO(r);
}
