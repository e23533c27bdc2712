/*
 * restore/digest.c: a walk's security.sehash - the directories it may
 * skip, and the digests it writes once it succeeded.
 */
#include <string.h>
#include <sys/xattr.h>

#include "walk.h"

struct rst_digest {
	char *path;
	uint8_t digest[LBL_SHA1_LEN];
	struct rst_digest *next;
};

/*
 * A directory whose stored digest equals the digest of the specs that can
 * match below it needs no walk.  Otherwise remember the new digest, to be
 * written once the walk succeeded.  Caller holds w->lock.
 */
static bool digest_matches(struct rst_walk *w, const char *path)
{
	uint8_t *calc = NULL, *stored = NULL;
	size_t len = 0;
	bool match = selabel_get_digests_all_partial_matches(w->h, path, &calc,
							     &stored, &len);

	if (!match && calc && !w->error && len == LBL_SHA1_LEN) {
		struct rst_digest *d = calloc(1, sizeof(*d));

		if (d && (d->path = strdup(path))) {
			memcpy(d->digest, calc, LBL_SHA1_LEN);
			d->next = w->digests;
			w->digests = d;
		} else {
			free(d);
		}
	}
	free(calc);
	free(stored);
	return match;
}

bool rst_dir_digest_skip(struct rst_walk *w, const char *path)
{
	bool skip;

	if (!w->digest)
		return false;
	pthread_mutex_lock(&w->lock);
	skip = digest_matches(w, path) && !RST_F(w, IGNORE_DIGEST);
	pthread_mutex_unlock(&w->lock);
	if (skip)
		rst_log(SELINUX_INFO, "Skipping restorecon on directory(%s)\n",
			path);
	return skip;
}

void rst_digests_write(struct rst_walk *w)
{
	for (struct rst_digest *d = w->digests; d; d = d->next)
		if (setxattr(d->path, SEHASH_XATTR, d->digest, LBL_SHA1_LEN,
			     0) < 0)
			rst_log(SELINUX_ERROR, "setxattr failed: %s: %s\n",
				d->path, strerror(errno));
}

void rst_digests_free(struct rst_walk *w)
{
	while (w->digests) {
		struct rst_digest *n = w->digests->next;

		free(w->digests->path);
		free(w->digests);
		w->digests = n;
	}
}
