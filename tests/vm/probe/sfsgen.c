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
 * transitions to MAX/4, users to about 20 sources) by a fixed stride, so
 * the set stays the same from run to run.
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

int main(int argc, char **argv)
{
	static const char *const status[] = {"policyvers",   "mls",
					     "deny_unknown", "reject_unknown",
					     "checkreqprot", "enforce"};
	static const char *const xact[] = {"access", "create", "relabel",
					   "member"};
	struct policy_file pf;
	unsigned long max = 0, ntriples, stride, nnamed = 0;
	unsigned ntypes, nclasses, nt = 0, ustep, *types;
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
				con(t, sizeof(t), pdb.p_type_val_to_name[j]);
				printf("validatetrans\t%s %s %u %s\n", s, t,
				       c + 1, s);
			}
		}
	}
	policydb_destroy(&pdb);
	free(types);
	free(buf);
	return 0;
}
