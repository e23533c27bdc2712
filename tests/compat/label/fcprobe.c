/*
 * fcprobe: ask a libselinux about many keys in one process, printing one
 * canonical line per answer.  Built once against our header; run on
 * Debian's libselinux.so.1 and on ours (LD_LIBRARY_PATH) and compared by
 * differential.py.
 *
 *   fcprobe [-B backend] [-p PATH]... [-b] [-v] [-s SUBSET] [-d] [-a] [-L]
 *           OP < input
 *
 * -a: a SELINUX_CB_VALIDATE callback accepting every context but those
 * of type invalid_t; -L: print
 * the log messages (on stdout, in order with the answers); -M: say on
 * stderr, after the open, whether an index image (a file named *.idx)
 * is mapped ("image: mapped" or "image: not mapped"), which is how our
 * library serves a handle from it (tests/compat/label/index.py).
 *
 * input: NUL-terminated records "MODE KEY" (MODE octal) for OP lookup,
 * lookupt (translated), partial, hash; "MODE KEY\tALIAS..." for best.
 * OP digest prints selabel_digest() and reads nothing.
 *
 * OP batch: many handles in one process.  Records "@PATH" close the
 * current handle and open PATH (with the options given, plus
 * SELABEL_OPT_PATH), printing a line "@@" (after a newline) and
 * "open: ..."; "MODE KEY" records are
 * selabel_lookup_raw on the current handle.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strerrorname_np */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selinux/label.h>
#include <selinux/selinux.h>

static int quiet_log(int type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
	return 0;
}

/* -L: the log messages on stdout, so that they are compared too. */
static int print_log(int type, const char *fmt, ...)
{
	va_list ap;

	printf("log %d: ", type);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	return 0;
}

/* -a: every context valid but those of type invalid_t, as on a host
 * whose policy has them (this host may have no SELinux at all, where the
 * kernel's check fails). */
static int accept_all(char **ctx)
{
	if (strstr(*ctx, ":invalid_t:")) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static void hex(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
}

static void lookup(struct selabel_handle *h, char *rec)
{
	char *key, *con = NULL;
	unsigned long mode = strtoul(rec, &key, 8);

	if (*key == ' ')
		key++;
	errno = 0;
	if (selabel_lookup_raw(h, &con, key, mode) < 0) {
		printf("ERR %s\n", strerrorname_np(errno));
	} else {
		printf("OK %s\n", con);
		freecon(con);
	}
}

static int batch(unsigned int backend, struct selinux_opt *opts,
		 unsigned int n)
{
	struct selabel_handle *h = NULL;
	char *line = NULL;
	size_t cap = 0;

	while (getdelim(&line, &cap, '\0', stdin) > 0) {
		if (line[0] == '@') {
			if (h)
				selabel_close(h);
			/* A separator the log messages cannot run into. */
			printf("\n@@\n");
			opts[n] = (struct selinux_opt){ SELABEL_OPT_PATH,
							 line + 1 };
			errno = 0;
			h = selabel_open(backend, opts, n + 1);
			if (h)
				printf("open: OK\n");
			else
				printf("open: ERR %s\n",
				       strerrorname_np(errno));
			continue;
		}
		if (!h)
			continue; /* the open failed: no answers */
		lookup(h, line);
	}
	if (h)
		selabel_close(h);
	free(line);
	return 0;
}

/* -M: is a file named *.idx mapped into this process? */
static void say_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096];
	bool mapped = false;

	while (f && fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");

		line[n] = '\0';
		mapped |= n > 4 && !strcmp(line + n - 4, ".idx");
	}
	if (f)
		fclose(f);
	fprintf(stderr, "image: %s\n", mapped ? "mapped" : "not mapped");
}

int main(int argc, char **argv)
{
	bool tell_mapped = false;
	struct selinux_opt opts[32];
	unsigned int n = 0, backend = 0;
	struct selabel_handle *h;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	const char *op;
	int c;

	union selinux_callback cb = { .func_log = quiet_log };
	selinux_set_callback(SELINUX_CB_LOG, cb);
	while ((c = getopt(argc, argv, "B:p:bvs:daLM")) != -1 && n < 30) {
		switch (c) {
		case 'B':
			backend = atoi(optarg);
			break;
		case 'p':
			opts[n++] = (struct selinux_opt){ SELABEL_OPT_PATH, optarg };
			break;
		case 'b':
			opts[n++] = (struct selinux_opt){ SELABEL_OPT_BASEONLY, "1" };
			break;
		case 'v':
			opts[n++] = (struct selinux_opt){ SELABEL_OPT_VALIDATE, "1" };
			break;
		case 's':
			opts[n++] = (struct selinux_opt){ SELABEL_OPT_SUBSET, optarg };
			break;
		case 'd':
			opts[n++] = (struct selinux_opt){ SELABEL_OPT_DIGEST, "1" };
			break;
		case 'a':
			cb.func_validate = accept_all;
			selinux_set_callback(SELINUX_CB_VALIDATE, cb);
			break;
		case 'M':
			tell_mapped = true;
			break;
		case 'L':
			cb.func_log = print_log;
			selinux_set_callback(SELINUX_CB_LOG, cb);
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc)
		return 2;
	op = argv[optind];
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (!strcmp(op, "batch"))
		return batch(backend, opts, n);
	errno = 0;
	h = selabel_open(backend, opts, n);
	if (!h) {
		printf("open: ERR %s\n", strerrorname_np(errno));
		return 0;
	}
	printf("open: OK\n");
	if (tell_mapped)
		say_mapped();
	if (!strcmp(op, "digest")) {
		unsigned char *d;
		size_t dl, nf;
		char **files;

		if (selabel_digest(h, &d, &dl, &files, &nf) < 0) {
			printf("digest: ERR %s\n", strerrorname_np(errno));
		} else {
			printf("digest: ");
			hex(d, dl);
			printf("\n");
			for (size_t i = 0; i < nf; i++)
				printf("file: %s\n", files[i]);
		}
		selabel_close(h);
		return 0;
	}
	while ((len = getdelim(&line, &cap, '\0', stdin)) > 0) {
		char *key, *con = NULL;
		unsigned long mode = strtoul(line, &key, 8);
		int r;

		if (*key == ' ')
			key++;
		errno = 0;
		if (!strcmp(op, "lookup") || !strcmp(op, "lookupt")) {
			r = op[6] ? selabel_lookup(h, &con, key, mode) :
				    selabel_lookup_raw(h, &con, key, mode);
			if (r < 0) {
				printf("ERR %s\n", strerrorname_np(errno));
			} else {
				printf("OK %s\n", con);
				freecon(con);
			}
		} else if (!strcmp(op, "partial")) {
			printf("%d\n", selabel_partial_match(h, key));
		} else if (!strcmp(op, "hash")) {
			unsigned char d[20];

			if (selabel_hash_all_partial_matches(h, key, d)) {
				hex(d, 20);
				printf("\n");
			} else {
				printf("none\n");
			}
		} else if (!strcmp(op, "best")) {
			const char *al[64];
			int na = 0;
			char *t = strchr(key, '\t');

			while (t && na < 62) {
				*t++ = '\0';
				al[na++] = t;
				t = strchr(t, '\t');
			}
			al[na] = NULL;
			r = selabel_lookup_best_match_raw(h, &con, key,
							  na ? al : NULL, mode);
			if (r < 0) {
				printf("ERR %s\n", strerrorname_np(errno));
			} else {
				printf("OK %s\n", con);
				freecon(con);
			}
		} else {
			return 2;
		}
	}
	free(line);
	selabel_close(h);
	return 0;
}
