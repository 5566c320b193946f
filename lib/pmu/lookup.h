/* SPDX-License-Identifier: MIT */
/*
 * pmu/lookup.h — the lookups the spec encoder makes for every event, in forms
 * that let it reuse work: an event name is looked up in the model's table
 * once (not again per PMU when its alias is expanded), and a table event's
 * PMU name is examined once before it is matched against every PMU of the
 * tree.
 */
#ifndef PMUKIT_PMU_LOOKUP_H
#define PMUKIT_PMU_LOOKUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/alias.h>
#include <pmukit/pmu.h>

/* pk_catalog__find_event(cat, model, name, NULL, &first, &count) == 0, and its answer. */
struct pk_alias_range {
	bool found;
	size_t first, count;
};

/* What pk_alias__find merges for a PMU and name: its sysfs alias, the table event. */
struct pk_alias_parts {
	const struct pk_pmu_alias *sysfs;	/* pk_pmu__find_alias, or NULL */
	bool table;				/* a table event applies: */
	size_t model, idx;			/* which (model may be a sys model) */
};
/* The parts for NAME on PMU, range being the model's lookup of name (NULL: look it up). */
void pk_alias__find_parts(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
			  const char *name, const struct pk_alias_range *range,
			  struct pk_alias_parts *parts);
/* The alias pk_alias__find would answer for those parts; 0 or -ENOENT (no part). */
int pk_alias__from_parts(struct pk_catalog *cat, const struct pk_alias_parts *parts,
			 struct pk_alias *out);

/* What the spec encoder uses of an alias: name, encoding and desc as in struct pk_alias. */
struct pk_alias_brief {
	const char *name, *encoding, *desc;
};
/* Those fields of pk_alias__from_parts's answer, without the others' work; 0 or -ENOENT. */
int pk_alias__brief(struct pk_catalog *cat, const struct pk_alias_parts *parts,
		    struct pk_alias_brief *out);

/* A table event's PMU name ("cpu", "default_core", "uncore_cha", "hisi_sccl,ddrc"), examined. */
struct pk_table_pmu {
	const char *name;
	size_t len;
	bool list;		/* has a ',' */
	bool default_core;	/* is "default_core" */
};
void pk_table_pmu__init(struct pk_table_pmu *t, const char *name);
/* pk_pmu__matches_table_pmu(pmu, t->name). */
bool pk_pmu__matches_prepared(const struct pk_pmu *pmu, const struct pk_table_pmu *t);

/*
 * The PMUs of tree that may answer to an event named name (h:
 * pk_hash__casefold(name), util/hash.h) whose table events are on the PMUs
 * tp[0..nt): a superset of those with a sysfs alias of that name (any case),
 * those pk_pmu__matches_prepared accepts for one of tp, and the uncore PMUs
 * with an identifier (sys events). Their tree indexes go to idx in increasing
 * order, their number is returned; mark (pk_pmu_tree__nr_pmus(tree) entries,
 * zeroed by the caller) is set for each. idx has room for every PMU.
 */
size_t pk_pmu_tree__candidates(const struct pk_pmu_tree *tree, const char *name, uint32_t h,
			       const struct pk_table_pmu *tp, size_t nt, unsigned char *mark,
			       uint32_t *idx);

#endif
