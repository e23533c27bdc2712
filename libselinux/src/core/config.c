/* core/config.c: /etc/selinux/config - policy type, mode, policy root. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <selinux/selinux.h>

#include "internal.h"

#define SELINUXDIR "/etc/selinux"
#define SELINUXDEFAULT "targeted"

/*
 * The configuration directory.  Only the unit tests change it, through
 * the unexported core_set_config_root hook, before any other call.
 */
static const char *config_root = SELINUXDIR;
static char *config_root_owned;

/*
 * What /etc/selinux/config says, read under config_lock until a reading
 * succeeds (config_loaded): a reading that ran out of memory is not kept,
 * the next call tries again.  Like the established library,
 * selinux_set_policy_root() and selinux_reset_config() change these
 * without a lock and are documented as not thread safe.
 */
static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static bool config_loaded;
static char *policy_type;
static char *policy_root;
static bool require_seusers;

const char *core_config_root(void)
{
	return config_root;
}

int core_config_file(char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/config", config_root);

	return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

void core_config_recheck(void)
{
	char path[4096];

	core_has_config = core_config_file(path, sizeof(path)) == 0 &&
			  access(path, F_OK) == 0;
}

static FILE *open_config(void)
{
	char path[4096];

	if (core_config_file(path, sizeof(path)) < 0)
		return NULL;
	return fopen(path, "re");
}

/* Trailing whitespace (and the newline, and a DOS \r) is not a value. */
static char *strip_value(char *v)
{
	size_t n;

	while (ascii_isspace((unsigned char)*v))
		v++;
	n = strlen(v);
	while (n > 0 && ascii_isspace((unsigned char)v[n - 1]))
		v[--n] = '\0';
	return v;
}

/*
 * The established library's reading of the file, which we keep: lines
 * may be indented; "#" starts a comment only at the start of a line; keys
 * are case-insensitive and must be followed directly by "="; a value keeps
 * everything up to trailing whitespace, quotes included (SELINUXTYPE="x"
 * names a type called "x" with its quotes); the last SELINUXTYPE= wins;
 * unknown keys are ignored.  Lines of any length are read whole.
 */
static int load_config(void)
{
	_cleanup_fclose_ FILE *f = open_config();
	_cleanup_free_ char *line = NULL;
	_cleanup_free_ char *type = NULL;
	_cleanup_free_ char *root = NULL;
	bool seusers = false;
	size_t cap = 0;
	int r, saved = errno;

	if (!f && errno == ENOMEM)
		return -ENOMEM;
	errno = 0;
	while (f && getline(&line, &cap, f) > 0) {
		char *p = line;

		while (ascii_isspace((unsigned char)*p))
			p++;
		if (*p == '#' || *p == '\0')
			continue;
		if (ascii_strncasecmp(p, "SELINUXTYPE=", 12) == 0) {
			free(type);
			type = strdup(strip_value(p + 12));
			if (!type)
				return -ENOMEM;
		} else if (ascii_strncasecmp(p, "REQUIRESEUSERS=", 15) == 0) {
			char *v = strip_value(p + 15);

			seusers = ascii_strcasecmp(v, "1") == 0 ||
				  ascii_strcasecmp(v, "true") == 0;
		}
	}
	/* a line lost to a failed allocation could have set the type */
	if (errno == ENOMEM)
		return -ENOMEM;
	errno = saved;
	if (!type && !(type = strdup(SELINUXDEFAULT)))
		return -ENOMEM;
	if (asprintf(&root, "%s/%s", config_root, type) < 0) {
		root = NULL;
		return -ENOMEM;
	}
	r = core_paths_rebuild(root);
	if (r < 0)
		return r;
	free(policy_type);
	free(policy_root);
	policy_type = TAKE_PTR(type);
	policy_root = TAKE_PTR(root);
	require_seusers = seusers;
	return 0;
}

/* 0 once the config has been read, or -ENOMEM. */
static int ensure_config(void)
{
	int r = 0;

	if (__atomic_load_n(&config_loaded, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&config_lock);
	if (!config_loaded) {
		r = load_config();
		if (r == 0)
			__atomic_store_n(&config_loaded, true,
					 __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&config_lock);
	return r;
}

bool core_config_require_seusers(void)
{
	ensure_config();
	return require_seusers;
}

/*
 * The mode is read afresh on every call (the file may change under a
 * running system).  Only "SELINUX=" at the very start of a line counts,
 * its value matched case-insensitively by prefix; lines with another
 * value are skipped and the first valid one wins.  The established
 * library reads in page-sized pieces, so that a piece of an overlong line
 * can pass for a line of its own; we read lines whole.
 */
static int read_enforcemode(int *enforce)
{
	_cleanup_fclose_ FILE *f = open_config();
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;

	if (!enforce)
		return -EINVAL;
	if (!f)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	errno = 0;
	while (getline(&line, &cap, f) > 0) {
		char *v;

		if (strncmp(line, "SELINUX=", 8) != 0)
			continue;
		v = line + 8;
		while (ascii_isspace((unsigned char)*v))
			v++;
		if (ascii_strncasecmp(v, "enforcing", 9) == 0) {
			*enforce = 1;
			return 0;
		}
		if (ascii_strncasecmp(v, "permissive", 10) == 0) {
			*enforce = 0;
			return 0;
		}
		if (ascii_strncasecmp(v, "disabled", 8) == 0) {
			*enforce = -1;
			return 0;
		}
	}
	/* getline() out of memory is not the end of the file (and it sets
	 * no error flag when its first buffer cannot be had) */
	if (errno == ENOMEM)
		return -ENOMEM;
	return -EINVAL;
}

_public_ int selinux_getenforcemode(int *enforce)
{
	return RET_ERRNO(read_enforcemode(enforce));
}

_public_ int selinux_getpolicytype(char **type)
{
	int r;

	if (!type)
		return RET_ERRNO(-EINVAL);
	r = ensure_config();
	if (r < 0)
		return RET_ERRNO(r);
	if (!policy_type)
		return RET_ERRNO(-ENOENT);
	*type = strdup(policy_type);
	return *type ? 0 : RET_ERRNO(-ENOMEM);
}

_public_ const char *selinux_policy_root(void)
{
	int r = ensure_config();

	if (r < 0) {
		errno = -r;
		return NULL;
	}
	return policy_root;
}

/*
 * The new root must be absolute; its last component becomes the policy
 * type ("/x/y/" gives an empty type, as in the established library).
 */
_public_ int selinux_set_policy_root(const char *path)
{
	char *root, *type;
	int r;

	if (!path || path[0] != '/')
		return RET_ERRNO(-EINVAL);
	/* read now, so that a later reading cannot replace the new root */
	r = ensure_config();
	if (r < 0)
		return RET_ERRNO(r);
	root = strdup(path);
	type = strdup(strrchr(path, '/') + 1);
	r = root && type ? core_paths_rebuild(root) : -ENOMEM;
	if (r < 0) {
		free(root);
		free(type);
		return RET_ERRNO(r);
	}
	free(policy_root);
	free(policy_type);
	policy_root = root;
	policy_type = type;
	return 0;
}

_public_ void selinux_reset_config(void)
{
	free(policy_type);
	free(policy_root);
	policy_type = policy_root = NULL;
	core_paths_free();
	__atomic_store_n(&config_loaded, false, __ATOMIC_RELEASE);
}

/* The top directory, with its trailing slash. */
static char *top_owned;

_public_ const char *selinux_path(void)
{
	return top_owned ? top_owned : SELINUXDIR "/";
}

void core_set_config_root(const char *dir)
{
	free(config_root_owned);
	free(top_owned);
	config_root_owned = dir ? strdup(dir) : NULL;
	top_owned = NULL;
	if (config_root_owned && asprintf(&top_owned, "%s/", dir) < 0)
		top_owned = NULL;
	config_root = config_root_owned ? config_root_owned : SELINUXDIR;
	selinux_reset_config();
	core_config_recheck();
}
