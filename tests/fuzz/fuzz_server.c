/*
 * Fuzz target for the security server's request parsers (kernel/server),
 * called in-process through files.h as fuse.c calls them, no mount.
 *
 * fuzz_server (default): a policy is loaded once (FUZZ_POLICY, the
 * bundled MLS one unless the environment's FUZZ_POLICY names another).
 * The input, cut at lines "@@" (fuzz_common.h), is up to 8 requests; the
 * first byte of each picks the file (bits 0-5), the caller (uid 0, or
 * 1000 when bit 7 is set) and for a write the offset (1 when bit 6 is
 * set, which only null takes), the rest is the bytes written:
 *   transactions: access, create, relabel, member, user, context;
 *   writes: validatetrans, enforce, checkreqprot, avc/cache_threshold,
 *   disable, null, commit_pending_bools, booleans/<n> (the byte after
 *   the first picks the boolean), the first one at a non-zero offset.
 * Checked: every call returns >= 0 or -errno; an answer is there only on
 * success, within the kernel's transaction buffer; a context answer is
 * NUL-terminated and, given back to "context", answers itself (or, when
 * permissive, is refused as invalid: see transact()); what
 * enforce reads back and the status page agree with the last write.
 * Enforcing and the booleans go back to the policy's state after each
 * input, so that an input reproduces alone.
 *
 * fuzz_load (FUZZ_LOAD): the input is a policy written to "load"; when
 * it loads, every file of the new tree is listed and read (the policy
 * written back too), and a context asked for (the first initial SID's),
 * as a client would after a load.
 */
#include <errno.h>
#include <stdbool.h>

#include "files.h"
#include "fuzz_common.h"
#include "status.h"

#ifndef FUZZ_POLICY
#define FUZZ_POLICY ""
#endif

#define ROOT 1
#define TX_LIMIT (4096 - 8)
#define MAXREQ 8

static void bad(void)
{
	abort();
}

static uint64_t ino_of(uint64_t dir, const char *name)
{
	struct sfs_node n;

	if (sfs_lookup(dir, name, &n) < 0)
		return 0;
	return n.ino;
}

static void check_rc(int r)
{
	if (r < -4095)
		bad();
}

/* ---- walking the tree (fuzz_load, and the booleans of fuzz_server) ---- */

#define MAXNODES 4096
static uint64_t nodes[MAXNODES];
static unsigned char node_dir[MAXNODES];
static size_t nnodes;

static int collect(void *ctx, const char *name, const struct sfs_node *n,
		   uint64_t next)
{
	(void)ctx;
	(void)next;
	if (!name || !*name || strchr(name, '/'))
		bad(); /* a name FUSE would refuse */
	if (nnodes < MAXNODES) {
		node_dir[nnodes] = n->kind == SFS_DIR;
		nodes[nnodes++] = n->ino;
	}
	return 0;
}

/* Every node under root, breadth first (bounded); unused by the server
 * target, which walks what its requests touch. */
static __attribute__((unused)) void walk(void)
{
	nnodes = 0;
	node_dir[nnodes] = 1;
	nodes[nnodes++] = ROOT;
	for (size_t i = 0; i < nnodes; i++)
		if (node_dir[i])
			check_rc(sfs_readdir(nodes[i], 0, collect, NULL));
}

#ifdef FUZZ_LOAD

static void read_all(void)
{
	for (size_t i = 0; i < nnodes; i++) {
		char *data = NULL;
		size_t len = 0;
		int r;

		if (node_dir[i])
			continue;
		r = sfs_read(nodes[i], &data, &len);
		check_rc(r);
		if (r == 0 && len && !data)
			bad();
		free(data);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t initcon;
	char *ans = NULL, *con = NULL;
	size_t anslen, len;
	int r;

	r = sfs_load(data, size, 0);
	check_rc(r);
	if (r < 0)
		return 0;
	walk();
	read_all();
	/* The first initial SID's context, asked for as a client would. */
	initcon = ino_of(ROOT, "initial_contexts");
	nnodes = 0;
	if (initcon)
		check_rc(sfs_readdir(initcon, 0, collect, NULL));
	if (nnodes && sfs_read(nodes[0], &con, &len) == 0) {
		r = sfs_transact(ino_of(ROOT, "context"), con, len, 0, &ans,
				 &anslen);
		check_rc(r);
		free(ans);
	}
	free(con);
	return 0;
}

#else /* the requests */

enum op {
	OP_ACCESS,
	OP_CREATE,
	OP_RELABEL,
	OP_MEMBER,
	OP_USER,
	OP_CONTEXT,
	OP_VALIDATETRANS,
	OP_ENFORCE,
	OP_CHECKREQPROT,
	OP_THRESHOLD,
	OP_DISABLE,
	OP_NULL,
	OP_COMMIT,
	OP_BOOL,
	NOPS
};

static const char *const op_name[NOPS] = {
	"access",	 "create",	 "relabel",   "member",
	"user",		 "context",	 "validatetrans", "enforce",
	"checkreqprot",	 "cache_threshold", "disable",	  "null",
	"commit_pending_bools", NULL,
};

static uint64_t op_ino[NOPS];
#define MAXBOOLS 256
static uint64_t bool_ino[MAXBOOLS];
static size_t nbools;
static bool bools_dirty;

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	if (!f || fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) <= 0)
		abort();
	rewind(f);
	b = malloc((size_t)n);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void setup(void)
{
	const char *path = getenv("FUZZ_POLICY");
	uint64_t avc, booleans;
	size_t len;
	void *pol;

	if (!path || !*path)
		path = FUZZ_POLICY;
	pol = slurp(path, &len);
	if (sfs_start(pol, len, 0) < 0)
		abort();
	free(pol);
	avc = ino_of(ROOT, "avc");
	for (int i = 0; i < NOPS; i++)
		if (op_name[i])
			op_ino[i] = ino_of(i == OP_THRESHOLD ? avc : ROOT,
					   op_name[i]);
	booleans = ino_of(ROOT, "booleans");
	nnodes = 0;
	sfs_readdir(booleans, 0, collect, NULL);
	for (size_t i = 0; i < nnodes && nbools < MAXBOOLS; i++)
		bool_ino[nbools++] = nodes[i];
}

static bool is_context_answer(enum op op)
{
	return op == OP_CREATE || op == OP_RELABEL || op == OP_MEMBER ||
	       op == OP_CONTEXT;
}

static void transact(enum op op, const char *req, size_t len, unsigned uid)
{
	char *ans = (char *)1, *again = NULL;
	size_t anslen = 12345, againlen;
	int r;

	r = sfs_transact(op_ino[op], req, len, uid, &ans, &anslen);
	check_rc(r);
	if (r < 0) {
		if (ans || anslen)
			bad(); /* no answer with an error */
		return;
	}
	if (!ans || anslen > TX_LIMIT)
		bad();
	if (is_context_answer(op)) {
		if (!anslen || ans[anslen - 1] || strlen(ans) + 1 != anslen)
			bad();
		/* The canonical form answers itself; except that, like the
		 * kernel's security_compute_sid, a permissive server answers
		 * a computed context the policy does not allow (logged as
		 * invalid_context), which "context" then refuses: enforcing,
		 * the computation itself fails with EACCES. */
		r = sfs_transact(op_ino[OP_CONTEXT], ans, anslen, uid, &again,
				 &againlen);
		if (r == -EINVAL && op != OP_CONTEXT &&
		    !status_page()->enforcing) {
			free(ans);
			return;
		}
		if (r < 0 || againlen != anslen || memcmp(again, ans, anslen))
			bad();
		free(again);
	}
	free(ans);
}

static void check_enforce(void)
{
	char *data;
	size_t len;

	if (sfs_read(op_ino[OP_ENFORCE], &data, &len) < 0)
		bad();
	if (len != 1 || (data[0] != '0' && data[0] != '1') ||
	    status_page()->enforcing != (uint32_t)(data[0] - '0') ||
	    (status_page()->sequence & 1))
		bad();
	free(data);
}

static void request(const struct fz_part *part)
{
	enum op op;
	unsigned uid;
	const char *req;
	size_t len;
	uint64_t ino, off = 0;
	int r;

	if (!part->n)
		return;
	op = (enum op)((part->p[0] & 0x3f) % NOPS);
	uid = part->p[0] & 0x80 ? 1000 : 0;
	if (part->p[0] & 0x40 && op != OP_NULL)
		off = 1; /* a write past the start: refused */
	req = (const char *)part->p + 1;
	len = part->n - 1;
	if (op <= OP_CONTEXT) {
		transact(op, req, len, uid);
		return;
	}
	ino = op_ino[op];
	if (op == OP_BOOL) {
		if (!len || !nbools)
			return;
		ino = bool_ino[(uint8_t)req[0] % nbools];
		req++;
		len--;
	}
	r = sfs_write(ino, req, len, off, uid);
	check_rc(r);
	if (r >= 0 && (size_t)r != len)
		bad(); /* a write takes all or nothing */
	if (r >= 0 && (uid || off) && op != OP_NULL &&
	    op != OP_VALIDATETRANS)
		bad(); /* root's only, and at offset 0 */
	if (r >= 0 && (op == OP_COMMIT || op == OP_BOOL))
		bools_dirty = true;
	if (op == OP_ENFORCE)
		check_enforce();
}

/* Back to permissive, as the policy started. */
static void reset(void)
{
	if (sfs_write(op_ino[OP_ENFORCE], "0", 1, 0, 0) != 1)
		bad();
	check_enforce();
}

/* The booleans' values at the load, restored after an input that
 * changed them (a commit costs a flush of the decision cache). */
static unsigned char bool_default[MAXBOOLS];

static void remember_bools(void)
{
	for (size_t i = 0; i < nbools; i++) {
		char *data;
		size_t len;

		if (sfs_read(bool_ino[i], &data, &len) < 0 || len < 1)
			bad();
		bool_default[i] = data[0] == '1';
		free(data);
	}
}

static void restore_bools(void)
{
	if (!bools_dirty)
		return;
	for (size_t i = 0; i < nbools; i++)
		if (sfs_write(bool_ino[i], bool_default[i] ? "1" : "0", 1, 0,
			      0) != 1)
			bad();
	if (sfs_write(op_ino[OP_COMMIT], "1", 1, 0, 0) != 1)
		bad();
	bools_dirty = false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_part part[MAXREQ];
	size_t n;

	if (!op_ino[OP_ACCESS]) {
		setup();
		remember_bools();
	}
	n = fz_split(data, size, part, MAXREQ);
	for (size_t i = 0; i < n; i++)
		request(&part[i]);
	restore_bools();
	reset();
	return 0;
}

#endif
