/*
 * mem.c: the server's memory as a whole (mem.h).
 *
 * glibc moves its mmap threshold up to the size of the largest mapped
 * block freed (up to 32 MiB), and the trim threshold to twice that: after
 * one multi-MiB load buffer or policy image, blocks of that size come
 * from the arena of the thread that asked (each worker has its own), and
 * the arena keeps their pages once they are freed.  The stress test saw
 * 2-3 MiB held so in each of two workers' arenas, free but resident
 * (the bytes in use did not move), and 80 loads of a 2.6 MB policy left
 * 10-20 MiB.  Fixed thresholds end that: a block of 128 KiB or more is
 * a mapping of its own, returned when freed, and an arena gives back a
 * free top of more than 256 KiB.  And one arena: glibc gives each thread
 * that allocates one of its own (up to 8 per CPU: the workers, and a
 * queue thread per CPU with io_uring), each keeping the free pages of
 * whatever was freed in it, a policy's small blocks above all; the
 * server's work is done under one lock anyway, so more arenas buy
 * nothing.  What stays is small blocks of the policy in use and their
 * neighbours' fragments (malloc_trim after a load returns whole free
 * pages): some 150 KiB after those 80 loads.
 */
#include <malloc.h>
#include <stdint.h>

#include "mem.h"

#define MMAP_THRESHOLD (128 << 10)
#define TRIM_THRESHOLD (256 << 10)

/* AddressSanitizer's and its kin's count of bytes in use, when linked. */
extern size_t __sanitizer_get_current_allocated_bytes(void)
    __attribute__((weak));

void mem_setup(void)
{
	mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD);
	mallopt(M_ARENA_MAX, 1);
}

void mem_trim(void)
{
	malloc_trim(0);
}

bool mem_sanitized(void)
{
	return __sanitizer_get_current_allocated_bytes != NULL;
}

size_t mem_in_use(void)
{
	struct mallinfo2 m;

	if (mem_sanitized())
		return __sanitizer_get_current_allocated_bytes();
	m = mallinfo2();
	return m.uordblks + m.hblkhd;
}
