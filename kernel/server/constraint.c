/*
 * constraint.c: a constraint expression evaluated as the kernel does
 * (constraint_expr_eval() of security/selinux/ss/services.c): a postfix
 * program over a stack of CEXPR_MAXDEPTH truth values, where an
 * expression that would overflow the stack, or is malformed, is false.
 *
 * libsepol evaluates the same expressions inside sepol_compute_av, which
 * also writes out the text explaining each denial; for one permission of
 * many candidate contexts (security_get_user_sids) that text is most of
 * the cost, so policy.c asks this function instead.
 */
#include <stdbool.h>

#include <sepol/policydb/policydb.h>
#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/mls_types.h>

#include "context.h"

static bool level_op(uint32_t op, const mls_level_t *l1, const mls_level_t *l2,
		     bool *ok)
{
	switch (op) {
	case CEXPR_EQ:
		return mls_level_eq(l1, l2);
	case CEXPR_NEQ:
		return !mls_level_eq(l1, l2);
	case CEXPR_DOM:
		return mls_level_dom(l1, l2);
	case CEXPR_DOMBY:
		return mls_level_dom(l2, l1);
	case CEXPR_INCOMP:
		return !mls_level_dom(l2, l1) && !mls_level_dom(l1, l2);
	}
	*ok = false;
	return false;
}

/* The role, type or user compared with the names of e (CEXPR_NAMES). */
static bool names_op(const constraint_expr_t *e, const context_struct_t *s,
		     const context_struct_t *t, const context_struct_t *x,
		     bool *ok)
{
	const context_struct_t *c = s;
	uint32_t v;

	if (e->attr & CEXPR_TARGET)
		c = t;
	else if (e->attr & CEXPR_XTARGET)
		c = x;
	if (!c) {
		*ok = false;
		return false;
	}
	if (e->attr & CEXPR_USER)
		v = c->user;
	else if (e->attr & CEXPR_ROLE)
		v = c->role;
	else if (e->attr & CEXPR_TYPE)
		v = c->type;
	else {
		*ok = false;
		return false;
	}
	if (e->op == CEXPR_EQ)
		return ebitmap_get_bit(&e->names, v - 1);
	if (e->op == CEXPR_NEQ)
		return !ebitmap_get_bit(&e->names, v - 1);
	*ok = false;
	return false;
}

/* s attr t (CEXPR_ATTR). */
static bool attr_op(const policydb_t *p, const constraint_expr_t *e,
		    const context_struct_t *s, const context_struct_t *t,
		    bool *ok)
{
	const mls_range_t *sr = &s->range, *tr = &t->range;
	uint32_t v1, v2;

	switch (e->attr) {
	case CEXPR_USER:
		v1 = s->user;
		v2 = t->user;
		break;
	case CEXPR_TYPE:
		v1 = s->type;
		v2 = t->type;
		break;
	case CEXPR_ROLE: {
		const role_datum_t *r1 = p->role_val_to_struct[s->role - 1];
		const role_datum_t *r2 = p->role_val_to_struct[t->role - 1];

		v1 = s->role;
		v2 = t->role;
		switch (e->op) {
		case CEXPR_DOM:
			return ebitmap_get_bit(&r1->dominates, v2 - 1);
		case CEXPR_DOMBY:
			return ebitmap_get_bit(&r2->dominates, v1 - 1);
		case CEXPR_INCOMP:
			return !ebitmap_get_bit(&r1->dominates, v2 - 1) &&
			       !ebitmap_get_bit(&r2->dominates, v1 - 1);
		}
		break;
	}
	case CEXPR_L1L2:
		return level_op(e->op, &sr->level[0], &tr->level[0], ok);
	case CEXPR_L1H2:
		return level_op(e->op, &sr->level[0], &tr->level[1], ok);
	case CEXPR_H1L2:
		return level_op(e->op, &sr->level[1], &tr->level[0], ok);
	case CEXPR_H1H2:
		return level_op(e->op, &sr->level[1], &tr->level[1], ok);
	case CEXPR_L1H1:
		return level_op(e->op, &sr->level[0], &sr->level[1], ok);
	case CEXPR_L2H2:
		return level_op(e->op, &tr->level[0], &tr->level[1], ok);
	default:
		*ok = false;
		return false;
	}
	if (e->op == CEXPR_EQ)
		return v1 == v2;
	if (e->op == CEXPR_NEQ)
		return v1 != v2;
	*ok = false;
	return false;
}

bool cexpr_eval(const policydb_t *p, const context_struct_t *s,
		const context_struct_t *t, const context_struct_t *x,
		const constraint_expr_t *expr)
{
	bool st[CEXPR_MAXDEPTH], ok = true;
	int sp = -1;

	for (const constraint_expr_t *e = expr; e; e = e->next) {
		switch (e->expr_type) {
		case CEXPR_NOT:
			if (sp < 0)
				return false;
			st[sp] = !st[sp];
			break;
		case CEXPR_AND:
		case CEXPR_OR:
			if (sp < 1)
				return false;
			st[sp - 1] = e->expr_type == CEXPR_AND ?
					     st[sp - 1] && st[sp] :
					     st[sp - 1] || st[sp];
			sp--;
			break;
		case CEXPR_ATTR:
		case CEXPR_NAMES:
			if (sp == CEXPR_MAXDEPTH - 1)
				return false;
			st[++sp] = e->expr_type == CEXPR_ATTR ?
					   attr_op(p, e, s, t, &ok) :
					   names_op(e, s, t, x, &ok);
			if (!ok)
				return false;
			break;
		default:
			return false;
		}
	}
	return sp == 0 && st[0];
}
