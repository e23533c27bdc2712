/*
 * budget.c: the allocation budget of a policy load (budget.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "budget.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_reallocarray(void *p, size_t n, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_reallocarray(void *p, size_t n, size_t size);

/* The calling thread's budget: open, what is left, what was granted,
 * the deadline (CLOCK_MONOTONIC_COARSE, ns), what was refused. */
static __thread bool open_;
static __thread size_t left, granted;
static __thread int64_t deadline;
static __thread enum budget_result result;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void budget_begin(size_t bytes, unsigned ms)
{
	left = bytes;
	granted = 0;
	deadline = now_ns() + (int64_t)ms * 1000000;
	result = BUDGET_KEPT;
	open_ = true;
}

enum budget_result budget_end(size_t *used)
{
	open_ = false;
	if (used)
		*used = granted;
	return result;
}

/* Takes n * size bytes from the budget; false (errno ENOMEM) when they
 * are not there (or the product overflows), or the deadline is past.
 * Once refused, always refused: libsepol may go on after one failure. */
static bool take(size_t n, size_t size)
{
	size_t bytes;

	if (!open_)
		return true;
	if (result == BUDGET_KEPT) {
		if (__builtin_mul_overflow(n, size, &bytes) || bytes > left)
			result = BUDGET_MEMORY;
		else if (now_ns() > deadline)
			result = BUDGET_DEADLINE;
	}
	if (result != BUDGET_KEPT) {
		errno = ENOMEM;
		return false;
	}
	left -= bytes;
	granted += bytes;
	return true;
}

void *__wrap_malloc(size_t size)
{
	return take(1, size) ? __real_malloc(size) : NULL;
}

void *__wrap_calloc(size_t n, size_t size)
{
	return take(n, size) ? __real_calloc(n, size) : NULL;
}

/* A realloc counts its whole new size: the budget bounds what is asked
 * for, not what is live. */
void *__wrap_realloc(void *p, size_t size)
{
	return take(1, size) ? __real_realloc(p, size) : NULL;
}

void *__wrap_reallocarray(void *p, size_t n, size_t size)
{
	return take(n, size) ? __real_reallocarray(p, n, size) : NULL;
}
