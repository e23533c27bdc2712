/*
 * policy.c: the loaded policy and the decisions made from it.
 *
 * libsepol holds the policy (policydb) and the SID table; its services
 * (sepol_compute_av, sepol_transition_sid, ...) decide.  Where the kernel's
 * security server behaves differently from libsepol's services, this file
 * does what the kernel does (named type transitions, the permissive flag,
 * unknown classes, the user-SID filter), so that the answers are the
 * kernel's.
 *
 * A granted sepol_compute_av costs 20-35 us (it builds the text that would
 * explain a constraint denial), so decisions are kept in a direct-mapped
 * cache keyed by (ssid, tsid, tclass), emptied on every policy load and
 * boolean commit.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sepol/debug.h>
#include <sepol/handle.h>
#include <sepol/policydb/avtab.h>
#include <sepol/policydb/conditional.h>
#include <sepol/policydb/context.h>
#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/hashtab.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/services.h>
#include <sepol/policydb/sidtab.h>

#include "budget.h"
#include "context.h"
#include "log.h"
#include "mem.h"
#include "policy.h"
#include "state.h"

/* libsepol functions of the static archive its headers do not declare. */
extern int policydb_context_isvalid(const policydb_t *p,
				    const context_struct_t *c);

static sepol_handle_t *handle;

/* What libsepol may allocate, and for how long, while it reads a policy
 * of len bytes (budget.h): far above what a real one takes, far below
 * what a forged symbol count would.  Debian's refpolicy (2.1 MB) asks for
 * 9.1 MB in all and is read in 64 ms here; the bundled policies (25-32 KB)
 * ask for 4.3 times their size.  "-v" logs what each load took.  A fuzz
 * build lowers both (SRV_LOAD_BASE_BYTES, SRV_LOAD_BASE_MS): its policies
 * are small, and what libsepol does up to the limits is not its subject. */
#ifndef SRV_LOAD_BASE_BYTES
#define SRV_LOAD_BASE_BYTES ((size_t)16 << 20)
#endif
#define LOAD_BYTES(len) (SRV_LOAD_BASE_BYTES + 16 * (size_t)(len))
#ifndef SRV_LOAD_BASE_MS
#define SRV_LOAD_BASE_MS 2000
#endif
/* A sanitizer's build (ASan, TSan) reads a policy 20 to 50 times more
 * slowly (a 2.6 MB policy: 70 ms, under ASan 1.7 s on a busy machine):
 * its deadline is ten times longer, for the same work. */
#define LOAD_MS(len)                                                   \
	((SRV_LOAD_BASE_MS + (unsigned)((len) >> 10)) *                \
	 (mem_sanitized() ? 10u : 1u))
/* The SIDs kept between requests besides the initial ones (context.c):
 * a client naming ever new contexts cannot grow the server past it.
 * Some 16,000 contexts in use at once, each decided once and then
 * answered from the cache; a test build lowers it. */
#ifndef SRV_SID_CAP
#define SRV_SID_CAP 16384
#endif
static policydb_t *pdb;
static struct sidx *sids;
static int *pending; /* pending boolean values, by index */
/* Filled at load: the process class's value, and which classes are the
 * kernel's socket classes (indexed by class value). */
static uint32_t proc_class;
static bool *socket_class;
static uint32_t proc_transition; /* the process class's transition bit */

#define CACHE_SLOTS 65536u /* a power of two */
struct cache_slot {
	uint32_t ssid, tsid;
	uint16_t tclass;
	bool used;
	struct srv_avd avd;
};
static struct cache_slot *cache;
static uint32_t cache_used;
static uint32_t cache_epoch; /* sidx_epoch() of the SIDs in its keys */
static struct srv_cache_stats stats;

static void cache_flush(void)
{
	if (cache) {
		memset(cache, 0, CACHE_SLOTS * sizeof(*cache));
		stats.frees += cache_used;
	}
	cache_used = 0;
}

static struct cache_slot *cache_slot(uint32_t ssid, uint32_t tsid,
				     uint16_t tclass)
{
	uint64_t h = ((uint64_t)ssid * 0x9e3779b97f4a7c15ull) ^
		     ((uint64_t)tsid * 0xc2b2ae3d27d4eb4full) ^ tclass;

	h ^= h >> 29;
	return &cache[h & (CACHE_SLOTS - 1)];
}

/* libsepol's messages go to our log, only when verbose. */
static void sepol_msg(void *arg, sepol_handle_t *h, const char *fmt, ...)
{
	(void)arg;
	(void)h;
	(void)fmt;
}

static int class_tables(policydb_t *p, uint32_t *proc, bool **sock);
static void image_drop(void);
static void trans_flush(void);
static void trans_prepare(void);

static void policy_free(policydb_t *p, sidtab_t *s)
{
	if (s) {
		sepol_sidtab_destroy(s);
		free(s);
	}
	if (p) {
		policydb_destroy(p);
		free(p);
	}
}

/*
 * The SID table starts with the policy's initial SIDs, as the kernel's
 * does: SID 0 given a context fails the load (EINVAL), and a SID this
 * kernel has no name for is ignored (Debian 12's kernel names 10 of
 * 1..27: pol_initsid_name).  Ignoring them also keeps a forged SID
 * number (up to 2^32 - 1) out of the table, whose index is an array by
 * SID (context.c).  The ignored entries stay in the policy (libsepol
 * frees them with it), off the list policydb_load_isids reads.
 */
static int load_isids(policydb_t *p, sidtab_t *s)
{
	ocontext_t **all, *kept = NULL, **kt = &kept;
	size_t n = 0, i;
	int r;

	for (ocontext_t *c = p->ocontexts[OCON_ISID]; c; c = c->next, n++)
		if (c->sid[0] == 0) {
			srv_log("policy: SID 0 was assigned a context");
			return -1;
		}
	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return -1;
	i = 0;
	for (ocontext_t *c = p->ocontexts[OCON_ISID]; c; c = c->next)
		all[i++] = c;
	for (i = 0; i < n; i++)
		if (pol_initsid_name(all[i]->sid[0])) {
			*kt = all[i];
			kt = &all[i]->next;
		}
	*kt = NULL;
	p->ocontexts[OCON_ISID] = kept;
	r = policydb_load_isids(p, s) ? -1 : 0;
	/* The list as it was, in its order: "policy" writes it out, and
	 * policydb_destroy frees it. */
	for (i = 0; i < n; i++)
		all[i]->next = i + 1 < n ? all[i + 1] : NULL;
	p->ocontexts[OCON_ISID] = n ? all[0] : NULL;
	free(all);
	return r;
}

int pol_load(const void *data, size_t len)
{
	policydb_t *np;
	sidtab_t *ns;
	struct sidx *nt;
	int *np_pending;
	uint32_t np_proc;
	bool *np_sock;
	int r;

	if (!handle) {
		handle = sepol_handle_create();
		if (!handle)
			return -ENOMEM;
		/* The default handle too: libsepol's readers (ebitmap_read,
		 * the services) report through it, to stderr. */
		if (!srv_log_verbose()) {
			sepol_msg_set_callback(handle, sepol_msg, NULL);
			sepol_debug(0);
		}
	}
	if (!cache) {
		cache = calloc(CACHE_SLOTS, sizeof(*cache));
		if (!cache)
			return -ENOMEM;
	}
	np = calloc(1, sizeof(*np));
	ns = calloc(1, sizeof(*ns));
	if (!np || !ns) {
		free(np);
		free(ns);
		return -ENOMEM;
	}
	if (policydb_init(np)) {
		free(np);
		free(ns);
		return -ENOMEM;
	}
	/* policydb_from_image wants a writable buffer it does not keep. */
	void *copy = malloc(len ? len : 1);
	if (!copy) {
		policy_free(np, NULL);
		free(ns);
		return -ENOMEM;
	}
	if (len) /* a write of nothing to "load" has no bytes (NULL) */
		memcpy(copy, data, len);
	size_t used;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	budget_begin(LOAD_BYTES(len), LOAD_MS(len));
	r = policydb_from_image(handle, copy, len, np);
	enum budget_result br = budget_end(&used);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(copy);
	if (r) {
		/* policydb_from_image destroyed what it had read. */
		if (br == BUDGET_MEMORY)
			srv_log("policy: reading it would take more than %zu "
				"bytes", LOAD_BYTES(len));
		else if (br == BUDGET_DEADLINE)
			srv_log("policy: reading it would take more than %u ms",
				LOAD_MS(len));
		else
			srv_log("policy: not a binary policy (%zu bytes)", len);
		free(np);
		free(ns);
		return br != BUDGET_KEPT ? -ENOMEM : -EINVAL;
	}
	if (np->policy_type != POLICY_KERN) {
		srv_log("policy: not a kernel policy");
		policy_free(np, NULL);
		free(ns);
		return -EINVAL;
	}
	/* policydb_load_isids initialises the table itself. */
	if (load_isids(np, ns) < 0) {
		srv_log("policy: bad initial SID contexts");
		policy_free(np, ns);
		return -EINVAL;
	}
	/* Booleans are numbered without gaps (libsepol allows them; the
	 * kernel's booleans/ and commit would read through a hole). */
	for (uint32_t i = 0; i < np->p_bools.nprim; i++)
		if (!np->bool_val_to_struct[i] ||
		    !np->p_bool_val_to_name[i]) {
			srv_log("policy: boolean %u is missing", i + 1);
			policy_free(np, ns);
			return -EINVAL;
		}
	np_pending = calloc(np->p_bools.nprim + 1, sizeof(int));
	if (!np_pending || class_tables(np, &np_proc, &np_sock) < 0) {
		free(np_pending);
		policy_free(np, ns);
		return -ENOMEM;
	}
	/* the initial SIDs into a table of ours (libsepol's goes) */
	nt = sidx_new(ns, SRV_SID_CAP);
	policy_free(NULL, ns);
	if (!nt) {
		free(np_pending);
		free(np_sock);
		policy_free(np, NULL);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < np->p_bools.nprim; i++)
		np_pending[i] = np->bool_val_to_struct[i]->state;

	if (pdb)
		trans_flush();
	image_drop();
	policy_free(pdb, NULL);
	sidx_destroy(sids);
	free(pending);
	pdb = np;
	sids = nt;
	pending = np_pending;
	free(socket_class);
	socket_class = np_sock;
	proc_class = np_proc;
	sepol_set_policydb(pdb);
	sepol_set_sidtab(sidx_view(sids));
	proc_transition = 0;
	for (uint32_t p = 1; proc_class && p <= 32; p++) {
		const char *pn = pol_perm_name(proc_class, p);

		if (pn && !strcmp(pn, "transition"))
			proc_transition = 1u << (p - 1);
	}
	trans_prepare();
	cache_flush();
	cache_epoch = sidx_epoch(sids);
	state_seqno_bump();
	srv_log("policy: loaded, %u classes, %u types, %u booleans, mls %d "
		"(%zu bytes, read into %zu in %ld ms)", pdb->p_classes.nprim,
		pdb->p_types.nprim, pdb->p_bools.nprim, pdb->mls, len, used,
		(long)((t1.tv_sec - t0.tv_sec) * 1000 +
		       (t1.tv_nsec - t0.tv_nsec) / 1000000));
	return 0;
}

/* The image's first 16 bytes, as libsepol reads them: the magic, the
 * length of the platform's string and the string, the version. */
bool pol_header_ok(const void *data, size_t len)
{
	const unsigned char *b = data;
	uint32_t v;

	if (len < 20 || le32toh(*(const uint32_t *)(const void *)b) !=
				POLICYDB_MAGIC ||
	    le32toh(*(const uint32_t *)(const void *)(b + 4)) != 8 ||
	    (memcmp(b + 8, POLICYDB_STRING, 8) &&
	     memcmp(b + 8, POLICYDB_XEN_STRING, 8)))
		return false;
	v = le32toh(*(const uint32_t *)(const void *)(b + 16));
	return v >= POLICYDB_VERSION_MIN && v <= POLICYDB_VERSION_MAX;
}

void pol_unload(void)
{
	if (pdb)
		trans_flush();
	image_drop();
	policy_free(pdb, NULL);
	sidx_destroy(sids);
	pdb = NULL;
	sids = NULL;
	free(pending);
	pending = NULL;
	free(socket_class);
	socket_class = NULL;
	free(cache);
	cache = NULL;
	if (handle)
		sepol_handle_destroy(handle);
	handle = NULL;
}

void pol_begin(void)
{
	if (!sids)
		return;
	sidx_begin(sids);
	if (sidx_epoch(sids) != cache_epoch) {
		cache_flush();
		cache_epoch = sidx_epoch(sids);
	}
}

void pol_sid_stats(struct srv_sid_stats *st)
{
	struct sidx_stats x = { 0, 0, 0, 0 };

	if (sids)
		sidx_stats(sids, &x);
	st->entries = x.entries;
	st->slots = x.slots;
	st->longest = x.longest;
	st->reclaimed = x.reclaimed;
}

bool pol_loaded(void)
{
	return pdb != NULL;
}

/*
 * The loaded policy written out, with the booleans' current values, as
 * the kernel's "policy" file gives it: made by the first reader after a
 * load or a commit, then shared by the readers that follow until the
 * next (the kernel writes one at each open; here a reader that opens and
 * reads it again and again costs a copy, not a policydb_write under the
 * server's one lock).  A reader keeps its reference across a load: its
 * bytes do not change under it.  policydb_write twice (the length, then
 * the bytes); not policydb_to_image, which also reads the image back to
 * check it and leaks that copy when the read fails (libsepol 3.4; a
 * forged policy libsepol accepted may not read back).
 */
struct pol_image {
	unsigned refs;
	size_t len;
	char data[];
};
static struct pol_image *image; /* since the last load or commit */

static void image_drop(void)
{
	pol_image_put(image);
	image = NULL;
}

static int image_make(struct pol_image **out)
{
	struct pol_image *img;
	policy_file_t pf;

	policy_file_init(&pf);
	pf.type = PF_LEN;
	pf.handle = handle;
	if (policydb_write(pdb, &pf))
		return -EINVAL;
	img = malloc(sizeof(*img) + pf.len);
	if (!img)
		return -ENOMEM;
	img->refs = 1;
	img->len = pf.len;
	policy_file_init(&pf);
	pf.type = PF_USE_MEMORY;
	pf.handle = handle;
	pf.data = img->data;
	pf.len = img->len;
	if (policydb_write(pdb, &pf) || pf.len != 0) {
		free(img);
		return -EINVAL;
	}
	srv_log("policy: image of %zu bytes made for its readers", img->len);
	*out = img;
	return 0;
}

int pol_image_get(struct pol_image **img, const char **data, size_t *len)
{
	int r;

	if (!pdb)
		return -EINVAL;
	if (!image && (r = image_make(&image)) < 0)
		return r;
	image->refs++;
	*img = image;
	*data = image->data;
	*len = image->len;
	return 0;
}

void pol_image_put(struct pol_image *img)
{
	if (img && --img->refs == 0)
		free(img);
}

uint32_t pol_mls(void)
{
	return pdb && pdb->mls ? 1 : 0;
}

uint32_t pol_deny_unknown(void)
{
	return pdb && pdb->handle_unknown != ALLOW_UNKNOWN ? 1 : 0;
}

uint32_t pol_reject_unknown(void)
{
	return pdb && pdb->handle_unknown == REJECT_UNKNOWN ? 1 : 0;
}

int pol_context_to_sid(const char *con, size_t len, uint32_t *sid)
{
	context_struct_t c;
	char *s;
	int r;

	if (!pdb)
		return -EINVAL;
	/* The kernel takes len bytes and stops at a NUL among them. */
	s = strndup(con, len);
	if (!s)
		return -ENOMEM;
	r = ctx_parse(pdb, s, &c);
	free(s);
	if (r < 0)
		return r;
	r = sidx_context_to_sid(sids, &c, sid);
	context_destroy(&c);
	return r;
}

int pol_sid_to_context(uint32_t sid, char **con, size_t *len)
{
	sepol_security_context_t s = NULL;
	size_t n = 0;

	int r;

	if (!pdb || sidx_expose(sids, &sid, 1) < 0)
		return -EINVAL;
	errno = 0;
	r = sepol_sid_to_context(sid, &s, &n);
	sidx_unexpose(sids);
	if (r < 0 || !s)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	/* libsepol's length may or may not count the NUL: ours does. */
	*len = strlen(s) + 1;
	*con = s;
	return 0;
}

static void avd_init(struct srv_avd *avd)
{
	avd->allowed = 0;
	avd->decided = 0xffffffff;
	avd->auditallow = 0;
	avd->auditdeny = 0xffffffff;
	avd->seqno = state_seqno();
	avd->flags = 0;
}

int pol_compute_av(uint32_t ssid, uint32_t tsid, uint16_t tclass,
		   struct srv_avd *avd)
{
	struct cache_slot *slot;
	context_struct_t *scon;
	struct sepol_av_decision sd;

	if (!pdb)
		return -EINVAL;
	stats.lookups++;
	slot = cache_slot(ssid, tsid, tclass);
	if (slot->used && slot->ssid == ssid && slot->tsid == tsid &&
	    slot->tclass == tclass) {
		stats.hits++;
		*avd = slot->avd;
		return 0;
	}
	stats.misses++;

	avd_init(avd);
	scon = sidx_search(sids, ssid);
	if (!scon || !sidx_search(sids, tsid))
		return -EINVAL;
	if (ebitmap_get_bit(&pdb->permissive_map, scon->type))
		avd->flags |= SRV_AVD_FLAGS_PERMISSIVE;
	if (tclass == 0) {
		/* The kernel allows everything of class 0 when the policy
		 * allows unknown classes, and nothing otherwise. */
		if (pdb->handle_unknown == ALLOW_UNKNOWN)
			avd->allowed = 0xffffffff;
	} else if (tclass <= pdb->p_classes.nprim) {
		const uint32_t both[2] = { ssid, tsid };
		int r;

		memset(&sd, 0, sizeof(sd));
		if (sidx_expose(sids, both, 2) < 0)
			return -EINVAL;
		r = sepol_compute_av(ssid, tsid, tclass, 0, &sd);
		sidx_unexpose(sids);
		if (r < 0)
			return -EINVAL;
		avd->allowed = sd.allowed;
		avd->auditallow = sd.auditallow;
		avd->auditdeny = sd.auditdeny;
	}
	/* A class beyond the policy's: nothing allowed (the kernel warns). */

	if (slot->used)
		stats.reclaims++;
	else {
		stats.allocations++;
		cache_used++;
	}
	slot->used = true;
	slot->ssid = ssid;
	slot->tsid = tsid;
	slot->tclass = tclass;
	slot->avd = *avd;
	return 0;
}

/* The kernel's filename transition: (ttype, tclass, name) -> otype when
 * the source type is one of the rule's. */
static uint32_t filename_type(uint32_t stype, uint32_t ttype, uint16_t tclass,
			      const char *name)
{
	filename_trans_key_t key;
	filename_trans_datum_t *d;

	if (!pdb->filename_trans)
		return 0;
	key.ttype = ttype;
	key.tclass = tclass;
	key.name = (char *)name;
	d = hashtab_search(pdb->filename_trans, (hashtab_key_t)&key);
	for (; d; d = d->next)
		if (ebitmap_get_bit(&d->stypes, stype - 1))
			return d->otype;
	return 0;
}

/* The socket classes of the kernel's security_is_socket_class() (6.1):
 * for them a new object takes the creating process's role, type and
 * range, as for the process class. */
static const char *const socket_classes[] = {
	"socket", "tcp_socket", "udp_socket", "rawip_socket",
	"netlink_socket", "packet_socket", "key_socket", "unix_stream_socket",
	"unix_dgram_socket", "netlink_route_socket", "netlink_tcpdiag_socket",
	"netlink_nflog_socket", "netlink_xfrm_socket",
	"netlink_selinux_socket", "netlink_iscsi_socket",
	"netlink_audit_socket", "netlink_fib_lookup_socket",
	"netlink_connector_socket", "netlink_netfilter_socket",
	"netlink_dnrt_socket", "netlink_kobject_uevent_socket",
	"netlink_generic_socket", "netlink_scsitransport_socket",
	"netlink_rdma_socket", "netlink_crypto_socket", "appletalk_socket",
	"dccp_socket", "sctp_socket", "icmp_socket", "ax25_socket",
	"ipx_socket", "netrom_socket", "atmpvc_socket", "x25_socket",
	"rose_socket", "decnet_socket", "atmsvc_socket", "rds_socket",
	"irda_socket", "pppox_socket", "llc_socket", "can_socket",
	"tipc_socket", "bluetooth_socket", "iucv_socket", "rxrpc_socket",
	"isdn_socket", "phonet_socket", "ieee802154_socket", "caif_socket",
	"alg_socket", "nfc_socket", "vsock_socket", "kcm_socket",
	"qipcrtr_socket", "smc_socket", "xdp_socket", "mctp_socket",
	"tun_socket",
};

static bool is_socket_class(uint16_t tclass)
{
	return tclass <= pdb->p_classes.nprim && socket_class[tclass];
}

static uint32_t process_class(void)
{
	return proc_class;
}

/* The tables above, for policy p. */
static int class_tables(policydb_t *p, uint32_t *proc, bool **sock)
{
	class_datum_t *c = hashtab_search(p->p_classes.table,
					  (hashtab_key_t) "process");

	*proc = c ? c->s.value : 0;
	*sock = calloc(p->p_classes.nprim + 1, sizeof(**sock));
	if (!*sock)
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(socket_classes) / sizeof(*socket_classes);
	     i++) {
		c = hashtab_search(p->p_classes.table,
				   (hashtab_key_t)socket_classes[i]);
		if (c)
			(*sock)[c->s.value] = true;
	}
	return 0;
}

/* The kernel's mls_compute_sid(). */
static int mls_new_range(const context_struct_t *s, const context_struct_t *t,
			 uint16_t tclass, uint32_t specified, bool proclike,
			 context_struct_t *n)
{
	char def = 0;

	if (!pdb->mls)
		return 0;
	if (specified == AVTAB_TRANSITION) {
		range_trans_t key = { s->type, t->type, tclass };
		mls_range_t *r = hashtab_search(pdb->range_tr,
						(hashtab_key_t)&key);

		if (r)
			return mls_range_cpy(&n->range, r);
		/* a class the policy does not define has no defaults */
		if (tclass && tclass <= pdb->p_classes.nprim)
			def = pdb->class_val_to_struct[tclass - 1]->default_range;
		switch (def) {
		case DEFAULT_SOURCE_LOW:
			return mls_context_cpy_low(n, s);
		case DEFAULT_SOURCE_HIGH:
			return mls_context_cpy_high(n, s);
		case DEFAULT_SOURCE_LOW_HIGH:
			return mls_context_cpy(n, s);
		case DEFAULT_TARGET_LOW:
			return mls_context_cpy_low(n, t);
		case DEFAULT_TARGET_HIGH:
			return mls_context_cpy_high(n, t);
		case DEFAULT_TARGET_LOW_HIGH:
			return mls_context_cpy(n, t);
		case DEFAULT_GLBLUB:
			return mls_context_glblub(n, s, t);
		}
	}
	if (specified != AVTAB_MEMBER && proclike)
		return mls_context_cpy(n, s);
	return mls_context_cpy_low(n, s);
}

/*
 * The kernel's security_compute_sid() for a request from userspace: the
 * defaults (class default_* rules, the process and socket classes take
 * the source's role and type, other objects object_r and the target's
 * type), the type rule (unconditional, else an enabled conditional one),
 * the named type transition, the role transition, the MLS range; then
 * the validity check (invalid: EACCES when enforcing, kept otherwise).
 */
int pol_compute_sid(uint32_t ssid, uint32_t tsid, uint16_t tclass,
		    enum srv_sid_kind kind, const char *name, uint32_t *out)
{
	context_struct_t *s, *t, n;
	class_datum_t *cl;
	avtab_key_t key;
	avtab_ptr_t node;
	uint32_t specified, otype;
	sepol_security_id_t sid;
	bool proclike;
	int r;

	if (!pdb)
		return -EINVAL;
	s = sidx_search(sids, ssid);
	t = sidx_search(sids, tsid);
	if (!s || !t)
		return -EINVAL;
	/* The kernel computes a context for any class number: one the
	 * policy does not define has no default_* rules and no type rules. */
	cl = tclass && tclass <= pdb->p_classes.nprim ?
		     pdb->class_val_to_struct[tclass - 1] :
		     NULL;
	specified = kind == SRV_TRANSITION ? AVTAB_TRANSITION :
		    kind == SRV_MEMBER	   ? AVTAB_MEMBER :
					     AVTAB_CHANGE;
	proclike = tclass == process_class() || is_socket_class(tclass);

	context_init(&n);
	if (specified == AVTAB_MEMBER)
		n.user = cl && cl->default_user == DEFAULT_SOURCE ? s->user :
								     t->user;
	else
		n.user = cl && cl->default_user == DEFAULT_TARGET ? t->user :
								     s->user;

	if (cl && cl->default_role == DEFAULT_SOURCE)
		n.role = s->role;
	else if (cl && cl->default_role == DEFAULT_TARGET)
		n.role = t->role;
	else
		n.role = proclike ? s->role : OBJECT_R_VAL;

	if (cl && cl->default_type == DEFAULT_SOURCE)
		n.type = s->type;
	else if (cl && cl->default_type == DEFAULT_TARGET)
		n.type = t->type;
	else
		n.type = proclike ? s->type : t->type;

	key.source_type = (uint16_t)s->type;
	key.target_type = (uint16_t)t->type;
	key.target_class = tclass;
	key.specified = (uint16_t)specified;
	node = avtab_search_node(&pdb->te_avtab, &key);
	if (!node) {
		for (node = avtab_search_node(&pdb->te_cond_avtab, &key); node;
		     node = avtab_search_node_next(node, (int)specified))
			if (node->key.specified & AVTAB_ENABLED)
				break;
	}
	if (node)
		n.type = node->datum.data;

	if (name && (otype = filename_type(s->type, t->type, tclass, name)))
		n.type = otype;

	if (specified == AVTAB_TRANSITION) {
		for (role_trans_t *rt = pdb->role_tr; rt; rt = rt->next)
			if (rt->role == s->role && rt->type == t->type &&
			    rt->tclass == tclass) {
				n.role = rt->new_role;
				break;
			}
	}

	if (mls_new_range(s, t, tclass, specified, proclike, &n) < 0) {
		context_destroy(&n);
		return -ENOMEM;
	}
	if (!policydb_context_isvalid(pdb, &n) && state_enforcing()) {
		context_destroy(&n);
		return -EACCES;
	}
	r = sidx_context_to_sid(sids, &n, &sid);
	context_destroy(&n);
	if (r)
		return -ENOMEM;
	*out = sid;
	return 0;
}

/* The kernel's mls_setup_user_range(): the user's level as seen from
 * fromcon; -EINVAL when none fits. */
static int user_range(const context_struct_t *from, const user_datum_t *u,
		      context_struct_t *n)
{
	const mls_level_t *fsen = &from->range.level[0];
	const mls_level_t *fclr = &from->range.level[1];
	const mls_level_t *ulow = &u->exp_range.level[0];
	const mls_level_t *uclr = &u->exp_range.level[1];
	const mls_level_t *udef = &u->exp_dfltlevel;
	const mls_level_t *sen, *clr;

	if (!pdb->mls)
		return 0;
	if (mls_level_between(udef, fsen, fclr))
		sen = udef;
	else if (mls_level_between(fsen, udef, uclr))
		sen = fsen;
	else if (mls_level_between(fclr, ulow, udef))
		sen = ulow;
	else
		return -EINVAL;
	if (mls_level_dom(uclr, fclr))
		clr = fclr;
	else if (mls_level_dom(fclr, uclr))
		clr = uclr;
	else
		return -EINVAL;
	if (mls_level_cpy(&n->range.level[0], sen) < 0 ||
	    mls_level_cpy(&n->range.level[1], clr) < 0)
		return -ENOMEM;
	return 0;
}

/*
 * The types (and attributes) that TE rules alone let a domain of type
 * stype reach with the process class's transition permission: every
 * allow rule, and every enabled conditional one, whose source is stype or
 * one of its attributes and that grants bit.  The full decision (with
 * constraints, role_allow and type bounds) only ever removes permissions
 * from what these rules grant, so a type outside this set can never be
 * transitioned to.  Kept per source type until the next load or boolean
 * commit.
 */
static ebitmap_t *trans_to; /* [stype - 1] */
static bool *trans_known;
/* The rules that can grant it (the process class, an allow rule with the
 * bit, conditional ones enabled), gathered once from the whole avtab. */
static avtab_ptr_t *trans_rules;
static uint32_t ntrans_rules;

static void trans_flush(void)
{
	if (trans_to)
		for (uint32_t i = 0; i < pdb->p_types.nprim; i++)
			ebitmap_destroy(&trans_to[i]);
	free(trans_to);
	free(trans_known);
	free(trans_rules);
	trans_to = NULL;
	trans_known = NULL;
	trans_rules = NULL;
	ntrans_rules = 0;
}

static int trans_gather(uint32_t pclass, uint32_t bit)
{
	avtab_t *tabs[2] = { &pdb->te_avtab, &pdb->te_cond_avtab };
	uint32_t cap = 0;

	for (int pass = 0; pass < 2; pass++) {
		ntrans_rules = 0;
		for (int k = 0; k < 2; k++)
			for (uint32_t i = 0; i < tabs[k]->nslot; i++)
				for (avtab_ptr_t n = tabs[k]->htable[i]; n;
				     n = n->next) {
					if (n->key.target_class != pclass ||
					    !(n->key.specified & AVTAB_ALLOWED) ||
					    !(n->datum.data & bit) ||
					    (k == 1 && !(n->key.specified &
							 AVTAB_ENABLED)))
						continue;
					if (pass)
						trans_rules[ntrans_rules] = n;
					ntrans_rules++;
				}
		if (pass == 0) {
			cap = ntrans_rules;
			trans_rules = malloc((cap ? cap : 1) * sizeof(*trans_rules));
			trans_to = calloc(pdb->p_types.nprim, sizeof(*trans_to));
			trans_known = calloc(pdb->p_types.nprim,
					     sizeof(*trans_known));
			if (!trans_rules || !trans_to || !trans_known) {
				free(trans_rules);
				free(trans_to);
				free(trans_known);
				trans_rules = NULL;
				trans_to = NULL;
				trans_known = NULL;
				return -ENOMEM;
			}
		}
	}
	return 0;
}

/* Gathers the rules after a load or a commit, so that no request pays
 * for the scan (about 5 ms on refpolicy built MLS); a failure here is
 * retried by the first request that needs them. */
static void trans_prepare(void)
{
	if (proc_class && proc_transition)
		trans_gather(proc_class, proc_transition);
}

static const ebitmap_t *trans_targets(uint32_t stype, uint32_t pclass,
				      uint32_t bit)
{
	const ebitmap_t *sattr = &pdb->type_attr_map[stype - 1];
	ebitmap_t *out;

	if (!trans_to && trans_gather(pclass, bit) < 0)
		return NULL;
	out = &trans_to[stype - 1];
	if (trans_known[stype - 1])
		return out;
	for (uint32_t i = 0; i < ntrans_rules; i++) {
		const avtab_key_t *key = &trans_rules[i]->key;

		if (ebitmap_get_bit(sattr, key->source_type - 1) &&
		    ebitmap_set_bit(out, key->target_type - 1, 1)) {
			ebitmap_destroy(out);
			return NULL;
		}
	}
	trans_known[stype - 1] = true;
	return out;
}

/*
 * Whether a process of context from may transition to one of context to,
 * once the TE rules allow it (trans_targets): the decision of
 * pol_compute_av for that one permission - no constraint on it fails
 * (evaluated by cexpr_eval, without libsepol's explanations), and a role
 * change is in a role_allow rule.  A bounded source type has its
 * permissions cut by its parent's: the full decision decides then.
 */
static int may_transition(uint32_t fromsid, const context_struct_t *from,
			  const context_struct_t *to, uint32_t pclass,
			  uint32_t bit)
{
	const class_datum_t *cl = pdb->class_val_to_struct[pclass - 1];
	const type_datum_t *st = pdb->type_val_to_struct[from->type - 1];
	const role_allow_t *ra;

	if (st && st->bounds) {
		struct srv_avd avd;
		uint32_t sid;
		int r;

		if ((r = sidx_context_to_sid(sids, to, &sid)) < 0 ||
		    (r = pol_compute_av(fromsid, sid, (uint16_t)pclass, &avd)) <
			    0)
			return r;
		return (avd.allowed & bit) != 0;
	}
	for (const constraint_node_t *cn = cl->constraints; cn; cn = cn->next)
		if ((cn->permissions & bit) &&
		    !cexpr_eval(pdb, from, to, NULL, cn->expr))
			return 0;
	if (from->role == to->role)
		return 1;
	for (ra = pdb->role_allow; ra; ra = ra->next)
		if (ra->role == from->role && ra->new_role == to->role)
			return 1;
	return 0;
}

/*
 * The kernel's security_get_user_sids(): for each role of the user and
 * each type of the role, the user's context as reachable from fromsid,
 * kept when fromsid may transition to it.  (libsepol 3.4's
 * sepol_get_user_sids crashes on a non-MLS policy.)  The kernel gives
 * every candidate a SID and asks its AVC; here a candidate whose type the
 * TE rules do not reach (trans_targets) is dropped first, without a SID:
 * SIDs are not visible through selinuxfs, and a large MLS policy has
 * thousands of candidates for each source level.  The others are
 * decided by may_transition, and only those kept get a SID.
 */
int pol_user_sids(uint32_t fromsid, const char *user, uint32_t **out,
		  uint32_t *nout)
{
	context_struct_t *from, c;
	user_datum_t *u;
	ebitmap_node_t *rn, *tn;
	unsigned int i, j;
	uint32_t n = 0, cap = 16, *res, pclass = process_class();
	uint32_t transbit = proc_transition;
	const ebitmap_t *reach = NULL;
	int ok;

	if (!pdb)
		return -EINVAL;
	from = sidx_search(sids, fromsid);
	u = hashtab_search(pdb->p_users.table, (hashtab_key_t)user);
	if (!from || !u)
		return -EINVAL;
	if (transbit && !(reach = trans_targets(from->type, pclass, transbit)))
		return -ENOMEM;
	res = malloc(cap * sizeof(*res));
	if (!res)
		return -ENOMEM;
	ebitmap_for_each_positive_bit(&u->roles.roles, rn, i) {
		role_datum_t *role = pdb->role_val_to_struct[i];

		ebitmap_for_each_positive_bit(&role->types.types, tn, j) {
			sepol_security_id_t sid;

			if (!transbit ||
			    !ebitmap_match_any(&pdb->type_attr_map[j], reach))
				continue;
			context_init(&c);
			c.user = u->s.value;
			c.role = i + 1;
			c.type = j + 1;
			if (user_range(from, u, &c) < 0) {
				context_destroy(&c);
				continue;
			}
			ok = may_transition(fromsid, from, &c, pclass,
					    transbit);
			if (ok > 0 && (ok = sidx_context_to_sid(sids, &c, &sid)) == 0)
				ok = 1;
			context_destroy(&c);
			if (ok < 0) {
				free(res);
				return ok;
			}
			if (ok == 0)
				continue;
			if (n == cap) {
				uint32_t *r2 = realloc(res, 2 * cap * sizeof(*res));

				if (!r2) {
					free(res);
					return -ENOMEM;
				}
				res = r2;
				cap *= 2;
			}
			res[n++] = sid;
		}
	}
	*out = res;
	*nout = n;
	return 0;
}

int pol_validatetrans(uint32_t oldsid, uint32_t newsid, uint32_t tasksid,
		      uint16_t tclass)
{
	const uint32_t three[3] = { oldsid, newsid, tasksid };
	char *reason = NULL;
	int r;

	if (!pdb)
		return -EINVAL;
	if (tclass == 0 || tclass > pdb->p_classes.nprim)
		return -EINVAL;
	if (sidx_expose(sids, three, 3) < 0)
		return -EINVAL;
	r = sepol_validate_transition_reason_buffer(oldsid, newsid, tasksid,
						    tclass, &reason, 0);
	sidx_unexpose(sids);
	free(reason);
	/* libsepol: 0 allowed, -1 a constraint denies */
	return r == 0 ? 0 : -EPERM;
}

uint32_t pol_nbools(void)
{
	return pdb ? pdb->p_bools.nprim : 0;
}

const char *pol_bool_name(uint32_t i)
{
	return i < pol_nbools() ? pdb->p_bool_val_to_name[i] : NULL;
}

int pol_bool_find(const char *name)
{
	for (uint32_t i = 0; i < pol_nbools(); i++)
		if (!strcmp(pdb->p_bool_val_to_name[i], name))
			return (int)i;
	return -ENOENT;
}

void pol_bool_get(uint32_t i, int *active, int *pend)
{
	*active = pdb->bool_val_to_struct[i]->state ? 1 : 0;
	*pend = pending[i] ? 1 : 0;
}

void pol_bool_set_pending(uint32_t i, int value)
{
	pending[i] = value ? 1 : 0;
}

int pol_bools_commit(void)
{
	if (!pdb)
		return -EINVAL;
	for (uint32_t i = 0; i < pdb->p_bools.nprim; i++)
		pdb->bool_val_to_struct[i]->state = pending[i];
	image_drop(); /* it holds the booleans' values */
	if (evaluate_conds(pdb))
		return -ENOMEM;
	trans_flush();
	trans_prepare();
	cache_flush();
	state_seqno_bump();
	return 0;
}

uint32_t pol_nclasses(void)
{
	return pdb ? pdb->p_classes.nprim : 0;
}

const char *pol_class_name(uint32_t c)
{
	if (c == 0 || c > pol_nclasses())
		return NULL;
	return pdb->p_class_val_to_name[c - 1];
}

/* The datum of permission p of class c (its own or its common's). */
struct perm_find {
	uint32_t value;
	const char *name;
};

static int perm_find_fn(hashtab_key_t k, hashtab_datum_t d, void *arg)
{
	struct perm_find *f = arg;
	perm_datum_t *perm = d;

	if (perm->s.value == f->value) {
		f->name = (const char *)k;
		return 1;
	}
	return 0;
}

uint32_t pol_nperms(uint32_t c)
{
	class_datum_t *cl;

	if (c == 0 || c > pol_nclasses())
		return 0;
	cl = pdb->class_val_to_struct[c - 1];
	return cl->permissions.nprim;
}

const char *pol_perm_name(uint32_t c, uint32_t p)
{
	class_datum_t *cl;
	struct perm_find f = { p, NULL };

	if (c == 0 || c > pol_nclasses() || p == 0)
		return NULL;
	cl = pdb->class_val_to_struct[c - 1];
	if (cl->comdatum)
		hashtab_map(cl->comdatum->permissions.table, perm_find_fn, &f);
	if (!f.name)
		hashtab_map(cl->permissions.table, perm_find_fn, &f);
	return f.name;
}

/* The names Debian 12's kernel (6.1) gives the initial SIDs it uses. */
static const char *const initsid_names[SRV_NINITSIDS] = {
	[1] = "kernel",	 [2] = "security", [3] = "unlabeled",
	[5] = "file",	 [8] = "any_socket", [9] = "port",
	[10] = "netif",	 [11] = "netmsg",   [12] = "node",
	[27] = "devnull",
};

const char *pol_initsid_name(uint32_t sid)
{
	return sid < SRV_NINITSIDS ? initsid_names[sid] : NULL;
}

/* The policy capabilities Debian 12's kernel knows, in its order. */
static const char *const polcap_names[] = {
	"network_peer_controls", "open_perms",
	"extended_socket_class", "always_check_network",
	"cgroup_seclabel",	 "nnp_nosuid_transition",
	"genfs_seclabel_symlinks", "ioctl_skip_cloexec",
};

uint32_t pol_npolcaps(void)
{
	return sizeof(polcap_names) / sizeof(polcap_names[0]);
}

const char *pol_polcap_name(uint32_t i)
{
	return i < pol_npolcaps() ? polcap_names[i] : NULL;
}

bool pol_polcap(uint32_t i)
{
	return pdb && ebitmap_get_bit(&pdb->policycaps, i);
}

void pol_cache_stats(struct srv_cache_stats *st)
{
	*st = stats;
}

uint32_t pol_cache_entries(void)
{
	return cache_used;
}
