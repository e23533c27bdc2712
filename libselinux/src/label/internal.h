/* label/: the selabel_* backends, matchpathcon, compiled file_contexts. */
#ifndef SELINUX_LABEL_INTERNAL_H
#define SELINUX_LABEL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

#include "../core/internal.h"

/*
 * Every helper returns >= 0 or -errno and leaves errno alone, as in core/.
 * The backends share struct selabel_handle; each fills in its ops.
 */

/* sha1.c: the digest selabel_digest() and the partial-match hashes use. */
#define LBL_SHA1_LEN 20
struct lbl_sha1 {
	uint32_t h[5];
	uint64_t len;
	uint8_t buf[64];
	size_t used;
};
void lbl_sha1_init(struct lbl_sha1 *s);
void lbl_sha1_update(struct lbl_sha1 *s, const void *data, size_t len);
void lbl_sha1_final(struct lbl_sha1 *s, uint8_t out[LBL_SHA1_LEN]);

/* The specfile digest of SELABEL_OPT_DIGEST: SHA-1 of every file read. */
struct lbl_digest {
	struct lbl_sha1 sha;
	char **files;
	size_t nfiles;
	uint8_t value[LBL_SHA1_LEN];
	bool done;
};
int lbl_digest_add(struct lbl_digest *d, const char *path, const void *data,
		   size_t len);

/* What a backend's lookup answers: the spec's raw context. */
struct lbl_result {
	const char *ctx_raw;
	unsigned int lineno;
	const char *file; /* the spec file it came from */
};

struct selabel_handle;

/* label.c: the layers above's entry (restore/'s walk): h's answer for
 * key and type (S_IFMT bits or 0), as selabel_lookup_raw() finds it but
 * not copied: 0 and *res, whose strings stay valid until h is closed;
 * or -errno (-ENOENT: no spec, or a "<<none>>" one; -EINVAL ...). */
int lbl_lookup(struct selabel_handle *h, const char *key, int type,
	       struct lbl_result *res);

struct lbl_ops {
	/* 0 and *res, or -ENOENT, -EINVAL ... */
	int (*lookup)(struct selabel_handle *h, const char *key, int type,
		      struct lbl_result *res);
	int (*best_match)(struct selabel_handle *h, const char *key,
			  const char **aliases, int type,
			  struct lbl_result *res);
	/* 1 on a partial match, 0 on none. */
	int (*partial_match)(struct selabel_handle *h, const char *key);
	/* 1 and digest, 0 when nothing matches, -errno. */
	int (*hash_all_partial)(struct selabel_handle *h, const char *key,
				uint8_t digest[LBL_SHA1_LEN]);
	enum selabel_cmp_result (*cmp)(const struct selabel_handle *a,
				       const struct selabel_handle *b);
	void (*stats)(struct selabel_handle *h);
	void (*close)(struct selabel_handle *h);
};

struct selabel_handle {
	unsigned int backend;
	const struct lbl_ops *ops;
	void *data;
	bool validating;
	/* SELABEL_OPT_DIGEST given; NULL otherwise. */
	struct lbl_digest *digest;
	/* The spec file (first PATH or the default), for messages. */
	char *spec_file;
};

/* label.c: option helpers shared by the backends. */
/* The value of the last option of type t that is set, or NULL. */
const char *lbl_opt_value(const struct selinux_opt *opts, unsigned int n,
			  int t);
bool lbl_opt_bool(const struct selinux_opt *opts, unsigned int n, int t);
/* Validate (and canonicalise) *ctx as the reference does: through the
 * SELINUX_CB_VALIDATE callback (security_check_context by default) or the
 * matchpathcon compat hooks.  0 or -EINVAL. */
int lbl_validate(char **ctx, const char *path, unsigned int lineno);
/* Read a whole file into a malloc'd NUL-terminated buffer (no regular file
 * check beyond fstat); *st filled in. */
int lbl_read_file(const char *path, char **buf, size_t *len, struct stat *st);

/* Backend constructors: 0 or -errno. */
int lbl_file_open(struct selabel_handle *h, const struct selinux_opt *opts,
		  unsigned int n);
int lbl_media_open(struct selabel_handle *h, const struct selinux_opt *opts,
		   unsigned int n);
int lbl_x_open(struct selabel_handle *h, const struct selinux_opt *opts,
	       unsigned int n);
int lbl_db_open(struct selabel_handle *h, const struct selinux_opt *opts,
		unsigned int n);

/* matchpathcon.c: the compat hooks lbl_validate consults. */
extern int (*lbl_mpc_invalidcon)(const char *path, unsigned lineno,
				 char *context);
extern int (*lbl_mpc_canoncon)(const char *path, unsigned lineno,
			       char **context);

#endif
