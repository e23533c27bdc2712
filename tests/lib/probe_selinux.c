/*
 * probe_selinux.c: the probe programs' helpers that call libselinux
 * (probe_print.h), resolved against whichever libselinux.so.1 the
 * program is linked with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_print.h"

void probe_con(const char *what, int r, char *con)
{
	if (r < 0) {
		probe_rc(what, r);
		return;
	}
	if (con)
		printf("%s = %d con=\"%s\"\n", what, r, con);
	else
		printf("%s = %d con=NULL\n", what, r);
	fflush(stdout);
	freecon(con);
}

security_class_t probe_class(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*s && !*end)
		return (security_class_t)v;
	return string_to_security_class(s);
}

access_vector_t probe_perms(security_class_t c, const char *s)
{
	char *end, *list, *save = NULL;
	unsigned long v = strtoul(s, &end, 16);
	access_vector_t av = 0;

	if (*s && !*end)
		return (access_vector_t)v;
	list = strdup(s);
	for (char *p = strtok_r(list, ",", &save); p;
	     p = strtok_r(NULL, ",", &save))
		av |= string_to_av_perm(c, p);
	free(list);
	return av;
}
