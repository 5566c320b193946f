/* SPDX-License-Identifier: MIT */
/*
 * util/rbtree.c — index-based red-black tree: insertion, erasure (Linux's
 * algorithm, so that shapes match perf's after the same operations), in-order
 * walk and a validity check for tests (see rbtree.h).
 */
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
	pk_rbtree__link(n, root, idx, parent, left);
}

uint32_t pk_rbtree__find(const struct pk_rbnode *n, uint32_t root,
			 int64_t (*cmp)(void *ctx, uint32_t node), void *ctx, uint32_t *parent,
			 bool *left)
{
	uint32_t cur = root;
	*parent = PK_RB_NIL;
	*left = false;
	while (cur != PK_RB_NIL) {
		int64_t c = cmp(ctx, cur);
		if (!c)
			return cur;
		*parent = cur;
		*left = c < 0;
		cur = *left ? n[cur].left : n[cur].right;
	}
	return PK_RB_NIL;
}

uint32_t pk_rbtree__find_or_link(struct pk_rbnode *n, uint32_t *root, uint32_t idx,
				 int64_t (*cmp)(void *ctx, uint32_t node), void *ctx)
{
	uint32_t parent;
	bool left;
	uint32_t x = pk_rbtree__find(n, *root, cmp, ctx, &parent, &left);
	if (x != PK_RB_NIL)
		return x;
	pk_rbtree__link(n, root, idx, parent, left);
	return idx;
}

void pk_rbtree__link(struct pk_rbnode *n, uint32_t *root, uint32_t idx, uint32_t parent,
		     bool left)
{
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

/* --- erasure (Linux's lib/rbtree.c algorithm, on indexes) -------------------- */

/* new_ takes old's place and color; old becomes new_'s child, colored red or black */
static void rotate_set_parents(struct pk_rbnode *n, uint32_t *root, uint32_t old, uint32_t new_,
			       bool red)
{
	uint32_t parent = n[old].parent;
	n[new_].parent = parent;
	n[new_].red = n[old].red;
	n[old].parent = new_;
	n[old].red = red;
	set_child(n, root, parent, old, new_);
}

/*
 * One step of the erase fix-up where the path through *node (parent's left
 * child, maybe NIL) is one black short. True when the shortage moved up:
 * *node and *parent are then one level higher (*parent NIL at the root).
 */
static bool erase_fix_left(struct pk_rbnode *n, uint32_t *root, uint32_t *node, uint32_t *parent)
{
	uint32_t p = *parent, sibling = n[p].right, tmp1, tmp2;
	if (n[sibling].red) {			/* red sibling: rotate it up, recolor */
		tmp1 = n[sibling].left;
		n[p].right = tmp1;
		n[sibling].left = p;
		n[tmp1].parent = p;
		n[tmp1].red = false;
		rotate_set_parents(n, root, p, sibling, true);
		sibling = tmp1;
	}
	tmp1 = n[sibling].right;
	if (!is_red(n, tmp1)) {
		tmp2 = n[sibling].left;
		if (!is_red(n, tmp2)) {		/* black sibling, black nephews: recolor, go up */
			n[sibling].red = true;
			if (n[p].red) {
				n[p].red = false;
				return false;
			}
			*node = p;
			*parent = n[p].parent;
			return true;
		}
		/* the near nephew is red: rotate it above the sibling */
		tmp1 = n[tmp2].right;
		n[sibling].left = tmp1;
		n[tmp2].right = sibling;
		n[p].right = tmp2;
		if (tmp1 != PK_RB_NIL) {
			n[tmp1].parent = sibling;
			n[tmp1].red = false;
		}
		tmp1 = sibling;
		sibling = tmp2;
	}
	/* the far nephew is red: rotate the sibling above the parent, done */
	tmp2 = n[sibling].left;
	n[p].right = tmp2;
	n[sibling].left = p;
	n[tmp1].parent = sibling;
	n[tmp1].red = false;
	if (tmp2 != PK_RB_NIL)
		n[tmp2].parent = p;
	rotate_set_parents(n, root, p, sibling, false);
	return false;
}

/* erase_fix_left's mirror: *node is parent's right child */
static bool erase_fix_right(struct pk_rbnode *n, uint32_t *root, uint32_t *node, uint32_t *parent)
{
	uint32_t p = *parent, sibling = n[p].left, tmp1, tmp2;
	if (n[sibling].red) {
		tmp1 = n[sibling].right;
		n[p].left = tmp1;
		n[sibling].right = p;
		n[tmp1].parent = p;
		n[tmp1].red = false;
		rotate_set_parents(n, root, p, sibling, true);
		sibling = tmp1;
	}
	tmp1 = n[sibling].left;
	if (!is_red(n, tmp1)) {
		tmp2 = n[sibling].right;
		if (!is_red(n, tmp2)) {
			n[sibling].red = true;
			if (n[p].red) {
				n[p].red = false;
				return false;
			}
			*node = p;
			*parent = n[p].parent;
			return true;
		}
		tmp1 = n[tmp2].left;
		n[sibling].right = tmp1;
		n[tmp2].left = sibling;
		n[p].left = tmp2;
		if (tmp1 != PK_RB_NIL) {
			n[tmp1].parent = sibling;
			n[tmp1].red = false;
		}
		tmp1 = sibling;
		sibling = tmp2;
	}
	tmp2 = n[sibling].right;
	n[p].left = tmp2;
	n[sibling].right = p;
	n[tmp1].parent = sibling;
	n[tmp1].red = false;
	if (tmp2 != PK_RB_NIL)
		n[tmp2].parent = p;
	rotate_set_parents(n, root, p, sibling, false);
	return false;
}

/* restore the black heights after a black node left from under parent */
static void erase_color(struct pk_rbnode *n, uint32_t *root, uint32_t parent)
{
	uint32_t node = PK_RB_NIL;
	bool up;
	do {
		if (node != n[parent].right)
			up = erase_fix_left(n, root, &node, &parent);
		else
			up = erase_fix_right(n, root, &node, &parent);
	} while (up && parent != PK_RB_NIL);
}

/* unlink idx; the node from which the black height is short, or NIL when none is */
static uint32_t erase_unlink(struct pk_rbnode *n, uint32_t *root, uint32_t idx)
{
	uint32_t child = n[idx].right, tmp = n[idx].left, parent;
	if (tmp == PK_RB_NIL) {			/* at most a right child: it moves up */
		parent = n[idx].parent;
		set_child(n, root, parent, idx, child);
		if (child != PK_RB_NIL) {
			n[child].parent = parent;
			n[child].red = n[idx].red;
			return PK_RB_NIL;
		}
		return n[idx].red ? PK_RB_NIL : parent;
	}
	if (child == PK_RB_NIL) {		/* only a left child: it moves up */
		parent = n[idx].parent;
		n[tmp].parent = parent;
		n[tmp].red = n[idx].red;
		set_child(n, root, parent, idx, tmp);
		return PK_RB_NIL;
	}
	/* two children: the in-order successor takes idx's place and color */
	uint32_t successor = child, child2;
	tmp = n[child].left;
	if (tmp == PK_RB_NIL) {
		parent = successor;
		child2 = n[successor].right;
	} else {
		do {
			parent = successor;
			successor = tmp;
			tmp = n[tmp].left;
		} while (tmp != PK_RB_NIL);
		child2 = n[successor].right;
		n[parent].left = child2;
		n[successor].right = child;
		n[child].parent = successor;
	}
	tmp = n[idx].left;
	n[successor].left = tmp;
	n[tmp].parent = successor;
	uint32_t gp = n[idx].parent;
	set_child(n, root, gp, idx, successor);
	uint32_t rebalance;
	if (child2 != PK_RB_NIL) {
		n[child2].parent = parent;
		n[child2].red = false;
		rebalance = PK_RB_NIL;
	} else {
		rebalance = n[successor].red ? PK_RB_NIL : parent;
	}
	n[successor].parent = gp;
	n[successor].red = n[idx].red;
	return rebalance;
}

void pk_rbtree__erase(struct pk_rbnode *n, uint32_t *root, uint32_t idx)
{
	uint32_t rebalance = erase_unlink(n, root, idx);
	if (rebalance != PK_RB_NIL)
		erase_color(n, root, rebalance);
	n[idx].left = n[idx].right = n[idx].parent = PK_RB_NIL;
}

/* --- checking ------------------------------------------------------------------ */

static int check(const struct pk_rbnode *n, uint32_t i, uint32_t parent)
{
	if (i == PK_RB_NIL)
		return 1;
	if (n[i].parent != parent)
		return -1;
	if (n[i].red && (is_red(n, n[i].left) || is_red(n, n[i].right)))
		return -1;
	int a = check(n, n[i].left, i), b = check(n, n[i].right, i);
	if (a < 0 || a != b)
		return -1;
	return a + !n[i].red;
}

int pk_rbtree__check(const struct pk_rbnode *n, uint32_t root)
{
	if (root != PK_RB_NIL && n[root].red)
		return -1;
	return check(n, root, PK_RB_NIL);
}
