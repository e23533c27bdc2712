/* compute/av_string.c: security_av_string and print_access_vector. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * "{ perm perm }", or "null" for an empty vector.  Bits without a name
 * (unknown to the policy, or of an undiscovered class) are left out, as
 * the established library leaves them out.
 */
static int av_string(security_class_t tclass, access_vector_t av, char **result)
{
	size_t len = sizeof("{ }");
	char *out, *p;

	if (!result)
		return -EINVAL;
	for (unsigned int i = 0; i < 32; i++) {
		const char *s =
		    (av >> i) & 1 ? security_av_perm_to_string(tclass, 1U << i)
				  : NULL;

		if (s)
			len += strlen(s) + 1;
	}
	if (len < sizeof("null"))
		len = sizeof("null");
	out = malloc(len);
	if (!out)
		return -ENOMEM;
	if (!av) {
		strcpy(out, "null");
		*result = out;
		return 0;
	}
	p = out + sprintf(out, "{ ");
	for (unsigned int i = 0; i < 32; i++) {
		const char *s =
		    (av >> i) & 1 ? security_av_perm_to_string(tclass, 1U << i)
				  : NULL;

		if (s)
			p += sprintf(p, "%s ", s);
	}
	strcpy(p, "}");
	*result = out;
	return 0;
}

_public_ int security_av_string(security_class_t tclass, access_vector_t av,
				char **result)
{
	return RET_ERRNO(av_string(tclass, av, result));
}

/*
 * " { perm perm }" on stdout, or " null".  Unlike security_av_string(),
 * the first bit without a name stops the names and what is left of the
 * vector is printed in hex (" { read 0x6 }"): the established library's
 * output, which scripts parse.
 */
_public_ void print_access_vector(security_class_t tclass, access_vector_t av)
{
	if (!av) {
		printf(" null");
		return;
	}
	printf(" {");
	for (unsigned int i = 0; i < 32 && av; i++) {
		access_vector_t bit = 1U << i;
		const char *s;

		if (!(av & bit))
			continue;
		s = security_av_perm_to_string(tclass, bit);
		if (!s)
			break;
		printf(" %s", s);
		av &= ~bit;
	}
	if (av)
		printf(" 0x%x", av);
	printf(" }");
}
