/* SPDX-License-Identifier: MIT */
/*
 * symbol/symtab.c — a DSO's symbols as perf keeps them. perf stores them in
 * a red-black tree and answers a lookup with the first symbol on the search
 * path that holds the address; where symbols overlap (a zero-sized _init
 * stretched over the .plt entries inserted after it, JIT map entries) the
 * answer depends on the tree's shape, so the tree is built here with the
 * same insertions, the same red-black rebalancing (util/rbtree.h, whose
 * shapes are Linux's lib/rbtree ones: erase with the in-order successor) and
 * the same erasures as perf's, then flattened into a sorted array that keeps the
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

void symtab__init(struct pk_sym_table *t)
{
	memset(t, 0, sizeof(*t));
	t->root = PK_RB_NIL;
	t->last = PK_RB_NIL;
	t->top = NIL;
}

void symtab__fini(struct pk_sym_table *t)
{
	free(t->load);
	free(t->rb);
	free(t->syms);
	free(t->links);
	pk_arena__free(&t->names);
	symtab__init(t);
}

/* --- symbols ---------------------------------------------------------------- */

int symtab__add(struct pk_sym_table *t, uint64_t start, uint64_t len, uint8_t binding,
		uint8_t type, const char *name, size_t namelen)
{
	if (t->nr_nodes >= PK_RB_NIL || PK_GROW(t->load, t->cap_load, t->nr_nodes + 1) ||
	    PK_GROW(t->rb, t->cap_rb, t->nr_nodes + 1))
		return -ENOMEM;
	char *s = pk_arena__strndup(&t->names, name, namelen);
	if (!s)
		return -ENOMEM;
	uint32_t me = (uint32_t)t->nr_nodes++;
	t->load[me] = (struct pk_sym){ .start = start, .end = len ? start + len : start, .name = s,
				       .binding = binding, .type = type };
	/*
	 * perf's __symbols__insert: smaller start to the left, else right. A start
	 * at or above the highest (kallsyms and most symbol tables come sorted) goes
	 * right all the way down: to the right of the highest node, without the walk.
	 */
	uint32_t parent = PK_RB_NIL, cur = t->root;
	bool left = false;
	bool rightmost = true;
	if (t->last != PK_RB_NIL && start >= t->load[t->last].start) {
		parent = t->last;
	} else {
		while (cur != PK_RB_NIL) {
			parent = cur;
			left = start < t->load[cur].start;
			rightmost &= !left;
			cur = left ? t->rb[cur].left : t->rb[cur].right;
		}
	}
	pk_rbtree__link(t->rb, &t->root, me, parent, left);
	if (rightmost)
		t->last = me;
	t->nr_live++;
	return 0;
}

/* the tree's nodes in order */
static uint32_t *inorder(struct pk_sym_table *t, size_t *nr)
{
	uint32_t *v = malloc((t->nr_live ? t->nr_live : 1) * sizeof(*v));
	if (!v)
		return NULL;
	size_t n = 0;
	for (uint32_t cur = pk_rbtree__first(t->rb, t->root); cur != PK_RB_NIL && n < t->nr_live;
	     cur = pk_rbtree__next(t->rb, cur))
		v[n++] = cur;
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
	uint32_t *v = inorder(t, &n);
	if (!v)
		return -ENOMEM;
	if (!n) {
		free(v);
		return 0;
	}
	/* symbols__fixup_end */
	for (size_t i = 1; i < n; i++) {
		struct pk_sym *prev = &t->load[v[i - 1]], *curr = &t->load[v[i]];
		if (prev->end != prev->start)
			continue;
		if (kallsyms && !strchr(prev->name, '[') != !strchr(curr->name, '['))
			prev->end = page_roundup(prev->end, 1);
		else
			prev->end = curr->start;
	}
	struct pk_sym *last = &t->load[v[n - 1]];
	if (last->end == last->start)
		last->end = page_roundup(last->start, 1);
	/* symbols__fixup_duplicate: of two at one start, the loser leaves the tree */
	t->last = PK_RB_NIL;	/* it may be one of them */
	uint32_t curr = v[0];
	for (size_t i = 1; i < n; i++) {
		uint32_t next = v[i];
		if (t->load[curr].start != t->load[next].start) {
			curr = next;
			continue;
		}
		if (symtab__choose_a(&t->load[curr], &t->load[next])) {
			pk_rbtree__erase(t->rb, &t->root, next);
		} else {
			pk_rbtree__erase(t->rb, &t->root, curr);
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
	uint32_t *v = inorder(t, &n);
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
		t->syms[i] = t->load[v[i]];
	}
	for (size_t i = 0; i < n; i++) {
		const struct pk_rbnode *r = &t->rb[v[i]];
		t->links[i][0] = r->left == PK_RB_NIL ? NIL : pos[r->left];
		t->links[i][1] = r->right == PK_RB_NIL ? NIL : pos[r->right];
	}
	t->top = t->root == PK_RB_NIL ? NIL : pos[t->root];
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
int symtab__check(const struct pk_sym_table *t)
{
	int h = pk_rbtree__check(t->rb, t->root);
	if (h < 0)
		return -1;
	size_t n = 0;
	uint32_t prev = PK_RB_NIL;
	for (uint32_t i = pk_rbtree__first(t->rb, t->root); i != PK_RB_NIL;
	     prev = i, i = pk_rbtree__next(t->rb, i), n++)
		if (prev != PK_RB_NIL && t->load[i].start < t->load[prev].start)
			return -1;
	return n == t->nr_live ? h : -1;
}
