/*
 * files.h: the selinuxfs files (files.c), independent of FUSE: what each
 * one answers to a read and does with a write, in the byte formats of the
 * Linux kernel.  Below fuse.c and main.c; uses policy.h and the state
 * layer (state.h, status.h, log.h).
 */
#ifndef SELINUXFSD_FILES_H
#define SELINUXFSD_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sfs_kind {
	SFS_DIR,
	SFS_PLAIN, /* read: generated text; write: a command */
	SFS_TRANSACTION, /* write a request, read the answer */
	SFS_STATUS, /* mmap-able page */
};
/* A node: a static file, or an entry of a policy-derived directory. */
struct sfs_node {
	uint64_t ino;
	enum sfs_kind kind;
	unsigned mode; /* with S_IFDIR / S_IFREG */
};
/* Root is inode 1.  Returns 0 and fills *node, or -ENOENT. */
int sfs_lookup(uint64_t parent, const char *name, struct sfs_node *node);
int sfs_getnode(uint64_t ino, struct sfs_node *node);
/* Directory listing: calls fn for each child, in order; stops when fn
 * returns non-zero.  The first child is index 0. */
int sfs_readdir(uint64_t dir, uint64_t from,
		int (*fn)(void *ctx, const char *name,
			  const struct sfs_node *node, uint64_t next),
		void *ctx);
/* The content of a plain file, malloc'd. */
int sfs_read(uint64_t ino, char **data, size_t *len);
/* A write to a plain file (uid: the caller's); returns the count taken. */
int sfs_write(uint64_t ino, const char *data, size_t len, uint64_t off,
	      unsigned uid);
/* A transaction: the request and the answer (malloc'd) it gets. */
int sfs_transact(uint64_t ino, const char *req, size_t len, unsigned uid,
		 char **ans, size_t *anslen);
/* Start: load the first policy (NULL: none yet) and set enforcing. */
int sfs_start(const void *policy, size_t len, int enforcing);
/* A whole policy written to "load" (handle.c gathers the pieces). */
int sfs_load(const void *data, size_t len, unsigned uid);
/* Whether the first bytes written to "load" can start a policy (when
 * not, the write fails at once, whatever follows). */
bool sfs_load_header_ok(const void *data, size_t len);
bool sfs_is_load(uint64_t ino);
/* "policy", as the kernel opens it: the caller must be allowed to read
 * it (root: EACCES for others) and no other open may be in progress
 * (EBUSY); then *data, *len are the policy's bytes as it is now, the
 * image held (img) until sfs_policy_close.  -EINVAL with no policy. */
struct pol_image;
bool sfs_is_policy(uint64_t ino);
int sfs_policy_open(unsigned uid, struct pol_image **img, const char **data,
		    size_t *len);
void sfs_policy_close(struct pol_image *img);
uint64_t sfs_status_ino(void);

#endif
