/* SPDX-License-Identifier: MIT */
/*
 * list.h — what the parts of `pmukit list` share: the items gathered before
 * printing, the options, and the table part (list-table.c: core events per
 * core PMU, uncore events, sys events matched by identifier, metrics).
 */
#ifndef PMUKIT_LIST_H
#define PMUKIT_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

enum item_kind { IT_SYMBOL, IT_CACHE, IT_SYSFS, IT_TRACEPOINT, IT_TABLE, IT_METRIC };

struct item {
	enum item_kind kind;
	const char *name, *alias, *pmu, *topic, *desc, *long_desc, *encoding, *unit, *compat;
	const char *expr, *groups, *threshold;	/* metrics */
	const char *type_desc;			/* "Hardware event", ... */
	bool deprecated, perpkg;
	bool core;		/* table events of a core PMU: sorted first within a topic */
	size_t model;		/* metrics: the catalog model they come from */
	char *owned[3];				/* strings this item allocated */
};

struct list_opts {
	bool json, all, deprecated, long_desc, details;
	const char *filter;	/* class keyword or glob */
	/*
	 * --cpu-root / PMUKIT_CPU_ROOT: the CPU tree of the listed machine
	 * (replaces /sys/devices/system/cpu) and the arch found there.
	 */
	const char *cpu_root, *root_arch;
};

struct items {
	struct item *v;
	size_t n, cap;
};

/* A zeroed new item at the end, or NULL when out of memory. */
struct item *list_push(struct items *it);

/* Class filter ("hw", "pmu", "metric", ...): does it let cls through? */
bool list_class_ok(const struct list_opts *o, const char *cls);
/* list-desc.c: descriptions for --json of the symbols and generic cache events. */
const char *list_symbol_desc(const char *name);
int list_cache_desc(const char *name, char *buf, size_t len);
/* Glob filter: does it match a or b (either may be NULL)? True without one. */
bool list_glob_ok(const struct list_opts *o, const char *a, const char *b);

/*
 * The table model for the events of core PMU pmu, as perf picks it: --cpuid
 * for every PMU (perf's PERF_CPUID); else the identifier of the PMU's first
 * CPU under --cpu-root, or on this machine when no --sysfs tree replaces
 * it; else the model of the whole machine. false when there is none.
 */
bool list_core_model(const struct cli_env *env, const struct list_opts *o,
		     const struct pk_pmu *pmu, size_t *model);

/*
 * Table events and metrics: core events per core PMU of the tree, uncore
 * events of present PMUs (all with --all), sys events and metrics of the PMUs
 * whose identifier matches their Compat. 0 or -1 (out of memory).
 */
int list_add_tables(struct items *it, struct cli_env *env, const struct list_opts *o);

#endif
