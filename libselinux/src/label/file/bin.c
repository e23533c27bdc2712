/* label/fc_bin.c: compiled file_contexts.bin, read and written. */
#include <endian.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fc.h"
#include "release.h"

/*
 * Versions 2 to 5 (version 6 is another layout: fc_bin6.c).
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

/*
 * The reader.  A .bin is mostly serialized regexes we never look at:
 * refpolicy's is 7 MB for ~5600 specs of ~100 bytes of strings each.
 * Reading it through one small buffer, skipping what we do not need,
 * costs much less than mapping it (1800 page table entries set up and
 * torn down, and a TLB miss at every spec) or reading it whole (as many
 * fresh pages).  With fd < 0 the whole file is in memory already.
 */
#define RD_BUF 65536

struct rd {
	int fd;
	uint8_t *buf; /* malloc'd, cap bytes (fd >= 0) */
	size_t cap;
	const uint8_t *p, *end; /* unread bytes in the buffer */
	uint64_t left;		/* bytes of the file after end */
};

static void rd_done(struct rd *r)
{
	if (r->fd >= 0)
		free(r->buf);
}

/* Bytes not yet consumed. */
static uint64_t rd_remaining(const struct rd *r)
{
	return (uint64_t)(r->end - r->p) + r->left;
}

/* At least n bytes at r->p (which may move); -EINVAL if the file ends
 * first. */
static int rd_need(struct rd *r, size_t n)
{
	size_t have = r->end - r->p;

	if (have >= n)
		return 0;
	if (r->fd < 0 || n - have > r->left)
		return -EINVAL;
	if (n > r->cap) {
		size_t cap = n > 2 * r->cap ? n : 2 * r->cap;
		uint8_t *nb = malloc(cap);

		if (!nb)
			return -ENOMEM;
		memcpy(nb, r->p, have);
		free(r->buf);
		r->buf = nb;
		r->cap = cap;
	} else {
		memmove(r->buf, r->p, have);
	}
	r->p = r->buf;
	r->end = r->buf + have;
	while (have < n) {
		size_t want = r->cap - have;
		ssize_t k;

		if (want > r->left)
			want = r->left;
		k = read(r->fd, r->buf + have, want);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			return -EINVAL; /* the file shrank under us */
		have += k;
		r->left -= k;
		r->end = r->buf + have;
	}
	return 0;
}

static int rd_u32(struct rd *r, uint32_t *v)
{
	int e = rd_need(r, 4);

	if (e < 0)
		return e;
	memcpy(v, r->p, 4);
	r->p += 4;
	return 0;
}

static int rd_skip(struct rd *r, uint64_t n)
{
	size_t have = r->end - r->p;

	if (n <= have) {
		r->p += n;
		return 0;
	}
	if (n > rd_remaining(r))
		return -EINVAL;
	n -= have;
	r->p = r->end;
	if (lseek(r->fd, n, SEEK_CUR) < 0)
		return -errno;
	r->left -= n;
	return 0;
}

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * A version the build's release does not read: 0 if it does; otherwise
 * the error, after the release's message.
 */
static int version_refused(const struct fc_load *l, uint32_t magic,
			   uint32_t version)
{
	if (rel_bin_version() == FC_BIN6_VERSION && magic == FC_BIN_MAGIC &&
	    version < FC_BIN6_VERSION) {
		/*
		 * 3.8.1 and 3.11 read version 6 only: an older file (Debian
		 * 12's v5) is an ordinary failure to load, with this
		 * message (SELINUX_INFO, measured with a log callback): the
		 * text file is read instead, or, without one, the .bin is
		 * tried again (the message twice) and the open fails with
		 * EINVAL.
		 */
		core_log(SELINUX_INFO,
			 "%s:  Old compiled fcontext format, skipping\n",
			 l->path);
		return -EINVAL;
	}
	if (magic != FC_BIN_MAGIC || version < 2 || version > FC_BIN_VERSION) {
		/*
		 * Debian 12's library skips a compiled file of a version it
		 * does not know without a word, and reads the text file
		 * (without one, the open fails with ENOENT).  We say why
		 * once: the caller does not try this file again.
		 */
		if (magic != FC_BIN_MAGIC)
			version = be32toh(version);
		core_log(SELINUX_WARNING,
			 "%s: compiled file contexts version %u is not "
			 "supported (versions 2 to 6 are), ignored\n",
			 l->path, version);
		return -FC_EVERSION;
	}
	return 0;
}

/* After the magic and version: the PCRE2 version and arch strings
 * (informational for us) and the stems (checked, skipped): 0 and
 * *nstems, or -errno (the file is invalid, or a read failed). */
static int read_head(struct rd *r, uint32_t version, uint32_t *nstems)
{
	uint32_t n;
	int e;

	if ((e = rd_u32(r, &n)) < 0 || (e = rd_skip(r, n)) < 0)
		return e;
	if (version >= 5 &&
	    ((e = rd_u32(r, &n)) < 0 || (e = rd_skip(r, n)) < 0))
		return e;
	if ((e = rd_u32(r, nstems)) < 0)
		return e;
	for (uint32_t i = 0; i < *nstems; i++) {
		if ((e = rd_u32(r, &n)) < 0)
			return e;
		if (n == UINT32_MAX || (e = rd_need(r, (size_t)n + 1)) < 0 ||
		    r->p[n])
			return e < 0 ? e : -EINVAL;
		r->p += (size_t)n + 1;
	}
	return 0;
}

/*
 * Spec i (from 0): ctx len, ctx, regex len, regex, mode, stem, meta[,
 * prefix], regex blob len, blob - read as one piece (the buffer may
 * move at each rd_need, so pointers are taken at the end), the blob
 * skipped.  fc_add_spec's answer (FC_STOP too), or, with *bad set, the
 * error of an invalid file or a failed read.
 */
static int read_spec(struct fc_load *l, struct rd *r, uint32_t version,
		     uint32_t nstems, uint32_t i, bool *bad)
{
	const char *ctx, *regex;
	size_t clen, rlen, off, hdr;
	uint32_t mode, stem, blob;
	int e;

	*bad = true;
	if ((e = rd_need(r, 4)) < 0)
		return e;
	clen = u32_at(r->p);
	if (!clen || (e = rd_need(r, 8 + clen)) < 0 || r->p[4 + clen - 1])
		return e < 0 ? e : -EINVAL;
	off = 8 + clen;
	rlen = u32_at(r->p + 4 + clen);
	hdr = off + rlen + 12 + (version >= 4 ? 4 : 0) + 4;
	if (!rlen || (e = rd_need(r, hdr)) < 0 || r->p[off + rlen - 1])
		return e < 0 ? e : -EINVAL;
	ctx = (const char *)r->p + 4;
	regex = (const char *)r->p + off;
	off += rlen;
	mode = u32_at(r->p + off);
	stem = u32_at(r->p + off + 4);
	/* meta and prefix_len: we compute our own. */
	blob = u32_at(r->p + hdr - 4);
	/* The regex blob must fit before the spec counts. */
	if ((int32_t)stem < -1 || ((int32_t)stem >= 0 && stem >= nstems) ||
	    blob > rd_remaining(r) - hdr)
		return -EINVAL;
	clen = strlen(ctx);
	rlen = strlen(regex);
	/* A spec's line number in a .bin is its position.  The strings are
	 * copied before the buffer moves on. */
	e = fc_add_spec(l, regex, rlen, mode, ctx, clen, i + 1);
	r->p += hdr;
	if (e < 0 || e == FC_STOP) {
		*bad = false;
		return e;
	}
	return rd_skip(r, blob);
}

/* The specs of a version 2 to 5 file after its magic and version: 0 or
 * -errno; *bad: the file is invalid (or a read failed). */
static int read_v5(struct fc_load *l, struct rd *r, uint32_t version, bool *bad)
{
	uint32_t nstems, nspecs;
	int e;

	*bad = true;
	if ((e = read_head(r, version, &nstems)) < 0 ||
	    (e = rd_u32(r, &nspecs)) < 0)
		return e;
	/* Debian 12's library treats a compiled file without specs as one
	 * that failed to load: the text file is used instead, and without
	 * one the open fails with ENOENT (no message). */
	if (!nspecs) {
		*bad = false;
		return -ENOENT;
	}
	/* Each spec takes at least 26 bytes: refuse absurd counts early. */
	if (nspecs > rd_remaining(r) / 26)
		return -EINVAL;
	/* Strings: refpolicy needs ~40 bytes a spec (contexts shared). */
	if (fc_prepare(l->d, nspecs, (size_t)nspecs * 40) < 0) {
		*bad = false;
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < nspecs; i++) {
		e = read_spec(l, r, version, nstems, i, bad);
		if (e == FC_STOP)
			return 0;
		if (e < 0)
			return e;
	}
	*bad = true;
	return rd_remaining(r) ? -EINVAL : 0;
}

int fc_parse_bin(struct fc_load *l, int fd, const uint8_t *buf, size_t len)
{
	struct rd r = {.fd = fd, .cap = RD_BUF};
	uint32_t magic, version;
	bool bad = true;
	int e;

	if (fd >= 0) {
		r.buf = malloc(r.cap);
		if (!r.buf)
			return -ENOMEM;
		r.p = r.end = r.buf;
		r.left = len;
	} else {
		r.p = buf;
		r.end = buf + len;
	}
	if ((e = rd_need(&r, 8)) >= 0) {
		magic = u32_at(r.p);
		version = u32_at(r.p + 4);
		r.p += 8;
		/* Version 6 is big-endian on every machine (bin6.c). */
		if (be32toh(magic) == FC_BIN_MAGIC &&
		    be32toh(version) == FC_BIN6_VERSION) {
			rd_done(&r);
			return fc_parse_bin6(l, fd, buf, len);
		}
		if (magic != FC_BIN_MAGIC && be32toh(magic) != FC_BIN_MAGIC)
			e = -EINVAL;
		else if ((e = version_refused(l, magic, version)) < 0)
			bad = false;
		else
			e = read_v5(l, &r, version, &bad);
	}
	rd_done(&r);
	if (e >= 0 || !bad || e == -ENOMEM)
		return e < 0 ? e : 0;
	core_log(SELINUX_ERROR, "%s: invalid compiled file contexts\n",
		 l->path);
	return -EINVAL;
}

int fc_write_all(int fd, const void *p, size_t n)
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
	return fc_write_all(fd, &v, 4);
}

/* len (with NUL) + the string and its NUL. */
static int wr_str(int fd, const char *s)
{
	size_t n = strlen(s) + 1;
	int e = wr_u32(fd, n);

	return e < 0 ? e : fc_write_all(fd, s, n);
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
		uint32_t j, stem = d->ix[i].stem_len;

		stem_id[i] = UINT32_MAX;
		if (!stem)
			continue;
		for (j = 0; j < nstems; j++) {
			if (d->ix[stems[j]].stem_len == stem &&
			    !memcmp(d->spec[stems[j]].regex, d->spec[i].regex,
				    stem))
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
	    (e = wr_u32(fd, strlen(ver))) < 0 ||
	    (e = fc_write_all(fd, ver, strlen(ver))) < 0 ||
	    (e = wr_u32(fd, strlen(arch))) < 0 ||
	    (e = fc_write_all(fd, arch, strlen(arch))) < 0 ||
	    (e = wr_u32(fd, nstems)) < 0)
		return e;
	for (uint32_t j = 0; j < nstems; j++) {
		struct fc_spec *o = &d->spec[stems[j]];
		uint32_t stem = d->ix[stems[j]].stem_len;

		if ((e = wr_u32(fd, stem)) < 0 ||
		    (e = fc_write_all(fd, o->regex, stem)) < 0 ||
		    (e = fc_write_all(fd, "", 1)) < 0)
			return e;
	}
	if ((e = wr_u32(fd, d->nspec)) < 0)
		return e;
	for (uint32_t i = 0; i < d->nspec; i++) {
		struct fc_spec *s = &d->spec[i];
		uint8_t *blob = NULL;
		PCRE2_SIZE blen = 0;

		if ((e = wr_str(fd, s->ctx)) < 0 ||
		    (e = wr_str(fd, s->regex)) < 0 ||
		    (e = wr_u32(fd, s->mode)) < 0 ||
		    (e = wr_u32(fd, stem_id[i])) < 0 ||
		    (e = wr_u32(fd, s->meta)) < 0 ||
		    (e = wr_u32(fd, d->ix[i].prefix_len)) < 0)
			return e;
		if (!no_regex) {
			int err;
			size_t off;
			pcre2_code *c = fc_compile(s->regex, &err, &off);
			const pcre2_code *list[1] = {c};

			if (!c)
				return -EINVAL;
			if (pcre2_serialize_encode(list, 1, &blob, &blen,
						   NULL) < 0) {
				pcre2_code_free(c);
				return -ENOMEM;
			}
			pcre2_code_free(c);
		}
		e = wr_u32(fd, blen);
		if (e == 0 && blen)
			e = fc_write_all(fd, blob, blen);
		if (blob)
			pcre2_serialize_free(blob);
		if (e < 0)
			return e;
	}
	return 0;
}
