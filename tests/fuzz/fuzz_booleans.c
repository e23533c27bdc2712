/*
 * Fuzz target for the selinuxfs booleans/ directory: the input, cut at
 * lines "@@" (fuzz_common.h), is up to NBOOL boolean files - each part's
 * first line the file's name ('/' and NUL made '_', "." and ".." and
 * empty names skipped), the rest its content, which the kernel prints as
 * "active pending" - then booleans.subs_dist of a fixture policy root
 * (old names tried under their new ones), then names to ask for, one a
 * line, as a caller passes them (slashes allowed).
 *
 * Called: security_get_boolean_names, security_get_boolean_active and
 * _pending, security_set_boolean, security_set_boolean_list and
 * security_commit_booleans, for every name listed and every name asked.
 * Checked: a failure sets errno; the names listed are the files made,
 * in alphasort() order; a value is 0 or 1, and for a file holding
 * exactly "A P" or "A P\n" (A, P each 0 or 1) the values are A and P;
 * a name with a slash never reaches a file (ENOENT).
 */
#include <errno.h>
#include <stdbool.h>

#include "fuzz_common.h"

#define NBOOL 6
#define NASK 8
#define ROOT "etc/selinux/t"

enum { P_SUBS = NBOOL, P_ASK, NPARTS };

struct made {
	char name[256];
	const uint8_t *val; /* the content */
	size_t n;
};

static int rm_tree(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* The name from a part's first line, into m; false when there is none. */
static bool name_of(const struct fz_part *p, struct made *m)
{
	size_t k = 0, i = 0;

	while (i < p->n && p->p[i] != '\n' && k < sizeof(m->name) - 1) {
		char c = (char)p->p[i++];

		m->name[k++] = c == '/' || c == '\0' ? '_' : c;
	}
	m->name[k] = '\0';
	while (i < p->n && p->p[i] != '\n')
		i++;
	if (i < p->n)
		i++;
	m->val = p->p + i;
	m->n = p->n - i;
	return k && strcmp(m->name, ".") && strcmp(m->name, "..");
}

static void failed_sets_errno(int r)
{
	if (r < 0 && !errno)
		abort();
}

/* 1 and the values when the content is exactly "A P" or "A P\n". */
static int plain(const struct made *m, int *a, int *p)
{
	if ((m->n != 3 && !(m->n == 4 && m->val[3] == '\n')) ||
	    m->val[1] != ' ' || (m->val[0] != '0' && m->val[0] != '1') ||
	    (m->val[2] != '0' && m->val[2] != '1'))
		return 0;
	*a = m->val[0] - '0';
	*p = m->val[2] - '0';
	return 1;
}

/* Ask for name, a file made (m) or not (NULL). */
static void ask(const char *name, const struct made *m)
{
	int a, p, ea, ep;

	errno = 0;
	a = security_get_boolean_active(name);
	failed_sets_errno(a);
	errno = 0;
	p = security_get_boolean_pending(name);
	failed_sets_errno(p);
	if (a < -1 || a > 1 || p < -1 || p > 1)
		abort();
	if (strchr(name, '/') && (a != -1 || errno != ENOENT))
		abort();
	if (m && plain(m, &ea, &ep) && (a != ea || p != ep))
		abort();
	errno = 0;
	failed_sets_errno(security_set_boolean(name, a == 1 ? 0 : 1));
	if (strchr(name, '/') && errno != ENOENT)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_part part[NPARTS];
	struct made made[NBOOL];
	SELboolean list[NBOOL + NASK];
	char asked[NASK][256], **names = NULL;
	size_t nmade = 0, nask = 0, nlist = 0;
	int len = -2, r;

	if (fz_init("booleans")) {
		fz_mkdirs("selinuxfs");
		fz_mkdirs(ROOT);
		fz_writes("etc/selinux/config", "SELINUXTYPE=t\n");
		core_set_config_root(fz_path("etc/selinux"));
		set_selinuxmnt(fz_path("selinuxfs"));
	}
	nftw(fz_path("selinuxfs/booleans"), rm_tree, 8, FTW_DEPTH | FTW_PHYS);
	fz_mkdirs("selinuxfs/booleans");
	fz_write("selinuxfs/commit_pending_bools", "", 0);
	fz_split(data, size, part, NPARTS);
	for (size_t i = 0; i < NBOOL; i++) {
		char rel[300];
		size_t j;

		if (!name_of(&part[i], &made[nmade]))
			continue;
		for (j = 0; j < nmade; j++)
			if (!strcmp(made[j].name, made[nmade].name))
				break;
		if (j < nmade)
			continue; /* one file per name */
		snprintf(rel, sizeof(rel), "selinuxfs/booleans/%s",
			 made[nmade].name);
		fz_write(rel, made[nmade].val, made[nmade].n);
		nmade++;
	}
	fz_write(ROOT "/booleans.subs_dist", part[P_SUBS].p, part[P_SUBS].n);
	for (size_t i = 0; i < part[P_ASK].n && nask < NASK;) {
		size_t k = 0;

		while (i < part[P_ASK].n && part[P_ASK].p[i] != '\n' &&
		       k < sizeof(asked[0]) - 1) {
			char c = (char)part[P_ASK].p[i++];

			asked[nask][k++] = c ? c : '_';
		}
		asked[nask++][k] = '\0';
		while (i < part[P_ASK].n && part[P_ASK].p[i++] != '\n')
			;
	}

	/* The files as made first (each ask ends in a write). */
	for (size_t i = 0; i < nmade; i++)
		ask(made[i].name, &made[i]);
	errno = 0;
	r = security_get_boolean_names(&names, &len);
	failed_sets_errno(r);
	if (r == 0) {
		if (len != (int)nmade)
			abort();
		for (int i = 0; i < len; i++) {
			if (!names[i] ||
			    (i && strcoll(names[i - 1], names[i]) > 0))
				abort();
			ask(names[i], NULL);
			for (size_t j = 0; j < nmade; j++)
				if (!strcmp(names[i], made[j].name))
					list[nlist++] = (SELboolean){
					    made[j].name, (int)(j & 1)};
		}
		if (nlist != nmade)
			abort();
		for (int i = 0; i < len; i++)
			free(names[i]);
		free(names);
	} else if (nmade || len > 0) {
		abort();
	}
	for (size_t i = 0; i < nask; i++) {
		ask(asked[i], NULL);
		list[nlist++] = (SELboolean){asked[i], (int)i - 1};
	}
	errno = 0;
	failed_sets_errno(security_set_boolean_list(nlist, list, 0));
	errno = 0;
	failed_sets_errno(security_commit_booleans());
	return 0;
}
