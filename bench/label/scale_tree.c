/*
 * bench/label/scale_tree.c: a synthetic tree laid out like a system, for
 * bench/label/scale.py.
 *
 *   scale_tree DIR N
 *
 * makes about N entries (files, symlinks, hard links, directories) under
 * DIR (which must exist and be empty): usr/share/doc/PKG/..., usr/lib/
 * x86_64-linux-gnu, usr/lib/python3/dist-packages/MOD/..., usr/share/man,
 * usr/share/locale, usr/include, usr/bin, var/lib, home/USER/..., etc,
 * opt - each family a share of N, its files 200 a directory with names
 * and extensions of its kind, every tenth directory a subdirectory two
 * levels down, one file in 1,000 a hard link of the one before it (both
 * named hl-*) and one in 50 a symlink.  The same N gives the same tree.  Prints
 * the number of entries made (DIR itself not counted).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PER_DIR 200

struct family {
	const char *prefix; /* below DIR */
	const char *dir;    /* a directory's name, %d its number */
	const char *file;   /* a file's name, %d its number */
	int share;	    /* per cent of N */
};

static const struct family families[] = {
    {"usr/share/doc", "pkg-%d", "changelog.%d.gz", 20},
    {"usr/lib/x86_64-linux-gnu", "lib%d", "libx%d.so.1", 14},
    {"usr/lib/python3/dist-packages", "mod%d", "m%d.py", 14},
    {"usr/share/man", "man%d", "page%d.1.gz", 5},
    {"usr/share/locale", "l%d/LC_MESSAGES", "dom%d.mo", 5},
    {"usr/include", "inc%d", "h%d.h", 5},
    {"usr/bin", "b%d", "prog%d", 2},
    {"var/lib", "state%d", "db%d", 10},
    {"home", "user%d", "note%d.txt", 20},
    {"etc", "conf%d.d", "c%d.conf", 3},
    {"opt", "app%d", "data%d.bin", 2},
};

static long made;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "scale_tree: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

/* mkdir -p, counting the directories made. */
static void mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) == 0)
			made++;
		else if (errno != EEXIST)
			die("mkdir", path);
		*p = '/';
	}
	if (mkdir(path, 0755) == 0)
		made++;
	else if (errno != EEXIST)
		die("mkdir", path);
}

/* n entries in directory dir (made), files named by f. */
static void fill(const char *dir, const struct family *f, long n, long *seq)
{
	char path[4096], prev[4096] = "", name[256];

	for (long i = 0; i < n; i++, (*seq)++) {
		snprintf(name, sizeof(name), f->file, (int)*seq);
		/* the two names of a hard link say so: which of them a walk
		 * of several threads reaches first is a race (linehash -x) */
		snprintf(path, sizeof(path), "%s/%s%s", dir,
			 *seq % 1000 >= 998 ? "hl-" : "", name);
		if (*seq % 1000 == 999 && prev[0]) {
			if (link(prev, path) < 0)
				die("link", path);
		} else if (*seq % 50 == 49) {
			if (symlink(prev[0] ? prev : "/", path) < 0)
				die("symlink", path);
		} else {
			int fd =
			    open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				 0644);

			if (fd < 0)
				die("open", path);
			close(fd);
			snprintf(prev, sizeof(prev), "%s", path);
		}
		made++;
	}
}

static void family(const char *root, const struct family *f, long n)
{
	char path[4096], sub[4096];
	long seq = 0;

	for (int d = 0; n > 0; d++) {
		long k = n < PER_DIR ? n : PER_DIR;

		snprintf(path, sizeof(path), "%s/%s/", root, f->prefix);
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 f->dir, d);
		mkdirs(path);
		fill(path, f, k, &seq);
		n -= k;
		if (d % 10 == 9 && n > 0) {
			k = n < PER_DIR ? n : PER_DIR;
			snprintf(sub, sizeof(sub), "%s/share/data", path);
			mkdirs(sub);
			fill(sub, f, k, &seq);
			n -= k;
		}
	}
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: scale_tree DIR N\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(families) / sizeof(*families); i++) {
		/* each family's share of what is left to make */
		long k = n * families[i].share / 100;

		family(argv[1], &families[i], k);
	}
	printf("%ld\n", made);
	return 0;
}
