/* label/fc_bin.c: compiled file_contexts.bin, read and written. */
#include <endian.h>
#include <string.h>
#include <sys/stat.h>

#include "fc.h"

/*
 * The format (little-endian on the machines Debian 12's
 * sefcontext_compile runs on; every integer is a host-order u32):
 *   magic 0xf97cff8a, version (5 for Debian 12's tools),
 *   len + the PCRE2 version string (no NUL),
 *   version >= 5: len + the regex "arch" string "8-8-el" (no NUL),
 *   stem count, then per stem: len (without NUL) + the stem + NUL,
 *   spec count, then per spec: len + raw context + NUL, len + regex +
 *   NUL, mode bits, stem id (-1 for none), hasMetaChars,
 *   version >= 4: prefix_len, then len + pcre2_serialize_encode() bytes
 *   of "^regex$" (len 0: no precompiled regex, as "sefcontext_compile -r"
 *   writes).
 * Specs come in the reference's sorted order.  We never load the
 * serialized regexes (their bytes depend on the PCRE2 build and
 * architecture, and a corrupted one cannot be checked): we compile from
 * the regex string, which gives the same answers.
 */
#define FC_BIN_VERSION 5

struct rd {
	const uint8_t *p, *end;
};

static int rd_u32(struct rd *r, uint32_t *v)
{
	if (r->end - r->p < 4)
		return -EINVAL;
	memcpy(v, r->p, 4);
	r->p += 4;
	return 0;
}

static int rd_skip(struct rd *r, uint32_t n)
{
	if ((size_t)(r->end - r->p) < n)
		return -EINVAL;
	r->p += n;
	return 0;
}

/* A string of len bytes whose last is NUL (an earlier NUL ends it). */
static int rd_str(struct rd *r, const char **s, size_t *n)
{
	uint32_t len;
	int e;

	if ((e = rd_u32(r, &len)) < 0)
		return e;
	if (!len || (size_t)(r->end - r->p) < len || r->p[len - 1])
		return -EINVAL;
	*s = (const char *)r->p;
	*n = strlen(*s);
	r->p += len;
	return 0;
}

int fc_parse_bin(struct fc_load *l, const uint8_t *buf, size_t len)
{
	struct rd r = { buf, buf + len };
	uint32_t magic, version, n, nstems, nspecs;
	int e;

	if ((e = rd_u32(&r, &magic)) < 0 || magic != FC_BIN_MAGIC)
		goto bad;
	if ((e = rd_u32(&r, &version)) < 0)
		goto bad;
	if (version < 2 || version > FC_BIN_VERSION) {
		core_log(SELINUX_ERROR, "%s: unsupported format version %u\n",
			 l->path, version);
		return -EINVAL;
	}
	/* PCRE2 version and arch strings: informational for us. */
	if ((e = rd_u32(&r, &n)) < 0 || (e = rd_skip(&r, n)) < 0)
		goto bad;
	if (version >= 5 &&
	    ((e = rd_u32(&r, &n)) < 0 || (e = rd_skip(&r, n)) < 0))
		goto bad;
	if ((e = rd_u32(&r, &nstems)) < 0)
		goto bad;
	for (uint32_t i = 0; i < nstems; i++) {
		if ((e = rd_u32(&r, &n)) < 0 || n == UINT32_MAX ||
		    (e = rd_skip(&r, n + 1)) < 0 || r.p[-1])
			goto bad;
	}
	if ((e = rd_u32(&r, &nspecs)) < 0)
		goto bad;
	/* Each spec takes at least 26 bytes: refuse absurd counts early. */
	if (nspecs > (size_t)(r.end - r.p) / 26) {
		e = -EINVAL;
		goto bad;
	}
	if (fc_reserve(l->d, nspecs) < 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < nspecs; i++) {
		const char *ctx, *regex;
		size_t clen, rlen;
		uint32_t mode, stem, meta, prefix;

		if ((e = rd_str(&r, &ctx, &clen)) < 0 ||
		    (e = rd_str(&r, &regex, &rlen)) < 0)
			goto bad;
		if ((e = rd_u32(&r, &mode)) < 0 || (e = rd_u32(&r, &stem)) < 0 ||
		    (e = rd_u32(&r, &meta)) < 0)
			goto bad;
		if (version >= 4 && (e = rd_u32(&r, &prefix)) < 0)
			goto bad;
		if ((int32_t)stem < -1 || ((int32_t)stem >= 0 && stem >= nstems)) {
			e = -EINVAL;
			goto bad;
		}
		if ((e = rd_u32(&r, &n)) < 0 || (e = rd_skip(&r, n)) < 0)
			goto bad;
		/* A spec's line number in a .bin is its position. */
		e = fc_add_spec(l, regex, rlen, mode, ctx, clen, i + 1);
		if (e < 0)
			return e;
		if (e == FC_STOP)
			return 0;
	}
	if (r.p != r.end) {
		e = -EINVAL;
		goto bad;
	}
	return 0;
bad:
	if (e == -ENOMEM)
		return e;
	core_log(SELINUX_ERROR, "%s: invalid compiled file contexts\n",
		 l->path);
	return -EINVAL;
}

static int wr(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t k = write(fd, b, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b += k;
		n -= k;
	}
	return 0;
}

static int wr_u32(int fd, uint32_t v)
{
	return wr(fd, &v, 4);
}

/* len (with NUL) + the string and its NUL. */
static int wr_str(int fd, const char *s)
{
	size_t n = strlen(s) + 1;
	int e = wr_u32(fd, n);

	return e < 0 ? e : wr(fd, s, n);
}

int fc_write_bin(struct fc_data *d, int fd, bool no_regex)
{
	_cleanup_free_ uint32_t *stem_id = calloc(d->nspec + 1, 4);
	_cleanup_free_ uint32_t *stems = calloc(d->nspec + 1, 4);
	uint32_t nstems = 0;
	char ver[64], arch[32];
	int e;

	if (!stem_id || !stems)
		return -ENOMEM;
	if ((e = fc_index_ensure(d)) < 0)
		return e;
	/* Stems are numbered in the order specs first name them. */
	for (uint32_t i = 0; i < d->nspec; i++) {
		struct fc_spec *s = &d->spec[i];
		uint32_t j;

		stem_id[i] = UINT32_MAX;
		if (!s->stem_len)
			continue;
		for (j = 0; j < nstems; j++) {
			struct fc_spec *o = &d->spec[stems[j]];

			if (o->stem_len == s->stem_len &&
			    !memcmp(o->regex, s->regex, s->stem_len))
				break;
		}
		if (j == nstems)
			stems[nstems++] = i;
		stem_id[i] = j;
	}
	pcre2_config(PCRE2_CONFIG_VERSION, ver);
	snprintf(arch, sizeof(arch), "%zu-%zu-%s", sizeof(void *),
		 sizeof(size_t), __BYTE_ORDER == __LITTLE_ENDIAN ? "el" : "eb");
	if ((e = wr_u32(fd, FC_BIN_MAGIC)) < 0 ||
	    (e = wr_u32(fd, FC_BIN_VERSION)) < 0 ||
	    (e = wr_u32(fd, strlen(ver))) < 0 || (e = wr(fd, ver, strlen(ver))) < 0 ||
	    (e = wr_u32(fd, strlen(arch))) < 0 ||
	    (e = wr(fd, arch, strlen(arch))) < 0 || (e = wr_u32(fd, nstems)) < 0)
		return e;
	for (uint32_t j = 0; j < nstems; j++) {
		struct fc_spec *o = &d->spec[stems[j]];

		if ((e = wr_u32(fd, o->stem_len)) < 0 ||
		    (e = wr(fd, o->regex, o->stem_len)) < 0 ||
		    (e = wr(fd, "", 1)) < 0)
			return e;
	}
	if ((e = wr_u32(fd, d->nspec)) < 0)
		return e;
	for (uint32_t i = 0; i < d->nspec; i++) {
		struct fc_spec *s = &d->spec[i];
		uint8_t *blob = NULL;
		PCRE2_SIZE blen = 0;

		if ((e = wr_str(fd, s->ctx)) < 0 || (e = wr_str(fd, s->regex)) < 0 ||
		    (e = wr_u32(fd, s->mode)) < 0 || (e = wr_u32(fd, stem_id[i])) < 0 ||
		    (e = wr_u32(fd, s->meta)) < 0 ||
		    (e = wr_u32(fd, s->prefix_len)) < 0)
			return e;
		if (!no_regex) {
			int err;
			size_t off;
			pcre2_code *c = fc_compile(s->regex, &err, &off);
			const pcre2_code *list[1] = { c };

			if (!c)
				return -EINVAL;
			if (pcre2_serialize_encode(list, 1, &blob, &blen, NULL) < 0) {
				pcre2_code_free(c);
				return -ENOMEM;
			}
			pcre2_code_free(c);
		}
		e = wr_u32(fd, blen);
		if (e == 0 && blen)
			e = wr(fd, blob, blen);
		if (blob)
			pcre2_serialize_free(blob);
		if (e < 0)
			return e;
	}
	return 0;
}
