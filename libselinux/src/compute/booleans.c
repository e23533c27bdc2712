/* compute/booleans.c: the selinuxfs booleans/ files. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * booleans/NAME reads "active pending" ("%d %d") and takes the new
 * pending value in a write; commit_pending_bools makes every pending
 * value active.  A name the policy lacks is tried again under the name
 * booleans.subs_dist gives it, as the established library does (policies
 * rename booleans and keep the old name working that way).
 *
 * A name with a slash would reach outside booleans/ (the established
 * library follows it); no boolean is called that, so it is ENOENT, the
 * answer for any other unknown name.
 */
static int open_one(const char *name, int flags)
{
	char rel[PATH_MAX];

	if (snprintf(rel, sizeof(rel), "booleans/%s", name) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	return core_fs_open(rel, flags);
}

int comp_bool_open(const char *name, int flags)
{
	_cleanup_free_ char *alt = NULL;
	int fd, r;

	if (!selinux_mnt)
		return -ENOENT;
	if (!name || strchr(name, '/'))
		return -ENOENT;
	fd = open_one(name, flags);
	if (fd != -ENOENT)
		return fd;
	r = comp_boolean_sub(name, &alt);
	if (r < 0)
		return r;
	if (!strcmp(alt, name) || strchr(alt, '/'))
		return -ENOENT;
	return open_one(alt, flags);
}

/*
 * The kernel prints both values with "%d %d".  Anything else is EINVAL
 * (the established library wants exactly three bytes and returns -1
 * with a stale errno when it gets fewer).
 */
int comp_bool_get(const char *name, int *active, int *pending)
{
	_cleanup_close_ int fd = -1;
	char buf[64], *end;
	long a, p;
	ssize_t n;

	fd = comp_bool_open(name, O_RDONLY);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(read(fd, buf, sizeof(buf) - 1));
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (!n || buf[0] == ' ')
		return -EINVAL;
	a = strtol(buf, &end, 10);
	if (end == buf || *end != ' ')
		return -EINVAL;
	p = strtol(end + 1, &end, 10);
	if (end == buf || (*end && *end != '\n'))
		return -EINVAL;
	*active = a != 0;
	*pending = p != 0;
	return 0;
}

/* The established library writes the digit and its NUL; so do we. */
int comp_bool_set(const char *name, int value)
{
	_cleanup_close_ int fd = -1;
	const char *v = value ? "1" : "0";
	ssize_t n;

	if (!selinux_mnt)
		return -ENOENT;
	if (value < 0 || value > 1)
		return -EINVAL;
	fd = comp_bool_open(name, O_WRONLY);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(write(fd, v, 2));
	if (n < 0)
		return -errno;
	return n > 0 ? 0 : -EIO;
}

int comp_bool_commit(void)
{
	return core_fs_write("commit_pending_bools", "1", 2);
}

_public_ int security_get_boolean_active(const char *name)
{
	int a, p, r = comp_bool_get(name, &a, &p);

	return r < 0 ? RET_ERRNO(r) : a;
}

_public_ int security_get_boolean_pending(const char *name)
{
	int a, p, r = comp_bool_get(name, &a, &p);

	/*
	 * analyzer: false positive (clang UndefReturn): comp_bool_get() sets p
	 * whenever it returns 0; clang assumes a failing read() may leave errno
	 * 0, making "return -errno" look like success.
	 */
	return r < 0 ? RET_ERRNO(r) : p;
}

_public_ int security_set_boolean(const char *name, int value)
{
	return RET_ERRNO(comp_bool_set(name, value));
}

_public_ int security_commit_booleans(void)
{
	return RET_ERRNO(comp_bool_commit());
}
