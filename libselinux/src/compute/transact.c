/* compute/transact.c: requests on the selinuxfs transaction files. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * access, create, relabel, member and user are "simple transaction"
 * files: the kernel takes the request in one write() and keeps the answer
 * for reads on the same open file.  The answer is read with one read() of
 * a page, as the established library does: the kernel never answers more
 * (SIMPLE_TRANSACTION_LIMIT is less than a page; a longer "user" list is
 * refused at the write with ERANGE).  One read also keeps the unit tests'
 * FIFO stand-ins working: what was queued before the call is the answer.
 */
ssize_t comp_transact(const char *name, const char *req, size_t reqlen,
		      char *ans, size_t size)
{
	_cleanup_close_ int fd = -1;
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	fd = core_fs_open(name, O_RDWR);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(write(fd, req, reqlen));
	if (n < 0)
		return -errno;
	if ((size_t)n != reqlen)
		return -EIO;
	memset(ans, 0, size);
	n = RETRY_EINTR(read(fd, ans, size - 1));
	if (n < 0)
		return -errno;
	ans[n] = '\0';
	return n;
}

ssize_t comp_query(const char *name, char **ans, const char *fmt, ...)
{
	_cleanup_free_ char *heap = NULL, *buf = NULL;
	char stack[1024];
	const char *req = stack;
	size_t size = (size_t)core_page_size;
	va_list ap;
	ssize_t n;
	int len;

	if (!selinux_mnt)
		return -ENOENT;
	va_start(ap, fmt);
	len = vsnprintf(stack, sizeof(stack), fmt, ap);
	va_end(ap);
	if (len < 0)
		return -EINVAL;
	if ((size_t)len >= sizeof(stack)) {
		/* Long contexts: the kernel will judge the length. */
		va_start(ap, fmt);
		len = vasprintf(&heap, fmt, ap);
		va_end(ap);
		if (len < 0) {
			heap = NULL;
			return -ENOMEM;
		}
		req = heap;
	}
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	n = comp_transact(name, req, (size_t)len, buf, size);
	if (n < 0)
		return n;
	*ans = TAKE_PTR(buf);
	return n;
}

static int read_flag(const char *name)
{
	long v;
	int r = core_fs_read_long(name, &v);

	if (r < 0)
		return r;
	return v < 0 ? -EINVAL : v != 0;
}

int comp_deny_unknown(void)
{
	return read_flag("deny_unknown");
}

int comp_reject_unknown(void)
{
	return read_flag("reject_unknown");
}

/*
 * A context answer is the context and its NUL.  The established library
 * takes whatever string the read holds, even an empty one; so do we.
 */
int comp_answer_con(const char *ans, ssize_t len, char **con)
{
	char *s;

	if (len < 0)
		return (int)len;
	s = strdup(ans);
	if (!s)
		return -ENOMEM;
	*con = s;
	return 0;
}

int comp_translated(comp_con2_fn raw, const char *scon, const char *tcon,
		    security_class_t tclass, const char *extra, char **newcon)
{
	_cleanup_free_ char *rs = NULL, *rt = NULL, *rnew = NULL;
	int r;

	/* NULL contexts stay NULL: raw() reports them after the mount check,
	 * in the order the established library does. */
	r = core_trans_to_raw(scon, &rs);
	if (r < 0)
		return r;
	r = core_trans_to_raw(tcon, &rt);
	if (r < 0)
		return r;
	r = raw(rs, rt, tclass, extra, &rnew);
	if (r < 0)
		return r;
	return core_raw_to_trans(rnew, newcon);
}
