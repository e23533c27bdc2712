/*
 * sefcontext_compile - compile a file_contexts file into its binary form
 *
 * SYNOPSIS
 *     sefcontext_compile [-iINV] [-F version] [-o out_file] [-p policy_file] fc_file
 *     sefcontext_compile -U fc_file
 *
 * DESCRIPTION
 *     Reads the text file_contexts(5) file fc_file and writes
 *     fc_file.bin, the precompiled form the library loads instead of the
 *     text when it is at least as new: the specifications with their
 *     regular expressions compiled by PCRE2, so that selabel_open(3) does
 *     not compile them again.
 *
 * OPTIONS
 *     -o out_file
 *         Write out_file instead of fc_file.bin.
 *     -p policy_file
 *         Check every context against this binary policy first.
 *     -r
 *         Leave the compiled regular expressions out (they are specific to
 *         an architecture; the library then compiles them when loading).
 *     -i
 *         Print the regular expression library's version and the
 *         architecture identifier ("8-8-el" on x86_64), and exit.
 *     -V
 *         Print the binary format version written, and exit.
 *     -F version
 *         Write format 5 (read by libselinux 2.7 to 3.7) or 6 (read by
 *         libselinux 3.8 and later).  The default is the format of the
 *         release the library was built for (meson -Dcompat): 5 for 3.4,
 *         6 for 3.8 and 3.11, written byte for byte as that release's
 *         sefcontext_compile writes it.
 *     -I
 *         Write the index image only (see INDEX), not fc_file.bin; with
 *         -o, to out_file.
 *     -N
 *         Do not write the index image.
 *     -U
 *         Make the index image of fc_file's set fresh at least cost, and
 *         write nothing else: nothing when it is (every file as it
 *         records); when the files are a copy of those it was made of
 *         (the same bytes, see INDEX), the image stamped with the
 *         copies' identities; otherwise the set indexed again.  The
 *         packages' maintainer scripts run it on every policy's
 *         file_contexts.
 *
 * INDEX
 *     Unless -o or -N is given, sefcontext_compile also writes the index
 *     image of the file_contexts that fc_file belongs to (fc_file, or the
 *     base file of a file_contexts.homedirs or file_contexts.local):
 *     base.idx, beside it, readable by everyone.  It holds the whole
 *     index selabel_open(3) would otherwise build (the specifications of
 *     base, its .homedirs and .local, the exact-path table, the trie of
 *     prefixes and its automata), with the state of each of those files;
 *     the library maps it, with no file read or regular expression
 *     compiled, as long as none of those files has changed since, and
 *     reads the files otherwise.  An index image changes no answer (the
 *     library checks every part of it before use) and needs no particular
 *     PCRE2.  When the files cannot be indexed (they do not load, or
 *     loading them prints a message), no image is written, an older one
 *     is removed and a warning is printed; the exit status is that of the
 *     .bin (with -I: 1).  Each run indexes the whole set again, so the
 *     image is fresh after the last of the runs libsemanage makes on a
 *     policy change.
 *
 *     The image records each file's identity (device, inode, size, mtime
 *     and ctime) and a digest of its bytes.  The library takes it when
 *     every identity is as recorded, and, when they differ, if the files
 *     it would read hold the same bytes and it would choose the same
 *     (a text file or its .bin) as the writer: so a copy of the set,
 *     /etc/selinux copied into an image, is served from its index.
 *
 *     libsemanage (semodule, semanage, a policy package's postinst) runs
 *     sefcontext_compile on the files it builds in
 *     ROOT/var/lib/selinux/final/STORE/contexts/files/, then copies them
 *     into ROOT/etc/selinux/STORE/contexts/files/ and removes final/,
 *     the image with it.  On such a file sefcontext_compile also leaves
 *     a process behind, detached from the caller (its own session,
 *     standard streams on /dev/null), which waits for the copies: as
 *     soon as the installed files hold the bytes the image was made of,
 *     it writes the image there, stamped with their identities; if the
 *     transaction ends (libsemanage's ROOT/var/lib/selinux/STORE/
 *     semanage.trans.LOCK is free) and they never do, it makes the
 *     installed image fresh as -U does.  It exits then, or after ten
 *     minutes.
 *
 * EXIT STATUS
 *     0
 *         The file was written (or the information printed).
 *     1
 *         Wrong arguments, or a file could not be read or written.
 *     255
 *         fc_file does not parse, or a context is invalid.
 *
 * SEE ALSO
 *     file_contexts(5), selabel_open(3), matchpathcon(8)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <sepol/sepol.h>

#include "label/file/file.h"
#include "label/file/release.h"
#include "label/internal.h"
#include <selinux/selinux.h>

static const char *policy_file;

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-iINV] [-F version] [-o out_file] [-p policy_file] "
		"fc_file\n"
		"       %s -U fc_file\n"
		"Where:\n\t"
		"-o       Optional file name of the PCRE formatted binary\n\t"
		"         file to be output. If not specified the default\n\t"
		"         will be fc_file with the .bin suffix appended.\n\t"
		"-p       Optional binary policy file that will be used to\n\t"
		"         validate contexts defined in the fc_file.\n\t"
		"-r       Omit precompiled regular expressions from the output.\n\t"
		"         (PCRE2 only. Compiled PCRE2 regular expressions are\n\t"
		"         not portable across architectures. Use this flag\n\t"
		"         if you know that you build for an incompatible\n\t"
		"         architecture to save space. When linked against\n\t"
		"         PCRE1 this flag is ignored.)\n\t"
		"-i       Print regular expression info end exit. That is, back\n\t"
		"         end version and architecture identifier.\n\t"
		"         Arch identifier format (PCRE2):\n\t"
		"         <pointer width>-<size type width>-<endianness>, e.g.,\n\t"
		"         \"8-8-el\" for x86_64.\n\t"
		"-V       Print binary output format version and exit.\n\t"
		"%s"
		"-I       Write the index image (base.idx) only.\n\t"
		"-N       Do not write the index image.\n\t"
		"-U       Make the index image fresh (only if it is not).\n\t"
		"fc_file  The text based file contexts file to be processed.\n",
		prog, prog,
		rel_bin_version() == 6
		    ? "-F       Binary output format version: 5 (read by\n\t"
		      "         libselinux 2.7 to 3.7) or 6 (the default,\n\t"
		      "         big-endian, read by libselinux 3.8 and later).\n\t"
		    : "-F       Binary output format version: 5 (the default, read\n\t"
		      "         by libselinux 2.7 to 3.7) or 6 (big-endian, read by\n\t"
		      "         libselinux 3.8 and later).\n\t");
	exit(EXIT_FAILURE);
}

static int check_context(const char *ctx)
{
	return sepol_check_context(ctx) < 0 ? -1 : 0;
}

/* The base file of the set in belongs to (see INDEX): in without a
 * .homedirs or .local suffix.  NULL: out of memory. */
static char *base_of(const char *in)
{
	static const char *const sfx[] = {".homedirs", ".local"};
	size_t n = strlen(in);
	char *base = strdup(in);

	for (size_t i = 0; base && i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		size_t k = strlen(sfx[i]);

		if (n > k && !strcmp(in + n - k, sfx[i]))
			base[n - k] = '\0';
	}
	return base;
}

static void warn_index(const char *prog, const char *base, const char *why,
		       int r)
{
	fprintf(stderr, "%s: warning: no index image of %s: %s%s%s\n", prog,
		base, why ? why : "", why ? ": " : "", strerror(-r));
}

/*
 * libsemanage's final directory.  libsemanage builds a store's files in
 * ROOT/var/lib/selinux/final/STORE/ (its store root, semanage.conf's
 * store-root, under the root semodule -p gives), runs us on
 * final/STORE/contexts/files/file_contexts (.homedirs, .local), and,
 * holding the store's transaction lock (STORE_ROOT/STORE/
 * semanage.trans.LOCK, flock()ed by 3.8.1) all along, copies the files
 * it knows into ROOT/etc/selinux/STORE/ (selinux_path()) and removes
 * final/.  For base in such a directory: 1 with *inst the installed
 * base and *lock the lock file; 0 otherwise (a store root of its own,
 * whose installed place we cannot tell, too); -ENOMEM.
 */
static int semanage_final(const char *base, char **inst, char **lock)
{
	static const char tail[] = "/contexts/files/file_contexts";
	static const char final[] = "/final", sroot[] = "/var/lib/selinux";
	size_t n = strlen(base), tl = strlen(tail), s0, s1, r1;
	struct stat st;

	*inst = *lock = NULL;
	if (base[0] != '/' || n <= tl || strcmp(base + n - tl, tail))
		return 0;
	s1 = n - tl; /* the store's name: base[s0, s1) */
	for (s0 = s1; s0 > 0 && base[s0 - 1] != '/'; s0--)
		;
	if (s0 == s1 || s0 < 1 + strlen(final) ||
	    (s1 - s0 == 1 && base[s0] == '.') ||
	    (s1 - s0 == 2 && !strncmp(base + s0, "..", 2)) ||
	    strncmp(base + s0 - 1 - strlen(final), final, strlen(final)))
		return 0;
	r1 = s0 - 1 - strlen(final); /* the store root: base[0, r1) */
	if (r1 < strlen(sroot) ||
	    strncmp(base + r1 - strlen(sroot), sroot, strlen(sroot)))
		return 0;
	if (asprintf(lock, "%.*s/%.*s/semanage.trans.LOCK", (int)r1, base,
		     (int)(s1 - s0), base + s0) < 0) {
		*lock = NULL;
		return -ENOMEM;
	}
	if (stat(*lock, &st) < 0) {
		free(*lock);
		*lock = NULL;
		return 0;
	}
	if (asprintf(inst, "%.*s%s%.*s%s", (int)(r1 - strlen(sroot)), base,
		     selinux_path(), (int)(s1 - s0), base + s0, tail) < 0) {
		*inst = NULL;
		free(*lock);
		*lock = NULL;
		return -ENOMEM;
	}
	return 1;
}

/* Is libsemanage's transaction over (its lock free)?  Taken and let go
 * at once: a semodule starting meanwhile waits for it a moment. */
static bool transaction_over(const char *lock)
{
	int fd = open(lock, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	bool free_now;

	if (fd < 0)
		return true;
	free_now = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return free_now;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* The identities of inst's files (see INDEX), which change when a
 * copy lands: stat of each, folded. */
static uint64_t identities(const char *inst)
{
	static const char *const sfx[] = {
	    "",	      ".bin",	    ".homedirs", ".homedirs.bin",
	    ".local", ".local.bin", ".subs",	 ".subs_dist"};
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		char p[PATH_MAX];
		struct stat st;
		uint64_t v[6] = {0};

		snprintf(p, sizeof(p), "%s%s", inst, sfx[i]);
		if (stat(p, &st) == 0) {
			v[0] = st.st_ino;
			v[1] = st.st_size;
			v[2] = st.st_mtim.tv_sec;
			v[3] = st.st_mtim.tv_nsec;
			v[4] = st.st_ctim.tv_sec;
			v[5] = st.st_ctim.tv_nsec;
		}
		for (int k = 0; k < 6; k++)
			h = (h ^ v[k]) * 1099511628211ull;
	}
	return h;
}

/* The detached process (see INDEX): img, made of libsemanage's final
 * files, put beside the installed ones inst when they are its copies;
 * the installed set made fresh otherwise, once the transaction is over.
 * It looks every 20 ms (a stat of each file; the copies are compared
 * only when one has changed): no inotify, which the policy does not let
 * semanage_t use on the directory (no watch permission: a denial logged
 * at every policy change). */
static int install_when_copied(const uint8_t *img, size_t len, const char *inst,
			       const char *lock)
{
	char *dir = strdup(inst), *slash;
	double end = now_s() + 600;
	uint64_t seen = 0;
	bool tried = false;
	const char *why;
	struct stat st;

	if (!dir)
		return 1;
	slash = strrchr(dir, '/');
	*slash = '\0';
	for (;;) {
		struct timespec nap = {0, 20 * 1000 * 1000};
		/* the lock before the files: files that match then are
		 * those the transaction left */
		bool over = transaction_over(lock);
		uint64_t id = identities(inst);

		if ((!tried || id != seen || over) &&
		    lbl_fc_restamp_index(img, len, inst, NULL) == 0)
			break;
		tried = true;
		seen = id;
		if (over) {
			/* One of us at a time (libsemanage leaves one per
			 * file it compiles): the first indexes, the others
			 * find it fresh. */
			int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (dfd >= 0 && flock(dfd, LOCK_EX) == 0 &&
			    stat(inst, &st) == 0)
				lbl_fc_refresh_index(inst, &why);
			if (dfd >= 0)
				close(dfd);
			break;
		}
		if (now_s() > end)
			break;
		nanosleep(&nap, NULL);
	}
	free(dir);
	return 0;
}

/* Leave install_when_copied() running, detached: its own session, the
 * standard streams on /dev/null (whoever reads ours sees them end with
 * us), no other descriptor of ours (libsemanage's lock among them, were
 * it inherited) and no working directory kept busy. */
static void detach_installer(const uint8_t *img, size_t len, const char *inst,
			     const char *lock)
{
	pid_t pid = fork();
	int nul;

	if (pid != 0)
		return;
	setsid();
	nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int fd = 0; fd < 3; fd++) {
		if (nul >= 0)
			dup2(nul, fd);
		else
			close(fd);
	}
	closefrom(3);
	if (chdir("/") < 0)
		_exit(1);
	_exit(install_when_copied(img, len, inst, lock));
}

/* A copy of the installed inst.subs_dist as base.subs_dist, if base has
 * none: true if made. */
static bool borrow_subs_dist(const char *base, const char *inst)
{
	char *from = NULL, *to = NULL, *tmp = NULL;
	const char *what;
	bool made = false;
	int in = -1, out = -1;
	char buf[8192];
	ssize_t k;

	if (asprintf(&from, "%s.subs_dist", inst) < 0 ||
	    asprintf(&to, "%s.subs_dist", base) < 0 ||
	    asprintf(&tmp, "%s.subs_distXXXXXX", base) < 0)
		goto out;
	if (access(to, F_OK) == 0 || errno != ENOENT)
		goto out;
	in = open(from, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (in < 0 || (out = mkostemp(tmp, O_CLOEXEC)) < 0)
		goto out;
	while ((k = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, k) != k) {
			k = -1;
			break;
		}
	if (k == 0 && fchmod(out, 0644) == 0)
		made = lbl_fc_install(out, tmp, to, &what) == 0;
	if (out >= 0 && close(out) < 0)
		made = false;
	out = -1;
	if (!made)
		unlink(tmp);
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	free(from);
	free(to);
	free(tmp);
	return made;
}

static void drop_subs_dist(const char *base)
{
	char *p;

	if (asprintf(&p, "%s.subs_dist", base) >= 0) {
		unlink(p);
		free(p);
	}
}

/* The index image of the file_contexts in belongs to (see INDEX), to
 * out (NULL: beside it, and, when libsemanage is installing the set,
 * beside its copies too). */
static int write_index(const char *prog, const char *in, const char *out)
{
	char *base = base_of(in), *inst = NULL, *lock = NULL, *path = NULL;
	uint8_t *img = NULL;
	size_t len = 0;
	const char *why;
	int r;

	if (!base)
		return -ENOMEM;
	if (!out && (r = semanage_final(base, &inst, &lock)) < 0) {
		why = NULL;
	} else if (out) {
		r = lbl_fc_write_index(base, out, &why);
	} else if (asprintf(&path, "%s.idx", base) < 0) {
		path = NULL;
		r = -ENOMEM;
		why = NULL;
	} else {
		/* The installed set has the policy package's substitutions,
		 * which libsemanage neither builds nor installs: the image
		 * meant for the installed set is made with them. */
		bool dist = inst && borrow_subs_dist(base, inst);

		r = lbl_fc_index_image(base, &img, &len, &why);
		if (dist)
			drop_subs_dist(base);
		if (r < 0)
			/* a stale image would be ignored, but say it with
			 * no file */
			unlink(path);
		else if ((r = lbl_fc_put_index(path, img, len)) < 0)
			why = "cannot write";
	}
	if (r < 0)
		warn_index(prog, base, why, r);
	else if (img && inst)
		detach_installer(img, len, inst, lock);
	free(inst);
	free(lock);
	free(img);
	free(path);
	free(base);
	return r;
}

/* -U */
static int refresh_index(const char *prog, const char *in)
{
	char *base = base_of(in);
	const char *why;
	int r;

	if (!base)
		return -ENOMEM;
	r = lbl_fc_refresh_index(base, &why);
	if (r < 0)
		warn_index(prog, base, why, r);
	free(base);
	return r;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *in;
	char *def = NULL;
	bool no_regex = false, index_only = false, no_index = false;
	bool refresh = false;
	/* The format of the release the library replaces (-Dcompat). */
	int version = rel_bin_version();
	char *end;
	const char *what;
	struct stat st;
	int c, r, stage;

	if (argc < 2)
		usage(argv[0]);
	while ((c = getopt(argc, argv, "o:p:riVF:INU")) != -1) {
		switch (c) {
		case 'U':
			refresh = true;
			break;
		case 'I':
			index_only = true;
			break;
		case 'N':
			no_index = true;
			break;
		case 'F':
			/* Not an option of the reference's tool (3.4 writes 5
			 * only, 3.8 and later 6 only). */
			errno = 0;
			version = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end ||
			    (version != 5 && version != 6)) {
				fprintf(stderr,
					"%s: unsupported format "
					"version %s (5 or 6)\n",
					argv[0], optarg);
				return EXIT_FAILURE;
			}
			break;
		case 'V':
			/* As 3.8's tool says it: the version it writes. */
			printf("Compiled fcontext format version %d\n",
			       version);
			return EXIT_SUCCESS;
		case 'o':
			out = optarg;
			break;
		case 'p':
			policy_file = optarg;
			break;
		case 'r':
			no_regex = true;
			break;
		case 'i': {
			char ver[64];

			pcre2_config(PCRE2_CONFIG_VERSION, ver);
			printf("%s (%zu-%zu-%s)\n", ver, sizeof(void *),
			       sizeof(size_t),
			       __BYTE_ORDER == __LITTLE_ENDIAN ? "el" : "eb");
			return EXIT_SUCCESS;
		}
		default:
			usage(argv[0]);
		}
	}
	if (optind >= argc)
		usage(argv[0]);
	in = argv[optind];
	if (stat(in, &st) < 0) {
		fprintf(stderr, "%s: could not stat: %s: %s\n", argv[0], in,
			strerror(errno));
		return EXIT_FAILURE;
	}
	if (policy_file) {
		FILE *pf = fopen(policy_file, "re");

		if (!pf) {
			fprintf(stderr, "%s: failed to open %s: %s\n", argv[0],
				policy_file, strerror(errno));
			return EXIT_FAILURE;
		}
		if (sepol_set_policydb_from_file(pf) < 0) {
			fprintf(stderr, "%s: failed to load policy from %s\n",
				argv[0], policy_file);
			fclose(pf);
			return EXIT_FAILURE;
		}
		fclose(pf);
	}
	if (refresh)
		return refresh_index(argv[0], in) < 0 ? EXIT_FAILURE :
							EXIT_SUCCESS;
	if (index_only)
		return write_index(argv[0], in, out) < 0 ? EXIT_FAILURE :
							   EXIT_SUCCESS;
	if (!out) {
		if (asprintf(&def, "%s.bin", in) < 0)
			return EXIT_FAILURE;
		out = def;
	} else {
		no_index = true;
	}
	r = lbl_fc_compile(in, out, version, no_regex,
			   policy_file ? check_context : NULL, &stage, &what);
	/* Debian's exit status: 255 when the input does not parse or the
	 * output cannot be written, its messages naming the step. */
	if (r < 0 && stage == LBL_FC_READ)
		fprintf(stderr, "%s: process_file failed\n", argv[0]);
	else if (r < 0 && !strcmp(what, "rename"))
		fprintf(stderr, "%s: rename %sXXXXXX -> %s failed: %s\n",
			argv[0], out, out, strerror(-r));
	else if (r < 0)
		fprintf(stderr, "%s: %s %s failed: %s\n", argv[0], what, out,
			strerror(-r));
	free(def);
	if (r >= 0 && !no_index)
		write_index(argv[0], in, NULL);
	return r < 0 ? 255 : EXIT_SUCCESS;
}
