/*
 * Fuzz target for the selinuxfs initial_contexts/ directory: the input,
 * cut at lines "@@" (fuzz_common.h), is up to NFILE files - each part's
 * first line the name of an initial SID ('/' and NUL made '_'), the
 * rest the file's content, which the kernel writes as the context and
 * its NUL - then names to ask for, one a line, as a caller passes them
 * (slashes allowed: "../enforce" must not read selinuxfs/enforce, a
 * decoy file here).
 *
 * Called: security_get_initial_context_raw and
 * security_get_initial_context (no mcstrans: the same string).
 * Checked: a file that exists is read (the context is its content up to
 * the first NUL, and to a page less one byte: the library's one read);
 * a name with a slash fails with ENOENT; a failure sets errno.
 */
#include <errno.h>
#include <stdbool.h>

#include "fuzz_common.h"

#define NFILE 4
#define NASK 6

enum { P_ASK = NFILE, NPARTS };

static int rm_tree(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* One line of p from *i into out (NUL and, if slash, '/' made '_'). */
static size_t line_of(const struct fz_part *p, size_t *i, char *out, size_t max,
		      bool slash)
{
	size_t k = 0;

	while (*i < p->n && p->p[*i] != '\n' && k < max - 1) {
		char c = (char)p->p[(*i)++];

		out[k++] = !c || (slash && c == '/') ? '_' : c;
	}
	out[k] = '\0';
	while (*i < p->n && p->p[(*i)++] != '\n')
		;
	return k;
}

/* Ask for name; m: the content of its file, NULL when there is none. */
static void ask(const char *name, const struct fz_part *m)
{
	char *raw = NULL, *con = NULL;
	int r, t;

	errno = 0;
	r = security_get_initial_context_raw(name, &raw);
	if (r < 0 && (!errno || m))
		abort(); /* (a file made is always read) */
	if (strchr(name, '/') && (r != -1 || errno != ENOENT))
		abort();
	if (r == 0) {
		size_t page = (size_t)sysconf(_SC_PAGESIZE), n;

		if (!raw)
			abort();
		if (m) {
			n = m->n < page - 1 ? m->n : page - 1;
			n = strnlen((const char *)m->p, n);
			if (strlen(raw) != n || memcmp(raw, m->p, n))
				abort();
		}
	}
	errno = 0;
	t = security_get_initial_context(name, &con);
	if (t != r || (t < 0 && !errno) ||
	    (t == 0 && (!con || strcmp(con, raw))))
		abort();
	freecon(raw);
	freecon(con);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_part part[NPARTS], content[NFILE];
	char name[NFILE][256], asked[NASK][256];
	size_t nmade = 0, nask = 0;

	if (fz_init("initial_contexts")) {
		fz_mkdirs("selinuxfs");
		fz_writes("selinuxfs/enforce", "1");
		set_selinuxmnt(fz_path("selinuxfs"));
	}
	nftw(fz_path("selinuxfs/initial_contexts"), rm_tree, 8,
	     FTW_DEPTH | FTW_PHYS);
	fz_mkdirs("selinuxfs/initial_contexts");
	fz_split(data, size, part, NPARTS);
	for (size_t i = 0; i < NFILE; i++) {
		size_t at = 0, j;
		char rel[300];

		if (!line_of(&part[i], &at, name[nmade], sizeof(name[0]),
			     true) ||
		    !strcmp(name[nmade], ".") || !strcmp(name[nmade], ".."))
			continue;
		for (j = 0; j < nmade; j++)
			if (!strcmp(name[j], name[nmade]))
				break;
		if (j < nmade)
			continue;
		content[nmade] =
		    (struct fz_part){part[i].p + at, part[i].n - at};
		snprintf(rel, sizeof(rel), "selinuxfs/initial_contexts/%s",
			 name[nmade]);
		fz_write(rel, content[nmade].p, content[nmade].n);
		nmade++;
	}
	for (size_t at = 0; at < part[P_ASK].n && nask < NASK;)
		line_of(&part[P_ASK], &at, asked[nask++], sizeof(asked[0]),
			false);

	for (size_t i = 0; i < nmade; i++)
		ask(name[i], &content[i]);
	for (size_t i = 0; i < nask; i++) {
		size_t j;

		for (j = 0; j < nmade; j++)
			if (!strcmp(asked[i], name[j]))
				break;
		ask(asked[i], j < nmade ? &content[j] : NULL);
	}
	errno = 0;
	if (security_get_initial_context_raw(NULL, (char *[]){NULL}) != -1 ||
	    !errno)
		abort();
	return 0;
}
