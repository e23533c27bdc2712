/* compute/compute_relabel.c: security_compute_relabel and its _raw twin. */
#include "internal.h"

static int relabel_raw(const char *scon, const char *tcon,
		       security_class_t tclass, const char *unused,
		       char **newcon)
{
	(void)unused;
	return comp_compute_con("relabel", scon, tcon, tclass, NULL, newcon);
}

_public_ int security_compute_relabel_raw(const char *scon, const char *tcon,
					  security_class_t tclass,
					  char **newcon)
{
	return RET_ERRNO(relabel_raw(scon, tcon, tclass, NULL, newcon));
}

_public_ int security_compute_relabel(const char *scon, const char *tcon,
				      security_class_t tclass, char **newcon)
{
	return RET_ERRNO(
	    comp_translated(relabel_raw, scon, tcon, tclass, NULL, newcon));
}
