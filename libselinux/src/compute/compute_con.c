/* compute/compute_con.c: the create, relabel and member transactions. */
#include <string.h>

#include "internal.h"

/*
 * A named type transition sends the object's name as a fourth field,
 * URL-encoded as the kernel's sel_write_create() decodes it: unreserved
 * characters (ASCII letters and digits, "-._~") as they are, a space as
 * '+', every other byte as %XX in upper case.  The established library
 * encodes the same way; both send the same bytes.
 */
static size_t encoded_len(const char *name)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		n +=
		    (strchr("-._~ ", *p) || (*p < 0x80 && ascii_isalnum(*p))) ? 1 : 3;
	return n;
}

static void encode(const char *name, char *out)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p == ' ') {
			*out++ = '+';
		} else if (strchr("-._~", *p) || (*p < 0x80 && ascii_isalnum(*p))) {
			*out++ = (char)*p;
		} else {
			*out++ = '%';
			*out++ = hex[*p >> 4];
			*out++ = hex[*p & 0xf];
		}
	}
	*out = '\0';
}

int comp_compute_con(const char *file, const char *scon, const char *tcon,
		     security_class_t tclass, const char *objname,
		     char **newcon)
{
	_cleanup_free_ char *ans = NULL, *name = NULL;
	security_class_t kclass;
	ssize_t n;

	if (!selinux_mnt)
		return -ENOENT;
	if (!scon || !tcon || !newcon)
		return -EINVAL;
	kclass = comp_unmap_class(tclass, NULL);
	if (!objname) {
		n = comp_query(file, &ans, "%s %s %hu", scon, tcon, kclass);
		return comp_answer_con(ans, n, newcon);
	}
	/* The established library builds the request in a page and fails
	 * with ENAMETOOLONG when the encoded name does not fit. */
	if (strlen(scon) + strlen(tcon) + 8 + 2 + encoded_len(objname) + 2 >=
	    (size_t)core_page_size)
		return -ENAMETOOLONG;
	name = malloc(encoded_len(objname) + 1);
	if (!name)
		return -ENOMEM;
	encode(objname, name);
	n = comp_query(file, &ans, "%s %s %hu %s", scon, tcon, kclass, name);
	return comp_answer_con(ans, n, newcon);
}
