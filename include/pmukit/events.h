/* SPDX-License-Identifier: MIT */
/*
 * pmukit/events.h — event and metric tables: the built-in tables compiled by
 * eventc from the vendors' JSON, or a JSON arch/ tree read at run time; CPU
 * models and their mapfile rows; lookup of events and metrics by name.
 *
 * Objects are opaque and owned by the caller. Strings returned point into the
 * catalog and live as long as it does. A catalog is not thread-safe (it
 * decompresses descriptions lazily); use one per thread.
 */
#ifndef PMUKIT_EVENTS_H
#define PMUKIT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/api.h>
#include <pmukit/error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_catalog;

/* A model is one directory of JSON files (e.g. "x86/skylake",
 * "arm64/arm/cortex-a72", "arm64/freescale/imx8mm/sys"). */
struct pk_model {
	const char *arch;	/* "x86", "arm64", "powerpc", ... */
	const char *name;	/* directory relative to the arch, "skylake" */
	bool sys;		/* a "sys" directory: events matched by Compat */
	size_t nr_events;
	size_t nr_metrics;
	size_t nr_groups;	/* metric groups described in metricgroups.json */
};

/* One mapfile.csv row: CPUID pattern → model. */
struct pk_map_entry {
	const char *arch;
	const char *cpuid;	/* the pattern as written in the mapfile */
	const char *version;
	const char *type;	/* "core", "uncore", ... */
	size_t model;		/* index for pk_catalog__model() */
};

enum pk_aggr_mode { PK_AGGR_NONE = 0, PK_AGGR_PER_CHIP = 1, PK_AGGR_PER_CORE = 2 };
enum pk_event_grouping {
	PK_GROUPING_DEFAULT = 0,
	PK_GROUPING_NO_GROUP_EVENTS = 1,
	PK_GROUPING_NO_GROUP_EVENTS_NMI = 2,
	PK_GROUPING_NO_GROUP_EVENTS_SMT = 3,
};

/*
 * pk_event and pk_metric are filled by the library into the caller's struct,
 * and grow as the vendors' JSON grows: the caller sets sz (sizeof its struct,
 * `struct pk_event e = { .sz = sizeof(e) };`) and the library writes only the
 * fields within it (sz below sizeof(size_t): -EINVAL). sz itself is left as set.
 */
struct pk_event {
	size_t sz;		/* set by the caller: sizeof(struct pk_event) */
	const char *name;	/* lower case, as perf stores it */
	const char *pmu;	/* "default_core", "cpu_atom", "uncore_cha", ... */
	const char *topic;	/* "cache", "pipeline", "uncore memory", ... */
	const char *encoding;	/* perf alias terms: "event=0x3c,period=2000003" */
	const char *desc;	/* may be NULL */
	const char *long_desc;	/* may be NULL */
	const char *compat;	/* sys events: PMU identifier to match, or NULL */
	const char *unit;	/* ScaleUnit, e.g. "64Bytes", or NULL */
	bool deprecated;
	bool perpkg;
	bool experimental;
};

struct pk_metric {
	size_t sz;		/* set by the caller: sizeof(struct pk_metric) (see pk_event) */
	const char *name;
	const char *pmu;
	const char *expr;	/* MetricExpr as written in the JSON */
	const char *threshold;	/* MetricThreshold or NULL */
	const char *groups;	/* MetricGroup, ';'-separated, or NULL */
	const char *nogroup;	/* MetricgroupNoGroup or NULL */
	const char *default_group; /* DefaultMetricgroupName or NULL */
	const char *desc;
	const char *long_desc;
	const char *unit;	/* ScaleUnit or NULL */
	const char *compat;
	enum pk_aggr_mode aggr_mode;
	enum pk_event_grouping grouping; /* MetricConstraint */
};

struct pk_metric_group {
	const char *name;
	const char *desc;
};

/* The tables compiled into the library. Never fails except on ENOMEM. */
PK_API int pk_catalog__open_builtin(struct pk_catalog **out);

/*
 * Read a JSON arch/ tree (the layout of tools/perf/pmu-events/arch) with the
 * same parser eventc uses. When only_arch is not NULL, only that arch is read;
 * when only_model is not NULL too, only that model directory (plus the arch's
 * standard-event files) is read. Errors name the file, line and column.
 */
struct pk_catalog_dir_opts {
	size_t sz;		/* sizeof(struct pk_catalog_dir_opts) */
	const char *only_arch;
	const char *only_model;
	/*
	 * Read only the model a mapfile row matches this identifier to (and the
	 * arch's standard events): a few files instead of the whole tree. When
	 * no row matches (a model name, say) every model is read.
	 */
	const char *only_cpuid;
};
PK_API int pk_catalog__open_dir(struct pk_catalog **out, const char *dir,
				const struct pk_catalog_dir_opts *opts, struct pk_error *err);

/* Wrap an image produced by pk_image__build (takes ownership of buf, free()d). */
PK_API int pk_catalog__open_image(struct pk_catalog **out, void *buf, size_t size, bool owned,
				  struct pk_error *err);

PK_API void pk_catalog__free(struct pk_catalog *cat);

PK_API size_t pk_catalog__nr_models(const struct pk_catalog *cat);
PK_API int pk_catalog__model(const struct pk_catalog *cat, size_t idx, struct pk_model *out);
/*
 * Find a model by "arch/name", by name alone ("arm/neoverse-n1"), or by the
 * name's last component ("neoverse-n1"); the first model that fits wins.
 */
PK_API int pk_catalog__find_model(const struct pk_catalog *cat, const char *name, size_t *idx);

PK_API size_t pk_catalog__nr_maps(const struct pk_catalog *cat);
PK_API int pk_catalog__map(const struct pk_catalog *cat, size_t idx, struct pk_map_entry *out);

/*
 * The model for a CPU identifier, matched as perf matches it (x86 regular
 * expressions over vendor-family-model[-stepping], arm64 MIDR with variant and
 * revision compared as versions, powerpc PVR, s390, riscv). arch may be NULL:
 * every arch is tried. Returns 0 and the map row index, or -ENOENT.
 */
PK_API int pk_catalog__match_cpuid(const struct pk_catalog *cat, const char *arch,
				   const char *cpuid, size_t *map_idx);

/* Events of a model, sorted by (name, pmu). */
PK_API int pk_catalog__event(struct pk_catalog *cat, size_t model, size_t idx,
			     struct pk_event *out);
/*
 * The same without desc and long_desc (left NULL): descriptions are stored
 * compressed, so scans that only need names and encodings should use this.
 */
PK_API int pk_catalog__event_brief(const struct pk_catalog *cat, size_t model, size_t idx,
				   struct pk_event *out);
/*
 * Case-insensitive O(1) lookup. Several PMUs may have an event of the same
 * name (cpu_core and cpu_atom): *first and *count give the range of indexes.
 * pmu may be NULL (any) or a PMU name to restrict the range to.
 */
PK_API int pk_catalog__find_event(const struct pk_catalog *cat, size_t model, const char *name,
				  const char *pmu, size_t *first, size_t *count);

PK_API int pk_catalog__metric(struct pk_catalog *cat, size_t model, size_t idx,
			      struct pk_metric *out);
PK_API int pk_catalog__find_metric(const struct pk_catalog *cat, size_t model, const char *name,
				   size_t *idx);
PK_API int pk_catalog__metric_group(struct pk_catalog *cat, size_t model, size_t idx,
				    struct pk_metric_group *out);

#ifdef __cplusplus
}
#endif
#endif
