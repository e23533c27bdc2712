/* login/seusers.c: Linux user to SELinux user and level (seusers, logins/). */
#include <grp.h>
#include <pwd.h>
#include <string.h>

#include "internal.h"

struct seuser_entry {
	char *luser, *seuser, *level;
};

static void entry_clear(struct seuser_entry *e)
{
	free(e->luser);
	free(e->seuser);
	free(e->level);
	e->luser = e->seuser = e->level = NULL;
}

/*
 * One seusers line: "linuxuser:seuser[:level]".  Returns 1 with *e filled,
 * 0 for a comment, blank or malformed line (the reference skips those
 * too), -ENOMEM.  The level is kept only when MLS is enabled; the seuser
 * ends at a colon or, when no level follows, at whitespace; the level ends
 * at whitespace.  An empty seuser or level makes the line malformed.
 */
static int parse_line(char *line, bool mls, struct seuser_entry *e)
{
	char *start = login_skip_space(line), *end;
	bool has_level = true;

	if (*start == '#' || !*start)
		return 0;
	end = strchr(start, ':');
	if (!end)
		return 0;
	*end = '\0';
	e->luser = strdup(start);
	start = end + 1;
	end = strchr(start, ':');
	if (!end) {
		has_level = false;
		end = login_skip_word(start);
	}
	*end = '\0';
	e->seuser = strdup(start);
	if (!e->luser || !e->seuser)
		goto nomem;
	if (!*e->seuser)
		goto bad;
	if (!mls || !has_level)
		return 1;
	start = end + 1;
	*login_skip_word(start) = '\0';
	e->level = strdup(start);
	if (!e->level)
		goto nomem;
	if (!*e->level)
		goto bad;
	return 1;
nomem:
	entry_clear(e);
	return -ENOMEM;
bad:
	entry_clear(e);
	return 0;
}

/* Whether Linux user name (primary group gid) is in group. */
/* 1 when name is in group, 0 when not (or no such group), -ENOMEM. */
static int in_group(const char *group, const char *name, gid_t gid)
{
	_cleanup_free_ char *buf = NULL;
	_cleanup_free_ gid_t *groups = NULL;
	struct group gr, *grp = NULL;
	size_t len = 1024;
	int ng = 0, r;

	for (;;) {
		free(buf);
		buf = malloc(len);
		if (!buf)
			return -ENOMEM;
		r = getgrnam_r(group, &gr, buf, len, &grp);
		if (r != ERANGE || len > (1u << 24))
			break;
		len *= 2;
	}
	if (r == ENOMEM)
		return -ENOMEM;
	if (r || !grp)
		return 0;
	if (getgrouplist(name, gid, NULL, &ng) >= 0 || ng <= 0)
		return 0;
	groups = calloc((size_t)ng, sizeof(*groups));
	if (!groups)
		return -ENOMEM;
	if (getgrouplist(name, gid, groups, &ng) < 0)
		return 0;
	for (int i = 0; i < ng; i++)
		if (groups[i] == grp->gr_gid)
			return 1;
	return 0;
}

/* name's primary group in *gid ((gid_t)-1 if unknown); 0 or -ENOMEM. */
static int primary_gid(const char *name, gid_t *gid)
{
	_cleanup_free_ char *buf = NULL;
	struct passwd pw, *pwp = NULL;
	long n = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t len = n > 0 ? (size_t)n : 4096;

	*gid = (gid_t)-1;
	buf = malloc(len);
	if (!buf || getpwnam_r(name, &pw, buf, len, &pwp) == ENOMEM)
		return -ENOMEM;
	if (pwp)
		*gid = pwp->pw_gid;
	return 0;
}

/*
 * The first line naming the user wins; otherwise the first %group entry
 * whose group holds the user, then __default__.  Without a match (or
 * without the file) the Linux name itself is the SELinux user with no
 * level, unless the config demands seusers (REQUIRESEUSERS=1).
 */
int login_seuser_by_name(const char *name, char **seuser, char **level)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	struct seuser_entry user = {0}, grp = {0}, def = {0}, *pick;
	size_t cap = 0;
	bool mls;
	gid_t gid;
	int r;

	if (!name || !seuser || !level)
		return -EINVAL;
	r = login_fopen(selinux_usersconf_path(), &f);
	/* out of memory is not "no seusers file": no fallback to the name */
	if (r == -ENOMEM)
		goto out;
	if (r < 0)
		goto nomatch;
	mls = is_selinux_mls_enabled() == 1;
	r = primary_gid(name, &gid);
	if (r < 0)
		goto out;
	errno = 0;
	while (getline(&line, &cap, f) > 0) {
		struct seuser_entry e = {0};

		r = parse_line(line, mls, &e);
		if (r < 0)
			goto out;
		if (r == 0)
			continue;
		/*
		 * analyzer: false positive (gcc null-argument, null-
		 * dereference): parse_line() returns 1 only with luser and
		 * seuser set; GCC 12 mixes its paths that clear e and return 0
		 * with this one.
		 */
		if (!strcmp(e.luser, name)) {
			user = e;
			break;
		}
		if (e.luser[0] == '%' && !grp.luser) {
			r = in_group(e.luser + 1, name, gid);
			if (r < 0) {
				entry_clear(&e);
				goto out;
			}
			if (r) {
				grp = e;
				continue;
			}
		}
		if (!def.luser && !strcmp(e.luser, "__default__")) {
			def = e;
			continue;
		}
		entry_clear(&e);
	}
	/* getline() out of memory: a later line could have named the user */
	if (!user.luser && errno == ENOMEM) {
		r = -ENOMEM;
		goto out;
	}
	pick = user.luser ? &user : grp.luser ? &grp : def.luser ? &def : NULL;
	if (pick) {
		*seuser = TAKE_PTR(pick->seuser);
		*level = TAKE_PTR(pick->level);
		r = 0;
		goto out;
	}
nomatch:
	if (core_config_require_seusers()) {
		r = r < 0 ? r : -ENOENT;
		goto out;
	}
	*seuser = strdup(name);
	*level = NULL;
	r = *seuser ? 0 : -ENOMEM;
out:
	entry_clear(&user);
	entry_clear(&grp);
	entry_clear(&def);
	return r;
}

_public_ int getseuserbyname(const char *name, char **seuser, char **level)
{
	return RET_ERRNO(login_seuser_by_name(name, seuser, level));
}

/*
 * logins/USERNAME under the policy root: "service:seuser:level" lines, and
 * "*:seuser:level" for any service.  The line of the service wins, else
 * the last "*" line; a record without a level is unusable.  Anything
 * short of a usable record falls back to getseuserbyname().
 */
static int from_logins(const char *username, const char *service, char **seuser,
		       char **level)
{
	_cleanup_free_ char *path = NULL, *line = NULL, *rec = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	const char *root = selinux_policy_root();
	size_t cap = 0;
	char *s, *l;
	size_t n;

	if (!root || !username)
		return -ENOENT;
	if (asprintf(&path, "%s/logins/%s", root, username) < 0)
		return -ENOMEM;
	if (login_fopen(path, &f) < 0)
		return -ENOENT;
	while (getline(&line, &cap, f) > 0) {
		n = service ? strlen(service) : 0;
		if (!strncmp(line, "*:", 2)) {
			free(rec);
			rec = strdup(line);
		} else if (service && !strncmp(line, service, n) &&
			   line[n] == ':') {
			free(rec);
			rec = strdup(line);
			break;
		}
	}
	if (!rec || !(s = strchr(rec, ':')) || !(l = strchr(++s, ':')))
		return -ENOENT;
	*l++ = '\0';
	n = strlen(l);
	if (n && l[n - 1] == '\n')
		l[n - 1] = '\0';
	*seuser = strdup(s);
	*level = strdup(l);
	if (!*seuser || !*level) {
		free(*seuser);
		free(*level);
		return -ENOMEM;
	}
	return 0;
}

_public_ int getseuser(const char *username, const char *service, char **seuser,
		       char **level)
{
	if (from_logins(username, service, seuser, level) == 0)
		return 0;
	return RET_ERRNO(login_seuser_by_name(username, seuser, level));
}
