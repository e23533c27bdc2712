/*
 * budget.h: a bound on what may be allocated while a policy is read
 * (budget.c).
 *
 * Anyone who may write "load" can hand the server any bytes.  libsepol
 * 3.4 trusts a policy's symbol counts: a count near 2^32 in a few
 * hundred bytes makes it allocate tables of gigabytes (which Linux's
 * overcommit grants) and then walk them bit by bit while it validates
 * the policy: minutes of CPU and gigabytes of RSS for one write.  The
 * kernel's reader asks for the same tables and simply fails the load
 * when the memory is not there (kvcalloc refuses), so the server does
 * what the kernel does, with "not there" made explicit: while a budget
 * is open on a thread, every malloc, calloc, realloc and reallocarray
 * that thread makes (libsepol's included) counts the bytes it asks for,
 * and the one that would pass the budget fails with ENOMEM.  libsepol
 * then fails the read as on any allocation failure, cleanly.
 *
 * Memory is not the only cost: libsepol's validation marks every unused
 * symbol number in a list bitmap one bit at a time, quadratic in their
 * count (half a million unused type numbers fit in 8 MB and take
 * minutes).  Such work allocates as it goes (a list node per 64 bits),
 * so a budget also has a deadline, checked at each allocation on a
 * cheap clock (CLOCK_MONOTONIC_COARSE, no system call): past it, every
 * allocation fails too.
 *
 * How: the server and the programs built from its sources link with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=reallocarray
 * (kernel/server/meson.build's budget_link_args), so those calls from
 * every object of the link (libsepol's static archive's too) come here
 * first.  Without an open budget a call goes straight on.  What libc
 * allocates inside itself (strdup's copy: bounded by the image's own
 * bytes) is not counted.
 */
#ifndef SELINUXFSD_BUDGET_H
#define SELINUXFSD_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

/* Opens a budget of `bytes` and `ms` milliseconds on the calling thread
 * (none may be open). */
void budget_begin(size_t bytes, unsigned ms);

enum budget_result {
	BUDGET_KEPT,	 /* nothing refused */
	BUDGET_MEMORY,	 /* an allocation would have passed the bytes */
	BUDGET_DEADLINE, /* an allocation came after the deadline */
};
/* Closes it; says whether and why an allocation was refused while it
 * was open.  *used (if not NULL): the bytes asked for and granted. */
enum budget_result budget_end(size_t *used);

#endif
