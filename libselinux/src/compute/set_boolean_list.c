/* compute/set_boolean_list.c: security_set_boolean_list. */
#include "internal.h"

/*
 * Set each pending value (normalised to 0/1 in the caller's list, as the
 * established library does), then commit them together.  When one fails
 * the ones already set are put back to their active values, so that a
 * later commit by someone else does not apply half a list; the caller
 * sees the first failure's errno.  permanent (saving to booleans.local)
 * is gone upstream: after the commit, a non-zero permanent is EINVAL.
 */
static int set_boolean_list(size_t n, SELboolean *list, int permanent)
{
	int r;

	if (n && !list)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		list[i].value = !!list[i].value;
		r = comp_bool_set(list[i].name, list[i].value);
		if (r < 0) {
			for (size_t k = 0; k < i; k++) {
				int a, p;

				if (comp_bool_get(list[k].name, &a, &p) >= 0)
					comp_bool_set(list[k].name, a);
			}
			return r;
		}
	}
	r = comp_bool_commit();
	if (r < 0)
		return r;
	return permanent ? -EINVAL : 0;
}

_public_ int security_set_boolean_list(size_t boolcnt, SELboolean *boollist,
				       int permanent)
{
	return RET_ERRNO(set_boolean_list(boolcnt, boollist, permanent));
}
