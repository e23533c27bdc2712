/* compute/compute_create.c: security_compute_create and its _raw twin. */
#include "internal.h"

static int create_raw(const char *scon, const char *tcon,
		      security_class_t tclass, const char *objname,
		      char **newcon)
{
	return comp_compute_con("create", scon, tcon, tclass, objname, newcon);
}

_public_ int security_compute_create_raw(const char *scon, const char *tcon,
					 security_class_t tclass, char **newcon)
{
	return RET_ERRNO(create_raw(scon, tcon, tclass, NULL, newcon));
}

_public_ int security_compute_create(const char *scon, const char *tcon,
				     security_class_t tclass, char **newcon)
{
	return RET_ERRNO(
	    comp_translated(create_raw, scon, tcon, tclass, NULL, newcon));
}
