/* label/fc_subs.c: file_contexts.subs and .subs_dist path aliases. */
#include <string.h>
#include <sys/stat.h>

#include "fc.h"

/*
 * Each line "alias original" says that paths under alias are labelled as
 * the same path under original.  The reference checks the lines from the
 * last to the first and applies the first whose alias is the key or a
 * directory prefix of it; we keep them in that order.
 */
int fc_subs_load(struct selabel_handle *h, const char *path,
		 struct fc_sub **subs, size_t *n)
{
	_cleanup_free_ char *buf = NULL;
	struct fc_sub *v = NULL;
	size_t len, nv = 0;
	struct stat st;
	char *p, *end;
	int r;

	*subs = NULL;
	*n = 0;
	r = lbl_read_file(path, &buf, &len, &st);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (h->digest && (r = lbl_digest_add(h->digest, path, buf, len)) < 0)
		return r;
	for (p = buf, end = buf + len; p < end;) {
		char *nl = memchr(p, '\n', end - p), *eol = nl ? nl : end;
		char *s, *se, *dd, *de;
		struct fc_sub *nvp;

		*eol = '\0';
		s = p;
		p = nl ? nl + 1 : end;
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s || *s == '#')
			continue;
		for (se = s; *se && *se != ' ' && *se != '\t' && *se != '\r';
		     se++)
			;
		for (dd = se; *dd == ' ' || *dd == '\t' || *dd == '\r'; dd++)
			;
		if (!*dd)
			continue;
		for (de = dd; *de && *de != ' ' && *de != '\t' && *de != '\r';
		     de++)
			;
		nvp = realloc(v, (nv + 1) * sizeof(*v));
		if (!nvp)
			goto nomem;
		v = nvp;
		/*
		 * analyzer: false positive (gcc malloc-leak): both strings
		 * belong to v, freed by fc_subs_free() on error and with the
		 * handle otherwise; GCC 12 loses stores through an index.
		 */
		v[nv].src = strndup(s, se - s);
		v[nv].dst = strndup(dd, de - dd);
		v[nv].slen = se - s;
		nv++;
		if (!v[nv - 1].src || !v[nv - 1].dst)
			goto nomem;
	}
	/* Last line first. */
	for (size_t i = 0; i < nv / 2; i++) {
		struct fc_sub t = v[i];

		v[i] = v[nv - 1 - i];
		v[nv - 1 - i] = t;
	}
	*subs = v;
	*n = nv;
	return 0;
nomem:
	fc_subs_free(v, nv);
	return -ENOMEM;
}

int fc_subs_apply(const struct fc_sub *subs, size_t n, const char *key,
		  size_t keylen, char **out, int *rule)
{
	*out = NULL;
	if (rule)
		*rule = -1;
	for (size_t i = 0; i < n; i++) {
		const struct fc_sub *s = &subs[i];
		const char *rest;

		if (s->slen > keylen || !s->slen ||
		    key[s->slen - 1] != s->src[s->slen - 1] ||
		    memcmp(key, s->src, s->slen) ||
		    (key[s->slen] != '/' && key[s->slen] != '\0'))
			continue;
		rest = key + s->slen;
		/* Aliasing to "/" must not double the slash. */
		if (*rest == '/' && !strcmp(s->dst, "/"))
			rest++;
		if (asprintf(out, "%s%s", s->dst, rest) < 0) {
			*out = NULL;
			return -ENOMEM;
		}
		if (rule)
			*rule = (int)i;
		return 0;
	}
	return 0;
}

void fc_subs_free(struct fc_sub *subs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(subs[i].src);
		free(subs[i].dst);
	}
	free(subs);
}
