/* utils/util.h: what the utilities share (libutil.a, linked into each). */
#ifndef UTILS_UTIL_H
#define UTILS_UTIL_H

#include <sys/types.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

/*
 * Messages and exit statuses are Debian's selinux-utils 3.4's, which the
 * drop-in tests compare byte for byte; the helpers below only hold the
 * forms several programs print the same way.  Every message goes to
 * stderr, and "PROG" is argv[0] as given.
 */

/*
 * Print "usage:  PROG SYNOPSIS" and, when detail is not NULL, a second
 * line "PROG:  DETAIL"; then exit with status.
 */
void __attribute__((noreturn))
util_usage(const char *prog, const char *synopsis, const char *detail,
	   int status);

/*
 * Print "PROG:  WHAT failed:  <strerror(errno)>", WHAT formatted from
 * fmt: the report of a library call that failed.  errno is the one the
 * caller saw, whatever formatting does to it.
 */
void __attribute__((format(printf, 2, 3)))
util_failed(const char *prog, const char *fmt, ...);

/*
 * 1 when con is a valid context of the loaded policy
 * (security_check_context); else 0, after "PROG:  invalid WHAT context
 * 'CON'" (what: "source", "target", "new", "from").
 */
int util_context_ok(const char *prog, const char *what, const char *con);

/*
 * The value of class name (string_to_security_class), or 0 after
 * "PROG:  invalid class 'NAME'".
 */
security_class_t util_class(const char *prog, const char *name);

/*
 * The pid arg holds, read as sscanf("%d") reads it (leading blanks and a
 * sign allowed, what follows the digits ignored): 0 with *pid set, or -1
 * after "PROG:  invalid pid ARG".
 */
int util_pid(const char *prog, const char *arg, pid_t *pid);

/*
 * The file type (S_IFREG ...) named by the first letter of s: b, c, d,
 * p, l, s or f; 0 for anything else.
 */
mode_t util_file_type(const char *s);

/*
 * The selabel backend (SELABEL_CTX_*) named "file", "media", "x", "db",
 * "prop" or "service"; -1 for anything else.
 */
int util_selabel_backend(const char *name);

/*
 * selabel_open(backend, opts, n), or NULL after "ERROR: selabel_open -
 * Could not obtain handle:  <strerror(errno)>".
 */
struct selabel_handle *
util_selabel_open(int backend, const struct selinux_opt *opts, unsigned n);

#endif
