/* SPDX-License-Identifier: MIT */
/*
 * metrics/mexpr_print.c — a parsed metric expression written back as text,
 * fully parenthesised, so that the tree the parser built can be seen (tests,
 * `explain`) and parsed again to the same tree.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <pmukit/metric.h>

#include "metrics/mexpr.h"
#include "util/buf.h"

static void put_name(struct pk_buf *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == ',' || *s == '=')
			pk_buf__add(o, "\\", 1);
		pk_buf__add(o, s, 1);
	}
}

static void put_num(struct pk_buf *o, double v)
{
	char tmp[40], *d = tmp;
	if (isnan(v)) {
		pk_buf__puts(o, "NaN");
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.17g", v);
	for (const char *s = tmp; *s; s++)	/* the lexer takes "1e20", not "1e+20" */
		if (*s != '+')
			*d++ = *s;
	*d = '\0';
	pk_buf__puts(o, tmp);
}

static void node(struct pk_buf *o, const struct pk_mexpr *e, uint32_t i)
{
	static const char *const ops[] = {
		[MX_ADD] = " + ", [MX_SUB] = " - ", [MX_MUL] = " * ", [MX_DIV] = " / ",
		[MX_MOD] = " % ", [MX_LT] = " < ", [MX_GT] = " > ", [MX_AND] = " & ",
		[MX_OR] = " | ", [MX_XOR] = " ^ ",
	};
	const struct mx_node *n = &e->nodes[i];
	switch ((enum mx_op)n->op) {
	case MX_NUM:
		put_num(o, n->num);
		break;
	case MX_ID: {
		const struct pk_mexpr_id *id = &e->ids[n->a];
		const char *fn = id->kind == PK_MEXPR_ID_SOURCE_COUNT ? "source_count("
				 : id->kind == PK_MEXPR_ID_HAS_EVENT	? "has_event("
				 : id->kind == PK_MEXPR_ID_CPUID	? "strcmp_cpuid_str("
									: NULL;
		if (id->kind == PK_MEXPR_ID_LITERAL) {
			pk_buf__puts(o, id->name);
			break;
		}
		if (fn)
			pk_buf__puts(o, fn);
		put_name(o, id->name);
		if (fn)
			pk_buf__puts(o, ")");
		break;
	}
	case MX_NEG:
		pk_buf__puts(o, "(-");
		node(o, e, n->a);
		pk_buf__puts(o, ")");
		break;
	case MX_MIN: case MX_MAX: case MX_DRATIO:
		pk_buf__puts(o, n->op == MX_MIN ? "min(" : n->op == MX_MAX ? "max(" : "d_ratio(");
		node(o, e, n->a);
		pk_buf__puts(o, ", ");
		node(o, e, n->b);
		pk_buf__puts(o, ")");
		break;
	case MX_IF:
		pk_buf__puts(o, "(");
		node(o, e, n->a);
		pk_buf__puts(o, " if ");
		node(o, e, n->b);
		pk_buf__puts(o, " else ");
		node(o, e, n->c);
		pk_buf__puts(o, ")");
		break;
	default:
		pk_buf__puts(o, "(");
		node(o, e, n->a);
		pk_buf__puts(o, ops[n->op]);
		node(o, e, n->b);
		pk_buf__puts(o, ")");
	}
}

size_t pk_mexpr__print(const struct pk_mexpr *e, char *buf, size_t len)
{
	struct pk_buf o;	/* on buf: cut when full (the length is still counted) */
	pk_buf__init_fixed(&o, buf, len);
	/* numbers with '.' whatever the process locale, as the lexer reads them */
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), old = c ? uselocale(c) : 0;
	node(&o, e, (uint32_t)(e->nr_nodes - 1));
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	return o.len + o.cut;
}
