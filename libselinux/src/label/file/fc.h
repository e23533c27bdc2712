/*
 * label/file/fc.h: the file_contexts backend's declarations, shared by
 * its files: the readers (text, .bin, .subs), the writers, the handle's
 * operations.  What it asks of the lookup engine is index/index.h.
 */
#ifndef SELINUX_LABEL_FC_H
#define SELINUX_LABEL_FC_H

#include <string.h>

#include "../index/index.h"
#include "../internal.h"

struct fc_sub {
	char *src, *dst;
	size_t slen;
};

/* fc_text.c: parse one text file_contexts held in buf (NUL-terminated). */
struct fc_load {
	struct selabel_handle *h;
	struct fc_data *d;
	const char *prefix; /* SELABEL_OPT_SUBSET */
	const char *path;
	uint32_t file;
	bool bin; /* a compiled file: see FC_STOP */
	/* Compile each regex as it is read, and refuse the file if one
	 * fails (as VALIDATE does, without checking contexts): what
	 * sefcontext_compile does. */
	bool check_regex;
};
/* fc_add_spec's answer for a .bin spec whose context the validator
 * rejects: the reference then stops reading the file, keeps the specs
 * read so far and reports success. */
#define FC_STOP 1
int fc_parse_text(struct fc_load *l, const char *buf, size_t len);
/* The same, read from fd (size bytes from its offset). */
int fc_parse_text_fd(struct fc_load *l, int fd, size_t size);
/* Room for more specs in d->spec; 0 or -errno. */
int fc_reserve(struct fc_data *d, size_t more);
/* Room for more specs and for bytes of their strings: for the first
 * file, one allocation holding both; 0 or -errno. */
int fc_prepare(struct fc_data *d, size_t more, size_t bytes);
/* Append a spec (copying regex and ctx); applies SUBSET and VALIDATE. */
int fc_add_spec(struct fc_load *l, const char *regex, size_t rlen,
		uint32_t mode, const char *ctx, size_t clen, uint32_t lineno);
/* The same for a reader that names each context by an index: *ictx, the
 * shared copy of ctx once made (NULL until then), saves looking it up
 * again for the next spec of that context. */
int fc_add_spec_cached(struct fc_load *l, const char *regex, size_t rlen,
		       uint32_t mode, const char *ctx, size_t clen,
		       const char **ictx, uint32_t lineno);

/* fc_bin.c: the compiled format. */
#define FC_BIN_MAGIC 0xf97cff8aU
/* Read a compiled file from fd (len: its size), or from buf when fd < 0. */
int fc_parse_bin(struct fc_load *l, int fd, const uint8_t *buf, size_t len);
/* Write d's specs as a version 5 file_contexts.bin to fd (with serialized
 * regexes unless no_regex). */
int fc_write_bin(struct fc_data *d, int fd, bool no_regex);
/* All n bytes of p to fd (EINTR retried): 0 or -errno. */
int fc_write_all(int fd, const void *p, size_t n);
/* fc_parse_bin's answer for a compiled file of a version we do not read
 * (after its one message): the caller tries the text file instead. */
#define FC_EVERSION EPROTONOSUPPORT

/* fc_bin6.c, fc_bin6_write.c: version 6, big-endian (libselinux 3.8+). */
#define FC_BIN6_VERSION 6
/* File kinds 0-7 of version 6 as S_IFMT bits (0: any). */
#define FC_BIN6_KINDS 8
extern const uint32_t fc_bin6_kind_mode[FC_BIN6_KINDS];
/* The literal [s, s + n) stands for, its backslashes dropped, into out
 * (n + 1 bytes, may be NULL): its length, or -1 if s is no literal for
 * libselinux 3.8 (a NUL, a meta character of ".^$?*+|[({])}", or an
 * escape of anything but those and "-_,"). */
ssize_t fc_bin6_simplify(const char *s, size_t n, char *out);
/* The version 6 tree's depth: 3.8's writer places a spec in the node of
 * at most this many leading components of its path. */
#define FC_BIN6_DEPTH 3
/*
 * The next component of a spec's path as that writer walks it, from *p
 * (the literal, or the regex): empty components skipped; a literal's
 * walk goes on only at a '/'; a component counts only when a '/' follows
 * it.  1 with *comp and *len (into the path, not NUL-terminated; for a
 * regex still to be simplified) and *p past it; 0 where the walk stops.
 */
int fc_bin6_next(const char **p, bool lit, const char **comp, size_t *len);
/* Room for element n in the array *p of *cap elements of size bytes
 * (doubled when full, 4 at first): 0, or -ENOMEM or -EOVERFLOW. */
int fc_bin6_grow(void **p, uint32_t *cap, uint32_t n, size_t size);
/* As fc_parse_bin, for a version 6 file (fc_parse_bin hands it over). */
int fc_parse_bin6(struct fc_load *l, int fd, const uint8_t *buf, size_t len);
/* Write d's specs as a version 6 file_contexts.bin to fd. */
int fc_write_bin6(struct fc_data *d, int fd, bool no_regex);

/* image_open.c: the handle answered from base's index image (the
 * engine's image.c maps it): d in place in the image, d's file names and
 * h's digest from it, SELABEL_OPT_VALIDATE checked.  0, or -errno when
 * there is none, it is stale or it does not check out (d and h are left
 * as they were: read the files). */
int fc_image_open(struct selabel_handle *h, struct fc_data *d,
		  const char *base);
void fc_image_detach(struct selabel_handle *h, struct fc_data *d);
/* open.c: h's data d is an index image's that turned out corrupt: the
 * data of the files (read once, under d's lock), now h's, or NULL if
 * they do not load either. */
struct fc_data *fc_image_fallback(struct selabel_handle *h, struct fc_data *d);

/* fc_lookup.c */
extern const struct lbl_ops fc_ops;
/* Normalise key as the reference does (collapse "//", drop a trailing
 * '/', apply .subs then .subs_dist) into *out: buf when it fits in size,
 * else malloc'd; *outlen its length.  rules, unless NULL: the index in
 * d->subs and d->dist_subs of the rule each applied, or -1. */
int fc_key(struct fc_data *d, const char *key, char *buf, size_t size,
	   char **out, size_t *outlen, int rules[2]);
/* Free what fc_key returned unless it is the caller's key or buffer. */
void fc_key_free(char *k, const char *key, const char *buf);
/* The data h answers from: its own, or, once an index image turned out
 * corrupt, the files' (fc_image_fallback). */
struct fc_data *fc_cur(const struct selabel_handle *h);
/* After an answer of d failed with EINVAL: the data to ask again (d's
 * index image turned out corrupt: the files'), or NULL. */
struct fc_data *fc_retry(struct selabel_handle *h, struct fc_data *d);

/* fc_partial6.c: selabel_hash_all_partial_matches as libselinux 3.8.1
 * and 3.11 compute it (the build's release, release.h), for the
 * normalised key: 1 and digest, 0 (no digest) or -errno (-EINVAL: a
 * regex PCRE2 rejects, or an index image that does not check out). */
int fc_hash_partial6(struct fc_data *d, const char *key,
		     uint8_t digest[LBL_SHA1_LEN]);

/* fc_explain.c: selabel_lookup_explain() of the file backend: 0 and
 * *exp, or -errno. */
struct selabel_explanation;
int fc_explain(struct selabel_handle *h, const char *key, int type,
	       struct selabel_explanation **exp);

/* fc_subs.c */
int fc_subs_load(struct selabel_handle *h, const char *path,
		 struct fc_sub **subs, size_t *n);
/* The substituted key (malloc'd), or NULL in *out if none applies;
 * *rule (unless rule is NULL): the index in subs of the rule applied, or
 * -1. */
int fc_subs_apply(const struct fc_sub *subs, size_t n, const char *key,
		  size_t keylen, char **out, int *rule);
void fc_subs_free(struct fc_sub *subs, size_t n);

void fc_data_free(struct fc_data *d);

#endif
