/* SPDX-License-Identifier: MIT */
/* util/rbtree.c — index-based red-black tree insertion and in-order walk (see rbtree.h). */
#include "util/rbtree.h"

static void set_child(struct pk_rbnode *n, uint32_t *root, uint32_t parent, uint32_t old,
		      uint32_t new_)
{
	if (parent == PK_RB_NIL)
		*root = new_;
	else if (n[parent].left == old)
		n[parent].left = new_;
	else
		n[parent].right = new_;
}

/* x's right child y takes x's place; x becomes y's left child */
static void rotate_left(struct pk_rbnode *n, uint32_t *root, uint32_t x)
{
	uint32_t y = n[x].right;
	n[x].right = n[y].left;
	if (n[y].left != PK_RB_NIL)
		n[n[y].left].parent = x;
	n[y].parent = n[x].parent;
	set_child(n, root, n[x].parent, x, y);
	n[y].left = x;
	n[x].parent = y;
}

static void rotate_right(struct pk_rbnode *n, uint32_t *root, uint32_t x)
{
	uint32_t y = n[x].left;
	n[x].left = n[y].right;
	if (n[y].right != PK_RB_NIL)
		n[n[y].right].parent = x;
	n[y].parent = n[x].parent;
	set_child(n, root, n[x].parent, x, y);
	n[y].right = x;
	n[x].parent = y;
}

static bool is_red(const struct pk_rbnode *n, uint32_t i)
{
	return i != PK_RB_NIL && n[i].red;
}

void pk_rbtree__insert(struct pk_rbnode *n, uint32_t *root, uint32_t idx,
		       bool (*goes_left)(void *ctx, uint32_t node, uint32_t other), void *ctx)
{
	uint32_t parent = PK_RB_NIL, cur = *root;
	bool left = false;
	while (cur != PK_RB_NIL) {
		parent = cur;
		left = goes_left(ctx, idx, cur);
		cur = left ? n[cur].left : n[cur].right;
	}
	n[idx].left = n[idx].right = PK_RB_NIL;
	n[idx].parent = parent;
	n[idx].red = true;
	if (parent == PK_RB_NIL)
		*root = idx;
	else if (left)
		n[parent].left = idx;
	else
		n[parent].right = idx;
	/* recolor and rotate up the tree until no red node has a red parent */
	uint32_t x = idx;
	while (is_red(n, n[x].parent)) {
		uint32_t p = n[x].parent, g = n[p].parent;
		if (p == n[g].left) {
			uint32_t u = n[g].right;
			if (is_red(n, u)) {
				n[p].red = n[u].red = false;
				n[g].red = true;
				x = g;
				continue;
			}
			if (x == n[p].right) {
				rotate_left(n, root, p);
				x = p;
				p = n[x].parent;
			}
			n[p].red = false;
			n[g].red = true;
			rotate_right(n, root, g);
		} else {
			uint32_t u = n[g].left;
			if (is_red(n, u)) {
				n[p].red = n[u].red = false;
				n[g].red = true;
				x = g;
				continue;
			}
			if (x == n[p].left) {
				rotate_right(n, root, p);
				x = p;
				p = n[x].parent;
			}
			n[p].red = false;
			n[g].red = true;
			rotate_left(n, root, g);
		}
	}
	n[*root].red = false;
}

uint32_t pk_rbtree__first(const struct pk_rbnode *n, uint32_t root)
{
	if (root == PK_RB_NIL)
		return PK_RB_NIL;
	while (n[root].left != PK_RB_NIL)
		root = n[root].left;
	return root;
}

uint32_t pk_rbtree__next(const struct pk_rbnode *n, uint32_t i)
{
	if (n[i].right != PK_RB_NIL) {
		i = n[i].right;
		while (n[i].left != PK_RB_NIL)
			i = n[i].left;
		return i;
	}
	uint32_t p = n[i].parent;
	while (p != PK_RB_NIL && i == n[p].right) {
		i = p;
		p = n[p].parent;
	}
	return p;
}
