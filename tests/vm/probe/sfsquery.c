/*
 * sfsquery: asks a selinuxfs (the real one in the VM, or kernel/'s FUSE
 * server on the host) a list of questions and prints the raw answers, one
 * line each, so that two selinuxfs can be compared byte for byte.  It talks
 * to the files directly, without libselinux.
 *
 * Usage: sfsquery [-m MOUNT] [-t TIMES] QUERIES
 *	MOUNT defaults to /sys/fs/selinux; with -t, TIMES gets one line per
 *	kind of query, "KIND COUNT SECONDS MAX" (wall time of the open,
 *	write and read: the sum and the longest), and "all COUNT SECONDS MAX"
 *
 * Each line of QUERIES is OP, a tab, and ARG:
 *   access|create|relabel|member|user|context  REQUEST
 *	a transaction: REQUEST written to the file of that name, then the
 *	answer read on the same open file
 *   validatetrans REQUEST
 *	written only (the kernel answers with the write's status: "ok")
 *   read PATH	the whole content of MOUNT/PATH
 *   write PATH<tab>DATA	DATA written to MOUNT/PATH (booleans, commit)
 * In REQUEST and DATA, \xHH stands for the byte HH (a NUL, a newline, a
 * tab in a request); the write is the decoded bytes, nothing more.
 * Each answer line is the bytes received with everything outside printable
 * ASCII, and the backslash, as \xHH (a context's NUL shows as \x00); a
 * failure prints "!open:", "!write:" or "!read:" and the errno name.
 * Lines that are empty or start with '#' are echoed as they are.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe_print.h"

#define ANSWER_MAX (1 << 20)

static void print_escaped(const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	putchar('\n');
}

/* Reads to EOF (or ANSWER_MAX); -errno on failure, else the length. */
static ssize_t read_all(int fd, char *buf)
{
	size_t n = 0;

	for (;;) {
		ssize_t r = read(fd, buf + n, ANSWER_MAX - n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0 || (n += (size_t)r) == ANSWER_MAX)
			return (ssize_t)n;
	}
}

static void fail(const char *step, int e)
{
	printf("!%s:%s\n", step, probe_errname(e));
}

/* Decodes \xHH in place; returns the decoded length. */
static size_t unescape(char *s)
{
	char *r = s, *w = s;
	unsigned v;

	while (*r) {
		if (r[0] == '\\' && r[1] == 'x' && isxdigit((unsigned char)r[2]) &&
		    isxdigit((unsigned char)r[3]) && sscanf(r + 2, "%2x", &v) == 1) {
			*w++ = (char)v;
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	return (size_t)(w - s);
}

static void query(const char *mnt, const char *path, char *data,
		  int want_answer, char *buf)
{
	char full[4096];
	int fd;
	ssize_t n;

	snprintf(full, sizeof(full), "%s/%s", mnt, path);
	fd = open(full, data ? (want_answer ? O_RDWR : O_WRONLY) : O_RDONLY);
	if (fd < 0) {
		fail("open", errno);
		return;
	}
	if (data) {
		size_t len = unescape(data);

		if (write(fd, data, len) != (ssize_t)len) {
			fail("write", errno);
			close(fd);
			return;
		}
		if (!want_answer) {
			printf("ok\n");
			close(fd);
			return;
		}
	}
	n = read_all(fd, buf);
	close(fd);
	if (n < 0)
		fail("read", (int)-n);
	else
		print_escaped(buf, (size_t)n);
}

static int is_transaction(const char *op)
{
	static const char *const ops[] = {"access", "create", "relabel",
					  "member", "user",   "context"};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

/* Per-kind times (-t). */
#define KINDS 16
static struct {
	char name[16];
	unsigned long n;
	double s, max;
} kinds[KINDS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void account(const char *op, double s)
{
	for (int i = 0; i < KINDS; i++) {
		if (!kinds[i].name[0])
			snprintf(kinds[i].name, sizeof(kinds[i].name), "%s", op);
		if (!strcmp(kinds[i].name, op)) {
			kinds[i].n++;
			kinds[i].s += s;
			if (s > kinds[i].max)
				kinds[i].max = s;
			return;
		}
	}
}

int main(int argc, char **argv)
{
	const char *mnt = "/sys/fs/selinux", *times = NULL;
	char *line = NULL, *buf;
	double t0;
	size_t cap = 0;
	ssize_t len;
	FILE *in;
	int i = 1;

	for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1]; i += 2) {
		if (!strcmp(argv[i], "-m"))
			mnt = argv[i + 1];
		else if (!strcmp(argv[i], "-t"))
			times = argv[i + 1];
		else
			break;
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: sfsquery [-m MOUNT] [-t TIMES] QUERIES\n");
		return 2;
	}
	in = strcmp(argv[i], "-") ? fopen(argv[i], "r") : stdin;
	if (!in) {
		perror(argv[i]);
		return 2;
	}
	buf = malloc(ANSWER_MAX);
	if (!buf)
		return 2;
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	while ((len = getline(&line, &cap, in)) >= 0) {
		char *op = line, *arg, *data;

		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!*line || *line == '#') {
			printf("%s\n", line);
			continue;
		}
		arg = strchr(line, '\t');
		if (!arg) {
			printf("!syntax\n");
			continue;
		}
		*arg++ = '\0';
		t0 = now();
		if (is_transaction(op)) {
			query(mnt, op, arg, 1, buf);
		} else if (!strcmp(op, "validatetrans")) {
			query(mnt, op, arg, 0, buf);
		} else if (!strcmp(op, "read")) {
			query(mnt, arg, NULL, 0, buf);
		} else if (!strcmp(op, "write") && (data = strchr(arg, '\t'))) {
			*data++ = '\0';
			query(mnt, arg, data, 0, buf);
		} else {
			printf("!syntax\n");
		}
		account(op, now() - t0);
	}
	if (times) {
		FILE *t = fopen(times, "w");
		unsigned long n = 0;
		double all = 0, max = 0;

		if (!t) {
			perror(times);
			return 2;
		}
		for (int k = 0; k < KINDS && kinds[k].name[0]; k++) {
			fprintf(t, "%s %lu %.6f %.6f\n", kinds[k].name,
				kinds[k].n, kinds[k].s, kinds[k].max);
			n += kinds[k].n;
			all += kinds[k].s;
			if (kinds[k].max > max)
				max = kinds[k].max;
		}
		fprintf(t, "all %lu %.6f %.6f\n", n, all, max);
		fclose(t);
	}
	free(line);
	free(buf);
	if (in != stdin)
		fclose(in);
	return 0;
}
