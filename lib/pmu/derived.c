/* SPDX-License-Identifier: MIT */
/*
 * pmu/derived.c — the facts of pmu/derived.h, recomputed from a tree's PMUs
 * by pk_pmu_tree__derive() at the end of every function that builds or
 * changes a tree (pk_pmu_tree__open, pk_pmu_tree__add_core).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/derived.h"
#include "pmu/lookup.h"
#include "util/hash.h"
#include "pmu/pmu_int.h"

unsigned pk_pmu__kernfs_hash(const char *name)
{
	uint64_t h = 0;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h + ((uint64_t)*p << 4) + (*p >> 4)) * 11;
	h = (h * UINT64_C(0x61C8864680B583EB)) >> 32;
	h &= 0x7fffffffu;
	if (h < 2)
		h += 2;
	if (h >= 0x7fffffffu)
		h = 0x7fffffffu - 1;
	return (unsigned)h;
}

static int kernfs_cmp(const struct pk_pmu *a, const struct pk_pmu *b)
{
	if (a->derived.kernfs_hash != b->derived.kernfs_hash)
		return a->derived.kernfs_hash < b->derived.kernfs_hash ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int kernfs_qcmp(const void *pa, const void *pb)
{
	return kernfs_cmp(*(const struct pk_pmu *const *)pa, *(const struct pk_pmu *const *)pb);
}

void pk_pmu__sort_kernfs(const struct pk_pmu **v, size_t n)
{
	/* a handful at a time (the PMUs an event name matched): insertion sort by rank */
	for (size_t i = 1; i < n; i++) {
		const struct pk_pmu *p = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1]->derived.kernfs_rank > p->derived.kernfs_rank; j--)
			v[j] = v[j - 1];
		v[j] = p;
	}
}

const struct pk_pmu_derived *pk_pmu__derived(const struct pk_pmu *pmu)
{
	return pmu ? &pmu->derived : NULL;
}

const struct pk_pmu_tree_derived *pk_pmu_tree__derived(const struct pk_pmu_tree *tree)
{
	return tree ? &tree->derived : NULL;
}

uint32_t pk_pmu__name_hash(const char *name)
{
	return pk_hash__casefold(name);
}

/* A table of at least 2n slots; *mask set. NULL on ENOMEM. */
static struct pk_pmu_name_slot *new_slots(size_t n, size_t *mask)
{
	size_t sz = 16;
	while (sz < 2 * n)
		sz *= 2;
	*mask = sz - 1;
	return calloc(sz, sizeof(struct pk_pmu_name_slot));
}

static void put_slot(struct pk_pmu_name_slot *t, size_t mask, uint32_t hash, uint32_t pmu)
{
	size_t j = hash & mask;
	while (t[j].pmu) {
		if (t[j].hash == hash && t[j].pmu == pmu)
			return;		/* that PMU is there for that hash already */
		j = (j + 1) & mask;
	}
	t[j] = (struct pk_pmu_name_slot){ hash, pmu };
}

static void free_derived(struct pk_pmu_tree_derived *td)
{
	free(td->order);
	free(td->alias_slots);
	free(td->name_slots);
	free(td->core);
	free(td->uncore);
	free(td->sys);
}

void pk_pmu_tree__free_derived(struct pk_pmu_tree *tree)
{
	free_derived(&tree->derived);
	tree->derived = (struct pk_pmu_tree_derived){ .max_precise = -1 };
}

static int derive_indexes(struct pk_pmu_tree *tree)
{
	struct pk_pmu_tree_derived *td = &tree->derived;
	size_t n = tree->nr_pmus, na = 0;
	for (size_t i = 0; i < n; i++)
		na += tree->pmus[i].nr_aliases;
	td->alias_slots = new_slots(na, &td->alias_mask);
	td->name_slots = new_slots(n, &td->name_mask);
	td->core = malloc((n ? n : 1) * sizeof(*td->core));
	td->uncore = malloc((n ? n : 1) * sizeof(*td->uncore));
	td->sys = malloc((n ? n : 1) * sizeof(*td->sys));
	if (!td->alias_slots || !td->name_slots || !td->core || !td->uncore || !td->sys)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const struct pk_pmu *p = &tree->pmus[i];
		for (size_t k = 0; k < p->nr_aliases; k++)
			put_slot(td->alias_slots, td->alias_mask, pk_pmu__name_hash(p->aliases[k].name),
				 i + 1);
		put_slot(td->name_slots, td->name_mask, pk_pmu__name_hash(p->name), i + 1);
		if (p->is_core)
			td->core[td->nr_core++] = i;
		if (p->is_uncore)
			td->uncore[td->nr_uncore++] = i;
		if (p->is_uncore && p->identifier)
			td->sys[td->nr_sys++] = i;
	}
	return 0;
}

/* Mark PMU i a candidate once. */
static inline void cand(unsigned char *mark, uint32_t *idx, size_t *n, uint32_t i)
{
	if (!mark[i]) {
		mark[i] = 1;
		idx[(*n)++] = i;
	}
}

size_t pk_pmu_tree__candidates(const struct pk_pmu_tree *tree, const char *name, uint32_t h,
			       const struct pk_table_pmu *tp, size_t nt, unsigned char *mark,
			       uint32_t *idx)
{
	const struct pk_pmu_tree_derived *td = &tree->derived;
	size_t n = 0;
	(void)name;
	if (!td->alias_slots || !td->name_slots || !td->core || !td->uncore || !td->sys) {
		for (uint32_t i = 0; i < tree->nr_pmus; i++)	/* not derived (out of memory) */
			cand(mark, idx, &n, i);
		return n;
	}
	/* a sysfs alias of that name, in any case (same hash) */
	for (size_t j = h & td->alias_mask; td->alias_slots[j].pmu; j = (j + 1) & td->alias_mask)
		if (td->alias_slots[j].hash == h)
			cand(mark, idx, &n, td->alias_slots[j].pmu - 1);
	for (size_t k = 0; k < nt; k++) {
		const struct pk_table_pmu *t = &tp[k];
		if (k && t->name == tp[k - 1].name)
			continue;
		/* the PMU of that very name */
		uint32_t th = pk_pmu__name_hash(t->name);
		for (size_t j = th & td->name_mask; td->name_slots[j].pmu; j = (j + 1) & td->name_mask) {
			const struct pk_pmu_name_slot *s = &td->name_slots[j];
			if (s->hash == th && !strcmp(tree->pmus[s->pmu - 1].name, t->name))
				cand(mark, idx, &n, s->pmu - 1);
		}
		if (t->default_core)
			for (size_t i = 0; i < td->nr_core; i++)
				cand(mark, idx, &n, td->core[i]);
		/* uncore PMUs: token lists match anywhere in the name, else it starts with it */
		for (size_t i = 0; i < td->nr_uncore; i++)
			if (t->list || !t->len || tree->pmus[td->uncore[i]].name[0] == t->name[0])
				cand(mark, idx, &n, td->uncore[i]);
	}
	for (size_t i = 0; i < td->nr_sys; i++)
		cand(mark, idx, &n, td->sys[i]);
	/* in tree order: a handful, insertion sort */
	for (size_t i = 1; i < n; i++) {
		uint32_t v = idx[i];
		size_t j = i;
		for (; j > 0 && idx[j - 1] > v; j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
	return n;
}

int pk_pmu_tree__derive(struct pk_pmu_tree *tree)
{
	struct pk_pmu_tree_derived *td = &tree->derived;
	pk_pmu_tree__free_derived(tree);
	for (size_t i = 0; i < tree->nr_pmus; i++) {
		struct pk_pmu *p = &tree->pmus[i];
		const char *mp = pk_pmu__cap(p, "max_precise");
		uint64_t bloom = 0;
		for (size_t k = 0; k < p->nr_aliases; k++)
			bloom |= pk_pmu__alias_bloom_bit(p->aliases[k].name);
		uint64_t fbloom = 0;
		for (size_t k = 0; k < p->nr_formats; k++)
			fbloom |= pk_pmu__alias_bloom_bit(p->formats[k].name);
		p->derived = (struct pk_pmu_derived){
			.alias_bloom = bloom,
			.alias_bloom_set = true,
			.format_bloom = fbloom,
			.format_bloom_set = true,
			.has_max_precise = mp != NULL,
			.max_precise = mp ? atoi(mp) : -1,
			.threshold_max = pk_pmu__cap(p, "threshold_max"),
			.kernfs_hash = pk_pmu__kernfs_hash(p->name),
		};
		/* looked up with the filters just set */
		p->derived.acr_mask = pk_pmu__find_format(p, "acr_mask");
		p->derived.has_slots = pk_pmu__find_alias(p, "slots") != NULL;
		p->derived.has_mem_loads_aux = pk_pmu__find_alias(p, "mem-loads-aux") != NULL;
		if (mp && (td->max_precise < 0 || p->derived.max_precise < td->max_precise))
			td->max_precise = p->derived.max_precise;
		if (p->type == 4 /* PERF_TYPE_RAW */ && p->derived.has_slots)
			td->perf_metrics = true;
	}
	int r = derive_indexes(tree);
	if (r)
		return r;
	if (!tree->nr_pmus)
		return 0;
	td->order = malloc(tree->nr_pmus * sizeof(*td->order));
	if (!td->order)
		return -ENOMEM;
	for (size_t i = 0; i < tree->nr_pmus; i++)
		td->order[i] = &tree->pmus[i];
	qsort(td->order, tree->nr_pmus, sizeof(*td->order), kernfs_qcmp);
	td->nr_order = tree->nr_pmus;
	for (size_t i = 0; i < td->nr_order; i++)
		tree->pmus[td->order[i] - tree->pmus].derived.kernfs_rank = i;
	/* the first few in tree order, then sorted */
	for (size_t i = 0; i < tree->nr_pmus; i++) {
		const struct pk_pmu *p = &tree->pmus[i];
		if (p->name[0] == 'c' && !strncmp(p->name, "cpu_", 4) && p->is_core && !p->is_uncore &&
		    td->nr_hybrid < PK_PMU_MAX_HYBRID)
			td->hybrid[td->nr_hybrid++] = p;
	}
	pk_pmu__sort_kernfs(td->hybrid, td->nr_hybrid);
	return 0;
}
