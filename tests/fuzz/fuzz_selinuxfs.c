/*
 * Fuzz target for what the library reads from selinuxfs: the input, cut
 * at lines "@@" (fuzz_common.h), is the answer of "access", "user" and
 * "create", then class/file/index, class/file/perms/read and .../write,
 * "enforce", "deny_unknown", "policyvers" and the "status" page of a
 * fake selinuxfs (a plain directory, set_selinuxmnt() at it).
 *
 * A transaction file is a regular file here: the library writes its
 * request at offset 0 and reads the answer from where the write ended,
 * so the file holds as many filler bytes as the request (formatted as
 * the kernel takes it) and then the answer, which the read sees alone
 * and whole, up to the end of the file.  The status page is the part
 * padded with zeros to a page, its sequence made even (the kernel's is
 * odd only while it writes; a reader waits for even), then moved by 2
 * with enforcing flipped, as a setenforce would.
 *
 * Checked: each call succeeds or fails with errno set; a user list is
 * NULL-terminated; the second selinux_status_updated() sees the change.
 */
#include <errno.h>

#include <selinux/avc.h>

#include "fuzz_common.h"

#define SCON "a:b:c"
#define TCON "d:e:f"

enum {
	P_ACCESS,
	P_USER,
	P_CREATE,
	P_INDEX,
	P_READ,
	P_WRITE,
	P_ENFORCE,
	P_DENY,
	P_VERS,
	P_STATUS,
	NPARTS
};

/* The answer behind reqlen filler bytes (see above). */
static void answer(const char *rel, const char *req, const struct fz_part *a)
{
	size_t n = strlen(req);
	char *b = malloc(n + a->n + 1);

	if (!b)
		abort();
	memset(b, '#', n);
	memcpy(b + n, a->p, a->n);
	fz_write(rel, b, n + a->n);
	free(b);
}

static void fail_sets_errno(int r)
{
	if (r < 0 && errno == 0)
		abort();
}

static void compute(const struct fz_part *part)
{
	struct av_decision avd;
	char **list = NULL, *con = NULL;
	int r;

	answer("selinuxfs/access", SCON " " TCON " 6 3", &part[P_ACCESS]);
	errno = 0;
	fail_sets_errno(security_compute_av_flags_raw(SCON, TCON, 6, 3, &avd));
	answer("selinuxfs/user", SCON " jo", &part[P_USER]);
	errno = 0;
	r = security_compute_user_raw(SCON, "jo", &list);
	fail_sets_errno(r);
	if (r == 0) {
		size_t i = 0;

		while (list[i])
			(void)strlen(list[i++]);
		freeconary(list);
	}
	answer("selinuxfs/create", SCON " " TCON " 6", &part[P_CREATE]);
	errno = 0;
	r = security_compute_create_raw(SCON, TCON, 6, &con);
	fail_sets_errno(r);
	if (r == 0)
		freecon(con);
}

static void classes(const struct fz_part *part)
{
	security_class_t c;
	access_vector_t av;

	fz_write("selinuxfs/class/file/index", part[P_INDEX].p,
		 part[P_INDEX].n);
	fz_write("selinuxfs/class/file/perms/read", part[P_READ].p,
		 part[P_READ].n);
	fz_write("selinuxfs/class/file/perms/write", part[P_WRITE].p,
		 part[P_WRITE].n);
	selinux_flush_class_cache();
	errno = 0;
	c = string_to_security_class("file");
	if (!c) {
		if (!errno)
			abort();
		return;
	}
	if (mode_to_security_class(S_IFREG) != c)
		abort();
	av = string_to_av_perm(c, "read");
	av |= string_to_av_perm(c, "write");
	(void)string_to_av_perm(c, "nosuch");
	if (!security_class_to_string(c))
		abort();
	(void)security_av_perm_to_string(c, av ? av : 1);
	(void)security_av_perm_to_string(c, 0x80000000u);
	(void)security_class_to_string((security_class_t)(c + 1));
}

static void flags(const struct fz_part *part)
{
	int r;

	fz_write("selinuxfs/enforce", part[P_ENFORCE].p, part[P_ENFORCE].n);
	fz_write("selinuxfs/deny_unknown", part[P_DENY].p, part[P_DENY].n);
	fz_write("selinuxfs/policyvers", part[P_VERS].p, part[P_VERS].n);
	errno = 0;
	r = security_getenforce();
	if (r < -1 || r > 1 || (r < 0 && !errno))
		abort();
	errno = 0;
	/* The number as the kernel printed it, as the reference. */
	fail_sets_errno(security_deny_unknown());
	errno = 0;
	fail_sets_errno(security_policyvers());
	(void)is_selinux_mls_enabled();
}

static void status(const struct fz_part *part)
{
	static uint8_t page[65536];
	size_t size = (size_t)sysconf(_SC_PAGESIZE), n = part[P_STATUS].n;
	uint32_t seq, enf, load;
	int fd;

	if (size > sizeof(page))
		abort();
	memset(page, 0, size);
	memcpy(page, part[P_STATUS].p, n < size ? n : size);
	memcpy(&seq, page + 4, 4);
	seq &= ~1u;
	memcpy(page + 4, &seq, 4);
	fz_write("selinuxfs/status", page, size);

	errno = 0;
	if (selinux_status_open(0) != 0)
		abort(); /* a page is there: no reason to fail */
	if (selinux_status_updated() != 0)
		abort(); /* the first call only records the sequence */
	fail_sets_errno(selinux_status_getenforce());
	/* The load count is the page's, as an int: past INT_MAX negative,
	 * and no failure (avc.h). */
	memcpy(&load, page + 12, 4);
	if (selinux_status_policyload() != (int)load)
		abort();
	errno = 0;
	fail_sets_errno(selinux_status_deny_unknown());

	/* A setenforce: the sequence moves on, enforcing flips. */
	seq += 2;
	memcpy(&enf, page + 8, 4);
	enf = !enf;
	fd = open(fz_path("selinuxfs/status"), O_WRONLY | O_CLOEXEC);
	if (fd < 0 || pwrite(fd, &seq, 4, 4) != 4 ||
	    pwrite(fd, &enf, 4, 8) != 4)
		abort();
	close(fd);
	if (selinux_status_updated() != 1)
		abort();
	if (selinux_status_getenforce() != (int)enf)
		abort();
	selinux_status_close();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_part part[NPARTS];

	if (fz_init("selinuxfs")) {
		fz_mkdirs("selinuxfs/class/file/perms");
		set_selinuxmnt(fz_path("selinuxfs"));
	}
	fz_split(data, size, part, NPARTS);
	compute(part);
	classes(part);
	flags(part);
	status(part);
	return 0;
}
