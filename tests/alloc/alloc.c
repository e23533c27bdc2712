/*
 * tests/alloc/alloc.c: allocation-failure injection over representative
 * calls of the library.
 *
 *   alloc_inject SCENARIO [ARG]      every injection point of SCENARIO
 *   alloc_inject -n N SCENARIO [ARG] only the N-th, in this process (for
 *                                    a debugger: break on fm_hit)
 *
 * A scenario is a function that opens what it needs, makes its calls,
 * checks their answers against literals written here by hand, and closes
 * everything again.  It returns RES_OK (every answer right), RES_NOMEM (a
 * call failed with ENOMEM, the documented error of an allocation failure;
 * everything opened so far was closed) or RES_BAD (anything else, with the
 * reason in why[]).
 *
 * For each scenario, in a fresh child process each time (the library
 * keeps process-wide caches that nothing resets):
 *  - unarmed: run it twice and count its allocations A (first run) and
 *    the live blocks it leaves behind: D1 after one run, D2 after two.
 *    D1 is what one-time caches hold (the policy paths, the class map);
 *    D2 != D1 is a leak per call.
 *  - for n = 1..A: fail the n-th allocation of a run, then run it again
 *    unarmed.  The armed run must give RES_OK (the allocation was optional)
 *    or RES_NOMEM; the second run must give RES_OK (a later call works); the
 *    live blocks after both must be D1 more than before (nothing leaked
 *    by the failure, nothing cached twice); no crash, no hang (alarm).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selinux/avc.h>
#include <selinux/context.h>
#include <selinux/get_context_list.h>
#include <selinux/get_default_type.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "failmalloc.h"

/* The unexported hook of the core layer (libselinux.a). */
void core_set_config_root(const char *dir);

enum { RES_OK, RES_NOMEM, RES_BAD };

static char why[400];

static int bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return RES_BAD;
}

/* A call failed: RES_NOMEM when errno says ENOMEM, else RES_BAD. */
static int failed(const char *what)
{
	int e = errno;

	if (e == ENOMEM)
		return RES_NOMEM;
	return bad("%s failed with errno %d, not ENOMEM", what, e);
}

static int same(const char *what, const char *got, const char *want)
{
	if (got && want && strcmp(got, want) == 0)
		return RES_OK;
	if (!got && !want)
		return RES_OK;
	return bad("%s: got \"%s\", want \"%s\"", what, got ? got : "(null)",
		   want ? want : "(null)");
}

static int quiet_log(int type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
	return 0;
}

/* The scenarios' argument (a directory or a tree), from argv. */
static const char *arg;

/* ---- (1) selabel_open + lookups + selabel_close ---- */

static const char fc_text[] =
	"/.*\t\t\tsystem_u:object_r:default_t\n"
	"/\t\t\t-d\tsystem_u:object_r:root_t\n"
	"/etc(/.*)?\t\tsystem_u:object_r:etc_t\n"
	"/etc/shadow.*\t\t--\tsystem_u:object_r:shadow_t\n"
	"/usr/bin/(ba|da)?sh\t--\tsystem_u:object_r:shell_exec_t\n"
	"/home/[^/]+\t\t-d\tsystem_u:object_r:user_home_dir_t\n"
	"/home/[^/]+/.+\t\tsystem_u:object_r:user_home_t\n"
	"/tmp(/.*)?\t\tsystem_u:object_r:tmp_t\n"
	"/dev/null\t\t-c\tsystem_u:object_r:null_device_t\n"
	"/proc(/.*)?\t\t<<none>>\n";
static const char fc_local[] = "/srv/www(/.*)?\tsystem_u:object_r:httpd_t\n";
static const char fc_subs[] = "/export/home /home\n";

static const struct {
	const char *path;
	mode_t mode;
	const char *want; /* NULL: ENOENT */
} fc_lookups[] = {
	{ "/etc/passwd", S_IFREG, "system_u:object_r:etc_t" },
	{ "/etc/shadow", S_IFREG, "system_u:object_r:shadow_t" },
	{ "/usr/bin/bash", S_IFREG, "system_u:object_r:shell_exec_t" },
	{ "/export/home/jo/.profile", S_IFREG, "system_u:object_r:user_home_t" },
	{ "/srv/www/index.html", S_IFREG, "system_u:object_r:httpd_t" },
	{ "/home/jo", S_IFDIR, "system_u:object_r:user_home_dir_t" },
	{ "/dev/null", S_IFCHR, "system_u:object_r:null_device_t" },
	{ "/nowhere", S_IFREG, "system_u:object_r:default_t" },
	{ "/proc/1", S_IFDIR, NULL },
};

static int run_label(void)
{
	char path[4096];
	struct selabel_handle *h;
	struct selinux_opt opt = { SELABEL_OPT_PATH, path };
	int r = RES_OK;

	snprintf(path, sizeof(path), "%s/file_contexts", arg);
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	if (!h)
		return failed("selabel_open");
	for (size_t i = 0; r == RES_OK && i < sizeof(fc_lookups) /
			   sizeof(fc_lookups[0]); i++) {
		char *con = NULL;
		int k;

		/* half raw, half through the (absent) translation daemon */
		if (i % 2)
			k = selabel_lookup(h, &con, fc_lookups[i].path,
					   fc_lookups[i].mode);
		else
			k = selabel_lookup_raw(h, &con, fc_lookups[i].path,
					       fc_lookups[i].mode);
		if (k < 0 && errno == ENOENT && !fc_lookups[i].want)
			continue;
		if (k < 0)
			r = failed(fc_lookups[i].path);
		else
			r = same(fc_lookups[i].path, con, fc_lookups[i].want);
		freecon(con);
	}
	selabel_close(h);
	return r;
}

static void write_file(const char *dir, const char *name, const char *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(s, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

/* The label fixtures in dir; with compile (sefcontext_compile's path),
 * file_contexts.bin too. */
static void label_fixture(const char *dir, const char *compile)
{
	char path[4096];
	pid_t pid;
	int st;

	write_file(dir, "file_contexts", fc_text);
	write_file(dir, "file_contexts.local", fc_local);
	write_file(dir, "file_contexts.subs", fc_subs);
	if (!compile)
		return;
	snprintf(path, sizeof(path), "%s/file_contexts", dir);
	pid = fork();
	if (pid == 0) {
		execl(compile, compile, path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		fprintf(stderr, "%s %s failed\n", compile, path);
		exit(99);
	}
	snprintf(path, sizeof(path), "%s/file_contexts.bin", dir);
	if (access(path, R_OK) != 0) {
		perror(path);
		exit(99);
	}
}

/* ---- (2) the config file and the policy paths ---- */

static char root[2048];

static int run_config(void)
{
	char want[4096];
	const char *p;
	char *type = NULL;
	int mode = -1, r;

	if (selinux_getenforcemode(&mode) < 0)
		return failed("selinux_getenforcemode");
	if (mode != 1)
		return bad("selinux_getenforcemode: %d, want 1", mode);
	if (selinux_getpolicytype(&type) < 0)
		return failed("selinux_getpolicytype");
	r = same("selinux_getpolicytype", type, "t");
	free(type);
	if (r != RES_OK)
		return r;
	p = selinux_policy_root();
	if (!p)
		return failed("selinux_policy_root");
	snprintf(want, sizeof(want), "%s/t", root);
	if ((r = same("selinux_policy_root", p, want)) != RES_OK)
		return r;
	p = selinux_file_context_path();
	if (!p)
		return failed("selinux_file_context_path");
	snprintf(want, sizeof(want), "%s/t/contexts/files/file_contexts", root);
	if ((r = same("selinux_file_context_path", p, want)) != RES_OK)
		return r;
	p = selinux_default_type_path();
	if (!p)
		return failed("selinux_default_type_path");
	snprintf(want, sizeof(want), "%s/t/contexts/default_type", root);
	return same("selinux_default_type_path", p, want);
}

static void config_fixture(const char *dir)
{
	char t[4096];

	snprintf(root, sizeof(root), "%s/etc", dir);
	snprintf(t, sizeof(t), "%s/t", root);
	if (mkdir(root, 0755) < 0 || mkdir(t, 0755) < 0) {
		perror(t);
		exit(99);
	}
	write_file(root, "config",
		   "# a comment\nSELINUX=enforcing\n\nSELINUXTYPE=t\n");
	core_set_config_root(root);
}

/* ---- (3) seusers, context lists, default types (the server) ---- */

static int run_login(void)
{
	char *seuser = NULL, *level = NULL, *type = NULL;
	char **list = NULL;
	int n, r;

	if (getseuserbyname("root", &seuser, &level) < 0)
		return failed("getseuserbyname(root)");
	r = same("getseuserbyname(root)", seuser, "root");
	free(seuser);
	free(level);
	if (r != RES_OK)
		return r;
	if (getseuserbyname("jo", &seuser, &level) < 0)
		return failed("getseuserbyname(jo)");
	r = same("getseuserbyname(jo)", seuser, "user_u");
	free(seuser);
	free(level);
	if (r != RES_OK)
		return r;
	n = get_ordered_context_list("staff_u", "system_u:system_r:sshd_t",
				     &list);
	if (n < 0)
		return failed("get_ordered_context_list(staff_u)");
	/* contexts/users/staff_u's line for sshd_t, in its order */
	if (n != 2)
		r = bad("get_ordered_context_list(staff_u): %d entries", n);
	else if ((r = same("get_ordered_context_list(staff_u)[0]", list[0],
			   "staff_u:staff_r:staff_t")) == RES_OK)
		r = same("get_ordered_context_list(staff_u)[1]", list[1],
			 "staff_u:sysadm_r:sysadm_t");
	freeconary(list);
	if (r != RES_OK)
		return r;
	n = get_ordered_context_list("root", "system_u:system_r:sshd_t",
				     &list);
	if (n < 0)
		return failed("get_ordered_context_list(root)");
	/* contexts/users/root's line for sshd_t */
	if (n != 3)
		r = bad("get_ordered_context_list(root): %d entries", n);
	else if ((r = same("get_ordered_context_list(root)[0]", list[0],
			   "root:unconfined_r:unconfined_t")) == RES_OK &&
		 (r = same("get_ordered_context_list(root)[1]", list[1],
			   "root:sysadm_r:sysadm_t")) == RES_OK)
		r = same("get_ordered_context_list(root)[2]", list[2],
			 "root:staff_r:staff_t");
	freeconary(list);
	if (r != RES_OK)
		return r;
	if (get_default_type("sysadm_r", &type) < 0)
		return failed("get_default_type");
	r = same("get_default_type(sysadm_r)", type, "sysadm_t");
	free(type);
	return r;
}

static void login_fixture(void)
{
	/* NSS loaded and its database read before any failure: glibc
	 * asserts that its first reading succeeds (nss_database.c). */
	getpwnam("root");
	getgrnam("root");
	snprintf(root, sizeof(root), "%s", arg);
	core_set_config_root(root);
}

/* ---- (4) context_t ---- */

static int run_context(void)
{
	context_t c;
	const char *s;
	int r;

	c = context_new("user_u:user_r:user_t:s0-s0:c0.c3");
	if (!c)
		return failed("context_new");
	s = context_str(c);
	if (!s) {
		r = failed("context_str");
		goto out;
	}
	r = same("context_str", s, "user_u:user_r:user_t:s0-s0:c0.c3");
	if (r != RES_OK)
		goto out;
	if (context_type_set(c, "user_home_t") != 0) {
		r = failed("context_type_set");
		goto out;
	}
	if (context_role_set(c, "object_r") != 0) {
		r = failed("context_role_set");
		goto out;
	}
	if (context_range_set(c, "s0") != 0) {
		r = failed("context_range_set");
		goto out;
	}
	s = context_str(c);
	if (!s) {
		r = failed("context_str");
		goto out;
	}
	r = same("context_str", s, "user_u:object_r:user_home_t:s0");
	if (r == RES_OK)
		r = same("context_type_get", context_type_get(c),
			 "user_home_t");
out:
	context_free(c);
	return r;
}

/* ---- (5) the AVC against the security server ---- */

static int avc_check(const char *scon, const char *tcon, const char *perm,
		     int allowed)
{
	security_id_t ssid, tsid;
	security_class_t cls;
	access_vector_t av;
	char what[256];

	snprintf(what, sizeof(what), "%s %s file %s", scon, tcon, perm);
	if (avc_context_to_sid(scon, &ssid) < 0 ||
	    avc_context_to_sid(tcon, &tsid) < 0)
		return failed("avc_context_to_sid");
	cls = string_to_security_class("file");
	if (!cls)
		return failed("string_to_security_class");
	av = string_to_av_perm(cls, perm);
	if (!av)
		return failed("string_to_av_perm");
	if (avc_has_perm(ssid, tsid, cls, av, NULL, NULL) == 0)
		return allowed ? RES_OK : bad("%s: granted", what);
	if (errno == EACCES)
		return allowed ? bad("%s: denied", what) : RES_OK;
	return failed(what);
}

static int run_avc(void)
{
	int r;

	if (avc_open(NULL, 0) < 0)
		return failed("avc_open");
	r = avc_check("system_u:system_r:sshd_t", "system_u:object_r:etc_t",
		      "read", 1);
	if (r == RES_OK)
		r = avc_check("system_u:system_r:sshd_t",
			      "system_u:object_r:etc_t", "write", 0);
	if (r == RES_OK)
		r = avc_check("user_u:user_r:user_t",
			      "system_u:object_r:shadow_t", "read", 0);
	/* again: from the cache */
	if (r == RES_OK)
		r = avc_check("system_u:system_r:sshd_t",
			      "system_u:object_r:etc_t", "read", 1);
	avc_destroy();
	return r;
}

/* ---- the driver ---- */

static const struct scenario {
	const char *name;
	int (*run)(void);
} scenarios[] = {
	{ "label", run_label },	    { "config", run_config },
	{ "login", run_login },	    { "context", run_context },
	{ "avc", run_avc },
};

/* What a child reports through its pipe. */
struct report {
	int armed, again;	/* the runs' R_* */
	int hit;		/* the armed allocation was reached */
	unsigned long count;	/* allocations of the armed (or first) run */
	long d1, d2;		/* live blocks after one run, after two */
	char why[512];
};

/*
 * One run of s in a thread of its own, armed at n (0: counting only).
 * The thread's exit runs the library's thread-local destructors (the
 * label layer's per-thread PCRE2 match data), so that what a thread
 * keeps for itself is not counted as a leak.
 */
struct one_run {
	const struct scenario *s;
	unsigned long n, count;
	int res, hit;
	char why[400];
};

static void *one_run_thread(void *p)
{
	struct one_run *o = p;

	why[0] = '\0';
	fm_arm(o->n);
	o->res = o->s->run();
	o->count = fm_disarm();
	o->hit = fm_failed();
	snprintf(o->why, sizeof(o->why), "%s", why);
	return NULL;
}

static void one_run(struct one_run *o)
{
	pthread_t t;
	int e;

	e = pthread_create(&t, NULL, one_run_thread, o);
	if (e == 0)
		e = pthread_join(t, NULL);
	if (e != 0) {
		fprintf(stderr, "pthread: %s\n", strerror(e));
		exit(99);
	}
}

/* Run the scenario in this process: armed at n (0: not), then unarmed. */
static void run_pair(const struct scenario *s, unsigned long n,
		     struct report *rep)
{
	struct one_run o = { .s = s, .n = n };
	long live0 = fm_live();

	one_run(&o);
	rep->armed = o.res;
	rep->count = o.count;
	rep->hit = o.hit;
	rep->d1 = fm_live() - live0;
	if (rep->armed == RES_BAD)
		snprintf(rep->why, sizeof(rep->why), "%s", o.why);
	o = (struct one_run){ .s = s, .n = 0 };
	one_run(&o);
	rep->again = o.res;
	rep->d2 = fm_live() - live0;
	if (rep->again == RES_BAD && !rep->why[0])
		snprintf(rep->why, sizeof(rep->why), "later call: %s", o.why);
	else if (rep->again != RES_OK && !rep->why[0])
		snprintf(rep->why, sizeof(rep->why),
			 "later call failed with ENOMEM");
}

/* run_pair in a child; 0 with *rep filled, or -1 with a message in
 * rep->why (crash, hang, no report). */
static int in_child(const struct scenario *s, unsigned long n,
		    struct report *rep)
{
	int fd[2], st;
	pid_t pid;
	ssize_t k;

	memset(rep, 0, sizeof(*rep));
	if (pipe(fd) < 0) {
		perror("pipe");
		exit(99);
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(99);
	}
	if (pid == 0) {
		close(fd[0]);
		alarm(60);
		run_pair(s, n, rep);
		if (write(fd[1], rep, sizeof(*rep)) != sizeof(*rep))
			_exit(98);
		/* exit(): the library's destructors run after the failure */
		exit(0);
	}
	close(fd[1]);
	k = read(fd[0], rep, sizeof(*rep));
	close(fd[0]);
	if (waitpid(pid, &st, 0) < 0) {
		perror("waitpid");
		exit(99);
	}
	if (WIFSIGNALED(st)) {
		snprintf(rep->why, sizeof(rep->why), "%s (signal %d)",
			 WTERMSIG(st) == SIGALRM ? "hang" : "crash",
			 WTERMSIG(st));
		return -1;
	}
	if (k != sizeof(*rep) || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(rep->why, sizeof(rep->why),
			 "child exited with status %d",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return -1;
	}
	return 0;
}

static int inject(const struct scenario *s)
{
	struct report base, rep;
	unsigned long a, nomem = 0, ok = 0, errors = 0;

	if (in_child(s, 0, &base) < 0 || base.armed != RES_OK ||
	    base.again != RES_OK) {
		fprintf(stderr, "%s: the unarmed run fails: %s\n", s->name,
			base.why);
		return 1;
	}
	a = base.count;
	printf("%s: %lu allocations a run; live blocks after one run %+ld, "
	       "after two %+ld\n",
	       s->name, a, base.d1, base.d2);
	if (base.d1 != base.d2) {
		fprintf(stderr, "%s: %ld blocks leaked per call\n", s->name,
			base.d2 - base.d1);
		errors++;
	}
	for (unsigned long n = 1; n <= a; n++) {
		const char *err = NULL;

		if (in_child(s, n, &rep) < 0)
			err = rep.why;
		else if (rep.armed == RES_BAD || rep.again != RES_OK)
			err = rep.why;
		else if (rep.d2 != base.d1)
			err = "live blocks differ from the unarmed runs";
		else if (rep.armed == RES_NOMEM && !rep.hit)
			err = "ENOMEM without an allocation failure";
		if (err) {
			if (errors < 30)
				fprintf(stderr,
					"%s: allocation %lu of %lu: %s "
					"(live %+ld, unarmed %+ld)\n",
					s->name, n, a, err, rep.d2, base.d1);
			errors++;
		} else if (rep.armed == RES_NOMEM) {
			nomem++;
		} else {
			ok++;
		}
	}
	printf("%s: %lu injection points: %lu ENOMEM, %lu succeeded "
	       "(optional allocation), %lu errors\n",
	       s->name, a, nomem, ok, errors);
	return errors ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: alloc_inject [-n N] label-text | label-bin "
			"SEFCONTEXT_COMPILE | config | login ROOT | context | "
			"avc\n");
	exit(2);
}

/* A fresh directory for the fixtures, removed at exit. */
static char tmp[4096];
static pid_t tmp_owner;

static void rm_tmp(void)
{
	static const char *const files[] = {
		"file_contexts", "file_contexts.local", "file_contexts.subs",
		"file_contexts.bin", "etc/config", "etc/t", "etc",
	};
	char path[8192];

	if (!tmp[0] || getpid() != tmp_owner)
		return;
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, files[k]);
		if (unlink(path) < 0)
			rmdir(path);
	}
	rmdir(tmp);
}

static const char *make_tmp(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmp, sizeof(tmp), "%s/alloc.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(tmp)) {
		perror(tmp);
		exit(99);
	}
	tmp_owner = getpid();
	atexit(rm_tmp);
	return tmp;
}

int main(int argc, char **argv)
{
	const struct scenario *s = NULL;
	unsigned long only = 0;
	const char *name;
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "-n") == 0) {
		only = strtoul(argv[2], NULL, 10);
		i = 3;
	}
	if (i >= argc)
		usage();
	name = argv[i++];
	selinux_set_callback(SELINUX_CB_LOG,
			     (union selinux_callback){ .func_log = quiet_log });
	/* stdout unbuffered: a child's exit() must not repeat its output */
	setvbuf(stdout, NULL, _IONBF, 0);
	if (strcmp(name, "label-text") == 0 || strcmp(name, "label-bin") == 0) {
		const char *compile = NULL;

		if (strcmp(name, "label-bin") == 0) {
			if (i >= argc)
				usage();
			compile = argv[i];
		}
		arg = make_tmp();
		label_fixture(arg, compile);
		name = "label";
	} else if (strcmp(name, "config") == 0) {
		config_fixture(make_tmp());
	} else if (strcmp(name, "login") == 0) {
		if (i >= argc)
			usage();
		arg = argv[i];
		login_fixture();
	}
	for (size_t k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++)
		if (strcmp(scenarios[k].name, name) == 0)
			s = &scenarios[k];
	if (!s)
		usage();
	if (only) {
		struct report rep;

		memset(&rep, 0, sizeof(rep));
		fm_trace(1);
		run_pair(s, only, &rep);
		fm_trace_dump(1);
		printf("armed %d (reached %d, %lu allocations), again %d, "
		       "live %+ld / %+ld: %s\n",
		       rep.armed, rep.hit, rep.count, rep.again, rep.d1,
		       rep.d2, rep.why);
		return 0;
	}
	return inject(s);
}
