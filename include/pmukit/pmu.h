/* SPDX-License-Identifier: MIT */
/*
 * pmukit/pmu.h — PMU discovery from a PMU tree (/sys/bus/event_source/devices
 * or a fake tree in tests): each PMU's type, format terms, sysfs event
 * aliases, caps, cpus and identifier.
 */
#ifndef PMUKIT_PMU_H
#define PMUKIT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PK_SYSFS_DEFAULT "/sys/bus/event_source/devices"

struct pk_pmu_tree;
struct pk_pmu;

/* One format term, e.g. "event" -> config:0-7 or "threshold" -> config1:5-16. */
struct pk_pmu_format {
	const char *name;
	int config;		/* 0: config, 1: config1, 2: config2, 3: config3 */
	uint64_t mask;		/* bits of that config word the term occupies (may be split) */
	unsigned width;		/* number of bits in mask */
};

/* One sysfs alias: events/NAME plus NAME.unit/.scale/.per-pkg/.snapshot. */
struct pk_pmu_alias {
	const char *name;
	const char *encoding;	/* file content without trailing newline: "event=0x3c,umask=0x1" */
	const char *unit;	/* NULL if no .unit file */
	double scale;		/* 1.0 if no .scale file */
	bool per_pkg;
	bool snapshot;
};

/*
 * Read the tree at root (NULL: PK_SYSFS_DEFAULT). Missing or unreadable
 * parts of a PMU are tolerated (a PMU without events/ has no aliases); a root
 * that does not exist is an error.
 */
int pk_pmu_tree__open(const char *root, struct pk_pmu_tree **out, struct pk_error *err);
void pk_pmu_tree__close(struct pk_pmu_tree *tree);

size_t pk_pmu_tree__nr_pmus(const struct pk_pmu_tree *tree);
/* PMUs sorted by name. */
const struct pk_pmu *pk_pmu_tree__pmu(const struct pk_pmu_tree *tree, size_t idx);
const struct pk_pmu *pk_pmu_tree__find(const struct pk_pmu_tree *tree, const char *name);

const char *pk_pmu__name(const struct pk_pmu *pmu);
uint32_t pk_pmu__type(const struct pk_pmu *pmu);
/* A core PMU as perf decides it: "cpu", "cpum_cf", or one with a "cpus" file. */
bool pk_pmu__is_core(const struct pk_pmu *pmu);
/* Content of cpus or cpumask ("0-3,8"), NULL when neither exists. */
const char *pk_pmu__cpus(const struct pk_pmu *pmu);
/* Content of identifier (uncore/sys PMUs matched by Compat), or NULL. */
const char *pk_pmu__identifier(const struct pk_pmu *pmu);

size_t pk_pmu__nr_formats(const struct pk_pmu *pmu);
const struct pk_pmu_format *pk_pmu__format(const struct pk_pmu *pmu, size_t idx);
const struct pk_pmu_format *pk_pmu__find_format(const struct pk_pmu *pmu, const char *name);

size_t pk_pmu__nr_aliases(const struct pk_pmu *pmu);
/* Aliases sorted by name; lookup is case-insensitive. */
const struct pk_pmu_alias *pk_pmu__alias(const struct pk_pmu *pmu, size_t idx);
const struct pk_pmu_alias *pk_pmu__find_alias(const struct pk_pmu *pmu, const char *name);

/* Content of caps/NAME without trailing newline, or NULL when absent. */
const char *pk_pmu__cap(const struct pk_pmu *pmu, const char *name);

/*
 * Does a table PMU name (JSON "Unit" after perf's mapping, e.g. "uncore_cha",
 * "hisi_sccl,ddrc") designate this PMU? perf's rule: equal, or equal once a
 * numeric/hex instance suffix ("_0", "_1a") is ignored; comma-separated
 * tokens must all appear in order. "default_core" matches every core PMU.
 */
bool pk_pmu__matches_table_pmu(const struct pk_pmu *pmu, const char *table_pmu);

/* Parse a format file body ("config:0-7,32-35\n") into f (name not set). */
int pk_pmu_format__parse(const char *body, struct pk_pmu_format *f);

#ifdef __cplusplus
}
#endif
#endif
