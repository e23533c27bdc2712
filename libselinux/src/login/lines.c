/* login/lines.c: small helpers of the policy-file parsers. */
#include <fcntl.h>

#include "internal.h"

int login_fopen(const char *path, FILE **f)
{
	/* a NULL path from selinux_*_path(): no config, or no memory */
	if (!path)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	*f = fopen(path, "re");
	return *f ? 0 : -errno;
}

char *login_skip_space(char *s)
{
	while (*s && ascii_isspace((unsigned char)*s))
		s++;
	return s;
}

char *login_skip_word(char *s)
{
	while (*s && !ascii_isspace((unsigned char)*s))
		s++;
	return s;
}
