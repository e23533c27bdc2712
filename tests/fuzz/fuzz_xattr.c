/*
 * Fuzz target for the extended attributes the library reads:
 * security.selinux (a file's label, as getfilecon and restorecon read
 * it) and security.sehash (the digest restorecon leaves on a directory).
 * The input, cut at lines "@@" (fuzz_common.h), is the label of the
 * file t/f (and of the symlink t/l to it), of the directory t and of
 * t/sub, the sehash of t and of t/sub, and a byte choosing flags.  An
 * attribute whose part is missing (fewer "@@" lines) is removed; an
 * empty one is set empty.  The tree is on a disk file system (not
 * tmpfs, which selinux_restorecon_xattr skips): FUZZ_XATTR_DIR, or
 * /var/tmp.  Setting security.* attributes needs CAP_SYS_ADMIN: run as
 * root (the target says so and exits otherwise).
 *
 * Checked, from what the headers and the kernel's formats say:
 *  - getfilecon_raw, lgetfilecon_raw and fgetfilecon_raw give the
 *    attribute's size and its bytes (NUL-terminated), or -1 with
 *    ENOTSUP for an empty one (ENODATA when there is none);
 *    getfilecon gives strlen + 1 of the label up to its first NUL;
 *  - selabel_get_digests_all_partial_matches gives the stored digest
 *    exactly when it is 20 bytes long, and "match" only when both
 *    digests are there and equal;
 *  - selinux_restorecon_xattr lists the directories with a 20-byte
 *    digest, as lower-case hex, and removes them as its flags say;
 *  - selinux_restorecon, whatever the labels: 0, or -1 with errno; with
 *    SET_SPECFILE_CTX and IGNORE_DIGEST it labels as file_contexts says.
 */
#include <errno.h>
#include <stdbool.h>
#include <sys/xattr.h>

#include <selinux/label.h>
#include <selinux/restorecon.h>

#include "fuzz_common.h"

#define SEL "security.selinux"
#define HASH "security.sehash"
/* ext4 keeps a file's attributes in one block: room for two of these. */
#define MAXVAL 1500

enum { P_F, P_T, P_SUB, P_HASH_T, P_HASH_SUB, P_FLAGS, NPARTS };

static struct selabel_handle *hnd;

static void setup(void)
{
	const char *base = getenv("FUZZ_XATTR_DIR");
	char fc[2048];
	struct selinux_opt opt[] = {
	    {SELABEL_OPT_PATH, NULL},
	    {SELABEL_OPT_DIGEST, (char *)1},
	};

	fz_init_in("xattr", base ? base : "/var/tmp");
	fz_mkdirs("t/sub");
	fz_mkdirs("etc/selinux/t/contexts");
	fz_writes("etc/selinux/config", "SELINUXTYPE=t\n");
	fz_writes("etc/selinux/t/contexts/customizable_types", "cust_t\n");
	core_set_config_root(fz_path("etc/selinux"));
	fz_write("t/f", "", 0);
	if (symlink("f", fz_path("t/l")) < 0)
		abort();
	if (lsetxattr(fz_path("t/f"), SEL, "x", 1, 0) < 0) {
		fprintf(stderr,
			"fuzz_xattr: setting %s on %s: %s "
			"(run as root, on a disk file system)\n",
			SEL, fz_path("t/f"), strerror(errno));
		exit(77);
	}
	snprintf(fc, sizeof(fc),
		 "%s(/.*)?\tsystem_u:object_r:t_t:s0\n"
		 "%s/sub(/.*)?\tsystem_u:object_r:sub_t:s0\n"
		 "%s/f\t--\tsystem_u:object_r:f_t:s0\n",
		 fz_path("t"), fz_path("t"), fz_path("t"));
	fz_writes("fc", fc);
	opt[0].value = fz_path("fc");
	hnd = selabel_open(SELABEL_CTX_FILE, opt, 2);
	if (!hnd)
		abort();
	selinux_restorecon_set_sehandle(hnd);
}

/* Set (or, absent, remove) attribute name of rel to part p. */
static void set_attr(const char *rel, const char *name, const struct fz_part *p,
		     bool absent)
{
	size_t n = p->n < MAXVAL ? p->n : MAXVAL;

	if (absent) {
		if (lremovexattr(fz_path(rel), name) < 0 && errno != ENODATA)
			abort();
	} else if (lsetxattr(fz_path(rel), name, p->p, n, 0) < 0) {
		abort();
	}
}

/* The label of rel as each call reads it, against p (absent: none). */
static void labels(const char *rel, const struct fz_part *p, bool absent,
		   bool follow)
{
	size_t n = p->n < MAXVAL ? p->n : MAXVAL;
	char *con = NULL;
	ssize_t r;
	int fd;

	errno = 0;
	r = follow ? getfilecon_raw(fz_path(rel), &con)
		   : lgetfilecon_raw(fz_path(rel), &con);
	if (absent || !n) {
		if (r != -1 || errno != (absent ? ENODATA : ENOTSUP))
			abort();
	} else if (r != (ssize_t)n || !con || memcmp(con, p->p, n) || con[n]) {
		abort();
	}
	freecon(con);
	con = NULL;
	errno = 0;
	r = follow ? getfilecon(fz_path(rel), &con)
		   : lgetfilecon(fz_path(rel), &con);
	if (absent || !n) {
		if (r != -1 || !errno)
			abort();
	} else if (r != (ssize_t)strnlen((const char *)p->p, n) + 1 || !con ||
		   memcmp(con, p->p, (size_t)r - 1)) {
		abort();
	}
	freecon(con);
	if (!follow)
		return;
	fd = open(fz_path(rel), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		abort();
	con = NULL;
	errno = 0;
	r = fgetfilecon_raw(fd, &con);
	if (absent || !n ? r != -1 : r != (ssize_t)n || memcmp(con, p->p, n))
		abort();
	freecon(con);
	close(fd);
}

/* The stored digest of dir is its 20-byte sehash (p) or none. */
static bool digest20(const struct fz_part *p, bool absent)
{
	return !absent && p->n == 20;
}

static void digests(const char *rel, const struct fz_part *p, bool absent)
{
	uint8_t *calc = NULL, *stored = NULL;
	size_t len = 0;
	bool match = selabel_get_digests_all_partial_matches(
	    hnd, fz_path(rel), &calc, &stored, &len);

	if (len != 20 || !stored != !digest20(p, absent) ||
	    (stored && memcmp(stored, p->p, 20)) ||
	    (match && (!calc || !stored || memcmp(calc, stored, 20))))
		abort();
	free(calc);
	free(stored);
}

static void xattr_list(const struct fz_part *part, size_t found, unsigned flags)
{
	static const char *const rel[2] = {"t", "t/sub"};
	bool want[2] = {digest20(&part[P_HASH_T], found <= P_HASH_T),
			digest20(&part[P_HASH_SUB], found <= P_HASH_SUB)};
	struct dir_xattr **list = NULL, *e, *next;
	size_t k = 0;

	errno = 0;
	if (selinux_restorecon_xattr(fz_path("t"),
				     flags | SELINUX_RESTORECON_XATTR_RECURSE |
					 SELINUX_RESTORECON_XATTR_IGNORE_MOUNTS,
				     &list) != 0)
		abort();
	for (e = list ? *list : NULL; e; e = next) {
		const struct fz_part *p;
		uint8_t left[21];
		ssize_t n;

		while (k < 2 && !want[k])
			k++;
		if (k == 2 || strcmp(e->directory, fz_path(rel[k])))
			abort();
		p = &part[k ? P_HASH_SUB : P_HASH_T];
		if (strlen(e->digest) != 40)
			abort();
		for (size_t i = 0; i < 20; i++) {
			char hex[3];

			snprintf(hex, sizeof(hex), "%02x", p->p[i]);
			if (memcmp(e->digest + 2 * i, hex, 2))
				abort();
		}
		n = getxattr(e->directory, HASH, left, sizeof(left));
		switch (e->result) {
		case MATCH:
		case NOMATCH:
			if (flags &
				SELINUX_RESTORECON_XATTR_DELETE_ALL_DIGESTS ||
			    (e->result == NOMATCH &&
			     flags &
				 SELINUX_RESTORECON_XATTR_DELETE_NONMATCH_DIGESTS) ||
			    n != 20)
				abort();
			break;
		case DELETED_MATCH:
		case DELETED_NOMATCH:
			if (!(flags &
			      (SELINUX_RESTORECON_XATTR_DELETE_ALL_DIGESTS |
			       SELINUX_RESTORECON_XATTR_DELETE_NONMATCH_DIGESTS)) ||
			    n >= 0)
				abort();
			break;
		default:
			abort();
		}
		k++;
		next = e->next;
		free(e->directory);
		free(e->digest);
		free(e);
	}
	while (k < 2 && !want[k])
		k++;
	if (k != 2)
		abort(); /* a directory with a digest was not listed */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned rc_flags[8] = {
	    0,
	    SELINUX_RESTORECON_NOCHANGE,
	    SELINUX_RESTORECON_SET_SPECFILE_CTX |
		SELINUX_RESTORECON_IGNORE_DIGEST,
	    SELINUX_RESTORECON_IGNORE_DIGEST,
	    SELINUX_RESTORECON_SET_USER_ROLE,
	    SELINUX_RESTORECON_COUNT_ERRORS | SELINUX_RESTORECON_VERBOSE,
	    SELINUX_RESTORECON_NOCHANGE | SELINUX_RESTORECON_LOG_MATCHES,
	    SELINUX_RESTORECON_SKIP_DIGEST | SELINUX_RESTORECON_XDEV,
	};
	struct fz_part part[NPARTS];
	size_t found;
	uint8_t b;
	unsigned flags, xflags;
	int r;

	if (!hnd)
		setup();
	found = fz_split(data, size, part, NPARTS);
	set_attr("t/f", SEL, &part[P_F], found <= P_F);
	set_attr("t/l", SEL, &part[P_F], found <= P_F);
	set_attr("t", SEL, &part[P_T], found <= P_T);
	set_attr("t/sub", SEL, &part[P_SUB], found <= P_SUB);
	set_attr("t", HASH, &part[P_HASH_T], found <= P_HASH_T);
	set_attr("t/sub", HASH, &part[P_HASH_SUB], found <= P_HASH_SUB);
	b = part[P_FLAGS].n ? part[P_FLAGS].p[0] : 0;
	flags = rc_flags[b & 7];
	xflags = (b >> 3) & 3
		     ? ((b >> 3) & 1
			    ? SELINUX_RESTORECON_XATTR_DELETE_ALL_DIGESTS
			    : SELINUX_RESTORECON_XATTR_DELETE_NONMATCH_DIGESTS)
		     : 0;

	labels("t/f", &part[P_F], found <= P_F, true);
	labels("t/l", &part[P_F], found <= P_F, false);
	labels("t/l", &part[P_F], found <= P_F, true);
	labels("t", &part[P_T], found <= P_T, true);
	digests("t", &part[P_HASH_T], found <= P_HASH_T);
	digests("t/sub", &part[P_HASH_SUB], found <= P_HASH_SUB);
	xattr_list(part, found, xflags);

	errno = 0;
	r = selinux_restorecon(fz_path("t"),
			       flags | SELINUX_RESTORECON_RECURSE |
				   SELINUX_RESTORECON_IGNORE_MOUNTS);
	if (r != 0 && (r != -1 || !errno))
		abort();
	if (r == 0 && (flags & SELINUX_RESTORECON_SET_SPECFILE_CTX)) {
		char *con = NULL;

		if (getfilecon_raw(fz_path("t/f"), &con) < 0 ||
		    strcmp(con, "system_u:object_r:f_t:s0"))
			abort();
		freecon(con);
	}
	return 0;
}
