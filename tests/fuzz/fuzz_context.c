/*
 * Fuzz target for context strings: the input is up to six NUL-separated
 * strings.  The first goes to context_new(); on success every getter is
 * called, then each setter (user, role, type, range) with the next four
 * strings (a string starting with 0x7f stands for NULL; a missing one
 * skips the setter), context_str() after each.  The last string (or the
 * first when there are fewer) goes to security_check_context() against
 * a fake selinuxfs whose "context" file takes any write, and through
 * selinux_trans_to_raw_context() and back (no mcstrans daemon: both must
 * give an equal copy).
 *
 * Checked besides the sanitizers: a failure sets errno; pointers from the
 * getters of the other components stay valid across a setter (the
 * header promises it); a context whose role and type are set prints as a
 * string that context_new() parses again, to the same string when no
 * component is empty.
 */
#include <errno.h>

#include <selinux/context.h>

#include "fuzz_common.h"

#define NSTR 6

static void check_reparse(context_t c)
{
	const char *s = context_str(c);
	const char *u = context_user_get(c), *r = context_role_get(c);
	const char *t = context_type_get(c), *g = context_range_get(c);
	context_t again;

	if (!s || !u)
		abort();
	if (!r || !t)
		return;
	again = context_new(s);
	if (!again)
		abort();
	if (*u && *r && *t && (!g || *g) && strcmp(context_str(again), s))
		abort();
	context_free(again);
}

static void setters(context_t c, char **str, size_t n)
{
	int (*const set[])(context_t, const char *) = {
	    context_user_set,
	    context_role_set,
	    context_type_set,
	    context_range_set,
	};
	const char *(*const get[])(context_t) = {
	    context_user_get,
	    context_role_get,
	    context_type_get,
	    context_range_get,
	};

	for (size_t i = 0; i < 4 && i + 1 < n; i++) {
		const char *v = str[i + 1][0] == 0x7f ? NULL : str[i + 1];
		const char *keep[4];

		for (size_t j = 0; j < 4; j++)
			keep[j] = get[j](c);
		errno = 0;
		if (set[i](c, v) < 0) {
			if (errno != EINVAL && errno != ENOMEM)
				abort();
		} else if (v && strcmp(get[i](c), v)) {
			abort();
		}
		/* The other components' storage is untouched. */
		for (size_t j = 0; j < 4; j++)
			if (j != i && keep[j])
				(void)strlen(keep[j]);
		check_reparse(c);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *str[NSTR], *out = NULL;
	size_t n = 0;
	context_t c;

	if (fz_init("context")) {
		fz_mkdirs("selinuxfs");
		fz_writes("selinuxfs/context", "");
		set_selinuxmnt(fz_path("selinuxfs"));
	}
	/* The strings, each NUL-terminated in a copy of the input. */
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (char *p = buf; n < NSTR; p += strlen(p) + 1) {
		str[n++] = p;
		if (p + strlen(p) >= buf + size)
			break;
	}

	errno = 0;
	c = context_new(str[0]);
	if (!c) {
		if (errno != EINVAL && errno != ENOMEM)
			abort();
	} else {
		(void)context_user_get(c);
		(void)context_role_get(c);
		(void)context_type_get(c);
		(void)context_range_get(c);
		if (!context_str(c))
			abort();
		check_reparse(c);
		setters(c, str, n);
		out = context_to_str(c);
		if (!out || strcmp(out, context_str(c)))
			abort();
		free(out);
		context_free(c);
	}

	errno = 0;
	if (security_check_context(str[n - 1]) < 0 && !errno)
		abort();
	if (selinux_trans_to_raw_context(str[n - 1], &out) == 0) {
		char *back = NULL;

		if (strcmp(out, str[n - 1]))
			abort();
		if (selinux_raw_to_trans_context(out, &back) < 0 ||
		    strcmp(back, out))
			abort();
		freecon(back);
		freecon(out);
	}
	free(buf);
	return 0;
}
