/* core/procattr.c: /proc/PID/attr/ATTR, the process attribute interface. */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "internal.h"

/*
 * The calling thread's attributes are per thread in the kernel (exec,
 * fscreate, keycreate and sockcreate in particular), so they are reached
 * through /proc/thread-self; kernels before 3.17 lack it, and there
 * /proc/self/task/TID is the same file.  core_proc_open() refuses a file
 * that a mount put in the attribute's place (procfs.c says why).
 */
static int open_attr(pid_t pid, const char *attr, int flags)
{
	char rel[PATH_MAX];
	int fd;

	if (pid > 0) {
		snprintf(rel, sizeof(rel), "%d/attr/%s", (int)pid, attr);
		return core_proc_open(rel, flags);
	}
	snprintf(rel, sizeof(rel), "thread-self/attr/%s", attr);
	fd = core_proc_open(rel, flags);
	if (fd != -ENOENT)
		return fd;
	snprintf(rel, sizeof(rel), "self/task/%ld/attr/%s",
		 (long)syscall(SYS_gettid), attr);
	return core_proc_open(rel, flags);
}

/*
 * What this thread last wrote to each of its attributes.  The established
 * library answers a get from this memory, and skips a set that would
 * write what is already there; programs see the difference, because the
 * kernel does not always answer what was written (a context kept through
 * mac_admin reads back as the unlabeled context, a range may come back
 * canonicalised).  Per thread (__thread), like the attributes themselves;
 * a fresh process image starts with nothing remembered, as the kernel
 * resets exec, fscreate, keycreate and sockcreate at execve().
 */
enum remembered_attr { R_CURRENT, R_EXEC, R_FSCREATE, R_KEYCREATE,
		       R_SOCKCREATE, R_NONE };

struct remembered {
	bool known; /* written by this thread since the image started */
	char *con;  /* what was written; NULL for "reset to default" */
};

static __thread struct remembered memory[R_NONE];

static pthread_once_t memory_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t memory_key; /* written once, under memory_key_once */
static bool memory_key_ok;

/* A thread that remembered something frees it when it ends. */
static void memory_free(void *unused _unused_)
{
	for (int i = 0; i < R_NONE; i++) {
		free(memory[i].con);
		memory[i].con = NULL;
		memory[i].known = false;
	}
}

static void memory_key_init(void)
{
	memory_key_ok = pthread_key_create(&memory_key, memory_free) == 0;
}

static enum remembered_attr remembered_index(const char *attr)
{
	static const char *const names[R_NONE] = {
		[R_CURRENT] = "current", [R_EXEC] = "exec",
		[R_FSCREATE] = "fscreate", [R_KEYCREATE] = "keycreate",
		[R_SOCKCREATE] = "sockcreate",
	};

	for (int i = 0; i < R_NONE; i++)
		if (strcmp(attr, names[i]) == 0)
			return (enum remembered_attr)i;
	return R_NONE;
}

static void remember(enum remembered_attr a, const char *con)
{
	char *copy = NULL;

	if (a == R_NONE)
		return;
	pthread_once(&memory_key_once, memory_key_init);
	/* Without a destructor the copy would leak at thread exit. */
	if (!memory_key_ok || pthread_setspecific(memory_key, memory) != 0)
		return;
	if (con && !(copy = strdup(con))) {
		free(memory[a].con);
		memory[a].con = NULL;
		memory[a].known = false;
		return;
	}
	free(memory[a].con);
	memory[a].con = copy;
	memory[a].known = true;
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
	if (pid == 0) {
		enum remembered_attr a = remembered_index(attr);

		if (a != R_NONE && memory[a].known && memory[a].con) {
			*con = strdup(memory[a].con);
			return *con ? 0 : -ENOMEM;
		}
	}
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
	enum remembered_attr a = remembered_index(attr);
	size_t len = con ? strlen(con) + 1 : 0;
	ssize_t n;

	/* Writing what this thread already wrote changes nothing. */
	if (a != R_NONE && memory[a].known &&
	    (con ? memory[a].con && strcmp(con, memory[a].con) == 0
		 : !memory[a].con))
		return 0;
	fd = open_attr(0, attr, O_WRONLY);
	if (fd < 0)
		return fd;
	n = RETRY_EINTR(write(fd, con, len));
	if (n < 0)
		return -errno;
	remember(a, con);
	return 0;
}

int core_procattr_get_trans(pid_t pid, const char *attr, char **con)
{
	_cleanup_free_ char *raw = NULL;
	int r;

	if (!con)
		return -EINVAL;
	r = core_procattr_get(pid, attr, &raw);
	if (r < 0)
		return r;
	return core_raw_to_trans(raw, con);
}

int core_procattr_set_trans(const char *attr, const char *con)
{
	_cleanup_free_ char *raw = NULL;
	int r = core_trans_to_raw(con, &raw);

	if (r < 0)
		return r;
	return core_procattr_set(attr, raw);
}
