/* label/fc_text.c: the text file_contexts(5) parser. */
#include <string.h>

#include "fc.h"

static const uint8_t space[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
};

/* The reference's stem length of regex (see fc_spec_analyze). */
static size_t stem_of(const char *re, size_t len)
{
	const char *slash = len ? memchr(re + 1, '/', len - 1) : NULL;

	if (!slash)
		return 0;
	for (const char *p = re; p < slash; p++)
		if (fc_meta[(uint8_t)*p])
			return 0;
	return slash - re;
}

int fc_reserve(struct fc_data *d, size_t more)
{
	size_t want = (size_t)d->nspec + more;
	struct fc_spec *ns;

	if (want <= d->aspec)
		return 0;
	/* Room for the later files too: growing would copy the array to
	 * fresh pages. */
	want += d->hint;
	d->hint = 0;
	if (want >= UINT32_MAX)
		return -EOVERFLOW;
	if (d->spec_in_arena) {
		ns = malloc(want * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		/*
		 * analyzer: false positive (clang NonNullParamChecker):
		 * spec_in_arena is set only with d->spec pointing into the
		 * arena, never NULL.
		 */
		memcpy(ns, d->spec, d->nspec * sizeof(*ns));
		d->spec_in_arena = false;
	} else {
		ns = realloc(d->spec, want * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
	}
	d->spec = ns;
	d->aspec = want;
	return 0;
}

int fc_prepare(struct fc_data *d, size_t more, size_t bytes)
{
	size_t want = more + d->hint, sz;
	int r;

	/*
	 * The first file: specs and strings in one chunk, one allocation
	 * instead of two (and its pages stay in the malloc heap for the
	 * next open rather than being trimmed away between two blocks).
	 */
	if (!d->spec && !d->arena && want < UINT32_MAX &&
	    want <= (SIZE_MAX - bytes) / sizeof(struct fc_spec) - 1) {
		sz = want * sizeof(struct fc_spec);
		if ((r = fc_arena_reserve(d, sz + bytes)) < 0)
			return r;
		d->spec = (struct fc_spec *)d->arena->mem;
		d->arena->used = sz;
		d->aspec = want;
		d->spec_in_arena = true;
		d->hint = 0;
		return 0;
	}
	if ((r = fc_reserve(d, more)) < 0)
		return r;
	return fc_arena_reserve(d, bytes);
}

int fc_add_spec(struct fc_load *l, const char *regex, size_t rlen,
		uint32_t mode, const char *ctx, size_t clen, uint32_t lineno)
{
	return fc_add_spec_cached(l, regex, rlen, mode, ctx, clen, NULL,
				  lineno);
}

int fc_add_spec_cached(struct fc_load *l, const char *regex, size_t rlen,
		       uint32_t mode, const char *ctx, size_t clen,
		       const char **ictx, uint32_t lineno)
{
	struct fc_data *d = l->d;
	_cleanup_free_ char *con = NULL;
	struct fc_spec *s;
	int r;

	if (d->nspec == UINT32_MAX - 1)
		return -EOVERFLOW;
	if (d->nspec == d->aspec &&
	    (r = fc_reserve(d, d->aspec ? d->aspec : 1024)) < 0)
		return r;
	s = &d->spec[d->nspec];
	memset(s, 0, sizeof(*s));
	s->regex = fc_strndup(d, regex, rlen);
	if (!s->regex)
		return -ENOMEM;
	if (l->h->validating || l->check_regex) {
		int err;
		size_t off;
		pcre2_code *c = fc_compile(s->regex, &err, &off);

		if (!c) {
			PCRE2_UCHAR msg[256];

			pcre2_get_error_message(err, msg, sizeof(msg));
			core_log(SELINUX_ERROR,
				 "%s:  line %u has invalid regex %s:  "
				 "REGEX back-end error: At offset %zu: %s\n",
				 l->path, lineno, s->regex, off, (char *)msg);
			return -EINVAL;
		}
		pcre2_code_free(c);
		if (l->h->validating &&
		    (clen != 8 || memcmp(ctx, "<<none>>", 8))) {
			con = strndup(ctx, clen);
			if (!con)
				return -ENOMEM;
			r = lbl_validate(&con, l->path, lineno);
			if (r < 0 && l->bin) {
				/* Debian 12's reader of compiled files gives
				 * up on the rest of the file but reports
				 * success: the specs before stay. */
				core_log(SELINUX_ERROR,
					 "%s: context %s is invalid\n", l->path,
					 con);
				return FC_STOP;
			}
			if (r < 0) {
				core_log(SELINUX_WARNING,
					 "%s: line %u has invalid context %s\n",
					 l->path, lineno, con);
				/* The validator's errno, as the reference
				 * passes it on (ENOENT without selinuxfs). */
				return r;
			}
			ctx = con;
			clen = strlen(con);
		}
	}
	/* (a context validated may be rewritten: not cached then) */
	if (ictx && *ictx && !con) {
		s->ctx = (char *)*ictx;
	} else {
		s->ctx = fc_intern(d, ctx, clen);
		if (!s->ctx)
			return -ENOMEM;
		if (ictx && !con)
			*ictx = s->ctx;
	}
	s->mode = mode;
	s->lineno = lineno;
	s->file = l->file;
	s->rlen = rlen;
	/* The sort needs hasMetaChars now; the rest of the analysis waits
	 * for the first lookup (fc_index_ensure). */
	s->meta = 0;
	for (size_t i = 0; i < rlen; i++) {
		if (s->regex[i] == '\\') {
			i++;
		} else if (fc_meta[(uint8_t)s->regex[i]]) {
			s->meta = 1;
			break;
		}
	}
	d->nspec++;
	return 0;
}

/*
 * The next whitespace-separated field of [*p, end): start and length;
 * *high set if a byte of it is >= 0x80.  Eight bytes at a time while
 * none is a space or high: every whitespace byte is below 0x21, and
 * (x - 0x21..21) | x has the top bit of each byte below 0x21 or above
 * 0x7f set (a borrow may set more: the bytes are then looked at one by
 * one).  The regex and context fields are most of a file's bytes.
 */
static const char *field(const char **p, const char *end, size_t *len,
			 bool *high)
{
	const char *s = *p, *e;
	uint8_t acc = 0;

	while (s < end && space[(uint8_t)*s])
		s++;
	if (s == end)
		return NULL;
	for (e = s; end - e >= 8; e += 8) {
		uint64_t x;

		memcpy(&x, e, 8);
		if (((x - 0x2121212121212121ull) | x) & 0x8080808080808080ull)
			break;
	}
	for (; e < end && !space[(uint8_t)*e]; e++)
		acc |= (uint8_t)*e;
	*p = e;
	*len = e - s;
	*high = *high || acc >= 0x80;
	return s;
}

/* Parse the lines of [buf, buf + len), the first being *lineno + 1: all
 * complete but the file's last, which may lack its newline. */
static int parse_lines(struct fc_load *l, const char *buf, size_t len,
		       uint32_t *linep)
{
	const char *p = buf, *end = buf + len;
	bool has_nul = memchr(buf, '\0', len) != NULL;
	uint32_t lineno = *linep;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end, *q, *nul, *f1, *f2, *f3;
		size_t l1, l2, l3;
		uint32_t mode = 0;
		bool high = false;
		int r;

		lineno++;
		/* Like a C string read with getline: a NUL ends the line. */
		nul = has_nul ? memchr(p, '\0', eol - p) : NULL;
		if (nul)
			eol = nul;
		q = p;
		p = nl ? nl + 1 : end;
		while (q < eol && space[(uint8_t)*q])
			q++;
		if (q == eol || *q == '#')
			continue;
		f1 = field(&q, eol, &l1, &high);
		f2 = field(&q, eol, &l2, &high);
		f3 = f2 ? field(&q, eol, &l3, &high) : NULL;
		/* The reference refuses a byte >= 0x80 in the fields it reads
		 * (the first three), before it looks at what they say. */
		if (high) {
			core_log(SELINUX_ERROR,
				 "%s:  line %u error due to: Non-ASCII "
				 "characters found\n",
				 l->path, lineno);
			return -EINVAL;
		}
		if (!f2) {
			core_log(SELINUX_ERROR,
				 "%s:  line %u is missing fields\n", l->path,
				 lineno);
			return -EINVAL;
		}
		/* SUBSET keeps a spec whose stem (the reference's) starts
		 * the prefix, or that has no stem; the others are dropped
		 * before their file type is looked at.  Debian 12's library
		 * applies it to text files only: a compiled file is read
		 * whole. */
		if (l->prefix) {
			size_t stem = stem_of(f1, l1);

			if (stem && strncmp(l->prefix, f1, stem))
				continue;
		}
		if (f3) {
			char t[3] = {0};

			if (l2 <= 2)
				memcpy(t, f2, l2);
			if (l2 > 2 || fc_mode_from_string(t, &mode) < 0) {
				core_log(
				    SELINUX_ERROR,
				    "%s:  line %u has invalid file type %.*s\n",
				    l->path, lineno, (int)l2, f2);
				return -EINVAL;
			}
			r = fc_add_spec(l, f1, l1, mode, f3, l3, lineno);
		} else {
			r = fc_add_spec(l, f1, l1, 0, f2, l2, lineno);
		}
		if (r < 0)
			return r;
	}
	*linep = lineno;
	return 0;
}

int fc_parse_text(struct fc_load *l, const char *buf, size_t len)
{
	uint32_t lineno = 0;
	size_t lines = 1;

	/* One array of the right size up front: growing it by doubling
	 * costs a copy and fresh pages (page faults) at every step. */
	for (const char *q = buf; (q = memchr(q, '\n', buf + len - q)); q++)
		lines++;
	/* The regexes and contexts copied take at most the file's size. */
	if (fc_prepare(l->d, lines, len + 1) < 0)
		return -ENOMEM;
	return parse_lines(l, buf, len, &lineno);
}

/*
 * The same from fd, of size bytes, read through a small buffer a few
 * complete lines at a time: mapping the file costs more (setting up and
 * tearing down its page table entries; refpolicy's is 320 KiB) and
 * reading it whole would fault in as many fresh pages.  The spec count
 * is not known before the end: the array is sized for a line every 32
 * bytes (refpolicy: one every 62) and grows if that is not enough.
 */
#define TEXT_BUF 65536

int fc_parse_text_fd(struct fc_load *l, int fd, size_t size)
{
	size_t cap = size < TEXT_BUF ? size + 1 : TEXT_BUF, have = 0;
	uint64_t left = size;
	_cleanup_free_ char *buf = malloc(cap);
	uint32_t lineno = 0;
	int r;

	if (!buf)
		return -ENOMEM;
	if (fc_prepare(l->d, size / 32 + 64, size + 1) < 0)
		return -ENOMEM;
	for (;;) {
		size_t want = cap - have;
		const char *last;
		ssize_t k;

		if (want > left)
			want = left;
		k = want ? read(fd, buf + have, want) : 0;
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0) /* the end: the last line needs no newline */
			return have ? parse_lines(l, buf, have, &lineno) : 0;
		have += k;
		left -= k;
		last = memrchr(buf, '\n', have);
		if (!last) {
			if (have == cap) {
				/* A line longer than the buffer. */
				char *nb = realloc(buf, cap * 2);

				if (!nb)
					return -ENOMEM;
				buf = nb;
				cap *= 2;
			}
			continue;
		}
		k = last + 1 - buf;
		r = parse_lines(l, buf, k, &lineno);
		if (r < 0)
			return r;
		memmove(buf, buf + k, have - k);
		have -= k;
	}
}
