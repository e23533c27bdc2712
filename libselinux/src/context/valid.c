/* context/valid.c: the characters a context component may hold. */
#include <string.h>

#include "internal.h"

/*
 * The rules are the established library's, measured byte by byte on
 * Debian's 3.4: only space, tab, CR and LF are refused (not VT, FF or
 * other control bytes), and a space is allowed in the MLS range, which
 * is not a name but an expression the kernel parses.
 */
bool ctx_valid_component(enum ctx_component which, const char *value,
			 size_t len, bool setter)
{
	for (size_t i = 0; i < len; i++) {
		switch (value[i]) {
		case '\t':
		case '\n':
		case '\r':
			return false;
		case ' ':
			if (which != CTX_RANGE)
				return false;
			break;
		case ':':
			if (setter && which != CTX_RANGE)
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}
