/* compute/: policy decisions, class and permission mapping, booleans, load. */
#ifndef SELINUX_COMPUTE_INTERNAL_H
#define SELINUX_COMPUTE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <selinux/selinux.h>

#include "../core/internal.h"

/*
 * Every helper returns >= 0 on success or -errno and leaves errno alone,
 * like core's; the exported functions end in RET_ERRNO().
 */

/* transact.c: one request and its answer on a selinuxfs transaction file. */
/*
 * Write req (reqlen bytes, in one write) to "mnt/name" opened read-write,
 * then read the answer in one read() into ans (size bytes, NUL-terminated
 * by us; the kernel's answers fit in a page, SIMPLE_TRANSACTION_LIMIT).
 * Returns the length read, or -errno (-ENOENT without selinuxfs, the
 * write's errno when the kernel refuses the request).
 */
ssize_t comp_transact(const char *name, const char *req, size_t reqlen,
		      char *ans, size_t size);
/*
 * The same with a printf-formatted request (no terminating NUL is sent)
 * and an answer buffer of one page, malloc'd into *ans.
 */
ssize_t comp_query(const char *name, char **ans, const char *fmt, ...)
    _printf_(3, 4);
/* The loaded policy's deny_unknown: 1, 0, or -errno. */
int comp_deny_unknown(void);
/* The same for reject_unknown. */
int comp_reject_unknown(void);

/*
 * compute_con.c: the create, relabel and member transactions on file
 * ("create" ...): "scon tcon kclass" and, for create only, the object's
 * name URL-encoded as a fourth field.  The answer (a context) in *newcon.
 */
int comp_compute_con(const char *file, const char *scon, const char *tcon,
		     security_class_t tclass, const char *objname,
		     char **newcon);

/* Turn a context answer ("con\0") into a malloc'd string in *con. */
int comp_answer_con(const char *ans, ssize_t len, char **con);

/*
 * The plain (translating) form of a call that takes two contexts and
 * returns one: translate scon and tcon to raw, call raw(), translate the
 * answer back.  raw() follows the helper convention.
 */
typedef int (*comp_con2_fn)(const char *scon, const char *tcon,
			    security_class_t tclass, const char *extra,
			    char **newcon);
int comp_translated(comp_con2_fn raw, const char *scon, const char *tcon,
		    security_class_t tclass, const char *extra, char **newcon);

/* mapping.c: selinux_set_mapping's table (the caller's class numbers). */
/*
 * Each of these is the identity while no mapping is installed.  With one,
 * a class outside it unmaps to 0 (and *unknown, when not NULL, is set to
 * true: the established library sets errno EINVAL there and carries on).
 */
security_class_t comp_unmap_class(security_class_t tclass, bool *unknown);
access_vector_t comp_unmap_perm(security_class_t tclass, access_vector_t tperm);
/* Kernel class to mapped; 0 and *unknown = true when not in the mapping. */
security_class_t comp_map_class(security_class_t kclass, bool *unknown);
/* Kernel permissions to mapped; 0 and *unknown when none maps. */
access_vector_t comp_map_perm(security_class_t tclass, access_vector_t kperm,
			      bool *unknown);
/*
 * Rewrite a kernel decision for kernel permissions into the caller's
 * mapped bits of tclass, applying deny_unknown to the permissions the
 * policy lacks (allowed when it is 0, audited when denied).
 */
void comp_map_decision(security_class_t tclass, struct av_decision *avd);
/* Whether a mapping is installed. */
bool comp_mapping_active(void);
/*
 * Called (with no lock held) when a mapping is installed, as the
 * established library resets its AVC then.  The AVC layer, which sits
 * above this one, registers avc_reset here.  NULL unregisters.
 */
void comp_set_mapping_hook(int (*hook)(void));

/* class_cache.c: what selinuxfs class/ says, discovered on first use. */
/* The kernel value of class name, or -errno (-EINVAL: not in policy). */
int comp_class_value(const char *name);
/*
 * The name of kernel class kclass, or of its permission bit kperm (one
 * bit; 0 for the class name alone), in *out: a pointer into the cache,
 * valid until selinux_flush_class_cache().  -EINVAL when not discovered.
 */
int comp_class_name(security_class_t kclass, const char **out);
int comp_perm_name(security_class_t kclass, access_vector_t kperm,
		   const char **out);
/*
 * A count that moves whenever a name's number may have changed: the
 * class cache flushed, a mapping installed or removed.  No lock.
 */
uint32_t comp_names_generation(void);
void comp_names_changed(void);
/*
 * The strings comp_class_name() and comp_perm_name() hand out stay valid
 * between these two calls: selinux_flush_class_cache() (which another
 * thread's AVC reset may run) waits to free them.  Hold briefly, and call
 * nothing of the caller's meanwhile.
 */
void comp_names_hold(void);
void comp_names_release(void);
/* The kernel bit of permission name of kernel class kclass, or -EINVAL. */
int comp_perm_value(security_class_t kclass, const char *name,
		    access_vector_t *out);

/* booleans.c */
/*
 * Open booleans/NAME with flags; when it does not exist, try the name
 * booleans.subs_dist gives it, as the established library does.
 */
int comp_bool_open(const char *name, int flags);
/* Read "active pending" of a boolean into *active and *pending. */
int comp_bool_get(const char *name, int *active, int *pending);
int comp_bool_set(const char *name, int value);
int comp_bool_commit(void);
/* boolean_sub.c: the substitute name of a boolean, malloc'd in *out. */
int comp_boolean_sub(const char *name, char **out);

/* load_policy.c */
int comp_load_policy(const void *data, size_t len);
/* mkload_policy.c */
int comp_mkload_policy(void);
/* init_load_policy.c: test hooks for the paths init uses (NULL: the
 * defaults "/proc/cmdline", "/sys/fs/selinux", "/selinux"). */
void comp_set_init_paths(const char *cmdline, const char *mnt,
			 const char *oldmnt);

#endif
