/* utils/explain.c: printing a selabel_lookup_explain() answer (-x). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dlvsym */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "explain.h"

typedef int (*explain_fn)(struct selabel_handle *,
			  struct selabel_explanation **, const char *, int);
typedef void (*free_fn)(struct selabel_explanation *);

static void *ours(const char *name)
{
	return dlvsym(RTLD_DEFAULT, name, "SELINUX_EXPLAIN_1.0");
}

int util_explain(struct selabel_handle *h, struct selabel_explanation **e,
		 const char *key, int type)
{
	explain_fn fn = (explain_fn)ours("selabel_lookup_explain");

	if (!fn) {
		errno = ENOSYS;
		return -1;
	}
	return fn(h, e, key, type);
}

int util_can_explain(void)
{
	return ours("selabel_lookup_explain") != NULL;
}

void util_explanation_free(struct selabel_explanation *e)
{
	free_fn fn = (free_fn)ours("selabel_explanation_free");

	if (fn)
		fn(e);
}

/* The file type of a spec's type field, in words. */
static const char *type_words(const char *t)
{
	static const struct {
		const char *field, *words;
	} names[] = {
		{ "--", "regular files" }, { "-d", "directories" },
		{ "-l", "symbolic links" }, { "-p", "named pipes" },
		{ "-s", "sockets" },	    { "-c", "character devices" },
		{ "-b", "block devices" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(t, names[i].field))
			return names[i].words;
	return "any file type";
}

static const char *mode_words(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFLNK:
		return "a symbolic link";
	case S_IFIFO:
		return "a named pipe";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	}
	return "any file type";
}

/* "REGEX  [TYPE]  CONTEXT  (FILE:LINE)": the text file's line when the
 * spec came from a compiled file and its text has it, else the compiled
 * file and the spec's position in it ("spec N"). */
static void spec(FILE *out, const struct selabel_spec_origin *s)
{
	fprintf(out, "%s", s->regex);
	if (*s->type)
		fprintf(out, "  %s", s->type);
	if (s->source)
		fprintf(out, "  %s  (%s:%u)", s->context, s->source,
			s->source_line);
	else if (strlen(s->file) > 4 &&
		 !strcmp(s->file + strlen(s->file) - 4, ".bin"))
		fprintf(out, "  %s  (%s, spec %u)", s->context, s->file,
			s->line);
	else
		fprintf(out, "  %s  (%s:%u)", s->context, s->file, s->line);
}

static void subs(FILE *out, const char *what,
		 const struct selabel_subs_origin *s)
{
	if (s)
		fprintf(out, "    %s alias: %s is labelled as %s (%s)\n", what,
			s->alias, s->original, s->file);
}

void util_explain_print(FILE *out, const struct selabel_explanation *e)
{
	const struct selabel_spec_origin *w = e->winner;

	fprintf(out, "%s\t%s\n", e->key,
		e->error || !w ? "<<none>>" : w->context);
	subs(out, ".subs", e->subs);
	subs(out, ".subs_dist", e->subs_dist);
	if (strcmp(e->key, e->lookup_key))
		fprintf(out, "    matched as %s\n", e->lookup_key);
	fprintf(out, "    asked for %s\n", mode_words(e->type));
	if (e->blocked) {
		fprintf(out, "    no context: the lookup stops at a spec whose "
			     "regular expression cannot be used:\n        ");
		spec(out, e->blocked);
		fputc('\n', out);
	} else if (!w) {
		fprintf(out, "    no context: no spec matches\n");
	} else {
		fprintf(out, "    labelled by ");
		spec(out, w);
		fputc('\n', out);
		fprintf(out, "    the spec applies to %s%s\n",
			type_words(w->type),
			w->literal ? "; it names this one path" : "");
		if (!strcmp(w->context, "<<none>>"))
			fprintf(out, "    <<none>>: files here are not to be "
				     "labelled\n");
	}
	if (e->n_overridden && w)
		fprintf(out, "    overrides %zu other matching spec%s:\n",
			e->n_overridden, e->n_overridden == 1 ? "" : "s");
	else if (e->n_overridden)
		fprintf(out, "    matching specs below it:\n");
	for (size_t i = 0; i < e->n_overridden; i++) {
		const struct selabel_spec_origin *o = &e->overridden[i];
		const struct selabel_spec_origin *by = w ? w : e->blocked;

		fprintf(out, "        ");
		spec(out, o);
		if (!w)
			fputc('\n', out);
		else if (by->literal && !o->literal)
			fprintf(out, ": a literal path beats a regular "
				     "expression\n");
		else
			fprintf(out, ": read before it (the last matching "
				     "spec wins)\n");
	}
	if (e->n_other_types)
		fprintf(out, "    matching specs for other file types:\n");
	for (size_t i = 0; i < e->n_other_types; i++) {
		fprintf(out, "        ");
		spec(out, &e->other_types[i]);
		fprintf(out, ": %s only\n", type_words(e->other_types[i].type));
	}
}
