/* SPDX-License-Identifier: MIT */
/*
 * metrics/mexpr.h — the inside of a parsed metric expression (shared by the
 * parser, the evaluator and the catalog evaluator): a node array in
 * post-order, so every node's operands come before it and the root is last,
 * plus the distinct identifiers the nodes refer to.
 */
#ifndef PMUKIT_METRICS_MEXPR_H
#define PMUKIT_METRICS_MEXPR_H

#include <stddef.h>
#include <stdint.h>

#include <pmukit/metric.h>

enum mx_op {
	MX_NUM,		/* num */
	MX_ID,		/* id: index into ids (kind says how it is read) */
	MX_NEG,		/* a */
	MX_ADD, MX_SUB, MX_MUL, MX_DIV, MX_MOD,	/* a op b */
	MX_LT, MX_GT,
	MX_AND, MX_OR, MX_XOR,
	MX_MIN, MX_MAX, MX_DRATIO,		/* fn(a, b) */
	MX_IF,		/* a if b else c */
};

struct mx_node {
	uint8_t op;
	uint16_t height;	/* 1 for leaves */
	uint32_t a, b, c;	/* operand node indexes; for MX_ID, a is the id index */
	double num;
};

struct pk_mexpr {
	char *text;
	struct mx_node *nodes;
	size_t nr_nodes, cap_nodes;
	struct pk_mexpr_id *ids;	/* names are malloc()ed */
	size_t nr_ids, cap_ids;
};

/*
 * Largest expression accepted (bytes), deepest nesting of ( ) / unary minus /
 * calls while parsing, and tallest tree (a chain of N binary operators is N
 * tall): real expressions stay far below; the limits bound every recursion.
 */
#define MX_MAX_TEXT (1u << 20)
#define MX_MAX_DEPTH 400
#define MX_MAX_HEIGHT 1000

#endif
