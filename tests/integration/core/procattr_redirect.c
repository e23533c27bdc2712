/*
 * procattr_redirect: process attributes that a mount tries to redirect.
 *
 * Usage: procattr_redirect (as root; exit 77, a skip, where it cannot
 * make a mount namespace of its own)
 *
 * In a private mount namespace, this program mounts things in the place
 * of its own /proc/thread-self/attr files, as a hostile runtime or image
 * could (CVE-2025-52881), and checks that the library's calls refuse to
 * write there or to read a context from there (core/procfs.c):
 *
 *   - a regular file bound over each attribute (current, exec, fscreate,
 *     keycreate, sockcreate, and prev for reading): set*con and get*con
 *     fail with EXDEV and the file keeps its bytes;
 *   - a procfs file (/proc/self/comm) bound over each: EXDEV as well, and
 *     comm unchanged (the file system type alone does not tell);
 *   - a directory bound over /proc/thread-self/attr: EXDEV;
 *   - a file bound over /proc/PID/attr/current and prev: getpidcon and
 *     getpidprevcon fail with EXDEV;
 *   - a tmpfs mounted on /proc itself, holding a fake attribute tree:
 *     ENOENT (no procfs, no attribute), the fake file untouched - on the
 *     fallback only: with openat2 the library does not statfs /proc
 *     (confined domains may not: core/procfs.c), and such a mount is not
 *     told apart;
 *   - with nothing mounted, the calls reach the kernel's file (on a
 *     kernel without SELinux: EINVAL; never EXDEV or ENOENT).
 *
 * Each case runs twice: through openat2(2), and through the fallback for
 * kernels without it (openat(2) and the mount ids of statx), chosen by
 * the static archive's test hook.  Exit 0, or 1 with each broken
 * expectation on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selinux/selinux.h>

/* Hook of the static archive (core/internal.h). */
void core_proc_set_openat2(bool on);

#define CTX "system_u:system_r:sshd_t:s0"
#define BAIT "untouched\n"

static int failures;
static const char *how = "openat2";

#define EXPECT(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "procattr_redirect (%s): ", how);      \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			failures++;                                            \
		}                                                              \
	} while (0)

typedef int (*get_fn)(char **);
typedef int (*set_fn)(const char *);

static const struct {
	const char *attr;
	get_fn get;
	set_fn set;
} attrs[] = {
    {"current", getcon_raw, setcon_raw},
    {"exec", getexeccon_raw, setexeccon_raw},
    {"fscreate", getfscreatecon_raw, setfscreatecon_raw},
    {"keycreate", getkeycreatecon_raw, setkeycreatecon_raw},
    {"sockcreate", getsockcreatecon_raw, setsockcreatecon_raw},
    {"prev", getprevcon_raw, NULL},
};

static char tmp[] = "/tmp/procattr_redirect.XXXXXX";

static void die(const char *what)
{
	perror(what);
	exit(99);
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(s, f) < 0 || fclose(f) != 0)
		die(path);
}

/* The file's bytes (at most a page), NUL-terminated, into buf. */
static void read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		die(path);
	n = read(fd, buf, size - 1);
	if (n < 0)
		die(path);
	buf[n] = '\0';
	close(fd);
}

static void bind(const char *src, const char *dst)
{
	if (mount(src, dst, NULL, MS_BIND, NULL) < 0)
		die(dst);
}

static void unbind(const char *dst)
{
	if (umount2(dst, MNT_DETACH) < 0)
		die(dst);
}

/* The get and set of attrs[i] fail with want; bait still holds was. */
static void refused(size_t i, int want, const char *bait, const char *was,
		    const char *what)
{
	char *con = NULL, now[4096];
	int r, e;

	if (attrs[i].set) {
		errno = 0;
		r = attrs[i].set(CTX);
		e = errno;
		EXPECT(r == -1 && e == want, "%s: set %s: %d errno %s, not %s",
		       what, attrs[i].attr, r, strerrorname_np(e),
		       strerrorname_np(want));
		read_file(bait, now, sizeof(now));
		EXPECT(strcmp(now, was) == 0,
		       "%s: set %s wrote \"%s\" over \"%s\"", what,
		       attrs[i].attr, now, was);
	}
	errno = 0;
	r = attrs[i].get(&con);
	e = errno;
	EXPECT(r == -1 && e == want, "%s: get %s: %d errno %s (con %s), not %s",
	       what, attrs[i].attr, r, strerrorname_np(e),
	       r == 0 && con ? con : "none", strerrorname_np(want));
	if (r == 0)
		freecon(con);
}

static void file_over_each_attribute(void)
{
	char bait[256], dst[256];

	snprintf(bait, sizeof(bait), "%s/bait", tmp);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		write_file(bait, BAIT);
		snprintf(dst, sizeof(dst), "/proc/thread-self/attr/%s",
			 attrs[i].attr);
		bind(bait, dst);
		refused(i, EXDEV, bait, BAIT, "a file over the attribute");
		unbind(dst);
	}
}

static void procfs_file_over_each_attribute(void)
{
	char comm[64], dst[256];

	read_file("/proc/self/comm", comm, sizeof(comm));
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(dst, sizeof(dst), "/proc/thread-self/attr/%s",
			 attrs[i].attr);
		bind("/proc/self/comm", dst);
		refused(i, EXDEV, "/proc/self/comm", comm,
			"/proc/self/comm over the attribute");
		unbind(dst);
	}
}

static void directory_over_attr(void)
{
	char dir[256], bait[300];

	snprintf(dir, sizeof(dir), "%s/attr", tmp);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		die(dir);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(bait, sizeof(bait), "%s/%s", dir, attrs[i].attr);
		write_file(bait, BAIT);
	}
	bind(dir, "/proc/thread-self/attr");
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(bait, sizeof(bait), "%s/%s", dir, attrs[i].attr);
		refused(i, EXDEV, bait, BAIT, "a directory over attr/");
	}
	unbind("/proc/thread-self/attr");
}

static void file_over_pid_attribute(void)
{
	char bait[256], dst[256], *con = NULL;
	int r, e;

	snprintf(bait, sizeof(bait), "%s/bait", tmp);
	write_file(bait, BAIT);
	snprintf(dst, sizeof(dst), "/proc/%d/attr/current", (int)getpid());
	bind(bait, dst);
	errno = 0;
	r = getpidcon_raw(getpid(), &con);
	e = errno;
	EXPECT(r == -1 && e == EXDEV, "getpidcon: %d errno %s (con %s)", r,
	       strerrorname_np(e), r == 0 && con ? con : "none");
	if (r == 0)
		freecon(con);
	unbind(dst);
	snprintf(dst, sizeof(dst), "/proc/%d/attr/prev", (int)getpid());
	bind(bait, dst);
	errno = 0;
	r = getpidprevcon_raw(getpid(), &con);
	e = errno;
	EXPECT(r == -1 && e == EXDEV, "getpidprevcon: %d errno %s (con %s)", r,
	       strerrorname_np(e), r == 0 && con ? con : "none");
	if (r == 0)
		freecon(con);
	unbind(dst);
}

static void tmpfs_over_proc(void)
{
	char fake[256];

	if (!strcmp(how, "openat2"))
		return; /* not told apart with openat2 (see the top) */
	/* The fake tree is made before the tmpfs hides /proc, in tmp, and
	 * bound over /proc: the same as a tmpfs there for the library. */
	snprintf(fake, sizeof(fake), "%s/proc", tmp);
	if (mkdir(fake, 0755) < 0 && errno != EEXIST)
		die(fake);
	if (mount("tmpfs", fake, "tmpfs", 0, "size=64k") < 0)
		die(fake);
	snprintf(fake, sizeof(fake), "%s/proc/thread-self", tmp);
	mkdir(fake, 0755);
	snprintf(fake, sizeof(fake), "%s/proc/thread-self/attr", tmp);
	mkdir(fake, 0755);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(fake, sizeof(fake), "%s/proc/thread-self/attr/%s", tmp,
			 attrs[i].attr);
		write_file(fake, BAIT);
	}
	snprintf(fake, sizeof(fake), "%s/proc", tmp);
	bind(fake, "/proc");
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(fake, sizeof(fake), "%s/proc/thread-self/attr/%s", tmp,
			 attrs[i].attr);
		refused(i, ENOENT, fake, BAIT, "a tmpfs on /proc");
	}
	unbind("/proc");
	snprintf(fake, sizeof(fake), "%s/proc", tmp);
	unbind(fake);
}

/* Nothing mounted: the kernel's own file answers. */
static void kernel_file_reached(void)
{
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		char *con = NULL;
		int r, e;

		if (!attrs[i].set)
			continue;
		errno = 0;
		r = attrs[i].set(NULL);
		e = errno;
		EXPECT(r == 0 || (e != EXDEV && e != ENOENT),
		       "nothing mounted: set %s: %d errno %s", attrs[i].attr, r,
		       strerrorname_np(e));
		errno = 0;
		r = attrs[i].get(&con);
		e = errno;
		EXPECT(r == 0 || (e != EXDEV && e != ENOENT),
		       "nothing mounted: get %s: %d errno %s", attrs[i].attr, r,
		       strerrorname_np(e));
		if (r == 0)
			freecon(con);
	}
}

static void (*const cases[])(void) = {
    kernel_file_reached,
    file_over_each_attribute,
    procfs_file_over_each_attribute,
    directory_over_attr,
    file_over_pid_attribute,
    tmpfs_over_proc,
};

/*
 * Each case in a child of its own: a fresh thread memory of what was
 * written (procattr.c answers a get, and skips a set, from it), so that a
 * case fails or passes on its own; the mounts it makes are undone by it.
 */
static void run_case(void (*fn)(void), bool openat2)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		core_proc_set_openat2(openat2);
		fn();
		fflush(stderr);
		_exit(failures ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		failures++;
}

int main(void)
{
	char bait[300];

	if (geteuid() != 0) {
		fprintf(stderr, "procattr_redirect: needs root; skipping\n");
		return 77;
	}
	if (unshare(CLONE_NEWNS) < 0) {
		perror("procattr_redirect: unshare; skipping");
		return 77;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("mount --make-rprivate /");
	if (!mkdtemp(tmp))
		die("mkdtemp");
	for (int pass = 0; pass < 2; pass++) {
		how = pass ? "openat + statx" : "openat2";
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
			run_case(cases[c], pass == 0);
	}
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(bait, sizeof(bait), "%s/attr/%s", tmp, attrs[i].attr);
		unlink(bait);
	}
	snprintf(bait, sizeof(bait), "%s/attr", tmp);
	rmdir(bait);
	snprintf(bait, sizeof(bait), "%s/proc", tmp);
	rmdir(bait);
	snprintf(bait, sizeof(bait), "%s/bait", tmp);
	unlink(bait);
	rmdir(tmp);
	if (!failures)
		printf("procattr_redirect: every redirected attribute refused "
		       "(openat2 and the fallback)\n");
	return failures ? 1 : 0;
}
