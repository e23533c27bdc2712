/* label/fc_spec.c: what a file_contexts regex is, as the reference sees it. */
#include <string.h>
#include <sys/stat.h>

#include "index.h"

const uint8_t fc_meta[256] = {
    ['.'] = 1, ['^'] = 1, ['$'] = 1, ['?'] = 1, ['*'] = 1,
    ['+'] = 1, ['|'] = 1, ['['] = 1, ['('] = 1, ['{'] = 1,
};

static bool is_meta(char c)
{
	return fc_meta[(uint8_t)c];
}

/* What simple_regex() looks at: every other character is an atom. */
static const uint8_t regex_special[256] = {
    ['\\'] = 1, ['('] = 1, [')'] = 1, ['|'] = 1, ['['] = 1, ['^'] = 1,
    ['$'] = 1,	['?'] = 1, ['*'] = 1, ['+'] = 1, ['{'] = 1,
};

/* Where a fixed prefix may end: a meta character, ')' or a backslash. */
static const uint8_t lit_stop[256] = {
    ['.'] = 1, ['^'] = 1, ['$'] = 1, ['?'] = 1,	 ['*'] = 1, ['+'] = 1,
    ['|'] = 1, ['['] = 1, ['('] = 1, ['{'] = 1,	 [')'] = 1, ['\\'] = 1,
};

/* A new chunk of at least n bytes in front of d's arena. */
static struct fc_chunk *chunk_new(struct fc_data *d, size_t n)
{
	size_t size = n > 65536 ? n : 65536;
	struct fc_chunk *c = malloc(sizeof(*c) + size);

	if (!c)
		return NULL;
	c->size = size;
	c->used = 0;
	c->next = d->arena;
	d->arena = c;
	return c;
}

int fc_arena_reserve(struct fc_data *d, size_t n)
{
	struct fc_chunk *c = d->arena;

	if (c && c->size - c->used >= n)
		return 0;
	return chunk_new(d, n) ? 0 : -ENOMEM;
}

void *fc_arena_alloc(struct fc_data *d, size_t n)
{
	struct fc_chunk *c = d->arena;
	size_t off = c ? (c->used + 7) & ~(size_t)7 : 0;
	void *p;

	if (!c || off > c->size || c->size - off < n) {
		c = chunk_new(d, n);
		if (!c)
			return NULL;
		off = 0;
	}
	p = c->mem + off;
	c->used = off + n;
	return memset(p, 0, n);
}

char *fc_strndup(struct fc_data *d, const char *s, size_t n)
{
	struct fc_chunk *c = d->arena;
	char *p;

	if (!c || c->size - c->used < n + 1) {
		c = chunk_new(d, n + 1);
		if (!c)
			return NULL;
	}
	p = c->mem + c->used;
	memcpy(p, s, n);
	p[n] = '\0';
	c->used += n + 1;
	return p;
}

/* Double the intern table (or create it); 0 or -ENOMEM. */
static int intern_grow(struct fc_data *d)
{
	uint32_t size = d->itab ? (d->imask + 1) * 2 : 1024;
	struct fc_istr *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; d->itab && i <= d->imask; i++) {
		uint32_t b;

		if (!d->itab[i].s)
			continue;
		b = d->itab[i].hash & (size - 1);
		while (t[b].s)
			b = (b + 1) & (size - 1);
		t[b] = d->itab[i];
	}
	free(d->itab);
	d->itab = t;
	d->imask = size - 1;
	return 0;
}

char *fc_intern(struct fc_data *d, const char *s, size_t n)
{
	uint32_t h = fc_hash(s, n), b;
	struct fc_istr *e;

	/* At most half full, so probes stay short and end at a free slot. */
	if ((d->icount + 1) * 2 > (d->itab ? d->imask + 1 : 0) &&
	    intern_grow(d) < 0)
		return NULL;
	/*
	 * analyzer: false positive (clang NullDereference): without a table the
	 * test above is 2 > 0, and intern_grow() returns 0 only with d->itab
	 * set.
	 */
	for (b = h & d->imask; (e = &d->itab[b])->s; b = (b + 1) & d->imask)
		if (e->hash == h && e->len == n && !memcmp(e->s, s, n))
			return e->s;
	if (n > UINT32_MAX)
		return fc_strndup(d, s, n); /* not worth sharing */
	e->s = fc_strndup(d, s, n);
	if (!e->s)
		return NULL;
	e->len = n;
	e->hash = h;
	d->icount++;
	return e->s;
}

void fc_intern_free(struct fc_data *d)
{
	free(d->itab);
	d->itab = NULL;
	d->imask = d->icount = 0;
}

void fc_arena_free(struct fc_data *d)
{
	while (d->arena) {
		struct fc_chunk *n = d->arena->next;

		free(d->arena);
		d->arena = n;
	}
}

static bool is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static bool is_class_escape(char c)
{
	return c && strchr("dDsSwW", c);
}

static const char *const posix_classes[] = {
    "alpha",  "digit", "alnum", "upper", "lower", "space", "punct",
    "xdigit", "word",  "blank", "cntrl", "graph", "print", "ascii",
};

/* Length of a POSIX class "[:name:]" at p, or 0. */
static size_t posix_class(const char *p)
{
	if (p[0] != '[' || p[1] != ':')
		return 0;
	for (size_t i = 0; i < ELEMENTSOF(posix_classes); i++) {
		size_t n = strlen(posix_classes[i]);

		if (!strncmp(p + 2, posix_classes[i], n) && p[2 + n] == ':' &&
		    p[3 + n] == ']')
			return n + 4;
	}
	return 0;
}

/* Parse a character class starting at re[i] == '['; the index after its
 * ']' or 0 when it is outside the subset we accept. */
static size_t parse_class(const char *re, size_t i)
{
	int prev = -1; /* the previous literal, a possible range start */

	i++;
	if (re[i] == '^')
		i++;
	if (re[i] == ']') {
		prev = ']';
		i++;
	}
	for (;;) {
		unsigned char c = re[i];
		int lit;
		size_t n;

		if (!c)
			return 0;
		if (c == ']')
			return i + 1;
		if ((n = posix_class(re + i))) {
			i += n;
			prev = -1;
			continue;
		}
		if (c == '[' &&
		    (re[i + 1] == ':' || re[i + 1] == '.' || re[i + 1] == '='))
			return 0;
		if (c == '\\') {
			unsigned char e = re[i + 1];

			if (!e)
				return 0;
			if (is_alnum(e)) {
				if (!is_class_escape(e))
					return 0;
				i += 2;
				prev = -1;
				continue;
			}
			lit = e;
			i += 2;
		} else if (c == '-' && prev >= 0 && re[i + 1] != ']') {
			/* A range prev-hi. */
			unsigned char hi = re[i + 1];

			if (hi == '\\') {
				hi = re[i + 2];
				if (!hi || is_alnum(hi))
					return 0;
				i++;
			} else if (hi == '[') {
				return 0;
			}
			if (hi < prev)
				return 0;
			i += 2;
			prev = -1;
			continue;
		} else {
			lit = c;
			i++;
		}
		prev = lit;
	}
}

/* Parse "{n}", "{n,}", "{n,m}" at re[i]; the index after it or 0. */
static size_t parse_braces(const char *re, size_t i)
{
	unsigned long lo = 0, hi;
	size_t j = i + 1, start = j;

	while (re[j] >= '0' && re[j] <= '9' && j - start < 6)
		lo = lo * 10 + (re[j++] - '0');
	if (j == start || lo > 65535)
		return 0;
	if (re[j] == '}')
		return j + 1;
	if (re[j] != ',')
		return 0;
	j++;
	start = j;
	hi = 0;
	while (re[j] >= '0' && re[j] <= '9' && j - start < 6)
		hi = hi * 10 + (re[j++] - '0');
	if (re[j] != '}')
		return 0;
	if (j > start && (hi > 65535 || hi < lo))
		return 0;
	return j + 1;
}

/*
 * Is re within the subset of PCRE2 syntax we understand fully: literals,
 * escaped punctuation, \d \s \w and their negations, '.', classes, plain
 * and (?: groups, alternation, ^ $, quantifiers?  Everything accepted
 * compiles; *toplevel is set when '|' appears outside any group.
 */
static bool simple_regex(const char *re, bool *toplevel)
{
	unsigned depth = 0;
	bool can_q = false;
	size_t i = 0;

	*toplevel = false;
	while (re[i]) {
		char c = re[i];
		size_t n;

		/* a run of ordinary characters (the default case below) */
		if (!regex_special[(uint8_t)c]) {
			while (re[++i] && !regex_special[(uint8_t)re[i]])
				;
			can_q = true;
			continue;
		}
		switch (c) {
		case '\\':
			if (!re[i + 1])
				return false;
			if (is_alnum(re[i + 1]) && !is_class_escape(re[i + 1]))
				return false;
			i += 2;
			can_q = true;
			continue;
		case '(':
			if (re[i + 1] == '?') {
				if (re[i + 2] != ':')
					return false;
				i += 2;
			} else if (re[i + 1] == '*') {
				return false;
			}
			depth++;
			can_q = false;
			break;
		case ')':
			if (!depth)
				return false;
			depth--;
			can_q = true;
			break;
		case '|':
			if (!depth)
				*toplevel = true;
			can_q = false;
			break;
		case '[':
			n = parse_class(re, i);
			if (!n)
				return false;
			i = n;
			can_q = true;
			continue;
		case '^':
		case '$':
			can_q = false;
			break;
		case '?':
		case '*':
		case '+':
		case '{':
			if (!can_q)
				return false;
			if (c == '{') {
				n = parse_braces(re, i);
				if (!n)
					return false;
				i = n;
			} else {
				i++;
			}
			if (re[i] == '?' || re[i] == '+')
				i++;
			can_q = false;
			continue;
		default:
			can_q = true;
			break;
		}
		i++;
	}
	return depth == 0;
}

/*
 * Might PCRE2 refuse re for its size (compiled patterns are limited to
 * 64 KiB of code)?  The reference then fails every lookup that reaches
 * the spec, whatever the key, so such a spec must be matched on its own
 * (FC_SINGLE), never from the exact-string table or the trie, which a
 * key outside its prefix never reaches.  A crude bound, checked for
 * every spec: 40 bytes of code per character of the regex (a character
 * class costs 33 for 3 or more characters), times every repeat count
 * of a "{n,m}" (nested or not).  Only the rare specs above it are
 * compiled to find out.
 */
static bool maybe_too_large(const char *re, size_t len)
{
	uint64_t bound = 40 * (uint64_t)len;

	/* (nearly every spec: no repeat count, the bound is the length's) */
	if (!memchr(re, '{', len))
		return bound > 32768;

	for (size_t i = 0; i < len && bound <= 32768; i++) {
		unsigned long n = 0;

		if (re[i] == '\\') {
			i++;
			continue;
		}
		if (re[i] != '{')
			continue;
		/* {n}, {n,} and {n,m}: the largest number counts. */
		for (size_t j = i + 1; j < len && j < i + 14; j++) {
			unsigned long k = 0;

			while (j < len && re[j] >= '0' && re[j] <= '9' &&
			       k < 100000)
				k = k * 10 + (re[j++] - '0');
			if (k + 1 > n)
				n = k + 1;
			if (j >= len || re[j] != ',')
				break;
		}
		bound *= n;
	}
	return bound > 32768;
}

int fc_spec_analyze(struct fc_data *d, struct fc_spec *sp, struct fc_ix *s,
		    char *lits, uint32_t *lits_len)
{
	const char *re = sp->regex, *slash;
	size_t len = sp->rlen;
	bool toplevel, fixed = true;
	size_t i, last_tok = 0, lit_len = 0, tok_lit = 0;
	char *lit = lits + *lits_len;

	(void)d;
	/* The reference's stem: the first component, unless a meta
	 * character (raw: escapes not understood) appears in it. */
	s->stem_len = 0;
	slash = len ? memchr(re + 1, '/', len - 1) : NULL;
	if (slash) {
		const char *p;

		for (p = re; p < slash && !is_meta(*p); p++)
			;
		if (p == slash)
			s->stem_len = slash - re;
	}

	/* The longest possible fixed prefix is the regex itself: the
	 * caller left that much room. */
	/*
	 * One pass for the reference's hasMetaChars and prefix_len (raw
	 * characters before the first meta character, a backslash skipping
	 * the next one) and for our fixed prefix: literal characters and
	 * escaped punctuation, unescaped, up to the first regex construct;
	 * a quantifier there makes the atom before it optional.
	 */
	sp->meta = 0;
	s->prefix_len = len;
	/* Where the regex text after the fixed prefix starts: all of it is
	 * prefix unless the scan below stops early.  A spec that is all
	 * prefix may still become FC_TRIE below (a stem with a '\\'), and
	 * then matches its node with an empty remainder. */
	s->rem_off = len;
	s->hnext = UINT32_MAX;
	/* (a run of plain characters at a time: a spec's few hundred
	 * instructions of analysis, times every spec, are most of the
	 * index's build) */
	for (i = 0; i < len;) {
		size_t run = i;

		while (i < len && !lit_stop[(uint8_t)re[i]])
			i++;
		if (i > run) {
			memcpy(lit + lit_len, re + run, i - run);
			lit_len += i - run;
			last_tok = i - 1;
			tok_lit = lit_len - 1;
		}
		if (i == len || re[i] != '\\' || i + 1 == len ||
		    is_alnum(re[i + 1]))
			break;
		last_tok = i;
		tok_lit = lit_len;
		lit[lit_len++] = re[i + 1];
		i += 2;
	}
	if (i < len) {
		fixed = false;
		s->rem_off = i;
		if (strchr("?*+{", re[i]) && lit_len) {
			lit_len = tok_lit;
			s->rem_off = last_tok;
		}
		/* Continue the reference's meta scan from where we are. */
		for (; i < len; i++) {
			if (re[i] == '\\') {
				i++;
				continue;
			}
			if (is_meta(re[i])) {
				sp->meta = 1;
				s->prefix_len = i;
				break;
			}
		}
	}
	lit[lit_len] = '\0';
	s->lit = *lits_len;
	s->lit_len = lit_len;
	*lits_len += lit_len + 1;

	/* A stem holding a backslash never equals a path's first
	 * component as written ("/a\-b" is not "/a-b"): the reference then
	 * never matches the spec, so the exact-string table must not. */
	if (fixed && s->stem_len && memchr(re, '\\', s->stem_len))
		fixed = false;
	if (fixed)
		s->kind = FC_FIXED;
	else if (simple_regex(re, &toplevel) && !toplevel)
		s->kind = FC_TRIE;
	else
		s->kind = FC_SINGLE;
	if (s->kind != FC_SINGLE && maybe_too_large(re, len)) {
		int err;
		size_t off;
		pcre2_code *c = fc_compile(re, &err, &off);

		if (!c && err == PCRE2_ERROR_NOMEMORY)
			return -ENOMEM;
		pcre2_code_free(c);
		if (!c)
			s->kind = FC_SINGLE;
	}
	return 0;
}

int fc_mode_from_string(const char *t, uint32_t *mode)
{
	if (t[0] != '-' || !t[1] || t[2])
		return -EINVAL;
	switch (t[1]) {
	case '-':
		*mode = S_IFREG;
		return 0;
	case 'd':
		*mode = S_IFDIR;
		return 0;
	case 'c':
		*mode = S_IFCHR;
		return 0;
	case 'b':
		*mode = S_IFBLK;
		return 0;
	case 's':
		*mode = S_IFSOCK;
		return 0;
	case 'p':
		*mode = S_IFIFO;
		return 0;
	case 'l':
		*mode = S_IFLNK;
		return 0;
	}
	return -EINVAL;
}

const char *fc_mode_to_string(uint32_t mode)
{
	switch (mode) {
	case S_IFREG:
		return "--";
	case S_IFDIR:
		return "-d";
	case S_IFCHR:
		return "-c";
	case S_IFBLK:
		return "-b";
	case S_IFSOCK:
		return "-s";
	case S_IFIFO:
		return "-p";
	case S_IFLNK:
		return "-l";
	}
	return NULL;
}

/*
 * The reference anchors a spec as "^" regex "$" (so "a|b" means "starts
 * with a or ends with b") and compiles it with PCRE2_DOTALL, bytes, not
 * UTF-8.
 */
pcre2_code *fc_compile(const char *regex, int *err, size_t *erroff)
{
	size_t len = strlen(regex);
	_cleanup_free_ char *pat = malloc(len + 3);

	if (!pat) {
		*err = PCRE2_ERROR_NOMEMORY;
		*erroff = 0;
		return NULL;
	}
	pat[0] = '^';
	memcpy(pat + 1, regex, len);
	pat[len + 1] = '$';
	pat[len + 2] = '\0';
	return pcre2_compile((PCRE2_SPTR)pat, len + 2, PCRE2_DOTALL, err,
			     erroff, NULL);
}

const char fc_re_bad_tag;

pcre2_code *fc_spec_re(struct fc_data *d, uint32_t i)
{
	pcre2_code **v = __atomic_load_n(&d->re, __ATOMIC_ACQUIRE);
	pcre2_code *re = v ? __atomic_load_n(&v[i], __ATOMIC_ACQUIRE) : NULL;
	int err;
	size_t off;

	if (re)
		return re == FC_RE_BAD ? NULL : re;
	pthread_mutex_lock(&d->lock);
	if (!d->re)
		__atomic_store_n(&d->re, calloc(d->nspec, sizeof(*d->re)),
				 __ATOMIC_RELEASE);
	if (!d->re) {
		pthread_mutex_unlock(&d->lock);
		return NULL; /* out of memory: as a regex that fails */
	}
	re = d->re[i];
	if (!re) {
		re = fc_compile(fc_regex(d, i), &err, &off);
		/* out of memory is no verdict on the regex: tried again */
		if (re || (err != PCRE2_ERROR_NOMEMORY &&
			   err != PCRE2_ERROR_HEAP_FAILED))
			__atomic_store_n(&d->re[i], re ? re : FC_RE_BAD,
					 __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&d->lock);
	return re == FC_RE_BAD ? NULL : re;
}

bool fc_spec_bad(struct fc_data *d, uint32_t i)
{
	pcre2_code **v = __atomic_load_n(&d->re, __ATOMIC_ACQUIRE);

	return v && __atomic_load_n(&v[i], __ATOMIC_ACQUIRE) == FC_RE_BAD;
}
