/* compute/mkload_policy.c: selinux_mkload_policy. */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "internal.h"

/* The oldest version a policy file can have (kernels without
 * "policyvers" supported up to it). */
#define MIN_POLICY_VERSION 15

/*
 * libsepol, when it is installed: it rewrites a policy file newer than
 * the kernel to the kernel's version, as the established library has it
 * do (Debian 13's refpolicy is version 34, its 6.12 kernel takes 33).
 * Opened with dlopen() at the call, as that library does, so that
 * libselinux.so.1 does not depend on libsepol; these are its public
 * functions (sepol/policydb.h), the types opaque.
 */
struct sepol {
	void *dl;
	int (*kern_vers_max)(void);
	int (*file_create)(void **pf);
	void (*file_set_mem)(void *pf, char *data, size_t len);
	void (*file_free)(void *pf);
	int (*db_create)(void **db);
	int (*db_read)(void *db, void *pf);
	int (*db_set_vers)(void *db, unsigned int vers);
	int (*db_to_image)(void *handle, void *db, void **data, size_t *len);
	void (*db_free)(void *db);
};

static bool sepol_open(struct sepol *s)
{
	static const char *const names[] = {
		"sepol_policy_kern_vers_max", "sepol_policy_file_create",
		"sepol_policy_file_set_mem",  "sepol_policy_file_free",
		"sepol_policydb_create",      "sepol_policydb_read",
		"sepol_policydb_set_vers",    "sepol_policydb_to_image",
		"sepol_policydb_free",
	};
	void **slots[] = {
		(void **)&s->kern_vers_max, (void **)&s->file_create,
		(void **)&s->file_set_mem,  (void **)&s->file_free,
		(void **)&s->db_create,	    (void **)&s->db_read,
		(void **)&s->db_set_vers,   (void **)&s->db_to_image,
		(void **)&s->db_free,
	};

	s->dl = dlopen("libsepol.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!s->dl)
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		*slots[i] = dlsym(s->dl, names[i]);
		if (!*slots[i]) {
			dlclose(s->dl);
			s->dl = NULL;
			return false;
		}
	}
	return true;
}

/* The policy image data/len rewritten at version vers by libsepol: 0 and
 * *out (malloc'd by libsepol), or -1. */
static int sepol_downgrade(const struct sepol *s, void *data, size_t len,
			   int vers, void **out, size_t *outlen)
{
	void *pf = NULL, *db = NULL;
	int r = -1;

	if (s->file_create(&pf) < 0 || s->db_create(&db) < 0)
		goto out;
	s->file_set_mem(pf, data, len);
	if (s->db_read(db, pf) < 0 || s->db_set_vers(db, (unsigned)vers) < 0 ||
	    s->db_to_image(NULL, db, out, outlen) < 0)
		goto out;
	r = 0;
out:
	if (db)
		s->db_free(db);
	if (pf)
		s->file_free(pf);
	return r;
}

/* Open base.VERS for the highest VERS from top down to 15 that exists:
 * the descriptor and *vers, or -errno (-ENOENT when there is none). */
static int open_newest(const char *base, int top, int *vers, char *path,
		       size_t size)
{
	for (int v = top; v >= MIN_POLICY_VERSION; v--) {
		int fd;

		if (snprintf(path, size, "%s.%d", base, v) >= (int)size)
			return -ENAMETOOLONG;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			*vers = v;
			return fd;
		}
		if (errno != ENOENT)
			return -errno;
	}
	return -ENOENT;
}

/*
 * Load selinux_binary_policy_path() + ".VERSION": the file of the highest
 * version that exists, from the newest libsepol writes (when libsepol is
 * installed) or else the kernel's (security_policyvers()) down to 15.  A
 * file newer than the kernel is rewritten to the kernel's version by
 * libsepol; if that fails, the search goes on below it.  preservebools
 * has been ignored upstream for years; so here.
 */
int comp_mkload_policy(void)
{
	struct sepol s = { 0 };
	const char *base = selinux_binary_policy_path();
	char path[PATH_MAX];
	int kvers, top, vers = 0, r;

	kvers = security_policyvers();
	if (kvers < 0)
		return -errno;
	top = kvers;
	if (sepol_open(&s)) {
		int m = s.kern_vers_max();

		if (m > top)
			top = m;
	}
	for (;;) {
		_cleanup_close_ int fd = open_newest(base, top, &vers, path,
						     sizeof(path));
		void *map, *img = NULL;
		size_t imglen = 0;
		struct stat st;

		if (fd < 0) {
			r = fd;
			core_log(SELINUX_ERROR,
				 "SELinux:  Could not open policy file <= %s.%d:  %s\n",
				 base, top, strerror(-r));
			break;
		}
		if (fstat(fd, &st) < 0) {
			r = -errno;
			break;
		}
		if (st.st_size == 0) {
			r = comp_load_policy("", 0);
			break;
		}
		map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			r = -errno;
			break;
		}
		if (vers > kvers &&
		    sepol_downgrade(&s, map, (size_t)st.st_size, kvers, &img,
				    &imglen) < 0) {
			munmap(map, (size_t)st.st_size);
			core_log(SELINUX_ERROR,
				 "SELinux:  Could not downgrade policy file %s, searching for an older version.\n",
				 path);
			top = vers - 1;
			continue;
		}
		r = img ? comp_load_policy(img, imglen) :
			  comp_load_policy(map, (size_t)st.st_size);
		free(img);
		munmap(map, (size_t)st.st_size);
		if (r < 0)
			core_log(SELINUX_ERROR,
				 "SELinux:  security_load_policy failed\n");
		break;
	}
	if (s.dl)
		dlclose(s.dl);
	return r;
}

_public_ int selinux_mkload_policy(int preservebools)
{
	(void)preservebools;
	return RET_ERRNO(comp_mkload_policy());
}
