/* SPDX-License-Identifier: MIT */
/*
 * pmu/pmu_int.h — the PMU tree's representation, shared by the sysfs reader
 * (pmu.c) and the synthetic core PMUs (synthetic.c).
 */
#ifndef PMUKIT_PMU_INT_H
#define PMUKIT_PMU_INT_H

#include <pmukit/pmu.h>

#include "pmu/derived.h"
#include "util/arena.h"

struct pk_pmu_cap {
	const char *name;
	const char *value;
};

/* Why a file of the tree was left out (a format term, a PMU), said to the user on lookup. */
struct pk_pmu_problem {
	const char *name;	/* the term or PMU */
	const char *msg;	/* "PATH: what is wrong" */
	struct pk_pmu_problem *next;
};

struct pk_pmu {
	const char *name;
	uint32_t type;
	bool is_core;
	bool is_uncore;
	const char *cpus;
	const char *identifier;
	struct pk_pmu_format *formats;	/* sorted by name (strcmp) */
	size_t nr_formats;
	struct pk_pmu_alias *aliases;	/* sorted case-insensitively, then strcmp */
	size_t nr_aliases;
	struct pk_pmu_cap *caps;	/* sorted by name (strcmp) */
	size_t nr_caps;
	struct pk_pmu_derived derived;	/* see pmu/derived.h */
	struct pk_pmu_problem *format_problems;	/* format files that do not parse */
};

struct pk_pmu_tree {
	struct pk_arena arena;
	struct pk_pmu *pmus;		/* malloc'd, sorted, see pmu_cmp() */
	size_t nr_pmus;
	struct pk_pmu_tree_derived derived;	/* see pmu/derived.h; order is malloc'd */
	struct pk_pmu_problem *pmu_problems;	/* entries with no valid type */
};

/* Recompute every derived fact after the PMU array was built or changed; 0 or -ENOMEM. */
int pk_pmu_tree__derive(struct pk_pmu_tree *tree);
/* Free what derive allocated (the tree is being closed). */
void pk_pmu_tree__free_derived(struct pk_pmu_tree *tree);

/* Name order with digit runs compared as numbers (qsort comparator for struct pk_pmu). */
int pk_pmu__cmp(const void *a, const void *b);

#endif
