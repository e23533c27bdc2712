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

/* see find_ldso(): [0] the dynamic loader, [1] libfuse3 (FM_SIGNALS) */
static uintptr_t skip_lo[2], skip_hi[2];
static int find_ldso(struct dl_phdr_info *info, size_t size, void *data);

void fm_arm(unsigned long n)
{
	if (!skip_hi[0])
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
 *
 * In the server (FM_SIGNALS), libfuse3's own allocations are not failed
 * either: libfuse answers a request it cannot allocate with ENOMEM by
 * itself, before the server sees it, and the kernel does not resend a
 * RELEASE so answered, whose file handle then stays allocated: FUSE's
 * protocol, not the server's code, which is what is under test.
 */
static int find_ldso(struct dl_phdr_info *info, size_t size, void *data)
{
	int k;

	(void)size;
	(void)data;
	if (strstr(info->dlpi_name, "ld-linux"))
		k = 0;
#ifdef FM_SIGNALS
	else if (strstr(info->dlpi_name, "libfuse3"))
		k = 1;
#endif
	else
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (!skip_lo[k] || lo < skip_lo[k])
			skip_lo[k] = lo;
		if (lo + ph->p_memsz > skip_hi[k])
			skip_hi[k] = lo + ph->p_memsz;
	}
	return 0;
}

/* Whether this allocation must fail: counts it when armed.  caller: the
 * allocator's return address. */
static int must_fail_from(void *caller)
{
	unsigned long k;

	if (!__atomic_load_n(&counting, __ATOMIC_SEQ_CST))
		return 0;
	for (int i = 0; i < 2; i++)
		if ((uintptr_t)caller >= skip_lo[i] &&
		    (uintptr_t)caller < skip_hi[i])
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

#ifdef FM_SIGNALS
/*
 * Control by signals, for a daemon (selinuxfsd) built with this
 * allocator: with FM_CTL=PATH in its environment,
 *   SIGUSR1  reads a number n from PATH and arms (fm_arm(n)), then
 *            creates PATH.ack;
 *   SIGUSR2  disarms and writes "COUNT FAILED LIVE\n" to PATH.out
 *            (written whole: through PATH.tmp and rename()).
 * Only async-signal-safe calls: open, read, write, rename, close.
 */
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

static const char *ctl;

static void ctl_path(char *buf, size_t size, const char *suffix)
{
	size_t n = strlen(ctl), m = strlen(suffix);

	if (n + m + 1 > size)
		n = m = 0;
	memcpy(buf, ctl, n);
	memcpy(buf + n, suffix, m);
	buf[n + m] = '\0';
}

static size_t put_num(char *p, long v)
{
	char tmp[24];
	size_t n = 0, k = 0;
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;

	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		p[k++] = '-';
	while (n)
		p[k++] = tmp[--n];
	return k;
}

static void on_arm(int sig)
{
	char buf[32], path[4096];
	unsigned long n = 0;
	ssize_t len;
	int fd, e = errno;

	(void)sig;
	fd = open(ctl, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		len = read(fd, buf, sizeof(buf) - 1);
		for (ssize_t i = 0; i < len && buf[i] >= '0' && buf[i] <= '9';
		     i++)
			n = n * 10 + (unsigned long)(buf[i] - '0');
		close(fd);
	}
	fm_arm(n);
	ctl_path(path, sizeof(path), ".ack");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	errno = e;
}

static void on_report(int sig)
{
	char buf[96], tmp[4096], out[4096];
	size_t k = 0;
	unsigned long count = fm_disarm();
	int fd, e = errno;

	(void)sig;
	k += put_num(buf + k, (long)count);
	buf[k++] = ' ';
	k += put_num(buf + k, fm_failed());
	buf[k++] = ' ';
	k += put_num(buf + k, fm_live());
	buf[k++] = '\n';
	ctl_path(tmp, sizeof(tmp), ".tmp");
	ctl_path(out, sizeof(out), ".out");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, buf, k) == (ssize_t)k)
			rename(tmp, out);
		close(fd);
	}
	errno = e;
}

__attribute__((constructor)) static void fm_signals(void)
{
	struct sigaction sa;

	ctl = getenv("FM_CTL");
	if (!ctl)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_arm;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_report;
	sigaction(SIGUSR2, &sa, NULL);
}
#endif
