/*
 * vmcompute: the policy-decision API (security_compute_*, booleans, class
 * mapping, the status page) asked of the real kernel, printed one
 * canonical line per call like vmprobe, for running on both libraries.
 *
 * Every call goes through dlsym, so the program loads on a library that
 * does not have the call yet; "has SYMBOL..." prints which are there, and
 * the checks skip what our library lacks.
 *
 * Usage: vmcompute COMMAND [ARGS]...   (commands chain)
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/selinux.h>

#include "probe_print.h"

typedef int (*av_fn)(const char *, const char *, security_class_t,
		     access_vector_t, struct av_decision *);
typedef int (*create_fn)(const char *, const char *, security_class_t, char **);
typedef int (*create_name_fn)(const char *, const char *, security_class_t,
			      const char *, char **);
typedef int (*user_fn)(const char *, const char *, char ***);
typedef int (*vt_fn)(const char *, const char *, security_class_t,
		     const char *);
typedef int (*initial_fn)(const char *, char **);
typedef security_class_t (*s2c_fn)(const char *);
typedef access_vector_t (*s2p_fn)(security_class_t, const char *);
typedef const char *(*c2s_fn)(security_class_t);
typedef int (*names_fn)(char ***, int *);
typedef int (*bool_get_fn)(const char *);
typedef int (*bool_set_fn)(const char *, int);
typedef int (*commit_fn)(void);
typedef int (*status_open_fn)(int);
typedef int (*status_int_fn)(void);
typedef void (*status_close_fn)(void);

static void *sym(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}

static int missing(const char *name)
{
	printf("%s = missing\n", name);
	return 0;
}

/* CLASS by name, through the library's own mapping (the kernel's class/). */
static security_class_t class_of(const char *name)
{
	s2c_fn f = (s2c_fn)sym("string_to_security_class");

	return f ? f(name) : 0;
}

static void cmd_has(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		printf("%s %s\n", argv[i], sym(argv[i]) ? "yes" : "no");
}

/* av SCON TCON CLASS PERM[,PERM...]: compute_av and compute_av_flags */
static void cmd_av(const char *scon, const char *tcon, const char *cls,
		   const char *perms)
{
	static const char *const names[] = {"security_compute_av",
					    "security_compute_av_flags"};
	s2p_fn s2p = (s2p_fn)sym("string_to_av_perm");
	security_class_t c = class_of(cls);
	access_vector_t req = 0;
	char *list = strdup(perms), *save = NULL;

	printf("class %s = %u\n", cls, c);
	for (char *p = strtok_r(list, ",", &save); p && s2p;
	     p = strtok_r(NULL, ",", &save))
		req |= s2p(c, p);
	free(list);
	printf("requested = %x\n", req);
	for (size_t i = 0; i < 2; i++) {
		av_fn f = (av_fn)sym(names[i]);
		struct av_decision avd;
		int r;

		if (!f) {
			missing(names[i]);
			continue;
		}
		memset(&avd, 0xee, sizeof(avd));
		errno = 0;
		r = f(scon, tcon, c, req, &avd);
		if (r < 0)
			probe_rc(names[i], r);
		else
			printf("%s = %d allowed=%x decided=%x auditallow=%x "
			       "auditdeny=%x seqno=%u flags=%x\n",
			       names[i], r, avd.allowed, avd.decided,
			       avd.auditallow, avd.auditdeny, avd.seqno,
			       avd.flags);
	}
}

static void show_new(const char *what, int r, char *con)
{
	if (r < 0)
		probe_rc(what, r);
	else
		printf("%s = %d con=\"%s\"\n", what, r, con);
	if (r >= 0)
		freecon(con);
}

/* create|relabel|member SCON TCON CLASS [NAME] */
static void cmd_new(const char *which, const char *scon, const char *tcon,
		    const char *cls, const char *name)
{
	char fn[64], *con = NULL;
	security_class_t c = class_of(cls);
	int r;

	snprintf(fn, sizeof(fn), "security_compute_%s%s", which,
		 name ? "_name" : "");
	errno = 0;
	if (name) {
		create_name_fn f = (create_name_fn)sym(fn);

		if (!f) {
			missing(fn);
			return;
		}
		r = f(scon, tcon, c, name, &con);
	} else {
		create_fn f = (create_fn)sym(fn);

		if (!f) {
			missing(fn);
			return;
		}
		r = f(scon, tcon, c, &con);
	}
	show_new(fn, r, con);
}

static void cmd_user(const char *scon, const char *user)
{
	user_fn f = (user_fn)sym("security_compute_user");
	char **cons = NULL;
	int r;

	if (!f) {
		missing("security_compute_user");
		return;
	}
	errno = 0;
	r = f(scon, user, &cons);
	probe_rc("security_compute_user", r);
	for (size_t i = 0; r >= 0 && cons && cons[i]; i++)
		printf("  %s\n", cons[i]);
	if (r >= 0)
		freeconary(cons);
}

static void cmd_validatetrans(const char *scon, const char *tcon,
			      const char *cls, const char *newcon)
{
	vt_fn f = (vt_fn)sym("security_validatetrans");

	if (!f) {
		missing("security_validatetrans");
		return;
	}
	errno = 0;
	probe_rc("security_validatetrans",
		 f(scon, tcon, class_of(cls), newcon));
}

static void cmd_initial(const char *name)
{
	initial_fn f = (initial_fn)sym("security_get_initial_context");
	char *con = NULL;
	int r;

	if (!f) {
		missing("security_get_initial_context");
		return;
	}
	errno = 0;
	r = f(name, &con);
	show_new("security_get_initial_context", r, con);
}

/* class CLASS PERM...: the mapping both ways */
static void cmd_class(const char *cls, int argc, char **argv)
{
	s2p_fn s2p = (s2p_fn)sym("string_to_av_perm");
	c2s_fn c2s = (c2s_fn)sym("security_class_to_string");
	security_class_t c = class_of(cls);
	const char *back = c2s ? c2s(c) : NULL;

	printf("string_to_security_class(%s) = %u\n", cls, c);
	printf("security_class_to_string(%u) = %s\n", c, back ? back : "NULL");
	for (int i = 0; i < argc; i++)
		printf("string_to_av_perm(%s) = %x\n", argv[i],
		       s2p ? s2p(c, argv[i]) : 0);
}

static void cmd_bools(void)
{
	names_fn f = (names_fn)sym("security_get_boolean_names");
	bool_get_fn act = (bool_get_fn)sym("security_get_boolean_active");
	bool_get_fn pend = (bool_get_fn)sym("security_get_boolean_pending");
	char **names = NULL;
	int n = 0, r;

	if (!f || !act || !pend) {
		missing("security_get_boolean_names/_active/_pending");
		return;
	}
	errno = 0;
	r = f(&names, &n);
	probe_rc("security_get_boolean_names", r);
	for (int i = 0; r >= 0 && i < n; i++) {
		printf("  %s active=%d pending=%d\n", names[i], act(names[i]),
		       pend(names[i]));
		free(names[i]);
	}
	free(names);
}

/* setbool NAME VALUE: set, show pending, commit, show active */
static void cmd_setbool(const char *name, const char *value)
{
	bool_set_fn set = (bool_set_fn)sym("security_set_boolean");
	commit_fn commit = (commit_fn)sym("security_commit_booleans");
	bool_get_fn act = (bool_get_fn)sym("security_get_boolean_active");
	bool_get_fn pend = (bool_get_fn)sym("security_get_boolean_pending");

	if (!set || !commit || !act || !pend) {
		missing("security_set_boolean/_commit_booleans");
		return;
	}
	errno = 0;
	probe_rc("security_set_boolean", set(name, atoi(value)));
	printf("active=%d pending=%d\n", act(name), pend(name));
	errno = 0;
	probe_rc("security_commit_booleans", commit());
	printf("active=%d pending=%d\n", act(name), pend(name));
}

/* status: selinux_status_open and what the page says */
static void cmd_status(void)
{
	status_open_fn open_ = (status_open_fn)sym("selinux_status_open");
	status_int_fn upd = (status_int_fn)sym("selinux_status_updated");
	status_int_fn enf = (status_int_fn)sym("selinux_status_getenforce");
	status_int_fn pl = (status_int_fn)sym("selinux_status_policyload");
	status_int_fn du = (status_int_fn)sym("selinux_status_deny_unknown");
	status_close_fn cl = (status_close_fn)sym("selinux_status_close");

	if (!open_ || !upd || !enf || !pl || !du || !cl) {
		missing("selinux_status_*");
		return;
	}
	errno = 0;
	probe_rc("selinux_status_open", open_(0));
	probe_rc("selinux_status_updated", upd());
	probe_rc("selinux_status_getenforce", enf());
	probe_rc("selinux_status_deny_unknown", du());
	printf("selinux_status_policyload >= 0: %d\n", pl() >= 0);
	cl();
}

/*
 * The AVC on the real kernel: "avc S T CLASS PERM" asks avc_has_perm
 * (opening the AVC on first use); "enforce N" writes selinuxfs's enforce
 * file directly, as setenforce would, so that the AVC learns of it only
 * through the status page.
 */
typedef int (*avc_open_fn)(void *, unsigned);
typedef int (*avc_c2s_fn)(const char *, void **);
typedef int (*avc_perm_fn)(void *, void *, security_class_t, access_vector_t,
			   void *, void *);

static void cmd_avc(const char *s, const char *t, const char *cls,
		    const char *perm)
{
	static int opened;
	avc_open_fn open_ = (avc_open_fn)sym("avc_open");
	avc_c2s_fn c2s = (avc_c2s_fn)sym("avc_context_to_sid");
	avc_perm_fn has = (avc_perm_fn)sym("avc_has_perm_noaudit");
	s2p_fn s2p = (s2p_fn)sym("string_to_av_perm");
	void *ss, *ts;
	security_class_t c;
	struct av_decision avd;

	if (!open_ || !c2s || !has || !s2p) {
		missing("avc_*");
		return;
	}
	if (!opened) {
		errno = 0;
		probe_rc("avc_open", open_(NULL, 0));
		opened = 1;
	}
	if (c2s(s, &ss) < 0 || c2s(t, &ts) < 0) {
		probe_rc("avc_context_to_sid", -1);
		return;
	}
	c = class_of(cls);
	errno = 0;
	probe_rc("avc_has_perm_noaudit",
		 has(ss, ts, c, s2p(c, perm), NULL, &avd));
}

static void cmd_enforce(const char *v)
{
	FILE *f = fopen("/sys/fs/selinux/enforce", "w");

	/* silent when it works: the AVC's own log line tells */
	if (!f || fputs(v, f) < 0 || fclose(f) != 0)
		printf("enforce %s: %s\n", v, probe_errname(errno));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i];
		int left = argc - i - 1;

		if (!strcmp(c, "has")) {
			cmd_has(left, argv + i + 1);
			break;
		} else if (!strcmp(c, "av") && left >= 4) {
			cmd_av(argv[i + 1], argv[i + 2], argv[i + 3],
			       argv[i + 4]);
			i += 4;
		} else if ((!strcmp(c, "create") || !strcmp(c, "relabel") ||
			    !strcmp(c, "member")) &&
			   left >= 3) {
			cmd_new(c, argv[i + 1], argv[i + 2], argv[i + 3], NULL);
			i += 3;
		} else if (!strcmp(c, "create_name") && left >= 4) {
			cmd_new("create", argv[i + 1], argv[i + 2], argv[i + 3],
				argv[i + 4]);
			i += 4;
		} else if (!strcmp(c, "user") && left >= 2) {
			cmd_user(argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (!strcmp(c, "validatetrans") && left >= 4) {
			cmd_validatetrans(argv[i + 1], argv[i + 2], argv[i + 3],
					  argv[i + 4]);
			i += 4;
		} else if (!strcmp(c, "initial") && left >= 1) {
			cmd_initial(argv[++i]);
		} else if (!strcmp(c, "class") && left >= 1) {
			cmd_class(argv[i + 1], left - 1, argv + i + 2);
			break;
		} else if (!strcmp(c, "bools")) {
			cmd_bools();
		} else if (!strcmp(c, "setbool") && left >= 2) {
			cmd_setbool(argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (!strcmp(c, "status")) {
			cmd_status();
		} else if (!strcmp(c, "avc") && left >= 4) {
			cmd_avc(argv[i + 1], argv[i + 2], argv[i + 3],
				argv[i + 4]);
			i += 4;
		} else if (!strcmp(c, "enforce") && left >= 1) {
			cmd_enforce(argv[i + 1]);
			i += 1;
		} else {
			fprintf(stderr, "vmcompute: bad command %s\n", c);
			return 2;
		}
	}
	return 0;
}
