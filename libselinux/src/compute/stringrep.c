/* compute/stringrep.c: class and permission names to numbers and back. */
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/*
 * Names are found through selinuxfs class/ (class_cache.c) and numbers
 * are the caller's when selinux_set_mapping() is in force.  errno is
 * written as the established library writes it, no more: a lookup of an
 * undiscovered class number returns NULL with errno untouched there, and
 * callers comparing errno would see a difference.
 */
_public_ security_class_t string_to_security_class(const char *name)
{
	int v = comp_class_value(name);
	bool unknown = false;
	security_class_t t;

	if (v < 0) {
		errno = -v;
		return 0;
	}
	t = comp_map_class((security_class_t)v, &unknown);
	if (unknown)
		errno = EINVAL;
	return t;
}

_public_ const char *security_class_to_string(security_class_t tclass)
{
	bool unknown = false;
	security_class_t k = comp_unmap_class(tclass, &unknown);
	const char *s = NULL;

	if (unknown)
		errno = EINVAL;
	return comp_class_name(k, &s) < 0 ? NULL : s;
}

_public_ access_vector_t string_to_av_perm(security_class_t tclass,
					   const char *name)
{
	security_class_t k = comp_unmap_class(tclass, NULL);
	access_vector_t kperm, t;
	bool unknown = false;

	if (comp_perm_value(k, name, &kperm) < 0) {
		errno = EINVAL;
		return 0;
	}
	t = comp_map_perm(tclass, kperm, &unknown);
	if (unknown)
		errno = EINVAL;
	return t;
}

/* The name of the lowest bit of av; NULL (errno untouched) if none. */
_public_ const char *security_av_perm_to_string(security_class_t tclass,
						access_vector_t av)
{
	const char *s = NULL;
	access_vector_t kperm = comp_unmap_perm(tclass, av);
	security_class_t k = comp_unmap_class(tclass, NULL);

	return comp_perm_name(k, kperm, &s) < 0 ? NULL : s;
}

/*
 * The file classes of a stat mode, looked up by name like any class
 * (so the answer is the caller's number under a mapping).  Any other
 * mode is 0 with EINVAL.
 */
_public_ security_class_t mode_to_security_class(mode_t m)
{
	static const struct {
		mode_t type;
		const char *name;
	} table[] = {
	    {S_IFREG, "file"},	     {S_IFDIR, "dir"},
	    {S_IFCHR, "chr_file"},   {S_IFBLK, "blk_file"},
	    {S_IFIFO, "fifo_file"},  {S_IFLNK, "lnk_file"},
	    {S_IFSOCK, "sock_file"},
	};

	for (size_t i = 0; i < ELEMENTSOF(table); i++)
		if ((m & S_IFMT) == table[i].type)
			return string_to_security_class(table[i].name);
	errno = EINVAL;
	return 0;
}
