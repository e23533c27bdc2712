/* compute/boolean_sub.c: booleans.subs_dist, old boolean names to new. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * Each line of booleans.subs_dist is "oldname newname"; blank lines and
 * lines starting with '#' are skipped.  The first line naming name wins.
 * A substitute with a slash is ignored (it would name a path outside
 * booleans/).  No file, or no match, gives a copy of name.
 */
static char *word(char **p)
{
	char *s = *p, *w;

	while (*s && ascii_isspace((unsigned char)*s))
		s++;
	w = s;
	while (*s && !ascii_isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

int comp_boolean_sub(const char *name, char **out)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	char *sub = NULL;

	if (!name)
		return -EINVAL;
	f = fopen(selinux_booleans_subs_path(), "re");
	while (f && getline(&line, &cap, f) >= 0) {
		char *p = line, *from, *to;

		from = word(&p);
		if (!*from || *from == '#' || strcmp(from, name))
			continue;
		to = word(&p);
		if (!*to)
			continue;
		if (!strchr(to, '/')) {
			sub = strdup(to);
			if (!sub)
				return -ENOMEM;
		}
		break;
	}
	if (!sub)
		sub = strdup(name);
	if (!sub)
		return -ENOMEM;
	*out = sub;
	return 0;
}

/* NULL for a NULL name (errno untouched, as in the established library). */
_public_ char *selinux_boolean_sub(const char *boolean_name)
{
	char *out = NULL;
	int r;

	if (!boolean_name)
		return NULL;
	r = comp_boolean_sub(boolean_name, &out);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	return out;
}
