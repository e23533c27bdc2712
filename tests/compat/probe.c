/*
 * probe: one program, run twice - once on Debian's libselinux.so.1, once
 * on ours through LD_LIBRARY_PATH - printing what the library answers in
 * a canonical form.  tests/compat/differential.py compares the outputs.
 *
 * Usage: probe COMMAND [ARGS]... ; commands may be chained with "--".
 * Only symbols Debian's 3.4 exports are called directly; newer ones are
 * looked up with dlsym so the same binary loads against both libraries.
 */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selinux/selinux.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static void show_int(const char *what, int r)
{
	if (r < 0)
		printf("%s = %d errno=%s\n", what, r, strerrorname_np(errno));
	else
		printf("%s = %d\n", what, r);
}

static void show_str(const char *what, const char *s)
{
	printf("%s = %s%s%s\n", what, s ? "\"" : "", s ? s : "NULL",
	       s ? "\"" : "");
}

/* A get call returning a context: rc, errno and the string. */
static void show_con(const char *what, int r, char *con)
{
	if (r < 0) {
		printf("%s = %d errno=%s\n", what, r, strerrorname_np(errno));
		return;
	}
	printf("%s = %d ", what, r);
	show_str("con", con);
	freecon(con);
}

typedef const char *(*path_fn)(void);

static const char *const path_names[] = {
	"selinux_path", "selinux_policy_root", "selinux_binary_policy_path",
	"selinux_booleans_path", "selinux_booleans_subs_path",
	"selinux_colors_path", "selinux_contexts_path",
	"selinux_current_policy_path", "selinux_customizable_types_path",
	"selinux_default_context_path", "selinux_default_type_path",
	"selinux_failsafe_context_path",
	"selinux_file_context_homedir_path",
	"selinux_file_context_local_path", "selinux_file_context_path",
	"selinux_file_context_subs_dist_path",
	"selinux_file_context_subs_path", "selinux_homedir_context_path",
	"selinux_lxc_contexts_path", "selinux_media_context_path",
	"selinux_netfilter_context_path", "selinux_openrc_contexts_path",
	"selinux_openssh_contexts_path", "selinux_removable_context_path",
	"selinux_securetty_types_path", "selinux_sepgsql_context_path",
	"selinux_snapperd_contexts_path", "selinux_systemd_contexts_path",
	"selinux_translations_path", "selinux_user_contexts_path",
	"selinux_usersconf_path", "selinux_users_path",
	"selinux_virtual_domain_context_path",
	"selinux_virtual_image_context_path", "selinux_x_context_path",
};

static void cmd_paths(void)
{
	for (size_t i = 0; i < sizeof(path_names) / sizeof(path_names[0]);
	     i++) {
		path_fn f = (path_fn)dlsym(RTLD_DEFAULT, path_names[i]);

		show_str(path_names[i], f ? f() : "<missing>");
	}
}

static void cmd_config(void)
{
	char *type = NULL;
	int enforce = 77, r;

	r = selinux_getenforcemode(&enforce);
	printf("selinux_getenforcemode = %d enforce=%d\n", r, enforce);
	r = selinux_getpolicytype(&type);
	printf("selinux_getpolicytype = %d ", r);
	show_str("type", r == 0 ? type : NULL);
	if (r == 0)
		free(type);
	show_int("is_selinux_enabled", is_selinux_enabled());
}

static void cmd_kernel(void)
{
	errno = 0;
	show_int("is_selinux_enabled", is_selinux_enabled());
	show_int("is_selinux_mls_enabled", is_selinux_mls_enabled());
	show_int("security_getenforce", security_getenforce());
	show_int("security_policyvers", security_policyvers());
	show_int("security_deny_unknown", security_deny_unknown());
	show_int("security_reject_unknown", security_reject_unknown());
	show_int("security_get_checkreqprot", security_get_checkreqprot());
}

typedef int (*getfile_fn)(const char *, char **);
typedef int (*fgetfile_fn)(int, char **);

static void cmd_file(const char *path)
{
	static const char *const names[] = { "getfilecon", "getfilecon_raw",
					     "lgetfilecon",
					     "lgetfilecon_raw" };
	static const char *const fnames[] = { "fgetfilecon",
					      "fgetfilecon_raw" };

	for (size_t i = 0; i < 4; i++) {
		getfile_fn f = (getfile_fn)dlsym(RTLD_DEFAULT, names[i]);
		char *con = NULL;
		int r;

		errno = 0;
		r = f(path, &con);
		show_con(names[i], r, con);
	}
	for (int flags = 0; flags < 2; flags++) {
		int fd = open(path, flags ? O_PATH | O_NOFOLLOW : O_RDONLY);

		for (size_t i = 0; i < 2; i++) {
			fgetfile_fn f =
				(fgetfile_fn)dlsym(RTLD_DEFAULT, fnames[i]);
			char *con = NULL;
			char what[64];
			int r;

			snprintf(what, sizeof(what), "%s(%s)", fnames[i],
				 flags ? "O_PATH" : "O_RDONLY");
			if (fd < 0) {
				printf("%s = open failed\n", what);
				continue;
			}
			errno = 0;
			r = f(fd, &con);
			show_con(what, r, con);
		}
		if (fd >= 0)
			close(fd);
	}
}

static void cmd_setfile(const char *path, const char *con)
{
	errno = 0;
	show_int("setfilecon", setfilecon(path, con));
	errno = 0;
	show_int("lsetfilecon_raw", lsetfilecon_raw(path, con));
}

static void cmd_set_root(const char *root)
{
	errno = 0;
	show_int("selinux_set_policy_root", selinux_set_policy_root(root));
	cmd_paths();
	cmd_config();
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i];

		printf("# %s\n", c);
		if (!strcmp(c, "paths")) {
			cmd_paths();
		} else if (!strcmp(c, "config")) {
			cmd_config();
		} else if (!strcmp(c, "kernel")) {
			cmd_kernel();
		} else if (!strcmp(c, "mnt") && i + 1 < argc) {
			set_selinuxmnt(argv[++i]);
		} else if (!strcmp(c, "nomnt")) {
			fini_selinuxmnt();
		} else if (!strcmp(c, "file") && i + 1 < argc) {
			cmd_file(argv[++i]);
		} else if (!strcmp(c, "setfile") && i + 2 < argc) {
			cmd_setfile(argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (!strcmp(c, "setroot") && i + 1 < argc) {
			cmd_set_root(argv[++i]);
		} else if (!strcmp(c, "whoami")) {
			Dl_info info;

			/* Which libselinux.so.1 was loaded: the harness checks. */
			if (dladdr((void *)is_selinux_enabled, &info) &&
			    info.dli_fname)
				printf("library = %s\n", info.dli_fname);
		} else if (!strcmp(c, "reset")) {
			selinux_reset_config();
		} else {
			fprintf(stderr, "probe: unknown command %s\n", c);
			return 2;
		}
	}
	return 0;
}
