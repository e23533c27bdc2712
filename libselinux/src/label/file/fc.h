/* label/fc.h: the file_contexts backend's data, shared by its files. */
#ifndef SELINUX_LABEL_FC_H
#define SELINUX_LABEL_FC_H

#include <string.h>

#include "../internal.h"

/*
 * How a spec is matched.  The answers are always the reference's: the
 * spec with the highest index (file order, regex specs before literal
 * ones) that matches wins.  The kinds only decide how fast we find it.
 *  FC_FIXED   no regex meta character and only escapes of punctuation:
 *             an exact string, found in a hash table.
 *  FC_TRIE    a regex our own syntax check accepts, without a top-level
 *             '|': it can only match paths starting with its unescaped
 *             fixed prefix, so it lives in the trie node of that prefix,
 *             whose specs are matched together by one combined regex.
 *  FC_SINGLE  anything else (a top-level '|', back references, an option
 *             setting, a regex PCRE2 rejects): matched on its own, in
 *             index order, exactly as the reference does.
 */
enum fc_kind { FC_FIXED, FC_TRIE, FC_SINGLE };

/*
 * A spec as read: what the open needs, kept small (32 bytes) because
 * every page of the array is a fresh page the open faults in.  What the
 * index needs is in struct fc_ix, built on the first lookup.
 */
struct fc_spec {
	char *regex; /* as written in file_contexts */
	char *ctx; /* the raw context, or "<<none>>" (shared, interned) */
	uint32_t mode; /* S_IFMT bits, 0 for any file type */
	uint32_t lineno;
	uint32_t rlen; /* strlen(regex) */
	uint16_t file; /* index into fc_data.files */
	uint8_t meta; /* the reference's hasMetaChars */
	uint8_t pad;
};

/* The analysis of spec i, in fc_data.ix[i] (fc_spec_analyze).  No
 * pointer: an index image holds the array as it is (fc_image.c). */
struct fc_ix {
	uint32_t lit; /* offset in fc_data.lits: FC_FIXED: the path;
		       * FC_TRIE: the fixed prefix (NUL-terminated) */
	uint32_t lit_len;
	uint32_t rem_off; /* FC_TRIE: offset in regex after the prefix */
	uint32_t stem_len; /* the reference's stem ("/usr" of "/usr/.*") */
	uint32_t prefix_len; /* the reference's prefix_len (raw chars) */
	uint32_t hnext; /* FC_FIXED: next spec in its hash chain (a lower
			 * index), or ~0 */
	uint8_t kind; /* enum fc_kind */
};

/* fc_data.re[i] for a regex PCRE2 rejects (a lookup reaching it fails). */
extern const char fc_re_bad_tag;
#define FC_RE_BAD ((pcre2_code *)&fc_re_bad_tag)

/*
 * Matching a trie node's specs: one DFA per node.
 *
 * A key reaches the nodes on its path (three to six for a path under
 * /usr/share); each node held one combined PCRE2 regex of its specs'
 * remainders, whose backtracking cost grows with the key's length times
 * the specs that get some way into it (/usr/share/ has hundreds).
 * Nearly every remainder is a regular expression in the strict sense, so
 * a node now holds a deterministic automaton of those (fc_dfa.c): the key
 * after the node's prefix is walked once, one table load per byte, and
 * the state reached lists the specs accepting there, highest first; the
 * first that passes the file-type and stem test wins, which is the spec
 * the combined regex (and the reference) find.  What the subset cannot
 * express (back references, anchors, option settings, possessive
 * quantifiers, POSIX classes...) stays in a combined PCRE2 regex of the
 * node's remaining specs, tried only when it may hold a higher index.
 *
 * Why built whole, per node, on the node's first use:
 *  - per node, because a node's specs share the prefix: the alphabet
 *    (byte classes, 10-40) and the sets of positions stay small, and a
 *    lookup builds only the nodes on its path (open + first lookup stays
 *    cheap; a whole-file automaton would be built for every path);
 *  - whole (all states reachable, not lazily per transition), because
 *    refpolicy's largest node needs a few hundred states: immutable once
 *    published, concurrent lookups on one handle read it without a lock
 *    and nothing is ever flushed under a reader's feet.  The build runs
 *    under fc_data.lock, like the lazy regexes, and is published with a
 *    release store of built;
 *  - bounded: a node whose automaton would pass FC_DFA_MAX_STATES states
 *    (refpolicy's /usr/ node: dozens of specs like "(.* /)?x" and ".*y", whose
 *    sets of positions combine) has its specs split in halves, again
 *    until each half fits; the halves are walked highest first and only
 *    while they may hold an index above the best so far.  A single spec
 *    that does not fit stays with PCRE2.
 * A key ending in '\n' is walked twice, with and without it: "$" also
 *  matches before a final newline, and the subset has no inner anchors.
 */
#define FC_DFA_MAX_STATES 2048
/*
 * Why not built on a node's very first use: a large node's automata
 * cost far more to build than its combined PCRE2 regex of all its specs
 * (refpolicy's /usr/ node, split again and again under the cap: ~20 ms
 * against ~1 ms), and one restorecon or matchpathcon of a single file
 * would pay for it.  So a node of more than FC_DFA_EAGER specs first
 * gets that combined regex (stage FC_NODE_WARM) and answers its first
 * FC_DFA_WARMUP lookups with it, as before the automata; then the
 * automata are built (stage FC_NODE_BUILT) and the combined regex is
 * kept, unused, until the handle closes (a concurrent lookup may still
 * be in it).  Both give the same answer: the highest matching spec.
 * While one thread builds, the others do not wait for the lock: they go
 * on with the combined regex (a parallel restorecon's second thread
 * would otherwise stand still for the whole build).
 */
#define FC_DFA_EAGER 32
#define FC_DFA_WARMUP 64
/*
 * A node of FC_DFA_SMALL to FC_DFA_EAGER specs answers its first
 * FC_DFA_SMALL_AFTER lookups with its warm regex (a single matchpathcon
 * or restorecon pays no automaton), then gets automata of at most
 * FC_DFA_SMALL_STATES states each (stage FC_NODE_SMALL: more of them,
 * smaller, quick to build), and after FC_DFA_WARMUP lookups in all is
 * built again at FC_DFA_MAX_STATES (fewer automata to walk).  A build's cost is mostly attempts that grow past the cap and
 * are split, each costing about the cap's states: refpolicy's /usr/ node
 * (26 specs like "(.* /)?bin(/.*)?", ".*\.cgi" and
 * ".* /gems/.* /passenger-.* /agents/...", whose positions combine) takes
 * 4.6 ms at 256 states a piece (8 pieces) against 20 ms at 2048 (4
 * pieces), while its warm regex took 3.5 us on a 130-byte path that only
 * "/usr/.*" matches (the slowest lookup of the deep-path corpus); kept
 * at 256, such nodes made the mean lookup 20% slower.  The first set is
 * kept, unused, until the handle closes (a lookup may still be in it).
 */
#define FC_DFA_SMALL 16
#define FC_DFA_SMALL_AFTER 1
#define FC_DFA_SMALL_STATES 256
#define FC_NODE_WARM 1
#define FC_NODE_BUILT 2
#define FC_NODE_SMALL 3
/* An index image's node whose automata or lists do not check out: a
 * lookup reaching it fails with EINVAL. */
#define FC_NODE_BAD 4

/* fc_dfa.c */
/*
 * An automaton is one block of memory with no pointer in it, so that an
 * index image (fc_image.c) holds it as it is and a lookup walks it in
 * place: this header, then
 *   uint16_t next[nstates * ncls]   the transitions, premultiplied: row r
 *                                   (state r / ncls) goes on byte class c
 *                                   to row next[r + c], so a step costs
 *                                   one load, no multiply.  Row 0 is the
 *                                   dead state, row ncls the start; a
 *                                   state count times ncls above 65536 is
 *                                   refused (-E2BIG: split);
 *   (padding to 4 bytes)
 *   uint32_t acc_off[nstates + 1]   state s accepts acc[acc_off[s] ..
 *                                   acc_off[s + 1]);
 *   uint32_t acc[nacc]              spec indices, highest first per state.
 * size is the whole block's, this header included (fc_dfa_size()).
 */
struct fc_dfa {
	uint32_t nstates; /* state 0: dead, 1: the start */
	uint32_t ncls;
	uint32_t nacc;
	uint32_t acc_top; /* the highest spec index in it */
	uint32_t size;
	uint32_t pad[3];
	uint8_t cls[256]; /* byte -> class */
};

static inline const uint16_t *fc_dfa_next(const struct fc_dfa *a)
{
	return (const uint16_t *)(a + 1);
}

static inline const uint32_t *fc_dfa_acc_off(const struct fc_dfa *a)
{
	size_t n = (size_t)a->nstates * a->ncls * sizeof(uint16_t);

	return (const uint32_t *)((const char *)(a + 1) + ((n + 3) & ~(size_t)3));
}

static inline const uint32_t *fc_dfa_acc(const struct fc_dfa *a)
{
	return fc_dfa_acc_off(a) + a->nstates + 1;
}

/* The size a block of these counts takes, or 0 if they cannot be one
 * (too large for 32 bits, no state, no class). */
size_t fc_dfa_block_size(uint64_t nstates, uint64_t ncls, uint64_t nacc);
/*
 * Is the block at a, avail bytes (read from an index image), an
 * automaton whose every transition, acceptance list and spec index stays
 * within it and below nspec?  Then a walk of any key stays inside it.
 */
bool fc_dfa_valid(const struct fc_dfa *a, size_t avail, uint32_t nspec);
/*
 * The automaton of the n regexes re[] (matched whole, as "^re$" with
 * PCRE2_DOTALL), accepting spec[k] for re[k]; in[k] tells whether re[k]
 * is in it (false: outside the subset, left to PCRE2).  mode[k] is
 * spec[k]'s S_IFMT bits, with FC_DFA_NODOM when the spec may fail the
 * stem test for a key the automaton sees (see prune() in fc_dfa.c).
 * 0, -E2BIG (more than max_states states) or -ENOMEM.
 */
#define FC_DFA_NODOM 0x80000000u
int fc_dfa_build(const char *const *re, const uint32_t *spec,
		 const uint32_t *mode, uint32_t n, uint32_t max_states, bool *in,
		 struct fc_dfa **out);
/* Is re in the subset fc_dfa_build accepts? */
bool fc_dfa_supported(const char *re);
/* The specs whose regex matches all of [s, s + n), highest first. */
const uint32_t *fc_dfa_match(const struct fc_dfa *a, const char *s, size_t n,
			     uint32_t *count);
/* The same for k (<= FC_DFA_LOCKSTEP) automata at once, side by side:
 * acc[j], count[j] for a[j]. */
#define FC_DFA_LOCKSTEP 4
void fc_dfa_match_many(const struct fc_dfa *const *a, uint32_t k,
		       const char *s, size_t n, const uint32_t **acc,
		       uint32_t *count);
/* Bytes a holds (a->size). */
size_t fc_dfa_size(const struct fc_dfa *a);
void fc_dfa_free(struct fc_dfa *a);

/*
 * The radix trie of FC_TRIE prefixes, flat: nodes in an array, node 0 the
 * root, each node's children after it (a child's index is above its
 * parent's), no pointer in it, so that an index image holds it as it is.
 * Built as linked nodes (fc_index.c) and then flattened.
 */
struct fc_tnode {
	uint32_t label; /* edge label: offset in fc_trie.labels */
	uint32_t label_len; /* >= 1 but at the root */
	uint32_t depth; /* length of the prefix this node stands for */
	uint32_t child; /* children: fc_trie.keys/kids[child .. + nchild],
			 * sorted by the first byte of their label */
	uint32_t nchild;
	uint32_t specs; /* spec indices fc_trie.specs[specs .. + nspecs],
			 * highest first */
	uint32_t nspecs;
	uint32_t set; /* index image: its set in fc_trie.sets, else ~0 */
};

/* What an index image holds of node k's automata and other specs: the
 * automata fc_trie.dfas[dfa .. + ndfa] and the specs left to PCRE2,
 * fc_trie.rest[rest .. + nrest]. */
struct fc_iset {
	uint32_t dfa, ndfa, rest, nrest;
};

struct fc_trie {
	const struct fc_tnode *node;
	uint32_t nnode;
	const uint8_t *keys; /* keys[i]: the first byte of kids[i]'s label */
	const uint32_t *kids;
	uint32_t nkids;
	const uint32_t *specs;
	uint32_t nspecs;
	const char *labels;
	uint32_t nlabels;
	/* index image only (else NULL, 0) */
	const struct fc_iset *sets;
	uint32_t nsets;
	const uint64_t *dfas; /* offsets of automata in dfa_base */
	const uint32_t *dfa_sum; /* their checksums */
	uint32_t ndfas;
	const uint32_t *rest;
	uint32_t nrest;
	const char *dfa_base;
	size_t dfa_len;
};

/*
 * What a node matches with, and how far it is (the node's mutable state,
 * fc_data.ns[k], apart from the flat trie).
 *  warm: the combined regex of all specs, while built is FC_NODE_WARM,
 *   then unused (see FC_DFA_WARMUP); uses counts the lookups it (or the
 *   FC_NODE_SMALL set) answered.
 *  set: the automata and the rest, built under fc_data.lock and published
 *   with a release store of set (then of built: FC_NODE_SMALL or
 *   FC_NODE_BUILT), read-only afterwards; an older set stays, unused, in
 *   the newer one's older until the handle closes.  With an index image,
 *   the set is the image's (the automata in place), FC_NODE_BUILT from
 *   the node's first use.
 */
struct fc_nstate {
	pcre2_code *warm;
	struct fc_set *set;
	uint32_t uses;
	uint8_t built;
	bool noted; /* in fc_data.used_nodes */
};

/* What a node matches with (see fc_nstate.set). */
struct fc_set {
	/* dfa: the automata of the specs in the regular subset (one, or
	 * several for consecutive runs of specs when one would be too
	 * large), the highest specs' first; rest, the others, highest
	 * first, and code, their combined regex.  rest NULL: out of
	 * memory.  code_state: FC_CODE_NONE until code is built (an index
	 * image's set builds it on first need), FC_CODE_OK, or
	 * FC_CODE_FAILED (a regex among them PCRE2 rejects, or ENOMEM:
	 * match each on its own). */
	const struct fc_dfa *const *dfa;
	uint32_t ndfa;
	const uint32_t *rest;
	uint32_t nrest;
	pcre2_code *code;
	int code_state;
	bool owned; /* dfa[i] and rest are this set's (not an image's) */
	struct fc_set *older;
};
#define FC_CODE_NONE 0
#define FC_CODE_OK 1
#define FC_CODE_FAILED 2

struct fc_sub {
	char *src, *dst;
	size_t slen;
};

/* Bump allocator for the specs' strings: freed all at once at close. */
struct fc_chunk {
	struct fc_chunk *next;
	size_t used, size;
	char mem[];
};

/* A slot of fc_data.itab: s == NULL when free. */
struct fc_istr {
	char *s;
	uint32_t len, hash;
};

/*
 * A spec as an index image holds it (fc_image.c): regex and ctx are
 * offsets in the image's string pool (fc_data.istr).
 */
struct fc_ispec {
	uint32_t regex, ctx, mode, lineno, rlen;
	uint16_t file;
	uint8_t meta, pad;
};

struct fc_data {
	struct fc_chunk *arena;
	/* While the handle is being opened: each distinct context once
	 * (refpolicy: ~1900 distinct in ~5600 specs), so that specs share
	 * their ctx strings.  Open addressing; NULL slots are free. */
	struct fc_istr *itab;
	uint32_t imask, icount;
	/* The specs, sorted: regex specs, then literal ones.  Read from the
	 * files into spec, or, with an index image, in place in the image
	 * (ispec, with their strings in istr): never both; fc_regex() and
	 * its siblings below read either. */
	struct fc_spec *spec;
	const struct fc_ispec *ispec;
	const char *istr;
	uint32_t nspec, aspec;
	/* Specs the files still to be read may add (an estimate), so that
	 * the array is allocated once. */
	uint32_t hint;
	/* spec was carved from the first arena chunk (not malloc'd). */
	bool spec_in_arena;
	/* The index image mapped (fc_image.c), or NULL; digest_nfiles0:
	 * the digest's files before the image named its own. */
	void *img;
	size_t img_len;
	size_t digest_nfiles0;
	uint32_t img_nstr, img_nlits; /* bytes of its string pools */
	int img_checked; /* fc_image_check_all(): 0 not yet, 1 ok, -1 bad */
	/* The image's checksums of its specs, nodes and blocks of 64 heads
	 * (fc_image.h), and a bit for each that checked out (__atomic). */
	const uint32_t *sum_spec, *sum_node, *sum_head;
	uint64_t *ok_spec, *ok_node, *ok_head;
	/* A part of the image did not check out (__atomic): the handle
	 * answers from the files instead, through replacement: the data
	 * read from them, which h->data then points to (fc_image_fallback);
	 * the data it replaced stays until the close (a lookup may still be
	 * in it), freed with it as its replaced. */
	int img_bad;
	bool fallback_failed;
	struct fc_data *replacement, *replaced;
	/* The analysis, with the index; lits: the strings it names.  Both
	 * malloc'd, or in the image. */
	const struct fc_ix *ix;
	const char *lits;
	uint32_t nlits; /* bytes of lits */
	/* any_matches of spec i (selabel_stats), written with __atomic;
	 * allocated on the first lookup. */
	uint8_t *used;
	/* "^regex$" of spec i compiled on its own, NULL until first needed,
	 * FC_RE_BAD if PCRE2 rejects it.  The array is allocated on first
	 * use; both it and its slots are published with __atomic under
	 * lock. */
	pcre2_code **re;
	char **files; /* spec files read, for messages */
	uint32_t nfiles;
	/* FC_FIXED hash: heads[hash & mask] is the first spec or ~0. */
	const uint32_t *heads;
	uint32_t mask;
	/* Bit n set when some FC_FIXED spec is n bytes long (n < 1024). */
#define FC_LENBITS 1024
	uint64_t fixed_lens[FC_LENBITS / 64];
	struct fc_trie trie;
	/* Per trie node (fc_nstate_alloc); used_nodes: the nodes given a
	 * state, whose sets the close frees (under lock). */
	struct fc_nstate *ns;
	uint32_t *used_nodes;
	uint32_t nused, aused;
	const uint32_t *single; /* FC_SINGLE spec indices, highest first */
	uint32_t nsingle;
	/* .subs and .subs_dist, in the reference's order (last line first) */
	struct fc_sub *subs, *dist_subs;
	size_t nsubs, ndist_subs;
	char *subs_path, *dist_path; /* their files (for explanations) */
	/* Guards the lazy building of re and the nodes' sets; readers
	 * take no lock (they load the published pointers with __atomic). */
	pthread_mutex_t lock;
	/* May node_build JIT-compile (lbl_jit_allowed)?  -1 until first
	 * asked, under lock. */
	int jit;
	int indexed; /* set once (__atomic) after the index is built */
	int index_err; /* its result, written before indexed */
};

/* Spec i's fields, from the files' specs or an index image's. */
static inline const char *fc_regex(const struct fc_data *d, uint32_t i)
{
	return d->ispec ? d->istr + d->ispec[i].regex : d->spec[i].regex;
}

static inline const char *fc_ctx(const struct fc_data *d, uint32_t i)
{
	return d->ispec ? d->istr + d->ispec[i].ctx : d->spec[i].ctx;
}

static inline uint32_t fc_smode(const struct fc_data *d, uint32_t i)
{
	return d->ispec ? d->ispec[i].mode : d->spec[i].mode;
}

static inline uint32_t fc_lineno(const struct fc_data *d, uint32_t i)
{
	return d->ispec ? d->ispec[i].lineno : d->spec[i].lineno;
}

static inline uint32_t fc_rlen(const struct fc_data *d, uint32_t i)
{
	return d->ispec ? d->ispec[i].rlen : d->spec[i].rlen;
}

static inline uint32_t fc_sfile(const struct fc_data *d, uint32_t i)
{
	return d->ispec ? d->ispec[i].file : d->spec[i].file;
}

static inline bool fc_meta_of(const struct fc_data *d, uint32_t i)
{
	return d->ispec ? d->ispec[i].meta : d->spec[i].meta;
}

/* The literal of analysis x (fc_ix.lit). */
static inline const char *fc_lit(const struct fc_data *d,
				 const struct fc_ix *x)
{
	return d->lits + x->lit;
}

/* A word-at-a-time multiplicative hash (keys are paths, 10-200 bytes). */
static inline uint32_t fc_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

/* fc_spec.c */
/* Make room for n more bytes in d's arena in one chunk (one allocation
 * sized for a whole file instead of many); 0 or -ENOMEM. */
int fc_arena_reserve(struct fc_data *d, size_t n);
/* The arena copy of [s, s + n) shared by every spec with that string
 * (used for contexts while opening); NULL if out of memory. */
char *fc_intern(struct fc_data *d, const char *s, size_t n);
void fc_intern_free(struct fc_data *d);
/* n zeroed bytes in d's arena, aligned for any struct of ours; NULL if
 * out of memory.  Freed with the arena. */
void *fc_arena_alloc(struct fc_data *d, size_t n);
/* A copy of [s, s + n) plus a NUL in d's arena; NULL if out of memory. */
char *fc_strndup(struct fc_data *d, const char *s, size_t n);
void fc_arena_free(struct fc_data *d);
/* The reference's regex meta characters ".^$?*+|[({". */
extern const uint8_t fc_meta[256];
/* Fill in x, the analysis of s (and s->meta); x's literal goes to
 * lits + *lits_len (room for s->rlen + 1 more bytes), *lits_len grows
 * by what it takes. */
int fc_spec_analyze(struct fc_data *d, struct fc_spec *s, struct fc_ix *x,
		    char *lits, uint32_t *lits_len);
/* The type field ("--", "-d" ...) as mode bits; -EINVAL if unknown. */
int fc_mode_from_string(const char *t, uint32_t *mode);
const char *fc_mode_to_string(uint32_t mode);
/* "^regex$" with the reference's flags; NULL and *err, *erroff on error. */
pcre2_code *fc_compile(const char *regex, int *err, size_t *erroff);
/* Spec i's regex, compiled on first use; NULL if PCRE2 rejects it. */
pcre2_code *fc_spec_re(struct fc_data *d, uint32_t i);
/* Did PCRE2 reject spec i's regex (fc_spec_re returned NULL)? */
bool fc_spec_bad(struct fc_data *d, uint32_t i);

/* fc_text.c: parse one text file_contexts held in buf (NUL-terminated). */
struct fc_load {
	struct selabel_handle *h;
	struct fc_data *d;
	const char *prefix; /* SELABEL_OPT_SUBSET */
	const char *path;
	uint32_t file;
	bool bin; /* a compiled file: see FC_STOP */
	/* Compile each regex as it is read, and refuse the file if one
	 * fails (as VALIDATE does, without checking contexts): what
	 * sefcontext_compile does. */
	bool check_regex;
};
/* fc_add_spec's answer for a .bin spec whose context the validator
 * rejects: the reference then stops reading the file, keeps the specs
 * read so far and reports success. */
#define FC_STOP 1
int fc_parse_text(struct fc_load *l, const char *buf, size_t len);
/* The same, read from fd (size bytes from its offset). */
int fc_parse_text_fd(struct fc_load *l, int fd, size_t size);
/* Room for more specs in d->spec; 0 or -errno. */
int fc_reserve(struct fc_data *d, size_t more);
/* Room for more specs and for bytes of their strings: for the first
 * file, one allocation holding both; 0 or -errno. */
int fc_prepare(struct fc_data *d, size_t more, size_t bytes);
/* Append a spec (copying regex and ctx); applies SUBSET and VALIDATE. */
int fc_add_spec(struct fc_load *l, const char *regex, size_t rlen,
		uint32_t mode, const char *ctx, size_t clen, uint32_t lineno);

/* fc_bin.c: the compiled format. */
#define FC_BIN_MAGIC 0xf97cff8aU
/* Read a compiled file from fd (len: its size), or from buf when fd < 0. */
int fc_parse_bin(struct fc_load *l, int fd, const uint8_t *buf, size_t len);
/* Write d's specs as a version 5 file_contexts.bin to fd (with serialized
 * regexes unless no_regex). */
int fc_write_bin(struct fc_data *d, int fd, bool no_regex);
/* All n bytes of p to fd (EINTR retried): 0 or -errno. */
int fc_write_all(int fd, const void *p, size_t n);
/* fc_parse_bin's answer for a compiled file of a version we do not read
 * (after its one message): the caller tries the text file instead. */
#define FC_EVERSION EPROTONOSUPPORT

/* fc_bin6.c, fc_bin6_write.c: version 6, big-endian (libselinux 3.8+). */
#define FC_BIN6_VERSION 6
/* File kinds 0-7 of version 6 as S_IFMT bits (0: any). */
#define FC_BIN6_KINDS 8
extern const uint32_t fc_bin6_kind_mode[FC_BIN6_KINDS];
/* The literal [s, s + n) stands for, its backslashes dropped, into out
 * (n + 1 bytes, may be NULL): its length, or -1 if s is no literal for
 * libselinux 3.8 (a NUL, a meta character of ".^$?*+|[({])}", or an
 * escape of anything but those and "-_,"). */
ssize_t fc_bin6_simplify(const char *s, size_t n, char *out);
/* The version 6 tree's depth: 3.8's writer places a spec in the node of
 * at most this many leading components of its path. */
#define FC_BIN6_DEPTH 3
/*
 * The next component of a spec's path as that writer walks it, from *p
 * (the literal, or the regex): empty components skipped; a literal's
 * walk goes on only at a '/'; a component counts only when a '/' follows
 * it.  1 with *comp and *len (into the path, not NUL-terminated; for a
 * regex still to be simplified) and *p past it; 0 where the walk stops.
 */
int fc_bin6_next(const char **p, bool lit, const char **comp, size_t *len);
/* Room for element n in the array *p of *cap elements of size bytes
 * (doubled when full, 4 at first): 0, or -ENOMEM or -EOVERFLOW. */
int fc_bin6_grow(void **p, uint32_t *cap, uint32_t n, size_t size);
/* As fc_parse_bin, for a version 6 file (fc_parse_bin hands it over). */
int fc_parse_bin6(struct fc_load *l, int fd, const uint8_t *buf, size_t len);
/* Write d's specs as a version 6 file_contexts.bin to fd. */
int fc_write_bin6(struct fc_data *d, int fd, bool no_regex);

/* jit.c: may this process JIT-compile regexes (process:execmem)? */
bool lbl_jit_allowed(void);

/* fc_index.c */
/* Analyse the specs and build the index once; 0 or -errno. */
int fc_index_ensure(struct fc_data *d);
void fc_index_free(struct fc_data *d);
/* d->ns for d->trie.nnode nodes, zeroed: 0 or -ENOMEM; and away. */
int fc_nstate_alloc(struct fc_data *d);
void fc_nstate_free(struct fc_data *d);
/* Build every node's final set (FC_NODE_BUILT), as an index image holds
 * them: 0 or -errno. */
int fc_index_build_all(struct fc_data *d);
/*
 * The highest spec index matching key (already normalised) for mode
 * (S_IFMT bits or 0): >= 0; -ENOENT if none, or if a regex PCRE2 rejects
 * or cannot match (its match limit) is reached first, where the
 * reference's lookup fails with ENOENT too; -EINVAL when an index
 * image's part does not check out (the caller reads the files then).
 */
int fc_index_lookup(struct fc_data *d, const char *key, size_t keylen,
		    uint32_t mode);
/* Does the reference consider spec i for key and mode at all: its file
 * type fits (either is 0, or they are equal) and, when the spec has a
 * stem, the key's first component is that stem?  (After
 * fc_index_ensure.) */
bool fc_candidate(const struct fc_data *d, uint32_t i, const char *key,
		  size_t keylen, uint32_t mode);

/* fc_image.c, fc_image_write.c: the index image (fc_image.h). */
/* Attach base's index image to d (and the digest to h's): 0, or -errno
 * when there is none, it is stale or it does not check out (d is left
 * as it was: read the files). */
int fc_image_open(struct selabel_handle *h, struct fc_data *d,
		  const char *base);
void fc_image_detach(struct selabel_handle *h, struct fc_data *d);
/* Do spec i's fields (an index image's) lie inside the image, and does
 * it have its checksum?  Asked where an index comes out of the image,
 * before any other field is read. */
bool fc_spec_check(const struct fc_data *d, uint32_t i);
/* The same for trie node k (its children, label, specs and set) and for
 * the block of heads holding head b. */
bool fc_node_check(const struct fc_data *d, uint32_t k);
bool fc_heads_check(const struct fc_data *d, uint32_t b);

/* The same, true at once without an image (the lookups' hot path). */
static inline bool fc_spec_ok(const struct fc_data *d, uint32_t i)
{
	return !d->img || fc_spec_check(d, i);
}

static inline bool fc_node_ok(const struct fc_data *d, uint32_t k)
{
	return !d->img || fc_node_check(d, k);
}

static inline bool fc_heads_ok(const struct fc_data *d, uint32_t b)
{
	return !d->img || fc_heads_check(d, b);
}
/* d as a view of the image m (len bytes) in memory, nothing verified
 * (the writer's, to compute the checksums): 0 or -errno; d->ok_spec is
 * to be freed. */
int fc_image_view(struct fc_data *d, const void *m, size_t len);
/* The checksums the writer stores (fc_image.h), over d's image. */
uint32_t fc_spec_sum(const struct fc_data *d, uint32_t i);
uint32_t fc_node_sum(const struct fc_data *d, uint32_t k);
uint32_t fc_heads_sum(const struct fc_data *d, uint32_t blk);
/* All of them (partial matches, stats and comparisons read every
 * spec): 0 or -EINVAL, remembered. */
int fc_image_check_all(struct fc_data *d);
/* h's data d is an index image's that turned out corrupt: the data of
 * the files (read once, under d's lock), now h's, or NULL if they do
 * not load either. */
struct fc_data *fc_image_fallback(struct selabel_handle *h, struct fc_data *d);
/* Set by the writer while it opens the files themselves. */
extern bool fc_image_disabled;
/* The fuzz target's: an image is taken whatever its header checksum,
 * inputs and owner say (everything else is checked as ever). */
extern bool fc_image_test_trust;
struct fc_img_input;
void fc_img_input_of(const struct stat *st, struct fc_img_input *in);

/* fc_lookup.c */
extern const struct lbl_ops fc_ops;
/* Normalise key as the reference does (collapse "//", drop a trailing
 * '/', apply .subs then .subs_dist) into *out: buf when it fits in size,
 * else malloc'd; *outlen its length.  rules, unless NULL: the index in
 * d->subs and d->dist_subs of the rule each applied, or -1. */
int fc_key(struct fc_data *d, const char *key, char *buf, size_t size,
	   char **out, size_t *outlen, int rules[2]);
/* Free what fc_key returned unless it is the caller's key or buffer. */
void fc_key_free(char *k, const char *key, const char *buf);
/* The data h answers from: its own, or, once an index image turned out
 * corrupt, the files' (fc_image_fallback). */
struct fc_data *fc_cur(const struct selabel_handle *h);
/* After an answer of d failed with EINVAL: the data to ask again (d's
 * index image turned out corrupt: the files'), or NULL. */
struct fc_data *fc_retry(struct selabel_handle *h, struct fc_data *d);

/* fc_partial6.c: selabel_hash_all_partial_matches as libselinux 3.8.1
 * and 3.11 compute it (the build's release, compat_since(3, 8)), for the
 * normalised key: 1 and digest, 0 (no digest) or -errno (-EINVAL: a
 * regex PCRE2 rejects, or an index image that does not check out). */
int fc_hash_partial6(struct fc_data *d, const char *key,
		     uint8_t digest[LBL_SHA1_LEN]);

/* fc_explain.c: selabel_lookup_explain() of the file backend: 0 and
 * *exp, or -errno. */
struct selabel_explanation;
int fc_explain(struct selabel_handle *h, const char *key, int type,
	       struct selabel_explanation **exp);

/* fc_subs.c */
int fc_subs_load(struct selabel_handle *h, const char *path,
		 struct fc_sub **subs, size_t *n);
/* The substituted key (malloc'd), or NULL in *out if none applies;
 * *rule (unless rule is NULL): the index in subs of the rule applied, or
 * -1. */
int fc_subs_apply(const struct fc_sub *subs, size_t n, const char *key,
		  size_t keylen, char **out, int *rule);
void fc_subs_free(struct fc_sub *subs, size_t n);

void fc_data_free(struct fc_data *d);

#endif
