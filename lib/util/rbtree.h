/* SPDX-License-Identifier: MIT */
/*
 * util/rbtree.h — a red-black tree over an array of nodes (indexes, not
 * pointers), with the classic insert-and-recolor algorithm. For orders that
 * must come out exactly as another program's red-black tree gives them:
 * with a comparison that is not a strict weak order (perf report's
 * "callers above callees" tie-break applies only within one thread), the
 * in-order result depends on the tree's shape, which this reproduces.
 * Erasure is Linux's (lib/rbtree.c: a node with two children is replaced by
 * its in-order successor), so that a tree built and pruned as perf prunes
 * its own has perf's shape (symbol/symtab.c).
 */
#ifndef PMUKIT_UTIL_RBTREE_H
#define PMUKIT_UTIL_RBTREE_H

#include <stdbool.h>
#include <stdint.h>

#define PK_RB_NIL UINT32_MAX

struct pk_rbnode {
	uint32_t left, right, parent;
	bool red;
};

/*
 * Insert node idx: from the root, go left when goes_left(ctx, idx, node),
 * else right (equal keys go right, after the ones already there); then
 * rebalance. *root is PK_RB_NIL for an empty tree.
 */
void pk_rbtree__insert(struct pk_rbnode *nodes, uint32_t *root, uint32_t idx,
		       bool (*goes_left)(void *ctx, uint32_t node, uint32_t other), void *ctx);
/*
 * The same for a caller that walked down itself (no callback per step): link
 * node idx as the left (left true) or right child of parent (PK_RB_NIL: as the
 * root of an empty tree), then rebalance.
 */
void pk_rbtree__link(struct pk_rbnode *nodes, uint32_t *root, uint32_t idx, uint32_t parent,
		     bool left);
/*
 * A search as perf's (hists__findnew_entry, append_chain_children): from the
 * root, cmp(ctx, node) of each node against the key looked up: 0 returns that
 * node, < 0 goes left, > 0 right. PK_RB_NIL when none is equal; then *parent
 * and *left say where the key's node goes (for pk_rbtree__link).
 */
uint32_t pk_rbtree__find(const struct pk_rbnode *nodes, uint32_t root,
			 int64_t (*cmp)(void *ctx, uint32_t node), void *ctx, uint32_t *parent,
			 bool *left);
/* The same, and node idx linked there when none is equal: the node found, or idx. */
uint32_t pk_rbtree__find_or_link(struct pk_rbnode *nodes, uint32_t *root, uint32_t idx,
				 int64_t (*cmp)(void *ctx, uint32_t node), void *ctx);
/* Take node idx out of the tree and rebalance; idx's links are reset to PK_RB_NIL. */
void pk_rbtree__erase(struct pk_rbnode *nodes, uint32_t *root, uint32_t idx);
/* In-order: the first node, and the one after idx (PK_RB_NIL at the end). */
uint32_t pk_rbtree__first(const struct pk_rbnode *nodes, uint32_t root);
uint32_t pk_rbtree__next(const struct pk_rbnode *nodes, uint32_t idx);
/*
 * For tests: the tree's black height (>= 1) when it is a valid red-black tree
 * (black root, parent links that match, no red node with a red child, the
 * same number of black nodes on every path), else -1. The key order is the
 * caller's to check (with first/next).
 */
int pk_rbtree__check(const struct pk_rbnode *nodes, uint32_t root);

#endif
