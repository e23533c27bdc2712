/*
 * label/index/index.h: the lookup engine, what the file backend above
 * (label/file/) may call.  The engine holds a handle's specs (read from
 * the files into fc_data.spec, or in place in an index image) and finds
 * the spec that wins for a key: fc_index_lookup() is its one entry.
 * How it finds it (the exact-string table, the trie, each node's
 * automata or combined regex, the image's lazy checks) is the room's
 * own business (node.h, dfa.h, image.h).
 */
#ifndef SELINUX_LABEL_INDEX_H
#define SELINUX_LABEL_INDEX_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "../../core/internal.h"

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
	char *regex;   /* as written in file_contexts */
	char *ctx;     /* the raw context, or "<<none>>" (shared, interned) */
	uint32_t mode; /* S_IFMT bits, 0 for any file type */
	uint32_t lineno;
	uint32_t rlen; /* strlen(regex) */
	uint16_t file; /* index into fc_data.files */
	uint8_t meta;  /* the reference's hasMetaChars */
	uint8_t pad;
};

/* The analysis of spec i, in fc_data.ix[i] (fc_spec_analyze).  No
 * pointer: an index image holds the array as it is (fc_image.c). */
struct fc_ix {
	uint32_t lit; /* offset in fc_data.lits: FC_FIXED: the path;
		       * FC_TRIE: the fixed prefix (NUL-terminated) */
	uint32_t lit_len;
	uint32_t rem_off;    /* FC_TRIE: offset in regex after the prefix */
	uint32_t stem_len;   /* the reference's stem ("/usr" of "/usr/.*") */
	uint32_t prefix_len; /* the reference's prefix_len (raw chars) */
	uint32_t hnext;	     /* FC_FIXED: next spec in its hash chain (a lower
			      * index), or ~0 */
	uint8_t kind;	     /* enum fc_kind */
};

/* fc_data.re[i] for a regex PCRE2 rejects (a lookup reaching it fails). */
extern const char fc_re_bad_tag;
#define FC_RE_BAD ((pcre2_code *)&fc_re_bad_tag)

/*
 * The radix trie of FC_TRIE prefixes, flat: nodes in an array, node 0 the
 * root, each node's children after it (a child's index is above its
 * parent's), no pointer in it, so that an index image holds it as it is.
 * Built as linked nodes (fc_index.c) and then flattened.
 */
struct fc_tnode {
	uint32_t label;	    /* edge label: offset in fc_trie.labels */
	uint32_t label_len; /* >= 1 but at the root */
	uint32_t depth;	    /* length of the prefix this node stands for */
	uint32_t child;	    /* children: fc_trie.keys/kids[child .. + nchild],
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
	const uint64_t *dfas;	 /* offsets of automata in dfa_base */
	const uint32_t *dfa_sum; /* their checksums */
	uint32_t ndfas;
	const uint32_t *rest;
	uint32_t nrest;
	const char *dfa_base;
	size_t dfa_len;
};

/* The engine's per-node state (node.h) and the file backend's
 * substitution rules (file/fc.h), which the data carries. */
struct fc_nstate;
struct fc_sub;

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
	int indexed;   /* set once (__atomic) after the index is built */
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
static inline const char *fc_lit(const struct fc_data *d, const struct fc_ix *x)
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
	/* The last n < 8 bytes, as memcpy would lay them out (byte by
	 * byte: memcpy of a variable length is a call). */
	w = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (size_t k = 0; k < n; k++)
		w |= (uint64_t)(uint8_t)s[k] << (8 * k);
#else
	memcpy(&w, s, n);
#endif
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

/* spec.c: the spec table (its arena, shared strings), the analysis of a
 * spec, its regex compiled on first use. */
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
/* Spec i's regex, compiled on first use; NULL if PCRE2 rejects it
 * (fc_spec_bad then true) or out of memory (false: tried again). */
pcre2_code *fc_spec_re(struct fc_data *d, uint32_t i);
/* Did PCRE2 reject spec i's regex (fc_spec_re returned NULL)? */
bool fc_spec_bad(struct fc_data *d, uint32_t i);

/* index.c */
/* Analyse the specs and build the index once; 0 or -errno. */
int fc_index_ensure(struct fc_data *d);
void fc_index_free(struct fc_data *d);
/* lookup.c: the one entry. */
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

/* node.c: build every node's final set (FC_NODE_BUILT), as an index
 * image holds them (its writer's): 0 or -errno. */
int fc_index_build_all(struct fc_data *d);

/* image.c: the index image (image.h). */
/* All the image's units checked (partial matches, stats and
 * comparisons read every spec): 0 (or no image) or -EINVAL,
 * remembered. */
int fc_image_check_all(struct fc_data *d);

#endif
