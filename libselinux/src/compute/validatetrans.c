/* compute/validatetrans.c: security_validatetrans and its _raw twin. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * "validatetrans" is write-only: the kernel parses "%s %s %hu %s", the
 * old context, the new context, the class and the task's context, and
 * fails the write with EPERM when the policy's (mls)validatetrans
 * constraints refuse the change, EINVAL for a context or class it does
 * not know.  The arguments go in that order: scon the old context, tcon
 * the new one, newcon the task's (the established library's names, its
 * bytes; checked against a real kernel in tests/vm).  Like that library,
 * a request that does not fit in a page is EINVAL without a write.
 */
static int validatetrans_raw(const char *scon, const char *tcon,
			     security_class_t tclass, const char *newcon)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *req = NULL;
	ssize_t n;
	int len;

	if (!selinux_mnt)
		return -ENOENT;
	if (!scon || !tcon || !newcon)
		return -EINVAL;
	fd = core_fs_open("validatetrans", O_WRONLY);
	if (fd < 0)
		return fd;
	len = asprintf(&req, "%s %s %hu %s", scon, tcon,
		       comp_unmap_class(tclass, NULL), newcon);
	if (len < 0) {
		req = NULL;
		return -ENOMEM;
	}
	if ((size_t)len >= (size_t)core_page_size)
		return -EINVAL;
	n = RETRY_EINTR(write(fd, req, (size_t)len));
	if (n < 0)
		return -errno;
	return 0;
}

_public_ int security_validatetrans_raw(const char *scon, const char *tcon,
					security_class_t tclass,
					const char *newcon)
{
	return RET_ERRNO(validatetrans_raw(scon, tcon, tclass, newcon));
}

static int validatetrans(const char *scon, const char *tcon,
			 security_class_t tclass, const char *newcon)
{
	_cleanup_free_ char *rs = NULL, *rt = NULL, *rn = NULL;
	int r;

	if ((r = core_trans_to_raw(scon, &rs)) < 0 ||
	    (r = core_trans_to_raw(tcon, &rt)) < 0 ||
	    (r = core_trans_to_raw(newcon, &rn)) < 0)
		return r;
	return validatetrans_raw(rs, rt, tclass, rn);
}

_public_ int security_validatetrans(const char *scon, const char *tcon,
				    security_class_t tclass, const char *newcon)
{
	return RET_ERRNO(validatetrans(scon, tcon, tclass, newcon));
}
