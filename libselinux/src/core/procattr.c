/* core/procattr.c: /proc/PID/attr/ATTR, the process attribute interface. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "internal.h"

/*
 * The procfs root.  Only the unit tests change it (through the unexported
 * core_set_proc_root hook, before any other call); read-only otherwise.
 */
static const char *proc_root = "/proc";
static char *proc_root_owned;

void core_set_proc_root(const char *dir)
{
	free(proc_root_owned);
	proc_root_owned = dir ? strdup(dir) : NULL;
	proc_root = proc_root_owned ? proc_root_owned : "/proc";
}

/*
 * The calling thread's attributes are per thread in the kernel (exec,
 * fscreate, keycreate and sockcreate in particular), so they are reached
 * through /proc/thread-self; kernels before 3.17 lack it, and there
 * /proc/self/task/TID is the same file.
 */
static int open_attr(pid_t pid, const char *attr, int flags)
{
	char path[PATH_MAX];
	int fd;

	if (pid > 0) {
		snprintf(path, sizeof(path), "%s/%d/attr/%s", proc_root,
			 (int)pid, attr);
		fd = open(path, flags | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	snprintf(path, sizeof(path), "%s/thread-self/attr/%s", proc_root,
		 attr);
	fd = open(path, flags | O_CLOEXEC);
	if (fd >= 0 || errno != ENOENT)
		return fd < 0 ? -errno : fd;
	snprintf(path, sizeof(path), "%s/self/task/%ld/attr/%s", proc_root,
		 (long)syscall(SYS_gettid), attr);
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * The kernel answers with the context and its terminating NUL, or with
 * nothing when the attribute is unset; "unset" is success with *con NULL.
 * An answer fits in a page (the kernel's own limit for these files).
 */
int core_procattr_get(pid_t pid, const char *attr, char **con)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	size_t size = (size_t)core_page_size;
	ssize_t n;

	if (!con || pid < 0)
		return -EINVAL;
	fd = open_attr(pid, attr, O_RDONLY);
	if (fd < 0)
		return fd;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	n = RETRY_EINTR(read(fd, buf, size - 1));
	if (n < 0)
		return -errno;
	if (n == 0) {
		*con = NULL;
		return 0;
	}
	buf[n] = '\0';
	*con = strdup(buf);
	return *con ? 0 : -ENOMEM;
}

/*
 * Write the context with its NUL, in one write: the kernel takes no
 * partial writes here.  A zero-length write resets the attribute to the
 * policy default.
 */
int core_procattr_set(const char *attr, const char *con)
{
	_cleanup_close_ int fd = -1;
	size_t len = con ? strlen(con) + 1 : 0;
	ssize_t n;

	fd = open_attr(0, attr, O_WRONLY);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(write(fd, con, len));
	if (n < 0)
		return -errno;
	return 0;
}
