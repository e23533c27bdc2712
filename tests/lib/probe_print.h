/*
 * probe_print.h: the canonical lines of the probe programs (aprobe,
 * cprobe and lprobe of tests/integration; vmprobe, vmcompute, vmaudit
 * and sfsquery of tests/vm/probe), which run the same calls once on
 * Debian's libselinux.so.1 and once on ours and must print the same
 * bytes for the same answers: "NAME = RC" on success, "NAME = RC
 * errno=ENAME" on failure, "NAME = RC con=\"CONTEXT\"" for a context.
 * Every line is flushed, so that it comes before whatever a callback, a
 * child process or a crash prints next.
 *
 * probe_print.c needs only libc; probe_selinux.c (probe_con,
 * probe_class, probe_perms) calls the libselinux.so.1 the program links,
 * either one: build them as the static library of tests/lib/meson.build,
 * so that a program without libselinux (sfsquery) takes only the first.
 */
#ifndef TESTS_PROBE_PRINT_H
#define TESTS_PROBE_PRINT_H

#include <selinux/selinux.h>

/* The errno name of e ("ENOENT"), "?" when glibc has none. */
const char *probe_errname(int e);

/* "what = r", or "what = r errno=ENAME" (errno as it is now) when r < 0. */
void probe_rc(const char *what, int r);
/* The same with the errno value e saved earlier. */
void probe_rc_errno(const char *what, int r, int e);

/* A call that returns a context: its probe_rc line when r < 0, else
 * "what = r con=\"CON\"" (con=NULL for none); frees con then. */
void probe_con(const char *what, int r, char *con);

/* A command-line word for a pointer argument: "NULL" stands for NULL. */
const char *probe_arg(const char *s);

/* A class: a number ("7", "0x7") as it is, else a name for
 * string_to_security_class(). */
security_class_t probe_class(const char *s);
/* Permissions: hexadecimal digits as they are, else "perm,perm,..."
 * names of class c for string_to_av_perm(). */
access_vector_t probe_perms(security_class_t c, const char *s);

#endif
