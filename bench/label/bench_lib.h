/*
 * bench/label/bench_lib.h: what lookup_bench.c and cold_bench.c share -
 * one libselinux dlopen()ed from a path (Debian's, upstream's in a
 * release root, or ours: the same program measures each), the clock, and
 * the path corpus (NUL-terminated "MODE PATH" records, MODE octal).
 */
#ifndef BENCH_LABEL_LIB_H
#define BENCH_LABEL_LIB_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <selinux/label.h>

typedef struct selabel_handle *(*open_fn)(unsigned int,
					  const struct selinux_opt *, unsigned);
typedef void (*close_fn)(struct selabel_handle *);
typedef int (*lookup_fn)(struct selabel_handle *, char **, const char *, int);
typedef void (*free_fn)(char *);

/* The calls a benchmark makes, from the library at path (exit 2 if it
 * does not load or lacks one). */
struct bench_lib {
	open_fn open;
	close_fn close;
	lookup_fn lookup;
	free_fn freecon;
};

static inline void bench_lib_load(const char *path, struct bench_lib *l)
{
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		fprintf(stderr, "%s\n", dlerror());
		exit(2);
	}
	l->open = (open_fn)dlsym(lib, "selabel_open");
	l->close = (close_fn)dlsym(lib, "selabel_close");
	l->lookup = (lookup_fn)dlsym(lib, "selabel_lookup");
	l->freecon = (free_fn)dlsym(lib, "freecon");
	if (!l->open || !l->close || !l->lookup || !l->freecon)
		exit(2);
}

/* Microseconds of CLOCK_MONOTONIC. */
static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

struct rec {
	unsigned mode;
	char *path;
};

/* Every stride-th record of the corpus file (exit 2 if unreadable). */
static inline struct rec *bench_corpus(const char *file, size_t *n,
				       size_t stride)
{
	FILE *f = fopen(file, "r");
	struct rec *v = NULL;
	size_t nv = 0, cap = 0, i = 0, lcap = 0;
	char *line = NULL;

	if (!f)
		exit(2);
	while (getdelim(&line, &lcap, '\0', f) > 0) {
		char *p;

		if (i++ % stride)
			continue;
		if (nv == cap) {
			cap = cap ? cap * 2 : 1024;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				exit(2);
		}
		v[nv].mode = strtoul(line, &p, 8);
		v[nv].path = strdup(p + 1);
		nv++;
	}
	free(line);
	fclose(f);
	*n = nv;
	return v;
}

#endif
