/*
 * selinux/avc_audit.h: the AVC's messages as Linux audit USER_AVC records.
 *
 * An extension of this library, not in the established libselinux.  Every
 * object manager (dbus-daemon, systemd, X servers) writes a SELINUX_CB_LOG
 * callback of its own that hands the AVC's "avc:  denied  { ... }"
 * messages to libaudit's audit_log_user_avc_message(); these calls do the
 * same inside the library, as an opt-in.  A program that never calls them
 * sees no change.
 *
 * Both symbols are in the version node SELINUX_AUDIT_1.0 (not a
 * LIBSELINUX_* node): a program using them needs this libselinux.so.1,
 * and the dynamic linker says so at load time if another is found.
 */
#ifndef SELINUX_AVC_AUDIT_H
#define SELINUX_AVC_AUDIT_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Send the AVC's messages to the audit system from now on.
 *
 * Every message avc_audit() makes - the denials and the auditallow grants
 * of avc_has_perm(), selinux_check_access() ..., those logged with type
 * SELINUX_AVC - becomes one record, sent with
 *
 *     audit_log_user_avc_message(fd, AUDIT_USER_AVC, message,
 *                                NULL, NULL, NULL, getuid());
 *
 * exactly as dbus-daemon and systemd send them: the record's msg='...'
 * holds the message as the log callback would have received it, its
 * final newline included, followed by libaudit's exe=, sauid= (the real
 * uid), hostname=?, addr=? and terminal= fields.  A message sent so no
 * longer reaches the log callback (avc_init()'s func_log or
 * SELINUX_CB_LOG); the other message types (SELINUX_ERROR, SELINUX_INFO,
 * SELINUX_WARNING ...) still do.
 *
 * The library does not link libaudit: the first call loads libaudit.so.1
 * (dlopen), so programs that never call it do not load it.
 *
 * Returns 1 when the audit socket is open (or already was: a second call
 * changes nothing).  Returns 0, with errno EPROTONOSUPPORT, EINVAL or
 * EAFNOSUPPORT, when the kernel offers no audit socket (built without
 * CONFIG_AUDIT, some containers), or ELIBACC when libaudit.so.1 cannot be
 * loaded: not an error; messages keep going to the log callback.  Returns -1 with socket(2)'s errno on any other
 * failure (EMFILE, ENFILE, ENOBUFS, ENOMEM; EACCES when the policy denies
 * netlink_audit_socket create): nothing changes either.
 *
 * When audit refuses a record, the message goes to the log callback
 * instead, so it is never lost, and an access check's result never
 * depends on audit.  A refusal that will not go away - EPERM (no
 * CAP_AUDIT_WRITE), EACCES (the policy denies netlink_audit_socket
 * nlmsg_relay), ECONNREFUSED (audit not reachable from this user
 * namespace) - also closes the socket, after one SELINUX_WARNING message
 * saying why: later messages go straight to the log callback, until the
 * next selinux_avc_audit_open().  Any other failure (ENOBUFS: the kernel's
 * backlog is full ...) affects that message only.
 *
 * The socket is created close-on-exec.  It does not need the AVC open
 * (this may be called before avc_open()); avc_destroy() closes it, as
 * selinux_avc_audit_close() does.
 *
 * Threads: safe from any thread.  The AVC's lock-free cache hits do not
 * touch the socket; messages of several threads are sent one at a time
 * (libaudit reads the kernel's acknowledgement from the socket right after
 * each send and cannot tell two senders' answers apart).
 */
extern int selinux_avc_audit_open(void);

/*
 * Close the audit socket: the AVC's messages go to the log callback
 * again.  A no-op when it is not open.  Waits for a message another
 * thread is sending.
 */
extern void selinux_avc_audit_close(void);

#ifdef __cplusplus
}
#endif

#endif
