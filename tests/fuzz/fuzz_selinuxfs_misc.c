/*
 * Fuzz target for the selinuxfs files fuzz_selinuxfs.c leaves out: the
 * input, cut at lines "@@" (fuzz_common.h), is a context as a caller
 * passes it (its first line), the answer of the "context" transaction
 * file to it, then the files "reject_unknown", "checkreqprot" and "mls".
 * The transaction file is a regular file laid out as in
 * fuzz_selinuxfs.c: as many filler bytes as the request (the context
 * and its NUL), then the answer, which the read after the write sees.
 *
 * Checked against what the kernel's formats and the headers say:
 *  - security_check_context(_raw) writes the context: 0 here;
 *  - security_canonicalize_context(_raw) gives the answer up to its
 *    first NUL and to a page less one byte (one read), or the context
 *    itself when the answer is empty or starts with a NUL;
 *  - security_reject_unknown and security_get_checkreqprot give the
 *    decimal number the file holds (surrounding white space allowed) if
 *    it is 0 to INT_MAX, else -1 with EINVAL; the file is read in one
 *    read of 63 bytes, up to its first NUL;
 *  - is_selinux_mls_enabled is 1 exactly when "mls" holds 1 so written,
 *    and keeps errno.
 * The number is parsed here digit by digit, not with strtol.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>

#include "fuzz_common.h"

enum { P_CON, P_CANON, P_REJECT, P_CHECKREQ, P_MLS, NPARTS };

static bool space(uint8_t c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The number in the first min(n, 63) bytes of p, up to a NUL: 0 and *v,
 * or -1 when it is no number or outside 0..INT_MAX. */
static int number(const uint8_t *p, size_t n, long *v)
{
	size_t i = 0;
	bool neg = false, digits = false;
	unsigned long long acc = 0;

	if (n > 63)
		n = 63;
	n = strnlen((const char *)p, n);
	while (i < n && space(p[i]))
		i++;
	if (i < n && (p[i] == '+' || p[i] == '-'))
		neg = p[i++] == '-';
	for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
		digits = true;
		acc = acc * 10 + (p[i] - '0');
		if (acc > (unsigned long long)INT_MAX + 1)
			acc = (unsigned long long)INT_MAX + 1; /* too big */
	}
	while (i < n && space(p[i]))
		i++;
	if (!digits || i < n || (neg && acc) || acc > INT_MAX)
		return -1;
	*v = (long)acc;
	return 0;
}

static void flag(int (*get)(void), const char *rel, const struct fz_part *p)
{
	long want;
	int r;

	fz_write(rel, p->p, p->n);
	errno = 0;
	r = get();
	if (number(p->p, p->n, &want) == 0) {
		if (r != want)
			abort();
	} else if (r != -1 || errno != EINVAL) {
		abort();
	}
}

static void canon(const char *con, const struct fz_part *ans, bool raw)
{
	size_t n = strlen(con) + 1, page = (size_t)sysconf(_SC_PAGESIZE), k;
	char *file = malloc(n + ans->n + 1), *out = NULL;
	int r;

	if (!file)
		abort();
	memset(file, '#', n);
	memcpy(file + n, ans->p, ans->n);
	fz_write("selinuxfs/context", file, n + ans->n);
	free(file);
	errno = 0;
	r = raw ? security_canonicalize_context_raw(con, &out)
		: security_canonicalize_context(con, &out);
	if (r != 0 || !out)
		abort();
	k = ans->n < page - 1 ? ans->n : page - 1;
	k = strnlen((const char *)ans->p, k);
	if (k ? strlen(out) != k || memcmp(out, ans->p, k) : strcmp(out, con))
		abort();
	freecon(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_part part[NPARTS];
	char con[512];
	size_t k = 0;
	int mls;
	long v;

	if (fz_init("selinuxfs_misc")) {
		fz_mkdirs("selinuxfs");
		set_selinuxmnt(fz_path("selinuxfs"));
	}
	fz_split(data, size, part, NPARTS);
	while (k < part[P_CON].n && k < sizeof(con) - 1 &&
	       part[P_CON].p[k] != '\n' && part[P_CON].p[k])
		con[k] = (char)part[P_CON].p[k], k++;
	con[k] = '\0';

	fz_write("selinuxfs/context", "", 0);
	if (security_check_context_raw(con) != 0 ||
	    security_check_context(con) != 0)
		abort();
	canon(con, &part[P_CANON], true);
	canon(con, &part[P_CANON], false);

	flag(security_reject_unknown, "selinuxfs/reject_unknown",
	     &part[P_REJECT]);
	flag(security_get_checkreqprot, "selinuxfs/checkreqprot",
	     &part[P_CHECKREQ]);

	fz_write("selinuxfs/mls", part[P_MLS].p, part[P_MLS].n);
	errno = EXDEV;
	mls = is_selinux_mls_enabled();
	if (errno != EXDEV ||
	    mls != (number(part[P_MLS].p, part[P_MLS].n, &v) == 0 && v == 1))
		abort();
	return 0;
}
