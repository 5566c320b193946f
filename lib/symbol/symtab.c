/* SPDX-License-Identifier: MIT */
/*
 * symbol/symtab.c — a DSO's symbols as perf keeps them. perf stores them in
 * a red-black tree and answers a lookup with the first symbol on the search
 * path that holds the address; where symbols overlap (a zero-sized _init
 * stretched over the .plt entries inserted after it, JIT map entries) the
 * answer depends on the tree's shape, so the tree is built here with the
 * same insertions, the same red-black rebalancing (Linux's lib/rbtree
 * algorithm: insert fix-up; erase with the in-order successor) and the same
 * erasures as perf's, then flattened into a sorted array that keeps the
 * links. Fix-ups as perf's: a zero-sized symbol ends where the next one
 * starts (the last one at the next page; in kallsyms, at a kernel/module
 * boundary, at the next page too); at one address only the best symbol
 * stays (sized over zero-sized, non-weak over weak, global over local,
 * fewer leading underscores, longer name).
 */
#include "symbol/symbol_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define NIL (-1)

struct rbn {
	struct pk_sym sym;
	int32_t l, r, p;
	bool red;
};

void symtab__init(struct pk_sym_table *t)
{
	memset(t, 0, sizeof(*t));
	t->root = NIL;
}

void symtab__fini(struct pk_sym_table *t)
{
	free(t->nodes);
	free(t->syms);
	free(t->links);
	pk_arena__free(&t->names);
	memset(t, 0, sizeof(*t));
	t->root = NIL;
}

/* --- Linux's red-black tree, on indices ------------------------------------ */

#define N(i) (t->nodes[i])

static void change_child(struct pk_sym_table *t, int32_t old, int32_t new, int32_t parent)
{
	if (parent != NIL) {
		if (N(parent).l == old)
			N(parent).l = new;
		else
			N(parent).r = new;
	} else {
		t->root = new;
	}
}

/* new takes old's place and color; old becomes new's child with color */
static void rotate_set_parents(struct pk_sym_table *t, int32_t old, int32_t new, bool red)
{
	int32_t parent = N(old).p;
	N(new).p = parent;
	N(new).red = N(old).red;
	N(old).p = new;
	N(old).red = red;
	change_child(t, old, new, parent);
}

static void insert_fixup(struct pk_sym_table *t, int32_t node)
{
	int32_t parent = N(node).p, gparent, tmp;
	for (;;) {
		if (parent == NIL) {
			N(node).red = false;
			break;
		}
		if (!N(parent).red)
			break;
		gparent = N(parent).p;
		tmp = N(gparent).r;
		if (parent != tmp) {	/* parent is gparent's left child */
			if (tmp != NIL && N(tmp).red) {
				N(tmp).red = false;
				N(parent).red = false;
				node = gparent;
				parent = N(node).p;
				N(node).red = true;
				continue;
			}
			tmp = N(parent).r;
			if (node == tmp) {
				tmp = N(node).l;
				N(parent).r = tmp;
				N(node).l = parent;
				if (tmp != NIL) {
					N(tmp).p = parent;
					N(tmp).red = false;
				}
				N(parent).p = node;
				N(parent).red = true;
				parent = node;
				tmp = N(node).r;
			}
			N(gparent).l = tmp;
			N(parent).r = gparent;
			if (tmp != NIL) {
				N(tmp).p = gparent;
				N(tmp).red = false;
			}
			rotate_set_parents(t, gparent, parent, true);
			break;
		} else {
			tmp = N(gparent).l;
			if (tmp != NIL && N(tmp).red) {
				N(tmp).red = false;
				N(parent).red = false;
				node = gparent;
				parent = N(node).p;
				N(node).red = true;
				continue;
			}
			tmp = N(parent).l;
			if (node == tmp) {
				tmp = N(node).r;
				N(parent).l = tmp;
				N(node).r = parent;
				if (tmp != NIL) {
					N(tmp).p = parent;
					N(tmp).red = false;
				}
				N(parent).p = node;
				N(parent).red = true;
				parent = node;
				tmp = N(node).l;
			}
			N(gparent).r = tmp;
			N(parent).l = gparent;
			if (tmp != NIL) {
				N(tmp).p = gparent;
				N(tmp).red = false;
			}
			rotate_set_parents(t, gparent, parent, true);
			break;
		}
	}
}

static bool is_black(const struct pk_sym_table *t, int32_t n)
{
	return n == NIL || !N(n).red;
}

static void erase_color(struct pk_sym_table *t, int32_t parent)
{
	int32_t node = NIL, sibling, tmp1, tmp2;
	for (;;) {
		sibling = N(parent).r;
		if (node != sibling) {	/* node is parent's left child */
			if (N(sibling).red) {
				tmp1 = N(sibling).l;
				N(parent).r = tmp1;
				N(sibling).l = parent;
				N(tmp1).p = parent;
				N(tmp1).red = false;
				rotate_set_parents(t, parent, sibling, true);
				sibling = tmp1;
			}
			tmp1 = N(sibling).r;
			if (is_black(t, tmp1)) {
				tmp2 = N(sibling).l;
				if (is_black(t, tmp2)) {
					N(sibling).p = parent;
					N(sibling).red = true;
					if (N(parent).red) {
						N(parent).red = false;
					} else {
						node = parent;
						parent = N(node).p;
						if (parent != NIL)
							continue;
					}
					break;
				}
				tmp1 = N(tmp2).r;
				N(sibling).l = tmp1;
				N(tmp2).r = sibling;
				N(parent).r = tmp2;
				if (tmp1 != NIL) {
					N(tmp1).p = sibling;
					N(tmp1).red = false;
				}
				tmp1 = sibling;
				sibling = tmp2;
			}
			tmp2 = N(sibling).l;
			N(parent).r = tmp2;
			N(sibling).l = parent;
			N(tmp1).p = sibling;
			N(tmp1).red = false;
			if (tmp2 != NIL)
				N(tmp2).p = parent;
			rotate_set_parents(t, parent, sibling, false);
			break;
		} else {
			sibling = N(parent).l;
			if (N(sibling).red) {
				tmp1 = N(sibling).r;
				N(parent).l = tmp1;
				N(sibling).r = parent;
				N(tmp1).p = parent;
				N(tmp1).red = false;
				rotate_set_parents(t, parent, sibling, true);
				sibling = tmp1;
			}
			tmp1 = N(sibling).l;
			if (is_black(t, tmp1)) {
				tmp2 = N(sibling).r;
				if (is_black(t, tmp2)) {
					N(sibling).p = parent;
					N(sibling).red = true;
					if (N(parent).red) {
						N(parent).red = false;
					} else {
						node = parent;
						parent = N(node).p;
						if (parent != NIL)
							continue;
					}
					break;
				}
				tmp1 = N(tmp2).l;
				N(sibling).r = tmp1;
				N(tmp2).l = sibling;
				N(parent).l = tmp2;
				if (tmp1 != NIL) {
					N(tmp1).p = sibling;
					N(tmp1).red = false;
				}
				tmp1 = sibling;
				sibling = tmp2;
			}
			tmp2 = N(sibling).r;
			N(parent).l = tmp2;
			N(sibling).r = parent;
			N(tmp1).p = sibling;
			N(tmp1).red = false;
			if (tmp2 != NIL)
				N(tmp2).p = parent;
			rotate_set_parents(t, parent, sibling, false);
			break;
		}
	}
}

static void rb_erase(struct pk_sym_table *t, int32_t node)
{
	int32_t child = N(node).r, tmp = N(node).l, parent, rebalance;
	if (tmp == NIL) {
		parent = N(node).p;
		change_child(t, node, child, parent);
		if (child != NIL) {
			N(child).p = parent;
			N(child).red = N(node).red;
			rebalance = NIL;
		} else {
			rebalance = N(node).red ? NIL : parent;
		}
	} else if (child == NIL) {
		parent = N(node).p;
		N(tmp).p = parent;
		N(tmp).red = N(node).red;
		change_child(t, node, tmp, parent);
		rebalance = NIL;
	} else {
		int32_t successor = child, child2;
		tmp = N(child).l;
		if (tmp == NIL) {
			parent = successor;
			child2 = N(successor).r;
		} else {
			do {
				parent = successor;
				successor = tmp;
				tmp = N(tmp).l;
			} while (tmp != NIL);
			child2 = N(successor).r;
			N(parent).l = child2;
			N(successor).r = child;
			N(child).p = successor;
		}
		tmp = N(node).l;
		N(successor).l = tmp;
		N(tmp).p = successor;
		int32_t gp = N(node).p;
		change_child(t, node, successor, gp);
		if (child2 != NIL) {
			N(child2).p = parent;
			N(child2).red = false;
			rebalance = NIL;
		} else {
			rebalance = N(successor).red ? NIL : parent;
		}
		N(successor).p = gp;
		N(successor).red = N(node).red;
	}
	if (rebalance != NIL)
		erase_color(t, rebalance);
	N(node).l = N(node).r = N(node).p = NIL;
}

/* --- symbols ---------------------------------------------------------------- */

int symtab__add(struct pk_sym_table *t, uint64_t start, uint64_t len, uint8_t binding,
		uint8_t type, const char *name, size_t namelen)
{
	if (PK_GROW(t->nodes, t->cap_nodes, t->nr_nodes + 1))
		return -ENOMEM;
	char *s = pk_arena__strndup(&t->names, name, namelen);
	if (!s)
		return -ENOMEM;
	int32_t me = (int32_t)t->nr_nodes++;
	N(me) = (struct rbn){
		.sym = { .start = start, .end = len ? start + len : start, .name = s,
			 .binding = binding, .type = type },
		.l = NIL, .r = NIL, .p = NIL, .red = true,
	};
	/* perf's __symbols__insert: smaller start to the left, else right */
	int32_t parent = NIL, cur = t->root;
	bool left = false;
	while (cur != NIL) {
		parent = cur;
		left = start < N(cur).sym.start;
		cur = left ? N(cur).l : N(cur).r;
	}
	N(me).p = parent;
	if (parent == NIL)
		t->root = me;
	else if (left)
		N(parent).l = me;
	else
		N(parent).r = me;
	insert_fixup(t, me);
	t->nr_live++;
	return 0;
}

/* the tree's nodes in order */
static int32_t *inorder(struct pk_sym_table *t, size_t *nr)
{
	int32_t *v = malloc((t->nr_live ? t->nr_live : 1) * sizeof(*v));
	if (!v)
		return NULL;
	size_t n = 0;
	int32_t cur = t->root;
	if (cur != NIL)
		while (N(cur).l != NIL)
			cur = N(cur).l;
	while (cur != NIL && n < t->nr_live) {
		v[n++] = cur;
		if (N(cur).r != NIL) {
			cur = N(cur).r;
			while (N(cur).l != NIL)
				cur = N(cur).l;
		} else {
			int32_t p = N(cur).p;
			while (p != NIL && cur == N(p).r) {
				cur = p;
				p = N(p).p;
			}
			cur = p;
		}
	}
	*nr = n;
	return v;
}

static size_t underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

bool symtab__choose_a(const struct pk_sym *a, const struct pk_sym *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	bool wa = a->binding == STB_WEAK, wb = b->binding == STB_WEAK;
	if (wb && !wa)
		return true;
	if (wa && !wb)
		return false;
	bool ga = a->binding == STB_GLOBAL, gb = b->binding == STB_GLOBAL;
	if (ga && !gb)
		return true;
	if (gb && !ga)
		return false;
	size_t ua = underscores(a->name), ub = underscores(b->name);
	if (ub > ua)
		return true;
	if (ua > ub)
		return false;
	size_t na = strlen(a->name), nb = strlen(b->name);
	if (na != nb)
		return na > nb;
	/* perf's arch__choose_best_symbol: avoid the "SyS" syscall aliases */
	if (!strncmp(a->name, "SyS", 3) || !strncmp(a->name, "compat_SyS", 10))
		return false;
	return true;
}

/* x rounded up to a page, plus pages more; at the top of the address space, its end
 * (perf's u64 arithmetic wraps there, leaving a symbol that ends before it starts) */
static uint64_t page_roundup(uint64_t x, uint64_t pages)
{
	uint64_t top = UINT64_MAX / 4096 * 4096;
	if (x > top)
		return UINT64_MAX;
	uint64_t r = (x + 4095) / 4096 * 4096;
	return pages > (UINT64_MAX - r) / 4096 ? UINT64_MAX : r + pages * 4096;
}

int symtab__fixup(struct pk_sym_table *t, bool kallsyms)
{
	size_t n;
	int32_t *v = inorder(t, &n);
	if (!v)
		return -ENOMEM;
	if (!n) {
		free(v);
		return 0;
	}
	/* symbols__fixup_end */
	for (size_t i = 1; i < n; i++) {
		struct pk_sym *prev = &N(v[i - 1]).sym, *curr = &N(v[i]).sym;
		if (prev->end != prev->start)
			continue;
		if (kallsyms && !strchr(prev->name, '[') != !strchr(curr->name, '['))
			prev->end = page_roundup(prev->end, 1);
		else
			prev->end = curr->start;
	}
	struct pk_sym *last = &N(v[n - 1]).sym;
	if (last->end == last->start)
		last->end = page_roundup(last->start, 1);
	/* symbols__fixup_duplicate: of two at one start, the loser leaves the tree */
	int32_t curr = v[0];
	for (size_t i = 1; i < n; i++) {
		int32_t next = v[i];
		if (N(curr).sym.start != N(next).sym.start) {
			curr = next;
			continue;
		}
		if (symtab__choose_a(&N(curr).sym, &N(next).sym)) {
			rb_erase(t, next);
		} else {
			rb_erase(t, curr);
			curr = next;
		}
		t->nr_live--;
	}
	free(v);
	return 0;
}

int symtab__finish(struct pk_sym_table *t)
{
	size_t n;
	int32_t *v = inorder(t, &n);
	if (!v)
		return -ENOMEM;
	free(t->syms);
	free(t->links);
	t->syms = malloc((n ? n : 1) * sizeof(*t->syms));
	t->links = malloc((n ? n : 1) * sizeof(*t->links));
	int32_t *pos = malloc((t->nr_nodes ? t->nr_nodes : 1) * sizeof(*pos));
	if (!t->syms || !t->links || !pos) {
		free(v);
		free(pos);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		pos[v[i]] = (int32_t)i;
		t->syms[i] = N(v[i]).sym;
	}
	for (size_t i = 0; i < n; i++) {
		t->links[i][0] = N(v[i]).l == NIL ? NIL : pos[N(v[i]).l];
		t->links[i][1] = N(v[i]).r == NIL ? NIL : pos[N(v[i]).r];
	}
	t->top = t->root == NIL ? NIL : pos[t->root];
	t->nr = n;
	free(v);
	free(pos);
	return 0;
}

/* perf's symbols__find: the first symbol on the search path holding addr */
const struct pk_sym *symtab__find(const struct pk_sym_table *t, uint64_t addr)
{
	int32_t i = t->nr ? t->top : NIL;
	while (i != NIL) {
		const struct pk_sym *s = &t->syms[i];
		if (addr < s->start)
			i = t->links[i][0];
		else if (addr > s->end || (addr == s->end && addr != s->start))
			i = t->links[i][1];
		else
			return s;
	}
	return NULL;
}

size_t pk_sym_table__nr(const struct pk_sym_table *t)
{
	return t ? t->nr : 0;
}

const struct pk_sym *pk_sym_table__sym(const struct pk_sym_table *t, size_t i)
{
	return t && i < t->nr ? &t->syms[i] : NULL;
}

const struct pk_sym *pk_sym_table__find(const struct pk_sym_table *t, uint64_t addr)
{
	return t ? symtab__find(t, addr) : NULL;
}

void pk_sym_table__free(struct pk_sym_table *t)
{
	if (!t)
		return;
	symtab__fini(t);
	free(t);
}

/* for the tests: the tree's black height when it is a valid red-black search tree, else -1 */
static int check(const struct pk_sym_table *t, int32_t n, int32_t parent, uint64_t lo, uint64_t hi)
{
	if (n == NIL)
		return 1;
	if (N(n).p != parent || N(n).sym.start < lo || N(n).sym.start > hi)
		return -1;
	if (N(n).red && ((N(n).l != NIL && N(N(n).l).red) || (N(n).r != NIL && N(N(n).r).red)))
		return -1;
	int a = check(t, N(n).l, n, lo, N(n).sym.start), b = check(t, N(n).r, n, N(n).sym.start, hi);
	if (a < 0 || a != b)
		return -1;
	return a + !N(n).red;
}

int symtab__check(const struct pk_sym_table *t)
{
	if (t->root != NIL && N(t->root).red)
		return -1;
	return check(t, t->root, NIL, 0, UINT64_MAX);
}
