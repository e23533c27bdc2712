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
#include <pthread.h>
#include <sys/mount.h>
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

/*
 * procattr ATTR: the caching of process attributes.  Run as root in a
 * private mount namespace: a plain file is bind-mounted over this
 * thread's /proc/thread-self/attr/ATTR, so both libraries read and write
 * it, and the probe can change it behind their back.
 */
typedef int (*get_fn)(char **);
typedef int (*set_fn)(const char *);

struct attr_fns {
	const char *name;
	get_fn get;
	set_fn set;
};

static const struct attr_fns attr_table[] = {
	{ "current", getcon_raw, setcon_raw },
	{ "exec", getexeccon_raw, setexeccon_raw },
	{ "fscreate", getfscreatecon_raw, setfscreatecon_raw },
	{ "keycreate", getkeycreatecon_raw, setkeycreatecon_raw },
	{ "sockcreate", getsockcreatecon_raw, setsockcreatecon_raw },
};

static const char *attr_file;

static void attr_show_file(void)
{
	char buf[256] = { 0 };
	int fd = open(attr_file, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	printf("  file holds %zd bytes \"%s\"\n", n, buf);
	if (fd >= 0)
		close(fd);
}

static void attr_put(const char *s, size_t n)
{
	int fd = open(attr_file, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, s, n) != (ssize_t)n)
		printf("  (fixture write failed)\n");
	if (fd >= 0)
		close(fd);
}

static void *attr_other_thread(void *p)
{
	const struct attr_fns *a = p;
	char *con = NULL;

	int r;

	errno = 0;
	r = a->get(&con);
	show_con("  other thread get", r, con);
	return NULL;
}

static void cmd_procattr(const char *name)
{
	const struct attr_fns *a = NULL;
	char target[256], *con = NULL;
	char file[] = "/tmp/probe-attr.XXXXXX";
	pthread_t t;
	int fd, r;

	for (size_t i = 0; i < sizeof(attr_table) / sizeof(attr_table[0]); i++)
		if (!strcmp(attr_table[i].name, name))
			a = &attr_table[i];
	fd = mkstemp(file);
	if (!a || fd < 0) {
		printf("procattr: bad attribute or mkstemp\n");
		return;
	}
	close(fd);
	attr_file = file;
	snprintf(target, sizeof(target), "/proc/thread-self/attr/%s", name);
	if (mount(file, target, NULL, MS_BIND, NULL) < 0) {
		printf("procattr: bind mount: %s\n", strerror(errno));
		unlink(file);
		return;
	}
	errno = 0;
	r = a->get(&con);
	show_con("get (empty)", r, con);
	errno = 0;
	show_int("set a:b:c", a->set("a:b:c"));
	attr_show_file();
	attr_put("x:y:z", 6);
	errno = 0;
	r = a->get(&con);
	show_con("get after the kernel changed", r, con);
	attr_put("", 0);
	errno = 0;
	show_int("set a:b:c again", a->set("a:b:c"));
	attr_show_file();
	errno = 0;
	show_int("set NULL", a->set(NULL));
	attr_show_file();
	attr_put("q:q:q", 6);
	errno = 0;
	r = a->get(&con);
	show_con("get after NULL", r, con);
	attr_put("", 0);
	errno = 0;
	show_int("set NULL again", a->set(NULL));
	attr_put("w:w:w", 6);
	errno = 0;
	show_int("set d:e:f", a->set("d:e:f"));
	attr_show_file();
	pthread_create(&t, NULL, attr_other_thread, (void *)a);
	pthread_join(t, NULL);
	umount(target);
	unlink(file);
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
		} else if (!strcmp(c, "procattr") && i + 1 < argc) {
			cmd_procattr(argv[++i]);
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
