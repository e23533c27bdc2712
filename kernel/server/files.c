/*
 * files.c: the selinuxfs files, as the Linux kernel (6.1, Debian 12's)
 * presents them: names, modes, and the bytes of every answer.
 *
 * Inodes: 1 is the root; the fixed files and directories follow it
 * (static_nodes[]).  The entries of the policy's directories (booleans/,
 * class/, initial_contexts/, policy_capabilities/) get inode numbers that
 * encode their kind, their index and the policy generation, so that an
 * entry of a replaced policy is stale (ENOENT / EINVAL) as in the kernel,
 * where a load recreates those directories.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "log.h"
#include "policy.h"
#include "state.h"
#include "status.h"

/* The kernel's page and its simple_transaction buffer. */
#define SFS_PAGE 4096
#define TRANSACTION_LIMIT (SFS_PAGE - 8)
/* What the kernel reports in policyvers: the newest format it reads. */
#define KERNEL_POLICYVERS 33

enum {
	I_ROOT = 1,
	I_ENFORCE,
	I_ACCESS,
	I_CREATE,
	I_RELABEL,
	I_MEMBER,
	I_USER,
	I_CONTEXT,
	I_VALIDATETRANS,
	I_LOAD,
	I_POLICY,
	I_POLICYVERS,
	I_MLS,
	I_DENY_UNKNOWN,
	I_REJECT_UNKNOWN,
	I_CHECKREQPROT,
	I_COMMIT,
	I_DISABLE,
	I_NULL,
	I_STATUS,
	I_BOOLEANS,
	I_CLASS,
	I_INITCON,
	I_POLCAPS,
	I_AVC,
	I_AVC_THRESHOLD,
	I_AVC_CACHE_STATS,
	I_AVC_HASH_STATS,
	I_SS,
	I_SS_SIDTAB,
	I_LAST
};

struct static_node {
	const char *name;
	uint64_t parent;
	enum sfs_kind kind;
	unsigned mode;
};

#define DIR_MODE (S_IFDIR | 0555)
#define REG(m) (S_IFREG | (m))

static const struct static_node static_nodes[I_LAST] = {
	[I_ROOT] = { "", 0, SFS_DIR, DIR_MODE },
	[I_ENFORCE] = { "enforce", I_ROOT, SFS_PLAIN, REG(0644) },
	[I_ACCESS] = { "access", I_ROOT, SFS_TRANSACTION, REG(0666) },
	[I_CREATE] = { "create", I_ROOT, SFS_TRANSACTION, REG(0666) },
	[I_RELABEL] = { "relabel", I_ROOT, SFS_TRANSACTION, REG(0666) },
	[I_MEMBER] = { "member", I_ROOT, SFS_TRANSACTION, REG(0666) },
	[I_USER] = { "user", I_ROOT, SFS_TRANSACTION, REG(0666) },
	[I_CONTEXT] = { "context", I_ROOT, SFS_TRANSACTION, REG(0666) },
	[I_VALIDATETRANS] = { "validatetrans", I_ROOT, SFS_PLAIN, REG(0666) },
	[I_LOAD] = { "load", I_ROOT, SFS_PLAIN, REG(0600) },
	[I_POLICY] = { "policy", I_ROOT, SFS_PLAIN, REG(0444) },
	[I_POLICYVERS] = { "policyvers", I_ROOT, SFS_PLAIN, REG(0444) },
	[I_MLS] = { "mls", I_ROOT, SFS_PLAIN, REG(0444) },
	[I_DENY_UNKNOWN] = { "deny_unknown", I_ROOT, SFS_PLAIN, REG(0444) },
	[I_REJECT_UNKNOWN] = { "reject_unknown", I_ROOT, SFS_PLAIN,
			       REG(0444) },
	[I_CHECKREQPROT] = { "checkreqprot", I_ROOT, SFS_PLAIN, REG(0644) },
	[I_COMMIT] = { "commit_pending_bools", I_ROOT, SFS_PLAIN, REG(0200) },
	[I_DISABLE] = { "disable", I_ROOT, SFS_PLAIN, REG(0200) },
	[I_NULL] = { "null", I_ROOT, SFS_PLAIN, REG(0666) },
	[I_STATUS] = { "status", I_ROOT, SFS_STATUS, REG(0444) },
	[I_BOOLEANS] = { "booleans", I_ROOT, SFS_DIR, DIR_MODE },
	[I_CLASS] = { "class", I_ROOT, SFS_DIR, DIR_MODE },
	[I_INITCON] = { "initial_contexts", I_ROOT, SFS_DIR, DIR_MODE },
	[I_POLCAPS] = { "policy_capabilities", I_ROOT, SFS_DIR, DIR_MODE },
	[I_AVC] = { "avc", I_ROOT, SFS_DIR, DIR_MODE },
	[I_AVC_THRESHOLD] = { "cache_threshold", I_AVC, SFS_PLAIN,
			      REG(0644) },
	[I_AVC_CACHE_STATS] = { "cache_stats", I_AVC, SFS_PLAIN, REG(0444) },
	[I_AVC_HASH_STATS] = { "hash_stats", I_AVC, SFS_PLAIN, REG(0444) },
	[I_SS] = { "ss", I_ROOT, SFS_DIR, DIR_MODE },
	[I_SS_SIDTAB] = { "sidtab_hash_stats", I_SS, SFS_PLAIN, REG(0444) },
};

/* Dynamic inodes: kind in bits 56-63, generation 40-55, index 0-39. */
enum dyn_kind {
	D_BOOL = 1,
	D_CLASSDIR,
	D_CLASSINDEX,
	D_PERMSDIR,
	D_PERM,
	D_INITCON,
	D_POLCAP,
};

static uint32_t generation; /* policy loads */
static uint32_t checkreqprot;
static uint32_t cache_threshold = 512;

static uint64_t dyn_ino(enum dyn_kind k, uint64_t idx)
{
	return ((uint64_t)k << 56) | ((uint64_t)(generation & 0xffff) << 40) |
	       (idx & 0xffffffffffull);
}

static enum dyn_kind dyn_kind(uint64_t ino)
{
	return (enum dyn_kind)(ino >> 56);
}

static uint64_t dyn_idx(uint64_t ino)
{
	return ino & 0xffffffffffull;
}

static bool dyn_current(uint64_t ino)
{
	return ((ino >> 40) & 0xffff) == (generation & 0xffff);
}

static void status_sync(void)
{
	status_update(state_enforcing() ? 1 : 0, state_seqno(),
		      pol_deny_unknown());
}

int sfs_start(const void *policy, size_t len, int enforce)
{
	int r = 0;

	if (policy) {
		r = pol_load(policy, len);
		if (r < 0)
			return r;
		generation++;
	}
	state_set_enforcing(enforce != 0);
	status_sync();
	return r;
}

/* ---- nodes ------------------------------------------------------------ */

static int fill_static(uint64_t ino, struct sfs_node *n)
{
	if (ino == 0 || ino >= I_LAST)
		return -ENOENT;
	n->ino = ino;
	n->kind = static_nodes[ino].kind;
	n->mode = static_nodes[ino].mode;
	return 0;
}

static int fill_dyn(uint64_t ino, struct sfs_node *n)
{
	uint64_t idx = dyn_idx(ino);
	uint32_t c, p;

	if (!dyn_current(ino))
		return -ENOENT;
	n->ino = ino;
	switch (dyn_kind(ino)) {
	case D_BOOL:
		if (idx >= pol_nbools())
			return -ENOENT;
		n->kind = SFS_PLAIN;
		n->mode = REG(0644);
		return 0;
	case D_CLASSDIR:
	case D_PERMSDIR:
		if (!pol_class_name((uint32_t)idx))
			return -ENOENT;
		n->kind = SFS_DIR;
		n->mode = DIR_MODE;
		return 0;
	case D_CLASSINDEX:
		if (!pol_class_name((uint32_t)idx))
			return -ENOENT;
		n->kind = SFS_PLAIN;
		n->mode = REG(0444);
		return 0;
	case D_PERM:
		c = (uint32_t)(idx >> 16);
		p = (uint32_t)(idx & 0xffff);
		if (!pol_perm_name(c, p))
			return -ENOENT;
		n->kind = SFS_PLAIN;
		n->mode = REG(0444);
		return 0;
	case D_INITCON:
		if (!pol_initsid_name((uint32_t)idx))
			return -ENOENT;
		n->kind = SFS_PLAIN;
		n->mode = REG(0444);
		return 0;
	case D_POLCAP:
		if (idx >= pol_npolcaps())
			return -ENOENT;
		n->kind = SFS_PLAIN;
		n->mode = REG(0444);
		return 0;
	}
	return -ENOENT;
}

int sfs_getnode(uint64_t ino, struct sfs_node *n)
{
	if (ino < I_LAST)
		return fill_static(ino, n);
	return fill_dyn(ino, n);
}

/* Walks the children of dir: fn(ctx, name, ino) for each; stops early
 * when fn returns non-zero. */
typedef int (*child_fn)(void *ctx, const char *name, uint64_t ino);

/* fn(ctx, name, ino) when name can be a file's name.  A policy's names
 * are bytes libsepol does not check: one that is empty, ".", "..",
 * holds a '/' or is longer than NAME_MAX (only a forged image has such
 * a name) is left out of its directory, which FUSE would otherwise
 * refuse whole (EIO). */
static int emit(child_fn fn, void *ctx, const char *name, uint64_t ino)
{
	if (!name || !*name || !strcmp(name, ".") || !strcmp(name, "..") ||
	    strchr(name, '/') || strnlen(name, NAME_MAX + 1) > NAME_MAX)
		return 0;
	return fn(ctx, name, ino);
}

static int children(uint64_t dir, child_fn fn, void *ctx)
{
	int r;

	if (dir < I_LAST) {
		if (dir == I_BOOLEANS) {
			for (uint32_t i = 0; i < pol_nbools(); i++)
				if ((r = emit(fn, ctx, pol_bool_name(i),
					    dyn_ino(D_BOOL, i))))
					return r;
			return 0;
		}
		if (dir == I_CLASS) {
			for (uint32_t c = 1; c <= pol_nclasses(); c++)
				if ((r = emit(fn, ctx, pol_class_name(c),
					    dyn_ino(D_CLASSDIR, c))))
					return r;
			return 0;
		}
		if (dir == I_INITCON) {
			for (uint32_t s = 1; s < SRV_NINITSIDS; s++)
				if (pol_initsid_name(s) &&
				    (r = emit(fn, ctx, pol_initsid_name(s),
					    dyn_ino(D_INITCON, s))))
					return r;
			return 0;
		}
		if (dir == I_POLCAPS) {
			for (uint32_t i = 0; i < pol_npolcaps(); i++)
				if ((r = emit(fn, ctx, pol_polcap_name(i),
					    dyn_ino(D_POLCAP, i))))
					return r;
			return 0;
		}
		for (uint64_t i = 2; i < I_LAST; i++)
			if (static_nodes[i].parent == dir &&
			    (r = emit(fn, ctx, static_nodes[i].name, i)))
				return r;
		return 0;
	}
	if (!dyn_current(dir))
		return 0;
	if (dyn_kind(dir) == D_CLASSDIR) {
		uint32_t c = (uint32_t)dyn_idx(dir);

		if ((r = emit(fn, ctx, "index", dyn_ino(D_CLASSINDEX, c))))
			return r;
		return emit(fn, ctx, "perms", dyn_ino(D_PERMSDIR, c));
	}
	if (dyn_kind(dir) == D_PERMSDIR) {
		uint32_t c = (uint32_t)dyn_idx(dir);

		for (uint32_t p = 1; p <= 32; p++) {
			const char *name = pol_perm_name(c, p);

			if (name && (r = emit(fn, ctx, name,
					    dyn_ino(D_PERM,
						    ((uint64_t)c << 16) | p))))
				return r;
		}
	}
	return 0;
}

struct lookup_ctx {
	const char *name;
	uint64_t found;
};

static int lookup_fn(void *vctx, const char *name, uint64_t ino)
{
	struct lookup_ctx *l = vctx;

	if (strcmp(name, l->name))
		return 0;
	l->found = ino;
	return 1;
}

int sfs_lookup(uint64_t parent, const char *name, struct sfs_node *node)
{
	struct lookup_ctx l = { name, 0 };
	struct sfs_node p;

	if (sfs_getnode(parent, &p) < 0)
		return -ENOENT;
	if (p.kind != SFS_DIR)
		return -ENOTDIR;
	children(parent, lookup_fn, &l);
	if (!l.found)
		return -ENOENT;
	return sfs_getnode(l.found, node);
}

struct readdir_ctx {
	uint64_t pos, from;
	int (*fn)(void *ctx, const char *name, const struct sfs_node *node,
		  uint64_t next);
	void *ctx;
};

static int readdir_fn(void *vctx, const char *name, uint64_t ino)
{
	struct readdir_ctx *d = vctx;
	struct sfs_node n;
	uint64_t pos = d->pos++;

	if (pos < d->from)
		return 0;
	if (sfs_getnode(ino, &n) < 0)
		return 0;
	return d->fn(d->ctx, name, &n, pos + 1);
}

int sfs_readdir(uint64_t dir, uint64_t from,
		int (*fn)(void *ctx, const char *name,
			  const struct sfs_node *node, uint64_t next),
		void *ctx)
{
	struct readdir_ctx d = { 0, from, fn, ctx };
	struct sfs_node n;

	if (sfs_getnode(dir, &n) < 0)
		return -ENOENT;
	if (n.kind != SFS_DIR)
		return -ENOTDIR;
	children(dir, readdir_fn, &d);
	return 0;
}

/* ---- reads -------------------------------------------------------------- */

static int text(char **data, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int text(char **data, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(data, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	*len = (size_t)n;
	return 0;
}

static int read_initcon(uint32_t sid, char **data, size_t *len)
{
	return pol_sid_to_context(sid, data, len);
}

static int read_dyn(uint64_t ino, char **data, size_t *len)
{
	uint64_t idx = dyn_idx(ino);
	int active, pending;

	if (!dyn_current(ino))
		return -EINVAL;
	switch (dyn_kind(ino)) {
	case D_BOOL:
		if (idx >= pol_nbools())
			return -EINVAL;
		pol_bool_get((uint32_t)idx, &active, &pending);
		return text(data, len, "%d %d", active, pending);
	case D_CLASSINDEX:
		return text(data, len, "%u", (unsigned)idx);
	case D_PERM:
		return text(data, len, "%u", (unsigned)(idx & 0xffff));
	case D_INITCON:
		return read_initcon((uint32_t)idx, data, len);
	case D_POLCAP:
		return text(data, len, "%d", pol_polcap((uint32_t)idx) ? 1 : 0);
	default:
		return -EISDIR;
	}
}

int sfs_read(uint64_t ino, char **data, size_t *len)
{
	struct srv_cache_stats st;

	if (ino >= I_LAST)
		return read_dyn(ino, data, len);
	switch (ino) {
	case I_ENFORCE:
		return text(data, len, "%u", state_enforcing() ? 1u : 0u);
	case I_POLICYVERS:
		return text(data, len, "%u", KERNEL_POLICYVERS);
	case I_MLS:
		return text(data, len, "%u", pol_mls());
	case I_DENY_UNKNOWN:
		return text(data, len, "%u", pol_deny_unknown());
	case I_REJECT_UNKNOWN:
		return text(data, len, "%u", pol_reject_unknown());
	case I_CHECKREQPROT:
		return text(data, len, "%u", checkreqprot);
	case I_AVC_THRESHOLD:
		return text(data, len, "%u", cache_threshold);
	case I_AVC_CACHE_STATS:
		pol_cache_stats(&st);
		return text(data, len,
			    "lookups hits misses allocations reclaims frees\n"
			    "%u %u %u %u %u %u\n",
			    st.lookups, st.hits, st.misses, st.allocations,
			    st.reclaims, st.frees);
	case I_AVC_HASH_STATS:
		return text(data, len,
			    "entries: %u\nbuckets used: %u/%u\n"
			    "longest chain: %u\n",
			    pol_cache_entries(), pol_cache_entries(), 65536u,
			    pol_cache_entries() ? 1u : 0u);
	case I_SS_SIDTAB: {
		/* the kernel's format; its "buckets" are our hash's slots,
		 * one per SID, and a chain the longest search */
		struct srv_sid_stats ss;

		pol_sid_stats(&ss);
		return text(data, len,
			    "entries: %u\nbuckets used: %u/%u\n"
			    "longest chain: %u\n",
			    ss.entries, ss.entries, ss.slots, ss.longest);
	}
	case I_NULL:
		return text(data, len, "%s", "");
	case I_POLICY: {
		/* a copy (a reader through handle.c shares the image) */
		struct pol_image *img;
		const char *bytes;
		size_t n;
		int r = pol_image_get(&img, &bytes, &n);

		if (r < 0)
			return r;
		*data = malloc(n ? n : 1);
		if (*data)
			memcpy(*data, bytes, n);
		pol_image_put(img);
		*len = n;
		return *data ? 0 : -ENOMEM;
	}
	case I_STATUS:
		/*
		 * analyzer: false positive (clang MallocSizeof): *data is a
		 * byte buffer holding a copy of the status page.
		 */
		*data = malloc(sizeof(struct srv_status));
		if (!*data)
			return -ENOMEM;
		memcpy(*data, status_page(), sizeof(struct srv_status));
		*len = sizeof(struct srv_status);
		return 0;
	default:
		/* load, commit_pending_bools, disable, validatetrans: write
		 * only; the transaction files are read through their handle. */
		return -EINVAL;
	}
}

/* ---- the kernel's sscanf, as far as selinuxfs uses it ------------------ */

static const char *skip_spaces(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* %s: a word into a malloc'd string. */
static const char *scan_word(const char *s, char **out)
{
	const char *e;

	s = skip_spaces(s);
	if (!*s)
		return NULL;
	for (e = s; *e && !isspace((unsigned char)*e); e++)
		;
	*out = strndup(s, (size_t)(e - s));
	return *out ? e : NULL;
}

/* %hu, %u, %x, %d: digits required; '-' only where signed. */
static const char *scan_num(const char *s, int base, bool sign,
			    unsigned long long *out)
{
	const char *d;
	char *end;
	bool neg = false;

	s = skip_spaces(s);
	d = s;
	if (sign && *d == '-') {
		neg = true;
		d++;
	}
	if (base == 16 ? !isxdigit((unsigned char)*d) :
			 !isdigit((unsigned char)*d))
		return NULL;
	errno = 0;
	*out = strtoull(d, &end, base);
	if (neg)
		*out = (unsigned long long)-(long long)*out;
	return end;
}

/* A request as a NUL-terminated copy: the kernel reads it as a string. */
static char *request(const char *data, size_t len)
{
	return strndup(data, len);
}

/* ---- writes ------------------------------------------------------------- */

static int write_int(const char *data, size_t len, uint64_t off, int *value)
{
	char *req;
	const char *p;
	unsigned long long v;

	if (off != 0)
		return -EINVAL;
	if (len >= SFS_PAGE)
		return -ENOMEM;
	req = request(data, len);
	if (!req)
		return -ENOMEM;
	p = scan_num(req, 10, true, &v);
	free(req);
	if (!p)
		return -EINVAL;
	*value = (int)v;
	return 0;
}

static int do_validatetrans(const char *data, size_t len, uint64_t off)
{
	char *req, *o = NULL, *n = NULL, *t = NULL;
	const char *p;
	unsigned long long cls;
	uint32_t os, ns, ts;
	int r = -EINVAL;

	if (len >= SFS_PAGE)
		return -ENOMEM;
	if (off != 0)
		return -EINVAL;
	req = request(data, len);
	if (!req)
		return -ENOMEM;
	pol_begin();
	/* "%s %s %hu %s": old context, new context, class, task context */
	p = scan_word(req, &o);
	if (p)
		p = scan_word(p, &n);
	if (p)
		p = scan_num(p, 10, false, &cls);
	if (p)
		p = scan_word(p, &t);
	if (p && pol_context_to_sid(o, strlen(o), &os) == 0 &&
	    pol_context_to_sid(n, strlen(n), &ns) == 0 &&
	    pol_context_to_sid(t, strlen(t), &ts) == 0)
		r = pol_validatetrans(os, ns, ts, (uint16_t)cls);
	free(req);
	free(o);
	free(n);
	free(t);
	return r < 0 ? r : (int)len;
}

int sfs_write(uint64_t ino, const char *data, size_t len, uint64_t off,
	      unsigned uid)
{
	int v, r;

	if (ino >= I_LAST) {
		uint64_t idx = dyn_idx(ino);

		if (dyn_kind(ino) != D_BOOL)
			return -EINVAL;
		if (uid != 0)
			return -EACCES;
		if (!dyn_current(ino) || idx >= pol_nbools())
			return -EINVAL;
		if ((r = write_int(data, len, off, &v)) < 0)
			return r;
		pol_bool_set_pending((uint32_t)idx, v);
		return (int)len;
	}
	switch (ino) {
	case I_ENFORCE:
		if (uid != 0)
			return -EACCES;
		if ((r = write_int(data, len, off, &v)) < 0)
			return r;
		v = v ? 1 : 0;
		if ((v != 0) != state_enforcing()) {
			state_set_enforcing(v != 0);
			srv_log("enforce: %d", v);
			status_sync();
		}
		return (int)len;
	case I_COMMIT:
		if (uid != 0)
			return -EACCES;
		if ((r = write_int(data, len, off, &v)) < 0)
			return r;
		if (v && pol_nbools()) {
			if ((r = pol_bools_commit()) < 0)
				return r;
			status_sync();
		}
		return (int)len;
	case I_CHECKREQPROT:
		if (uid != 0)
			return -EACCES;
		if ((r = write_int(data, len, off, &v)) < 0)
			return r;
		checkreqprot = v ? 1 : 0;
		return (int)len;
	case I_AVC_THRESHOLD:
		if (uid != 0)
			return -EACCES;
		if ((r = write_int(data, len, off, &v)) < 0)
			return r;
		cache_threshold = (uint32_t)v;
		return (int)len;
	case I_DISABLE:
		if (uid != 0)
			return -EACCES;
		if ((r = write_int(data, len, off, &v)) < 0)
			return r;
		/* Debian 12's kernel has no runtime disable. */
		return v ? -EINVAL : (int)len;
	case I_NULL:
		return (int)len;
	case I_VALIDATETRANS:
		return do_validatetrans(data, len, off);
	default:
		return -EINVAL;
	}
}

bool sfs_load_header_ok(const void *data, size_t len)
{
	return pol_header_ok(data, len);
}

/* The policy written to "load", whole (handle.c gathers the pieces). */
int sfs_load(const void *data, size_t len, unsigned uid)
{
	int r;

	if (uid != 0)
		return -EACCES;
	r = pol_load(data, len);
	if (r < 0)
		return r;
	generation++;
	srv_log("load: policy of %zu bytes, seqno %u", len, state_seqno());
	status_sync();
	return 0;
}

/* ---- transactions ------------------------------------------------------- */

static int answer_con(uint32_t sid, char **ans, size_t *anslen)
{
	int r = pol_sid_to_context(sid, ans, anslen);

	if (r < 0)
		return r;
	if (*anslen > TRANSACTION_LIMIT) {
		free(*ans);
		*ans = NULL;
		return -ERANGE;
	}
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The name of create's 4th field: '+' is a space, %XX a byte. */
static int url_decode(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		int c = (unsigned char)*r++;

		if (c == '+')
			c = ' ';
		else if (c == '%') {
			int h = hexval(r[0]), l = h < 0 ? -1 : hexval(r[1]);

			if (h < 0 || l < 0)
				return -EINVAL;
			c = h << 4 | l;
			r += 2;
			if (c == 0)
				break;
		}
		*w++ = (char)c;
	}
	*w = 0;
	return 0;
}

static int two_sids(const char **p, uint32_t *s, uint32_t *t)
{
	char *a = NULL, *b = NULL;
	int r = -EINVAL;

	errno = 0;
	*p = scan_word(*p, &a);
	if (*p)
		*p = scan_word(*p, &b);
	/* out of memory is ENOMEM, not an invalid request */
	if (!*p && errno == ENOMEM)
		r = -ENOMEM;
	if (*p) {
		r = pol_context_to_sid(a, strlen(a), s);
		if (r == 0)
			r = pol_context_to_sid(b, strlen(b), t);
	}
	free(a);
	free(b);
	return r;
}

static int tx_access(const char *req, char **ans, size_t *anslen)
{
	const char *p = req;
	uint32_t s, t;
	unsigned long long cls;
	struct srv_avd avd;
	int r;

	/*
	 * analyzer: false positive (clang CallAndMessage): two_sids() returns 0
	 * only with s and t set, pol_context_to_sid() returning 0 or -errno
	 * (policy.c, out of clang's sight).
	 */
	if ((r = two_sids(&p, &s, &t)) < 0)
		return r;
	/* Debian 12's kernel reads "%s %s %hu": the requested permissions
	 * that follow, if any, are ignored. */
	if (!(p = scan_num(p, 10, false, &cls)))
		return -EINVAL;
	if ((r = pol_compute_av(s, t, (uint16_t)cls, &avd)) < 0)
		return r;
	return text(ans, anslen, "%x %x %x %x %u %x", avd.allowed, avd.decided,
		    avd.auditallow, avd.auditdeny, avd.seqno, avd.flags);
}

static int tx_sid(const char *req, enum srv_sid_kind kind, bool named,
		  char **ans, size_t *anslen)
{
	const char *p = req;
	uint32_t s, t, n;
	unsigned long long cls;
	char *name = NULL;
	int r;

	/*
	 * analyzer: false positive (clang CallAndMessage): as in tx_access().
	 */
	if ((r = two_sids(&p, &s, &t)) < 0)
		return r;
	if (!(p = scan_num(p, 10, false, &cls)))
		return -EINVAL;
	if (named && scan_word(p, &name) && url_decode(name) < 0) {
		free(name);
		return -EINVAL;
	}
	r = pol_compute_sid(s, t, (uint16_t)cls, kind, name, &n);
	free(name);
	if (r < 0)
		return r;
	return answer_con(n, ans, anslen);
}

static int tx_user(const char *req, char **ans, size_t *anslen)
{
	const char *p = req;
	char *con = NULL, *user = NULL, *buf, *c;
	uint32_t from, *sids, n;
	size_t len, clen;
	int r;

	errno = 0;
	p = scan_word(p, &con);
	if (p)
		p = scan_word(p, &user);
	r = !p && errno == ENOMEM ? -ENOMEM : -EINVAL;
	if (p)
		r = pol_context_to_sid(con, strlen(con), &from);
	/*
	 * analyzer: false positive (clang CallAndMessage, below): pol_*()
	 * return 0 or -errno (policy.c), so r >= 0 here means sids and n set.
	 */
	if (p && r == 0)
		r = pol_user_sids(from, user, &sids, &n);
	free(con);
	free(user);
	if (r < 0)
		return r;
	buf = malloc(TRANSACTION_LIMIT + 1);
	if (!buf) {
		free(sids);
		return -ENOMEM;
	}
	len = (size_t)snprintf(buf, TRANSACTION_LIMIT, "%u", n) + 1;
	for (uint32_t i = 0; i < n; i++) {
		if ((r = pol_sid_to_context(sids[i], &c, &clen)) < 0)
			break;
		if (len + clen > TRANSACTION_LIMIT) {
			free(c);
			r = -ERANGE;
			break;
		}
		memcpy(buf + len, c, clen);
		len += clen;
		free(c);
	}
	free(sids);
	if (r < 0) {
		free(buf);
		return r;
	}
	*ans = buf;
	*anslen = len;
	return 0;
}

static int tx_context(const char *data, size_t len, char **ans,
		      size_t *anslen)
{
	uint32_t sid;
	int r;

	if ((r = pol_context_to_sid(data, len, &sid)) < 0)
		return r;
	return answer_con(sid, ans, anslen);
}

int sfs_transact(uint64_t ino, const char *data, size_t len, unsigned uid,
		 char **ans, size_t *anslen)
{
	char *req;
	int r;

	(void)uid;
	*ans = NULL;
	*anslen = 0;
	if (len > TRANSACTION_LIMIT - 1)
		return -EFBIG;
	if (!pol_loaded())
		return -EINVAL;
	pol_begin();
	if (ino == I_CONTEXT)
		return tx_context(data, len, ans, anslen);
	req = request(data, len);
	if (!req)
		return -ENOMEM;
	switch (ino) {
	case I_ACCESS:
		r = tx_access(req, ans, anslen);
		break;
	case I_CREATE:
		r = tx_sid(req, SRV_TRANSITION, true, ans, anslen);
		break;
	case I_RELABEL:
		r = tx_sid(req, SRV_CHANGE, false, ans, anslen);
		break;
	case I_MEMBER:
		r = tx_sid(req, SRV_MEMBER, false, ans, anslen);
		break;
	case I_USER:
		r = tx_user(req, ans, anslen);
		break;
	default:
		r = -EINVAL;
	}
	free(req);
	return r;
}

/*
 * "policy": in the kernel, an open checks the caller's security
 * read_policy permission (EACCES), then that no other open of the file
 * is in progress (EBUSY), then writes the image the open reads.  The
 * server has no caller's domain to ask the policy about: as for every
 * privileged file (enforce, load, booleans, commit_pending_bools,
 * checkreqprot, ...), root stands for a domain the policy allows, and
 * any other user for one it does not.  One open at a time bounds what
 * readers make the server hold to one image, shared with the image
 * the next reader gets (policy.c).
 */
static bool policy_open;

int sfs_policy_open(unsigned uid, struct pol_image **img, const char **data,
		    size_t *len)
{
	int r;

	if (uid != 0)
		return -EACCES;
	if (policy_open)
		return -EBUSY;
	if ((r = pol_image_get(img, data, len)) < 0)
		return r;
	policy_open = true;
	return 0;
}

void sfs_policy_close(struct pol_image *img)
{
	pol_image_put(img);
	policy_open = false;
}

bool sfs_is_policy(uint64_t ino)
{
	return ino == I_POLICY;
}

bool sfs_is_load(uint64_t ino)
{
	return ino == I_LOAD;
}

uint64_t sfs_status_ino(void)
{
	return I_STATUS;
}
