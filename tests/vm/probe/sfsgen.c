/*
 * sfsgen: writes the query set of a binary policy in sfsquery's input
 * format (probe/sfsquery.c), for comparing two selinuxfs on that policy
 * (the real kernel in the VM, kernel/'s server on the host).  It runs on
 * the host and reads the policy with libsepol; it decides nothing.
 *
 * Usage: sfsgen [-n MAX] POLICY
 *
 * The set: the status files; class/NAME/index and every permission value;
 * initial_contexts/NAME for the kernel's traditional SID names; every
 * boolean; for every (source type, target type, class), access, create,
 * relabel and member; create for every named type transition; user for
 * every user from every type; context for every type (and broken ones);
 * validatetrans for every class that has rules.  Contexts are
 * USER:object_r:TYPE[:LOW] (object_r takes any type), USER the first user.
 * With -n, the per-triple queries are thinned to about MAX (and named
 * transitions to MAX/4, validatetrans to MAX/4, users to about 20
 * sources) by a fixed stride, so the set stays the same from run to run.
 *
 * Then the malformed and the out-of-range, written from the kernel's
 * grammar (kernel/server/context.c has it): every way a context string can
 * break it (separators missing, doubled, trailing; empty, unknown and
 * attribute names; MLS levels, category lists and ranges cut, doubled,
 * reversed, followed by junk, NULs and newlines inside), each as the
 * context file's request and, when it has no white space, as each
 * context of every other transaction; and every transaction with class
 * numbers the policy does not define (0, one past the last, 65535, and
 * numbers beyond 16 bits), once enforcing and once permissive, with part
 * of the per-triple set in permissive mode too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/hashtab.h>
#include <sepol/policydb/policydb.h>

/* The kernel's initial SID names, by position (its selinuxfs shows only
 * those it still knows; asking for all shows which). */
static const char *const isid_names[] = {
    "kernel",
    "security",
    "unlabeled",
    "fs",
    "file",
    "file_labels",
    "init",
    "any_socket",
    "port",
    "netif",
    "netmsg",
    "node",
    "igmp_packet",
    "icmp_socket",
    "tcp_socket",
    "sysctl_modprobe",
    "sysctl",
    "sysctl_fs",
    "sysctl_kernel",
    "sysctl_net",
    "sysctl_net_unix",
    "sysctl_vm",
    "sysctl_dev",
    "kmod",
    "policy",
    "scmp_packet",
    "devnull",
};

static policydb_t pdb;
static unsigned nclasses;
static const char *level; /* ":s0" on an MLS policy, "" otherwise */
static const char *user0;
static unsigned long named_stride = 1, named_seen;

static void con(char *buf, size_t n, const char *type)
{
	snprintf(buf, n, "%s:object_r:%s%s", user0, type, level);
}

static int count_named(hashtab_key_t k, hashtab_datum_t d, void *arg)
{
	(void)k;
	for (filename_trans_datum_t *fd = d; fd; fd = fd->next)
		*(unsigned long *)arg += ebitmap_cardinality(&fd->stypes);
	return 0;
}

static int is_type(unsigned v) /* value v - 1 is a type, not an attribute */
{
	type_datum_t *t = pdb.type_val_to_struct[v];

	return t && t->flavor == TYPE_TYPE;
}

static int print_perm(hashtab_key_t k, hashtab_datum_t d, void *arg)
{
	printf("read\tclass/%s/perms/%s\n", (const char *)arg, (char *)k);
	(void)d;
	return 0;
}

static int print_named(hashtab_key_t k, hashtab_datum_t d, void *arg)
{
	filename_trans_key_t *key = (filename_trans_key_t *)k;
	char s[512], t[512];

	(void)arg;
	for (filename_trans_datum_t *fd = d; fd; fd = fd->next) {
		ebitmap_node_t *node;
		unsigned i;

		ebitmap_for_each_positive_bit(&fd->stypes, node, i)
		{
			if (named_seen++ % named_stride)
				continue;
			con(s, sizeof(s), pdb.p_type_val_to_name[i]);
			con(t, sizeof(t),
			    pdb.p_type_val_to_name[key->ttype - 1]);
			printf("create\t%s %s %u %s\n", s, t, key->tclass,
			       key->name);
		}
	}
	return 0;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}


/* Appends the run first..last of categories to buf (at *w). */
static void put_run(char *buf, size_t n, size_t *w, char sep, unsigned first,
		    unsigned last)
{
	if (*w >= n)
		return;
	if (first == last)
		*w += (size_t)snprintf(buf + *w, n - *w, "%c%s", sep,
				       pdb.p_cat_val_to_name[first]);
	else
		*w += (size_t)snprintf(buf + *w, n - *w, "%c%s.%s", sep,
				       pdb.p_cat_val_to_name[first],
				       pdb.p_cat_val_to_name[last]);
}

/* l as the kernel's grammar reads it: SENS[:CATS], runs as cX.cY. */
static void level_text(char *buf, size_t n, const mls_level_t *l)
{
	ebitmap_node_t *node;
	unsigned i, first = 0, last = 0, have = 0;
	size_t w = (size_t)snprintf(buf, n, "%s",
				    pdb.p_sens_val_to_name[l->sens - 1]);

	ebitmap_for_each_positive_bit(&l->cat, node, i)
	{
		if (have && i == last + 1) {
			last = i;
			continue;
		}
		if (have)
			put_run(buf, n, &w, have == 1 ? ':' : ',', first, last);
		have = have ? 2 : 1;
		first = last = i;
	}
	if (have)
		put_run(buf, n, &w, have == 1 ? ':' : ',', first, last);
}

/*
 * user from process contexts, where the answer is not empty: for each
 * role but object_r, a user that has it, a few of the role's types, at
 * the user's low level and over the user's whole range; every user asked
 * for from each.  (The every-type set above asks from object_r, which
 * reaches no one.)
 */
static void user_from_domains(unsigned long max)
{
	char lo[4096], hi[4096], from[9000];

	for (unsigned r = 1; r < pdb.p_roles.nprim; r++) {
		role_datum_t *role = pdb.role_val_to_struct[r];
		unsigned card = ebitmap_cardinality(&role->types.types);
		unsigned step = max && card > 3 ? card / 3 : 1, seen = 0, t;
		user_datum_t *u = NULL;
		ebitmap_node_t *node;

		for (unsigned x = 0; x < pdb.p_users.nprim && !u; x++)
			if (ebitmap_get_bit(&pdb.user_val_to_struct[x]->roles.roles, r))
				u = pdb.user_val_to_struct[x];
		if (!u)
			continue;
		ebitmap_for_each_positive_bit(&role->types.types, node, t)
		{
			if (seen++ % step)
				continue;
			for (int whole = 0; whole < (pdb.mls ? 2 : 1); whole++) {
				if (pdb.mls) {
					level_text(lo, sizeof(lo), &u->exp_range.level[0]);
					level_text(hi, sizeof(hi), &u->exp_range.level[1]);
				}
				snprintf(from, sizeof(from), "%s:%s:%s%s%s%s%s",
					 pdb.p_user_val_to_name[u->s.value - 1],
					 pdb.p_role_val_to_name[r],
					 pdb.p_type_val_to_name[t], pdb.mls ? ":" : "",
					 pdb.mls ? lo : "", whole ? "-" : "",
					 whole ? hi : "");
				for (unsigned x = 0; x < pdb.p_users.nprim; x++)
					printf("user\t%s %s\n", from,
					       pdb.p_user_val_to_name[x]);
			}
		}
	}
}

/* The pieces of the generated contexts: a valid base U:object_r:T[:L],
 * the lowest and highest sensitivity, categories, an attribute. */
struct pieces {
	const char *u, *t, *attr, *l, *h, *c0, *c1, *cn;
	char valid[512];
};

/* Prints the queries of one context string s (escapes allowed). */
static void each_use(const struct pieces *k, const char *s)
{
	const char *v = k->valid;

	printf("context\t%s\n", s);
	if (strpbrk(s, " \t\\") || !*s)
		return;
	printf("access\t%s %s 1\n", s, v);
	printf("access\t%s %s 1\n", v, s);
	printf("create\t%s %s 1\n", s, v);
	printf("relabel\t%s %s 1\n", v, s);
	printf("member\t%s %s 1\n", s, v);
	printf("user\t%s %s\n", s, k->u);
	printf("validatetrans\t%s %s 1 %s\n", s, v, v);
	printf("validatetrans\t%s %s 1 %s\n", v, v, s);
}

static void grammar(const struct pieces *k)
{
	/* a suffix after U:object_r:T; @L @H @0 @1 @N @X stand for the low
	 * and high sensitivity, the first, second and last category and a
	 * name the policy does not have */
	static const char *const mls_suffix[] = {
		/* valid, as controls */
		":@L", ":@H", ":@L-@H", ":@L:@0", ":@L:@0,@1", ":@L:@0.@N",
		":@L-@H:@0.@N", ":@L:@1,@0", ":@L:@0,@0", ":@L-@L",
		":@L:@0-@H", ":@L\\x00junk", ":@L-@H\\x00-@X",
		/* the MLS field missing, empty, doubled */
		"", ":", "::@L", ":@L:", ":@L::@0", ":@L:@0:", ":@L:@0:@1",
		":@L-@H:", ":@L-:@0",
		/* category lists */
		":@L:@0,", ":@L:,@0", ":@L:@0,,@1", ":@L:,", ":@L:@0 ,@1",
		/* category ranges */
		":@L:@0.", ":@L:.@1", ":@L:@0..@1", ":@L:@0.@1.@N",
		":@L:@1.@1", ":@L:@1.@0", ":@L:@0.@X", ":@L:@X.@1", ":@L:.",
		":@L:@0.@1,@1.@N",
		/* ranges: dashes, order, junk after a complete range */
		":@L-", ":-@L", ":-", ":@L--@H", ":@L-@H-", ":@L-@H-@H",
		":@L-@H:@0.@N-@H", ":@L-@H:@0-@H", ":@L:@0-@H:@0-",
		":@H-@L", ":@L:@0-@L", ":@H:@0.@N-@L", ":@L-@H:@0.@N,",
		":@L-@H:@0.@N:@0", ":@L-@H:@N.@0",
		/* names */
		":@X", ":@L:@X", ":@L-@X", ":@L-@H:@X", ":@Lx", ":@L,@0",
		":@L.@0", ":@L:@0x", ":@L:c", ":@L:@0,@X",
		/* white space, control bytes, case */
		":@L ", ": @L", ":@L :@0", ":@L\\x0a", ":@L:@0\\x0a",
		":@L\\x09", ":@L\\x7f", ":@L\\xff",
	};
	/* whole strings; @U @T @A the user, type, attribute, @M the suffix
	 * of a valid level (empty on a non-MLS policy).  Not the empty
	 * string: the kernel fails a write of 0 bytes with EINVAL, but FUSE
	 * completes it without asking the server, which cannot answer. */
	static const char *const whole[] = {
		":", "::", ":::", "@U", "@U:", "@U:object_r",
		"@U:object_r:", "@U::@T@M", ":object_r:@T@M", "@U:object_r:@M",
		"@U:object_r::@M", "@U:object_r:@A@M", "@U:object_r:@X@M",
		"@X:object_r:@T@M", "@U:@X:@T@M", "@U:object_r:@T@M:",
		"@U:object_r:@T-@M", "@U:object_r:@T @M", " @U:object_r:@T@M",
		"@U:object_r:@T@M\\x00", "\\x00@U:object_r:@T@M",
		"@U\\x00:object_r:@T@M", "@U:object_r:@T\\x0a@M",
	};
	char buf[1024], suf[512];
	const char *lvl = pdb.mls ? k->l : NULL;

	for (size_t i = 0; i < sizeof(mls_suffix) / sizeof(*mls_suffix); i++) {
		int n = snprintf(buf, sizeof(buf), "%s:object_r:%s", k->u, k->t);

		for (const char *p = mls_suffix[i]; *p && n < 900; p++) {
			const char *x = NULL;

			if (*p == '@' && p[1]) {
				switch (*++p) {
				case 'L': x = pdb.mls ? k->l : "s0"; break;
				case 'H': x = pdb.mls ? k->h : "s0"; break;
				case '0': x = k->c0; break;
				case '1': x = k->c1; break;
				case 'N': x = k->cn; break;
				default: x = "no_such_name"; break;
				}
				n += snprintf(buf + n, sizeof(buf) - (size_t)n,
					      "%s", x);
			} else {
				buf[n++] = *p;
				buf[n] = '\0';
			}
		}
		each_use(k, buf);
	}
	snprintf(suf, sizeof(suf), "%s%s", lvl ? ":" : "", lvl ? lvl : "");
	for (size_t i = 0; i < sizeof(whole) / sizeof(*whole); i++) {
		int n = 0;

		buf[0] = '\0';
		for (const char *p = whole[i]; *p && n < 900; p++) {
			const char *x = NULL;

			if (*p == '@' && p[1]) {
				switch (*++p) {
				case 'U': x = k->u; break;
				case 'T': x = k->t; break;
				case 'A': x = k->attr; break;
				case 'M': x = suf; break;
				default: x = "no_such_name"; break;
				}
				n += snprintf(buf + n, sizeof(buf) - (size_t)n,
					      "%s", x);
			} else {
				buf[n++] = *p;
				buf[n] = '\0';
			}
		}
		each_use(k, buf);
	}
}

/* Every transaction with class numbers the policy does not define, and
 * the last one it does (tclass is a %hu: 65536 and beyond wrap). */
static void classes_out_of_range(const char *s, const char *t)
{
	static const char *const ops[] = {"access", "create", "relabel",
					  "member"};
	char c[6][16];

	snprintf(c[0], sizeof(c[0]), "0");
	snprintf(c[1], sizeof(c[1]), "%u", nclasses);
	snprintf(c[2], sizeof(c[2]), "%u", nclasses + 1);
	snprintf(c[3], sizeof(c[3]), "65535");
	snprintf(c[4], sizeof(c[4]), "65536");
	snprintf(c[5], sizeof(c[5]), "%u", 65536 + nclasses + 1);
	for (size_t i = 0; i < 6; i++) {
		for (size_t x = 0; x < 4; x++)
			printf("%s\t%s %s %s\n", ops[x], s, t, c[i]);
		printf("create\t%s %s %s some_name\n", s, t, c[i]);
		printf("validatetrans\t%s %s %s %s\n", s, t, c[i], s);
	}
}

int main(int argc, char **argv)
{
	static const char *const status[] = {"policyvers",   "mls",
					     "deny_unknown", "reject_unknown",
					     "checkreqprot", "enforce"};
	static const char *const xact[] = {"access", "create", "relabel",
					   "member"};
	struct policy_file pf;
	unsigned long max = 0, ntriples, stride, nnamed = 0;
	unsigned ntypes, nt = 0, ustep, *types;
	unsigned long vt_stride = 1, vt_seen = 0;
	struct pieces pc;
	char lvl[128], s[512], t[512];
	size_t len;
	char *buf;
	int a = 1;

	if (argc == 4 && !strcmp(argv[1], "-n")) {
		max = strtoul(argv[2], NULL, 10);
		a = 3;
	}
	if (a != argc - 1) {
		fprintf(stderr, "usage: sfsgen [-n MAX] POLICY\n");
		return 2;
	}
	buf = read_file(argv[a], &len);
	if (!buf) {
		perror(argv[a]);
		return 1;
	}
	policy_file_init(&pf);
	pf.type = PF_USE_MEMORY;
	pf.data = buf;
	pf.len = len;
	if (policydb_init(&pdb) || policydb_read(&pdb, &pf, 0)) {
		fprintf(stderr, "sfsgen: %s is not a binary policy\n", argv[a]);
		return 1;
	}
	lvl[0] = '\0';
	if (pdb.mls)
		snprintf(lvl, sizeof(lvl), ":%s", pdb.p_sens_val_to_name[0]);
	level = lvl;
	user0 = pdb.p_user_val_to_name[0];
	ntypes = pdb.p_types.nprim;
	nclasses = pdb.p_classes.nprim;

	printf("# sfsgen %s\n", argv[a]);
	for (size_t i = 0; i < sizeof(status) / sizeof(status[0]); i++)
		printf("read\t%s\n", status[i]);
	for (unsigned c = 0; c < nclasses; c++) {
		class_datum_t *cd = pdb.class_val_to_struct[c];
		char *name = pdb.p_class_val_to_name[c];

		printf("read\tclass/%s/index\n", name);
		if (cd->comdatum)
			hashtab_map(cd->comdatum->permissions.table, print_perm,
				    name);
		hashtab_map(cd->permissions.table, print_perm, name);
	}
	for (size_t i = 0; i < sizeof(isid_names) / sizeof(isid_names[0]); i++)
		printf("read\tinitial_contexts/%s\n", isid_names[i]);
	for (unsigned b = 0; b < pdb.p_bools.nprim; b++)
		printf("read\tbooleans/%s\n", pdb.p_bool_val_to_name[b]);

	/* every (source, target, class), thinned by a fixed stride */
	types = calloc(ntypes, sizeof(*types));
	if (!types)
		return 1;
	for (unsigned i = 0; i < ntypes; i++)
		if (is_type(i))
			types[nt++] = i;
	ntriples = (unsigned long)nt * nt * nclasses;
	stride = max && ntriples > max ? ntriples / max : 1;
	for (unsigned long k = 0; k < ntriples; k += stride) {
		unsigned c = (unsigned)(k % nclasses) + 1;
		unsigned j = types[(k / nclasses) % nt];
		unsigned i = types[k / nclasses / nt];

		con(s, sizeof(s), pdb.p_type_val_to_name[i]);
		con(t, sizeof(t), pdb.p_type_val_to_name[j]);
		for (size_t x = 0; x < 4; x++)
			printf("%s\t%s %s %u\n", xact[x], s, t, c);
	}
	hashtab_map(pdb.filename_trans, count_named, &nnamed);
	if (max && nnamed > max / 4)
		named_stride = nnamed / (max / 4);
	hashtab_map(pdb.filename_trans, print_named, NULL);

	/* user: every user, from every type (or about 20 with -n) */
	ustep = max && nt > 20 ? nt / 20 : 1;
	for (unsigned u = 0; u < pdb.p_users.nprim; u++)
		for (unsigned x = 0; x < nt; x += ustep) {
			con(s, sizeof(s), pdb.p_type_val_to_name[types[x]]);
			printf("user\t%s %s\n", s, pdb.p_user_val_to_name[u]);
		}
	user_from_domains(max);
	for (unsigned i = 0; i < ntypes; i++) {
		if (!is_type(i))
			continue;
		con(s, sizeof(s), pdb.p_type_val_to_name[i]);
		printf("context\t%s\n", s);
	}
	printf("context\t%s:object_r:no_such_type_t%s\n", user0, level);
	printf("context\tno_such_user:object_r:%s%s\n",
	       pdb.p_type_val_to_name[ntypes - 1], level);
	printf("context\tnot a context\n");
	if (max) {
		unsigned long nvt = 0;

		for (unsigned c = 0; c < nclasses; c++)
			if (pdb.class_val_to_struct[c]->validatetrans)
				nvt += (unsigned long)nt * nt;
		if (nvt > max / 4)
			vt_stride = nvt / (max / 4);
	}
	for (unsigned c = 0; c < nclasses; c++) {
		if (!pdb.class_val_to_struct[c]->validatetrans)
			continue;
		for (unsigned i = 0; i < ntypes; i++) {
			if (!is_type(i))
				continue;
			con(s, sizeof(s), pdb.p_type_val_to_name[i]);
			for (unsigned j = 0; j < ntypes; j++) {
				if (!is_type(j))
					continue;
				if (vt_seen++ % vt_stride)
					continue;
				con(t, sizeof(t), pdb.p_type_val_to_name[j]);
				printf("validatetrans\t%s %s %u %s\n", s, t,
				       c + 1, s);
			}
		}
	}

	/* the grammar's malformed contexts and the out-of-range classes */
	memset(&pc, 0, sizeof(pc));
	pc.u = user0;
	pc.t = pdb.p_type_val_to_name[types[0]];
	pc.attr = pc.t;
	for (unsigned i = 0; i < ntypes; i++)
		if (pdb.type_val_to_struct[i] &&
		    pdb.type_val_to_struct[i]->flavor == TYPE_ATTRIB) {
			pc.attr = pdb.p_type_val_to_name[i];
			break;
		}
	pc.l = pdb.mls ? pdb.p_sens_val_to_name[0] : "s0";
	pc.h = pdb.mls ? pdb.p_sens_val_to_name[pdb.p_levels.nprim - 1] : "s0";
	pc.c0 = pdb.mls && pdb.p_cats.nprim ? pdb.p_cat_val_to_name[0] : "c0";
	pc.c1 = pdb.mls && pdb.p_cats.nprim > 1 ? pdb.p_cat_val_to_name[1] :
						    "c1";
	pc.cn = pdb.mls && pdb.p_cats.nprim ?
		       pdb.p_cat_val_to_name[pdb.p_cats.nprim - 1] :
		       "c9";
	con(pc.valid, sizeof(pc.valid), pc.t);
	grammar(&pc);
	for (unsigned x = 0; x < 3 && x < nt; x++) {
		con(s, sizeof(s), pdb.p_type_val_to_name[types[x]]);
		con(t, sizeof(t), pdb.p_type_val_to_name[types[nt - 1 - x]]);
		classes_out_of_range(s, t);
	}
	/* permissive: the same out-of-range set and a tenth of the triples
	 * (invalid computed contexts are kept, not refused) */
	printf("write\tenforce\t0\n");
	for (unsigned x = 0; x < 3 && x < nt; x++) {
		con(s, sizeof(s), pdb.p_type_val_to_name[types[x]]);
		con(t, sizeof(t), pdb.p_type_val_to_name[types[nt - 1 - x]]);
		classes_out_of_range(s, t);
	}
	for (unsigned long q = 0; q < ntriples; q += stride * 10) {
		unsigned c = (unsigned)(q % nclasses) + 1;
		unsigned j = types[(q / nclasses) % nt];
		unsigned i = types[q / nclasses / nt];

		con(s, sizeof(s), pdb.p_type_val_to_name[i]);
		con(t, sizeof(t), pdb.p_type_val_to_name[j]);
		for (size_t x = 1; x < 4; x++)
			printf("%s\t%s %s %u\n", xact[x], s, t, c);
	}
	printf("write\tenforce\t1\n");
	policydb_destroy(&pdb);
	free(types);
	free(buf);
	return 0;
}
