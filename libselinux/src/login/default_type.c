/* login/default_type.c: a role's default type (contexts/default_type). */
#include <string.h>

#include <selinux/get_default_type.h>

#include "internal.h"

/*
 * Lines are "role:type".  Read in chunks of 250 bytes, each chunk losing
 * its last character (meant to be the newline), as the reference reads
 * the file: a last line without a newline loses the type's last letter
 * and a longer line is seen as several.  The first line of the role
 * wins; the type is the rest of the line (the reference keeps trailing
 * words and spaces too).  A missing role is -EINVAL, as in
 * the reference (not ENOENT: that is a missing file).
 */
int login_default_type(const char *role, char **type)
{
	_cleanup_fclose_ FILE *f = NULL;
	char buf[250], *p = NULL;
	size_t rlen, n;
	int r;

	if (!role || !type)
		return -EINVAL;
	r = login_fopen(selinux_default_type_path(), &f);
	if (r < 0)
		return r;
	rlen = strlen(role);
	while (fgets(buf, sizeof(buf), f)) {
		n = strlen(buf);
		if (n)
			buf[n - 1] = '\0';
		p = login_skip_space(buf);
		if (*p && !strncmp(p, role, rlen) && p[rlen] == ':') {
			p += rlen + 1;
			break;
		}
		p = NULL;
	}
	if (!p)
		return -EINVAL;
	*type = strdup(p);
	return *type ? 0 : -ENOMEM;
}

_public_ int get_default_type(const char *role, char **type)
{
	return RET_ERRNO(login_default_type(role, type));
}
