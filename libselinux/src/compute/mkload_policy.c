/* compute/mkload_policy.c: selinux_mkload_policy. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "internal.h"

/* The oldest version a policy file can have (kernels without
 * "policyvers" supported up to it). */
#define MIN_POLICY_VERSION 15

/*
 * Load selinux_binary_policy_path() + ".VERSION" for the highest version
 * from the kernel's (security_policyvers()) down to 15 that exists, the
 * search the established library makes.
 *
 * Deviation: that library also finds files newer than the kernel and
 * has libsepol (dlopen'ed) rewrite them to the kernel's version; we do
 * not depend on libsepol, so such a file is not found (ENOENT).
 * preservebools has been ignored upstream for years; so here.
 */
int comp_mkload_policy(void)
{
	_cleanup_close_ int fd = -1;
	char path[PATH_MAX];
	struct stat st;
	void *map;
	int vers, r;

	vers = security_policyvers();
	if (vers < 0)
		return -errno;
	for (; vers >= MIN_POLICY_VERSION; vers--) {
		if (snprintf(path, sizeof(path), "%s.%d",
			     selinux_binary_policy_path(),
			     vers) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 || errno != ENOENT)
			break;
	}
	if (fd < 0) {
		r = vers < MIN_POLICY_VERSION ? -ENOENT : -errno;
		core_log(SELINUX_ERROR,
			 "SELinux:  Could not open policy file <= %s.%d:  %s\n",
			 selinux_binary_policy_path(), security_policyvers(),
			 strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size == 0)
		return comp_load_policy("", 0);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	r = comp_load_policy(map, (size_t)st.st_size);
	munmap(map, (size_t)st.st_size);
	if (r < 0)
		core_log(SELINUX_ERROR,
			 "SELinux:  security_load_policy failed\n");
	return r;
}

_public_ int selinux_mkload_policy(int preservebools)
{
	(void)preservebools;
	return RET_ERRNO(comp_mkload_policy());
}
