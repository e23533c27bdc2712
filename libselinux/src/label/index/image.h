/*
 * label/fc_image.h: the index image, file_contexts.idx - a handle's whole
 * index (specs, analysis, exact-string table, trie, automata), written
 * by sefcontext_compile (fc_image_write.c) and mapped read-only by
 * selabel_open (fc_image.c), so that a process's handle is ready without
 * reading or indexing a spec, and every process shares the pages.
 *
 * The file is the image of our own structures, in the writer's byte
 * order and word size (both tagged: another machine's image is ignored),
 * with no pointer in it: sections of arrays, which name each other by
 * index or by offset.  Nothing in it depends on PCRE2: the automata are
 * ours, and the few specs they do not cover are compiled from their
 * source text when first needed, by whatever PCRE2 the reader has.
 *
 * It never changes an answer:
 *  - it is used only for what the writer opened: the default open of its
 *    file_contexts (at most one SELABEL_OPT_PATH, naming it; no SUBSET
 *    or BASEONLY; DIGEST is answered from it).  With VALIDATE, each
 *    distinct context is validated at the open as the files' would be
 *    (once per context, not per line), and the files are read instead
 *    if one fails or comes back canonicalized otherwise (the files' open
 *    then reports it as ever), or if the matchpathcon hooks are set
 *    (they are called with each line);
 *  - the writer records, for each file such an open may read (the base
 *    file, .homedirs and .local, each as text and as .bin, .subs and
 *    .subs_dist), whether it exists, its device, inode, size, mtime and
 *    ctime (its identity) and a digest of its bytes (content.c).  A
 *    reader that finds every identity as recorded takes the image (the
 *    fast path: a few stat calls).  A file rewritten since gets a new
 *    ctime the writer's clock cannot have seen: the writer waits for the
 *    clock to pass the ctimes it records and reads the files again,
 *    comparing their digest with what it indexed, before it writes
 *    (file/image_write.c);
 *  - when identities differ (the files were copied: libsemanage
 *    installs its own copies into /etc/selinux, an image builder copies
 *    /etc/selinux), the reader takes the image only if its own open
 *    would read the same files as the writer's did and they hold the
 *    same bytes: every file present or missing as recorded, the same
 *    choice between each text file and its .bin (the newer by whole
 *    seconds, file/open.c: a copy gives new mtimes, which can flip it),
 *    and the digest of each file that open would read (those the
 *    writer read, and each first choice) as recorded; anything else
 *    and the files are read (fc_image_inputs);
 *  - the semantics tag changes with the library's way of reading or
 *    matching specs (FC_IMG_SEMANTICS), so an image of another version
 *    is ignored;
 *  - the writer gives up (and leaves no image) when its open of the
 *    files logged anything: a reader would otherwise miss the messages;
 *  - every offset, count and index of the image is checked before use
 *    (the header and sections at the open, each node's automata at its
 *    first use, the trie's fields at each step), and every unit of it
 *    has a checksum, verified before the unit's first use in a process
 *    (fc_sum(): each spec with its strings, each trie node with its
 *    children, label, spec lists and set, each automaton, each block of
 *    64 exact-string heads, the single and file lists, the header): a
 *    unit that does not check out makes the handle read the files
 *    instead (fc_image_fallback, with a warning), so a corrupt image
 *    changes no answer either - but the answers given before the
 *    corruption was met, from units that did check out.  (A change made
 *    on purpose, with its checksum, is not corruption: whoever can write
 *    the image can write file_contexts too.)
 */
#ifndef SELINUX_LABEL_FC_IMAGE_H
#define SELINUX_LABEL_FC_IMAGE_H

#include <stdint.h>
#include <string.h>

#include "dfa.h"
#include "index.h"

#define FC_IMG_MAGIC "LSFCIDX"
#define FC_IMG_VERSION 4
/* Bump with any change to how specs are read, analysed or matched (a
 * build-time choice of the release to behave as, should one come, goes
 * into it too: an image written by one build is then no other's). */
#define FC_IMG_SEMANTICS 1
#define FC_IMG_ORDER 0x01020304u
#define FC_IMG_SUFFIX ".idx"

/* The files a default open may read, as suffixes of its base path (the
 * substitution files first: they are read first, and the digest covers
 * them too). */
enum fc_img_role {
	FC_IN_SUBS_DIST,
	FC_IN_SUBS,
	FC_IN_BASE,
	FC_IN_BASE_BIN,
	FC_IN_HOMEDIRS,
	FC_IN_HOMEDIRS_BIN,
	FC_IN_LOCAL,
	FC_IN_LOCAL_BIN,
	FC_IN_NROLES
};
extern const char *const fc_img_role_suffix[FC_IN_NROLES];

struct fc_img_input {
	uint32_t present;
	uint32_t pad;
	uint64_t dev, ino, size;
	int64_t mtime_sec, mtime_nsec, ctime_sec, ctime_nsec;
	uint64_t sum[2]; /* fc_content_sum_fd() of its bytes (if present) */
};

enum fc_img_section {
	FC_SEC_FILES,	/* uint32_t roles of the files read, in order (those
			 * the digest covers: the .subs files too) */
	FC_SEC_SPEC,	/* struct fc_ispec[nspec] */
	FC_SEC_STR,	/* their strings, NUL-terminated, ending in a NUL */
	FC_SEC_IX,	/* struct fc_ix[nspec] */
	FC_SEC_LITS,	/* their literals, ending in a NUL */
	FC_SEC_HEADS,	/* uint32_t[mask + 1] */
	FC_SEC_SINGLE,	/* uint32_t[nsingle] */
	FC_SEC_TNODE,	/* struct fc_tnode[] */
	FC_SEC_TKEYS,	/* uint8_t[nkids] */
	FC_SEC_TKIDS,	/* uint32_t[nkids] */
	FC_SEC_TSPECS,	/* uint32_t[] */
	FC_SEC_TLABELS, /* char[] */
	FC_SEC_SETS,	/* struct fc_iset[] */
	FC_SEC_DFAS,	/* uint64_t offsets into FC_SEC_DFA */
	FC_SEC_REST,	/* uint32_t[] */
	FC_SEC_DFA,	/* the automata's blocks (struct fc_dfa), 8-aligned */
	FC_SEC_SPECSUM, /* uint32_t[nspec]: fc_spec_sum() */
	FC_SEC_NODESUM, /* uint32_t[nnode]: fc_node_sum() */
	FC_SEC_HEADSUM, /* uint32_t[(mask + 64) / 64]: each 64 heads' */
	FC_SEC_DFASUM,	/* uint32_t[ndfas]: each automaton's block's */
	FC_SEC_CTXS,	/* uint32_t offsets in FC_SEC_STR of the distinct
			 * contexts ("<<none>>" apart), for SELABEL_OPT_VALIDATE */
	FC_SEC_N
};

struct fc_img_sec {
	uint64_t off, len; /* bytes from the file's start; 8-aligned */
};

struct fc_img_hdr {
	char magic[8]; /* FC_IMG_MAGIC and a NUL */
	uint32_t version, semantics;
	uint32_t order; /* FC_IMG_ORDER as the writer stores it */
	uint32_t word;	/* sizeof(void *), sizeof(size_t), sizeof(long) */
	uint32_t sizes; /* of fc_ispec, fc_ix, fc_tnode, fc_dfa (/ 8) */
	uint32_t nspec, nfiles, nsingle, mask;
	uint32_t pad;
	uint64_t size;	    /* of the whole file */
	uint8_t digest[20]; /* SELABEL_OPT_DIGEST's, of the files read */
	uint32_t files_sum, single_sum; /* fc_sum() of those sections */
	uint32_t ctxs_sum;		/* of FC_SEC_CTXS */
	uint64_t fixed_lens[16];
	struct fc_img_input input[FC_IN_NROLES];
	struct fc_img_sec sec[FC_SEC_N];
	uint64_t check; /* fc_img_check() of everything above */
};

/* The header's word and sizes tags for this build. */
#define FC_IMG_WORD                                                            \
	((uint32_t)sizeof(void *) | (uint32_t)sizeof(size_t) << 8 |            \
	 (uint32_t)sizeof(long) << 16)
#define FC_IMG_SIZES                                                           \
	((uint32_t)sizeof(struct fc_ispec) |                                   \
	 (uint32_t)sizeof(struct fc_ix) << 8 |                                 \
	 (uint32_t)sizeof(struct fc_tnode) << 16 |                             \
	 (uint32_t)(sizeof(struct fc_dfa) / 8) << 24)

/* A checksum of units of the image, fed part by part from FC_SUM_INIT
 * (a word at a time: a few GB/s), folded to 32 bits by fc_sum_end. */
#define FC_SUM_INIT 0x243f6a8885a308d3ull
static inline uint64_t fc_sum(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w ^ ((uint64_t)n << 56)) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 31);
}

static inline uint32_t fc_sum_end(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

/* A checksum of n bytes (FNV-1a, 64 bits): the header's. */
static inline uint64_t fc_img_check(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

/* content.c: the digest of a file's bytes (its properties: content.c),
 * fed in pieces of any size. */
struct fc_csum {
	uint64_t acc[8];
	uint64_t len;
	uint32_t stripes, ntail;
	unsigned char tail[64];
};
void fc_csum_init(struct fc_csum *c);
void fc_csum_update(struct fc_csum *c, const void *p, size_t n);
void fc_csum_final(struct fc_csum *c, uint64_t out[2]);
/* The digest of what is left of fd: 0, or -errno. */
int fc_content_sum_fd(int fd, uint64_t out[2]);

/* image.c */
/* How base's files stand to the inputs an image records (hd, roles[]:
 * the roles its writer read): 0 when every identity is as recorded,
 * 1 when they differ but an open would read the same bytes (above), and
 * -ESTALE (or -errno) otherwise.  now[] receives the files' inputs: the
 * identities found, with the digests recorded or computed.  With every,
 * each present file whose identity differs is digested, read or not
 * (the writer's restamp: file/image_write.c). */
int fc_image_inputs(const struct fc_img_hdr *hd, const uint32_t *roles,
		    uint32_t nroles, const char *base, bool every,
		    struct fc_img_input *now);
/* The header of an image in memory (len bytes) is ours and whole: magic,
 * version, semantics, byte order, word size, sizes, length, checksum. */
bool fc_image_header_ok(const struct fc_img_hdr *hd, size_t len);
/* Map base's index image (base + FC_IMG_SUFFIX) into d, if there is
 * one, fresh and checking out (header, sections, the root): 0 with d's
 * specs and index in place and *hd its header; or -errno (-ENOENT: none,
 * -ESTALE: stale or another build's, -EINVAL: does not check out), d as
 * it was.  What the image says of the files it names and of VALIDATE is
 * the handle's (file/image_open.c). */
int fc_image_map(struct fc_data *d, const char *base, struct fc_img_hdr *hd);
void fc_image_unmap(struct fc_data *d);
/* image_write.c: the image of d (indexed whole: fc_index_build_all),
 * whose files were read as roles[] (nroles) with the inputs in[] and
 * the digest dg: 0 and *img (malloc'd, *len bytes), or -errno. */
int fc_image_assemble(const struct fc_data *d, const uint32_t *roles,
		      uint32_t nroles, const struct fc_img_input *in,
		      const uint8_t *dg, uint8_t **img, size_t *len);
/* d as a view of the image m (len bytes) in memory, nothing verified
 * (the writer's, to compute the checksums): 0 or -errno; d->ok_spec is
 * to be freed. */
int fc_image_view(struct fc_data *d, const void *m, size_t len);
/* The checksums the writer stores, over d's image. */
uint32_t fc_spec_sum(const struct fc_data *d, uint32_t i);
uint32_t fc_node_sum(const struct fc_data *d, uint32_t k);
uint32_t fc_heads_sum(const struct fc_data *d, uint32_t blk);
void fc_img_input_of(const struct stat *st, struct fc_img_input *in);
/* Set by the writer while it opens the files themselves. */
extern bool fc_image_disabled;
/* The fuzz target's: an image is taken whatever its header checksum,
 * inputs and owner say (everything else is checked as ever). */
extern bool fc_image_test_trust;

#endif
