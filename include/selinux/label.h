/*
 * selinux/label.h: labelling lookups (file contexts, media, X, databases).
 *
 * A handle from selabel_open() answers "which context does this object
 * get?" from the policy's configuration files.  Lookups on one handle may
 * run concurrently from many threads; opening, closing and selabel_stats
 * must not race with them.
 */
#ifndef _SELABEL_H_
#define _SELABEL_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <selinux/selinux.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An open labelling handle (opaque). */
struct selabel_handle;

/* Backends. */
#define SELABEL_CTX_FILE 0 /* file_contexts: key = path, type = mode */
#define SELABEL_CTX_MEDIA 1 /* media: key = media name ("cdrom") */
#define SELABEL_CTX_X 2 /* x_contexts: type = SELABEL_X_* */
#define SELABEL_CTX_DB 3 /* sepgsql_contexts: type = SELABEL_DB_* */
#define SELABEL_CTX_ANDROID_PROP 4 /* not built: selabel_open -> EINVAL */
#define SELABEL_CTX_ANDROID_SERVICE 5 /* not built either */

/* Options (struct selinux_opt .type); a NULL value means "off". */
#define SELABEL_OPT_UNUSED 0
#define SELABEL_OPT_VALIDATE 1 /* check each context when loading */
#define SELABEL_OPT_BASEONLY 2 /* file: skip .homedirs and .local */
#define SELABEL_OPT_PATH 3 /* the file to read (file: may repeat) */
#define SELABEL_OPT_SUBSET 4 /* file: keep only specs under this prefix */
#define SELABEL_OPT_DIGEST 5 /* keep a SHA-1 of the files read */
#define SELABEL_NOPT 6

/*
 * Open a handle of backend with nopts options.
 *
 * backend is SELABEL_CTX_FILE (file_contexts: lookups take a path and a
 * file mode), SELABEL_CTX_MEDIA (media: a media name such as "cdrom"),
 * SELABEL_CTX_X (x_contexts: an X object name and a SELABEL_X_* type) or
 * SELABEL_CTX_DB (sepgsql_contexts: a database object name and a
 * SELABEL_DB_* type).  Each option is a struct selinux_opt, its type one
 * of SELABEL_OPT_VALIDATE (check each context against the loaded
 * policy), SELABEL_OPT_BASEONLY (file: skip .homedirs and .local),
 * SELABEL_OPT_PATH (the file to read), SELABEL_OPT_SUBSET (file: keep
 * only the specs under that path prefix) and SELABEL_OPT_DIGEST (keep a
 * SHA-1 of the files read, for selabel_digest()); a NULL value turns an
 * option off.
 *
 * Without SELABEL_OPT_PATH
 * the policy's default file is read (selinux_file_context_path() ...).
 * The file backend also reads PATH.homedirs and PATH.local (unless
 * BASEONLY), PATH.subs_dist and PATH.subs, and uses PATH.bin instead of
 * PATH when it is at least as new.  Several PATH options are merged in
 * order (Debian's 3.4 reads only the first).  Returns the handle, or NULL
 * and errno: ENOENT (no such file), EINVAL (a malformed file, an invalid
 * context or duplicate specs with VALIDATE, an unknown backend), ENOMEM.
 */
extern struct selabel_handle *selabel_open(unsigned int backend,
					   const struct selinux_opt *opts,
					   unsigned nopts);

/* Release the handle and everything it returned without copying. */
extern void selabel_close(struct selabel_handle *handle);

/*
 * The context for key (a path for the file backend) and type (its mode,
 * 0 for any file type) in *con, to be freed with freecon().  The plain
 * call translates through mcstrans; the _raw one does not.  Returns 0, or
 * -1 and errno: ENOENT (nothing matches, or the spec says <<none>>),
 * EINVAL (key NULL or empty, or a regex PCRE2 rejects is reached - the
 * reference fails there too, leaving errno unchanged), ENOMEM.
 *
 * Example: print the label file_contexts gives each path named on the command
 * line, as a regular file:
 *   #include <stdio.h>
 *   #include <sys/stat.h>
 *   #include <selinux/selinux.h>
 *   #include <selinux/label.h>
 *
 *   int main(int argc, char **argv)
 *   {
 *       struct selabel_handle *h;
 *       char *con;
 *
 *       h = selabel_open(SELABEL_CTX_FILE, NULL, 0);
 *       if (!h) {
 *           perror("selabel_open");
 *           return 1;
 *       }
 *       for (int i = 1; i < argc; i++) {
 *           if (selabel_lookup(h, &con, argv[i], S_IFREG) == 0) {
 *               printf("%s\t%s\n", argv[i], con);
 *               freecon(con);
 *           } else {
 *               perror(argv[i]);
 *           }
 *       }
 *       selabel_close(h);
 *       return 0;
 *   }
 *
 * A file_contexts handle opened on an index image (file_contexts.idx,
 * written by sefcontext_compile) maps it shared for the handle's life.
 * If that file is truncated in place under it (cp over it: open with
 * O_TRUNC, then write), the next lookup touching a page past its new
 * end kills the process with SIGBUS, as 3.8.1 and 3.11 do on their
 * mapped .bin; the library installs no signal handler.  Replace the
 * file by a rename (sefcontext_compile does, install(1) and cp
 * --remove-destination too): open handles keep the old file.
 */
extern int selabel_lookup(struct selabel_handle *handle, char **con,
			  const char *key, int type);
extern int selabel_lookup_raw(struct selabel_handle *handle, char **con,
			      const char *key, int type);

/* File backend: true when some spec could match key or a path below it
 * (a complete or partial regex match); false otherwise, and when the
 * first such spec says <<none>>. */
extern bool selabel_partial_match(struct selabel_handle *handle,
				  const char *key);

/*
 * Compare the digest of the specs under a directory with its own.  File
 * backend: hash (SHA-1 of each regex, mode and context) the specs
 * partially matching key, and read the "security.sehash" attribute of
 * key.  *calculated_digest and *xattr_digest are malloc'd (NULL when
 * absent), *digest_len is 20.  True when both exist and are equal.
 */
extern bool selabel_get_digests_all_partial_matches(struct selabel_handle *rec,
						    const char *key,
						    uint8_t **calculated_digest,
						    uint8_t **xattr_digest,
						    size_t *digest_len);
/* The same hash into digest (20 bytes); false when nothing matches. */
extern bool selabel_hash_all_partial_matches(struct selabel_handle *rec,
					     const char *key, uint8_t *digest);

/*
 * File backend: look up key and each alias (a NULL-terminated list);
 * an exact (literal) spec match wins at once, otherwise the match with
 * the longest fixed prefix.  0, or -1 and errno (ENOENT; ENOTSUP for
 * other backends).
 */
extern int selabel_lookup_best_match(struct selabel_handle *rec, char **con,
				     const char *key, const char **aliases,
				     int type);
extern int selabel_lookup_best_match_raw(struct selabel_handle *rec,
					 char **con, const char *key,
					 const char **aliases, int type);

/*
 * The digest of the specification files a handle read.  With
 * SELABEL_OPT_DIGEST: their SHA-1 (in *digest, *digest_len = 20) and
 * their names (*specfiles, *num_specfiles), owned by the handle.  0, or -1 and EINVAL without the option.
 */
extern int selabel_digest(struct selabel_handle *rec, unsigned char **digest,
			  size_t *digest_len, char ***specfiles,
			  size_t *num_specfiles);

enum selabel_cmp_result {
	SELABEL_SUBSET,
	SELABEL_EQUAL,
	SELABEL_SUPERSET,
	SELABEL_INCOMPARABLE
};

/*
 * Compare the specs of two handles of the same backend; neither handle
 * changes (const since upstream 3.6).
 */
extern enum selabel_cmp_result selabel_cmp(const struct selabel_handle *h1,
					   const struct selabel_handle *h2);

/* Log (SELINUX_WARNING) every spec no lookup has matched yet. */
extern void selabel_stats(struct selabel_handle *handle);

/* x_contexts object types. */
#define SELABEL_X_PROP 1
#define SELABEL_X_EXT 2
#define SELABEL_X_CLIENT 3
#define SELABEL_X_EVENT 4
#define SELABEL_X_SELN 5
#define SELABEL_X_POLYPROP 6
#define SELABEL_X_POLYSELN 7

/* sepgsql_contexts object types. */
#define SELABEL_DB_DATABASE 1
#define SELABEL_DB_SCHEMA 2
#define SELABEL_DB_TABLE 3
#define SELABEL_DB_COLUMN 4
#define SELABEL_DB_SEQUENCE 5
#define SELABEL_DB_VIEW 6
#define SELABEL_DB_PROCEDURE 7
#define SELABEL_DB_BLOB 8
#define SELABEL_DB_TUPLE 9
#define SELABEL_DB_LANGUAGE 10
#define SELABEL_DB_EXCEPTION 11
#define SELABEL_DB_DATATYPE 12

#ifdef __cplusplus
}
#endif
#endif
