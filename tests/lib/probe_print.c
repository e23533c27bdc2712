/*
 * probe_print.c: the lines every probe program prints (probe_print.h);
 * libc only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe_print.h"

const char *probe_errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "?";
}

void probe_rc_errno(const char *what, int r, int e)
{
	if (r < 0)
		printf("%s = %d errno=%s\n", what, r, probe_errname(e));
	else
		printf("%s = %d\n", what, r);
	fflush(stdout);
}

void probe_rc(const char *what, int r)
{
	probe_rc_errno(what, r, errno);
}

const char *probe_arg(const char *s)
{
	return strcmp(s, "NULL") ? s : NULL;
}
