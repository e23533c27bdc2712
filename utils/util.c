/* utils/util.c: the checks and messages the utilities share (util.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

void util_usage(const char *prog, const char *synopsis, const char *detail,
		int status)
{
	fprintf(stderr, "usage:  %s %s\n", prog, synopsis);
	if (detail)
		fprintf(stderr, "%s:  %s\n", prog, detail);
	exit(status);
}

void util_failed(const char *prog, const char *fmt, ...)
{
	/* Taken first: stdio may change errno before it is printed. */
	const char *why = strerror(errno);
	va_list ap;

	fprintf(stderr, "%s:  ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " failed:  %s\n", why);
}

int util_context_ok(const char *prog, const char *what, const char *con)
{
	if (security_check_context(con) == 0)
		return 1;
	fprintf(stderr, "%s:  invalid %s context '%s'\n", prog, what, con);
	return 0;
}

security_class_t util_class(const char *prog, const char *name)
{
	security_class_t c = string_to_security_class(name);

	if (!c)
		fprintf(stderr, "%s:  invalid class '%s'\n", prog, name);
	return c;
}

int util_pid(const char *prog, const char *arg, pid_t *pid)
{
	int v;

	/* sscanf's leniency is the reference's: "12abc" is pid 12. */
	if (sscanf(arg, "%d", &v) != 1) {
		fprintf(stderr, "%s:  invalid pid %s\n", prog, arg);
		return -1;
	}
	*pid = v;
	return 0;
}

mode_t util_file_type(const char *s)
{
	switch (s[0]) {
	case 'b':
		return S_IFBLK;
	case 'c':
		return S_IFCHR;
	case 'd':
		return S_IFDIR;
	case 'p':
		return S_IFIFO;
	case 'l':
		return S_IFLNK;
	case 's':
		return S_IFSOCK;
	case 'f':
		return S_IFREG;
	}
	return 0;
}

int util_selabel_backend(const char *name)
{
	static const struct {
		const char *name;
		int backend;
	} names[] = {
	    {"file", SELABEL_CTX_FILE},
	    {"media", SELABEL_CTX_MEDIA},
	    {"x", SELABEL_CTX_X},
	    {"db", SELABEL_CTX_DB},
	    {"prop", SELABEL_CTX_ANDROID_PROP},
	    {"service", SELABEL_CTX_ANDROID_SERVICE},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name))
			return names[i].backend;
	return -1;
}

struct selabel_handle *
util_selabel_open(int backend, const struct selinux_opt *opts, unsigned n)
{
	struct selabel_handle *h = selabel_open(backend, opts, n);

	if (!h)
		fprintf(stderr,
			"ERROR: selabel_open - Could not obtain handle:  %s\n",
			strerror(errno));
	return h;
}
