/* SPDX-License-Identifier: MIT */
/*
 * report/collapse_rb.c — a hists' entries in perf 6.1's collapse order where
 * its sort comparison is no order. With the symbol key and no DSO key,
 * sort__sym_cmp compares two entries without a symbol by address alone but
 * an entry with a symbol and any other by DSO first: unresolved addresses
 * of two DSOs beside a symbol of a third are not in one order, and the
 * in-order of perf's entries tree (hists__findnew_entry, in the order the
 * entries were made), then of its collapse tree (hists__collapse_insert_entry,
 * fed in that in-order), depends on the trees' shapes. So do unresolved
 * addresses 2^63 or more apart (wraps). resort.c sorts where
 * the comparison is an order. Where the report kept its samples (the symbol
 * key without the DSO key: replay_sym), replay.c walks perf's trees at every
 * sample, which is exact; else (wraps under the DSO key, --group, a time,
 * weight, trace or srcline key, --hierarchy) the trees are built here over
 * pk_rbtree's copy of the kernel's, one insertion per entry in the order perf
 * made them (first sample, its own entry, then its frames'). An entry whose
 * walk meets an equal one merges into it, as perf's does; one whose walk
 * misses it stays apart, as perf prints it (a later sample's miss is not seen).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "report/report_int.h"
#include "util/rbtree.h"

/* perf's hist_entry__cmp (collapse: __collapse) of the entry in the tree and the new one */
static int64_t cmp_all(const struct pk_report *r, const struct rp_entry *a,
		       const struct rp_entry *b, bool collapse)
{
	for (int i = 0; i < r->nr_sorts; i++) {
		int k = r->sorts[i];
		int64_t c = collapse ? rp_key_collapse(r, k, a, b) : rp_key_cmp(r, k, a, b);
		if (c)
			return c;
	}
	return 0;
}

struct span {
	const struct pk_dso *dso;
	uint64_t addr;
};

static int span_cmp(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;
	if (a->dso != b->dso)
		return (uintptr_t)a->dso < (uintptr_t)b->dso ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/*
 * perf's _sort__addr_cmp is the difference of two addresses as an int64_t: two
 * unresolved addresses (of one DSO, where the DSO is a key) 2^63 or more apart
 * compare the wrong way round, and three can make a circle (0x6ddd <
 * 0x65702f62696c2f72 < 0x925bc10d47c41400 < 0x6ddd: a broken callchain's words).
 */
static bool wraps(const struct pk_report *r, const uint32_t *idx, size_t k)
{
	struct span *v = malloc((k ? k : 1) * sizeof(*v));
	size_t n = 0;
	if (!v)
		return true;	/* no memory to tell: the trees are right either way */
	for (size_t i = 0; i < k; i++) {
		const struct rp_lclass *lc = rp_lclass(r, rp_entry(r, idx[i])->lclass);
		if (!lc->sym)
			v[n++] = (struct span){ r->has_key[RP_KEY_DSO] ? lc->dso : NULL, lc->addr };
	}
	qsort(v, n, sizeof(*v), span_cmp);
	bool w = false;
	for (size_t i = 0, j = 0; i < n && !w; i = j) {
		for (j = i; j < n && v[j].dso == v[i].dso; j++)
			;
		w = v[j - 1].addr - v[i].addr > (uint64_t)INT64_MAX;
	}
	free(v);
	return w;
}

bool rp_collapse_mixed(const struct pk_report *r, const uint32_t *idx, size_t k)
{
	if (!r->has_key[RP_KEY_SYM])
		return false;
	if (wraps(r, idx, k))
		return true;
	if (r->has_key[RP_KEY_DSO])
		return false;
	const struct pk_dso *first = NULL;
	bool unresolved = false, two = false, resolved = false;
	for (size_t i = 0; i < k && !(two && resolved); i++) {
		const struct rp_lclass *lc = rp_lclass(r, rp_entry(r, idx[i])->lclass);
		if (lc->sym) {
			resolved = true;
		} else if (!unresolved) {
			unresolved = true;
			first = lc->dso;
		} else if (lc->dso != first) {
			two = true;
		}
	}
	return two && resolved;
}

/* the order perf made the entries in: by first sample, its own entry, then its frames' */
static int made_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct pk_report *r = ctx;
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct rp_entry *a = rp_entry(r, ia), *b = rp_entry(r, ib);
	if (a->first_seq != b->first_seq)
		return a->first_seq < b->first_seq ? -1 : 1;
	if (a->first_pos != b->first_pos)
		return a->first_pos < b->first_pos ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

struct probe {
	const struct pk_report *r;
	const uint32_t *idx;
	uint32_t key;		/* the entry looked up */
	bool collapse;
};

/* perf's search of its tree: cmp(existing, the entry looked up) */
static int64_t probe_cmp(void *ctx, uint32_t node)
{
	const struct probe *p = ctx;
	return cmp_all(p->r, rp_entry(p->r, p->idx[node]), rp_entry(p->r, p->key), p->collapse);
}

/*
 * idx[0..*k) inserted in turn into one tree (slot i of rb for idx[i]); an entry
 * equal to one on its walk merges into it; then idx holds the in-order, *k its length
 */
static void tree_pass(struct pk_report *r, uint32_t *idx, size_t *k, struct pk_rbnode *rb,
		      uint32_t *tmp, bool collapse)
{
	uint32_t root = PK_RB_NIL;
	size_t n = *k;
	struct probe pr = { r, idx, 0, collapse };
	for (size_t i = 0; i < n; i++) {
		pr.key = idx[i];
		uint32_t x = pk_rbtree__find_or_link(rb, &root, (uint32_t)i, probe_cmp, &pr);
		if (x != i)
			rp_entry_merge(r, idx[x], idx[i]);
	}
	size_t m = 0;
	for (uint32_t i = pk_rbtree__first(rb, root); i != PK_RB_NIL; i = pk_rbtree__next(rb, i))
		tmp[m++] = idx[i];
	for (size_t i = 0; i < m; i++)
		idx[i] = tmp[i];
	*k = m;
}

int rp_collapse_trees(struct pk_report *r, uint32_t *idx, size_t *k)
{
	size_t n = *k;
	struct pk_rbnode *rb = malloc((n ? n : 1) * sizeof(*rb));
	uint32_t *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!rb || !tmp) {
		free(rb);
		free(tmp);
		return -ENOMEM;
	}
	qsort_r(idx, n, sizeof(*idx), made_cmp, r);
	tree_pass(r, idx, k, rb, tmp, false);
	/* perf collapses only with a key that has a collapse function */
	if (r->has_key[RP_KEY_COMM] || r->has_key[RP_KEY_SRCLINE] || r->has_key[RP_KEY_SRCFILE])
		tree_pass(r, idx, k, rb, tmp, true);
	for (size_t i = 0; i < *k; i++)
		rp_entry(r, idx[i])->order = (uint32_t)i;
	free(rb);
	free(tmp);
	return 0;
}
