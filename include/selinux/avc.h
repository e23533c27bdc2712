/*
 * selinux/avc.h: the userspace access vector cache, for object managers
 * (dbus, systemd, X servers) that enforce policy on their own objects, and
 * the kernel's status page.
 *
 * There is one AVC per process.  It maps security contexts to SIDs
 * (pointers that stay valid until avc_destroy()), caches the security
 * server's decisions keyed by (source SID, target SID, class), logs
 * denials through the log callback and follows policy reloads and
 * enforcing changes through the selinuxfs "status" page (or, without it,
 * the kernel's netlink socket).
 *
 * Unless stated otherwise a function returns 0 on success and -1 with
 * errno set on failure.  struct av_decision, security_class_t,
 * access_vector_t, struct selinux_opt, selinux_check_access() and
 * checkPasswdAccess() are declared in <selinux/selinux.h>.
 */
#ifndef SELINUX_AVC_H
#define SELINUX_AVC_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <selinux/selinux.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A SID: the AVC's handle for one context string.  The same context always
 * yields the same pointer, and SIDs live until avc_destroy() (they are not
 * reference counted).
 *
 * id numbers the SIDs of the table 1, 2, 3 ... in the order they were
 * entered (upstream 3.8 and later call the member id); a program can use
 * it in place of the context string as a key.  refcnt is the name 3.4 and
 * older use for the same unsigned int: it reads as the id, which is never
 * 0 while the SID is valid.  avc_destroy() sets it to 0 and numbering
 * starts again at 1.  The layout is that of every release: a pointer, then
 * one unsigned int.
 */
struct security_id {
	char *ctx;
	/* __extension__: an unnamed union is C11; older -pedantic builds
	 * would warn about it. */
#ifdef __GNUC__
	__extension__
#endif
	union {
		unsigned int refcnt;
		unsigned int id;
	};
};
typedef struct security_id *security_id_t;

/* "Any SID", for avc_add_callback(). */
#define SECSID_WILD ((security_id_t)NULL)

/*
 * The context of sid, malloc'd into *ctx (free it with freecon()); the
 * plain form translates it to the mcstrans form when a translation
 * daemon runs.  -1 with ENOMEM, or EINVAL for a SID with no references.
 */
extern int avc_sid_to_context(security_id_t sid, char **ctx);
extern int avc_sid_to_context_raw(security_id_t sid, char **ctx);

/*
 * The SID of context ctx in *sid, entered in the SID table if new (the
 * context is not checked against the policy here: the security server
 * rejects it at the first decision).  The plain form first translates ctx
 * from the mcstrans form.  -1 with ENOMEM; EINVAL when the AVC is not
 * open (the established library aborts on an assertion there).
 */
extern int avc_context_to_sid(const char *ctx, security_id_t *sid);
extern int avc_context_to_sid_raw(const char *ctx, security_id_t *sid);

/*
 * Deprecated no-ops kept for the ABI: SIDs are not reference counted.
 * Both return 1.
 */
extern int sidget(security_id_t sid)
#ifdef __GNUC__
    __attribute__((deprecated))
#endif
    ;
extern int sidput(security_id_t sid)
#ifdef __GNUC__
    __attribute__((deprecated))
#endif
    ;

/*
 * The SID of one of the kernel's initial SIDs.  name is its name
 * ("kernel", "unlabeled" ...), asked through
 * security_get_initial_context_raw(): its errno (ENOENT for an unknown
 * name) on failure.
 */
extern int avc_get_initial_sid(const char *name, security_id_t *sid);

/*
 * A cache entry reference: avc_has_perm() remembers the entry it used
 * here, and the next call with the same reference and the same SIDs and
 * class skips the hash lookup.  Initialise with avc_entry_ref_init()
 * before first use.  A reference stays safe to pass after a cache reset
 * (the entry is then simply not reused); not after avc_destroy().
 */
struct avc_entry;
struct avc_entry_ref {
	struct avc_entry *ae;
};

#define avc_entry_ref_init(aeref) ((aeref)->ae = NULL)

/*
 * Callbacks for avc_init() (avc_open() callers use selinux_set_callback()
 * instead).  A NULL structure means the default.
 */

/* Memory for the AVC's own structures; default malloc() and free(). */
struct avc_memory_callback {
	/* malloc() equivalent; should set errno on failure. */
	void *(*func_malloc)(size_t size);
	/* free() equivalent. */
	void (*func_free)(void *ptr);
};

/* Logging; default: the SELINUX_CB_LOG and SELINUX_CB_AUDIT callbacks. */
struct avc_log_callback {
	/* Log a printf-style message (no message type is passed). */
	void
#ifdef __GNUC__
	    __attribute__((format(printf, 1, 2)))
#endif
	    (*func_log)(const char *fmt, ...);
	/*
	 * Write a description of auditdata (for class cls) into msgbuf, at
	 * most msgbufsize bytes; it is inserted in the denial message.
	 */
	void (*func_audit)(void *auditdata, security_class_t cls, char *msgbuf,
			   size_t msgbufsize);
};

/*
 * Threads: with these, avc_init() starts a thread that runs
 * avc_netlink_loop() for the kernel's notifications, and avc_has_perm()
 * no longer polls the status page.  Without them, no thread is started.
 */
struct avc_thread_callback {
	/* Start a thread running run; return an opaque handle. */
	void *(*func_create_thread)(void (*run)(void));
	/* Stop the thread of that handle and free it. */
	void (*func_stop_thread)(void *thread);
};

/*
 * Locks guarding the AVC's tables.  Without them this library still
 * locks, with a mutex of its own (the established library does not lock
 * at all then).
 */
struct avc_lock_callback {
	/* Create a lock; return an opaque pointer to it. */
	void *(*func_alloc_lock)(void);
	/* Take the lock, blocking if necessary. */
	void (*func_get_lock)(void *lock);
	/* Release it. */
	void (*func_release_lock)(void *lock);
	/* Destroy it. */
	void (*func_free_lock)(void *lock);
};

/* avc_open() options (struct selinux_opt.type). */
/* Ignored; fills unused slots of an option array. */
#define AVC_OPT_UNUSED 0
/*
 * Fix the AVC's enforcing mode: value non-NULL enforcing, NULL
 * permissive; the kernel's setenforce then no longer changes it.
 */
#define AVC_OPT_SETENFORCE 1

/*
 * Open the AVC with message prefix msgprefix (NULL: "uavc"; at most 15
 * characters are kept) and the given callbacks (any may be NULL).  Reads
 * the enforcing mode and maps the status page; fails with their errno
 * (ENOENT without selinuxfs or its status file, ENOTCONN when the
 * security server is gone), logging why.  Returns 0 at once when the AVC
 * is already open.  Deprecated for avc_open().
 */
extern int avc_init(const char *msgprefix,
		    const struct avc_memory_callback *mem_callbacks,
		    const struct avc_log_callback *log_callbacks,
		    const struct avc_thread_callback *thread_callbacks,
		    const struct avc_lock_callback *lock_callbacks)
#ifdef __GNUC__
    __attribute__((deprecated("Use avc_open and selinux_set_callback")))
#endif
    ;

/*
 * avc_init() with prefix "avc" and the selinux_set_callback() callbacks;
 * opts (nopts of them, NULL when 0) are AVC_OPT_* options, applied even
 * when the AVC is already open.  0, or -1 as avc_init().  opts is only
 * read (const since upstream 3.7; callers passing a plain pointer are
 * unaffected).
 */
extern int avc_open(const struct selinux_opt *opts, unsigned nopts);

/*
 * Formerly freed unreferenced SIDs; SIDs are no longer reference counted
 * and nothing is freed before avc_destroy().  A no-op.
 */
extern void avc_cleanup(void);

/*
 * Flush the cache and zero the statistics (SIDs stay valid), then call
 * the AVC_CALLBACK_RESET callbacks.  0, or -1 with the errno of the first
 * callback that failed.  0 when the AVC is not open.
 */
extern int avc_reset(void);

/*
 * Free the AVC: cache, SIDs (every security_id_t becomes invalid), the
 * event callbacks, the status page.  avc_open() may be called again.
 * Does nothing when the AVC is not open (the established library aborts).
 */
extern void avc_destroy(void);

/*
 * Whether ssid may perform requested on tsid, without logging.  requested
 * holds bits of tclass, in the caller's class mapping if one is set; the
 * answer comes from the cache or, on a miss, the security server
 * (security_compute_av_flags_raw).  Nothing is logged.
 * *avd (may be NULL) receives the decision; aeref (may be NULL) is
 * updated to the entry used.
 *
 * Returns 0 when granted; -1 with EACCES when a permission is denied (or
 * requested is 0) in enforcing mode.  In permissive mode, or for a
 * permissive domain (SELINUX_AVD_FLAGS_PERMISSIVE), denied permissions
 * are granted and added to the cached entry, so they are denied in *avd
 * (and audited by avc_has_perm) this once only.  Other errno values: the
 * security server's (EINVAL for an invalid context in enforcing mode; in
 * permissive mode that is 0 with errno 0), EAGAIN when a policy reload
 * overtook the request, EINVAL when the AVC is not open.  A security
 * server that died answers nothing: a decision cached before still
 * answers, any other request fails with ENOTCONN, in permissive mode
 * too (selinux.h, "When the security server is gone").
 */
extern int avc_has_perm_noaudit(security_id_t ssid, security_id_t tsid,
				security_class_t tclass,
				access_vector_t requested,
				struct avc_entry_ref *aeref,
				struct av_decision *avd);

/*
 * avc_has_perm_noaudit() followed by avc_audit(): the same result and
 * errno.  auditdata is passed to the audit callback.
 *
 * Example: ask whether the calling process may read files of the context given
 * on the command line:
 *   #include <errno.h>
 *   #include <stdio.h>
 *   #include <selinux/selinux.h>
 *   #include <selinux/avc.h>
 *
 *   int main(int argc, char **argv)
 *   {
 *       security_id_t self, file;
 *       security_class_t tclass;
 *       access_vector_t read;
 *       char *con;
 *       int rc;
 *
 *       if (argc != 2 || avc_open(NULL, 0) < 0 || getcon(&con) < 0)
 *           return 2;
 *       rc = avc_context_to_sid(con, &self);
 *       freecon(con);
 *       if (rc < 0 || avc_context_to_sid(argv[1], &file) < 0)
 *           return 2;
 *       tclass = string_to_security_class("file");
 *       read = string_to_av_perm(tclass, "read");
 *       if (!tclass || !read)
 *           return 2;
 *       rc = avc_has_perm(self, file, tclass, read, NULL, NULL);
 *       if (rc < 0 && errno != EACCES)
 *           perror("avc_has_perm");
 *       printf("%s\n", rc == 0 ? "allowed" : "denied");
 *       avc_destroy();
 *       return rc == 0 ? 0 : 1;
 *   }
 */
extern int avc_has_perm(security_id_t ssid, security_id_t tsid,
			security_class_t tclass, access_vector_t requested,
			struct avc_entry_ref *aeref, void *auditdata);

/*
 * Log an access decision as the kernel does.  The decision is avd on
 * requested, result being what avc_has_perm_noaudit() returned; the
 * message reads:
 *   "avc:  denied  { read write } for  scontext=... tcontext=...
 *    tclass=file permissive=0"
 * Denials are logged when in avd->auditdeny, grants when in auditallow.
 * The text of the audit callback goes after "for ".
 */
extern void avc_audit(security_id_t ssid, security_id_t tsid,
		      security_class_t tclass, access_vector_t requested,
		      struct av_decision *avd, int result, void *auditdata);

/*
 * The SID of a new object of tclass created by ssid under tsid.  It is
 * computed by security_compute_create_raw() and cached with the decision
 * of the same triple.  *newsid NULL and -1 with the security server's errno on
 * failure.
 */
extern int avc_compute_create(security_id_t ssid, security_id_t tsid,
			      security_class_t tclass, security_id_t *newsid);

/* The same for polyinstantiation (security_compute_member_raw), uncached. */
extern int avc_compute_member(security_id_t ssid, security_id_t tsid,
			      security_class_t tclass, security_id_t *newsid);

/* Security events, for avc_add_callback(). */
#define AVC_CALLBACK_GRANT 1
#define AVC_CALLBACK_TRY_REVOKE 2
#define AVC_CALLBACK_REVOKE 4
#define AVC_CALLBACK_RESET 8
#define AVC_CALLBACK_AUDITALLOW_ENABLE 16
#define AVC_CALLBACK_AUDITALLOW_DISABLE 32
#define AVC_CALLBACK_AUDITDENY_ENABLE 64
#define AVC_CALLBACK_AUDITDENY_DISABLE 128

/*
 * Register a callback for AVC events.  callback is called on the events
 * of the events mask that concern (ssid, tsid, tclass, perms);
 * SECSID_WILD matches any SID.  Only AVC_CALLBACK_RESET
 * happens in practice (avc_reset(), a policy load, a switch to enforcing
 * mode); it is called with all other arguments 0 and no AVC lock held.
 * Callbacks last until avc_destroy().  -1 with ENOMEM.
 */
extern int avc_add_callback(
    int (*callback)(uint32_t event, security_id_t ssid, security_id_t tsid,
		    security_class_t tclass, access_vector_t perms,
		    access_vector_t *out_retained),
    uint32_t events, security_id_t ssid, security_id_t tsid,
    security_class_t tclass, access_vector_t perms);

/* Statistics are kept (the structure below is filled). */
#define AVC_CACHE_STATS 1

/*
 * Counters since avc_open() or avc_reset().  entry_*: avc_has_perm calls
 * (entry_hits: the caller's avc_entry_ref matched, entry_discards: it did
 * not); cav_*: hash lookups (probes: chain entries visited on hits).
 */
struct avc_cache_stats {
	unsigned entry_lookups;
	unsigned entry_hits;
	unsigned entry_misses;
	unsigned entry_discards;
	unsigned cav_lookups;
	unsigned cav_hits;
	unsigned cav_probes;
	unsigned cav_misses;
};

/* Copy the counters into *stats. */
extern void avc_cache_stats(struct avc_cache_stats *stats);

/*
 * Log the size of the cache.  The message (SELINUX_INFO) reads "avc:  N
 * AV entries and U/512 buckets used, longest chain length L".
 */
extern void avc_av_stats(void);

/* The same for the SID table: "... N SID entries and U/128 buckets ...". */
extern void avc_sid_stats(void);

/*
 * Open the AVC's netlink socket for the kernel's notifications.  They are
 * NETLINK_SELINUX messages on setenforce and policy load, the fallback
 * where the status page cannot be mapped.  The socket is non-blocking
 * unless blocking.  Returns 0, or -1 with the errno of socket() or
 * bind().
 */
extern int avc_netlink_open(int blocking);

/*
 * Receive and handle messages until the socket fails; then close it.
 * For a thread of avc_init()'s thread callbacks.
 */
extern void avc_netlink_loop(void);

/* Close the socket (nothing when it is not open). */
extern void avc_netlink_close(void);

/*
 * Hand the socket to the caller's main loop: returns its fd (-1 when not
 * open); avc_has_perm() stops polling the status page until
 * avc_netlink_release_fd().  When the fd is readable, call
 * avc_netlink_check_nb().
 */
extern int avc_netlink_acquire_fd(void);
extern void avc_netlink_release_fd(void);

/*
 * Handle every netlink message waiting, without blocking.  Returns 0
 * when none is left, -1 with errno (EBADF when not open) on a receive
 * error.
 */
extern int avc_netlink_check_nb(void);

/*
 * Map the selinuxfs "status" page read-only.  0 when mapped (or already
 * open); when it cannot be opened or mapped and fallback is non-zero,
 * open the netlink socket instead and return 1; otherwise -1 with errno
 * (ENOENT without selinuxfs or status file).  A security server that is
 * gone (ENOTCONN) gets no fallback: -1 with ENOTCONN.
 */
extern int selinux_status_open(int fallback);

/* Unmap the page (or close the fallback socket); nothing if not open. */
extern void selinux_status_close(void);

/*
 * 1 when the page changed since the previous call (enforcing mode, policy
 * load count or deny_unknown), 0 if not; the first call after
 * selinux_status_open() returns 0 in any case.  On a change, handles it
 * like the kernel's notifications: logs it (SELINUX_SETENFORCE,
 * SELINUX_POLICYLOAD), resets the AVC and calls the SELINUX_CB_SETENFORCE
 * and SELINUX_CB_POLICYLOAD callbacks.  -1 with EINVAL when not open.
 *
 * As in the established library, "the enforcing mode changed" means the
 * page differs from the AVC's mode: 1 before avc_open() reads it, and
 * fixed by AVC_OPT_SETENFORCE.
 */
extern int selinux_status_updated(void);

/* The enforcing mode, 1 or 0; -1 with EINVAL when not open. */
extern int selinux_status_getenforce(void);

/*
 * The policy load count (boolean commits count too), 0 in fallback mode
 * until a load is notified; -1 with EINVAL when not open.
 */
extern int selinux_status_policyload(void);

/*
 * The policy's handle_unknown: 1 deny, 0 allow; -1 with EINVAL when not
 * open (in fallback mode security_deny_unknown()'s result).
 */
extern int selinux_status_deny_unknown(void);

#ifdef __cplusplus
}
#endif
#endif
