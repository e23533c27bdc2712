/* label/file/bin6_write.c: compiled file_contexts.bin version 6, written. */
#include <endian.h>
#include <string.h>
#include <unistd.h>

#include "fc.h"
#include "file.h"
#include "release.h"
#include "tree.h"

/*
 * The layout is described in bin6.c.  We write the tree 3.8 builds from
 * the same text (tree.c builds it: its lookups depend on where a spec
 * sits), so that libselinux 3.8 and later read our file as their own.
 */

struct wr6 {
	const struct fc_spec *spec; /* the specs in source order */
	uint32_t nspec;
	char **lit;	   /* the tree's: spec i's literal, NULL for a regex */
	uint32_t *ctx_id;  /* per spec, from 1 */
	const char **ctxs; /* distinct contexts by id - 1 */
	uint32_t nctxs;
	uint32_t *ctab; /* open addressing: spec index + 1, 0 when free */
	uint32_t cmask;
	uint8_t *b; /* the output */
	size_t n, cap;
	bool no_regex;
	unsigned order; /* whose order of equal literals (cmp_lit) */
};

/* lbl_test_bin6_order(): 0, or the release whose order to follow. */
static unsigned test_order;

void lbl_test_bin6_order(unsigned release)
{
	test_order = release;
}

/* A file mode's kind in version 6 (0: any). */
static uint8_t kind_of(uint32_t mode)
{
	for (uint8_t k = 1; k < FC_BIN6_KINDS; k++)
		if (fc_bin6_kind_mode[k] == mode)
			return k;
	return 0;
}

/*
 * Literal specs by literal.  Equal ones (one path, several file types)
 * in the order of the release the build follows, each measured with the
 * release's sefcontext_compile on specs of one path with every file
 * type, in several orders (README, "Today's releases"):
 *   3.8.1: by file kind, from 7 (regular file) down to 1 (directory),
 *          the wildcard (0) last; one kind in file order;
 *   3.11:  in file order;
 *   ours for 3.4 (-F 6): the last in the file first, which 3.8 and later
 *          answer with (they take the first whose kind fits), as Debian
 *          12's library does from the text (and as our reader does from
 *          this order).
 */
static int cmp_lit(const void *a, const void *b, void *u)
{
	const struct wr6 *w = u;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int c = strcmp(w->lit[i], w->lit[j]);
	uint8_t ki, kj;

	if (c)
		return c;
	if (w->order >= REL_311)
		return (i > j) - (i < j);
	if (w->order >= REL_38) {
		ki = kind_of(w->spec[i].mode);
		kj = kind_of(w->spec[j].mode);
		if (ki != kj)
			return (ki < kj) - (ki > kj);
		return (i > j) - (i < j);
	}
	return (i < j) - (i > j);
}

/* Give spec i's context an id, a new one the first time it is seen. */
static void number_ctx(struct wr6 *w, uint32_t i)
{
	const char *c = w->spec[i].ctx;

	for (uint32_t h = fc_hash(c, strlen(c));; h++) {
		uint32_t *slot = &w->ctab[h & w->cmask];

		if (!*slot) {
			*slot = i + 1;
			w->ctxs[w->nctxs] = c;
			w->ctx_id[i] = ++w->nctxs;
			return;
		}
		if (!strcmp(w->spec[*slot - 1].ctx, c)) {
			w->ctx_id[i] = w->ctx_id[*slot - 1];
			return;
		}
	}
}

/* Ids in the order the tree is written, as 3.8 numbers them. */
static void number_node(struct wr6 *w, const struct fc_t6node *n)
{
	for (uint32_t i = 0; i < n->nlit; i++)
		number_ctx(w, n->lit[i]);
	for (uint32_t i = 0; i < n->nre; i++)
		number_ctx(w, n->re[i]);
	for (uint32_t i = 0; i < n->nkid; i++)
		number_node(w, &n->kid[i]);
}

static int put(struct wr6 *w, const void *p, size_t n)
{
	if (w->cap - w->n < n) {
		size_t cap = w->cap ? w->cap : 65536;
		uint8_t *b;

		while (cap - w->n < n)
			cap *= 2;
		b = realloc(w->b, cap);
		if (!b)
			return -ENOMEM;
		w->b = b;
		w->cap = cap;
	}
	memcpy(w->b + w->n, p, n);
	w->n += n;
	return 0;
}

static int put_u8(struct wr6 *w, uint8_t v)
{
	return put(w, &v, 1);
}

static int put_u16(struct wr6 *w, uint16_t v)
{
	v = htobe16(v);
	return put(w, &v, 2);
}

static int put_u32(struct wr6 *w, uint32_t v)
{
	v = htobe32(v);
	return put(w, &v, 4);
}

/* u16 len + s + NUL, len counting the NUL. */
static int put_str(struct wr6 *w, const char *s)
{
	size_t n = strlen(s) + 1;
	int e;

	if (n > UINT16_MAX)
		return -EOVERFLOW;
	if ((e = put_u16(w, n)) < 0)
		return e;
	return put(w, s, n);
}

/* 3.8's prefix_len of a regex spec: the characters before its first
 * meta character or unknown escape, an escape counting one. */
static uint16_t prefix_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++) {
		if (strchr(".^$?*+|[({])}", *s))
			break;
		if (*s == '\\') {
			if (!s[1] || !strchr(".^$?*+|[({])}-_,", s[1]))
				break;
			s++;
		}
	}
	return n > UINT16_MAX ? UINT16_MAX : n;
}

/* u32 len + the serialized "^regex$" (len 0 and nothing with -r). */
static int put_regex_blob(struct wr6 *w, const char *regex)
{
	uint8_t *blob = NULL;
	PCRE2_SIZE blen = 0;
	int e, err;
	size_t off;

	if (!w->no_regex) {
		pcre2_code *c = fc_compile(regex, &err, &off);
		const pcre2_code *list[1] = {c};

		if (!c)
			return -EINVAL;
		e = pcre2_serialize_encode(list, 1, &blob, &blen, NULL);
		pcre2_code_free(c);
		if (e < 0)
			return -ENOMEM;
		if (blen >= UINT32_MAX) {
			pcre2_serialize_free(blob);
			return -EOVERFLOW;
		}
	}
	e = put_u32(w, blen);
	if (e == 0 && blen)
		e = put(w, blob, blen);
	if (blob)
		pcre2_serialize_free(blob);
	return e;
}

static int put_node(struct wr6 *w, const struct fc_t6node *n)
{
	int e;

	if ((e = put_str(w, n->stem ? n->stem : "")) < 0 ||
	    (e = put_u32(w, n->nlit)) < 0)
		return e;
	for (uint32_t k = 0; k < n->nlit; k++) {
		uint32_t i = n->lit[k];
		const struct fc_spec *s = &w->spec[i];

		if ((e = put_u32(w, w->ctx_id[i])) < 0 ||
		    (e = put_str(w, s->regex)) < 0 ||
		    (e = put_str(w, w->lit[i])) < 0 ||
		    (e = put_u8(w, kind_of(s->mode))) < 0)
			return e;
	}
	if ((e = put_u32(w, n->nre)) < 0)
		return e;
	for (uint32_t k = 0; k < n->nre; k++) {
		uint32_t i = n->re[k];
		const struct fc_spec *s = &w->spec[i];

		if ((e = put_u32(w, w->ctx_id[i])) < 0 ||
		    (e = put_u32(w, s->lineno)) < 0 ||
		    (e = put_str(w, s->regex)) < 0 ||
		    (e = put_u16(w, prefix_len(s->regex))) < 0 ||
		    (e = put_u8(w, kind_of(s->mode))) < 0 ||
		    (e = put_regex_blob(w, s->regex)) < 0)
			return e;
	}
	if ((e = put_u32(w, n->nkid)) < 0)
		return e;
	for (uint32_t k = 0; k < n->nkid; k++)
		if ((e = put_node(w, &n->kid[k])) < 0)
			return e;
	return 0;
}

static int put_header(struct wr6 *w)
{
	char ver[64], arch[32];
	uint64_t total = htobe64(w->nspec);
	int e;

	pcre2_config(PCRE2_CONFIG_VERSION, ver);
	snprintf(arch, sizeof(arch), "%zu-%zu-%s", sizeof(void *),
		 sizeof(PCRE2_SIZE),
		 __BYTE_ORDER == __LITTLE_ENDIAN ? "el" : "eb");
	if ((e = put_u32(w, FC_BIN_MAGIC)) < 0 ||
	    (e = put_u32(w, FC_BIN6_VERSION)) < 0 ||
	    (e = put_u32(w, strlen(ver))) < 0 ||
	    (e = put(w, ver, strlen(ver))) < 0 ||
	    (e = put_u32(w, strlen(arch))) < 0 ||
	    (e = put(w, arch, strlen(arch))) < 0 ||
	    (e = put(w, &total, 8)) < 0 || (e = put_u32(w, w->nctxs)) < 0)
		return e;
	for (uint32_t i = 0; i < w->nctxs; i++) {
		size_t n = strlen(w->ctxs[i]);

		if (n >= UINT16_MAX)
			return -EOVERFLOW;
		if ((e = put_u16(w, n)) < 0 || (e = put(w, w->ctxs[i], n)) < 0)
			return e;
	}
	return 0;
}

/* Every spec into its node: literal ones with their literal. */
/* The tree of w's specs (tree.c), sorted as the release writes it. */
static int build(struct wr6 *w, struct fc_t6 *t)
{
	int e;

	for (uint32_t i = 0; i < w->nspec; i++) {
		const struct fc_spec *s = &w->spec[i];

		/* 3.8 refuses line 0 (our text parser counts from 1). */
		if (!s->lineno || (s->mode && !kind_of(s->mode)))
			return -EINVAL;
		/* (the format's lengths are 16 bits) */
		if ((e = fc_t6_add(t, i, s->regex, UINT16_MAX)) < 0)
			return e;
	}
	fc_t6_sort(&t->root, cmp_lit, NULL, w);
	return 0;
}

/* By line: regex specs go into their nodes in source order. */
static int cmp_line(const void *a, const void *b)
{
	const struct fc_spec *x = a, *y = b;

	return (x->lineno > y->lineno) - (x->lineno < y->lineno);
}

int fc_write_bin6(struct fc_data *d, int fd, bool no_regex)
{
	_cleanup_free_ struct fc_spec *spec = NULL;
	struct wr6 w = {.nspec = d->nspec,
			.no_regex = no_regex,
			.order = test_order ? test_order : rel_literals()};
	struct fc_t6 t;
	uint32_t size = 16;
	int e;

	while (size < 2 * (d->nspec + 1))
		size *= 2;
	/* A copy in source order (d's array keeps the order its reader
	 * gave it); lines are distinct in one text file, and qsort's order
	 * of equal ones does not matter then. */
	spec = malloc((d->nspec + 1) * sizeof(*spec));
	e = fc_t6_init(&t, d->nspec);
	w.lit = t.lit;
	w.ctx_id = calloc(d->nspec + 1, sizeof(*w.ctx_id));
	w.ctxs = calloc(d->nspec + 1, sizeof(*w.ctxs));
	w.ctab = calloc(size, sizeof(*w.ctab));
	w.cmask = size - 1;
	if (e == 0 && !(spec && w.ctx_id && w.ctxs && w.ctab))
		e = -ENOMEM;
	if (e == 0) {
		memcpy(spec, d->spec, d->nspec * sizeof(*spec));
		qsort(spec, d->nspec, sizeof(*spec), cmp_line);
		w.spec = spec;
		e = build(&w, &t);
	}
	if (e == 0) {
		number_node(&w, &t.root);
		e = put_header(&w);
	}
	if (e == 0)
		e = put_node(&w, &t.root);
	if (e == 0)
		e = fc_write_all(fd, w.b, w.n);
	if (e == -EOVERFLOW)
		core_log(SELINUX_ERROR,
			 "a regex, path component or context of 65535 bytes "
			 "or more does not fit in a version 6 "
			 "file_contexts.bin\n");
	fc_t6_free(&t);
	free(w.ctx_id);
	free(w.ctxs);
	free(w.ctab);
	free(w.b);
	return e;
}
