/*
 * tests/fuzz/fuzz_explain.h: the file_contexts targets' check of
 * selabel_lookup_explain() beside the ordinary lookup.
 */
#ifndef TESTS_FUZZ_EXPLAIN_H
#define TESTS_FUZZ_EXPLAIN_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <selinux/label.h>
#include <selinux/label_explain.h>
#include <selinux/selinux.h>

/*
 * selabel_lookup_explain() of key on h, then selabel_lookup_raw(): the
 * explanation must be made (or fail with ENOMEM, or EINVAL where the
 * lookup fails so too: an empty key, an index image that does not check
 * out and files that cannot be read) and give the lookup's answer;
 * abort() otherwise.  The lookup comes second: an explanation checks the
 * whole index image first, and one that does not check out makes the
 * handle answer from the files from then on (a lookup checks only what
 * it reaches), so that both answer from the same data.  compare false:
 * the answers are not compared (fuzz_fc_idx.c: an image taken whatever
 * its header checksum says may have a header that contradicts its specs,
 * fixed_lens hiding a literal spec from the lookup, where the checksum
 * keeps any real image from being used).
 */
static inline void fz_explain(struct selabel_handle *h, const char *key,
			      int mode, bool compare)
{
	struct selabel_explanation *e = NULL;
	char *con = NULL;
	int rx, xerr, rl, lerr;

	errno = 0;
	rx = selabel_lookup_explain(h, &e, key, mode);
	xerr = errno;
	errno = 0;
	rl = selabel_lookup_raw(h, &con, key, mode);
	lerr = errno;
	if (rx < 0) {
		if (e || (xerr != ENOMEM && (xerr != EINVAL || rl == 0)))
			abort();
	} else if (!compare) {
		/* made, and freed below: enough */
	} else if (rl == 0 ? e->error || !e->winner ||
				     strcmp(e->winner->context, con) :
			     lerr == ENOENT && e->error != ENOENT) {
		abort();
	}
	freecon(con);
	selabel_explanation_free(e);
}

#endif
