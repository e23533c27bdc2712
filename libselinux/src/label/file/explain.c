/* label/fc_explain.c: selabel_lookup_explain(), which spec labelled a path. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <selinux/label_explain.h>

#include "fc.h"

/*
 * The explanation is found apart from the lookup's index: every spec,
 * strongest (highest index) first, is tried on its own with its own
 * regex and the reference's candidate test, so that the answer is the
 * reference's rule applied by brute force - a second implementation
 * the suite checks the index against.
 */

/* A growing list of spec indices. */
struct ivec {
	uint32_t *v;
	size_t n, cap;
};

static int ivec_push(struct ivec *a, uint32_t i)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		uint32_t *v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = i;
	return 0;
}

#define NONE UINT32_MAX

/* What the scan found, as spec indices and subs rules. */
struct found {
	const char *key, *lookup_key;
	unsigned int type;
	int rules[2];
	uint32_t winner, blocked;
	struct ivec over, other;
	/* all the specs named, in the explanation's order: winner, blocked
	 * (each if any), over.v[], other.v[] (order()); src[k], the text
	 * source of all.v[k] (sources()) */
	struct ivec all;
	struct src *src;
	struct text *texts;
	uint32_t ntexts;
};

/* Where explanation strings are copied: one block, the explanation
 * first, the arrays next, the strings last. */
struct block {
	char *str;
};

static const char *put(struct block *b, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = b->str;

	/* sized by size_of(): cannot run out */
	memcpy(p, s, n);
	b->str += n;
	return p;
}

static const char *spec_type(const struct fc_data *d, uint32_t i)
{
	const char *t = fc_mode_to_string(fc_smode(d, i));

	return t ? t : "";
}

/* A spec's text source (see selabel_spec_origin.source). */
struct src {
	const char *path; /* in a struct text, or NULL */
	uint32_t line;
};

static size_t spec_strlen(const struct fc_data *d, uint32_t i,
			  const struct src *src)
{
	return strlen(fc_regex(d, i)) + strlen(spec_type(d, i)) +
	       strlen(fc_ctx(d, i)) + strlen(d->files[fc_sfile(d, i)]) + 4 +
	       (src->path ? strlen(src->path) + 1 : 0);
}

static void fill_spec(const struct fc_data *d, uint32_t i,
		      const struct src *src, struct selabel_spec_origin *o,
		      struct block *b)
{
	o->regex = put(b, fc_regex(d, i));
	o->type = put(b, spec_type(d, i));
	o->context = put(b, fc_ctx(d, i));
	o->file = put(b, d->files[fc_sfile(d, i)]);
	o->line = fc_lineno(d, i);
	o->literal = !fc_meta_of(d, i);
	if (src->path) {
		o->source = put(b, src->path);
		o->source_line = src->line;
	}
}

static void fill_subs(const struct fc_sub *s, const char *file,
		      struct selabel_subs_origin *o, struct block *b)
{
	o->alias = put(b, s->src);
	o->original = put(b, s->dst);
	o->file = put(b, file ? file : "");
}

static size_t subs_strlen(const struct fc_sub *s, const char *file)
{
	return strlen(s->src) + strlen(s->dst) + (file ? strlen(file) : 0) + 3;
}

/* Build the explanation of f in one block: NULL if out of memory. */
static struct selabel_explanation *assemble(const struct fc_data *d,
					    const struct found *f)
{
	size_t n = f->all.n, strs;
	size_t head = sizeof(struct selabel_explanation) +
		      n * sizeof(struct selabel_spec_origin) +
		      2 * sizeof(struct selabel_subs_origin);
	const struct fc_sub *sub =
	    f->rules[0] >= 0 ? &d->subs[f->rules[0]] : NULL;
	const struct fc_sub *dsub =
	    f->rules[1] >= 0 ? &d->dist_subs[f->rules[1]] : NULL;
	struct selabel_explanation *e;
	struct selabel_spec_origin *o;
	struct selabel_subs_origin *so;
	struct block b;

	strs = strlen(f->key) + strlen(f->lookup_key) + 2;
	for (size_t k = 0; k < n; k++)
		strs += spec_strlen(d, f->all.v[k], &f->src[k]);
	if (sub)
		strs += subs_strlen(sub, d->subs_path);
	if (dsub)
		strs += subs_strlen(dsub, d->dist_path);

	e = calloc(1, head + strs);
	if (!e)
		return NULL;
	o = (struct selabel_spec_origin *)(e + 1);
	so = (struct selabel_subs_origin *)(o + n);
	b.str = (char *)(so + 2);

	e->key = put(&b, f->key);
	e->lookup_key = put(&b, f->lookup_key);
	e->type = f->type;
	if (sub) {
		fill_subs(sub, d->subs_path, &so[0], &b);
		e->subs = &so[0];
	}
	if (dsub) {
		fill_subs(dsub, d->dist_path, &so[1], &b);
		e->subs_dist = &so[1];
	}
	for (size_t k = 0; k < n; k++)
		fill_spec(d, f->all.v[k], &f->src[k], &o[k], &b);
	if (f->winner != NONE)
		e->winner = o++;
	if (f->blocked != NONE)
		e->blocked = o++;
	e->overridden = o;
	e->n_overridden = f->over.n;
	e->other_types = o + f->over.n;
	e->n_other_types = f->other.n;

	if (f->blocked != NONE || f->winner == NONE ||
	    !strcmp(fc_ctx(d, f->winner), "<<none>>"))
		e->error = ENOENT;
	return e;
}

/* f->all from what the scan found: 0 or -ENOMEM. */
static int order(struct found *f)
{
	int r = 0;

	if (f->winner != NONE)
		r = ivec_push(&f->all, f->winner);
	if (r == 0 && f->blocked != NONE)
		r = ivec_push(&f->all, f->blocked);
	for (size_t i = 0; r == 0 && i < f->over.n; i++)
		r = ivec_push(&f->all, f->over.v[i]);
	for (size_t i = 0; r == 0 && i < f->other.n; i++)
		r = ivec_push(&f->all, f->other.v[i]);
	return r;
}

/* The text file beside a compiled one, read once per explanation. */
struct text {
	char *path; /* NULL: not tried yet */
	char *buf;  /* NULL: none (no such file, not a .bin ...) */
	size_t len;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The next field of [*p, end): its start and *n, or NULL. */
static const char *field(const char **p, const char *end, size_t *n)
{
	const char *q = *p, *s;

	while (q < end && blank(*q))
		q++;
	if (q == end)
		return NULL;
	for (s = q; q < end && !blank(*q); q++)
		;
	*n = q - s;
	*p = q;
	return s;
}

static bool same(const char *f, size_t n, const char *s)
{
	return f && strlen(s) == n && !memcmp(f, s, n);
}

/* The last line of t with spec i's regex, type and context, or 0. */
static uint32_t text_line(const struct fc_data *d, uint32_t i,
			  const struct text *t)
{
	const char *p = t->buf, *end = t->buf + t->len;
	const char *type = spec_type(d, i);
	uint32_t line = 0, found = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end, *q = p, *f1, *f2, *f3;
		size_t n1, n2, n3;

		p = nl ? nl + 1 : end;
		line++;
		f1 = field(&q, eol, &n1);
		if (!f1 || *f1 == '#' || !same(f1, n1, fc_regex(d, i)))
			continue;
		f2 = field(&q, eol, &n2);
		f3 = f2 ? field(&q, eol, &n3) : NULL;
		if (f3 ? same(f2, n2, type) && same(f3, n3, fc_ctx(d, i))
		       : !*type && same(f2, n2, fc_ctx(d, i)))
			found = line;
	}
	return found;
}

/* f->src for every spec f names (f->all): 0 or -ENOMEM. */
static int sources(const struct fc_data *d, struct found *f)
{
	struct text *t;
	int r = 0;

	f->src = calloc(f->all.n ? f->all.n : 1, sizeof(*f->src));
	t = calloc(d->nfiles, sizeof(*t));
	if (!f->src || !t) {
		free(t);
		return -ENOMEM;
	}
	/* assemble() copies the paths: t is kept until then */
	f->texts = t;
	f->ntexts = d->nfiles;
	for (size_t k = 0; k < f->all.n; k++) {
		uint32_t fi = fc_sfile(d, f->all.v[k]);
		const char *file = d->files[fi];
		size_t fl = strlen(file);
		struct stat st;

		if (fl <= 4 || strcmp(file + fl - 4, ".bin"))
			continue;
		if (!t[fi].path) {
			t[fi].path = strndup(file, fl - 4);
			if (!t[fi].path) {
				r = -ENOMEM;
				break;
			}
			if (lbl_read_file(t[fi].path, &t[fi].buf, &t[fi].len,
					  &st) < 0)
				t[fi].buf = NULL;
		}
		if (!t[fi].buf)
			continue;
		f->src[k].line = text_line(d, f->all.v[k], &t[fi]);
		if (f->src[k].line)
			f->src[k].path = t[fi].path;
	}
	return r;
}

/*
 * Every spec of d, strongest first, against key (normalised, klen
 * bytes) for file type mode: 0, or -ENOMEM.
 */
static int scan(struct fc_data *d, const char *key, size_t klen, uint32_t mode,
		struct found *f)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	int r = 0;

	if (!md)
		return -ENOMEM;
	for (uint32_t i = d->nspec; i-- > 0;) {
		uint32_t smode = fc_smode(d, i);
		bool fits = !mode || !smode || mode == smode;
		pcre2_code *re;
		int rc;

		/* the stem test (type 0: the type is weighed below) */
		if (!fc_candidate(d, i, key, klen, 0))
			continue;
		re = fc_spec_re(d, i);
		if (!re && !fc_spec_bad(d, i)) {
			r = -ENOMEM;
			break;
		}
		rc = re ? pcre2_match(re, (PCRE2_SPTR)key, klen, 0, 0, md, NULL)
			: PCRE2_ERROR_INTERNAL;
		if (rc == PCRE2_ERROR_NOMATCH)
			continue;
		if (rc < 0) {
			/* unusable: the lookup stops here if it gets here */
			if (fits && f->winner == NONE && f->blocked == NONE)
				f->blocked = i;
			continue;
		}
		if (!fits)
			r = ivec_push(&f->other, i);
		else if (f->winner == NONE && f->blocked == NONE)
			f->winner = i;
		else
			r = ivec_push(&f->over, i);
		if (r < 0)
			break;
	}
	pcre2_match_data_free(md);
	return r;
}

/* The explanation from d: 0 and *exp, or -errno (-EINVAL: d's index
 * image does not check out). */
static int explain(struct fc_data *d, const char *key, int type,
		   struct selabel_explanation **exp)
{
	char buf[1024], *k = NULL;
	size_t klen = 0;
	struct found f = {
	    .key = key,
	    .type = (unsigned int)type & S_IFMT,
	    .rules = {-1, -1},
	    .winner = NONE,
	    .blocked = NONE,
	};
	int r;

	if (fc_image_check_all(d) < 0)
		return -EINVAL;
	if (d->nspec && (r = fc_index_ensure(d)) < 0)
		return r;
	r = fc_key(d, key, buf, sizeof(buf), &k, &klen, f.rules);
	if (r < 0)
		return r;
	f.lookup_key = k;
	r = scan(d, k, klen, f.type, &f);
	if (r == 0)
		r = order(&f);
	if (r == 0)
		r = sources(d, &f);
	if (r == 0) {
		*exp = assemble(d, &f);
		if (!*exp)
			r = -ENOMEM;
	}
	fc_key_free(k, key, buf);
	free(f.over.v);
	free(f.other.v);
	free(f.all.v);
	free(f.src);
	for (uint32_t i = 0; i < f.ntexts; i++) {
		free(f.texts[i].path);
		free(f.texts[i].buf);
	}
	free(f.texts);
	return r;
}

int fc_explain(struct selabel_handle *h, const char *key, int type,
	       struct selabel_explanation **exp)
{
	struct fc_data *d = fc_cur(h), *d2;
	int r = explain(d, key, type, exp);

	if (r == -EINVAL && (d2 = fc_retry(h, d)))
		r = explain(d2, key, type, exp);
	return r;
}

_public_ int selabel_lookup_explain(struct selabel_handle *h,
				    struct selabel_explanation **exp,
				    const char *key, int type)
{
	int r;

	if (exp)
		*exp = NULL;
	if (!h || !exp || !key || !*key) {
		errno = EINVAL;
		return -1;
	}
	if (h->backend != SELABEL_CTX_FILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	r = fc_explain(h, key, type, exp);
	if (r < 0) {
		*exp = NULL;
		errno = -r;
		return -1;
	}
	return 0;
}

_public_ void selabel_explanation_free(struct selabel_explanation *exp)
{
	free(exp);
}
