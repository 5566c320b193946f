/* SPDX-License-Identifier: MIT */
/*
 * events/ir.h — the intermediate representation of a JSON arch/ tree: what
 * json_tree.c reads (mapfiles, models, events already translated to perf's
 * alias encoding, metrics, metric-group descriptions) and what image_build.c
 * turns into the compact image used at run time. eventc and the run-time
 * loader share it, so built-in and --events-dir tables agree by construction.
 */
#ifndef PMUKIT_EVENTS_IR_H
#define PMUKIT_EVENTS_IR_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/error.h>

#include "util/arena.h"

/* One JSON entry with an EventName (strings live in the tree's arena). */
struct ir_event {
	const char *name;	/* lower-cased EventName */
	const char *pmu;	/* perf PMU name from Unit ("default_core" when absent) */
	const char *topic;	/* from the file name: "Cache.json" -> "cache" */
	const char *encoding;	/* "event=0x3c,umask=0x1,period=2000003" */
	const char *desc;	/* BriefDescription, fixed up as perf does; NULL if none */
	const char *long_desc;	/* PublicDescription, same */
	const char *compat;
	const char *unit;	/* ScaleUnit */
	bool deprecated, perpkg, experimental;
	const char *file;	/* source file (relative to the tree root), for errors */
	unsigned line;
};

/* One JSON entry with a MetricName. */
struct ir_metric {
	const char *name;
	const char *pmu;
	const char *expr;
	const char *threshold;
	const char *groups;
	const char *nogroup;
	const char *default_group;
	const char *desc;
	const char *long_desc;
	const char *unit;
	const char *compat;
	int aggr_mode;		/* enum pk_aggr_mode */
	int grouping;		/* enum pk_event_grouping */
	const char *file;
	unsigned line;
};

struct ir_group {
	const char *name;
	const char *desc;
};

struct ir_model {
	const char *arch;
	const char *name;	/* relative to the arch dir: "arm/cortex-a72", "imx8mm/sys" */
	bool sys;
	struct ir_event *events;
	size_t nr_events, cap_events;
	struct ir_metric *metrics;
	size_t nr_metrics, cap_metrics;
	struct ir_group *groups;
	size_t nr_groups, cap_groups;
};

struct ir_map {
	const char *arch;
	const char *cpuid;
	const char *version;
	const char *dir;
	const char *type;
	size_t model;		/* index into ir_tree.models */
};

struct ir_tree {
	struct pk_arena arena;
	struct ir_model *models;
	size_t nr_models, cap_models;
	struct ir_map *maps;
	size_t nr_maps, cap_maps;
};

struct ir_load_opts {
	const char *only_arch;	/* NULL: every arch */
	const char *only_model;	/* NULL: every model of the selected arches */
	int threads;		/* 0: pick; files are parsed in parallel */
	const char *only_cpuid;	/* the model a mapfile row matches it to, when one does */
};

/*
 * Read root (a directory holding x86/, arm64/, ...). On error returns a
 * negative errno, fills err (file, line, column, reason) and leaves tree empty.
 */
int ir_tree__load(struct ir_tree *tree, const char *root, const struct ir_load_opts *opts,
		  struct pk_error *err);
void ir_tree__free(struct ir_tree *tree);

#endif
