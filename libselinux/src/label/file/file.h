/*
 * label/file/file.h: what the file_contexts backend offers beyond its
 * handle (whose constructor, lbl_file_open, is the front's: internal.h):
 * the writers sefcontext_compile links from the static archive.
 */
#ifndef SELINUX_LABEL_FILE_H
#define SELINUX_LABEL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* compile.c: compile the text file_contexts in into the .bin out of
 * the given version: 5 (what Debian 12's library reads) or 6 (the
 * big-endian tree of libselinux 3.8 and later; -EINVAL for any other),
 * with serialized regexes unless no_regex; validate (may be NULL)
 * checks each context.
 * Every regex is compiled as it is read (a bad one fails the file).
 * 0 or -errno; *stage says what failed: LBL_FC_READ (reading or
 * parsing in, reported through the log callback) or LBL_FC_WRITE
 * (writing out: *what names the call that failed). */
enum { LBL_FC_READ, LBL_FC_WRITE };
int lbl_fc_compile(const char *in, const char *out, int version, bool no_regex,
		   int (*validate)(const char *ctx), int *stage,
		   const char **what);

/* Test hook (bin6_write.c): write version 6 files with the order of
 * equal literal specs of release (308: 3.8.1's, 311: 3.11's, 304: ours
 * for 3.4) instead of the build's; 0 restores the build's.  Not
 * exported. */
void lbl_test_bin6_order(unsigned release);

/* image_write.c: write base's index image, base.idx (or out, if not
 * NULL) (index/image.h), for what a default selabel_open of base reads
 * (base, .homedirs, .local, as text or .bin, .subs, .subs_dist).  0 or
 * -errno, with *why saying what went wrong (the
 * open of the files logged a message - then no image is written and an
 * old one removed, as a reader must see those messages -, they kept
 * changing, a write failed). */
int lbl_fc_write_index(const char *base, const char *out, const char **why);
/* The same in two steps: the image of base in memory (*img, malloc'd,
 * *len bytes), 0 or -errno with *why; and an image put at path (a
 * temporary file beside it renamed over it, mode 0644), 0 or -errno. */
int lbl_fc_index_image(const char *base, uint8_t **img, size_t *len,
		       const char **why);
int lbl_fc_put_index(const char *path, const uint8_t *img, size_t len);
/* The image img (len bytes), written for other files, stamped with the
 * identities of base's files and put at base.idx (or out): when an open
 * of base would read the same bytes as its writer's did and every file
 * of base present holds the bytes it records (a copy: libsemanage's
 * install, an image builder's).  0; -ESTALE when the files are not its
 * own; -EINVAL when img is not an image of this build; or -errno. */
int lbl_fc_restamp_index(const uint8_t *img, size_t len, const char *base,
			 const char *out);
/* base.idx made fresh at least cost: 1 when it was (every file as it
 * records), 2 when it was a copy's and is stamped now (as above), 3
 * when base was indexed again (lbl_fc_write_index); or -errno with *why. */
int lbl_fc_refresh_index(const char *base, const char **why);

/* durable.c: the file written through fd, named tmp (beside path),
 * synced and renamed over path, then path's directory synced, so that
 * after a crash path is the old file or the whole new one, and once
 * this returns, the new one.  fd stays open (the caller closes it; tmp
 * is the caller's to unlink on failure).  0 or -errno, *what naming
 * the call that failed ("fsync", "rename"). */
int lbl_fc_install(int fd, const char *tmp, const char *path,
		   const char **what);

#endif
