/* compute/compute_av.c: security_compute_av(_flags) and the _raw twins. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * The kernel answers an "access" request with
 * "allowed decided auditallow auditdeny seqno flags" (hex but for the
 * decimal seqno); kernels before 2.6.30 lack flags, which then reads 0.
 * The class and permissions are unmapped on the way in and the decision
 * mapped back on the way out when selinux_set_mapping() is in force.
 */
static int compute_av_flags_raw(const char *scon, const char *tcon,
				security_class_t tclass,
				access_vector_t requested,
				struct av_decision *avd)
{
	_cleanup_free_ char *ans = NULL;
	unsigned int v[6] = {0};
	security_class_t kclass;
	ssize_t n;

	if (!selinux_mnt)
		return -ENOENT;
	if (!scon || !tcon || !avd)
		return -EINVAL;
	/* An unmapped class goes to the kernel as 0, as the established
	 * library sends it; the kernel's handle_unknown then decides. */
	kclass = comp_unmap_class(tclass, NULL);
	n = comp_query("access", &ans, "%s %s %hu %x", scon, tcon, kclass,
		       comp_unmap_perm(tclass, requested));
	if (n < 0)
		return (int)n;
	if (sscanf(ans, "%x %x %x %x %u %x", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5]) < 5)
		return -EINVAL;
	avd->allowed = v[0];
	avd->decided = v[1];
	avd->auditallow = v[2];
	avd->auditdeny = v[3];
	avd->seqno = v[4];
	avd->flags = v[5];
	comp_map_decision(tclass, avd);
	return 0;
}

/*
 * The non-flags calls leave avd->flags as the caller had it, as the
 * established library does (it kept the field out of the old ABI).
 */
static int compute_av(bool translate, bool flags, const char *scon,
		      const char *tcon, security_class_t tclass,
		      access_vector_t requested, struct av_decision *avd)
{
	_cleanup_free_ char *rs = NULL, *rt = NULL;
	struct av_decision local;
	int r;

	if (translate) {
		r = core_trans_to_raw(scon, &rs);
		if (r < 0)
			return r;
		r = core_trans_to_raw(tcon, &rt);
		if (r < 0)
			return r;
		scon = rs;
		tcon = rt;
	}
	if (flags)
		return compute_av_flags_raw(scon, tcon, tclass, requested, avd);
	r = compute_av_flags_raw(scon, tcon, tclass, requested,
				 avd ? &local : NULL);
	if (r < 0)
		return r;
	avd->allowed = local.allowed;
	avd->decided = local.decided;
	avd->auditallow = local.auditallow;
	avd->auditdeny = local.auditdeny;
	avd->seqno = local.seqno;
	return 0;
}

_public_ int security_compute_av_flags_raw(const char *scon, const char *tcon,
					   security_class_t tclass,
					   access_vector_t requested,
					   struct av_decision *avd)
{
	return RET_ERRNO(
	    compute_av(false, true, scon, tcon, tclass, requested, avd));
}

_public_ int security_compute_av_flags(const char *scon, const char *tcon,
				       security_class_t tclass,
				       access_vector_t requested,
				       struct av_decision *avd)
{
	return RET_ERRNO(
	    compute_av(true, true, scon, tcon, tclass, requested, avd));
}

_public_ int security_compute_av_raw(const char *scon, const char *tcon,
				     security_class_t tclass,
				     access_vector_t requested,
				     struct av_decision *avd)
{
	return RET_ERRNO(
	    compute_av(false, false, scon, tcon, tclass, requested, avd));
}

_public_ int security_compute_av(const char *scon, const char *tcon,
				 security_class_t tclass,
				 access_vector_t requested,
				 struct av_decision *avd)
{
	return RET_ERRNO(
	    compute_av(true, false, scon, tcon, tclass, requested, avd));
}
