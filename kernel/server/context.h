/*
 * context.h: context strings and the SID table (context.c), for
 * policy.c: the parts of the security server that speak libsepol's types.
 */
#ifndef SELINUXFSD_CONTEXT_H
#define SELINUXFSD_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include <sepol/policydb/context.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/sidtab.h>

/* s (NUL-terminated, modified) to *c with the kernel's grammar, then
 * checked valid in p: 0, -EINVAL (c left empty) or -ENOMEM. */
int ctx_parse(const policydb_t *p, char *s, context_struct_t *c);

/*
 * The SID table (context.c says how and why it is bounded): the initial
 * SIDs with their numbers, then SIDs from SIDX_FIRST up, given in order
 * and never given twice to two contexts.  Between requests (sidx_begin)
 * it keeps at most cap SIDs besides the initial ones.
 */
#define SIDX_FIRST 32 /* above every initial SID the kernel names */
#ifndef SIDX_RESTART
#define SIDX_RESTART 0x80000000u /* a test build lowers it */
#endif
/* The most SIDs one libsepol call names (validatetrans: 3). */
#define SIDX_EXPOSE_MAX 4
struct sidx;
/* A table of the initial SIDs of isids (copied): NULL, ENOMEM. */
struct sidx *sidx_new(sidtab_t *isids, uint32_t cap);
void sidx_destroy(struct sidx *t);
/* A request begins: SIDs past the bound are reclaimed (never one that
 * a request is still using: only here). */
void sidx_begin(struct sidx *t);
/* Changes when the numbers restart: decisions cached under SIDs of an
 * earlier epoch must go. */
uint32_t sidx_epoch(const struct sidx *t);
/* The context of sid, or NULL; valid until the next sidx_begin. */
context_struct_t *sidx_search(struct sidx *t, uint32_t sid);
/* c's SID, given (c copied) when c is new: 0 or -ENOMEM. */
int sidx_context_to_sid(struct sidx *t, const context_struct_t *c,
			uint32_t *sid);
/* The sidtab_t for sepol_set_sidtab: for one libsepol call, it holds the
 * n SIDs named (sidx_expose: -EINVAL if one is unknown), then nothing
 * again (sidx_unexpose). */
sidtab_t *sidx_view(struct sidx *t);
int sidx_expose(struct sidx *t, const uint32_t *sids, unsigned n);
void sidx_unexpose(struct sidx *t);
/* ss/sidtab_hash_stats: SIDs, hash slots, the longest probe. */
struct sidx_stats {
	uint32_t entries, slots, longest;
	uint64_t reclaimed;
};
void sidx_stats(const struct sidx *t, struct sidx_stats *st);

/* constraint.c: expr over source s, target t and (validatetrans) x, as
 * the kernel evaluates it; a malformed expression is false. */
bool cexpr_eval(const policydb_t *p, const context_struct_t *s,
		const context_struct_t *t, const context_struct_t *x,
		const constraint_expr_t *expr);

#endif
