/*
 * Fuzz target for the keyed selabel backends: the input is a media
 * contexts file (FUZZ_X: an x_contexts file; FUZZ_DB: a sepgsql_contexts
 * file) opened with selabel_open (SELABEL_CTX_MEDIA, _X or _DB,
 * SELABEL_OPT_PATH, with a digest), then looked up with a few keys
 * (x and db: of every object type), raw and
 * translated, and its digest and stats asked.  The open must fail with
 * errno set or give a handle whose lookups succeed or fail with errno.
 */
#include <errno.h>

#include <selinux/label.h>

#include "fuzz_common.h"

#if defined(FUZZ_X)
#define BACKEND SELABEL_CTX_X
#define NAME "x"
#define NTYPES 8 /* 0 (none) and SELABEL_X_PROP .. SELABEL_X_POLYSELN */
#elif defined(FUZZ_DB)
#define BACKEND SELABEL_CTX_DB
#define NAME "db"
#define NTYPES 14 /* 0, SELABEL_DB_DATABASE .. _DATATYPE, and one past */
#else
#define BACKEND SELABEL_CTX_MEDIA
#define NAME "media"
#define NTYPES 1
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {"cdrom",	"floppy",  "disk",
					   "*",		"",	   "WM_NAME",
					   "_NET_WM_X", "default", "a b",
					   "sepgsql", "public.t", "*.*"};
	struct selinux_opt opts[] = {
	    {SELABEL_OPT_PATH, NULL},
	    {SELABEL_OPT_DIGEST, (char *)1},
	};
	struct selabel_handle *h;
	unsigned char *digest = NULL;
	char **specs = NULL;
	size_t dlen = 0, nspecs = 0;

	fz_init(NAME);
	opts[0].value = fz_path(NAME);
	fz_write(NAME, data, size);

	errno = 0;
	h = selabel_open(BACKEND, opts, 2);
	if (!h) {
		if (!errno)
			abort();
		return 0;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		for (int type = 0; type < NTYPES; type++) {
			char *con = NULL;

			errno = 0;
			if (selabel_lookup_raw(h, &con, keys[i], type) == 0) {
				if (!con)
					abort();
				freecon(con);
			} else if (!errno) {
				abort();
			}
		}
		if (i < 2) {
			char *con = NULL;

			/* Translated: no daemon, so the raw string. */
			if (selabel_lookup(h, &con, keys[i], 1) == 0)
				freecon(con);
		}
	}
	if (selabel_digest(h, &digest, &dlen, &specs, &nspecs) == 0 &&
	    (!digest || !dlen))
		abort();
	selabel_stats(h);
	selabel_close(h);
	return 0;
}
