/* kernel/policy/verify_facts.c - check facts.txt against the compiled policy.
 *
 *   verify_facts FACTS NONMLS_POLICY MLS_POLICY
 *
 * Every fact in FACTS (format: see the top of facts.txt) was written by hand
 * from the policy source; this program asks libsepol (the static library,
 * for its internal policydb) whether the compiled binaries agree.  It prints
 * one line per failed fact and exits 1 if any failed, 77 (meson's "skip")
 * if a policy cannot be read.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sepol/policydb/conditional.h>
#include <sepol/policydb/hashtab.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/services.h>
#include <sepol/policydb/sidtab.h>
#include <sepol/debug.h>

#define MAXF 16

static policydb_t db;
static sidtab_t sids;
static int mls;
static int failures, checked;
static const char *variant;
static int lineno;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#include <stdarg.h>
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FAIL [%s] line %d: ", variant, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failures++;
}

static int load(const char *path)
{
	FILE *fp = fopen(path, "re");
	policy_file_t pf;

	if (!fp) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	policy_file_init(&pf);
	pf.type = PF_USE_STDIO;
	pf.fp = fp;
	if (policydb_init(&db) || policydb_read(&db, &pf, 0)) {
		fprintf(stderr, "%s: cannot read the policy\n", path);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	if (sepol_sidtab_init(&sids))
		return -1;
	sepol_set_policydb(&db);
	sepol_set_sidtab(&sids);
	mls = db.mls;
	return 0;
}

static void unload(void)
{
	sepol_sidtab_destroy(&sids);
	policydb_destroy(&db);
}

/* "all" facts carry contexts without a level: the MLS variant adds s0. */
static const char *ctx(const char *c, char *buf, size_t len)
{
	int colons = 0;

	for (const char *p = c; *p; p++)
		colons += *p == ':';
	if (mls && colons == 2)
		snprintf(buf, len, "%s:s0", c);
	else
		snprintf(buf, len, "%s", c);
	return buf;
}

static int sid_of(const char *c, sepol_security_id_t *sid)
{
	char buf[512];

	ctx(c, buf, sizeof buf);
	if (sepol_context_to_sid(buf, strlen(buf) + 1, sid) < 0) {
		fail("invalid context %s", buf);
		return -1;
	}
	return 0;
}

static char *str_of(sepol_security_id_t sid)
{
	char *s = NULL;
	size_t len;

	if (sepol_sid_to_context(sid, &s, &len) < 0)
		return strdup("?");
	return s;
}

static class_datum_t *class_of(const char *name, sepol_security_class_t *val)
{
	class_datum_t *c = hashtab_search(db.p_classes.table, (hashtab_key_t)name);

	if (!c) {
		fail("unknown class %s", name);
		return NULL;
	}
	*val = c->s.value;
	return c;
}

/* The access vector of a space-separated permission list; '-' is none. */
static int perms_of(class_datum_t *c, const char *list, sepol_access_vector_t *av)
{
	char buf[1024], *save, *p;

	*av = 0;
	if (!strcmp(list, "-"))
		return 0;
	snprintf(buf, sizeof buf, "%s", list);
	for (p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		perm_datum_t *perm = hashtab_search(c->permissions.table, p);

		if (!perm && c->comdatum)
			perm = hashtab_search(c->comdatum->permissions.table, p);
		if (!perm) {
			fail("unknown permission %s", p);
			return -1;
		}
		*av |= 1U << (perm->s.value - 1);
	}
	return 0;
}

static void perm_names(class_datum_t *c, sepol_access_vector_t av, char *out, size_t len)
{
	size_t n = 0;

	out[0] = 0;
	for (unsigned bit = 0; bit < 32; bit++) {
		const char *name = NULL;

		if (!(av & (1U << bit)))
			continue;
		for (unsigned i = 0; i < c->permissions.table->size && !name; i++)
			for (hashtab_ptr_t h = c->permissions.table->htable[i]; h; h = h->next)
				if (((perm_datum_t *)h->datum)->s.value == bit + 1)
					name = h->key;
		if (!name && c->comdatum) {
			hashtab_t t = c->comdatum->permissions.table;

			for (unsigned i = 0; i < t->size && !name; i++)
				for (hashtab_ptr_t h = t->htable[i]; h; h = h->next)
					if (((perm_datum_t *)h->datum)->s.value == bit + 1)
						name = h->key;
		}
		n += snprintf(out + n, len - n, "%s%s", n ? " " : "", name ? name : "?");
		if (n >= len)
			break;
	}
}

static int decide(char **f, class_datum_t **c, struct sepol_av_decision *avd)
{
	sepol_security_id_t s, t;
	sepol_security_class_t cl;

	if (sid_of(f[0], &s) || sid_of(f[1], &t) || !(*c = class_of(f[2], &cl)))
		return -1;
	if (sepol_compute_av(s, t, cl, ~0U, avd) < 0) {
		fail("compute_av %s %s %s failed", f[0], f[1], f[2]);
		return -1;
	}
	return 0;
}

static void check_av(char **f, int n)
{
	struct sepol_av_decision avd;
	class_datum_t *c;
	sepol_access_vector_t want, deny;
	char got[1024];

	if (n != 5) {
		fail("av needs 5 fields");
		return;
	}
	if (decide(f, &c, &avd) || perms_of(c, f[3], &want) || perms_of(c, f[4], &deny))
		return;
	perm_names(c, avd.allowed, got, sizeof got);
	if ((avd.allowed & want) != want)
		fail("%s %s %s: expected allowed {%s}, policy allows {%s}", f[0], f[1], f[2], f[3], got);
	if (avd.allowed & deny)
		fail("%s %s %s: expected denied {%s}, policy allows {%s}", f[0], f[1], f[2], f[4], got);
}

static void check_audit(char **f, int n, int allow)
{
	struct sepol_av_decision avd;
	class_datum_t *c;
	sepol_access_vector_t want;
	char got[1024];

	if (n != 4) {
		fail("auditallow/dontaudit need 4 fields");
		return;
	}
	if (decide(f, &c, &avd) || perms_of(c, f[3], &want))
		return;
	if (allow && (avd.auditallow & want) != want) {
		perm_names(c, avd.auditallow, got, sizeof got);
		fail("%s %s %s: expected auditallow {%s}, policy has {%s}", f[0], f[1], f[2], f[3], got);
	}
	if (!allow && (avd.auditdeny & want)) {
		perm_names(c, avd.auditdeny & want, got, sizeof got);
		fail("%s %s %s: expected {%s} not audited, policy audits {%s}", f[0], f[1], f[2], f[3], got);
	}
}

/* The type a type_transition with an object name gives, or 0. */
static uint32_t named_type(const char *scon, const char *tcon, sepol_security_class_t cl,
			   const char *name)
{
	sepol_security_id_t s, t;
	context_struct_t *sc, *tc;
	filename_trans_key_t key;
	filename_trans_datum_t *d;

	if (sid_of(scon, &s) || sid_of(tcon, &t))
		return 0;
	sc = sepol_sidtab_search(&sids, s);
	tc = sepol_sidtab_search(&sids, t);
	key.ttype = tc->type;
	key.tclass = cl;
	key.name = (char *)name;
	for (d = hashtab_search(db.filename_trans, (hashtab_key_t)&key); d; d = d->next)
		if (ebitmap_get_bit(&d->stypes, sc->type - 1))
			return d->otype;
	return 0;
}

static void check_compute(char **f, int n, int kind)
{
	sepol_security_id_t s, t, out;
	sepol_security_class_t cl;
	const char *name = NULL, *want;
	char wbuf[512], *got;
	int rc;

	if (kind == 't') {
		if (n != 5) {
			fail("create needs 5 fields");
			return;
		}
		if (strcmp(f[3], "-"))
			name = f[3];
		want = f[4];
	} else {
		if (n != 4) {
			fail("member/relabel need 4 fields");
			return;
		}
		want = f[3];
	}
	if (sid_of(f[0], &s) || sid_of(f[1], &t) || !class_of(f[2], &cl))
		return;
	rc = kind == 't' ? sepol_transition_sid(s, t, cl, &out)
	   : kind == 'm' ? sepol_member_sid(s, t, cl, &out)
	   : sepol_change_sid(s, t, cl, &out);
	if (rc < 0) {
		fail("compute %s %s %s failed", f[0], f[1], f[2]);
		return;
	}
	if (name) {
		uint32_t type = named_type(f[0], f[1], cl, name);

		if (type) {
			context_struct_t *c = sepol_sidtab_search(&sids, out), nc;

			nc = *c;
			nc.type = type;
			if (sepol_sidtab_context_to_sid(&sids, &nc, &out) < 0) {
				fail("named transition context");
				return;
			}
		}
	}
	got = str_of(out);
	ctx(want, wbuf, sizeof wbuf);
	if (strcmp(got, wbuf))
		fail("%s %s %s %s: expected %s, policy gives %s", f[0], f[1], f[2],
		     name ? name : "", wbuf, got);
	free(got);
}

/*
 * compute_user without MLS.  libsepol 3.4's sepol_get_user_sids leaves the
 * candidate's MLS range uninitialised in a non-MLS policy (and crashes), so
 * walk the user's roles and their types, in value order, as the kernel does,
 * and keep the contexts the caller may transition to.
 */
static int user_sids(sepol_security_id_t from, const char *name,
		     sepol_security_id_t **list, uint32_t *nel)
{
	user_datum_t *user = hashtab_search(db.p_users.table, (hashtab_key_t)name);
	context_struct_t *fromcon = sepol_sidtab_search(&sids, from);
	ebitmap_node_t *rn, *tn;
	unsigned int r, t;

	*list = NULL;
	*nel = 0;
	if (!user || !fromcon) {
		fail("compute_user: no user %s", name);
		return -1;
	}
	ebitmap_for_each_positive_bit(&user->roles.roles, rn, r) {
		role_datum_t *role = db.role_val_to_struct[r];

		ebitmap_for_each_positive_bit(&role->types.types, tn, t) {
			char c[512];
			sepol_security_id_t sid;
			struct sepol_av_decision avd;

			if (t + 1 == fromcon->type)	/* as libsepol does */
				continue;
			snprintf(c, sizeof c, "%s:%s:%s", name, db.p_role_val_to_name[r],
				 db.p_type_val_to_name[t]);
			if (sepol_context_to_sid(c, strlen(c) + 1, &sid) < 0 ||
			    sepol_compute_av(from, sid, db.process_class, db.process_trans, &avd) < 0 ||
			    !(avd.allowed & db.process_trans))
				continue;
			*list = realloc(*list, (*nel + 1) * sizeof **list);
			(*list)[(*nel)++] = sid;
		}
	}
	return 0;
}

static void check_user(char **f, int n)
{
	sepol_security_id_t s, *list = NULL;
	uint32_t nel = 0;
	char want[4096], got[4096], buf[512], cbuf[512], *save, *p;
	size_t wn = 0, gn = 0;

	if (n != 3) {
		fail("user needs 3 fields");
		return;
	}
	if (sid_of(f[0], &s))
		return;
	want[0] = got[0] = 0;
	if (strcmp(f[2], "-")) {
		snprintf(buf, sizeof buf, "%s", f[2]);
		for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save))
			wn += snprintf(want + wn, sizeof want - wn, "%s%s", wn ? "," : "",
				       ctx(p, cbuf, sizeof cbuf));
	}
	if (mls) {
		if (sepol_get_user_sids(s, f[1], &list, &nel) < 0) {
			fail("compute_user %s %s failed", f[0], f[1]);
			return;
		}
	} else if (user_sids(s, f[1], &list, &nel) < 0)
		return;
	for (uint32_t i = 0; i < nel; i++) {
		char *c = str_of(list[i]);

		gn += snprintf(got + gn, sizeof got - gn, "%s%s", gn ? "," : "", c);
		free(c);
	}
	free(list);
	if (strcmp(want, got))
		fail("compute_user %s %s: expected {%s}, policy gives {%s}", f[0], f[1], want, got);
}

static void setbool(char **f, int n)
{
	cond_bool_datum_t *b;

	if (n != 2 || !(b = hashtab_search(db.p_bools.table, f[0]))) {
		fail("setbool: no boolean %s", n ? f[0] : "");
		return;
	}
	b->state = atoi(f[1]) != 0;
	evaluate_conds(&db);
}

static int run(const char *facts, const char *policy, const char *which)
{
	char line[4096];
	FILE *fp;
	int count = 0;

	variant = which;
	if (load(policy) < 0)
		return -1;
	if (!(fp = fopen(facts, "re"))) {
		perror(facts);
		return -1;
	}
	lineno = 0;
	while (fgets(line, sizeof line, fp)) {
		char *f[MAXF], *p = line, *kind;
		int n = 0;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		while (n < MAXF && p) {
			f[n++] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = 0;
		}
		if (n < 2) {
			fail("short line");
			continue;
		}
		if (strcmp(f[0], "all") && strcmp(f[0], which)) {
			if (strcmp(f[0], "mls") && strcmp(f[0], "nonmls"))
				fail("bad variant %s", f[0]);
			continue;
		}
		kind = f[1];
		if (!strcmp(kind, "setbool")) {
			setbool(f + 2, n - 2);
			continue;
		}
		count++;
		if (!strcmp(kind, "av"))
			check_av(f + 2, n - 2);
		else if (!strcmp(kind, "auditallow"))
			check_audit(f + 2, n - 2, 1);
		else if (!strcmp(kind, "dontaudit"))
			check_audit(f + 2, n - 2, 0);
		else if (!strcmp(kind, "create"))
			check_compute(f + 2, n - 2, 't');
		else if (!strcmp(kind, "member"))
			check_compute(f + 2, n - 2, 'm');
		else if (!strcmp(kind, "relabel"))
			check_compute(f + 2, n - 2, 'c');
		else if (!strcmp(kind, "user"))
			check_user(f + 2, n - 2);
		else {
			fail("unknown kind %s", kind);
			count--;
		}
	}
	fclose(fp);
	unload();
	printf("%s: %d facts checked\n", which, count);
	checked += count;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s FACTS NONMLS_POLICY MLS_POLICY\n", argv[0]);
		return 2;
	}
	sepol_debug(0);
	if (run(argv[1], argv[2], "nonmls") < 0 || run(argv[1], argv[3], "mls") < 0)
		return 77;
	if (failures) {
		fprintf(stderr, "%d of %d facts failed\n", failures, checked);
		return 1;
	}
	printf("all %d facts hold\n", checked);
	return 0;
}
