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
 * What /etc/selinux/config says, read once under config_once.  Like the
 * established library, selinux_set_policy_root() and selinux_reset_config()
 * change these without a lock and are documented as not thread safe.
 */
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
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
static void load_config(void)
{
	_cleanup_fclose_ FILE *f = open_config();
	_cleanup_free_ char *line = NULL;
	char *type = NULL;
	size_t cap = 0;

	require_seusers = false;
	while (f && getline(&line, &cap, f) > 0) {
		char *p = line;

		while (ascii_isspace((unsigned char)*p))
			p++;
		if (*p == '#' || *p == '\0')
			continue;
		if (ascii_strncasecmp(p, "SELINUXTYPE=", 12) == 0) {
			char *v = strdup(strip_value(p + 12));

			if (v) {
				free(type);
				type = v;
			}
		} else if (ascii_strncasecmp(p, "REQUIRESEUSERS=", 15) == 0) {
			char *v = strip_value(p + 15);

			require_seusers = ascii_strcasecmp(v, "1") == 0 ||
					  ascii_strcasecmp(v, "true") == 0;
		}
	}
	policy_type = type ? type : strdup(SELINUXDEFAULT);
	free(policy_root);
	policy_root = NULL;
	if (policy_type &&
	    asprintf(&policy_root, "%s/%s", config_root, policy_type) < 0)
		policy_root = NULL;
	core_paths_rebuild(policy_root);
}

static void ensure_config(void)
{
	pthread_once(&config_once, load_config);
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
		return -ENOENT;
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
	return -EINVAL;
}

_public_ int selinux_getenforcemode(int *enforce)
{
	return RET_ERRNO(read_enforcemode(enforce));
}

_public_ int selinux_getpolicytype(char **type)
{
	if (!type)
		return RET_ERRNO(-EINVAL);
	ensure_config();
	if (!policy_type)
		return RET_ERRNO(-ENOENT);
	*type = strdup(policy_type);
	return *type ? 0 : RET_ERRNO(-ENOMEM);
}

_public_ const char *selinux_policy_root(void)
{
	ensure_config();
	return policy_root;
}

/*
 * The new root must be absolute; its last component becomes the policy
 * type ("/x/y/" gives an empty type, as in the established library).
 */
_public_ int selinux_set_policy_root(const char *path)
{
	char *root, *type;

	if (!path || path[0] != '/')
		return RET_ERRNO(-EINVAL);
	ensure_config();
	root = strdup(path);
	type = strdup(strrchr(path, '/') + 1);
	if (!root || !type) {
		free(root);
		free(type);
		return RET_ERRNO(-ENOMEM);
	}
	free(policy_root);
	free(policy_type);
	policy_root = root;
	policy_type = type;
	core_paths_rebuild(policy_root);
	return 0;
}

_public_ void selinux_reset_config(void)
{
	static const pthread_once_t fresh = PTHREAD_ONCE_INIT;

	free(policy_type);
	free(policy_root);
	policy_type = policy_root = NULL;
	core_paths_free();
	config_once = fresh;
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
