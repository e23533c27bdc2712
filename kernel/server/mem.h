/*
 * mem.h: the server's memory as a whole (mem.c): the allocator's settings
 * for a long-running daemon, freed memory given back, and the bytes in
 * use, which the log reports after each load (what a test of leaks
 * reads: unlike the RSS, it does not count what the allocator keeps).
 * The lowest layer: uses nothing of the server.
 */
#ifndef SELINUXFSD_MEM_H
#define SELINUXFSD_MEM_H

#include <stdbool.h>
#include <stddef.h>

/* At start, before any thread: fixed thresholds (mem.c says why). */
void mem_setup(void);
/* After a large free (a policy's): free pages back to the system. */
void mem_trim(void);
/* Bytes allocated and not freed: glibc's count (mallinfo2, its arenas
 * and its mapped blocks), or under a sanitizer the sanitizer's. */
size_t mem_in_use(void);
/* Whether a sanitizer's allocator runs (its quarantine keeps freed
 * memory resident: the RSS then says nothing of leaks). */
bool mem_sanitized(void);

#endif
