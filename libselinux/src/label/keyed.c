/* label/label_keyed.c: the media, x and db backends (key -> context). */
#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/*
 * media:            "key context"        exact key ("*" matches any)
 * x_contexts:       "type key context"   key is an fnmatch(3) pattern
 * sepgsql_contexts: "type key context"   key is an fnmatch(3) pattern
 * The first line that matches wins; its context is returned as written
 * ("<<none>>" included: only file_contexts gives it a meaning).
 *
 * The line grammar is Debian 12's library's (tests/compat/label/keyed.py
 * compares them): fields are separated by isspace() characters (CR, VT
 * and FF too); a NUL ends the line; '#' starts a comment.  A bad line is
 * skipped with a warning, never an error:
 *  - media, x: fewer fields than needed: "line N is missing fields,
 *    skipping"; more are ignored.  These two read the file twice (count,
 *    then fill), and warn again, on the second pass, for the bad lines
 *    before the last good one (none when there is no good line);
 *  - db: anything but three fields: "line N has invalid format, skipped"
 *    (without a newline, as Debian's);
 *  - x, db: an unknown object type: "line N has invalid object type T".
 * With SELABEL_OPT_VALIDATE a context is checked when a lookup first
 * returns it: an invalid one fails that lookup (EINVAL, "has invalid
 * context"), every time.
 */
struct keyed_spec {
	int type;
	char *key, *ctx;
	unsigned int lineno;
	bool validated; /* guarded by keyed.lock */
};

struct keyed {
	struct keyed_spec *v;
	size_t n, cap;
	bool glob;
	pthread_mutex_t lock; /* the validation of a spec's context */
};

struct type_name {
	const char *name;
	int type;
};

static const struct type_name x_types[] = {
    {"property", SELABEL_X_PROP},
    {"extension", SELABEL_X_EXT},
    {"client", SELABEL_X_CLIENT},
    {"event", SELABEL_X_EVENT},
    {"selection", SELABEL_X_SELN},
    {"poly_property", SELABEL_X_POLYPROP},
    {"poly_selection", SELABEL_X_POLYSELN},
    {NULL, 0},
};

static const struct type_name db_types[] = {
    {"db_database", SELABEL_DB_DATABASE},
    {"db_schema", SELABEL_DB_SCHEMA},
    {"db_table", SELABEL_DB_TABLE},
    {"db_column", SELABEL_DB_COLUMN},
    {"db_sequence", SELABEL_DB_SEQUENCE},
    {"db_view", SELABEL_DB_VIEW},
    {"db_procedure", SELABEL_DB_PROCEDURE},
    {"db_blob", SELABEL_DB_BLOB},
    {"db_tuple", SELABEL_DB_TUPLE},
    {"db_language", SELABEL_DB_LANGUAGE},
    {"db_exception", SELABEL_DB_EXCEPTION},
    {"db_datatype", SELABEL_DB_DATATYPE},
    {NULL, 0},
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
	pthread_mutex_destroy(&k->lock);
	free(k);
	h->data = NULL;
}

/* Validate spec s's context once it is valid; -EINVAL each time not. */
static int keyed_validate(struct selabel_handle *h, struct keyed *k,
			  struct keyed_spec *s)
{
	_cleanup_free_ char *c = NULL;
	int r = 0;

	pthread_mutex_lock(&k->lock);
	if (s->validated)
		goto out;
	c = strdup(s->ctx);
	if (!c) {
		r = -ENOMEM;
		goto out;
	}
	if (lbl_validate(&c, h->spec_file, 0) < 0) {
		core_log(SELINUX_WARNING, "%s: has invalid context %s\n",
			 h->spec_file, s->ctx);
		r = -EINVAL;
		goto out;
	}
	free(s->ctx);
	s->ctx = TAKE_PTR(c);
	s->validated = true;
out:
	pthread_mutex_unlock(&k->lock);
	return r;
}

static int keyed_lookup(struct selabel_handle *h, const char *key, int type,
			struct lbl_result *res)
{
	struct keyed *k = h->data;

	for (size_t i = 0; i < k->n; i++) {
		struct keyed_spec *s = &k->v[i];
		int r;

		if (k->glob ? (s->type != type || fnmatch(s->key, key, 0))
			    : (strcmp(s->key, key) && strcmp(s->key, "*")))
			continue;
		if (h->validating && (r = keyed_validate(h, k, s)) < 0)
			return r;
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

/* Up to max fields of the NUL-terminated line, split on isspace() in
 * place; the number found, counting every field (past max too). */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		while (ascii_isspace((unsigned char)*p))
			p++;
		if (!*p)
			return n;
		if (n < max)
			f[n] = p;
		n++;
		while (*p && !ascii_isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int type_of(const struct type_name *types, const char *name)
{
	for (size_t i = 0; types[i].name; i++)
		if (!strcmp(types[i].name, name))
			return types[i].type;
	return -1;
}

static int add_spec(struct keyed *k, int type, const char *key, const char *ctx,
		    unsigned int lineno)
{
	struct keyed_spec *s;

	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 16;
		struct keyed_spec *nv = realloc(k->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		k->v = nv;
		k->cap = cap;
	}
	s = &k->v[k->n];
	memset(s, 0, sizeof(*s));
	s->key = strdup(key);
	s->ctx = strdup(ctx);
	if (!s->key || !s->ctx) {
		free(s->key);
		free(s->ctx);
		return -ENOMEM;
	}
	s->type = type;
	s->lineno = lineno;
	k->n++;
	return 0;
}

/*
 * What Debian's two passes over a media or x file say, replayed: the
 * first warns about the lines with too few fields and counts the others
 * (N).  Unless N is 0, the second goes through the lines again, warning
 * about those short of fields and, only now, about unknown object types,
 * and stops once it has filled N specs: after the last good line when
 * every counted line was good, at the end of the file otherwise.
 */
struct line_note {
	bool counted; /* had enough fields */
	char *msg;    /* the warning, or NULL for a good line */
};

struct notes {
	struct line_note *v;
	size_t n, cap;
};

static void replay(const struct notes *ns)
{
	const struct line_note *notes = ns->v;
	size_t counted = 0, good = 0, n = ns->n;

	for (size_t i = 0; i < n; i++) {
		if (!notes[i].counted)
			core_log(SELINUX_WARNING, "%s", notes[i].msg);
		counted += notes[i].counted;
	}
	for (size_t i = 0; counted && i < n && good < counted; i++) {
		if (notes[i].msg)
			core_log(SELINUX_WARNING, "%s", notes[i].msg);
		else
			good++;
	}
}

/* A line's note (taking msg): 0 or -ENOMEM (msg freed). */
static int note_add(struct notes *ns, bool counted, char *msg)
{
	if (ns->n == ns->cap) {
		size_t nc = ns->cap ? 2 * ns->cap : 16;
		struct line_note *nn = realloc(ns->v, nc * sizeof(*nn));

		if (!nn) {
			free(msg);
			return -ENOMEM;
		}
		ns->v = nn;
		ns->cap = nc;
	}
	ns->v[ns->n].counted = counted;
	ns->v[ns->n++].msg = msg;
	return 0;
}

static void notes_free(struct notes *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i].msg);
	free(ns->v);
}

/*
 * What is wrong with line lineno of path, split into nf fields f[] (a
 * db file: not 3 of them; a media or x file: too few, or, with types, an
 * unknown object type, then *type its number): 0 and *msg the warning,
 * or NULL for a good line; or -ENOMEM.
 */
static int line_msg(const char *path, unsigned int lineno, char **f, size_t nf,
		    const struct type_name *types, bool db, int *type,
		    char **msg)
{
	size_t want = types ? 3 : 2;
	int m = 0;

	*msg = NULL;
	*type = 0;
	if (db && nf != 3)
		m = asprintf(msg, "%s:  line %u has invalid format, skipped",
			     path, lineno);
	else if (nf < want)
		m = asprintf(msg, "%s:  line %u is missing fields, skipping\n",
			     path, lineno);
	else if (types && (*type = type_of(types, f[0])) < 0)
		m = asprintf(msg, "%s:  line %u has invalid object type %s\n",
			     path, lineno, f[0]);
	if (m < 0) {
		*msg = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The specs of the file path read into buf (len bytes), into k: 0 or
 * -errno; the warnings, as the reference says them (replay). */
static int read_lines(struct keyed *k, const char *path, char *buf, size_t len,
		      const struct type_name *types, bool db)
{
	struct notes notes = {0};
	unsigned int lineno = 0;
	char *p, *end;
	int r = 0;

	for (p = buf, end = buf + len; p < end && r >= 0;) {
		char *nl = memchr(p, '\n', end - p), *line = p, *f[3];
		size_t nf, want = types ? 3 : 2;
		char *msg;
		bool bad;
		int type;

		/* A NUL ends the line (Debian reads it as a C string). */
		if (nl)
			*nl = '\0';
		p = nl ? nl + 1 : end;
		lineno++;
		while (ascii_isspace((unsigned char)*line))
			line++;
		if (!*line || *line == '#')
			continue;
		nf = split(line, f, 3);
		r = line_msg(path, lineno, f, nf, types, db, &type, &msg);
		if (r < 0)
			break;
		bad = msg != NULL;
		if (db) {
			/* One pass: each warning once, in order. */
			if (msg)
				core_log(SELINUX_WARNING, "%s", msg);
			free(msg);
		} else {
			r = note_add(&notes, nf >= want, msg);
			if (r < 0)
				break;
		}
		if (bad)
			continue;
		/*
		 * analyzer: false positive (clang CallAndMessage): here nf >=
		 * want, so f[0] to f[want - 1] were set by split(); a short
		 * line got msg from asprintf(), which clang does not model, and
		 * was skipped above.
		 */
		r = types ? add_spec(k, type, f[1], f[2], lineno)
			  : add_spec(k, 0, f[0], f[1], lineno);
	}
	if (r >= 0)
		replay(&notes);
	notes_free(&notes);
	return r;
}

static int keyed_open(struct selabel_handle *h, const struct selinux_opt *opts,
		      unsigned int n, const char *dflt,
		      const struct type_name *types, bool db)
{
	const char *path = lbl_opt_value(opts, n, SELABEL_OPT_PATH);
	_cleanup_free_ char *buf = NULL;
	struct keyed *k;
	struct stat st;
	size_t len;
	int r;

	if (!path)
		path = dflt;
	if (!path)
		return -ENOENT;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	pthread_mutex_init(&k->lock, NULL);
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
	return read_lines(k, path, buf, len, types, db);
}

int lbl_media_open(struct selabel_handle *h, const struct selinux_opt *opts,
		   unsigned int n)
{
	return keyed_open(h, opts, n, selinux_media_context_path(), NULL,
			  false);
}

int lbl_x_open(struct selabel_handle *h, const struct selinux_opt *opts,
	       unsigned int n)
{
	return keyed_open(h, opts, n, selinux_x_context_path(), x_types, false);
}

int lbl_db_open(struct selabel_handle *h, const struct selinux_opt *opts,
		unsigned int n)
{
	return keyed_open(h, opts, n, selinux_sepgsql_context_path(), db_types,
			  true);
}
