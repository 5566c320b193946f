/* SPDX-License-Identifier: MIT */
/*
 * metrics/mexpr_eval.c — evaluation of a parsed metric expression with the
 * caller's values, with perf's rules for NaN, division by zero and the
 * logical operators; and perf's "which events are needed" folding, where
 * literals are constants and events are unknown, so that dead branches
 * ("A if #smt_on else B") need no events.
 *
 * Nodes are in post-order (operands first), so both passes are loops over
 * the node array: values bottom-up, needed identifiers top-down.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/metric.h>

#include "metrics/mexpr.h"

struct scratch {
	double *val;		/* per node */
	double *idval;		/* per id */
	uint8_t *idset;		/* per id: value known */
	uint8_t *live;		/* per node (fold) */
	void *heap;
	uint64_t stack[256];
};

static int scratch_init(struct scratch *s, const struct pk_mexpr *e)
{
	size_t n = e->nr_nodes, m = e->nr_ids;
	size_t need = (n + m) * sizeof(double) + m + n;
	char *p = (char *)s->stack;
	s->heap = NULL;
	if (need > sizeof(s->stack)) {
		if (!(p = s->heap = malloc(need)))
			return -ENOMEM;
	}
	s->val = (double *)(void *)p;
	s->idval = s->val + n;
	s->idset = (uint8_t *)(s->idval + m);
	s->live = s->idset + m;
	memset(p, 0, need);	/* values too: scan-build cannot see compute() write the root */
	return 0;
}

static bool folding_const(enum pk_mexpr_id_kind k)
{
	return k == PK_MEXPR_ID_LITERAL || k == PK_MEXPR_ID_HAS_EVENT || k == PK_MEXPR_ID_CPUID;
}

static int id_value(const struct pk_mexpr *e, struct scratch *s, uint32_t i, bool fold,
		    pk_mexpr_lookup_fn fn, void *ctx, double *out)
{
	if (s->idset[i]) {
		*out = s->idval[i];
		return 0;
	}
	const struct pk_mexpr_id *id = &e->ids[i];
	double v = NAN;
	if (!fold || folding_const(id->kind)) {
		int rc = fn ? fn(ctx, id, &v) : -ENOENT;
		if (rc == -ENOENT) {
			v = NAN;
			if (!fold && id->kind == PK_MEXPR_ID_LITERAL)
				return -ENOENT;
			if (!fold && id->kind == PK_MEXPR_ID_HAS_EVENT)
				v = 0;
		} else if (rc < 0) {
			return rc;
		}
	}
	s->idset[i] = 1;
	s->idval[i] = v;
	*out = v;
	return 0;
}

/* (long)a % (long)b as perf computes it, defined where C is not. */
static int modulo(double a, double b, double *out)
{
	if (isnan(a) || isnan(b) || !(a > (double)LONG_MIN && a < (double)LONG_MAX) ||
	    !(b > (double)LONG_MIN && b < (double)LONG_MAX)) {
		*out = NAN;
		return 0;
	}
	long la = (long)a, lb = (long)b;
	if (lb == 0)
		return -EDOM;
	*out = lb == -1 ? 0.0 : (double)(la % lb);
	return 0;
}

/*
 * or, and, xor; with one side unknown (NaN, or not a constant when folding),
 * the other decides when it can
 */
static inline double logic(enum mx_op op, double a, double b)
{
	bool ka = isfinite(a), kb = isfinite(b);
	switch (op) {
	case MX_OR:
		if (ka && kb)
			return a == 0 && b == 0 ? 0 : 1;
		if (ka)
			return a == 0 ? b : 1;
		if (kb)
			return b == 0 ? a : 1;
		return NAN;
	case MX_AND:
		if (ka && kb)
			return a != 0 && b != 0 ? 1 : 0;
		if (ka)
			return a != 0 ? b : 0;
		if (kb)
			return b != 0 ? a : 0;
		return NAN;
	default:	/* MX_XOR */
		return ka && kb ? (a == 0) != (b == 0) : NAN;
	}
}

/* Values of every node, bottom-up. fold: perf's id computation (unknowns NaN). */
static int compute(const struct pk_mexpr *e, struct scratch *s, bool fold, pk_mexpr_lookup_fn fn,
		   void *ctx)
{
	double *v = s->val;
	for (size_t i = 0; i < e->nr_nodes; i++) {
		const struct mx_node *n = &e->nodes[i];
		double a = 0, b = 0, r = NAN;
		int rc;
		if (n->op != MX_NUM && n->op != MX_ID) {
			a = v[n->a];
			b = n->op == MX_NEG ? 0 : v[n->b];
		}
		/* both operands constants when folding; not NaN when evaluating */
		bool known = fold ? isfinite(a) && isfinite(b) : !isnan(a) && !isnan(b);
		switch ((enum mx_op)n->op) {
		case MX_NUM:
			r = n->num;
			break;
		case MX_ID:
			if ((rc = id_value(e, s, n->a, fold, fn, ctx, &r)))
				return rc;
			break;
		case MX_NEG:
			r = -a;
			break;
		case MX_ADD:
			r = known ? a + b : NAN;
			break;
		case MX_SUB:
			r = known ? a - b : NAN;
			break;
		case MX_MUL:
			r = known ? a * b : NAN;
			break;
		case MX_LT:
			r = known ? (a < b) : NAN;
			break;
		case MX_GT:
			r = known ? (a > b) : NAN;
			break;
		case MX_DIV:
			if (b == 0)
				r = NAN;
			else
				r = !fold || known ? a / b : NAN;
			break;
		case MX_DRATIO:
			if (b == 0)
				r = 0;
			else
				r = !fold || known ? a / b : NAN;
			break;
		case MX_MOD:
			if (b == 0)
				return -EDOM;
			if (!fold || known) {
				if ((rc = modulo(a, b, &r)))
					return rc;
			}
			break;
		case MX_MIN:
			r = fold ? NAN : a < b ? a : b;
			break;
		case MX_MAX:
			r = fold ? NAN : a > b ? a : b;
			break;
		case MX_OR:
		case MX_AND:
		case MX_XOR:
			r = logic((enum mx_op)n->op, a, b);
			break;
		case MX_IF: {
			double c = v[n->c];	/* a if b else c */
			if (b == 0)
				r = c;
			else if (!fold || isfinite(b))
				r = a;
			else
				r = a == c ? a : NAN;
			break;
		}
		}
		v[i] = r;
	}
	return 0;
}

int pk_mexpr__eval(const struct pk_mexpr *e, pk_mexpr_lookup_fn fn, void *ctx, double *out)
{
	struct scratch s;
	int rc = scratch_init(&s, e);
	if (rc)
		return rc;
	rc = compute(e, &s, false, fn, ctx);
	if (!rc)
		*out = s.val[e->nr_nodes - 1];
	free(s.heap);
	return rc;
}

/* Top-down: a node whose folded value is a constant needs nothing (perf keeps no ids then). */
static void mark(const struct pk_mexpr *e, struct scratch *s, bool *needed)
{
	const double *v = s->val;
	uint8_t *live = s->live;
	live[e->nr_nodes - 1] = 1;
	for (size_t i = e->nr_nodes; i-- > 0;) {
		const struct mx_node *n = &e->nodes[i];
		if (!live[i] || isfinite(v[i]))
			continue;
		double a = 0, b = 0;
		if (n->op != MX_NUM && n->op != MX_ID) {
			a = v[n->a];
			b = n->op == MX_NEG ? 0 : v[n->b];
		}
		switch ((enum mx_op)n->op) {
		case MX_NUM:
			break;
		case MX_ID: {
			enum pk_mexpr_id_kind k = e->ids[n->a].kind;
			if (k == PK_MEXPR_ID_EVENT || k == PK_MEXPR_ID_METRIC ||
			    k == PK_MEXPR_ID_SOURCE_COUNT)
				needed[n->a] = true;
			break;
		}
		case MX_NEG:
			live[n->a] = 1;
			break;
		case MX_DIV:
		case MX_DRATIO:
		case MX_MOD:
			if (b == 0)
				break;
			/* fall through */
		case MX_ADD: case MX_SUB: case MX_MUL: case MX_LT: case MX_GT:
		case MX_XOR: case MX_MIN: case MX_MAX:
			live[n->a] = live[n->b] = 1;
			break;
		case MX_OR:
		case MX_AND:
			/* a constant operand that does not decide passes the other one through */
			if (isfinite(a))
				live[n->b] = 1;
			else if (isfinite(b))
				live[n->a] = 1;
			else
				live[n->a] = live[n->b] = 1;
			break;
		case MX_IF:
			if (b == 0)
				live[n->c] = 1;
			else if (isfinite(b))
				live[n->a] = 1;
			else if (a != v[n->c])
				live[n->a] = live[n->b] = live[n->c] = 1;
			break;
		}
	}
}

int pk_mexpr__needed_ids(const struct pk_mexpr *e, pk_mexpr_lookup_fn fn, void *ctx, bool *needed)
{
	struct scratch s;
	int rc = scratch_init(&s, e);
	if (rc)
		return rc;
	for (size_t i = 0; i < e->nr_ids; i++)
		needed[i] = false;
	rc = compute(e, &s, true, fn, ctx);
	if (!rc)
		mark(e, &s, needed);
	free(s.heap);
	return rc;
}
