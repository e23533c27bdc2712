/* compute/load_booleans.c: security_load_booleans, a stub upstream. */
#include "internal.h"

/*
 * Upstream dropped booleans.local and the booleans file (boolean values
 * live in the policy store now), and Debian's 3.4 returns -1 without
 * reading anything or setting errno.  We keep exactly that: callers test
 * for -1, and a value in errno would differ from the established library.
 */
_public_ int security_load_booleans(char *path)
{
	(void)path;
	return -1;
}
