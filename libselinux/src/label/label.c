/* label/label.c: selabel_open() and the calls every backend shares. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "internal.h"

const char *lbl_opt_value(const struct selinux_opt *opts, unsigned int n,
			  int t)
{
	const char *v = NULL;

	for (unsigned int i = 0; opts && i < n; i++)
		if (opts[i].type == t)
			v = opts[i].value;
	return v;
}

bool lbl_opt_bool(const struct selinux_opt *opts, unsigned int n, int t)
{
	return lbl_opt_value(opts, n, t) != NULL;
}

int lbl_validate(char **ctx, const char *path, unsigned int lineno)
{
	if (lbl_mpc_invalidcon)
		return lbl_mpc_invalidcon(path, lineno, *ctx) ? -EINVAL : 0;
	if (lbl_mpc_canoncon)
		return lbl_mpc_canoncon(path, lineno, ctx) ? -EINVAL : 0;
	return core_validate(ctx);
}

int lbl_read_file(const char *path, char **buf, size_t *len, struct stat *st)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *b = NULL;
	size_t o = 0, cap;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0)
		return -errno;
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	cap = S_ISREG(st->st_mode) ? (size_t)st->st_size + 1 : 4096;
	b = malloc(cap);
	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t k;

		if (o + 1 >= cap) {
			char *nb = realloc(b, cap * 2);

			if (!nb)
				return -ENOMEM;
			b = nb;
			cap *= 2;
		}
		k = read(fd, b + o, cap - o - 1);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!k)
			break;
		o += k;
	}
	b[o] = '\0';
	*len = o;
	*buf = TAKE_PTR(b);
	return 0;
}

int lbl_digest_add(struct lbl_digest *d, const char *path, const void *data,
		   size_t len)
{
	char **nf = realloc(d->files, (d->nfiles + 2) * sizeof(*nf));

	if (!nf)
		return -ENOMEM;
	d->files = nf;
	nf[d->nfiles] = strdup(path);
	if (!nf[d->nfiles])
		return -ENOMEM;
	nf[++d->nfiles] = NULL;
	lbl_sha1_update(&d->sha, data, len);
	return 0;
}

static void digest_free(struct lbl_digest *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	free(d->files);
	free(d);
}

_public_ void selabel_close(struct selabel_handle *h)
{
	if (!h)
		return;
	if (h->ops && h->ops->close)
		h->ops->close(h);
	digest_free(h->digest);
	free(h->spec_file);
	free(h);
}

static int open_backend(struct selabel_handle *h, unsigned int backend,
			const struct selinux_opt *opts, unsigned int n)
{
	switch (backend) {
	case SELABEL_CTX_FILE:
		return lbl_file_open(h, opts, n);
	case SELABEL_CTX_MEDIA:
		return lbl_media_open(h, opts, n);
	case SELABEL_CTX_X:
		return lbl_x_open(h, opts, n);
	case SELABEL_CTX_DB:
		return lbl_db_open(h, opts, n);
	}
	return -EINVAL;
}

_public_ struct selabel_handle *selabel_open(unsigned int backend,
					     const struct selinux_opt *opts,
					     unsigned nopts)
{
	struct selabel_handle *h;
	int r;

	/* The Android backends exist in the ABI but are not built, as in
	 * Debian's library. */
	if (backend == SELABEL_CTX_ANDROID_PROP ||
	    backend == SELABEL_CTX_ANDROID_SERVICE) {
		errno = ENOTSUP;
		return NULL;
	}
	if (backend > SELABEL_CTX_DB) {
		errno = EINVAL;
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		errno = ENOMEM;
		return NULL;
	}
	h->backend = backend;
	h->validating = lbl_opt_bool(opts, nopts, SELABEL_OPT_VALIDATE);
	if (lbl_opt_bool(opts, nopts, SELABEL_OPT_DIGEST)) {
		h->digest = calloc(1, sizeof(*h->digest));
		if (!h->digest) {
			selabel_close(h);
			errno = ENOMEM;
			return NULL;
		}
		lbl_sha1_init(&h->digest->sha);
	}
	r = open_backend(h, backend, opts, nopts);
	if (r < 0) {
		selabel_close(h);
		errno = -r;
		return NULL;
	}
	return h;
}

int lbl_lookup(struct selabel_handle *h, const char *key, int type,
	       struct lbl_result *res)
{
	if (!h || !key)
		return -EINVAL;
	return h->ops->lookup(h, key, type, res);
}

static int lookup_common(struct selabel_handle *h, char **con,
			 const char *key, const char **aliases, int type,
			 bool raw, bool best)
{
	struct lbl_result res;
	int r;

	if (!h || !con || !key)
		return -EINVAL;
	if (best) {
		if (!h->ops->best_match)
			return -ENOTSUP;
		r = h->ops->best_match(h, key, aliases, type, &res);
	} else {
		r = h->ops->lookup(h, key, type, &res);
	}
	if (r < 0)
		return r;
	if (raw) {
		*con = strdup(res.ctx_raw);
		return *con ? 0 : -ENOMEM;
	}
	return core_raw_to_trans(res.ctx_raw, con);
}

_public_ int selabel_lookup(struct selabel_handle *h, char **con,
			    const char *key, int type)
{
	return RET_ERRNO(lookup_common(h, con, key, NULL, type, false, false));
}

_public_ int selabel_lookup_raw(struct selabel_handle *h, char **con,
				const char *key, int type)
{
	return RET_ERRNO(lookup_common(h, con, key, NULL, type, true, false));
}

_public_ int selabel_lookup_best_match(struct selabel_handle *h, char **con,
				       const char *key, const char **aliases,
				       int type)
{
	return RET_ERRNO(lookup_common(h, con, key, aliases, type, false, true));
}

_public_ int selabel_lookup_best_match_raw(struct selabel_handle *h,
					   char **con, const char *key,
					   const char **aliases, int type)
{
	return RET_ERRNO(lookup_common(h, con, key, aliases, type, true, true));
}

_public_ bool selabel_partial_match(struct selabel_handle *h, const char *key)
{
	if (!h || !key || !h->ops->partial_match)
		return false;
	return h->ops->partial_match(h, key) > 0;
}

_public_ bool selabel_hash_all_partial_matches(struct selabel_handle *h,
					       const char *key,
					       uint8_t *digest)
{
	if (!h || !key || !digest || !h->ops->hash_all_partial)
		return false;
	return h->ops->hash_all_partial(h, key, digest) > 0;
}

/* restorecon stores the hash of a directory's partial matches here. */
#define SEHASH_XATTR "security.sehash"

_public_ bool selabel_get_digests_all_partial_matches(
	struct selabel_handle *h, const char *key, uint8_t **calculated_digest,
	uint8_t **xattr_digest, size_t *digest_len)
{
	uint8_t stored[LBL_SHA1_LEN], calc[LBL_SHA1_LEN];
	ssize_t n;
	bool have;

	if (!h || !key || !calculated_digest || !xattr_digest || !digest_len ||
	    !h->ops->hash_all_partial)
		return false;
	n = getxattr(key, SEHASH_XATTR, stored, sizeof(stored));
	have = h->ops->hash_all_partial(h, key, calc) > 0;
	*calculated_digest = NULL;
	*xattr_digest = NULL;
	*digest_len = LBL_SHA1_LEN;
	if (n == LBL_SHA1_LEN) {
		*xattr_digest = calloc(1, LBL_SHA1_LEN + 1);
		if (!*xattr_digest)
			return false;
		memcpy(*xattr_digest, stored, LBL_SHA1_LEN);
	}
	if (have) {
		*calculated_digest = calloc(1, LBL_SHA1_LEN + 1);
		if (!*calculated_digest) {
			free(*xattr_digest);
			*xattr_digest = NULL;
			return false;
		}
		memcpy(*calculated_digest, calc, LBL_SHA1_LEN);
	}
	return have && n == LBL_SHA1_LEN && !memcmp(stored, calc, LBL_SHA1_LEN);
}

_public_ int selabel_digest(struct selabel_handle *h, unsigned char **digest,
			    size_t *digest_len, char ***specfiles,
			    size_t *num_specfiles)
{
	struct lbl_digest *d;

	if (!h || !h->digest || !digest || !digest_len || !specfiles ||
	    !num_specfiles)
		return RET_ERRNO(-EINVAL);
	d = h->digest;
	if (!d->done) {
		lbl_sha1_final(&d->sha, d->value);
		d->done = true;
	}
	*digest = d->value;
	*digest_len = LBL_SHA1_LEN;
	*specfiles = d->files;
	*num_specfiles = d->nfiles;
	return 0;
}

_public_ enum selabel_cmp_result selabel_cmp(const struct selabel_handle *h1,
					     const struct selabel_handle *h2)
{
	if (!h1 || !h2 || h1->backend != h2->backend || !h1->ops->cmp)
		return SELABEL_INCOMPARABLE;
	return h1->ops->cmp(h1, h2);
}

_public_ void selabel_stats(struct selabel_handle *h)
{
	if (h && h->ops->stats)
		h->ops->stats(h);
}
