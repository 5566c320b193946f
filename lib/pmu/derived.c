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

int pk_pmu_tree__derive(struct pk_pmu_tree *tree)
{
	struct pk_pmu_tree_derived *td = &tree->derived;
	free(td->order);
	*td = (struct pk_pmu_tree_derived){ .max_precise = -1 };
	for (size_t i = 0; i < tree->nr_pmus; i++) {
		struct pk_pmu *p = &tree->pmus[i];
		const char *mp = pk_pmu__cap(p, "max_precise");
		uint64_t bloom = 0;
		for (size_t k = 0; k < p->nr_aliases; k++)
			bloom |= pk_pmu__alias_bloom_bit(p->aliases[k].name);
		p->derived = (struct pk_pmu_derived){
			.alias_bloom = bloom,
			.alias_bloom_set = true,
			.has_max_precise = mp != NULL,
			.max_precise = mp ? atoi(mp) : -1,
			.threshold_max = pk_pmu__cap(p, "threshold_max"),
			.acr_mask = pk_pmu__find_format(p, "acr_mask"),
			.kernfs_hash = pk_pmu__kernfs_hash(p->name),
		};
		p->derived.has_slots = pk_pmu__find_alias(p, "slots") != NULL;
		p->derived.has_mem_loads_aux = pk_pmu__find_alias(p, "mem-loads-aux") != NULL;
		if (mp && (td->max_precise < 0 || p->derived.max_precise < td->max_precise))
			td->max_precise = p->derived.max_precise;
		if (p->type == 4 /* PERF_TYPE_RAW */ && p->derived.has_slots)
			td->perf_metrics = true;
	}
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
