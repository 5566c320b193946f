/* SPDX-License-Identifier: MIT */
/*
 * symbol/symtab.c — a DSO's symbols as perf keeps them: a sorted array in
 * place of perf's rb-tree (equal starts in insertion order, as its insert
 * puts them), perf's fix-ups (zero-sized symbols end where the next one
 * starts, the last one at the next page; at one address only the best
 * symbol stays: sized over zero-sized, global over weak over local, fewer
 * leading underscores, longer name) and lookups (start <= addr < end, or
 * addr == start for a symbol still empty).
 */
#include "symbol/symbol_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void symtab__init(struct pk_sym_table *t)
{
	memset(t, 0, sizeof(*t));
}

void symtab__fini(struct pk_sym_table *t)
{
	free(t->syms);
	pk_arena__free(&t->names);
	memset(t, 0, sizeof(*t));
}

int symtab__add(struct pk_sym_table *t, uint64_t start, uint64_t len, uint8_t binding,
		uint8_t type, const char *name, size_t namelen)
{
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct pk_sym *n = realloc(t->syms, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->syms = n;
		t->cap = cap;
	}
	char *s = pk_arena__strndup(&t->names, name, namelen);
	if (!s)
		return -ENOMEM;
	t->syms[t->nr++] = (struct pk_sym){
		.start = start, .end = len ? start + len : start,
		.name = s, .binding = binding, .type = type,
	};
	return 0;
}

/* stable merge sort by start */
static void merge_sort(struct pk_sym *a, struct pk_sym *tmp, size_t n)
{
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			if (mid >= hi || a[mid - 1].start <= a[mid].start)
				continue;
			size_t i = lo, j = mid, k = 0;
			while (i < mid && j < hi)
				tmp[k++] = a[j].start < a[i].start ? a[j++] : a[i++];
			while (i < mid)
				tmp[k++] = a[i++];
			while (j < hi)
				tmp[k++] = a[j++];
			memcpy(a + lo, tmp, k * sizeof(*a));
		}
	}
}

void symtab__sort(struct pk_sym_table *t)
{
	if (t->nr < 2) {
		t->sorted = t->nr;
		return;
	}
	bool in_order = true;
	for (size_t i = 1; i < t->nr && in_order; i++)
		in_order = t->syms[i - 1].start <= t->syms[i].start;
	if (!in_order) {
		struct pk_sym *tmp = malloc(t->nr * sizeof(*tmp));
		if (tmp) {
			merge_sort(t->syms, tmp, t->nr);
			free(tmp);
		} else {
			/* no memory for the buffer: insertion sort, stable too */
			for (size_t i = 1; i < t->nr; i++) {
				struct pk_sym s = t->syms[i];
				size_t j = i;
				for (; j > 0 && t->syms[j - 1].start > s.start; j--)
					t->syms[j] = t->syms[j - 1];
				t->syms[j] = s;
			}
		}
	}
	t->sorted = t->nr;
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
	/* perf's x86 arch__choose_best_symbol: avoid the "SyS" syscall aliases */
	if (!strncmp(a->name, "SyS", 3) || !strncmp(a->name, "compat_SyS", 10))
		return false;
	return true;
}

static uint64_t page_roundup(uint64_t x)
{
	return (x + 4095) / 4096 * 4096;
}

void symtab__fixup(struct pk_sym_table *t, bool kallsyms)
{
	struct pk_sym *s = t->syms;
	size_t n = t->nr;
	if (!n)
		return;
	/* symbols__fixup_end */
	for (size_t i = 1; i < n; i++) {
		struct pk_sym *prev = &s[i - 1], *curr = &s[i];
		if (prev->end != prev->start)
			continue;
		if (kallsyms && !strchr(prev->name, '[') != !strchr(curr->name, '['))
			prev->end = page_roundup(prev->end + 4096);
		else
			prev->end = curr->start;
	}
	if (s[n - 1].end == s[n - 1].start)
		s[n - 1].end = page_roundup(s[n - 1].start) + 4096;
	/* symbols__fixup_duplicate: walk pairs at one start, keep the better one */
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		if (out && s[out - 1].start == s[i].start) {
			if (!symtab__choose_a(&s[out - 1], &s[i]))
				s[out - 1] = s[i];
			continue;
		}
		s[out++] = s[i];
	}
	t->nr = t->sorted = out;
}

static bool contains(const struct pk_sym *s, uint64_t addr)
{
	return addr >= s->start && (addr < s->end || (addr == s->start && s->end == s->start));
}

const struct pk_sym *symtab__find(const struct pk_sym_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo: first symbol past addr; look back a little for one that covers it (overlaps are rare) */
	for (size_t k = 0; k < 8 && lo > 0; k++, lo--)
		if (contains(&t->syms[lo - 1], addr))
			return &t->syms[lo - 1];
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

void pk_sym_table__delete(struct pk_sym_table *t)
{
	if (!t)
		return;
	symtab__fini(t);
	free(t);
}
