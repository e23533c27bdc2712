/*
 * tests/fuzz/fuzz_explain.h: the file_contexts targets' check of
 * selabel_lookup_explain() beside the ordinary lookup.
 */
#ifndef TESTS_FUZZ_EXPLAIN_H
#define TESTS_FUZZ_EXPLAIN_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/label.h>
#include <selinux/label_explain.h>
#include <selinux/selinux.h>

/*
 * selabel_lookup_explain() of key on h beside selabel_lookup_raw(): it
 * must explain (or fail with ENOMEM, or EINVAL for an empty key), and
 * give the lookup's answer; abort() otherwise.
 */
static inline void fz_explain(struct selabel_handle *h, const char *key,
			      int mode)
{
	struct selabel_explanation *e = NULL;
	char *con = NULL;
	int rl, lerr;

	errno = 0;
	rl = selabel_lookup_raw(h, &con, key, mode);
	lerr = errno;
	if (selabel_lookup_explain(h, &e, key, mode) < 0) {
		if (e || (errno != ENOMEM && (errno != EINVAL || *key)))
			abort();
		freecon(con);
		return;
	}
	if (rl == 0 ? e->error || !e->winner || strcmp(e->winner->context, con) :
		      lerr == ENOENT && e->error != ENOENT)
		abort();
	freecon(con);
	selabel_explanation_free(e);
}

#endif
