/*
 * Fuzz target for selinux_set_mapping() and the translations it sets
 * up, against a policy the input describes.  The input, cut at lines
 * "@@" (fuzz_common.h), is:
 *  - the policy's classes as selinuxfs lists them, a line each:
 *    "NAME INDEX PERM=VALUE..." makes class/NAME/index holding INDEX and
 *    class/NAME/perms/PERM holding VALUE (written as given: the library
 *    must refuse what is no number from 1 to 32);
 *  - the caller's mapping, a line per class: "NAME PERM..." ("-" stands
 *    for an empty permission name, which keeps its bit unmapped);
 *  - reject_unknown, deny_unknown, and the "access" answer (behind 64
 *    spaces, which sscanf skips: the request's length depends on the
 *    kernel values the library sends).
 * Names with '/' or NUL in the policy are made '_'.
 *
 * Checked: a failure sets errno; with the mapping in force, a class
 * name gives 0 or one of the caller's classes; a permission gives bits
 * among the caller's permissions of the class (several when the caller
 * lists one twice), or 0; a decision
 * allows and decides no bit past the caller's list for the class; the
 * strings are NULL or strings.  selinux_set_mapping(NULL) ends each run
 * (-1, EINVAL, no mapping left).
 */
#include <errno.h>
#include <stdbool.h>

#include "fuzz_common.h"

#define MAXCLASS 8
#define MAXPERM 33 /* more than a vector holds: the library stops at 32 */
#define SCON "a:b:c"
#define TCON "d:e:f"

enum { P_POLICY, P_MAP, P_REJECT, P_DENY, P_ACCESS, NPARTS };

static int rm_tree(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* The words of the lines of p: words[line][word], at most w words of
 * at most 63 bytes a line, at most l lines.  NUL made '_'. */
struct words {
	char w[MAXCLASS][MAXPERM + 2][64];
	size_t n[MAXCLASS];
	size_t lines;
};

static void split_words(const struct fz_part *p, struct words *out)
{
	size_t i = 0;

	out->lines = 0;
	while (i < p->n && out->lines < MAXCLASS) {
		size_t l = out->lines, nw = 0;

		while (i < p->n && p->p[i] != '\n') {
			size_t k = 0;

			while (i < p->n && (p->p[i] == ' ' || p->p[i] == '\t'))
				i++;
			while (i < p->n && p->p[i] != ' ' && p->p[i] != '\t' &&
			       p->p[i] != '\n') {
				char c = (char)p->p[i++];

				if (k < 63 && nw < MAXPERM + 2)
					out->w[l][nw][k++] = c ? c : '_';
			}
			if (k && nw < MAXPERM + 2)
				out->w[l][nw++][k] = '\0';
		}
		i++;
		if (nw)
			out->n[out->lines++] = nw;
	}
}

static bool file_name_ok(char *s)
{
	for (char *c = s; *c; c++)
		if (*c == '/')
			*c = '_';
	return *s && strcmp(s, ".") && strcmp(s, "..");
}

static void make_policy(struct words *pol)
{
	char rel[512];

	nftw(fz_path("selinuxfs/class"), rm_tree, 8, FTW_DEPTH | FTW_PHYS);
	for (size_t l = 0; l < pol->lines; l++) {
		char *name = pol->w[l][0];

		if (!file_name_ok(name))
			continue;
		snprintf(rel, sizeof(rel), "selinuxfs/class/%s/perms", name);
		fz_mkdirs(rel);
		snprintf(rel, sizeof(rel), "selinuxfs/class/%s/index", name);
		fz_writes(rel, pol->n[l] > 1 ? pol->w[l][1] : "");
		for (size_t k = 2; k < pol->n[l]; k++) {
			char *perm = pol->w[l][k], *eq = strchr(perm, '=');

			if (eq)
				*eq = '\0';
			if (!file_name_ok(perm))
				continue;
			snprintf(rel, sizeof(rel),
				 "selinuxfs/class/%s/perms/%s", name, perm);
			fz_writes(rel, eq ? eq + 1 : "");
		}
	}
}

static void failed_sets_errno(int r)
{
	if (r < 0 && !errno)
		abort();
}

/* The checks of one of the caller's classes c (1-based) with n perms. */
static void use_class(const struct security_class_mapping *m,
		      security_class_t c, size_t n, size_t nmap)
{
	access_vector_t mine = n >= 32 ? ~0u : (1u << n) - 1, av;
	struct av_decision avd;
	security_class_t k;
	char *str = NULL;

	k = string_to_security_class(m->name);
	if (k > nmap)
		abort();
	(void)security_class_to_string(c);
	for (size_t i = 0; i < n; i++) {
		av = string_to_av_perm(c, m->perms[i]);
		if (av & ~mine)
			abort();
		(void)security_av_perm_to_string(c, 1u << i);
	}
	errno = 0;
	if (security_av_string(c, mine, &str) == 0) {
		if (!str)
			abort();
		free(str);
	} else if (!errno) {
		abort();
	}
	errno = 0;
	if (security_compute_av_flags_raw(SCON, TCON, c, mine, &avd) == 0) {
		if ((avd.allowed | avd.decided) & ~mine)
			abort();
	} else if (!errno) {
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct words pol, map;
	struct security_class_mapping m[MAXCLASS + 1];
	struct fz_part part[NPARTS];
	char access[64 + 256];
	size_t nperm[MAXCLASS];
	int r;

	if (fz_init("mapping")) {
		fz_mkdirs("selinuxfs");
		set_selinuxmnt(fz_path("selinuxfs"));
	}
	fz_split(data, size, part, NPARTS);
	split_words(&part[P_POLICY], &pol);
	split_words(&part[P_MAP], &map);
	make_policy(&pol);
	fz_write("selinuxfs/reject_unknown", part[P_REJECT].p,
		 part[P_REJECT].n);
	fz_write("selinuxfs/deny_unknown", part[P_DENY].p, part[P_DENY].n);
	memset(access, ' ', 64);
	r = part[P_ACCESS].n < 256 ? (int)part[P_ACCESS].n : 256;
	memcpy(access + 64, part[P_ACCESS].p, r);
	fz_write("selinuxfs/access", access, 64 + r);

	memset(m, 0, sizeof(m));
	for (size_t l = 0; l < map.lines; l++) {
		m[l].name = map.w[l][0];
		nperm[l] = map.n[l] - 1;
		for (size_t k = 1; k < map.n[l] && k <= MAXPERM - 1; k++)
			m[l].perms[k - 1] =
			    strcmp(map.w[l][k], "-") ? map.w[l][k] : "";
		if (nperm[l] > 32)
			nperm[l] = 32;
	}

	selinux_flush_class_cache();
	errno = 0;
	r = selinux_set_mapping(m);
	failed_sets_errno(r);
	if (r == 0) {
		for (size_t l = 0; l < map.lines; l++)
			use_class(&m[l], (security_class_t)(l + 1), nperm[l],
				  map.lines);
		/* Past the mapping: nothing, no crash. */
		(void)security_class_to_string(
		    (security_class_t)(map.lines + 1));
		(void)string_to_av_perm((security_class_t)(map.lines + 1),
					"read");
		(void)mode_to_security_class(S_IFREG);
	}
	errno = 0;
	if (selinux_set_mapping(NULL) != -1 || errno != EINVAL)
		abort();
	/* No mapping: class 1 is the kernel's class 1 again. */
	selinux_flush_class_cache();
	return 0;
}
