/* login/execfilecon.c: the exec context a program's file label implies. */
#include <string.h>

#include <selinux/context.h>

#include "internal.h"

/*
 * The context our next execve() of filename would get by the policy's
 * type transition, or, without one, our own with fallback_type.  Any
 * failure is forgiven (0) in permissive mode, as in the reference, and
 * with SELinux disabled there is nothing to do.
 */
static int execfilecon(const char *filename, const char *fallback_type)
{
	_cleanup_free_ char *mycon = NULL, *fcon = NULL, *newcon = NULL;
	context_t c;
	const char *s;

	if (getcon(&mycon) < 0 || getfilecon(filename, &fcon) < 0 ||
	    security_compute_create(
		mycon, fcon, string_to_security_class("process"), &newcon) < 0)
		return login_errno();
	if (!strcmp(mycon, newcon)) {
		/* No transition: stay in our context with the fallback type. */
		c = context_new(mycon);
		if (!c)
			return login_errno();
		if (context_type_set(c, fallback_type) ||
		    !(s = context_str(c))) {
			context_free(c);
			return login_errno();
		}
		free(newcon);
		newcon = strdup(s);
		context_free(c);
		if (!newcon)
			return -ENOMEM;
	}
	if (setexeccon(newcon) < 0)
		return login_errno();
	return 0;
}

_public_ int setexecfilecon(const char *filename, const char *fallback_type)
{
	int r;

	if (is_selinux_enabled() < 1)
		return 0;
	r = execfilecon(filename, fallback_type);
	if (r < 0 && security_getenforce() == 0)
		r = 0;
	return RET_ERRNO(r);
}

_public_ int rpm_execcon(unsigned int verified _unused_, const char *filename,
			 char *const argv[], char *const envp[])
{
	if (setexecfilecon(filename, "rpm_script_t") < 0)
		return -1;
	return execve(filename, argv, envp);
}
