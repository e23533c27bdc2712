/*
 * explainprobe: check selabel_lookup_explain() against the ordinary
 * lookup and against the spec files themselves, on many keys.
 *
 *   explainprobe -p PATH [-t TEXT]... < records
 *
 * records: NUL-terminated "MODE KEY" (MODE octal), as fcprobe reads.
 * For each key, on one handle of PATH (our library; with an index image
 * or without, as the directory has it):
 *  - the explanation's answer is selabel_lookup_raw()'s: error 0 and the
 *    winner's context equal to the lookup's, or the lookup's errno;
 *  - every spec it names (winner, overridden, other types) matches the
 *    path it says was matched, by this program's own PCRE2 regex
 *    ("^REGEX$", DOTALL, as file_contexts(5) says specs are matched);
 *    winner and overridden fit the file type asked, the others do not;
 *  - the winner outranks each overridden spec by the documented rule: a
 *    literal path over any regex, otherwise the later spec (file_contexts,
 *    then .homedirs, then .local; a later line);
 *  - with -t (the text files the handle read, in that order): the specs
 *    of those files whose regex matches the path are exactly the ones
 *    the explanation names, counted (a spec it leaves out, or one too
 *    many, fails).
 * Prints "explain: N keys, M specs named, F failures" and the first
 * failures; exits 1 on any failure.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <pcre2.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <selinux/label.h>
#include <selinux/label_explain.h>
#include <selinux/selinux.h>

static unsigned long failures, named;

static void
fail(const char *key, const char *msg, const char *what)
{
	/* msg holds one "%s", for what */
	const char *at = strstr(msg, "%s");

	if (++failures <= 20)
		printf("FAIL %s: %.*s%s%s\n", key, (int)(at - msg), msg, what,
		       at + 2);
}

struct re {
	char *regex;
	pcre2_code *code;
};

static int re_cmp(const void *a, const void *b)
{
	return strcmp(((const struct re *)a)->regex,
		      ((const struct re *)b)->regex);
}

static void *re_tree;
static pcre2_match_data *md;

/* Does regex match all of s?  -1 if it does not compile or match. */
static int matches(const char *regex, const char *s)
{
	struct re k = { (char *)regex, NULL }, **f, *n;
	int rc;

	f = tfind(&k, &re_tree, re_cmp);
	if (!f) {
		size_t len = strlen(regex);
		char *pat = malloc(len + 3);
		int err;
		PCRE2_SIZE off;

		n = calloc(1, sizeof(*n));
		if (!n || !pat)
			abort();
		pat[0] = '^';
		memcpy(pat + 1, regex, len);
		memcpy(pat + 1 + len, "$", 2);
		n->regex = strdup(regex);
		n->code = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
					PCRE2_DOTALL, &err, &off, NULL);
		if (n->code)
			pcre2_jit_compile(n->code, PCRE2_JIT_COMPLETE);
		free(pat);
		f = tsearch(n, &re_tree, re_cmp);
	}
	if (!(*f)->code)
		return -1;
	rc = pcre2_match((*f)->code, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL);
	return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

static unsigned int type_of(const char *t)
{
	static const struct {
		const char *f;
		unsigned int m;
	} v[] = { { "--", S_IFREG },  { "-d", S_IFDIR }, { "-l", S_IFLNK },
		  { "-p", S_IFIFO },  { "-s", S_IFSOCK }, { "-c", S_IFCHR },
		  { "-b", S_IFBLK } };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(t, v[i].f))
			return v[i].m;
	return 0;
}

/* The load order of a spec: file (base 0, .homedirs 1, .local 2), line. */
static unsigned long rank(const struct selabel_spec_origin *s)
{
	const char *f = s->file;
	unsigned long r = 0;

	if (strstr(f, "file_contexts.homedirs"))
		r = 1;
	else if (strstr(f, "file_contexts.local"))
		r = 2;
	return r << 32 | s->line;
}

/* The specs of the -t files: regex and type. */
struct tspec {
	char *regex;
	unsigned int mode;
};
static struct tspec *tspecs;
static size_t ntspecs;

static void read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		perror(path);
		exit(2);
	}
	while (getline(&line, &cap, f) > 0) {
		char *save, *a = strtok_r(line, " \t\r\n", &save);
		char *b = a ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		char *c = b ? strtok_r(NULL, " \t\r\n", &save) : NULL;

		if (!a || *a == '#' || !b)
			continue;
		tspecs = realloc(tspecs, (ntspecs + 1) * sizeof(*tspecs));
		if (!tspecs)
			abort();
		tspecs[ntspecs].regex = strdup(a);
		tspecs[ntspecs].mode = c ? type_of(b) : 0;
		ntspecs++;
	}
	free(line);
	fclose(f);
}

/* No regex character outside an escape (file_contexts(5)'s literal). */
static int literal(const char *r)
{
	for (; *r; r++) {
		if (*r == '\\') {
			if (!*++r)
				break;
			continue;
		}
		if (strchr(".^$?*+|[({", *r))
			return 0;
	}
	return 1;
}

static void check_spec(const char *key, const char *lk,
		       const struct selabel_spec_origin *s, unsigned int asked,
		       int want_fit)
{
	unsigned int t = type_of(s->type);
	int fits = !asked || !t || t == asked;

	named++;
	if (matches(s->regex, lk) != 1)
		fail(key, "named spec %s does not match", s->regex);
	if (fits != want_fit)
		fail(key, "spec %s: file type wrongly weighed", s->regex);
	if (s->literal != literal(s->regex))
		fail(key, "spec %s: literal flag wrong", s->regex);
}

static void check(struct selabel_handle *h, const char *key,
		  unsigned int mode)
{
	struct selabel_explanation *e;
	char *con = NULL;
	int rl, lerr;
	size_t n;

	errno = 0;
	rl = selabel_lookup_raw(h, &con, key, (int)mode);
	lerr = errno;
	if (selabel_lookup_explain(h, &e, key, (int)mode) < 0) {
		fail(key, "selabel_lookup_explain: %s", strerror(errno));
		freecon(con);
		return;
	}
	if (rl == 0) {
		if (e->error || !e->winner || strcmp(e->winner->context, con))
			fail(key, "lookup gives %s, the explanation not", con);
	} else if (e->error != lerr) {
		fail(key, "lookup fails with %s, the explanation not",
		     strerror(lerr));
	}
	freecon(con);
	if (e->type != (mode & S_IFMT))
		fail(key, "type %s", "wrong");
	n = (e->winner != NULL) + (e->blocked != NULL);
	if (e->winner)
		check_spec(key, e->lookup_key, e->winner, e->type, 1);
	if (e->blocked && matches(e->blocked->regex, e->lookup_key) != -1)
		fail(key, "blocked spec %s is usable", e->blocked->regex);
	for (size_t i = 0; i < e->n_overridden; i++) {
		const struct selabel_spec_origin *o = &e->overridden[i];

		check_spec(key, e->lookup_key, o, e->type, 1);
		if (!e->winner)
			continue;
		if (o->literal && !e->winner->literal)
			fail(key, "literal %s lost to a regex", o->regex);
		if (o->literal == e->winner->literal &&
		    rank(o) >= rank(e->winner))
			fail(key, "%s outranks the winner", o->regex);
	}
	for (size_t i = 0; i < e->n_other_types; i++)
		check_spec(key, e->lookup_key, &e->other_types[i], e->type, 0);
	n += e->n_overridden + e->n_other_types;
	if (ntspecs) {
		size_t m = 0;

		for (size_t i = 0; i < ntspecs; i++) {
			int r = matches(tspecs[i].regex, e->lookup_key);

			m += r == 1 || (r < 0 && e->blocked &&
					!strcmp(e->blocked->regex,
						tspecs[i].regex));
		}
		if (m != n) {
			char what[64];

			snprintf(what, sizeof(what), "%zu named, %zu match", n,
				 m);
			fail(key, "specs: %s", what);
		}
	}
	selabel_explanation_free(e);
}

int main(int argc, char **argv)
{
	struct selinux_opt opt = { SELABEL_OPT_PATH, NULL };
	struct selabel_handle *h;
	char *rec = NULL;
	size_t cap = 0;
	unsigned long keys = 0;
	ssize_t len;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-p"))
			opt.value = argv[i + 1];
		else if (!strcmp(argv[i], "-t"))
			read_text(argv[i + 1]);
	}
	md = pcre2_match_data_create(1, NULL);
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	if (!h || !md) {
		perror("selabel_open");
		return 2;
	}
	while ((len = getdelim(&rec, &cap, '\0', stdin)) > 0) {
		char *sp = strchr(rec, ' ');

		if (!sp || !sp[1])
			continue;
		*sp = '\0';
		check(h, sp + 1, (unsigned int)strtoul(rec, NULL, 8));
		keys++;
	}
	free(rec);
	selabel_close(h);
	printf("explain: %lu keys, %lu specs named, %lu failures\n", keys,
	       named, failures);
	return failures ? 1 : 0;
}
