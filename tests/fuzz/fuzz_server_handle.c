/*
 * Fuzz target for the security server's per-handle logic
 * (kernel/server/handle.c: what fuse.c keeps between a client's requests
 * on an open file), called as fuse.c calls it, no mount.  Built with
 * SRV_MAX_WRITE 512 and SRV_PAGE 128, so that the small policy it
 * loads (FUZZ_POLICY: tests/fuzz/seed/load/tiny-mls.33, 1125 bytes)
 * arrives in pieces as a policy of megabytes does with 1 MiB and 4 KiB.
 *
 * The input is a program of up to 48 steps over 4 handle slots; each
 * step is a byte (the operation, low 3 bits; the slot, the next 2) and
 * the bytes it takes:
 *   open F U     open file F (of a list: the transaction files, load,
 *                policy, enforce, a boolean, status, null,
 *                validatetrans, a class index, mls, a directory) as
 *                root or, U odd,
 *                as uid 1000 (the slot's handle released first)
 *   write M N .. N bytes (4 N with M's top bit and N odd; from the
 *                input; a context or two of the
 *                policy put before them when M says so) at an offset M
 *                picks: the slot's next one, 0, 1, or 2^40
 *   read O Z     Z bytes at offset O
 *   flush, release
 *   load S V K   a load as FUSE hands over one write(2) of it from a
 *                buffer S bytes into a page: pieces of SRV_MAX_WRITE - S,
 *                then SRV_MAX_WRITE, ..., the rest; of the policy whole
 *                (V 0), cut at K (1), with byte K changed (2), or of
 *                input bytes (3); each piece written until one fails,
 *                then flush and release
 *   policy       the "policy" file's rules: a second open is EBUSY, uid
 *                1000's is EACCES, the bytes read are the policy's
 * (Its loads have a budget of 60 s, SRV_LOAD_BASE_MS, the time a
 * fuzzer niced on a busy machine may take; a whole policy that fails
 * with ENOMEM ran out of it even so.  A forged one can take no more
 * than the budget's 256 KiB allow.)
 * Checked: every result is >= 0 or -errno, a write takes all or nothing,
 * a read's window lies within what it reads; a transaction answers
 * nothing before its write (from any offset), its answer (from the
 * offset after the write) is what the same request answers on a handle
 * of its own, and a second write is EBUSY; a load of the whole policy
 * loads (policyload moves, every piece and the flush succeed), a load
 * cut short never does, and any load moved policyload exactly when
 * every piece and the flush succeeded.  Every handle is released at the
 * end of an input, and the policy loaded again if it changed, so that
 * an input reproduces alone (those still open then as when the server
 * stops: hnd_release_all).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "handle.h"
#include "status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef FUZZ_POLICY
#define FUZZ_POLICY ""
#endif

#define SLOTS 4
#define STEPS 48

static char *base; /* the policy's bytes */
static size_t baselen;

enum {
	F_ACCESS,
	F_CREATE,
	F_RELABEL,
	F_MEMBER,
	F_USER,
	F_CONTEXT,
	F_LOAD,
	F_POLICY,
	F_ENFORCE,
	F_BOOL,
	F_STATUS,
	F_NULL,
	F_VALIDATETRANS,
	F_CLASSINDEX,
	F_MLS,
	F_DIR,
	NFILES
};
static const char *const file_path[NFILES] = {
    "access",	     "create",		 "relabel", "member",
    "user",	     "context",		 "load",    "policy",
    "enforce",	     "booleans/b",	 "status",  "null",
    "validatetrans", "class/file/index", "mls",	    "class",
};
static uint64_t file_ino[NFILES];

/* contexts of the policy, put before a request's bytes */
static const char *const ctx[] = {
    "u:r:t:s0",		 "u:object_r:u_t:s0",
    "u:r:t:s0-s1:c0.c2", "u:object_r:u_t:s1:c1",
    "u:r:u_t:s0:c0,c2",	 "u:r:t",
};
#define NCTX (sizeof(ctx) / sizeof(ctx[0]))

struct slot {
	struct handle *h;
	int file;
	unsigned uid;
	uint64_t next; /* where a write would continue */
	bool written;  /* a transaction's request taken */
	uint64_t base; /* where its answer starts */
	char *answer;  /* the answer a fresh handle gives that request */
	size_t anslen;
};
static struct slot slots[SLOTS];

static void bad(const char *why)
{
	fprintf(stderr, "fuzz_server_handle: %s\n", why);
	abort();
}

static void check_rc(long r)
{
	if (r < -4095)
		bad("a result below -4095");
}

static bool is_tx(int f)
{
	return f <= F_CONTEXT;
}

static uint64_t lookup(const char *path)
{
	uint64_t dir = 1;
	char buf[64], *p, *save = NULL;
	struct sfs_node n;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (sfs_lookup(dir, p, &n) < 0)
			return 0;
		dir = n.ino;
	}
	return dir;
}

static void find_files(void)
{
	for (int i = 0; i < NFILES; i++)
		file_ino[i] = lookup(file_path[i]);
}

static void setup(void)
{
	const char *path = getenv("FUZZ_POLICY");
	FILE *f;
	long n;

	if (!path || !*path)
		path = FUZZ_POLICY;
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) <= 0)
		bad("no policy (FUZZ_POLICY)");
	rewind(f);
	base = malloc((size_t)n);
	if (!base || fread(base, 1, (size_t)n, f) != (size_t)n)
		bad("cannot read the policy");
	fclose(f);
	baselen = (size_t)n;
	if (sfs_start(base, baselen, 0) < 0)
		bad("the policy does not load");
	find_files();
}

static void drop(struct slot *s)
{
	if (s->h)
		hnd_release(s->h);
	free(s->answer);
	memset(s, 0, sizeof(*s));
}

/* What the request answers on a handle of its own: *ans, or NULL and
 * the error. */
static int reference(int f, const char *req, size_t len, char **ans,
		     size_t *anslen)
{
	struct handle *h;
	const char *d;
	size_t n;
	ssize_t w;
	int r;

	*ans = NULL;
	*anslen = 0;
	if ((r = hnd_open(file_ino[f], 0, &h)) < 0)
		bad("a transaction file does not open");
	w = hnd_write(h, req, len, 0, 0);
	check_rc(w);
	if (w >= 0 && (r = hnd_read(h, len, 1 << 16, &d, &n)) == 0) {
		*ans = malloc(n ? n : 1);
		if (!*ans)
			bad("out of memory");
		memcpy(*ans, d, n);
		*anslen = n;
	}
	hnd_release(h);
	return w < 0 ? (int)w : 0;
}

static void op_open(struct slot *s, const uint8_t **p, const uint8_t *end)
{
	int f;
	unsigned uid;
	int r;

	if (*p >= end)
		return;
	f = **p % NFILES;
	uid = **p & 0x80 ? 1000 : 0;
	(*p)++;
	drop(s);
	if (!file_ino[f])
		return;
	r = hnd_open(file_ino[f], uid, &s->h);
	check_rc(r);
	if (r < 0) {
		s->h = NULL;
		if (f == F_POLICY && uid == 0 && r != -EBUSY)
			bad("root cannot open policy");
		if (f == F_DIR ? r != -EISDIR : f != F_POLICY && r != -ENOENT)
			bad("a file does not open, or a directory does");
		return;
	}
	if (f == F_POLICY && uid != 0)
		bad("uid 1000 opened policy");
	s->file = f;
	s->uid = uid;
}

static void op_write(struct slot *s, const uint8_t **p, const uint8_t *end)
{
	char buf[1200];
	size_t n = 0, len;
	uint64_t off;
	uint8_t mode;
	ssize_t w;

	if (!s->h || end - *p < 2)
		return;
	mode = *(*p)++;
	len = *(*p)++;
	if (mode & 0x80 && len & 1) /* up to 1020: a whole piece of a load */
		len *= 4;
	if (mode & 4)
		n = (size_t)snprintf(
		    buf, sizeof(buf), "%s %s %u ", ctx[(mode >> 3) % NCTX],
		    ctx[(mode >> 5) % NCTX], (unsigned)(1 + (len & 1)));
	if (len > (size_t)(end - *p))
		len = (size_t)(end - *p);
	memcpy(buf + n, *p, len);
	*p += len;
	len += n;
	off = (mode & 3) == 0	? s->next
	      : (mode & 3) == 1 ? 0
	      : (mode & 3) == 2 ? 1
				: (uint64_t)1 << 40;
	if (is_tx(s->file) && !s->written) {
		free(s->answer);
		reference(s->file, buf, len, &s->answer, &s->anslen);
	}
	w = hnd_write(s->h, buf, len, off, s->uid);
	check_rc(w);
	if (w >= 0 && (size_t)w != len)
		bad("a write took part of its bytes");
	if (is_tx(s->file)) {
		if (s->written && w != -EBUSY)
			bad("a second write to a transaction is not EBUSY");
		if (!s->written && w >= 0) {
			s->written = true;
			s->base = off + len;
			if (!s->answer)
				bad("a request answered here and not alone");
		} else if (!s->written && s->answer) {
			bad("a request refused here and answered alone");
		}
	}
	if (w >= 0)
		s->next = off + len;
}

static void op_read(struct slot *s, const uint8_t **p, const uint8_t *end)
{
	const char *d;
	size_t n, size;
	uint64_t off;
	int r;

	if (!s->h || end - *p < 3)
		return;
	off = (*p)[0] & 0x80 ? s->base + ((*p)[0] & 0x7f) : (*p)[0];
	size = (size_t)((*p)[1] | (*p)[2] << 8);
	*p += 3;
	r = hnd_read(s->h, off, size, &d, &n);
	check_rc(r);
	if (r < 0)
		return;
	if (n > size || (n && !d))
		bad("a read's window is out of bounds");
	if (!is_tx(s->file))
		return;
	if (!s->written) {
		if (n)
			bad("a transaction answers before its request");
		return;
	}
	{
		/* from the offset after the request; a read before it reads
		 * from the answer's start (handle.c) */
		uint64_t at = off >= s->base ? off - s->base : off;
		size_t want = at >= s->anslen ? 0
			      : size < s->anslen - at
				  ? size
				  : (size_t)(s->anslen - at);

		if (n != want || (n && memcmp(d, s->answer + at, n)))
			bad("a transaction's answer differs from its own");
	}
}

/* One write(2) of len bytes from a buffer skew bytes into a page, as
 * FUSE hands it over: whole pages of the buffer, SRV_MAX_WRITE at most
 * a piece.  0 when every piece and the flush succeeded, else the first
 * error. */
static int load_as_fuse(const char *bytes, size_t len, size_t skew)
{
	struct handle *h;
	size_t off = 0;
	int err = 0, r;

	if (hnd_open(file_ino[F_LOAD], 0, &h) < 0)
		bad("load does not open");
	while (!err && off < len) {
		size_t room = SRV_MAX_WRITE - (off == 0 ? skew : 0);
		size_t n = len - off < room ? len - off : room;
		ssize_t w = hnd_write(h, bytes + off, n, off, 0);

		check_rc(w);
		if (w >= 0 && (size_t)w != n)
			bad("a piece of a load taken in part");
		if (w < 0)
			err = (int)w;
		off += n;
	}
	r = hnd_flush(h, 0);
	check_rc(r);
	if (!err)
		err = r;
	hnd_release(h);
	return err;
}

static void op_load(const uint8_t **p, const uint8_t *end)
{
	uint32_t before = status_page()->policyload;
	size_t skew, k, len = baselen;
	char *bytes;
	uint8_t v;
	bool ok;
	int err;

	if (end - *p < 3)
		return;
	skew = (*p)[0] % SRV_PAGE;
	v = (*p)[1] % 4;
	k = (size_t)(*p)[2] * 8 % baselen;
	*p += 3;
	bytes = malloc(baselen);
	if (!bytes)
		bad("out of memory");
	memcpy(bytes, base, baselen);
	if (v == 1)
		len = k;
	else if (v == 2)
		bytes[k] ^= (char)(1 + (k & 0x7f));
	else if (v == 3) {
		len =
		    (size_t)(end - *p) < baselen ? (size_t)(end - *p) : baselen;
		memcpy(bytes, *p, len);
		*p += len;
	}
	if (len == 0) { /* FUSE hands a write of nothing to no one */
		free(bytes);
		return;
	}
	err = load_as_fuse(bytes, len, skew);
	ok = err == 0;
	free(bytes);
	if (ok != (status_page()->policyload != before))
		bad("a load moved policyload without succeeding, or the "
		    "reverse");
	/* (ENOMEM: the load's budget, time above all on a busy machine) */
	if (v == 0 && !ok && err != -ENOMEM)
		bad("the whole policy does not load");
	if (v == 1 && ok)
		bad("a policy cut short loads");
}

static void op_policy(void)
{
	struct handle *a, *b;
	char *copy = NULL;
	const char *d;
	size_t n, clen = 0, got = 0;
	int r;

	for (int i = 0; i < SLOTS; i++)
		if (slots[i].h && slots[i].file == F_POLICY)
			return; /* a slot holds it */
	if (hnd_open(file_ino[F_POLICY], 1000, &a) != -EACCES)
		bad("uid 1000 opens policy");
	if ((r = hnd_open(file_ino[F_POLICY], 0, &a)) < 0)
		bad("root cannot open policy");
	if (hnd_open(file_ino[F_POLICY], 0, &b) != -EBUSY)
		bad("a second open of policy is not EBUSY");
	if (sfs_read(file_ino[F_POLICY], &copy, &clen) < 0)
		bad("policy does not read");
	while (hnd_read(a, got, 300, &d, &n) == 0 && n) {
		if (got + n > clen || memcmp(copy + got, d, n))
			bad("policy reads other bytes");
		got += n;
	}
	if (got != clen)
		bad("policy reads short");
	free(copy);
	hnd_release(a);
	if ((r = hnd_open(file_ino[F_POLICY], 0, &a)) < 0)
		bad("policy does not open again");
	hnd_release(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	uint32_t load0;

	if (!base)
		setup();
	load0 = status_page()->policyload;
	for (int step = 0; step < STEPS && p < end; step++) {
		uint8_t op = *p++;
		struct slot *s = &slots[(op >> 3) & (SLOTS - 1)];

		switch (op & 7) {
		case 0:
			op_open(s, &p, end);
			break;
		case 1:
			op_write(s, &p, end);
			break;
		case 2:
			op_read(s, &p, end);
			break;
		case 3:
			if (s->h)
				check_rc(hnd_flush(s->h, 0));
			break;
		case 4:
			drop(s);
			break;
		case 5:
			op_load(&p, end);
			break;
		case 6:
			op_policy();
			break;
		default:
			/* a read at 0 then at the slot's next offset */
			if (s->h) {
				const char *d;
				size_t n;

				check_rc(hnd_read(s->h, 0, 64, &d, &n));
				check_rc(hnd_read(s->h, s->next, 64, &d, &n));
			}
		}
	}
	/* the handles left: freed as when the server stops (no RELEASE) */
	for (int i = 0; i < SLOTS; i++) {
		slots[i].h = NULL;
		drop(&slots[i]);
	}
	hnd_release_all();
	if (status_page()->policyload != load0) {
		/* back to the policy (a piece's change may have loaded) */
		int r = -ENOMEM;

		for (int i = 0; i < 3 && r == -ENOMEM; i++)
			r = sfs_load(base, baselen, 0);
		if (r < 0)
			bad("the policy does not load again");
		find_files(); /* booleans/, class/: a load renames them */
	}
	if (sfs_write(file_ino[F_ENFORCE], "0", 1, 0, 0) != 1)
		bad("enforce does not reset");
	return 0;
}
