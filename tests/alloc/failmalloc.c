/*
 * tests/alloc/failmalloc.c: the allocator of the allocation-failure tests.
 *
 * glibc supports replacing malloc (its manual, "Replacing malloc"): an
 * executable that defines malloc, free, calloc and realloc (and the
 * aligned family, which glibc would otherwise serve from its own heap)
 * receives every call, libc's internal ones included.  These forward to
 * the __libc_* entry points glibc keeps exported for that purpose.
 *
 * The counters are atomics: the AVC and libc may allocate from other
 * threads.  Not usable under ASan, which replaces malloc itself (meson
 * builds the suite only without a sanitizer).
 */
#include <errno.h>
#include <link.h>
#include <malloc.h>
#include <string.h>
#include <execinfo.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "failmalloc.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t size);

/* The armed allocation (0: none), allocations counted, whether armed
 * counting is on, whether the failure happened; live blocks. */
static unsigned long fail_at;
static unsigned long counted;
static int counting;
static int failed;
static long live;

static uintptr_t ldso_lo, ldso_hi; /* see find_ldso() */
static int find_ldso(struct dl_phdr_info *info, size_t size, void *data);

void fm_arm(unsigned long n)
{
	if (!ldso_hi)
		dl_iterate_phdr(find_ldso, NULL);
	__atomic_store_n(&counted, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&failed, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&fail_at, n, __ATOMIC_SEQ_CST);
	__atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
}

unsigned long fm_disarm(void)
{
	__atomic_store_n(&counting, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&fail_at, 0, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&counted, __ATOMIC_SEQ_CST);
}

int fm_failed(void)
{
	return __atomic_load_n(&failed, __ATOMIC_SEQ_CST);
}

long fm_live(void)
{
	return __atomic_load_n(&live, __ATOMIC_SEQ_CST);
}

#define CALLER __builtin_return_address(0)

/* Called at the failing allocation: a place for a debugger's breakpoint. */
__attribute__((noinline)) void fm_hit(void);
__attribute__((noinline)) void fm_hit(void)
{
	__asm__ volatile("");
}

/*
 * The dynamic loader's address range.  ld.so allocates a thread's block
 * of a dlopen()ed module's TLS (an NSS module's, libgcc_s's) on first
 * use and aborts the process ("cannot allocate memory for thread-local
 * data") when that fails: glibc's choice, not something a library can
 * handle, so those allocations are neither counted nor failed.
 */
static int find_ldso(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (!strstr(info->dlpi_name, "ld-linux"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (!ldso_lo || lo < ldso_lo)
			ldso_lo = lo;
		if (lo + ph->p_memsz > ldso_hi)
			ldso_hi = lo + ph->p_memsz;
	}
	return 1;
}

/* Whether this allocation must fail: counts it when armed.  caller: the
 * allocator's return address. */
static int must_fail_from(void *caller)
{
	unsigned long k;

	if (!__atomic_load_n(&counting, __ATOMIC_SEQ_CST))
		return 0;
	if ((uintptr_t)caller >= ldso_lo && (uintptr_t)caller < ldso_hi)
		return 0;
	k = __atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
	if (k != __atomic_load_n(&fail_at, __ATOMIC_SEQ_CST))
		return 0;
	__atomic_store_n(&failed, 1, __ATOMIC_SEQ_CST);
	fm_hit();
	errno = ENOMEM;
	return 1;
}

/*
 * With fm_trace(1) (alloc_inject -n, single-threaded use only), the live
 * blocks and the call stacks that made them, for fm_trace_dump().
 */
#define TRACE_MAX 4096
#define TRACE_DEPTH 8
static struct {
	void *p;
	void *stack[TRACE_DEPTH];
	int depth;
} traced[TRACE_MAX];
static int tracing, in_trace;

void fm_trace(int on)
{
	void *warm[1];

	backtrace(warm, 1); /* loads libgcc_s before tracing starts */
	tracing = on;
}

static void trace_add(void *p)
{
	if (!tracing || in_trace)
		return;
	in_trace = 1;
	for (int i = 0; i < TRACE_MAX; i++)
		if (!traced[i].p) {
			traced[i].p = p;
			traced[i].depth =
				backtrace(traced[i].stack, TRACE_DEPTH);
			break;
		}
	in_trace = 0;
}

static void trace_del(void *p)
{
	if (!tracing)
		return;
	for (int i = 0; i < TRACE_MAX; i++)
		if (traced[i].p == p) {
			traced[i].p = NULL;
			break;
		}
}

void fm_trace_dump(int fd)
{
	tracing = 0;
	for (int i = 0; i < TRACE_MAX; i++)
		if (traced[i].p) {
			dprintf(fd, "live block %p from:\n", traced[i].p);
			backtrace_symbols_fd(traced[i].stack, traced[i].depth,
					     fd);
		}
}

static void *got(void *p)
{
	if (p) {
		__atomic_add_fetch(&live, 1, __ATOMIC_SEQ_CST);
		trace_add(p);
	}
	return p;
}

void *malloc(size_t size)
{
	return must_fail_from(CALLER) ? NULL : got(__libc_malloc(size));
}

void *calloc(size_t n, size_t size)
{
	return must_fail_from(CALLER) ? NULL : got(__libc_calloc(n, size));
}

void *realloc(void *p, size_t size)
{
	void *q;

	if (!p)
		return malloc(size);
	if (size == 0) {
		/* glibc frees p and returns NULL */
		free(p);
		return NULL;
	}
	if (must_fail_from(CALLER))
		return NULL;
	q = __libc_realloc(p, size);
	if (q && q != p) {
		trace_del(p);
		trace_add(q);
	}
	return q;
}

void *reallocarray(void *p, size_t n, size_t size)
{
	size_t total;

	if (__builtin_mul_overflow(n, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, total);
}

void free(void *p)
{
	if (!p)
		return;
	__atomic_sub_fetch(&live, 1, __ATOMIC_SEQ_CST);
	trace_del(p);
	__libc_free(p);
}

void *memalign(size_t align, size_t size)
{
	return must_fail_from(CALLER) ? NULL : got(__libc_memalign(align, size));
}

void *aligned_alloc(size_t align, size_t size)
{
	return memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	if (must_fail_from(CALLER))
		return ENOMEM;
	p = got(__libc_memalign(align, size));
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

void *valloc(size_t size)
{
	return memalign(4096, size);
}

void *pvalloc(size_t size)
{
	return memalign(4096, (size + 4095) & ~(size_t)4095);
}
