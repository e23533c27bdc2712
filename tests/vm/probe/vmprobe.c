/*
 * vmprobe: asks the library what a real SELinux kernel says, and prints the
 * answers in one canonical line per call ("name = rc errno=E con=..."), so
 * that the same program run once on our libselinux.so.1 and once on
 * Debian's (LD_LIBRARY_PATH picks which) must print the same text.  Runs
 * inside the test VM; tests/vm/checks/ call it.
 *
 * Usage: vmprobe COMMAND [ARGS]...  Commands chain; "exec" takes the rest
 * of the line.  Nothing printed depends on pids or addresses.
 *
 * Only symbols Debian's libselinux 3.4 exports are called directly; newer
 * ones (getpidprevcon) go through dlsym and print "missing" when absent.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <selinux/selinux.h>

#include "probe_print.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Exported by both libraries; no public header declares it. */
extern char *selinux_mnt;

/* keyctl(2) without libkeyutils */
#define VM_KEY_SPEC_PROCESS_KEYRING (-2)
#define VM_KEYCTL_GET_SECURITY 17

typedef int (*get_fn)(char **);
typedef int (*getpid_fn)(pid_t, char **);
typedef int (*set_fn)(const char *);
typedef int (*getpath_fn)(const char *, char **);
typedef int (*getfd_fn)(int, char **);
typedef int (*setpath_fn)(const char *, const char *);
typedef int (*setfd_fn)(int, const char *);

static void call_get(const char *name, get_fn f)
{
	char *con = NULL;
	int r;

	errno = 0;
	r = f(&con);
	probe_con(name, r, con);
}

/* Looked up at run time: the reference may not have it. */
static void call_getpid_dl(const char *name, pid_t pid)
{
	getpid_fn f = (getpid_fn)dlsym(RTLD_DEFAULT, name);
	char *con = NULL;
	int r;

	if (!f) {
		printf("%s = missing\n", name);
		return;
	}
	errno = 0;
	r = f(pid, &con);
	probe_con(name, r, con);
}

static void call_set(const char *name, set_fn f, const char *con)
{
	errno = 0;
	probe_rc(name, f(con));
}

/* "-" on the command line stands for a NULL context (reset). */
static const char *arg_con(const char *a)
{
	return strcmp(a, "-") ? a : NULL;
}

static void cmd_kernel(void)
{
	errno = 0;
	probe_rc("is_selinux_enabled", is_selinux_enabled());
	probe_rc("is_selinux_mls_enabled", is_selinux_mls_enabled());
	probe_rc("security_getenforce", security_getenforce());
	probe_rc("security_policyvers", security_policyvers());
	probe_rc("security_deny_unknown", security_deny_unknown());
	probe_rc("security_reject_unknown", security_reject_unknown());
	probe_rc("security_get_checkreqprot", security_get_checkreqprot());
	printf("selinux_mnt = %s\n", selinux_mnt ? selinux_mnt : "NULL");
}

static void cmd_config(void)
{
	char *type = NULL;
	int enforce = 77, r;

	errno = 0;
	r = selinux_getenforcemode(&enforce);
	printf("selinux_getenforcemode = %d enforce=%d\n", r, enforce);
	errno = 0;
	r = selinux_getpolicytype(&type);
	if (r < 0) {
		probe_rc("selinux_getpolicytype", r);
	} else {
		printf("selinux_getpolicytype = %d type=\"%s\"\n", r, type);
		free(type);
	}
	printf("selinux_policy_root = %s\n", selinux_policy_root());
	printf("selinux_path = %s\n", selinux_path());
}

static void cmd_setenforce(const char *v)
{
	errno = 0;
	probe_rc("security_setenforce", security_setenforce(atoi(v)));
	errno = 0;
	probe_rc("security_getenforce", security_getenforce());
}

static void cmd_self(void)
{
	call_get("getcon", getcon);
	call_get("getcon_raw", getcon_raw);
	call_get("getprevcon", getprevcon);
	call_get("getprevcon_raw", getprevcon_raw);
	call_get("getexeccon", getexeccon);
	call_get("getfscreatecon", getfscreatecon);
	call_get("getkeycreatecon", getkeycreatecon);
	call_get("getsockcreatecon", getsockcreatecon);
}

static void cmd_cur(void)
{
	call_get("getcon", getcon);
	call_get("getprevcon", getprevcon);
}

static void cmd_pid(const char *arg)
{
	pid_t pid = (pid_t)atoi(arg);
	char *con = NULL;
	int r;

	errno = 0;
	r = getpidcon(pid, &con);
	probe_con("getpidcon", r, con);
	con = NULL;
	errno = 0;
	r = getpidcon_raw(pid, &con);
	probe_con("getpidcon_raw", r, con);
}

static void cmd_pidprev(const char *arg)
{
	pid_t pid = (pid_t)atoi(arg);

	call_getpid_dl("getpidprevcon", pid);
	call_getpid_dl("getpidprevcon_raw", pid);
}

/* Sets the exec context; "exec" afterwards runs the program in it. */
static void cmd_setexec(const char *con)
{
	call_set("setexeccon", setexeccon, arg_con(con));
	call_get("getexeccon", getexeccon);
}

static void cmd_fscreate(const char *con, const char *path)
{
	char *got = NULL;
	int fd, r;

	call_set("setfscreatecon", setfscreatecon, arg_con(con));
	call_get("getfscreatecon", getfscreatecon);
	fd = creat(path, 0644);
	if (fd < 0) {
		printf("creat = -1 errno=%s\n", probe_errname(errno));
	} else {
		printf("creat = ok\n");
		errno = 0;
		r = fgetfilecon(fd, &got);
		probe_con("fgetfilecon", r, got);
		close(fd);
		/* the next run (the other library) creates it afresh */
		unlink(path);
	}
	call_set("setfscreatecon(NULL)", setfscreatecon, NULL);
	call_get("getfscreatecon", getfscreatecon);
}

static void cmd_file(const char *path)
{
	static const struct {
		const char *name;
		getpath_fn f;
	} byname[] = {
	    {"getfilecon", getfilecon},
	    {"getfilecon_raw", getfilecon_raw},
	    {"lgetfilecon", lgetfilecon},
	    {"lgetfilecon_raw", lgetfilecon_raw},
	};
	static const struct {
		const char *name;
		getfd_fn f;
	} byfd[] = {
	    {"fgetfilecon", fgetfilecon},
	    {"fgetfilecon_raw", fgetfilecon_raw},
	};

	for (size_t i = 0; i < sizeof(byname) / sizeof(byname[0]); i++) {
		char *con = NULL;
		int r;

		errno = 0;
		r = byname[i].f(path, &con);
		probe_con(byname[i].name, r, con);
	}
	for (int opath = 0; opath < 2; opath++) {
		int fd = open(path, opath ? O_PATH | O_NOFOLLOW : O_RDONLY);

		for (size_t i = 0; i < sizeof(byfd) / sizeof(byfd[0]); i++) {
			char what[64], *con = NULL;
			int r;

			snprintf(what, sizeof(what), "%s(%s)", byfd[i].name,
				 opath ? "O_PATH" : "O_RDONLY");
			if (fd < 0) {
				printf("%s = open failed errno=%s\n", what,
				       probe_errname(errno));
				continue;
			}
			errno = 0;
			r = byfd[i].f(fd, &con);
			probe_con(what, r, con);
		}
		if (fd >= 0)
			close(fd);
	}
}

/* setfilecon/lsetfilecon/fsetfilecon (by name), then what the file says. */
static void cmd_setfile(const char *fn, const char *path, const char *con)
{
	char *got = NULL;
	int r;

	errno = 0;
	if (!strcmp(fn, "setfilecon")) {
		r = setfilecon(path, con);
	} else if (!strcmp(fn, "setfilecon_raw")) {
		r = setfilecon_raw(path, con);
	} else if (!strcmp(fn, "lsetfilecon")) {
		r = lsetfilecon(path, con);
	} else if (!strcmp(fn, "lsetfilecon_raw")) {
		r = lsetfilecon_raw(path, con);
	} else {
		int fd = open(path, O_RDONLY);

		if (fd < 0) {
			printf("%s = open failed errno=%s\n", fn,
			       probe_errname(errno));
			return;
		}
		errno = 0;
		if (!strcmp(fn, "fsetfilecon_raw"))
			r = fsetfilecon_raw(fd, con);
		else
			r = fsetfilecon(fd, con);
		close(fd);
	}
	probe_rc(fn, r);
	errno = 0;
	r = lgetfilecon_raw(path, &got);
	probe_con("lgetfilecon_raw", r, got);
}

static void show_peer(const char *label, int fd)
{
	char *con = NULL;
	char what[64];
	int r;

	snprintf(what, sizeof(what), "getpeercon(%s)", label);
	errno = 0;
	r = getpeercon(fd, &con);
	probe_con(what, r, con);
	con = NULL;
	snprintf(what, sizeof(what), "getpeercon_raw(%s)", label);
	errno = 0;
	r = getpeercon_raw(fd, &con);
	probe_con(what, r, con);
}

static void cmd_peer(void)
{
	int sv[2], p[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		printf("socketpair(STREAM) = -1 errno=%s\n",
		       probe_errname(errno));
	} else {
		show_peer("stream0", sv[0]);
		show_peer("stream1", sv[1]);
		close(sv[0]);
		close(sv[1]);
	}
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0) {
		printf("socketpair(DGRAM) = -1 errno=%s\n",
		       probe_errname(errno));
	} else {
		show_peer("dgram", sv[0]);
		close(sv[0]);
		close(sv[1]);
	}
	if (pipe(p) == 0) {
		show_peer("pipe", p[0]);
		close(p[0]);
		close(p[1]);
	}
	show_peer("badfd", 1000);
}

/* setsockcreatecon, then the label a new socket gets, seen two ways. */
static void cmd_sockcreate(const char *con)
{
	int sv[2];

	call_set("setsockcreatecon", setsockcreatecon, arg_con(con));
	call_get("getsockcreatecon", getsockcreatecon);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		printf("socketpair = -1 errno=%s\n", probe_errname(errno));
	} else {
		char *got = NULL;
		int r;

		show_peer("new", sv[0]);
		errno = 0;
		r = fgetfilecon_raw(sv[1], &got);
		probe_con("fgetfilecon_raw(socket)", r, got);
		close(sv[0]);
		close(sv[1]);
	}
	call_set("setsockcreatecon(NULL)", setsockcreatecon, NULL);
	call_get("getsockcreatecon", getsockcreatecon);
}

/* setkeycreatecon, then the label of a key added to the process keyring. */
static void cmd_keycreate(const char *con)
{
	char buf[512];
	long id, n;

	call_set("setkeycreatecon", setkeycreatecon, arg_con(con));
	call_get("getkeycreatecon", getkeycreatecon);
	id = syscall(SYS_add_key, "user", "vmprobe", "x", 1,
		     VM_KEY_SPEC_PROCESS_KEYRING);
	if (id < 0) {
		printf("add_key = -1 errno=%s\n", probe_errname(errno));
	} else {
		n = syscall(SYS_keyctl, VM_KEYCTL_GET_SECURITY, id, buf,
			    sizeof(buf));
		if (n < 0 || n > (long)sizeof(buf))
			printf("key security = -1 errno=%s\n",
			       probe_errname(errno));
		else
			printf("key security = \"%.*s\"\n",
			       (int)strnlen(buf, n), buf);
	}
	call_set("setkeycreatecon(NULL)", setkeycreatecon, NULL);
	call_get("getkeycreatecon", getkeycreatecon);
}

static void cmd_check(const char *con)
{
	errno = 0;
	probe_rc("security_check_context", security_check_context(con));
	errno = 0;
	probe_rc("security_check_context_raw", security_check_context_raw(con));
}

static void cmd_canon(const char *con)
{
	char *out = NULL;
	int r;

	errno = 0;
	r = security_canonicalize_context(con, &out);
	probe_con("security_canonicalize_context", r, out);
	out = NULL;
	errno = 0;
	r = security_canonicalize_context_raw(con, &out);
	probe_con("security_canonicalize_context_raw", r, out);
}

/* The file the library was loaded from: proves which one is under test. */
static void cmd_whichlib(void)
{
	Dl_info info;

	if (dladdr((void *)getcon, &info) && info.dli_fname)
		printf("libselinux = %s\n", info.dli_fname);
	else
		printf("libselinux = unknown\n");
}

/* Writes /proc/thread-self/attr/NAME behind the library's back. */
static void cmd_rawattr(const char *name, const char *value)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/proc/thread-self/attr/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		printf("rawattr = -1 errno=%s\n", probe_errname(errno));
		return;
	}
	if (write(fd, value, strlen(value)) < 0)
		printf("rawattr = -1 errno=%s\n", probe_errname(errno));
	else
		printf("rawattr = ok\n");
	close(fd);
}

/* The raw xattr, read without the library: an independent witness. */
static void cmd_xattr(const char *path)
{
	char buf[512];
	ssize_t n = lgetxattr(path, "security.selinux", buf, sizeof(buf));

	if (n < 0)
		printf("xattr = -1 errno=%s\n", probe_errname(errno));
	else
		printf("xattr = \"%.*s\" len=%zd\n", (int)strnlen(buf, n), buf,
		       n);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i];
		int left = argc - i - 1;

		if (!strcmp(c, "kernel")) {
			cmd_kernel();
		} else if (!strcmp(c, "config")) {
			cmd_config();
		} else if (!strcmp(c, "setenforce") && left >= 1) {
			cmd_setenforce(argv[++i]);
		} else if (!strcmp(c, "self")) {
			cmd_self();
		} else if (!strcmp(c, "cur")) {
			cmd_cur();
		} else if (!strcmp(c, "pid") && left >= 1) {
			cmd_pid(argv[++i]);
		} else if (!strcmp(c, "pidprev") && left >= 1) {
			cmd_pidprev(argv[++i]);
		} else if (!strcmp(c, "setexec") && left >= 1) {
			cmd_setexec(argv[++i]);
		} else if (!strcmp(c, "setcon") && left >= 1) {
			call_set("setcon", setcon, arg_con(argv[++i]));
			cmd_cur();
		} else if (!strcmp(c, "mnt") && left >= 1) {
			set_selinuxmnt(argv[++i]);
		} else if (!strcmp(c, "nomnt")) {
			fini_selinuxmnt();
		} else if (!strcmp(c, "fsexists")) {
			probe_rc("selinuxfs_exists", selinuxfs_exists());
		} else if (!strcmp(c, "rawattr") && left >= 2) {
			cmd_rawattr(argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (!strcmp(c, "getfscreate")) {
			call_get("getfscreatecon", getfscreatecon);
		} else if (!strcmp(c, "setfscreate") && left >= 1) {
			call_set("setfscreatecon", setfscreatecon,
				 arg_con(argv[++i]));
		} else if (!strcmp(c, "getexec")) {
			call_get("getexeccon", getexeccon);
		} else if (!strcmp(c, "exec") && left >= 1) {
			fflush(stdout);
			execv(argv[i + 1], argv + i + 1);
			printf("execv = -1 errno=%s\n", probe_errname(errno));
			return 1;
		} else if (!strcmp(c, "fscreate") && left >= 2) {
			cmd_fscreate(argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (!strcmp(c, "file") && left >= 1) {
			cmd_file(argv[++i]);
		} else if (!strcmp(c, "setfile") && left >= 3) {
			cmd_setfile(argv[i + 1], argv[i + 2], argv[i + 3]);
			i += 3;
		} else if (!strcmp(c, "peer")) {
			cmd_peer();
		} else if (!strcmp(c, "sockcreate") && left >= 1) {
			cmd_sockcreate(argv[++i]);
		} else if (!strcmp(c, "keycreate") && left >= 1) {
			cmd_keycreate(argv[++i]);
		} else if (!strcmp(c, "check") && left >= 1) {
			cmd_check(argv[++i]);
		} else if (!strcmp(c, "canon") && left >= 1) {
			cmd_canon(argv[++i]);
		} else if (!strcmp(c, "whichlib")) {
			cmd_whichlib();
		} else if (!strcmp(c, "xattr") && left >= 1) {
			cmd_xattr(argv[++i]);
		} else {
			fprintf(stderr, "vmprobe: bad command %s\n", c);
			return 2;
		}
	}
	return 0;
}
