/* label/fc_dfa.c: the regular subset of file_contexts regexes as a DFA. */
#include <string.h>

#include "dfa.h"
#include "index.h"

/*
 * A spec's regex is parsed into a Glushkov (position) automaton: one
 * position per byte-set atom, with the positions that may follow it;
 * the positions of all specs of a trie node share one start (position
 * 0).  The subset construction then makes it deterministic over byte
 * classes (bytes no atom of the node tells apart share a class).  Every
 * DFA state keeps the specs accepting there, highest index first.
 *
 * The subset is what PCRE2 matches as a regular language, where
 * "^regex$" matches exactly when the language holds the subject (no
 * greedy or lazy choice can change that): literals, escaped
 * punctuation, '.', \d \s \w and negations, classes, (...) and (?:...),
 * '|', and the quantifiers ? * + {n} {n,} {n,m} (lazy or not).  Anything
 * else is left to PCRE2 (-EDOM): anchors inside a regex, back references
 * and other letter escapes, possessive quantifiers, option settings,
 * POSIX classes, a '-' in a class that is neither a range nor at an end.
 */

/* Positions a node's specs may have together ({n,m} copies count). */
#define MAX_POS 65536
/* Positions one spec may have: beyond, it is left to PCRE2. */
#define MAX_SPEC_POS 4096
/*
 * Follow and first/last entries one spec may add: beyond, it is left to
 * PCRE2.  A counted repetition is one position per copy, and "u{1,n}"
 * makes every copy follow every earlier one: n * n / 2 entries, and an
 * automaton whose states hold up to n positions each - its build grows
 * as the cube of n (4000 copies: 15-25 s and 300 MB, found by the fuzz
 * campaign of issue 29).  Real policies repeat a few times at most
 * ({1,3}); 2^16 entries allow "u{1,360}".
 */
#define MAX_SPEC_FOL 65536
/* Groups nested deeper are left to PCRE2 (whose limit is 250). */
#define MAX_DEPTH 64

struct ulist {
	uint32_t *v;
	uint32_t n, a;
};

struct pos {
	uint64_t set[4];   /* the bytes it matches */
	uint64_t cmask[4]; /* the same as byte classes */
	struct ulist fol;  /* positions that may follow */
	uint32_t spec;	   /* owner: the caller's spec index */
	uint32_t mode;	   /* the owner's mode, FC_DFA_NODOM bit included */
	bool acc;	   /* may end a match of its spec */
	bool univ;	   /* acc, every byte, follows itself: a sure match */
};

struct frag {
	struct ulist first, last;
	bool nullable;
};

struct builder {
	struct pos *pos;
	uint32_t npos, apos;
	const char *re;
	size_t i;
	uint32_t spec, mode;
	unsigned depth;
	uint32_t spec_pos0;	/* the first position of the spec parsed */
	uint64_t spec_fol;	/* entries its follow/first/last lists took */
	struct ulist start_acc; /* specs whose regex matches "" */
};

/* An automaton while it is built, packed into its block (struct fc_dfa)
 * at the end. */
struct dfa_work {
	uint32_t nstates, ncls, acc_top;
	size_t nacc;
	uint8_t cls[256];
	uint16_t *next;
	uint32_t *acc_off, *acc;
};

static int ul_add(struct ulist *l, uint32_t x)
{
	if (l->n == l->a) {
		uint32_t a = l->a ? 2 * l->a : 4;
		uint32_t *v = realloc(l->v, a * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->a = a;
	}
	l->v[l->n++] = x;
	return 0;
}

static int ul_cat(struct ulist *l, const struct ulist *m)
{
	for (uint32_t k = 0; k < m->n; k++)
		if (ul_add(l, m->v[k]) < 0)
			return -ENOMEM;
	return 0;
}

static void frag_free(struct frag *f)
{
	free(f->first.v);
	free(f->last.v);
	memset(f, 0, sizeof(*f));
}

static void set_add(uint64_t *s, uint8_t c)
{
	s[c / 64] |= 1ull << (c % 64);
}

static bool set_has(const uint64_t *s, uint8_t c)
{
	return s[c / 64] >> (c % 64) & 1;
}

/*
 * For each member c of the 256-bit set s, in increasing order: the
 * statement that follows runs once per member (a word's bits are taken
 * lowest first and cleared), so a position's few classes cost what they
 * are, not a test of every class.
 */
#define SET_EACH(s, c)                                                         \
	for (uint32_t w_ = 0; w_ < 4; w_++)                                    \
		for (uint64_t x_ = (s)[w_]; x_; x_ &= x_ - 1)                  \
			for (uint32_t                                          \
				 c = w_ * 64 + (uint32_t)__builtin_ctzll(x_),  \
				 once_ = 1;                                    \
			     once_; once_ = 0)

static void set_range(uint64_t *s, unsigned lo, unsigned hi)
{
	for (unsigned c = lo; c <= hi; c++)
		set_add(s, c);
}

static bool is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* \d \s \w (and upper case: their complements), as PCRE2's default
 * tables of the "C" locale have them: no byte >= 0x80 is in any. */
static bool class_escape(char e, uint64_t *s)
{
	uint64_t t[4] = {0};
	bool neg = e >= 'A' && e <= 'Z';

	switch (neg ? e - 'A' + 'a' : e) {
	case 'd':
		set_range(t, '0', '9');
		break;
	case 's':
		set_range(t, '\t', '\r'); /* \t \n \v \f \r */
		set_add(t, ' ');
		break;
	case 'w':
		set_range(t, '0', '9');
		set_range(t, 'A', 'Z');
		set_range(t, 'a', 'z');
		set_add(t, '_');
		break;
	default:
		return false;
	}
	for (int k = 0; k < 4; k++)
		s[k] |= neg ? ~t[k] : t[k];
	return true;
}

/* A new position matching set, alone in *f. */
static int new_pos(struct builder *b, const uint64_t *set, struct frag *f)
{
	struct pos *p;
	uint32_t id;

	memset(f, 0, sizeof(*f)); /* callers free *f whatever the outcome */
	if (b->npos >= MAX_POS || b->npos - b->spec_pos0 >= MAX_SPEC_POS)
		return -E2BIG;
	if (b->npos == b->apos) {
		uint32_t a = b->apos ? 2 * b->apos : 64;
		struct pos *np = realloc(b->pos, a * sizeof(*np));

		if (!np)
			return -ENOMEM;
		b->pos = np;
		b->apos = a;
	}
	id = b->npos++;
	p = &b->pos[id];
	memset(p, 0, sizeof(*p));
	memcpy(p->set, set, sizeof(p->set));
	p->spec = b->spec;
	p->mode = b->mode;
	if (ul_add(&f->first, id) < 0 || ul_add(&f->last, id) < 0) {
		frag_free(f); /* on error, *f holds nothing */
		return -ENOMEM;
	}
	return 0;
}

/* Count n more list entries against the spec's budget: 0 or -E2BIG. */
static int budget(struct builder *b, uint64_t n)
{
	b->spec_fol += n;
	return b->spec_fol > MAX_SPEC_FOL ? -E2BIG : 0;
}

/* Every position of l may be followed by those of m. */
static int follow(struct builder *b, const struct ulist *l,
		  const struct ulist *m)
{
	if (budget(b, (uint64_t)l->n * m->n) < 0)
		return -E2BIG;
	for (uint32_t k = 0; k < l->n; k++)
		if (ul_cat(&b->pos[l->v[k]].fol, m) < 0)
			return -ENOMEM;
	return 0;
}

/* a = a b (b consumed). */
static int concat(struct builder *b, struct frag *a, struct frag *c)
{
	int r = follow(b, &a->last, &c->first);

	if (r >= 0 && a->nullable && (r = budget(b, a->first.n)) >= 0)
		r = ul_cat(&c->first, &a->first);
	if (r >= 0 && c->nullable && (r = budget(b, a->last.n)) >= 0)
		r = ul_cat(&c->last, &a->last);
	if (r >= 0) {
		struct ulist f = c->first, l = c->last;

		/* a's first stays first, unless a matches "" (then c's
		 * first, now holding a's, replaces it). */
		if (a->nullable) {
			free(a->first.v);
			a->first = f;
		} else {
			free(f.v);
		}
		free(a->last.v);
		a->last = l;
		a->nullable = a->nullable && c->nullable;
		memset(c, 0, sizeof(*c));
		return 0;
	}
	frag_free(c);
	return r;
}

static int parse_alt(struct builder *b, struct frag *out);

/* A bracketed class at b->re[b->i] == '[' into set. */
static int parse_class(struct builder *b, uint64_t *set)
{
	const char *re = b->re;
	size_t i = b->i + 1;
	bool neg = false, first = true;

	memset(set, 0, 4 * sizeof(*set));
	if (re[i] == '^') {
		neg = true;
		i++;
	}
	for (;; first = false) {
		unsigned char c = re[i], lo;

		if (!c)
			return -EDOM;
		if (c == ']' && !first)
			break;
		if (c == '[' &&
		    (re[i + 1] == ':' || re[i + 1] == '.' || re[i + 1] == '='))
			return -EDOM;
		if (c == '\\') {
			unsigned char e = re[i + 1];

			if (class_escape(e, set)) {
				i += 2;
				/* PCRE2 refuses "[\d-z]": not ours to judge */
				if (re[i] == '-' && re[i + 1] != ']')
					return -EDOM;
				continue;
			}
			if (!e || is_alnum(e) || e >= 0x80)
				return -EDOM;
			lo = e;
			i += 2;
		} else if (c == '-') {
			/* A literal '-' only first or last. */
			if (!first && re[i + 1] != ']')
				return -EDOM;
			lo = c;
			i++;
		} else {
			lo = c;
			i++;
		}
		if (re[i] == '-' && re[i + 1] && re[i + 1] != ']') {
			unsigned char hi = re[i + 1];

			i += 2;
			if (hi == '\\') {
				hi = re[i];
				if (!hi || is_alnum(hi) || hi >= 0x80)
					return -EDOM;
				i++;
			} else if (hi == '[') {
				return -EDOM;
			}
			if (hi < lo)
				return -EDOM;
			set_range(set, lo, hi);
			if (re[i] == '-' && re[i + 1] != ']')
				return -EDOM;
			continue;
		}
		set_add(set, lo);
	}
	if (neg)
		for (int k = 0; k < 4; k++)
			set[k] = ~set[k];
	b->i = i + 1;
	return 0;
}

static int parse_atom(struct builder *b, struct frag *f)
{
	const char *re = b->re;
	unsigned char c = re[b->i];
	uint64_t set[4] = {0};
	int r;

	switch (c) {
	case '(':
		if (re[b->i + 1] == '?') {
			if (re[b->i + 2] != ':')
				return -EDOM;
			b->i += 3;
		} else if (re[b->i + 1] == '*') {
			return -EDOM;
		} else {
			b->i++;
		}
		if (++b->depth > MAX_DEPTH)
			return -EDOM;
		r = parse_alt(b, f);
		b->depth--;
		if (r < 0)
			return r;
		if (re[b->i] != ')') {
			frag_free(f);
			return -EDOM;
		}
		b->i++;
		return 0;
	case '[':
		r = parse_class(b, set);
		if (r < 0)
			return r;
		return new_pos(b, set, f);
	case '.':
		memset(set, 0xff, sizeof(set)); /* PCRE2_DOTALL */
		b->i++;
		return new_pos(b, set, f);
	case '\\':
		c = re[b->i + 1];
		if (!class_escape(c, set)) {
			if (!c || is_alnum(c) || c >= 0x80)
				return -EDOM;
			set_add(set, c);
		}
		b->i += 2;
		return new_pos(b, set, f);
	case '^':
	case '$':
	case '*':
	case '+':
	case '?':
	case '{':
	case '|':
	case ')':
	case '\0':
		return -EDOM;
	default:
		set_add(set, c);
		b->i++;
		return new_pos(b, set, f);
	}
}

/* "{n}", "{n,}" or "{n,m}" at b->re[b->i]; *hi = UINT32_MAX for none. */
static int parse_braces(struct builder *b, uint32_t *lo, uint32_t *hi)
{
	const char *re = b->re;
	size_t i = b->i + 1, start = i;
	uint32_t n = 0, m = 0;

	while (re[i] >= '0' && re[i] <= '9' && i - start < 5)
		n = n * 10 + (re[i++] - '0');
	if (i == start)
		return -EDOM;
	if (re[i] == '}') {
		m = n;
	} else {
		if (re[i++] != ',')
			return -EDOM;
		start = i;
		while (re[i] >= '0' && re[i] <= '9' && i - start < 5)
			m = m * 10 + (re[i++] - '0');
		if (i == start)
			m = UINT32_MAX;
		else if (m < n)
			return -EDOM;
		if (re[i] != '}')
			return -EDOM;
	}
	b->i = i + 1;
	*lo = n;
	*hi = m;
	return 0;
}

/* f*  (or f+ when plus). */
static int star(struct builder *b, struct frag *f, bool plus)
{
	int r = follow(b, &f->last, &f->first);

	if (!plus)
		f->nullable = true;
	return r;
}

static int parse_piece(struct builder *b, struct frag *out)
{
	const char *re = b->re;
	size_t start = b->i;
	uint32_t lo, hi;
	struct frag a;
	int r;

	r = parse_atom(b, out);
	if (r < 0)
		return r;
	switch (re[b->i]) {
	case '*':
	case '+':
		r = star(b, out, re[b->i] == '+');
		b->i++;
		break;
	case '?':
		out->nullable = true;
		b->i++;
		break;
	case '{':
		r = parse_braces(b, &lo, &hi);
		if (r < 0)
			break;
		if (hi == 0) {
			/* x{0}: matches "", its positions unreachable */
			frag_free(out);
			out->nullable = true;
		} else if (lo == 0) {
			out->nullable = true; /* the first copy is optional */
			if (hi == UINT32_MAX)
				r = star(b, out, false);
		}
		/* Copies 2 .. of the atom, parsed again for positions of
		 * their own: lo - 1 required ones, then up to hi - lo
		 * optional ones (or one starred when unbounded). */
		for (uint32_t k = 1;
		     r >= 0 && k < (hi == UINT32_MAX ? (lo ? lo + 1 : 1) : hi);
		     k++) {
			size_t save = b->i;

			b->i = start;
			r = parse_atom(b, &a);
			b->i = save;
			if (r < 0)
				break;
			if (hi == UINT32_MAX && k == lo)
				r = star(b, &a, false);
			else if (k >= lo)
				a.nullable = true;
			if (r >= 0)
				r = concat(b, out, &a);
			else
				frag_free(&a);
		}
		break;
	default:
		return 0;
	}
	if (r < 0) {
		frag_free(out);
		return r;
	}
	/* Lazy is the same language; possessive is not, nor is a
	 * quantifier of a quantifier. */
	if (re[b->i] == '?')
		b->i++;
	if (re[b->i] && strchr("*+?{", re[b->i])) {
		frag_free(out);
		return -EDOM;
	}
	return 0;
}

static int parse_cat(struct builder *b, struct frag *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	out->nullable = true;
	while (b->re[b->i] && b->re[b->i] != '|' && b->re[b->i] != ')') {
		struct frag p;

		r = parse_piece(b, &p);
		if (r >= 0)
			r = concat(b, out, &p);
		if (r < 0) {
			frag_free(out);
			return r;
		}
	}
	return 0;
}

static int parse_alt(struct builder *b, struct frag *out)
{
	int r = parse_cat(b, out);

	while (r >= 0 && b->re[b->i] == '|') {
		struct frag g;

		b->i++;
		r = parse_cat(b, &g);
		if (r < 0)
			break;
		r = ul_cat(&out->first, &g.first);
		if (r >= 0)
			r = ul_cat(&out->last, &g.last);
		out->nullable = out->nullable || g.nullable;
		frag_free(&g);
	}
	if (r < 0)
		frag_free(out);
	return r;
}

/* Add spec's regex; on -EDOM and -E2BIG, b is as before the call. */
static int add_spec(struct builder *b, const char *re, uint32_t spec,
		    uint32_t mode)
{
	uint32_t save = b->npos, nfirst = b->pos[0].fol.n;
	struct frag f;
	int r;

	b->re = re;
	b->i = 0;
	b->spec = spec;
	b->mode = mode;
	b->depth = 0;
	b->spec_pos0 = save;
	b->spec_fol = 0;
	r = parse_alt(b, &f);
	if (r >= 0 && b->re[b->i]) {
		/* an unbalanced ')' */
		frag_free(&f);
		r = -EDOM;
	}
	if (r >= 0) {
		r = ul_cat(&b->pos[0].fol, &f.first);
		for (uint32_t k = 0; r >= 0 && k < f.last.n; k++)
			b->pos[f.last.v[k]].acc = true;
		if (r >= 0 && f.nullable)
			r = ul_add(&b->start_acc, spec);
		frag_free(&f);
	}
	if (r < 0) {
		for (uint32_t k = save; k < b->npos; k++)
			free(b->pos[k].fol.v);
		b->npos = save;
		b->pos[0].fol.n = nfirst;
	}
	return r;
}

bool fc_dfa_supported(const char *re)
{
	struct builder b = {0};
	uint64_t none[4] = {0};
	struct frag f = {0};
	int r = new_pos(&b, none, &f);

	frag_free(&f);
	if (r >= 0)
		r = add_spec(&b, re, 0, 0);
	for (uint32_t k = 0; k < b.npos; k++)
		free(b.pos[k].fol.v);
	free(b.pos);
	free(b.start_acc.v);
	return r >= 0;
}

/* ---- the subset construction ---- */

struct states {
	uint32_t *pool; /* the position lists, one after another */
	size_t npool, apool;
	uint32_t *off; /* state s: pool[off[s] .. off[s + 1]) */
	uint32_t n, a;
	uint32_t *tab; /* hash table of state ids, UINT32_MAX free */
	uint32_t mask;
};

static uint32_t list_hash(const uint32_t *v, uint32_t n)
{
	/* v may be NULL when n is 0 (an empty bucket) */
	return n ? fc_hash((const char *)v, n * sizeof(*v)) : 0;
}

/* The state of the sorted list v, added if new: its id, or -errno. */
static int64_t state_get(struct states *s, const uint32_t *v, uint32_t n,
			 uint32_t max)
{
	uint32_t h = list_hash(v, n), b;

	for (b = h & s->mask; s->tab[b] != UINT32_MAX; b = (b + 1) & s->mask) {
		uint32_t id = s->tab[b];

		/*
		 * analyzer: false positive (clang NonNullParamChecker):
		 * memcmp runs only when n > 0 equals state id's length, so
		 * the pool holds that state's n ids and is not NULL.
		 */
		if (s->off[id + 1] - s->off[id] == n &&
		    (!n || !memcmp(s->pool + s->off[id], v, n * sizeof(*v))))
			return id;
	}
	if (s->n >= max)
		return -E2BIG;
	if (s->npool + n > s->apool) {
		size_t a = 2 * (s->npool + n);
		uint32_t *p = realloc(s->pool, a * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->pool = p;
		s->apool = a;
	}
	if (s->n + 2 > s->a) {
		uint32_t a = 2 * (s->n + 2);
		uint32_t *o = realloc(s->off, a * sizeof(*o));

		if (!o)
			return -ENOMEM;
		s->off = o;
		s->a = a;
	}
	if (n)
		memcpy(s->pool + s->npool, v, n * sizeof(*v));
	s->npool += n;
	s->off[s->n + 1] = s->npool;
	s->tab[b] = s->n;
	/* The table is at most half full (its size is twice max). */
	return s->n++;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_u32_desc(const void *a, const void *b)
{
	return cmp_u32(b, a);
}

/* Split the bytes into the classes no position tells apart.  Positions
 * with the same set (most are one character: "/", "." ...) refine the
 * classes once; *ops grows by the work done. */
static int byte_classes(struct builder *b, struct dfa_work *a, uint64_t *ops)
{
	uint8_t rep[256];
	int16_t map[512];
	uint32_t mask = 15, *seen;

	while (mask < 2 * b->npos)
		mask = 2 * mask + 1;
	seen = malloc((mask + 1) * sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	memset(seen, 0xff, (mask + 1) * sizeof(*seen));
	*ops += mask / 8;
	memset(a->cls, 0, sizeof(a->cls));
	a->ncls = 1;
	for (uint32_t p = 1; p < b->npos; p++) {
		const uint64_t *set = b->pos[p].set;
		uint32_t n = 0, h, i;

		h = fc_hash((const char *)set, sizeof(b->pos[p].set));
		for (i = h & mask; seen[i] != UINT32_MAX; i = (i + 1) & mask)
			if (!memcmp(b->pos[seen[i]].set, set,
				    sizeof(b->pos[p].set)))
				break;
		*ops += 4;
		if (seen[i] != UINT32_MAX)
			continue;
		seen[i] = p;
		for (uint32_t k = 0; k < 2 * a->ncls; k++)
			map[k] = -1;
		for (unsigned c = 0; c < 256; c++) {
			int key = a->cls[c] * 2 + set_has(set, c);

			if (map[key] < 0)
				map[key] = n++;
			a->cls[c] = map[key];
		}
		a->ncls = n;
		*ops += 256;
	}
	free(seen);
	for (int c = 255; c >= 0; c--)
		rep[a->cls[c]] = c;
	for (uint32_t p = 1; p < b->npos; p++)
		for (uint32_t c = 0; c < a->ncls; c++)
			if (set_has(b->pos[p].set, rep[c]))
				set_add(b->pos[p].cmask, c);
	*ops += (uint64_t)b->npos * a->ncls / 2;
	return 0;
}

static void builder_free(struct builder *b)
{
	for (uint32_t k = 0; k < b->npos; k++)
		free(b->pos[k].fol.v);
	free(b->pos);
	free(b->start_acc.v);
}

static void states_free(struct states *s)
{
	free(s->pool);
	free(s->off);
	free(s->tab);
}

void fc_dfa_free(struct fc_dfa *a)
{
	free(a);
}

static void work_free(struct dfa_work *a)
{
	free(a->next);
	free(a->acc_off);
	free(a->acc);
}

/* Positions q with q.univ: its spec matches whatever follows. */
static void mark_univ(struct builder *b)
{
	for (uint32_t p = 1; p < b->npos; p++) {
		struct pos *q = &b->pos[p];
		bool all = true, self = false;

		for (int k = 0; k < 4; k++)
			all = all && q->set[k] == UINT64_MAX;
		for (uint32_t j = 0; all && q->acc && j < q->fol.n; j++)
			self = self || q->fol.v[j] == p;
		q->univ = all && q->acc && self;
	}
}

/*
 * Drop from the sorted list v (n positions) those that can no longer
 * decide a lookup: once spec i sits in a sure position, a spec j < i
 * (or i's own other positions) can only win where i is no candidate,
 * and i is a candidate wherever j is when i's mode is 0 or j's and i's
 * stem test cannot fail (no FC_DFA_NODOM).  Fewer positions, fewer and
 * smaller states: "[^/]*word.*" specs side by side would otherwise
 * need a state per set of words seen.  Returns the new length.
 */
static uint32_t prune(const struct builder *b, uint32_t *v, uint32_t n)
{
	uint32_t top0 = 0, nm = 0, w = 0;
	bool any0 = false;
	struct {
		uint32_t mode, top;
	} tm[8];

	for (uint32_t k = 0; k < n; k++) {
		const struct pos *q = &b->pos[v[k]];
		uint32_t m;

		if (!q->univ || (q->mode & FC_DFA_NODOM))
			continue;
		if (!q->mode) {
			if (!any0 || q->spec > top0)
				top0 = q->spec;
			any0 = true;
			continue;
		}
		for (m = 0; m < nm && tm[m].mode != q->mode; m++)
			;
		if (m == nm) {
			if (nm == 8)
				continue;
			tm[nm].mode = q->mode;
			tm[nm++].top = q->spec;
		} else if (q->spec > tm[m].top) {
			tm[m].top = q->spec;
		}
	}
	if (!any0 && !nm)
		return n;
	for (uint32_t k = 0; k < n; k++) {
		const struct pos *q = &b->pos[v[k]];
		uint32_t mode = q->mode & ~FC_DFA_NODOM, top = 0;
		bool has = false;

		if (v[k] != 0) {
			if (any0) {
				top = top0;
				has = true;
			}
			for (uint32_t m = 0; mode && m < nm; m++)
				if (tm[m].mode == mode &&
				    (!has || tm[m].top > top)) {
					top = tm[m].top;
					has = true;
				}
		}
		/* Keep q unless a sure spec above it, or q is a second
		 * position of the sure spec itself. */
		if (has && (q->spec < top ||
			    (q->spec == top &&
			     !(q->univ && !(q->mode & FC_DFA_NODOM)))))
			continue;
		v[w++] = v[k];
	}
	return w;
}

/* Fill in a's states and transitions from b's positions. */
/* The scratch of determinize(), per state: what was found, reused. */
struct det {
	struct states st;
	uint32_t *stamp; /* per position: the state that last listed it + 1 */
	uint32_t *u;	 /* the positions one step on */
	size_t au;
	uint32_t nu;
	uint32_t *bucket, *cnt; /* u by class: bucket[cnt[c] .. cnt[c+1]) */
	size_t abucket;
	uint32_t *accv; /* the specs accepting, per state, one after another */
	size_t aacc, nacc, anext;
	uint64_t ops; /* the work done (see fc_dfa_build_limited) */
};

static int grow_u32(uint32_t **v, size_t *cap)
{
	size_t a = *cap ? 2 * *cap : 64;
	uint32_t *nv = realloc(*v, a * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = a;
	return 0;
}

/* The specs accepting in state s (its positions v[n]), highest first,
 * each once, appended to t->accv; a's acc_off[s + 1] set. */
static int state_acc(const struct builder *b, struct det *t, struct dfa_work *a,
		     uint32_t s, const uint32_t *v, uint32_t n)
{
	size_t na0 = t->nacc, w = na0;
	uint32_t *ao;

	for (uint32_t k = 0; k < n; k++) {
		const struct ulist *l = NULL;
		uint32_t one = b->pos[v[k]].spec;
		struct ulist lone = {&one, 1, 1};

		if (v[k] == 0)
			l = &b->start_acc;
		else if (b->pos[v[k]].acc)
			l = &lone;
		for (uint32_t j = 0; l && j < l->n; j++) {
			if (t->nacc == t->aacc &&
			    grow_u32(&t->accv, &t->aacc) < 0)
				return -ENOMEM;
			t->accv[t->nacc++] = l->v[j];
		}
	}
	if (t->nacc > na0)
		qsort(t->accv + na0, t->nacc - na0, sizeof(*t->accv),
		      cmp_u32_desc);
	for (size_t k = na0; k < t->nacc; k++)
		if (w == na0 || t->accv[w - 1] != t->accv[k])
			t->accv[w++] = t->accv[k];
	t->nacc = w;
	ao = realloc(a->acc_off, (s + 2) * sizeof(*ao));
	if (!ao)
		return -ENOMEM;
	a->acc_off = ao;
	ao[s + 1] = t->nacc;
	return 0;
}

/* The positions reachable from state s's v[n] in one step, sorted, in
 * t->u[t->nu], then bucketed by byte class, keeping the order. */
static int successors(const struct builder *b, struct det *t,
		      const struct dfa_work *a, uint32_t s, const uint32_t *v,
		      uint32_t n)
{
	uint32_t fill[256];

	t->nu = 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct ulist *f = &b->pos[v[k]].fol;

		t->ops += f->n;
		for (uint32_t j = 0; j < f->n; j++) {
			uint32_t q = f->v[j];

			if (t->stamp[q] == s + 1)
				continue;
			t->stamp[q] = s + 1;
			if (t->nu == t->au && grow_u32(&t->u, &t->au) < 0)
				return -ENOMEM;
			t->u[t->nu++] = q;
		}
	}
	if (t->nu)
		qsort(t->u, t->nu, sizeof(*t->u), cmp_u32);
	memset(t->cnt, 0, (a->ncls + 1) * sizeof(*t->cnt));
	for (uint32_t k = 0; k < t->nu; k++)
		SET_EACH(b->pos[t->u[k]].cmask, c)
	t->cnt[c + 1]++;
	for (uint32_t c = 0; c < a->ncls; c++)
		t->cnt[c + 1] += t->cnt[c];
	if (t->cnt[a->ncls] > t->abucket || !t->bucket) {
		/* never NULL: bucket + 0 below */
		t->abucket = 2 * t->cnt[a->ncls] + 16;
		free(t->bucket);
		t->bucket = malloc(t->abucket * sizeof(*t->bucket));
		if (!t->bucket)
			return -ENOMEM;
	}
	memcpy(fill, t->cnt, a->ncls * sizeof(*fill));
	for (uint32_t k = 0; k < t->nu; k++)
		SET_EACH(b->pos[t->u[k]].cmask, c)
	t->bucket[fill[c]++] = t->u[k];
	return 0;
}

/* State s's transitions, one per class: the state of each class's
 * bucket (pruned), found or added. */
static int transitions(const struct builder *b, struct det *t,
		       struct dfa_work *a, uint32_t s, uint32_t max)
{
	uint16_t *tn;

	if (s >= t->anext) {
		t->anext = t->anext ? 2 * t->anext : 16;
		tn = realloc(a->next, t->anext * a->ncls * sizeof(*tn));
		if (!tn)
			return -ENOMEM;
		a->next = tn;
	}
	tn = a->next;
	for (uint32_t c = 0; c < a->ncls; c++) {
		uint32_t m =
		    prune(b, t->bucket + t->cnt[c], t->cnt[c + 1] - t->cnt[c]);
		int64_t id = state_get(&t->st, t->bucket + t->cnt[c], m, max);

		if (id < 0)
			return (int)id;
		tn[(size_t)s * a->ncls + c] = (uint16_t)id;
		t->ops += 4 + 2 * m;
	}
	return 0;
}

static void det_free(struct det *t)
{
	states_free(&t->st);
	free(t->stamp);
	free(t->u);
	free(t->bucket);
	free(t->cnt);
	free(t->accv);
}

/* -ETIME once *ops passes limit (see fc_dfa_build_limited). */
static int determinize(struct builder *b, struct dfa_work *a, uint32_t max,
		       uint64_t *ops, uint64_t limit)
{
	struct det t = {.stamp = calloc(b->npos, sizeof(*t.stamp)),
			.cnt = malloc((a->ncls + 1) * sizeof(*t.cnt))};
	struct states *st = &t.st;
	uint32_t start = 0;
	int r = -ENOMEM;

	st->mask = 1;
	while (st->mask < 2 * max)
		st->mask *= 2;
	st->tab = malloc(st->mask * sizeof(*st->tab));
	st->off = malloc(2 * sizeof(*st->off));
	if (!t.stamp || !t.cnt || !st->tab || !st->off)
		goto out;
	memset(st->tab, 0xff, st->mask * sizeof(*st->tab));
	t.ops = st->mask / 8;
	st->mask--;
	st->a = 2;
	st->off[0] = 0;
	/* State 0: dead (no position); state 1: the start. */
	if (state_get(st, &start, 0, max) < 0 ||
	    state_get(st, &start, 1, max) < 0)
		goto out;
	a->acc_off = malloc(sizeof(*a->acc_off));
	if (!a->acc_off)
		goto out;
	a->acc_off[0] = 0;
	for (uint32_t s = 0; s < st->n; s++) {
		/* (v may move with the pool once transitions() adds states:
		 * it is used before) */
		uint32_t *v = st->pool + st->off[s],
			 n = st->off[s + 1] - st->off[s];

		size_t na0 = t.nacc;

		if ((r = state_acc(b, &t, a, s, v, n)) < 0 ||
		    (r = successors(b, &t, a, s, v, n)) < 0 ||
		    (r = transitions(b, &t, a, s, max)) < 0)
			goto out;
		t.ops += 16 + n + (t.nacc - na0) + 4 * (uint64_t)t.nu +
			 2 * (uint64_t)t.cnt[a->ncls];
		for (uint32_t k = t.nu; k > 1; k /= 2)
			t.ops += t.nu;
		if (*ops + t.ops > limit) {
			r = -ETIME;
			goto out;
		}
	}
	a->nstates = st->n;
	{
		uint16_t *tn =
		    realloc(a->next, (size_t)st->n * a->ncls * sizeof(*tn));

		if (tn)
			a->next = tn;
	}
	a->acc = TAKE_PTR(t.accv);
	a->nacc = t.nacc;
	if (!a->acc)
		a->acc = malloc(sizeof(*a->acc));
	r = a->acc ? 0 : -ENOMEM;
out:
	*ops += t.ops;
	det_free(&t);
	return r;
}

size_t fc_dfa_block_size(uint64_t nstates, uint64_t ncls, uint64_t nacc)
{
	uint64_t n;

	if (!nstates || !ncls || ncls > 256 || nstates > 65536 ||
	    nacc > UINT32_MAX / 4)
		return 0;
	n = sizeof(struct fc_dfa) + ((nstates * ncls * 2 + 3) & ~(uint64_t)3) +
	    (nstates + 1 + nacc) * 4;
	return n > UINT32_MAX ? 0 : (size_t)n;
}

/* The block of w (see fc.h), or NULL if out of memory. */
static struct fc_dfa *pack(const struct dfa_work *w)
{
	size_t size = fc_dfa_block_size(w->nstates, w->ncls, w->nacc);
	struct fc_dfa *a = size ? calloc(1, size) : NULL;

	if (!a)
		return NULL;
	a->nstates = w->nstates;
	a->ncls = w->ncls;
	a->nacc = (uint32_t)w->nacc;
	a->acc_top = w->acc_top;
	a->size = (uint32_t)size;
	memcpy(a->cls, w->cls, sizeof(a->cls));
	memcpy((uint16_t *)fc_dfa_next(a), w->next,
	       (size_t)w->nstates * w->ncls * sizeof(*w->next));
	memcpy((uint32_t *)fc_dfa_acc_off(a), w->acc_off,
	       (w->nstates + 1) * sizeof(*w->acc_off));
	memcpy((uint32_t *)fc_dfa_acc(a), w->acc, w->nacc * sizeof(*w->acc));
	return a;
}

int fc_dfa_build_limited(const char *const *re, const uint32_t *spec,
			 const uint32_t *mode, uint32_t n, uint32_t max_states,
			 uint64_t *budget, bool *in, struct fc_dfa **out)
{
	uint64_t ops = 0, limit = budget ? *budget : UINT64_MAX;
	struct builder b = {0};
	struct dfa_work a = {0};
	uint64_t none[4] = {0};
	struct frag f = {0};
	int r;

	*out = NULL;
	if (max_states > 65535)
		max_states = 65535;
	r = new_pos(&b, none, &f); /* position 0: the start */
	frag_free(&f);
	for (uint32_t k = 0; r >= 0 && k < n; k++) {
		size_t npos = b.npos;

		r = add_spec(&b, re[k], spec[k], mode[k]);
		ops += 8 + 2 * (uint64_t)(b.npos > npos ? b.npos - npos : 0);
		in[k] = r >= 0;
		if (r == -EDOM || r == -E2BIG)
			r = 0;
	}
	for (uint32_t k = 0; k < n; k++)
		if (in[k] && spec[k] > a.acc_top)
			a.acc_top = spec[k];
	if (r >= 0) {
		mark_univ(&b);
		r = byte_classes(&b, &a, &ops);
	}
	if (r >= 0 && ops > limit)
		r = -ETIME;
	if (r >= 0) {
		/* rows must fit in 16 bits (below): give up as soon as the
		 * states would not, rather than after the whole build */
		if (max_states > 65536 / a.ncls)
			max_states = 65536 / a.ncls;
		r = determinize(&b, &a, max_states, &ops, limit);
	}
	/* The table holds each target's row offset (fc.h): every offset must
	 * fit in 16 bits. */
	if (r >= 0 && (size_t)a.nstates * a.ncls > 65536)
		r = -E2BIG;
	if (r >= 0)
		for (size_t i = 0; i < (size_t)a.nstates * a.ncls; i++)
			a.next[i] = (uint16_t)(a.next[i] * a.ncls);
	builder_free(&b);
	if (r >= 0) {
		*out = pack(&a);
		if (!*out)
			r = -ENOMEM;
	}
	work_free(&a);
	if (budget)
		*budget = ops > *budget ? 0 : *budget - ops;
	return r;
}

int fc_dfa_build(const char *const *re, const uint32_t *spec,
		 const uint32_t *mode, uint32_t n, uint32_t max_states,
		 bool *in, struct fc_dfa **out)
{
	return fc_dfa_build_limited(re, spec, mode, n, max_states, NULL, in,
				    out);
}

bool fc_dfa_valid(const struct fc_dfa *a, size_t avail, uint32_t nspec)
{
	const uint16_t *next;
	const uint32_t *ao, *acc;
	uint32_t ncell, top;
	uint16_t max = 0;

	if (avail < sizeof(*a) || (uintptr_t)a % 4)
		return false;
	if (fc_dfa_block_size(a->nstates, a->ncls, a->nacc) != a->size ||
	    a->size > avail || a->nstates < 2 || a->acc_top >= nspec)
		return false;
	for (int c = 0; c < 256; c++)
		if (a->cls[c] >= a->ncls)
			return false;
	next = fc_dfa_next(a);
	ncell = a->nstates * a->ncls;
	/* rows stay inside the table: the last row starts at top */
	top = (a->nstates - 1) * a->ncls;
	if (top > UINT16_MAX)
		return false;
	for (uint32_t i = 0; i < ncell; i++)
		max = next[i] > max ? next[i] : max;
	if (max > top)
		return false;
	ao = fc_dfa_acc_off(a);
	acc = fc_dfa_acc(a);
	if (ao[0] != 0 || ao[a->nstates] != a->nacc)
		return false;
	for (uint32_t s = 0; s < a->nstates; s++)
		if (ao[s + 1] < ao[s])
			return false;
	for (uint32_t i = 0; i < a->nacc; i++)
		if (acc[i] > a->acc_top)
			return false;
	return true;
}

/* The specs state row (an offset in next) accepts. */
static inline const uint32_t *accepting(const struct fc_dfa *a, uint32_t row,
					uint32_t *count)
{
	uint32_t st = row / a->ncls;
	const uint32_t *ao = fc_dfa_acc_off(a);

	*count = ao[st + 1] - ao[st];
	return fc_dfa_acc(a) + ao[st];
}

const uint32_t *fc_dfa_match(const struct fc_dfa *a, const char *s, size_t n,
			     uint32_t *count)
{
	const uint16_t *next = fc_dfa_next(a);
	uint32_t row = a->ncls; /* the start, state 1 */

	for (size_t i = 0; i < n && row; i++)
		row = next[row + a->cls[(uint8_t)s[i]]];
	return accepting(a, row, count);
}

/*
 * One step is a load that depends on the one before: a walk is as slow
 * as the latency of its table (an L2 hit for a large automaton), and the
 * core idles meanwhile.  Walking the automata side by side, one byte for
 * all, keeps k loads in flight at once.  The dead state's row (0) leads
 * back to itself, so a dead walk goes on without a test.
 */
void fc_dfa_match_many(const struct fc_dfa *const *a, uint32_t k, const char *s,
		       size_t n, const uint32_t **acc, uint32_t *count)
{
	uint32_t row[FC_DFA_LOCKSTEP];
	const uint16_t *next[FC_DFA_LOCKSTEP];

	for (uint32_t j = 0; j < k; j++) {
		row[j] = a[j]->ncls;
		next[j] = fc_dfa_next(a[j]);
	}
#define STEP(j) row[j] = next[j][row[j] + a[j]->cls[c]]
	switch (k) {
	case 1:
		acc[0] = fc_dfa_match(a[0], s, n, &count[0]);
		return;
	case 2:
		for (size_t i = 0; i < n; i++) {
			uint8_t c = (uint8_t)s[i];

			STEP(0);
			STEP(1);
		}
		break;
	case 3:
		for (size_t i = 0; i < n; i++) {
			uint8_t c = (uint8_t)s[i];

			STEP(0);
			STEP(1);
			STEP(2);
		}
		break;
	default:
		for (size_t i = 0; i < n; i++) {
			uint8_t c = (uint8_t)s[i];

			STEP(0);
			STEP(1);
			STEP(2);
			STEP(3);
		}
		break;
	}
#undef STEP
	for (uint32_t j = 0; j < k; j++)
		acc[j] = accepting(a[j], row[j], &count[j]);
}

size_t fc_dfa_size(const struct fc_dfa *a)
{
	return a->size;
}
