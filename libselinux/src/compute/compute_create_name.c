/* compute/compute_create_name.c: named type transitions, and _raw. */
#include "internal.h"

static int create_raw(const char *scon, const char *tcon,
		      security_class_t tclass, const char *objname,
		      char **newcon)
{
	return comp_compute_con("create", scon, tcon, tclass, objname, newcon);
}

/* A NULL objname asks for the unnamed transition (the old kernel form). */
_public_ int security_compute_create_name_raw(const char *scon,
					      const char *tcon,
					      security_class_t tclass,
					      const char *objname,
					      char **newcon)
{
	return RET_ERRNO(create_raw(scon, tcon, tclass, objname, newcon));
}

_public_ int security_compute_create_name(const char *scon, const char *tcon,
					  security_class_t tclass,
					  const char *objname, char **newcon)
{
	return RET_ERRNO(
	    comp_translated(create_raw, scon, tcon, tclass, objname, newcon));
}
