/* label/label_keyed.c: the media, x and db backends (key -> context). */
#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/*
 * media:            "key context"        exact key ("*" matches any)
 * x_contexts:       "type key context"   key is an fnmatch(3) pattern
 * sepgsql_contexts: "type key context"   key is an fnmatch(3) pattern
 * The first line that matches wins; comments start with '#'.
 */
struct keyed_spec {
	int type;
	char *key, *ctx;
	unsigned int lineno;
};

struct keyed {
	struct keyed_spec *v;
	size_t n;
	bool glob;
};

struct type_name {
	const char *name;
	int type;
};

static const struct type_name x_types[] = {
	{ "property", SELABEL_X_PROP },
	{ "extension", SELABEL_X_EXT },
	{ "client", SELABEL_X_CLIENT },
	{ "event", SELABEL_X_EVENT },
	{ "selection", SELABEL_X_SELN },
	{ "poly_property", SELABEL_X_POLYPROP },
	{ "poly_selection", SELABEL_X_POLYSELN },
	{ NULL, 0 },
};

static const struct type_name db_types[] = {
	{ "db_database", SELABEL_DB_DATABASE },
	{ "db_schema", SELABEL_DB_SCHEMA },
	{ "db_table", SELABEL_DB_TABLE },
	{ "db_column", SELABEL_DB_COLUMN },
	{ "db_sequence", SELABEL_DB_SEQUENCE },
	{ "db_view", SELABEL_DB_VIEW },
	{ "db_procedure", SELABEL_DB_PROCEDURE },
	{ "db_blob", SELABEL_DB_BLOB },
	{ "db_tuple", SELABEL_DB_TUPLE },
	{ "db_language", SELABEL_DB_LANGUAGE },
	{ "db_exception", SELABEL_DB_EXCEPTION },
	{ "db_datatype", SELABEL_DB_DATATYPE },
	{ NULL, 0 },
};

static void keyed_close(struct selabel_handle *h)
{
	struct keyed *k = h->data;

	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].key);
		free(k->v[i].ctx);
	}
	free(k->v);
	free(k);
	h->data = NULL;
}

static int keyed_lookup(struct selabel_handle *h, const char *key, int type,
			struct lbl_result *res)
{
	struct keyed *k = h->data;

	for (size_t i = 0; i < k->n; i++) {
		struct keyed_spec *s = &k->v[i];

		if (k->glob ? (s->type != type || fnmatch(s->key, key, 0)) :
			      (strcmp(s->key, key) && strcmp(s->key, "*")))
			continue;
		if (!strcmp(s->ctx, "<<none>>"))
			return -ENOENT;
		res->ctx_raw = s->ctx;
		res->lineno = s->lineno;
		res->file = h->spec_file;
		return 0;
	}
	return -ENOENT;
}

static void keyed_stats(struct selabel_handle *h _unused_)
{
}

static const struct lbl_ops keyed_ops = {
	.lookup = keyed_lookup,
	.stats = keyed_stats,
	.close = keyed_close,
};

/* The next whitespace-separated word of *p, NUL-terminated in place. */
static char *word(char **p)
{
	char *s = *p, *e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (!*s)
		return NULL;
	for (e = s; *e && *e != ' ' && *e != '\t' && *e != '\r'; e++)
		;
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

static int keyed_open(struct selabel_handle *h, const struct selinux_opt *opts,
		      unsigned int n, const char *dflt,
		      const struct type_name *types)
{
	const char *path = lbl_opt_value(opts, n, SELABEL_OPT_PATH);
	_cleanup_free_ char *buf = NULL;
	struct keyed *k;
	struct stat st;
	unsigned int lineno = 0;
	size_t len;
	char *p, *end;
	int r;

	if (!path)
		path = dflt;
	if (!path)
		return -ENOENT;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	h->data = k;
	h->ops = &keyed_ops;
	k->glob = types != NULL;
	h->spec_file = strdup(path);
	if (!h->spec_file)
		return -ENOMEM;
	r = lbl_read_file(path, &buf, &len, &st);
	if (r < 0)
		return r;
	if (h->digest && (r = lbl_digest_add(h->digest, path, buf, len)) < 0)
		return r;
	for (p = buf, end = buf + len; p < end;) {
		char *nl = memchr(p, '\n', end - p), *line = p, *t = NULL;
		char *key, *ctx;
		struct keyed_spec *nv;
		int type = 0;

		if (nl)
			*nl = '\0';
		p = nl ? nl + 1 : end;
		lineno++;
		while (*line == ' ' || *line == '\t' || *line == '\r')
			line++;
		if (!*line || *line == '#')
			continue;
		if (types) {
			size_t i;

			t = word(&line);
			for (i = 0; types[i].name; i++)
				if (!strcmp(types[i].name, t))
					break;
			if (!types[i].name) {
				core_log(SELINUX_ERROR,
					 "%s:  line %u has invalid object type %s\n",
					 path, lineno, t);
				return -EINVAL;
			}
			type = types[i].type;
		}
		key = word(&line);
		ctx = key ? word(&line) : NULL;
		if (!ctx) {
			core_log(SELINUX_ERROR, "%s:  line %u is missing fields\n",
				 path, lineno);
			return -EINVAL;
		}
		if (h->validating && strcmp(ctx, "<<none>>")) {
			_cleanup_free_ char *c = strdup(ctx);

			if (!c)
				return -ENOMEM;
			if (lbl_validate(&c, path, lineno) < 0) {
				core_log(SELINUX_ERROR,
					 "%s: line %u has invalid context %s\n",
					 path, lineno, ctx);
				return -EINVAL;
			}
		}
		nv = realloc(k->v, (k->n + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		k->v = nv;
		nv[k->n].type = type;
		nv[k->n].lineno = lineno;
		nv[k->n].key = strdup(key);
		nv[k->n].ctx = strdup(ctx);
		k->n++;
		if (!nv[k->n - 1].key || !nv[k->n - 1].ctx)
			return -ENOMEM;
	}
	return 0;
}

int lbl_media_open(struct selabel_handle *h, const struct selinux_opt *opts,
		   unsigned int n)
{
	return keyed_open(h, opts, n, selinux_media_context_path(), NULL);
}

int lbl_x_open(struct selabel_handle *h, const struct selinux_opt *opts,
	       unsigned int n)
{
	return keyed_open(h, opts, n, selinux_x_context_path(), x_types);
}

int lbl_db_open(struct selabel_handle *h, const struct selinux_opt *opts,
		unsigned int n)
{
	return keyed_open(h, opts, n, selinux_sepgsql_context_path(), db_types);
}
