/*
 * selinuxfsd: the kernel's SELinux security server, in userspace.
 *
 * policy.c  decides: the loaded policy (libsepol's policydb and sidtab),
 *           contexts <-> SIDs, access vectors (with a decision cache),
 *           transitions, user SIDs, validatetrans, booleans, names.
 * context.c the kernel's grammar of context strings, and the SID table's
 *           index (context <-> SID in O(1)); constraint.c the kernel's
 *           constraint evaluator.  Both speak libsepol's types: context.h.
 * status.c  the status page that selinux_status_open() maps.
 * files.c   the selinuxfs files: what each one answers to a read and does
 *           with a write, in the byte formats of the Linux kernel.
 * fuse.c    presents files.c as a file system (libfuse3's low-level API).
 * main.c    options, mount, signals.
 *
 * Everything runs on the one FUSE session thread: no locks.  Every
 * function that can fail returns >= 0 or -errno, as the kernel does.
 */
#ifndef SELINUXFSD_SECSRV_H
#define SELINUXFSD_SECSRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An access decision, as the kernel's "access" file reports it. */
struct srv_avd {
	uint32_t allowed;
	uint32_t decided;
	uint32_t auditallow;
	uint32_t auditdeny;
	uint32_t seqno;
	uint32_t flags; /* AVD_FLAGS_PERMISSIVE: the source is permissive */
};
#define SRV_AVD_FLAGS_PERMISSIVE 0x0001

enum srv_sid_kind { SRV_TRANSITION, SRV_MEMBER, SRV_CHANGE };

/* policy.c */
/* Load a binary policy image (replaces the loaded one); -EINVAL if bad. */
int pol_load(const void *data, size_t len);
bool pol_loaded(void);
/* Free everything (at exit). */
void pol_unload(void);
/* The policy as the kernel's "policy" file gives it: a fresh image. */
int pol_image(void **data, size_t *len);
/* Bumped on each load and boolean commit (the AVC's seqno). */
uint32_t pol_seqno(void);
/* Number of loads since start. */
uint32_t pol_mls(void);
uint32_t pol_deny_unknown(void);
uint32_t pol_reject_unknown(void);

/* A context (len bytes, a trailing NUL allowed) to a SID: -EINVAL. */
int pol_context_to_sid(const char *con, size_t len, uint32_t *sid);
/* The context of sid, malloc'd, with its length including the NUL. */
int pol_sid_to_context(uint32_t sid, char **con, size_t *len);
int pol_compute_av(uint32_t ssid, uint32_t tsid, uint16_t tclass,
		   struct srv_avd *avd);
/* name: the object's name for named type transitions, or NULL. */
int pol_compute_sid(uint32_t ssid, uint32_t tsid, uint16_t tclass,
		    enum srv_sid_kind kind, const char *name, uint32_t *out);
/* The SIDs user may reach from fromsid; *sids malloc'd. */
int pol_user_sids(uint32_t fromsid, const char *user, uint32_t **sids,
		  uint32_t *n);
/* 0 when the transition is allowed, -EPERM when a constraint denies. */
int pol_validatetrans(uint32_t oldsid, uint32_t newsid, uint32_t tasksid,
		      uint16_t tclass);

/* Booleans: index 0 .. pol_nbools() - 1. */
uint32_t pol_nbools(void);
const char *pol_bool_name(uint32_t i);
int pol_bool_find(const char *name);
void pol_bool_get(uint32_t i, int *active, int *pending);
void pol_bool_set_pending(uint32_t i, int value);
/* Make the pending values active (when any differs, or always). */
int pol_bools_commit(void);

/* Classes 1 .. pol_nclasses(); permissions 1 .. pol_nperms(c). */
uint32_t pol_nclasses(void);
const char *pol_class_name(uint32_t c);
uint32_t pol_nperms(uint32_t c);
const char *pol_perm_name(uint32_t c, uint32_t p);

/* Initial SIDs the kernel names (1 .. SRV_NINITSIDS - 1). */
#define SRV_NINITSIDS 28
const char *pol_initsid_name(uint32_t sid);
/* Policy capabilities the kernel names (0 .. n - 1). */
uint32_t pol_npolcaps(void);
const char *pol_polcap_name(uint32_t i);
bool pol_polcap(uint32_t i);

/* The decision cache's counters (avc/cache_stats). */
struct srv_cache_stats {
	uint32_t lookups, hits, misses, allocations, reclaims, frees;
};
void pol_cache_stats(struct srv_cache_stats *st);
uint32_t pol_cache_entries(void);

/* status.c: the page selinux_status_open() maps. */
struct srv_status {
	uint32_t version; /* 1 */
	uint32_t sequence; /* odd while an update is in progress */
	uint32_t enforcing;
	uint32_t policyload;
	uint32_t deny_unknown;
};
const struct srv_status *status_page(void);
/* Record a change; calls the hook registered (fuse.c pushes the page). */
void status_update(uint32_t enforcing, uint32_t policyload,
		   uint32_t deny_unknown);
void status_set_hook(void (*hook)(void));

/* files.c: the file system's content, independent of FUSE. */
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
/* A whole policy written to "load" (fuse.c gathers the chunks). */
int sfs_load(const void *data, size_t len, unsigned uid);
bool sfs_is_load(uint64_t ino);
uint64_t sfs_status_ino(void);

/* fuse.c: mount, serve until a signal, unmount (0, or 1-3). */
struct fuse_args;
int srv_fuse_run(struct fuse_args *args, const char *mountpoint,
		 int foreground);

/* files.c: whether enforcing (invalid computed contexts are refused). */
bool srv_enforcing(void);

/* main.c */
extern int srv_verbose;
void srv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
