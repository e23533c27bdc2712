/*
 * hostile_probe: what a setuid program (passwd, su, newrole) asks the
 * library at start-up, printed one answer per line.  run.sh runs it twice:
 * as root in a clean environment, and installed setuid root, run by
 * "nobody" under a hostile environment, umask and locale; the answers
 * must be the same (README, "Hostile callers").  Like those programs it
 * calls setlocale(LC_ALL, "") first.
 *
 * The last lines list every descriptor still open after the calls that
 * lacks FD_CLOEXEC (none may), and whether the process runs in secure
 * mode (AT_SECURE), so run.sh can check that the test means something.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <selinux/get_context_list.h>
#include <selinux/get_default_type.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

/* Exported by libselinux.so.1 (LIBSELINUX_1.0), declared by no header. */
extern char *selinux_mnt;

static void str(const char *what, int r, char *s)
{
	if (r < 0)
		printf("%s: -1 errno %d\n", what, errno);
	else
		printf("%s: %d %s\n", what, r, s ? s : "(null)");
	freecon(s);
}

static void paths(void)
{
	printf("selinux_path: %s\n", selinux_path());
	printf("selinux_policy_root: %s\n", selinux_policy_root());
	printf("file_context_path: %s\n", selinux_file_context_path());
	printf("binary_policy_path: %s\n", selinux_binary_policy_path());
	printf("default_context_path: %s\n", selinux_default_context_path());
	printf("usersconf_path: %s\n", selinux_usersconf_path());
	printf("securetty_types_path: %s\n", selinux_securetty_types_path());
	printf("media_context_path: %s\n", selinux_media_context_path());
}

static void labels(void)
{
	static const char *const keys[] = {
		"/etc/passwd", "/etc/shadow", "/usr/bin/passwd", "/home/u/.ssh",
		"/tmp/x", "/var/log/wtmp", "/root/.bashrc", "/dev/tty1",
	};
	struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, NULL, 0);

	if (!h) {
		printf("selabel_open: errno %d\n", errno);
		return;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *con = NULL;
		int r = selabel_lookup_raw(h, &con, keys[i], 0);
		char what[64];

		snprintf(what, sizeof(what), "lookup %s", keys[i]);
		str(what, r, con);
	}
	selabel_close(h);
}

static void login(void)
{
	char *seuser = NULL, *level = NULL;
	char *type = NULL;
	int r;

	r = getseuserbyname("root", &seuser, &level);
	printf("getseuserbyname root: %d %s %s\n", r < 0 ? -1 : r,
	       r < 0 ? "-" : seuser, r < 0 || !level ? "-" : level);
	free(seuser);
	free(level);
	r = getseuserbyname("nobody", &seuser, &level);
	printf("getseuserbyname nobody: %d %s %s\n", r < 0 ? -1 : r,
	       r < 0 ? "-" : seuser, r < 0 || !level ? "-" : level);
	free(seuser);
	free(level);
	r = get_default_type("sysadm_r", &type);
	printf("get_default_type sysadm_r: %d %s\n", r < 0 ? -1 : r,
	       r < 0 ? "-" : type);
	free(type);
	r = selinux_check_securetty_context("system_u:object_r:tty_device_t:s0");
	printf("securetty tty_device_t: %d\n", r);
}

static void mode(void)
{
	int e = 77;
	char *t = NULL;
	int r;

	printf("is_selinux_enabled: %d\n", is_selinux_enabled());
	printf("is_selinux_mls_enabled: %d\n", is_selinux_mls_enabled());
	r = selinux_getenforcemode(&e);
	printf("getenforcemode: %d %d\n", r, e);
	r = selinux_getpolicytype(&t);
	printf("getpolicytype: %d %s\n", r, r < 0 ? "-" : t);
	free(t);
	errno = 0;
	r = security_getenforce();
	printf("security_getenforce: %d errno %d\n", r, r < 0 ? errno : 0);
	printf("selinux_mnt: %s\n", selinux_mnt ? selinux_mnt : "(none)");
}

/* Descriptors above stderr without close-on-exec. */
static void leaks(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int self = d ? dirfd(d) : -1;
	int n = 0;

	while (d && (e = readdir(d))) {
		int fd = atoi(e->d_name);
		int fl;

		if (e->d_name[0] == '.' || fd <= 2 || fd == self)
			continue;
		fl = fcntl(fd, F_GETFD);
		if (fl >= 0 && !(fl & FD_CLOEXEC)) {
			printf("leak: fd %d without FD_CLOEXEC\n", fd);
			n++;
		}
	}
	if (d)
		closedir(d);
	printf("descriptors without close-on-exec: %d\n", n);
}

int main(void)
{
	Dl_info info;

	setlocale(LC_ALL, "");
	mode();
	paths();
	labels();
	login();
	leaks();
	/* Secure mode and the library in use go last: run.sh reads them
	 * and compares everything above. */
	if (dladdr((void *)is_selinux_enabled, &info) && info.dli_fname)
		printf("library: %s\n", info.dli_fname);
	printf("AT_SECURE: %lu\n", getauxval(AT_SECURE));
	return 0;
}
