/* label/fc_tree.c: the specs as 3.8 and later hold them (fc_tree.h). */
#include <string.h>
#include <sys/stat.h>

#include "tree.h"

/*
 * The tree is the one a version 6 file_contexts.bin holds (fc_bin6.c,
 * fc_bin6_write.c): a spec sits in the node of the first (at most 3)
 * components of its path that are plain text, each followed by a '/'.
 * A node holds its literal specs (the regex is a plain path to 3.8:
 * fc_bin6_simplify) sorted by literal, equal ones in the order the
 * lookup tries them (the reverse of ours: the spec that wins is our
 * last, label_file.c), its regex specs in the order read, and its
 * children sorted by component.  What a program sees of it, measured
 * with 3.8.1 (trixie) and 3.11 (sid), which agree:
 *  - selabel_stats() walks it: a node's literal specs, its regex specs,
 *    then its children; a file type in words ("wildcard" for none);
 *  - selabel_cmp() compares two trees node by node in the same order,
 *    ignoring contexts: see cmp_node().
 */

int fc_t6_init(struct fc_t6 *t, uint32_t nspec)
{
	memset(t, 0, sizeof(*t));
	t->nspec = nspec;
	t->lit = calloc((size_t)nspec + 1, sizeof(*t->lit));
	return t->lit ? 0 : -ENOMEM;
}

static void node_free(struct fc_t6node *n)
{
	for (uint32_t i = 0; i < n->nkid; i++)
		node_free(&n->kid[i]);
	free(n->kid);
	free(n->lit);
	free(n->re);
	free(n->stem);
}

void fc_t6_free(struct fc_t6 *t)
{
	node_free(&t->root);
	for (uint32_t i = 0; t->lit && i < t->nspec; i++)
		free(t->lit[i]);
	free(t->lit);
	t->lit = NULL;
}

/* The child of n for stem [s, s + len): found or added. */
static int child(struct fc_t6node *n, const char *s, size_t len,
		 size_t max_stem, struct fc_t6node **out)
{
	char *stem;
	int e;

	for (uint32_t i = 0; i < n->nkid; i++)
		if (!strncmp(n->kid[i].stem, s, len) && !n->kid[i].stem[len]) {
			*out = &n->kid[i];
			return 0;
		}
	if (len >= max_stem)
		return -EOVERFLOW;
	e = fc_bin6_grow((void **)&n->kid, &n->akid, n->nkid, sizeof(*n->kid));
	if (e < 0)
		return e;
	stem = strndup(s, len);
	if (!stem)
		return -ENOMEM;
	memset(&n->kid[n->nkid], 0, sizeof(*n->kid));
	/*
	 * analyzer: false positive (gcc malloc-leak): stem is owned by the tree
	 * from here (freed with it); GCC 12 loses the store through an index.
	 */
	n->kid[n->nkid].stem = stem;
	*out = &n->kid[n->nkid++];
	return 0;
}

/* The node of the spec whose path is p (lit: a literal; else a regex). */
static int place(struct fc_t6node *root, const char *p, bool lit,
		 size_t max_stem, struct fc_t6node **out)
{
	struct fc_t6node *n = root;
	int depth = 0, e;
	const char *c;
	size_t len;

	while (depth < FC_BIN6_DEPTH && fc_bin6_next(&p, lit, &c, &len)) {
		if (lit) {
			e = child(n, c, len, max_stem, &n);
		} else {
			_cleanup_free_ char *stem = malloc(len + 1);
			ssize_t k;

			if (!stem)
				return -ENOMEM;
			k = fc_bin6_simplify(c, len, stem);
			if (k < 0 || (size_t)k >= max_stem)
				break;
			e = child(n, stem, k, max_stem, &n);
		}
		if (e < 0)
			return e;
		depth++;
	}
	*out = n;
	return 0;
}

int fc_t6_add(struct fc_t6 *t, uint32_t i, const char *re, size_t max_stem)
{
	size_t rlen = strlen(re);
	ssize_t k = fc_bin6_simplify(re, rlen, NULL);
	struct fc_t6node *n;
	int e;

	if (k >= 0) {
		t->lit[i] = malloc(k + 1);
		if (!t->lit[i])
			return -ENOMEM;
		fc_bin6_simplify(re, rlen, t->lit[i]);
	}
	e = place(&t->root, t->lit[i] ? t->lit[i] : re, t->lit[i], max_stem,
		  &n);
	if (e < 0)
		return e;
	if (t->lit[i]) {
		e = fc_bin6_grow((void **)&n->lit, &n->alit, n->nlit, 4);
		if (e >= 0)
			n->lit[n->nlit++] = i;
	} else {
		e = fc_bin6_grow((void **)&n->re, &n->are, n->nre, 4);
		if (e >= 0)
			n->re[n->nre++] = i;
	}
	return e < 0 ? e : 0;
}

static int cmp_kid(const void *a, const void *b)
{
	return strcmp(((const struct fc_t6node *)a)->stem,
		      ((const struct fc_t6node *)b)->stem);
}

void fc_t6_sort(struct fc_t6node *n,
		int (*cmp_lit)(const void *, const void *, void *),
		int (*cmp_re)(const void *, const void *, void *), void *u)
{
	if (n->nlit > 1)
		qsort_r(n->lit, n->nlit, sizeof(*n->lit), cmp_lit, u);
	if (cmp_re && n->nre > 1)
		qsort_r(n->re, n->nre, sizeof(*n->re), cmp_re, u);
	if (n->nkid > 1)
		qsort(n->kid, n->nkid, sizeof(*n->kid), cmp_kid);
	for (uint32_t i = 0; i < n->nkid; i++)
		fc_t6_sort(&n->kid[i], cmp_lit, cmp_re, u);
}

/* What selabel_cmp, selabel_stats and the duplicate check walk: the
 * tree of a handle's specs, d's. */
struct tree {
	const struct fc_data *d;
	struct fc_t6 t;
};

static void tree_free(struct tree *t)
{
	fc_t6_free(&t->t);
}

/* Literal specs by literal, equal ones the one that wins first. */
static int cmp_lit(const void *a, const void *b, void *u)
{
	const struct tree *t = u;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int c = strcmp(t->t.lit[i], t->t.lit[j]);

	return c ? c : (i < j) - (i > j);
}

/* Regex specs in the order read. */
static int cmp_re(const void *a, const void *b, void *u)
{
	const struct fc_data *d = ((const struct tree *)u)->d;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	uint32_t fi = fc_sfile(d, i), fj = fc_sfile(d, j);
	uint32_t li = fc_lineno(d, i), lj = fc_lineno(d, j);

	if (fi != fj)
		return (fi > fj) - (fi < fj);
	if (li != lj)
		return (li > lj) - (li < lj);
	return (i > j) - (i < j);
}

/* The tree of d's specs read from files [0, nfiles). */
static int tree_build(const struct fc_data *d, uint32_t nfiles, struct tree *t)
{
	int e;

	t->d = d;
	e = fc_t6_init(&t->t, d->nspec);
	for (uint32_t i = 0; e >= 0 && i < d->nspec; i++)
		if (fc_sfile(d, i) < nfiles)
			e = fc_t6_add(&t->t, i, fc_regex(d, i), SIZE_MAX);
	if (e < 0)
		return e;
	fc_t6_sort(&t->t.root, cmp_lit, cmp_re, t);
	return 0;
}

/* A file type in 3.8's words. */
static const char *kind_word(uint32_t mode)
{
	switch (mode) {
	case S_IFDIR:
		return "directory";
	case S_IFCHR:
		return "character-device";
	case S_IFBLK:
		return "block-device";
	case S_IFSOCK:
		return "sock-file";
	case S_IFIFO:
		return "fifo-file";
	case S_IFLNK:
		return "symlink";
	case S_IFREG:
		return "regular-file";
	}
	return "wildcard";
}

/* 3.8's number of a file type (fc_bin6_kind_mode): 0 for none. */
static unsigned kind_num(uint32_t mode)
{
	for (unsigned k = 1; k < FC_BIN6_KINDS; k++)
		if (fc_bin6_kind_mode[k] == mode)
			return k;
	return 0;
}

/* A spec in messages: its regex as written, literal or not (measured:
 * "/lost\+found" in setfiles -W). */
static const char *shown(const struct tree *t, uint32_t i)
{
	return fc_regex(t->d, i);
}

static void stats_node(const struct tree *t, const struct fc_t6node *n,
		       const uint8_t *used)
{
	const struct fc_data *d = t->d;

	for (int pass = 0; pass < 2; pass++) {
		const uint32_t *v = pass ? n->re : n->lit;
		uint32_t nv = pass ? n->nre : n->nlit;

		for (uint32_t k = 0; k < nv; k++) {
			uint32_t i = v[k];

			if (used && __atomic_load_n(&used[i], __ATOMIC_RELAXED))
				continue;
			core_log(SELINUX_WARNING,
				 "Warning!  No matches for (%s, %s, %s)\n",
				 shown(t, i), kind_word(fc_smode(d, i)),
				 fc_ctx(d, i));
		}
	}
	for (uint32_t k = 0; k < n->nkid; k++)
		stats_node(t, &n->kid[k], used);
}

void fc_tree_stats(const struct fc_data *d, const uint8_t *used)
{
	struct tree t;

	if (tree_build(d, UINT32_MAX, &t) == 0)
		stats_node(&t, &t.t.root, used);
	tree_free(&t);
}

/* selabel_cmp: which side has specs the other lacks, so far. */
enum { LEFT_MORE = 1, RIGHT_MORE = 2, MISMATCH = 4 };

struct cmp {
	const struct tree *l, *r;
	const struct fc_t6node *nl, *nr;
	const char *stem; /* the node's name in messages */
	unsigned flags;
};

#define CMP_LOG(...) core_log(SELINUX_INFO, "selabel_cmp: " __VA_ARGS__)

static bool re_eq(const struct cmp *c, uint32_t i, uint32_t j)
{
	return !strcmp(fc_regex(c->l->d, i), fc_regex(c->r->d, j)) &&
	       fc_smode(c->l->d, i) == fc_smode(c->r->d, j);
}

/* "(regex, type, context)" of spec i of t, for a message: three
 * strings. */
#define SPEC3(t, i)                                                            \
	shown(t, i), kind_word(fc_smode((t)->d, i)), fc_ctx((t)->d, i)

/*
 * Literal specs: merged in the node's order, by literal and then file
 * type (the higher 3.8 number first), contexts ignored.  A spec only
 * one side has makes that side the larger; both sides being larger is
 * a mismatch, named by the spec in hand on each side, or, once one side
 * is done, by the remnant of the other.
 */
static int cmp_lits(struct cmp *c)
{
	const struct fc_t6node *a = c->nl, *b = c->nr;
	uint32_t i = 0, j = 0;

	while (i < a->nlit && j < b->nlit) {
		uint32_t x = a->lit[i], y = b->lit[j];
		int o = strcmp(c->l->t.lit[x], c->r->t.lit[y]);

		if (!o) {
			unsigned kx = kind_num(fc_smode(c->l->d, x));
			unsigned ky = kind_num(fc_smode(c->r->d, y));

			o = (kx < ky) - (kx > ky);
		}
		if (!o) {
			i++;
			j++;
			continue;
		}
		if ((o < 0 && (c->flags & RIGHT_MORE)) ||
		    (o > 0 && (c->flags & LEFT_MORE))) {
			CMP_LOG("mismatched literal_str in stem %s on literal "
				"entry %u: (%s, %s, %s) vs entry %u: "
				"(%s, %s, %s)\n",
				c->stem, i, SPEC3(c->l, x), j, SPEC3(c->r, y));
			return MISMATCH;
		}
		if (o < 0) {
			c->flags |= LEFT_MORE;
			i++;
		} else {
			c->flags |= RIGHT_MORE;
			j++;
		}
	}
	if (i < a->nlit) {
		if (c->flags & RIGHT_MORE) {
			CMP_LOG("mismatch literal left remnant in stem %s\n",
				c->stem);
			return MISMATCH;
		}
		c->flags |= LEFT_MORE;
	}
	if (j < b->nlit) {
		if (c->flags & LEFT_MORE) {
			CMP_LOG("mismatch literal right remnant in stem %s\n",
				c->stem);
			return MISMATCH;
		}
		c->flags |= RIGHT_MORE;
	}
	return 0;
}

/*
 * Regex specs, in the order read: equal ones (regex and file type)
 * pair off; otherwise the left one is looked for further on the right
 * (the right's specs skipped are more), then the right one further on
 * the left; neither found is a mismatch.
 */
static int cmp_res(struct cmp *c)
{
	const struct fc_t6node *a = c->nl, *b = c->nr;
	uint32_t i = 0, j = 0, k;

	while (i < a->nre && j < b->nre) {
		if (re_eq(c, a->re[i], b->re[j])) {
			i++;
			j++;
			continue;
		}
		for (k = j + 1; k < b->nre && !re_eq(c, a->re[i], b->re[k]);
		     k++)
			;
		if (k < b->nre) {
			if (c->flags & LEFT_MORE)
				goto right_remnant;
			c->flags |= RIGHT_MORE;
			j = k;
			continue;
		}
		for (k = i + 1; k < a->nre && !re_eq(c, a->re[k], b->re[j]);
		     k++)
			;
		if (k < a->nre) {
			if (c->flags & RIGHT_MORE)
				goto left_remnant;
			c->flags |= LEFT_MORE;
			i = k;
			continue;
		}
		CMP_LOG("mismatched regex in stem %s on regex entry %u: "
			"(%s, %s, %s) vs entry %u: (%s, %s, %s)\n",
			c->stem, i, SPEC3(c->l, a->re[i]), j,
			SPEC3(c->r, b->re[j]));
		return MISMATCH;
	}
	if (i < a->nre) {
		if (c->flags & RIGHT_MORE)
			goto left_remnant;
		c->flags |= LEFT_MORE;
	}
	if (j < b->nre) {
		if (c->flags & LEFT_MORE)
			goto right_remnant;
		c->flags |= RIGHT_MORE;
	}
	return 0;
left_remnant:
	CMP_LOG("mismatch regex left remnant in stem %s entry %u: "
		"(%s, %s, %s)\n",
		c->stem, i, SPEC3(c->l, a->re[i]));
	return MISMATCH;
right_remnant:
	CMP_LOG("mismatch regex right remnant in stem %s entry %u: "
		"(%s, %s, %s)\n",
		c->stem, j, SPEC3(c->r, b->re[j]));
	return MISMATCH;
}

static unsigned cmp_node(const struct tree *l, const struct tree *r,
			 const struct fc_t6node *a, const struct fc_t6node *b);

/* Children, merged by component; a pair's answer joins the node's. */
static int cmp_kids(struct cmp *c)
{
	const struct fc_t6node *a = c->nl, *b = c->nr;
	uint32_t i = 0, j = 0;

	while (i < a->nkid && j < b->nkid) {
		int o = strcmp(a->kid[i].stem, b->kid[j].stem);

		if (!o) {
			unsigned f =
			    cmp_node(c->l, c->r, &a->kid[i], &b->kid[j]);

			f |= c->flags;
			if ((f & MISMATCH) || (f & (LEFT_MORE | RIGHT_MORE)) ==
						  (LEFT_MORE | RIGHT_MORE)) {
				CMP_LOG("mismatch child node %s stem %s\n",
					a->kid[i].stem, c->stem);
				return MISMATCH;
			}
			c->flags = f;
			i++;
			j++;
		} else if (o < 0) {
			if (c->flags & RIGHT_MORE) {
				CMP_LOG("mismatch left remnant child node %s "
					"stem %s\n",
					a->kid[i].stem, c->stem);
				return MISMATCH;
			}
			c->flags |= LEFT_MORE;
			i++;
		} else {
			if (c->flags & LEFT_MORE) {
				CMP_LOG("mismatch right remnant child node %s "
					"stem %s\n",
					a->kid[i].stem, c->stem);
				return MISMATCH;
			}
			c->flags |= RIGHT_MORE;
			j++;
		}
	}
	if (i < a->nkid) {
		if (c->flags & RIGHT_MORE) {
			CMP_LOG("mismatch child left remnant in stem %s\n",
				c->stem);
			return MISMATCH;
		}
		c->flags |= LEFT_MORE;
	}
	if (j < b->nkid) {
		if (c->flags & LEFT_MORE) {
			CMP_LOG("mismatch child right remnant in stem %s\n",
				c->stem);
			return MISMATCH;
		}
		c->flags |= RIGHT_MORE;
	}
	return 0;
}

/* A node: its literal specs, its regex specs, then its children. */
static unsigned cmp_node(const struct tree *l, const struct tree *r,
			 const struct fc_t6node *a, const struct fc_t6node *b)
{
	struct cmp c = {l, r, a, b, a->stem ? a->stem : "(root)", 0};

	if (cmp_lits(&c) || cmp_res(&c) || cmp_kids(&c))
		return MISMATCH;
	return c.flags;
}

enum selabel_cmp_result fc_tree_cmp(const struct fc_data *a,
				    const struct fc_data *b)
{
	struct tree l, r;
	enum selabel_cmp_result res = SELABEL_INCOMPARABLE;
	int el = tree_build(a, UINT32_MAX, &l);
	int er = tree_build(b, UINT32_MAX, &r);

	if (!el && !er) {
		unsigned f = cmp_node(&l, &r, &l.t.root, &r.t.root);

		if (!(f & MISMATCH))
			res = f == LEFT_MORE	? SELABEL_SUPERSET
			      : f == RIGHT_MORE ? SELABEL_SUBSET
						: SELABEL_EQUAL;
	}
	tree_free(&l);
	tree_free(&r);
	return res;
}

/* Whether specs x and y of d are for the same files: file types equal
 * or either without one. */
static bool types_meet(const struct fc_data *d, uint32_t x, uint32_t y)
{
	uint32_t mx = fc_smode(d, x), my = fc_smode(d, y);

	return !mx || !my || mx == my;
}

static void dup_msg(const struct tree *t, const char *path, uint32_t x,
		    uint32_t y)
{
	const struct fc_data *d = t->d;

	if (strcmp(fc_ctx(d, x), fc_ctx(d, y)))
		core_log(SELINUX_ERROR,
			 "%s: Multiple different specifications for %s %s  "
			 "(%s and %s).\n",
			 path, kind_word(fc_smode(d, x)), shown(t, x),
			 fc_ctx(d, x), fc_ctx(d, y));
	else
		core_log(SELINUX_ERROR,
			 "%s: Multiple same specifications for %s %s.\n", path,
			 kind_word(fc_smode(d, x)), shown(t, x));
}

/* A node's duplicates, then its children's: literal specs next to each
 * other in the node's order, regex specs any two in the order read. */
static unsigned dups_node(const struct tree *t, const struct fc_t6node *n,
			  const char *path)
{
	const struct fc_data *d = t->d;
	unsigned found = 0;

	for (uint32_t k = 1; k < n->nlit; k++) {
		uint32_t x = n->lit[k - 1], y = n->lit[k];

		if (!strcmp(t->t.lit[x], t->t.lit[y]) && types_meet(d, x, y)) {
			dup_msg(t, path, x, y);
			found++;
		}
	}
	for (uint32_t a = 0; a < n->nre; a++)
		for (uint32_t b = a + 1; b < n->nre; b++) {
			uint32_t x = n->re[a], y = n->re[b];

			if (!strcmp(fc_regex(d, x), fc_regex(d, y)) &&
			    types_meet(d, x, y)) {
				dup_msg(t, path, x, y);
				found++;
			}
		}
	for (uint32_t k = 0; k < n->nkid; k++)
		found += dups_node(t, &n->kid[k], path);
	return found;
}

int fc_tree_check_dups(const struct fc_data *d, uint32_t nfiles,
		       const char *path)
{
	struct tree t;
	int e = tree_build(d, nfiles, &t);

	if (!e && dups_node(&t, &t.t.root, path))
		e = -EINVAL;
	tree_free(&t);
	return e;
}
