/* SPDX-License-Identifier: MIT */
/*
 * pmukit/alias.h — the event names a PMU answers to, merged as perf merges
 * them: the PMU's sysfs events/ aliases, updated by the table event of the
 * same name (its description, topic, terms and scale), plus the table events
 * whose PMU designates this PMU (core events, uncore units, sys events
 * matched by Compat). Also which table model applies to each core PMU on a
 * heterogeneous machine.
 */
#ifndef PMUKIT_ALIAS_H
#define PMUKIT_ALIAS_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/api.h>
#include <pmukit/events.h>
#include <pmukit/pmu.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PK_NO_MODEL ((size_t)-1)

struct pk_alias {
	const char *name;
	const char *encoding;	/* terms: the table's when it has the event, else sysfs's */
	const char *desc, *long_desc, *topic;	/* from the table, NULL for sysfs-only */
	const char *unit;	/* "Joules", "MiB" ... or NULL */
	double scale;		/* 1.0 unless .scale or the table's ScaleUnit says otherwise */
	bool per_pkg, snapshot, deprecated;
	bool from_sysfs, from_table;
	const char *table_pmu;	/* the table's PMU name when from_table */
};

/*
 * Look NAME up (case-insensitively) on PMU. model is the catalog model of the
 * PMU's CPU (PK_NO_MODEL: sysfs only); sys models of cat are searched for
 * uncore PMUs whose identifier matches an event's Compat. 0 or -ENOENT.
 */
PK_API int pk_alias__find(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
			  const char *name, struct pk_alias *out);

/* Every alias of PMU once: sysfs ones (merged) in name order, then table-only ones. */
typedef int (*pk_alias_fn)(const struct pk_alias *alias, void *ctx);
PK_API int pk_alias__for_each(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
			      pk_alias_fn fn, void *ctx);

/* "64Bytes" -> 64, "Bytes"; "1.0e-9seconds"; "100%" -> 100, "%". 0 or -EINVAL. */
PK_API int pk_alias__parse_scale_unit(const char *s, double *scale, const char **unit);

/*
 * The catalog model for a core PMU: from the identifier of the first CPU in
 * its cpus (heterogeneous arm64: each cluster its own MIDR), or of any CPU
 * when it lists none. arch NULL: this machine, asked directly; otherwise the
 * identifier is read from files of an arch machine under cpu_root (replacing
 * /sys/devices/system/cpu, see pk_cpuid__read). 0 or -ENOENT.
 */
PK_API int pk_alias__model_for_pmu(const struct pk_catalog *cat, const struct pk_pmu *pmu,
				   const char *arch, const char *cpu_root, size_t *model);

#ifdef __cplusplus
}
#endif
#endif
