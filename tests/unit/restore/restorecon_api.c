/*
 * restorecon_api.c: compiled, never run, by the test restore_api
 * against include/ alone.  It uses restorecon.h the way a caller written
 * for the reference after 3.4 does (policycoreutils 3.11's setfiles,
 * restorecon_xattr and restorecond build their flag words from these
 * names), so a missing flag or declaration fails the test.
 */
#include <selinux/restorecon.h>

_Static_assert(SELINUX_RESTORECON_SET_USER_ROLE == 0x40000,
	       "SET_USER_ROLE value");
_Static_assert(SELINUX_RESTORECON_COUNT_RELABELED == 0x80000,
	       "COUNT_RELABELED value");
_Static_assert(SELINUX_RESTORECON_SKIP_MULTILINK == 0x100000,
	       "SKIP_MULTILINK value");

struct opts {
	unsigned int set_user_role;
	unsigned int count_relabeled;
	unsigned int skip_multilink;
};

/* The declaration the reference has, not merely one that links. */
long unsigned (*const relabeled)(void) = selinux_restorecon_get_relabeled_files;

int relabel(const char *path, const struct opts *o, long unsigned *n);

int relabel(const char *path, const struct opts *o, long unsigned *n)
{
	unsigned int flags = SELINUX_RESTORECON_RECURSE;
	int r;

	flags |= o->set_user_role ? SELINUX_RESTORECON_SET_USER_ROLE : 0;
	flags |= o->count_relabeled ? SELINUX_RESTORECON_COUNT_RELABELED : 0;
	flags |= o->skip_multilink ? SELINUX_RESTORECON_SKIP_MULTILINK : 0;
	r = selinux_restorecon_parallel(path, flags, 0);
	*n = relabeled();
	return r;
}
