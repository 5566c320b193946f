/* SPDX-License-Identifier: MIT */
/*
 * pmu/derived.h — facts about a PMU tree that the spec encoder asks for every
 * event (caps parsed to numbers, the presence of a few aliases and formats,
 * the hybrid core PMUs, the order perf meets PMUs in), computed once when the
 * tree is built and again whenever it changes (pk_pmu_tree__add_core), so
 * that encoding a spec does not search sysfs data for them each time.
 */
#ifndef PMUKIT_PMU_DERIVED_H
#define PMUKIT_PMU_DERIVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/pmu.h>

/* Of one PMU. */
struct pk_pmu_derived {
	bool has_max_precise;		/* caps/max_precise exists */
	int max_precise;		/* caps/max_precise as atoi reads it; -1 when absent */
	const char *threshold_max;	/* caps/threshold_max, or NULL */
	const struct pk_pmu_format *acr_mask;	/* format acr_mask, or NULL */
	bool has_slots;			/* pk_pmu__find_alias(pmu, "slots") */
	bool has_mem_loads_aux;		/* pk_pmu__find_alias(pmu, "mem-loads-aux") */
	unsigned kernfs_hash;		/* sysfs (kernfs) directory hash of its name */
	/* pk_pmu__find_alias's quick refusal: a bit per (first two letters, any case) of its aliases */
	uint64_t alias_bloom;
	bool alias_bloom_set;
	/* the same for pk_pmu__find_format and its formats */
	uint64_t format_bloom;
	bool format_bloom_set;
	size_t kernfs_rank;		/* its position in the tree's kernfs order */
};

#define PK_PMU_MAX_HYBRID 8

/* Of the whole tree. */
struct pk_pmu_tree_derived {
	int max_precise;	/* lowest caps/max_precise of the PMUs, -1 when none has it */
	bool perf_metrics;	/* the PMU of type 4 (PERF_TYPE_RAW) has a slots event */
	/* hybrid core PMUs (cpu_core, cpu_atom: "cpu_*", core, not uncore), in kernfs order */
	const struct pk_pmu *hybrid[PK_PMU_MAX_HYBRID];
	size_t nr_hybrid;
	/* every PMU in the order readdir lists them on sysfs: (kernfs hash, name) */
	const struct pk_pmu **order;
	size_t nr_order;
	/*
	 * Indexes for pk_pmu_tree__candidates (pmu/lookup.h): every sysfs alias
	 * by its case-folded name, every PMU by its name (open addressing,
	 * power-of-two sizes, slot value 0 = empty), and the tree indexes of the
	 * core PMUs, the uncore ones and the uncore ones with an identifier.
	 */
	struct pk_pmu_name_slot *alias_slots, *name_slots;
	size_t alias_mask, name_mask;
	uint32_t *core, *uncore, *sys;
	size_t nr_core, nr_uncore, nr_sys;
};

struct pk_pmu_name_slot {
	uint32_t hash;		/* pk_pmu__name_hash */
	uint32_t pmu;		/* tree index + 1; 0: empty */
};

/* FNV-1a of name with ASCII letters folded to lower case (pk_hash__casefold). */
uint32_t pk_pmu__name_hash(const char *name);

/* The bit of alias_bloom for a name. */
static inline uint64_t pk_pmu__alias_bloom_bit(const char *name)
{
	unsigned c0 = (unsigned char)name[0], c1 = c0 ? (unsigned char)name[1] : 0;
	c0 |= c0 >= 'A' && c0 <= 'Z' ? 0x20 : 0;
	c1 |= c1 >= 'A' && c1 <= 'Z' ? 0x20 : 0;
	return UINT64_C(1) << ((c0 * 31 + c1) & 63);
}

/* kernfs_name_hash() of a 64-bit kernel, no namespace: sysfs lists directories by it. */
unsigned pk_pmu__kernfs_hash(const char *name);

/* The facts; NULL pmu or tree: NULL. */
const struct pk_pmu_derived *pk_pmu__derived(const struct pk_pmu *pmu);
const struct pk_pmu_tree_derived *pk_pmu_tree__derived(const struct pk_pmu_tree *tree);

/* Sort PMUs of one tree into kernfs order (by their rank), in place. */
void pk_pmu__sort_kernfs(const struct pk_pmu **v, size_t n);

#endif
