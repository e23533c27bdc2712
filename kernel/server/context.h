/*
 * context.h: context strings and the SID table's index (context.c), for
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

/* Index every SID of s (after a load), forgetting the previous table. */
int sidx_reset(sidtab_t *s);
void sidx_free(void);
/* The context of sid in the indexed table, or NULL. */
context_struct_t *sidx_search(uint32_t sid);
/* c's SID, given and inserted in the table when c is new. */
int sidx_context_to_sid(context_struct_t *c, uint32_t *sid);

/* constraint.c: expr over source s, target t and (validatetrans) x, as
 * the kernel evaluates it; a malformed expression is false. */
bool cexpr_eval(const policydb_t *p, const context_struct_t *s,
		const context_struct_t *t, const context_struct_t *x,
		const constraint_expr_t *expr);

#endif
