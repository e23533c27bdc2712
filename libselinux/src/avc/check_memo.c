/* avc/check_memo.c: selinux_check_access's memo of names to numbers. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * selinux_check_access() is given four strings.  Turning them into two
 * SIDs, a class and a permission costs two translations (mcstrans), two
 * SID table lookups under the AVC lock and two class table lookups under
 * their locks, several times the cached decision itself.  Each thread
 * remembers the answers for the strings it asked last, in a direct-mapped
 * table of its own: a hit hashes the strings once, compares them with
 * the remembered copy and takes no lock and allocates nothing.
 *
 * An answer is valid while two generations stand still: the AVC's (SIDs
 * die with avc_destroy) and the names' (class numbers change when the
 * class cache is flushed - every policy load, through check_access.c's
 * reset callback - or a mapping is installed).  The generation is read
 * before the answer is computed, so a change during the computation
 * leaves the entry already stale.  Translations (mcstrans) are taken as
 * fixed, as the translation cache of core/setrans.c takes them.
 *
 * Guarded by being per thread (__thread); freed at thread exit by the
 * key's destructor.
 */
#define MEMO_SLOTS 64

struct memo_entry {
	uint64_t hash;
	uint64_t gen; /* 0: empty */
	size_t len[4];
	char *key; /* the four strings back to back, each with its NUL */
	security_id_t ssid, tsid;
	security_class_t cls;
	access_vector_t av;
};

/*
 * Most callers pass the same buffers every time (literals, a daemon's
 * copy of a peer's context).  A second table, keyed by the four pointers,
 * names the entry they led to last: a hit there costs four strcmp()s
 * against the entry's copy, neither strlen() nor hash.  The pointers only
 * choose where to look; the strings are always compared, so a buffer
 * reused for other contents is never mistaken.
 */
struct memo_ptr {
	const char *p[4];
	uint8_t entry; /* index in e[]; valid when e[entry] matches */
};

struct memo {
	struct memo_entry e[MEMO_SLOTS];
	struct memo_ptr ptr[MEMO_SLOTS];
};

static __thread struct memo *mine;
static pthread_key_t memo_key;
static pthread_once_t memo_once = PTHREAD_ONCE_INIT;
static bool have_key;

static void memo_free(void *p)
{
	struct memo *m = p;

	for (size_t i = 0; i < MEMO_SLOTS; i++)
		free(m->e[i].key);
	free(m);
}

static void make_key(void)
{
	have_key = pthread_key_create(&memo_key, memo_free) == 0;
}

/* A library unloaded (dlclose) must not leave its destructor to threads
 * that outlive it. */
__attribute__((destructor)) static void forget_key(void)
{
	if (have_key)
		pthread_key_delete(memo_key);
	have_key = false;
}

static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/*
 * The last len (< 8) bytes as one word, from loads only: copying them
 * byte by byte into a word on the stack and reading it back stalls the
 * store forwarding, and cost more than the rest of the hash.  Two
 * overlapping 4-byte loads cover 4-7 bytes; three single bytes, 1-3.
 */
static uint64_t tail(const char *s, size_t len)
{
	uint32_t a, b;

	if (len >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + len - 4, 4);
		return (uint64_t)a << 32 | b;
	}
	if (!len)
		return 0;
	return (uint64_t)(unsigned char)s[0] << 16 |
	       (uint64_t)(unsigned char)s[len / 2] << 8 |
	       (unsigned char)s[len - 1];
}

/* Eight bytes at a time; the length mixed in with the tail, so that "ab"
 * + "c" and "a" + "bc" differ. */
static uint64_t hash_str(uint64_t h, const char *s, size_t len)
{
	uint64_t w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = mix(h, w);
	}
	return mix(h, tail(s, len) ^ ((uint64_t)len << 56));
}

void cache_names_key(struct cache_names *k, const char *scon,
		     const char *tcon, const char *tclass, const char *perm)
{
	uint64_t h = 0x243f6a8885a308d3ull;

	k->s[0] = scon;
	k->s[1] = tcon;
	k->s[2] = tclass;
	k->s[3] = perm;
	for (int i = 0; i < 4; i++) {
		k->len[i] = strlen(k->s[i]);
		h = hash_str(h, k->s[i], k->len[i]);
	}
	k->hash = h;
}

uint64_t cache_names_generation(void)
{
	uint64_t a = __atomic_load_n(&cache_avc.generation, __ATOMIC_ACQUIRE);

	/* Never 0, which marks an empty entry. */
	return (a << 32 | comp_names_generation()) + 1;
}

static struct memo_entry *slot(const struct cache_names *k)
{
	return &mine->e[(k->hash >> 32) & (MEMO_SLOTS - 1)];
}

static bool same(const struct memo_entry *e, const struct cache_names *k)
{
	const char *p = e->key;

	if (e->hash != k->hash)
		return false;
	for (int i = 0; i < 4; i++) {
		if (e->len[i] != k->len[i] || memcmp(p, k->s[i], k->len[i]))
			return false;
		p += k->len[i] + 1;
	}
	return true;
}

static unsigned ptr_slot(const char *const p[4])
{
	uint64_t h = (uintptr_t)p[0] ^ ((uint64_t)(uintptr_t)p[1] << 13) ^
		     ((uint64_t)(uintptr_t)p[2] << 26) ^
		     ((uint64_t)(uintptr_t)p[3] << 39);

	return (unsigned)((h * 0x9e3779b97f4a7c15ull) >> 58) & (MEMO_SLOTS - 1);
}

static void answer(const struct memo_entry *e, security_id_t *ssid,
		   security_id_t *tsid, security_class_t *cls,
		   access_vector_t *av)
{
	*ssid = e->ssid;
	*tsid = e->tsid;
	*cls = e->cls;
	*av = e->av;
}

bool cache_names_find_fast(const char *scon, const char *tcon,
			   const char *tclass, const char *perm,
			   security_id_t *ssid, security_id_t *tsid,
			   security_class_t *cls, access_vector_t *av)
{
	const char *const p[4] = {scon, tcon, tclass, perm};
	const struct memo_ptr *q;
	const struct memo_entry *e;
	const char *k;

	if (!mine)
		return false;
	q = &mine->ptr[ptr_slot(p)];
	if (q->p[0] != scon || q->p[1] != tcon || q->p[2] != tclass ||
	    q->p[3] != perm)
		return false;
	e = &mine->e[q->entry];
	if (!e->gen || e->gen != cache_names_generation())
		return false;
	k = e->key;
	for (int i = 0; i < 4; i++) {
		if (strcmp(k, p[i]))
			return false;
		k += e->len[i] + 1;
	}
	answer(e, ssid, tsid, cls, av);
	return true;
}

/* The pointers of k now lead to entry e. */
static void point(const struct cache_names *k, const struct memo_entry *e)
{
	struct memo_ptr *q = &mine->ptr[ptr_slot(k->s)];

	memcpy(q->p, k->s, sizeof(q->p));
	q->entry = (uint8_t)(e - mine->e);
}

bool cache_names_find(const struct cache_names *k, security_id_t *ssid,
		      security_id_t *tsid, security_class_t *cls,
		      access_vector_t *av)
{
	const struct memo_entry *e;

	if (!mine)
		return false;
	e = slot(k);
	if (!e->gen || e->gen != cache_names_generation() || !same(e, k))
		return false;
	point(k, e);
	answer(e, ssid, tsid, cls, av);
	return true;
}

static struct memo *memo_get(void)
{
	struct memo *m = mine;

	if (m)
		return m;
	pthread_once(&memo_once, make_key);
	if (!have_key)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	if (pthread_setspecific(memo_key, m)) {
		free(m);
		return NULL;
	}
	mine = m;
	return m;
}

void cache_names_remember(const struct cache_names *k, uint64_t gen,
			  security_id_t ssid, security_id_t tsid,
			  security_class_t cls, access_vector_t av)
{
	size_t total = 0;
	struct memo_entry *e;
	char *key, *p;

	if (!memo_get())
		return;
	for (int i = 0; i < 4; i++)
		total += k->len[i] + 1;
	key = malloc(total);
	if (!key)
		return;
	p = key;
	for (int i = 0; i < 4; i++) {
		memcpy(p, k->s[i], k->len[i] + 1);
		p += k->len[i] + 1;
	}
	e = slot(k);
	free(e->key);
	e->key = key;
	e->hash = k->hash;
	e->gen = gen;
	memcpy(e->len, k->len, sizeof(e->len));
	e->ssid = ssid;
	e->tsid = tsid;
	e->cls = cls;
	e->av = av;
	point(k, e);
}
