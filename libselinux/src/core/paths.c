/* core/paths.c: the selinux_*_path functions. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/get_default_type.h>
#include <selinux/selinux.h>

#include "internal.h"

/* Suffixes under the policy root, with the established library's names. */
enum path_id {
	P_BINPOLICY,
	P_CONTEXTS,
	P_FILE_CONTEXTS,
	P_HOMEDIR_CONTEXTS,
	P_DEFAULT_CONTEXTS,
	P_USER_CONTEXTS,
	P_FAILSAFE_CONTEXT,
	P_DEFAULT_TYPE,
	P_SECURETTY_TYPES,
	P_BOOLEANS,
	P_MEDIA_CONTEXTS,
	P_REMOVABLE_CONTEXT,
	P_CUSTOMIZABLE_TYPES,
	P_USERS,
	P_SEUSERS,
	P_TRANSLATIONS,
	P_NETFILTER_CONTEXTS,
	P_FILE_CONTEXTS_HOMEDIRS,
	P_FILE_CONTEXTS_LOCAL,
	P_X_CONTEXTS,
	P_COLORS,
	P_VIRTUAL_DOMAIN,
	P_VIRTUAL_IMAGE,
	P_LXC_CONTEXTS,
	P_FILE_CONTEXTS_SUBS,
	P_FILE_CONTEXTS_SUBS_DIST,
	P_SEPGSQL_CONTEXTS,
	P_SYSTEMD_CONTEXTS,
	P_BOOLEAN_SUBS,
	P_OPENRC_CONTEXTS,
	P_SNAPPERD_CONTEXTS,
	P_OPENSSH_CONTEXTS,
	P_MAX
};

static const char *const suffix[P_MAX] = {
	[P_BINPOLICY] = "/policy/policy",
	[P_CONTEXTS] = "/contexts",
	[P_FILE_CONTEXTS] = "/contexts/files/file_contexts",
	[P_HOMEDIR_CONTEXTS] = "/contexts/files/homedir_template",
	[P_DEFAULT_CONTEXTS] = "/contexts/default_contexts",
	[P_USER_CONTEXTS] = "/contexts/users/",
	[P_FAILSAFE_CONTEXT] = "/contexts/failsafe_context",
	[P_DEFAULT_TYPE] = "/contexts/default_type",
	[P_SECURETTY_TYPES] = "/contexts/securetty_types",
	[P_BOOLEANS] = "/booleans",
	[P_MEDIA_CONTEXTS] = "/contexts/files/media",
	[P_REMOVABLE_CONTEXT] = "/contexts/removable_context",
	[P_CUSTOMIZABLE_TYPES] = "/contexts/customizable_types",
	[P_USERS] = "/users/",
	[P_SEUSERS] = "/seusers",
	[P_TRANSLATIONS] = "/setrans.conf",
	[P_NETFILTER_CONTEXTS] = "/contexts/netfilter_contexts",
	[P_FILE_CONTEXTS_HOMEDIRS] = "/contexts/files/file_contexts.homedirs",
	[P_FILE_CONTEXTS_LOCAL] = "/contexts/files/file_contexts.local",
	[P_X_CONTEXTS] = "/contexts/x_contexts",
	[P_COLORS] = "/secolor.conf",
	[P_VIRTUAL_DOMAIN] = "/contexts/virtual_domain_context",
	[P_VIRTUAL_IMAGE] = "/contexts/virtual_image_context",
	[P_LXC_CONTEXTS] = "/contexts/lxc_contexts",
	[P_FILE_CONTEXTS_SUBS] = "/contexts/files/file_contexts.subs",
	[P_FILE_CONTEXTS_SUBS_DIST] =
		"/contexts/files/file_contexts.subs_dist",
	[P_SEPGSQL_CONTEXTS] = "/contexts/sepgsql_contexts",
	[P_SYSTEMD_CONTEXTS] = "/contexts/systemd_contexts",
	[P_BOOLEAN_SUBS] = "/booleans.subs_dist",
	[P_OPENRC_CONTEXTS] = "/contexts/openrc_contexts",
	[P_SNAPPERD_CONTEXTS] = "/contexts/snapperd_contexts",
	[P_OPENSSH_CONTEXTS] = "/contexts/openssh_contexts",
};

/*
 * The full paths, built from the policy root whenever it is (re)read.
 * Written by config.c under its config_lock, or by the documented
 * not-thread-safe selinux_set_policy_root()/selinux_reset_config().
 */
static char *path[P_MAX];

void core_paths_free(void)
{
	for (int i = 0; i < P_MAX; i++) {
		free(path[i]);
		path[i] = NULL;
	}
}

int core_paths_rebuild(const char *root)
{
	char *fresh[P_MAX] = { NULL };

	/* all or nothing: a missing path would read as "no such file" */
	for (int i = 0; root && i < P_MAX; i++)
		if (asprintf(&fresh[i], "%s%s", root, suffix[i]) < 0) {
			while (i-- > 0)
				free(fresh[i]);
			return -ENOMEM;
		}
	core_paths_free();
	memcpy(path, fresh, sizeof(path));
	return 0;
}

static const char *get(enum path_id id)
{
	/* selinux_policy_root() loads the config (once) and the paths. */
	if (!selinux_policy_root())
		return NULL;
	return path[id];
}

/*
 * The policy the kernel runs, if selinuxfs offers it as "policy";
 * otherwise the newest policy.N on disk that the kernel supports.
 * The answer lives in a per-thread buffer, valid until the next call.
 */
/*
 * The buffer is on the heap, one per thread (freed at thread exit): a
 * PATH_MAX array in thread-local storage would make the library's TLS
 * block too large for the static TLS a dlopen()ed library may use, and
 * the AVC's hit path counts in initial-exec TLS (avc/internal.h).
 */
static pthread_key_t buf_key;
static pthread_once_t buf_once = PTHREAD_ONCE_INIT;
static bool have_buf_key;
static __thread char *buf_mine;

static void make_buf_key(void)
{
	have_buf_key = pthread_key_create(&buf_key, free) == 0;
}

/* A library unloaded (dlclose) must not leave a destructor behind. */
__attribute__((destructor)) static void forget_buf_key(void)
{
	if (have_buf_key)
		pthread_key_delete(buf_key);
	have_buf_key = false;
}

/* The calling thread's PATH_MAX buffer; NULL (ENOMEM) if none. */
static char *thread_buf(void)
{
	char *b = buf_mine;

	if (b)
		return b;
	pthread_once(&buf_once, make_buf_key);
	if (!have_buf_key)
		return errno = ENOMEM, NULL;
	b = malloc(PATH_MAX);
	if (!b)
		return NULL;
	if (pthread_setspecific(buf_key, b) != 0) {
		free(b);
		return errno = ENOMEM, NULL;
	}
	return buf_mine = b;
}

_public_ const char *selinux_current_policy_path(void)
{
	const size_t bufsz = PATH_MAX;
	const char *bin;
	int vers, saved = errno;
	char *buf = thread_buf();

	if (!buf)
		return NULL;

	if (selinux_mnt &&
	    core_fs_path("policy", buf, bufsz) == 0 &&
	    access(buf, F_OK) == 0)
		return buf;
	vers = security_policyvers();
	bin = get(P_BINPOLICY);
	errno = saved;
	if (!bin)
		return NULL;
	for (int v = vers; v > 0; v--) {
		snprintf(buf, bufsz, "%s.%d", bin, v);
		if (access(buf, F_OK) == 0) {
			errno = saved;
			return buf;
		}
	}
	errno = saved;
	return NULL;
}

#define PATH_FN(fn, id)                                                        \
	_public_ const char *fn(void)                                          \
	{                                                                      \
		return get(id);                                                \
	}

PATH_FN(selinux_binary_policy_path, P_BINPOLICY)
PATH_FN(selinux_contexts_path, P_CONTEXTS)
PATH_FN(selinux_file_context_path, P_FILE_CONTEXTS)
PATH_FN(selinux_homedir_context_path, P_HOMEDIR_CONTEXTS)
PATH_FN(selinux_default_context_path, P_DEFAULT_CONTEXTS)
PATH_FN(selinux_user_contexts_path, P_USER_CONTEXTS)
PATH_FN(selinux_failsafe_context_path, P_FAILSAFE_CONTEXT)
PATH_FN(selinux_default_type_path, P_DEFAULT_TYPE)
PATH_FN(selinux_securetty_types_path, P_SECURETTY_TYPES)
PATH_FN(selinux_booleans_path, P_BOOLEANS)
PATH_FN(selinux_media_context_path, P_MEDIA_CONTEXTS)
PATH_FN(selinux_removable_context_path, P_REMOVABLE_CONTEXT)
PATH_FN(selinux_customizable_types_path, P_CUSTOMIZABLE_TYPES)
PATH_FN(selinux_users_path, P_USERS)
PATH_FN(selinux_usersconf_path, P_SEUSERS)
PATH_FN(selinux_translations_path, P_TRANSLATIONS)
PATH_FN(selinux_netfilter_context_path, P_NETFILTER_CONTEXTS)
PATH_FN(selinux_file_context_homedir_path, P_FILE_CONTEXTS_HOMEDIRS)
PATH_FN(selinux_file_context_local_path, P_FILE_CONTEXTS_LOCAL)
PATH_FN(selinux_x_context_path, P_X_CONTEXTS)
PATH_FN(selinux_colors_path, P_COLORS)
PATH_FN(selinux_virtual_domain_context_path, P_VIRTUAL_DOMAIN)
PATH_FN(selinux_virtual_image_context_path, P_VIRTUAL_IMAGE)
PATH_FN(selinux_lxc_contexts_path, P_LXC_CONTEXTS)
PATH_FN(selinux_file_context_subs_path, P_FILE_CONTEXTS_SUBS)
PATH_FN(selinux_file_context_subs_dist_path, P_FILE_CONTEXTS_SUBS_DIST)
PATH_FN(selinux_sepgsql_context_path, P_SEPGSQL_CONTEXTS)
PATH_FN(selinux_systemd_contexts_path, P_SYSTEMD_CONTEXTS)
PATH_FN(selinux_booleans_subs_path, P_BOOLEAN_SUBS)
PATH_FN(selinux_openrc_contexts_path, P_OPENRC_CONTEXTS)
PATH_FN(selinux_snapperd_contexts_path, P_SNAPPERD_CONTEXTS)
PATH_FN(selinux_openssh_contexts_path, P_OPENSSH_CONTEXTS)
