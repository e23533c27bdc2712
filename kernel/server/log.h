/*
 * log.h: the server's messages (log.c), to stderr and only when verbose.
 * The lowest layer: every other file may use it, it uses none of them.
 */
#ifndef SELINUXFSD_LOG_H
#define SELINUXFSD_LOG_H

#include <stdbool.h>

/* -v: log each policy load, enforcing change and libsepol's messages. */
void srv_log_set_verbose(bool verbose);
bool srv_log_verbose(void);
/* One line, "selinuxfsd: " and the message; nothing when not verbose. */
void srv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
