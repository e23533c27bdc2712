/* avc/check_access.c: selinux_check_access and the passwd class checks. */
#include "internal.h"

/*
 * The AVC selinux_check_access() opens for itself, once per process
 * (guarded by once; enabled and open_error written inside it only).  A
 * policy load resets the AVC, and the class names must then be looked up
 * anew.  open_error: avc_open()'s errno when SELinux is enabled but the
 * AVC could not be opened (ENOTCONN: the security server is gone), 0
 * otherwise.
 */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int enabled;
static int open_error;

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
	if (avc_open(NULL, 0) < 0) {
		open_error = errno ? errno : EINVAL;
		return;
	}
	avc_add_callback(flush_classes, AVC_CALLBACK_RESET, NULL, NULL, 0, 0);
}

/*
 * SELinux enabled but no AVC (its security server gone, so no mode and
 * no decision): every check fails with avc_open()'s errno, a denial
 * whatever the mode was, rather than going on to avc_context_to_sid()
 * and its EINVAL for an AVC that is not open.
 *
 * An unknown class or permission is allowed when the policy allows
 * unknown ones (deny_unknown 0), else EINVAL from the lookup (also when
 * deny_unknown cannot be read: a server that died since the AVC was
 * opened denies); the message has no newline, as the established
 * library's.  The numbers the strings stand for are remembered per
 * thread (check_memo.c), so a repeated check costs a hash of the strings
 * and the AVC's cached hit.
 */
_public_ int selinux_check_access(const char *scon, const char *tcon,
				  const char *tclass, const char *perm,
				  void *auditdata)
{
	security_id_t ssid, tsid;
	security_class_t cls;
	struct cache_names key;
	access_vector_t av;
	uint64_t gen;
	int e;

	pthread_once(&once, init_once);
	if (enabled != 1)
		return 0;
	if (open_error) {
		errno = open_error;
		return -1;
	}
	/* A policy load or setenforce is seen first: the reset it causes
	 * moves the memo's generation. */
	(void)selinux_status_updated();
	if (scon && tcon && tclass && perm) {
		if (cache_names_find_fast(scon, tcon, tclass, perm, &ssid,
					  &tsid, &cls, &av))
			return avc_has_perm(ssid, tsid, cls, av, NULL,
					    auditdata);
		cache_names_key(&key, scon, tcon, tclass, perm);
		if (cache_names_find(&key, &ssid, &tsid, &cls, &av))
			return avc_has_perm(ssid, tsid, cls, av, NULL,
					    auditdata);
	}
	if (avc_context_to_sid(scon, &ssid) < 0)
		return -1;
	if (avc_context_to_sid(tcon, &tsid) < 0)
		return -1;

	/*
	 * A policy load changes class/ under a lookup (the path walked may
	 * be the old policy's, gone), and the reset it causes flushes the
	 * class cache, maybe between the class and the permission lookups (a
	 * permission is found only in a class discovered by name).  So a
	 * failed lookup looks at the status page, and when the names moved
	 * meanwhile asks again: a name is "unknown" only to one policy.
	 */
	for (int tries = 0;; tries++) {
		gen = cache_names_generation();
		cls = string_to_security_class(tclass);
		av = cls ? string_to_av_perm(cls, perm) : 0;
		if (av || tries == 4)
			break;
		e = errno;
		(void)selinux_status_updated();
		if (gen == cache_names_generation()) {
			errno = e;
			break;
		}
	}
	if (cls == 0) {
		e = errno;
		cache_log(SELINUX_ERROR, "Unknown class %s", tclass);
		if (security_deny_unknown() == 0)
			return 0;
		errno = e;
		return -1;
	}
	if (av == 0) {
		e = errno;
		cache_log(SELINUX_ERROR, "Unknown permission %s for class %s",
			  perm, tclass);
		if (security_deny_unknown() == 0)
			return 0;
		errno = e;
		return -1;
	}
	if (scon && tcon && tclass && perm)
		cache_names_remember(&key, gen, ssid, tsid, cls, av);
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
