/*
 * label/index/dfa.h: the automata a trie node's specs are matched with:
 * built by dfa.c, walked by the lookup (the walks are inline here).
 */
#ifndef SELINUX_LABEL_INDEX_DFA_H
#define SELINUX_LABEL_INDEX_DFA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

	return (const uint32_t *)((const char *)(a + 1) +
				  ((n + 3) & ~(size_t)3));
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
		 const uint32_t *mode, uint32_t n, uint32_t max_states,
		 bool *in, struct fc_dfa **out);
/*
 * The same within a budget of work: *budget (in the builder's own
 * units, "ops", a few instructions each) shrinks by the work done;
 * -ETIME, and nothing built, once the build would take more.
 */
int fc_dfa_build_limited(const char *const *re, const uint32_t *spec,
			 const uint32_t *mode, uint32_t n, uint32_t max_states,
			 uint64_t *budget, bool *in, struct fc_dfa **out);
/* Is re in the subset fc_dfa_build accepts? */
bool fc_dfa_supported(const char *re);
/* The specs whose regex matches all of [s, s + n), highest first. */
const uint32_t *fc_dfa_match(const struct fc_dfa *a, const char *s, size_t n,
			     uint32_t *count);
/* The same for k (<= FC_DFA_LOCKSTEP) automata at once, side by side:
 * acc[j], count[j] for a[j]. */
#define FC_DFA_LOCKSTEP 4
void fc_dfa_match_many(const struct fc_dfa *const *a, uint32_t k, const char *s,
		       size_t n, const uint32_t **acc, uint32_t *count);
/* Bytes a holds (a->size). */
size_t fc_dfa_size(const struct fc_dfa *a);
void fc_dfa_free(struct fc_dfa *a);

#endif
