/*
 * aprobe: the AVC and status-page API, one canonical line per call, for
 * running the same sequence on Debian's libselinux.so.1 (as linked) and
 * on ours (LD_LIBRARY_PATH).  The library's log and audit callbacks print
 * to stdout as "log[TYPE] MESSAGE", so denial messages are compared too.
 *
 * Usage: aprobe COMMAND [ARGS]...   (commands chain, left to right)
 *   mnt PATH                  set_selinuxmnt(PATH)
 *   open [0|1]                avc_open (with AVC_OPT_SETENFORCE 0 or 1)
 *   init PREFIX               avc_init with log and lock callbacks
 *   destroy | reset | cleanup
 *   has S T CLS PERMS AUX     avc_has_perm (AUX: text for the audit
 *                             callback, - for none)
 *   hasref S T CLS PERMS      avc_has_perm twice with one entry ref
 *   noaudit S T CLS PERMS     avc_has_perm_noaudit, the decision
 *   check S T CLS PERM        selinux_check_access
 *   create S T CLS | member S T CLS   avc_compute_create / _member
 *   initial NAME              avc_get_initial_sid
 *   sid CON                   avc_context_to_sid and back
 *   stats | avstats | sidstats
 *   sopen N | updated | senforce | sload | sdeny | sclose
 *   setenforce N | bset NAME V | commit | load FILE
 *   cbs                       setenforce/policyload callbacks that print
 *   sh CMD                    system(CMD), to change a fixture mid-run
 *   repeat N CMD...           the rest of the line N times
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selinux/avc.h>
#include <selinux/selinux.h>

#include "probe_print.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int log_cb(int type, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("log[%d] %s%s", type, buf,
	       *buf && buf[strlen(buf) - 1] == '\n' ? "" : "<no newline>\n");
	fflush(stdout);
	return 0;
}

static int audit_cb(void *data, security_class_t cls, char *buf, size_t len)
{
	if (data)
		snprintf(buf, len, "aux=%s cls=%u", (const char *)data, cls);
	return 0;
}

static int setenforce_cb(int enforcing)
{
	printf("cb setenforce %d\n", enforcing);
	return 0;
}

static int policyload_cb(int seqno)
{
	printf("cb policyload %d\n", seqno);
	return 0;
}

/* avc_init's own callbacks: a log with no type, and counting locks. */
static void old_log(const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("oldlog %s%s", buf,
	       *buf && buf[strlen(buf) - 1] == '\n' ? "" : "<no newline>\n");
}

static void old_audit(void *data, security_class_t cls, char *buf, size_t len)
{
	if (data)
		snprintf(buf, len, "old=%s cls=%u", (const char *)data, cls);
}

static int locks_held;

static void *lock_alloc(void)
{
	return malloc(1);
}

static void lock_get(void *l)
{
	(void)l;
	locks_held++;
}

static void lock_release(void *l)
{
	(void)l;
	locks_held--;
}

static void lock_free(void *l)
{
	free(l);
}

static security_id_t sid_of(const char *con)
{
	security_id_t sid = NULL;

	if (avc_context_to_sid(con, &sid) < 0) {
		probe_rc("avc_context_to_sid", -1);
		return NULL;
	}
	return sid;
}

static void print_stats(void)
{
	struct avc_cache_stats s;

	memset(&s, 0xee, sizeof(s));
	avc_cache_stats(&s);
	printf("stats lookups=%u hits=%u misses=%u discards=%u "
	       "cav_lookups=%u cav_hits=%u cav_probes=%u cav_misses=%u\n",
	       s.entry_lookups, s.entry_hits, s.entry_misses, s.entry_discards,
	       s.cav_lookups, s.cav_hits, s.cav_probes, s.cav_misses);
}

static int run(int argc, char **argv);

/* One command at argv[0]; returns how many words it used. */
static int one(int argc, char **argv)
{
	const char *c = argv[0];
	security_id_t s, t, n;
	char *con = NULL;
	int r;

#define NEED(k)                                                                \
	do {                                                                   \
		if (argc < (k) + 1) {                                          \
			fprintf(stderr, "%s: %d arguments\n", c, k);           \
			exit(2);                                               \
		}                                                              \
	} while (0)

	errno = 0;
	if (!strcmp(c, "mnt")) {
		NEED(1);
		set_selinuxmnt(argv[1]);
		return 2;
	}
	if (!strcmp(c, "open")) {
		struct selinux_opt opt = {AVC_OPT_SETENFORCE, NULL};

		if (argc > 1 &&
		    (!strcmp(argv[1], "0") || !strcmp(argv[1], "1"))) {
			opt.value = argv[1][0] == '1' ? (char *)1 : NULL;
			probe_rc("avc_open", avc_open(&opt, 1));
			return 2;
		}
		probe_rc("avc_open", avc_open(NULL, 0));
		return 1;
	}
	if (!strcmp(c, "init")) {
		static const struct avc_log_callback lc = {old_log, old_audit};
		static const struct avc_lock_callback kc = {
		    lock_alloc, lock_get, lock_release, lock_free};

		NEED(1);
		probe_rc("avc_init", avc_init(argv[1], NULL, &lc, NULL, &kc));
		return 2;
	}
	if (!strcmp(c, "destroy")) {
		avc_destroy();
		puts("avc_destroy");
		return 1;
	}
	if (!strcmp(c, "reset")) {
		probe_rc("avc_reset", avc_reset());
		return 1;
	}
	if (!strcmp(c, "cleanup")) {
		avc_cleanup();
		puts("avc_cleanup");
		return 1;
	}
	if (!strcmp(c, "has") || !strcmp(c, "hasref")) {
		struct avc_entry_ref ref;
		security_class_t k;
		int used = 5;
		char *aux = NULL;

		NEED(4);
		if (!strcmp(c, "has")) {
			NEED(5);
			if (strcmp(argv[5], "-"))
				aux = argv[5];
			used = 6;
		}
		s = sid_of(argv[1]);
		t = sid_of(argv[2]);
		k = probe_class(argv[3]);
		if (!s || !t)
			return used;
		avc_entry_ref_init(&ref);
		r = avc_has_perm(s, t, k, probe_perms(k, argv[4]), &ref, aux);
		probe_rc("avc_has_perm", r);
		if (!strcmp(c, "hasref")) {
			r = avc_has_perm(s, t, k, probe_perms(k, argv[4]), &ref,
					 aux);
			probe_rc("avc_has_perm", r);
		}
		return used;
	}
	if (!strcmp(c, "noaudit")) {
		struct av_decision avd;
		security_class_t k;

		NEED(4);
		s = sid_of(argv[1]);
		t = sid_of(argv[2]);
		k = probe_class(argv[3]);
		if (!s || !t)
			return 5;
		memset(&avd, 0xee, sizeof(avd));
		r = avc_has_perm_noaudit(s, t, k, probe_perms(k, argv[4]), NULL,
					 &avd);
		probe_rc("avc_has_perm_noaudit", r);
		printf("avd %x %x %x %x %u %x\n", avd.allowed, avd.decided,
		       avd.auditallow, avd.auditdeny, avd.seqno, avd.flags);
		return 5;
	}
	if (!strcmp(c, "check")) {
		NEED(4);
		r = selinux_check_access(argv[1], argv[2], argv[3], argv[4],
					 NULL);
		probe_rc("selinux_check_access", r);
		return 5;
	}
	if (!strcmp(c, "create") || !strcmp(c, "member")) {
		NEED(3);
		s = sid_of(argv[1]);
		t = sid_of(argv[2]);
		if (!s || !t)
			return 4;
		n = NULL;
		if (!strcmp(c, "create"))
			r = avc_compute_create(s, t, probe_class(argv[3]), &n);
		else
			r = avc_compute_member(s, t, probe_class(argv[3]), &n);
		probe_rc(c, r);
		if (r == 0 && avc_sid_to_context(n, &con) == 0) {
			printf("%s con=\"%s\"\n", c, con);
			freecon(con);
		}
		return 4;
	}
	if (!strcmp(c, "initial")) {
		NEED(1);
		n = NULL;
		r = avc_get_initial_sid(argv[1], &n);
		probe_rc("avc_get_initial_sid", r);
		if (r == 0 && avc_sid_to_context_raw(n, &con) == 0) {
			printf("initial con=\"%s\"\n", con);
			freecon(con);
		}
		return 2;
	}
	if (!strcmp(c, "sid")) {
		security_id_t again = NULL;

		NEED(1);
		n = NULL;
		r = avc_context_to_sid_raw(argv[1], &n);
		probe_rc("avc_context_to_sid_raw", r);
		if (r < 0)
			return 2;
		r = avc_context_to_sid(argv[1], &again);
		printf("same sid %d\n", r == 0 && again == n);
		r = avc_sid_to_context(n, &con);
		probe_rc("avc_sid_to_context", r);
		if (r == 0) {
			printf("con=\"%s\"\n", con);
			freecon(con);
		}
		printf("sidget %d sidput %d\n", sidget(n), sidput(n));
		return 2;
	}
	if (!strcmp(c, "stats")) {
		print_stats();
		return 1;
	}
	if (!strcmp(c, "avstats")) {
		avc_av_stats();
		return 1;
	}
	if (!strcmp(c, "sidstats")) {
		avc_sid_stats();
		return 1;
	}
	if (!strcmp(c, "sopen")) {
		NEED(1);
		probe_rc("selinux_status_open",
			 selinux_status_open(atoi(argv[1])));
		return 2;
	}
	if (!strcmp(c, "updated")) {
		probe_rc("selinux_status_updated", selinux_status_updated());
		return 1;
	}
	if (!strcmp(c, "senforce")) {
		probe_rc("selinux_status_getenforce",
			 selinux_status_getenforce());
		return 1;
	}
	if (!strcmp(c, "sload")) {
		probe_rc("selinux_status_policyload",
			 selinux_status_policyload());
		return 1;
	}
	if (!strcmp(c, "sdeny")) {
		probe_rc("selinux_status_deny_unknown",
			 selinux_status_deny_unknown());
		return 1;
	}
	if (!strcmp(c, "sclose")) {
		selinux_status_close();
		puts("selinux_status_close");
		return 1;
	}
	if (!strcmp(c, "setenforce")) {
		NEED(1);
		probe_rc("security_setenforce",
			 security_setenforce(atoi(argv[1])));
		return 2;
	}
	if (!strcmp(c, "bset")) {
		NEED(2);
		probe_rc("security_set_boolean",
			 security_set_boolean(argv[1], atoi(argv[2])));
		return 3;
	}
	if (!strcmp(c, "commit")) {
		probe_rc("security_commit_booleans",
			 security_commit_booleans());
		return 1;
	}
	if (!strcmp(c, "load")) {
		FILE *f;
		char *buf;
		long len;

		NEED(1);
		f = fopen(argv[1], "rb");
		if (!f) {
			perror(argv[1]);
			exit(2);
		}
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		buf = malloc(len);
		if (fread(buf, 1, len, f) != (size_t)len)
			exit(2);
		fclose(f);
		probe_rc("security_load_policy",
			 security_load_policy(buf, len));
		free(buf);
		return 2;
	}
	if (!strcmp(c, "cbs")) {
		union selinux_callback cb;

		cb.func_setenforce = setenforce_cb;
		selinux_set_callback(SELINUX_CB_SETENFORCE, cb);
		cb.func_policyload = policyload_cb;
		selinux_set_callback(SELINUX_CB_POLICYLOAD, cb);
		puts("callbacks set");
		return 1;
	}
	if (!strcmp(c, "locks")) {
		printf("locks held %d\n", locks_held);
		return 1;
	}
	if (!strcmp(c, "sh")) {
		NEED(1);
		fflush(stdout);
		printf("sh = %d\n", system(argv[1]));
		return 2;
	}
	if (!strcmp(c, "repeat")) {
		NEED(2);
		for (int i = atoi(argv[1]); i > 0; i--)
			run(argc - 2, argv + 2);
		return argc;
	}
	fprintf(stderr, "unknown command %s\n", c);
	exit(2);
}

static int run(int argc, char **argv)
{
	while (argc > 0) {
		int k = one(argc, argv);

		fflush(stdout);
		argc -= k;
		argv += k;
	}
	return 0;
}

int main(int argc, char **argv)
{
	union selinux_callback cb;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cb.func_log = log_cb;
	selinux_set_callback(SELINUX_CB_LOG, cb);
	cb.func_audit = audit_cb;
	selinux_set_callback(SELINUX_CB_AUDIT, cb);
	return run(argc - 1, argv + 1);
}
