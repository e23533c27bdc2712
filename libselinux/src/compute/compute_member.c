/* compute/compute_member.c: security_compute_member and its _raw twin. */
#include "internal.h"

static int member_raw(const char *scon, const char *tcon,
		      security_class_t tclass, const char *unused,
		      char **newcon)
{
	(void)unused;
	return comp_compute_con("member", scon, tcon, tclass, NULL, newcon);
}

_public_ int security_compute_member_raw(const char *scon, const char *tcon,
					 security_class_t tclass, char **newcon)
{
	return RET_ERRNO(member_raw(scon, tcon, tclass, NULL, newcon));
}

_public_ int security_compute_member(const char *scon, const char *tcon,
				     security_class_t tclass, char **newcon)
{
	return RET_ERRNO(
	    comp_translated(member_raw, scon, tcon, tclass, NULL, newcon));
}
