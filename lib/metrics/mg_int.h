/* SPDX-License-Identifier: MIT */
/*
 * metrics/mg_int.h — the inside of a pk_metricgroup, shared by the
 * selection and scheduling code (metricgroup.c, mg_sched.c), the evaluation
 * and TopDown code (mg_eval.c) and the counts-file evaluation
 * (countsfile_eval.c).
 */
#ifndef PMUKIT_METRICS_MG_INT_H
#define PMUKIT_METRICS_MG_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/metricgroup.h>

#include "util/arena.h"

/* A growable array of size_t. */
struct mg_idx {
	size_t *v;
	size_t n, cap;
};

int mg_idx__push(struct mg_idx *a, size_t x);

/* One distinct event identifier a selected metric needs. */
struct mg_id {
	const char *name;	/* as the expression names it (unescaped) */
	const char *spec;	/* spelled for the spec (NULL for tool events) */
	size_t event;		/* index in mg->events */
};

struct mg_metric {
	struct pk_metricgroup_metric pub;
	struct pk_metric m;		/* the catalog entry */
	size_t seq;			/* position in selection order */
	const struct pk_pmu *wrap;	/* hybrid PMU its core events are written for, or NULL */
	struct mg_id *ids;
	size_t nr_ids, cap_ids, nr_counted;	/* nr_counted: ids that are not tool events */
	size_t set;			/* event set it reads, (size_t)-1 when none */
	bool own_set;
	struct mg_idx events;
};

struct mg_event {
	struct pk_metricgroup_event pub;
	struct mg_idx metrics;
	/* for name matching: the PMU, the event and the modifiers of pub.name */
	char *m_pmu, *m_base, *m_mods;
};

/* An event set: the spellings of its events, in order. */
struct mg_set {
	bool grouped;
	size_t owner;			/* metric whose set it is ((size_t)-1: the shared one) */
	const char **specs;
	const char **ids;		/* the identifier each spelling came from first */
	size_t n, cap;
};

struct mg_evaluator {
	size_t model;
	struct pk_metric_eval *ev;
};

struct pk_metricgroup {
	struct pk_catalog *cat;
	size_t model;
	struct pk_metricgroup_opts opts;
	struct pk_arena arena;		/* strings */

	/* the tree's facts */
	size_t nr_core_pmus;
	const struct pk_pmu *td_pmu;	/* the type-4 core PMU with a slots event, or NULL */

	struct mg_metric *metrics;	/* in perf's order once scheduled */
	size_t nr_metrics, cap_metrics;
	struct mg_set *sets;
	size_t nr_sets, cap_sets;
	struct mg_event *events;
	size_t nr_events, cap_events;
	char *spec;

	struct mg_evaluator *evs;
	size_t nr_evs, cap_evs;
};

/* The evaluator of a catalog model (created on first use), or NULL on ENOMEM. */
struct pk_metric_eval *mg_evaluator(struct pk_metricgroup *mg, size_t model);
/* Machine facts: opts->consts first, then cpuid, the tree's caps/slots and has_event(). */
int mg_consts(void *vmg, const struct pk_mexpr_id *id, double *v);
/* Choose the event sets, write the spec and the events (mg_sched.c). */
int mg_schedule(struct pk_metricgroup *mg, bool is_default);
/* perf's tool events (exact names). */
bool mg_is_tool(const char *name);
/* Split NAME, copied into buf, at "pmu/base/mods" or "base:mods" (pmu NULL, mods "" when none). */
void mg_split(const char *name, char *buf, size_t len, char **pmu, char **base, char **mods);
/* The same into arena copies. */
int mg_split_name(struct pk_arena *a, const char *name, char **pmu, char **base, char **mods);
/* Case-insensitive equality with perf's aliases (slots = TOPDOWN.SLOTS, cycles = cpu-cycles). */
bool mg_same_event_name(const char *a, const char *b);
/* Same modifier letters, in any order. */
bool mg_same_mods(const char *a, const char *b);

#endif
