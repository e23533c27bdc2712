/*
 * selinux/label_explain.h: which file_contexts spec labelled a path, and why.
 *
 * An extension of this library, not in the established libselinux.
 * selabel_lookup() answers with a context only; an administrator who
 * expected another one (a mode-0 lookup that gives etc_t where
 * httpd_config_t was meant) has to find by hand which of thousands of
 * specs won.  selabel_lookup_explain() answers that: the spec that won
 * (its regular expression, file type and context as written, the file
 * and line it came from), the .subs or .subs_dist alias that rewrote the
 * path first, the specs that also matched and lost to it, and those that
 * would have matched a file of another type.  matchpathcon -x and
 * selabel_lookup -x print it.
 *
 * The rule it explains is the established library's: among the specs
 * whose regular expression matches the whole path and whose file type
 * fits, a spec without regular expression characters (a literal path)
 * beats every regular expression; otherwise, and among literals, the spec
 * read last wins (file_contexts, then file_contexts.homedirs, then
 * file_contexts.local, each in line order).  A spec whose regular
 * expression cannot be used (PCRE2 rejects it, or gives up matching it)
 * ends the search where it stands: if no spec ranked above it matched,
 * the lookup fails with ENOENT, as selabel_lookup() does.
 *
 * The explanation is computed by trying every spec on its own, apart from
 * the indexes selabel_lookup() uses, so it costs a few milliseconds on a
 * full policy (each spec's regex is compiled on first use): it is meant for
 * people and tools asking about one path, not for labelling trees.  Its
 * winner is always the spec whose context selabel_lookup() returns (the
 * suite checks this on every path of its corpora).
 *
 * The symbols are in the version node SELINUX_EXPLAIN_1.0 (not a
 * LIBSELINUX_* node): a program using them needs this libselinux.so.1,
 * and the dynamic linker says so at load time if another is found.
 */
#ifndef SELINUX_LABEL_EXPLAIN_H
#define SELINUX_LABEL_EXPLAIN_H

#include <stddef.h>

#include <selinux/label.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One spec of a file_contexts file, as an explanation names it.  The
 * strings belong to the explanation and are freed with it.
 *  regex    the path regular expression as written;
 *  type     the file type field as written ("--", "-d", "-l", "-p",
 *           "-s", "-c", "-b"), or "" when the spec applies to any type;
 *  context  the raw context as written (after validation, when the
 *           handle validates), or "<<none>>";
 *  file     the file it was read from (file_contexts, its .bin, .homedirs
 *           or .local);
 *  line     its line in that file; for a spec read from a compiled
 *           file_contexts.bin, its position (1 for the first) among the
 *           specs the compiled file holds, which keeps the text's order;
 *  literal  1 when the regex has no regular expression character (it
 *           names one path and beats every regex), else 0;
 *  source, source_line
 *           for a spec read from a compiled file (file ends in ".bin"):
 *           the text file beside it (file without ".bin") and the line
 *           there with the same regex, file type and context (the last
 *           such line), as the text reads now; NULL and 0 when there is
 *           no such file or line (for a spec read from a text file too).
 */
struct selabel_spec_origin {
	const char *regex;
	const char *type;
	const char *context;
	const char *file;
	unsigned int line;
	int literal;
	const char *source;
	unsigned int source_line;
};

/*
 * An alias rule of file_contexts.subs or file_contexts.subs_dist that
 * rewrote the path before the specs were tried: a path equal to alias or
 * under it (alias followed by '/') was looked up as the same path under
 * original.
 */
struct selabel_subs_origin {
	const char *alias;
	const char *original;
	const char *file;
};

/*
 * What selabel_lookup_explain() found.
 *  key          the path as asked;
 *  lookup_key   the path the specs were matched against: runs of '/'
 *               squeezed, a final '/' removed, then rewritten by subs
 *               (.subs) and after it subs_dist (.subs_dist), each NULL
 *               when no rule applied;
 *  type         the file type asked (S_IFMT bits of the lookup's type,
 *               0 for any);
 *  error        what selabel_lookup() answers: 0 when it returns
 *               winner's context, ENOENT when no spec matched, the
 *               winner says "<<none>>", or blocked stopped the search;
 *  winner       the spec that decided (NULL when none matched);
 *  blocked      a spec ranked above every match whose regular expression
 *               could not be used: the lookup failed there (NULL if none);
 *  overridden   the other specs that matched the path with a fitting file
 *               type, n_overridden of them, from the strongest down;
 *  other_types  specs that match the path but require another file type
 *               than the one asked, n_other_types of them, strongest
 *               first (what a file of that type would be labelled by, if
 *               nothing stronger matched it).
 */
struct selabel_explanation {
	const char *key;
	const char *lookup_key;
	unsigned int type;
	int error;
	const struct selabel_subs_origin *subs;
	const struct selabel_subs_origin *subs_dist;
	const struct selabel_spec_origin *winner;
	const struct selabel_spec_origin *blocked;
	const struct selabel_spec_origin *overridden;
	size_t n_overridden;
	const struct selabel_spec_origin *other_types;
	size_t n_other_types;
};

/*
 * Explain which file_contexts spec gives a path its context, and why.
 * key is the path, type its file type (st_mode bits, 0 for any), as
 * selabel_lookup() takes them; h is a handle of the file backend
 * (SELABEL_CTX_FILE).  *exp is set to the explanation, to be freed with
 * selabel_explanation_free().  matchpathcon -x prints one.
 *
 * Returns 0 and *exp whether or not the path has a context (see the
 * explanation's error and winner).  Returns -1 with errno EINVAL when h,
 * exp or key is NULL or key is empty, EOPNOTSUPP when h is not of the file
 * backend, or ENOMEM; *exp is then NULL.
 */
int selabel_lookup_explain(struct selabel_handle *h,
			   struct selabel_explanation **exp, const char *key,
			   int type);

/* Free an explanation of selabel_lookup_explain(); NULL is allowed. */
void selabel_explanation_free(struct selabel_explanation *exp);

#ifdef __cplusplus
}
#endif

#endif
