/* avc/check_access.c: selinux_check_access and the passwd class checks. */
#include "internal.h"

/*
 * The AVC selinux_check_access() opens for itself, once per process
 * (guarded by once; enabled written inside it only).  A policy load
 * resets the AVC, and the class names must then be looked up anew.
 */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int enabled;

static int flush_classes(uint32_t event _unused_, security_id_t ssid _unused_,
			 security_id_t tsid _unused_,
			 security_class_t tclass _unused_,
			 access_vector_t perms _unused_,
			 access_vector_t *retained _unused_)
{
	selinux_flush_class_cache();
	return 0;
}

static void init_once(void)
{
	enabled = is_selinux_enabled();
	if (enabled != 1)
		return;
	if (avc_open(NULL, 0) < 0)
		return;
	avc_add_callback(flush_classes, AVC_CALLBACK_RESET, NULL, NULL, 0, 0);
}

/*
 * An unknown class or permission is allowed when the policy allows
 * unknown ones (deny_unknown 0), else EINVAL from the lookup; the
 * message has no newline, as the established library's.
 */
_public_ int selinux_check_access(const char *scon, const char *tcon,
				  const char *tclass, const char *perm,
				  void *auditdata)
{
	security_id_t ssid, tsid;
	security_class_t cls;
	access_vector_t av;
	int e;

	pthread_once(&once, init_once);
	if (enabled != 1)
		return 0;
	if (avc_context_to_sid(scon, &ssid) < 0)
		return -1;
	if (avc_context_to_sid(tcon, &tsid) < 0)
		return -1;
	(void)selinux_status_updated();

	cls = string_to_security_class(tclass);
	if (cls == 0) {
		e = errno;
		cache_log(SELINUX_ERROR, "Unknown class %s", tclass);
		if (security_deny_unknown() == 0)
			return 0;
		errno = e;
		return -1;
	}
	av = string_to_av_perm(cls, perm);
	if (av == 0) {
		e = errno;
		cache_log(SELINUX_ERROR, "Unknown permission %s for class %s",
			  perm, tclass);
		if (security_deny_unknown() == 0)
			return 0;
		errno = e;
		return -1;
	}
	return avc_has_perm(ssid, tsid, cls, av, NULL, auditdata);
}

/*
 * The calling process's previous context (the one it had before its last
 * exec: the user's, for passwd) may perform requested on itself in class
 * passwd.  Any failure counts as a denial, and permissive mode allows.
 */
static int passwd_access(access_vector_t requested)
{
	_cleanup_free_ char *con = NULL;
	struct av_decision avd;
	security_class_t cls;
	int status = -1;

	if (is_selinux_enabled() == 0)
		return 0;
	if (getprevcon_raw(&con) == 0) {
		cls = string_to_security_class("passwd");
		if (cls == 0)
			return security_deny_unknown() == 0 ? 0 : -1;
		if (security_compute_av_raw(con, con, cls, requested, &avd) ==
			0 &&
		    (requested & avd.allowed) == requested)
			status = 0;
	}
	if (status != 0 && security_getenforce() == 0)
		status = 0;
	return status;
}

_public_ int selinux_check_passwd_access(access_vector_t requested)
{
	return passwd_access(requested);
}

_public_ int checkPasswdAccess(access_vector_t requested)
{
	return passwd_access(requested);
}
