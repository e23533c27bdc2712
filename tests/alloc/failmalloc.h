/* tests/alloc/failmalloc.h: a malloc that fails the N-th allocation. */
#ifndef TESTS_FAILMALLOC_H
#define TESTS_FAILMALLOC_H

/*
 * failmalloc.c defines malloc, calloc, realloc, free and the aligned
 * allocators in the test executable itself, so they interpose for every
 * caller in the process: the library (static or libselinux.so.1), libc's
 * own allocations (fopen, getline, strdup, asprintf) and libpcre2.  They
 * sit on glibc's __libc_* allocator and keep two counters.
 */

/* Count allocations from now on; the n-th (1-based) returns NULL with
 * errno ENOMEM, and only that one.  n = 0 counts without failing. */
void fm_arm(unsigned long n);
/* Stop counting; returns how many allocations were made since fm_arm(). */
unsigned long fm_disarm(void);
/* Whether the armed failure has happened since fm_arm(). */
int fm_failed(void);
/* Blocks allocated and not yet freed (through this allocator, since the
 * process began): compare two readings to find a leak. */
long fm_live(void);

/* Debugging: record the call stack of every block allocated from now
 * on (single-threaded callers only); print those still live to fd. */
void fm_trace(int on);
void fm_trace_dump(int fd);

#endif
