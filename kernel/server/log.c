/*
 * log.c: the server's messages.  Only the FUSE session's thread and
 * main() before it use them: no lock.
 */
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

static bool verbose; /* set once by main() before the session starts */

void srv_log_set_verbose(bool v)
{
	verbose = v;
}

bool srv_log_verbose(void)
{
	return verbose;
}

void srv_log(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	fputs("selinuxfsd: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
