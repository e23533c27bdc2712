/*
 * state.h: the server's state that more than one layer reads (state.c).
 * files.c changes the enforcing mode, policy.c reads it (an invalid
 * computed context is refused only when enforcing); policy.c bumps the
 * sequence number, files.c publishes it (status page, log).  Keeping them
 * here lets both depend on this layer instead of on each other.
 */
#ifndef SELINUXFSD_STATE_H
#define SELINUXFSD_STATE_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel's enforcing mode ("enforce"); false until set. */
bool state_enforcing(void);
void state_set_enforcing(bool enforcing);

/* The AVC's sequence number: 0 until the first policy load, then bumped
 * by each load and each boolean commit. */
uint32_t state_seqno(void);
void state_seqno_bump(void);

#endif
