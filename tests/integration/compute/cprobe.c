/*
 * cprobe: the policy-decision API, one canonical line per call, for
 * running the same requests on Debian's libselinux.so.1 (as linked) and
 * on ours (LD_LIBRARY_PATH set for this program only).  The differential
 * and integration tests of the compute layer compare its outputs with
 * each other or with answers written by hand.
 *
 * Usage: cprobe COMMAND [ARGS]...   (commands chain, left to right)
 *   mnt PATH                      set_selinuxmnt(PATH)
 *   root PATH                     selinux_set_policy_root(PATH)
 *   av S T CLS REQ                compute_av, _flags, _raw, _flags_raw
 *                                 (CLS a number or a name, REQ hex or
 *                                 perm,perm names)
 *   av1 I S T CLS REQ             only the I-th of those four
 *   create|relabel|member S T CLS   the plain and _raw variants
 *   create_name S T CLS NAME
 *   user S USER                   security_compute_user(_raw)
 *   vt S T CLS N                  security_validatetrans(_raw)
 *   initial NAME                  security_get_initial_context(_raw)
 *   s2c NAME | c2s N | s2p CLS NAME | p2s CLS HEX | avs CLS HEX
 *   pav CLS HEX | mode OCTAL | flush
 *   map CLASS:perm,perm/CLASS:...   selinux_set_mapping ("-" no perms,
 *                                 "_" an empty permission string)
 *   unmap                         selinux_set_mapping of an empty map
 *   bools | bget NAME | bset NAME V | commit | blist PERM N=V,N=V
 *   bsub NAME | loadbools PATH | load FILE | mkload
 *   batch FILE                    av/create/... requests, one a line,
 *                                 "av S T CLS HEX" etc., answered in order
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <selinux/selinux.h>

#include "probe_print.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

typedef int (*av_fn)(const char *, const char *, security_class_t,
		     access_vector_t, struct av_decision *);

/* which: -1 all four, else the index of one (for one-answer fixtures) */
static void cmd_av(int which, const char *s, const char *t, const char *cls,
		   const char *req)
{
	static const struct {
		const char *name;
		av_fn fn;
	} fns[] = {
		{"security_compute_av", security_compute_av},
		{"security_compute_av_raw", security_compute_av_raw},
		{"security_compute_av_flags", security_compute_av_flags},
		{"security_compute_av_flags_raw",
		 security_compute_av_flags_raw},
	};
	security_class_t c = probe_class(cls);
	access_vector_t av = probe_perms(c, req);

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		struct av_decision avd;
		int r;

		if (which >= 0 && (size_t)which != i)
			continue;
		memset(&avd, 0xee, sizeof(avd));
		errno = 0;
		r = fns[i].fn(probe_arg(s), probe_arg(t), c, av, &avd);
		if (r < 0)
			probe_rc(fns[i].name, r);
		else
			printf("%s(%u, %x) = %d %x %x %x %x %u %x\n",
			       fns[i].name, c, av, r, avd.allowed,
			       avd.decided, avd.auditallow, avd.auditdeny,
			       avd.seqno, avd.flags);
	}
}

typedef int (*new_fn)(const char *, const char *, security_class_t,
		      char **);

static void cmd_new(const char *which, const char *s, const char *t,
		    const char *cls)
{
	new_fn plain, raw;
	char name[64];
	char *con = NULL;
	int r;

	if (!strcmp(which, "create")) {
		plain = security_compute_create;
		raw = security_compute_create_raw;
	} else if (!strcmp(which, "relabel")) {
		plain = security_compute_relabel;
		raw = security_compute_relabel_raw;
	} else {
		plain = security_compute_member;
		raw = security_compute_member_raw;
	}
	snprintf(name, sizeof(name), "security_compute_%s", which);
	errno = 0;
	r = plain(probe_arg(s), probe_arg(t), probe_class(cls), &con);
	probe_con(name, r, con);
	con = NULL;
	strcat(name, "_raw");
	errno = 0;
	r = raw(probe_arg(s), probe_arg(t), probe_class(cls), &con);
	probe_con(name, r, con);
}

static void cmd_create_name(const char *s, const char *t, const char *cls,
			    const char *obj)
{
	char *con = NULL;
	int r;

	errno = 0;
	r = security_compute_create_name(
	    probe_arg(s), probe_arg(t), probe_class(cls), probe_arg(obj), &con);
	probe_con("security_compute_create_name", r, con);
	con = NULL;
	errno = 0;
	r = security_compute_create_name_raw(
	    probe_arg(s), probe_arg(t), probe_class(cls), probe_arg(obj), &con);
	probe_con("security_compute_create_name_raw", r, con);
}

static void show_ary(const char *what, int r, char **cons)
{
	probe_rc(what, r);
	for (size_t i = 0; r >= 0 && cons && cons[i]; i++)
		printf("  %s\n", cons[i]);
	if (r >= 0)
		freeconary(cons);
}

static void cmd_user(const char *s, const char *user)
{
	char **cons = NULL;
	int r;

	errno = 0;
	r = security_compute_user(probe_arg(s), probe_arg(user), &cons);
	show_ary("security_compute_user", r, cons);
	cons = NULL;
	errno = 0;
	r = security_compute_user_raw(probe_arg(s), probe_arg(user), &cons);
	show_ary("security_compute_user_raw", r, cons);
}

static void cmd_vt(const char *s, const char *t, const char *cls,
		   const char *n)
{
	errno = 0;
	probe_rc("security_validatetrans",
		 security_validatetrans(probe_arg(s), probe_arg(t),
					probe_class(cls), probe_arg(n)));
	errno = 0;
	probe_rc("security_validatetrans_raw",
		 security_validatetrans_raw(probe_arg(s), probe_arg(t),
					    probe_class(cls), probe_arg(n)));
}

static void cmd_initial(const char *name)
{
	char *con = NULL;
	int r;

	errno = 0;
	r = security_get_initial_context(probe_arg(name), &con);
	probe_con("security_get_initial_context", r, con);
	con = NULL;
	errno = 0;
	r = security_get_initial_context_raw(probe_arg(name), &con);
	probe_con("security_get_initial_context_raw", r, con);
}

static void show_str(const char *what, const char *s)
{
	if (s)
		printf("%s = \"%s\"\n", what, s);
	else
		printf("%s = NULL errno=%s\n", what, probe_errname(errno));
}

/* "file:read,write/dir:-/x:_,read": a mapping of classes and perms */
static void cmd_map(const char *spec)
{
	struct security_class_mapping map[64];
	char *copy = strdup(spec), *save = NULL;
	size_t n = 0;

	memset(map, 0, sizeof(map));
	for (char *c = strtok_r(copy, "/", &save); c && n < 63;
	     c = strtok_r(NULL, "/", &save), n++) {
		char *perms = strchr(c, ':');
		size_t k = 0;

		if (perms)
			*perms++ = '\0';
		map[n].name = c;
		for (char *p = perms; p && *p && k < 32;) {
			char *comma = strchr(p, ',');

			if (comma)
				*comma = '\0';
			if (strcmp(p, "-"))
				map[n].perms[k++] = strcmp(p, "_") ? p : "";
			p = comma ? comma + 1 : NULL;
		}
	}
	errno = 0;
	probe_rc("selinux_set_mapping", selinux_set_mapping(map));
	/* the strings must outlive the mapping: it keeps no copies of
	 * them in either library, but leave them allocated anyway */
}

static void cmd_bools(void)
{
	char **names = NULL;
	int n = -7, r;

	errno = 0;
	r = security_get_boolean_names(&names, &n);
	if (r < 0) {
		probe_rc("security_get_boolean_names", r);
		return;
	}
	printf("security_get_boolean_names = %d len=%d\n", r, n);
	for (int i = 0; i < n; i++) {
		int a, p;

		errno = 0;
		a = security_get_boolean_active(names[i]);
		p = security_get_boolean_pending(names[i]);
		printf("  %s active=%d pending=%d\n", names[i], a, p);
		free(names[i]);
	}
	free(names);
}

static void cmd_blist(const char *perm, const char *spec)
{
	SELboolean list[64];
	char *copy = strdup(spec), *save = NULL;
	size_t n = 0;

	for (char *c = strtok_r(copy, ",", &save); c && n < 64;
	     c = strtok_r(NULL, ",", &save), n++) {
		char *eq = strchr(c, '=');

		list[n].name = c;
		list[n].value = 0;
		if (eq) {
			*eq = '\0';
			list[n].value = atoi(eq + 1);
		}
	}
	if (!strcmp(spec, "-"))
		n = 0;
	errno = 0;
	probe_rc("security_set_boolean_list",
		 security_set_boolean_list(n, list, atoi(perm)));
	for (size_t i = 0; i < n; i++)
		printf("  %s value=%d\n", list[i].name, list[i].value);
	free(copy);
}

static void cmd_load(const char *file)
{
	FILE *f = fopen(file, "rb");
	char *buf;
	long len;

	if (!f) {
		printf("load: cannot open %s\n", file);
		return;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	if (fread(buf, 1, (size_t)len, f) != (size_t)len)
		len = 0;
	fclose(f);
	errno = 0;
	probe_rc("security_load_policy",
		 security_load_policy(buf, (size_t)len));
	free(buf);
}

static int run(int argc, char **argv);

/* One request a line, words separated by single spaces or tabs. */
static void cmd_batch(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[8192];

	if (!f) {
		printf("batch: cannot open %s\n", file);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *words[8];
		int n = 0;
		char *save = NULL;

		line[strcspn(line, "\n")] = '\0';
		for (char *w = strtok_r(line, " \t", &save); w && n < 8;
		     w = strtok_r(NULL, " \t", &save))
			words[n++] = w;
		if (n)
			run(n, words);
	}
	fclose(f);
}

#define NEED(k)                                                                \
	do {                                                                   \
		if (left < (k))                                                \
			goto bad;                                              \
	} while (0)

static int run(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *c = argv[i];
		char **a = argv + i + 1;
		int left = argc - i - 1;
		security_class_t cls;
		unsigned int v;

		if (!strcmp(c, "mnt")) {
			NEED(1);
			set_selinuxmnt(a[0]);
			i += 1;
		} else if (!strcmp(c, "root")) {
			NEED(1);
			errno = 0;
			probe_rc("selinux_set_policy_root",
				 selinux_set_policy_root(a[0]));
			i += 1;
		} else if (!strcmp(c, "av")) {
			NEED(4);
			cmd_av(-1, a[0], a[1], a[2], a[3]);
			i += 4;
		} else if (!strcmp(c, "av1")) {
			NEED(5);
			cmd_av(atoi(a[0]), a[1], a[2], a[3], a[4]);
			i += 5;
		} else if (!strcmp(c, "create") || !strcmp(c, "relabel") ||
			   !strcmp(c, "member")) {
			NEED(3);
			cmd_new(c, a[0], a[1], a[2]);
			i += 3;
		} else if (!strcmp(c, "create_name")) {
			NEED(4);
			cmd_create_name(a[0], a[1], a[2], a[3]);
			i += 4;
		} else if (!strcmp(c, "user")) {
			NEED(2);
			cmd_user(a[0], a[1]);
			i += 2;
		} else if (!strcmp(c, "vt")) {
			NEED(4);
			cmd_vt(a[0], a[1], a[2], a[3]);
			i += 4;
		} else if (!strcmp(c, "initial")) {
			NEED(1);
			cmd_initial(a[0]);
			i += 1;
		} else if (!strcmp(c, "s2c")) {
			NEED(1);
			errno = 0;
			v = string_to_security_class(probe_arg(a[0]));
			printf("string_to_security_class(%s) = %u errno=%s\n",
			       a[0], v, probe_errname(errno));
			i += 1;
		} else if (!strcmp(c, "c2s")) {
			NEED(1);
			errno = 0;
			show_str("security_class_to_string",
				 security_class_to_string(probe_class(a[0])));
			i += 1;
		} else if (!strcmp(c, "s2p")) {
			NEED(2);
			cls = probe_class(a[0]);
			errno = 0;
			v = string_to_av_perm(cls, probe_arg(a[1]));
			printf("string_to_av_perm(%s, %s) = %x errno=%s\n",
			       a[0], a[1], v, probe_errname(errno));
			i += 2;
		} else if (!strcmp(c, "p2s")) {
			NEED(2);
			errno = 0;
			show_str("security_av_perm_to_string",
				 security_av_perm_to_string(
				     probe_class(a[0]),
				     (access_vector_t)strtoul(a[1], NULL, 16)));
			i += 2;
		} else if (!strcmp(c, "avs")) {
			char *s = NULL;
			int r;

			NEED(2);
			errno = 0;
			r = security_av_string(
			    probe_class(a[0]),
			    (access_vector_t)strtoul(a[1], NULL, 16), &s);
			if (r < 0)
				probe_rc("security_av_string", r);
			else
				printf("security_av_string = %d \"%s\"\n", r,
				       s);
			free(s);
			i += 2;
		} else if (!strcmp(c, "pav")) {
			NEED(2);
			printf("print_access_vector = [");
			print_access_vector(
			    probe_class(a[0]),
			    (access_vector_t)strtoul(a[1], NULL, 16));
			printf("]\n");
			i += 2;
		} else if (!strcmp(c, "mode")) {
			NEED(1);
			errno = 0;
			v = mode_to_security_class(
				(mode_t)strtoul(a[0], NULL, 8));
			printf("mode_to_security_class(%s) = %u errno=%s\n",
			       a[0], v, probe_errname(errno));
			i += 1;
		} else if (!strcmp(c, "flush")) {
			selinux_flush_class_cache();
			printf("selinux_flush_class_cache\n");
		} else if (!strcmp(c, "map")) {
			NEED(1);
			cmd_map(a[0]);
			i += 1;
		} else if (!strcmp(c, "unmap")) {
			struct security_class_mapping none[1] = {{0}};

			errno = 0;
			probe_rc("selinux_set_mapping(empty)",
				 selinux_set_mapping(none));
		} else if (!strcmp(c, "bools")) {
			cmd_bools();
		} else if (!strcmp(c, "bget")) {
			NEED(1);
			errno = 0;
			probe_rc("security_get_boolean_active",
				 security_get_boolean_active(probe_arg(a[0])));
			errno = 0;
			probe_rc("security_get_boolean_pending",
				 security_get_boolean_pending(probe_arg(a[0])));
			i += 1;
		} else if (!strcmp(c, "bset")) {
			NEED(2);
			errno = 0;
			probe_rc(
			    "security_set_boolean",
			    security_set_boolean(probe_arg(a[0]), atoi(a[1])));
			i += 2;
		} else if (!strcmp(c, "commit")) {
			errno = 0;
			probe_rc("security_commit_booleans",
				 security_commit_booleans());
		} else if (!strcmp(c, "blist")) {
			NEED(2);
			cmd_blist(a[0], a[1]);
			i += 2;
		} else if (!strcmp(c, "bsub")) {
			char *s;

			NEED(1);
			errno = 0;
			s = selinux_boolean_sub(probe_arg(a[0]));
			show_str("selinux_boolean_sub", s);
			free(s);
			i += 1;
		} else if (!strcmp(c, "loadbools")) {
			NEED(1);
			errno = 0;
			probe_rc(
			    "security_load_booleans",
			    security_load_booleans((char *)probe_arg(a[0])));
			i += 1;
		} else if (!strcmp(c, "load")) {
			NEED(1);
			cmd_load(a[0]);
			i += 1;
		} else if (!strcmp(c, "mkload")) {
			errno = 0;
			probe_rc("selinux_mkload_policy",
				 selinux_mkload_policy(0));
		} else if (!strcmp(c, "batch")) {
			NEED(1);
			cmd_batch(a[0]);
			i += 1;
		} else {
			goto bad;
		}
		continue;
	bad:
		fprintf(stderr, "cprobe: bad command %s\n", c);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* line by line: a crash still shows how far the calls got */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return run(argc - 1, argv + 1);
}
