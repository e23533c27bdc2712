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

/* fc_compile.c: compile the text file_contexts in into the .bin out of
 * the given version: 5 (what Debian 12's library reads) or 6 (the
 * big-endian tree of libselinux 3.8 and later; -EINVAL for any other),
 * with serialized regexes unless no_regex; validate (may be NULL)
 * checks each context.
 * Every regex is compiled as it is read (a bad one fails the file).
 * 0 or -errno; *stage says what failed: LBL_FC_READ (reading or
 * parsing in, reported through the log callback) or LBL_FC_WRITE
 * (writing out: *what names the call that failed). */
enum { LBL_FC_READ, LBL_FC_WRITE };
int lbl_fc_compile(const char *in, const char *out, int version,
		   bool no_regex, int (*validate)(const char *ctx), int *stage,
		   const char **what);

/* Test hook (fc_bin6_write.c): write version 6 files with the order of
 * equal literal specs of release (308: 3.8.1's, 311: 3.11's, 304: ours
 * for 3.4) instead of the build's; 0 restores the build's.  Not
 * exported. */
void lbl_test_bin6_order(unsigned release);

/* fc_image_write.c: write base's index image, base.idx (or out, if not
 * NULL) (fc_image.h), for what a default selabel_open of base reads
 * (base, .homedirs, .local, as text or .bin, .subs, .subs_dist).  0 or
 * -errno, with *why saying what went wrong (the
 * open of the files logged a message - then no image is written and an
 * old one removed, as a reader must see those messages -, they kept
 * changing, a write failed). */
int lbl_fc_write_index(const char *base, const char *out,
		       const char **why);

/* matchpathcon.c: the compat hooks lbl_validate consults. */
extern int (*lbl_mpc_invalidcon)(const char *path, unsigned lineno,
				 char *context);
extern int (*lbl_mpc_canoncon)(const char *path, unsigned lineno,
			       char **context);

#endif
