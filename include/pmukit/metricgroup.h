/* SPDX-License-Identifier: MIT */
/*
 * pmukit/metricgroup.h — perf stat's -M METRIC|GROUP,... and --topdown:
 * select catalog metrics by name or metric group as perf 6.12 does, expand
 * them to the events they need, write those events as one event
 * specification for pk_evlist__add (weak groups, events shared between
 * metrics as perf shares them), and compute every selected metric from the
 * counts, scaled by its ScaleUnit, with its MetricThreshold.
 *
 *   struct pk_metricgroup *mg;
 *   struct pk_spec_error err;
 *   struct pk_metricgroup_opts o = { .sz = sizeof(o), .pmus = tree, .consts = facts };
 *   if (pk_metricgroup__new(&mg, cat, model, "IPC,TopdownL1", &o, &err))
 *           die(pk_spec_error__format(&err, "IPC,TopdownL1", buf, sizeof(buf)));
 *   size_t first = pk_evlist__nr(el);
 *   if (*pk_metricgroup__spec(mg))
 *           pk_evlist__add(el, pk_metricgroup__spec(mg), &spec_opts, &serr);
 *   for (size_t i = first; i < pk_evlist__nr(el); i++)      // evsel -> event
 *           ev_of[i] = pk_metricgroup__event_at(mg, pk_evlist__evsel(el, i)->spec_off);
 *   ... count, then per interval / aggregate:
 *   pk_metricgroup__eval(mg, my_counts, ctx, values);       // one per metric
 *
 * CLI mapping (pmukit stat):
 *   -M A,B      pk_metricgroup__new(&mg, cat, model, "A,B", ...); several -M
 *               are joined with ',' as perf does. --metric-no-group,
 *               --metric-no-merge, --metric-no-threshold and --cputype set
 *               the options of the same name.
 *   --topdown [--td-level N]
 *               pk_topdown__metric_list() gives the -M list ("TopdownL<N>");
 *               build it with no_threshold set (perf does); when it or the
 *               spec fails, pk_topdown__check() says in one line why.
 *   --counts FILE -M ...
 *               pmukit/countsfile.h reads perf stat -j output and evaluates
 *               with pk_metricgroup__eval_named(); no spec is opened.
 *
 * Selection (perf's metricgroup__parse_groups): the list is split at ',';
 * an item "NAME:MOD" applies event modifiers MOD to every event of what NAME
 * selects. An item selects every metric (of the core model and of the sys
 * models whose Compat matches a PMU of the tree) whose name is NAME or one
 * of whose ';'-separated MetricGroup entries is NAME, case-insensitively;
 * "all" selects every metric and "No_group" those without a MetricGroup.
 * An item that selects nothing is an error pointing at the item, with the
 * nearest metric or group name as hint. A metric selected twice (same
 * modifier) is kept once, at its first selection.
 *
 * Each selected metric needs the events of its MetricExpr, through the
 * metrics it references, and of its MetricThreshold (unless no_threshold),
 * minus branches that the machine facts rule out ("A if #smt_on else B").
 * Its events are a weak group "{...}:W" unless no_group is set, the item
 * named one of its MetricgroupNoGroup groups (e.g. TopdownL1 on Ice Lake),
 * or its MetricConstraint says otherwise (NO_GROUP_EVENTS always,
 * NO_GROUP_EVENTS_NMI when the NMI watchdog is on, NO_GROUP_EVENTS_SMT when
 * SMT is on or unknown).
 *
 * Sharing (unless no_merge), as perf 6.12: metrics are sorted by how many
 * events they need, most first (ties: the reverse of selection order, as
 * perf's list insertion leaves them); the events of every ungrouped metric without modifier are opened
 * once, ungrouped, together; a grouped metric whose events are all in the
 * group of a metric before it (same PMU, same modifier) reads that group.
 * Differences from perf, on purpose: events are listed in order of first
 * appearance (perf: hash order); tool events (duration_time, user_time,
 * system_time) are never opened: they are events with `tool` set whose
 * values, in seconds, the caller supplies; an event set that ends up empty
 * is left out (perf adds duration_time to keep its parser happy).
 *
 * Spelling of the events: "pmu@terms@" identifiers become "pmu/terms/"
 * ("msr@tsc@" -> "msr/tsc/"); on a hybrid tree (several core PMUs) the
 * events of a metric of cpu_core or cpu_atom that the PMU knows (table or
 * sysfs alias, legacy hardware and cache names) are written "cpu_core/NAME/"
 * so that they are opened on that PMU only; TopDown events of a PMU with
 * perf metrics (a type-4 core PMU with a "slots" alias: Ice Lake and later)
 * that perf 6.12 would force into a group (names containing "topdown" or
 * "slots", not "uops_retired.slots") are put in one group, slots first, also
 * for ungrouped metrics, since pk_evlist__add (perf 6.1's rules) requires it.
 *
 * Objects are opaque and owned by the caller; no global state. The catalog,
 * the PMU tree and the consts context given at creation must outlive the
 * object.
 */
#ifndef PMUKIT_METRICGROUP_H
#define PMUKIT_METRICGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/api.h>
#include <pmukit/events.h>
#include <pmukit/metric.h>
#include <pmukit/pmu.h>
#include <pmukit/spec.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_metricgroup;

struct pk_metricgroup_opts {
	size_t sz;			/* sizeof(struct pk_metricgroup_opts) */
	/*
	 * The PMU tree the events will be opened on, or NULL: hybrid
	 * prefixes, TopDown grouping, sys metrics (matched by Compat against
	 * the PMUs' identifiers), #slots (caps/slots of a core PMU) and
	 * has_event() (the event encodes on the tree) come from it.
	 */
	const struct pk_pmu_tree *pmus;
	const char *pmu;		/* only metrics of this PMU (perf's --cputype), NULL: all */
	const char *cpuid;		/* answers strcmp_cpuid_str() (pk_cpuid__match), or NULL */
	bool no_group;			/* --metric-no-group */
	bool no_merge;			/* --metric-no-merge */
	bool no_threshold;		/* --metric-no-threshold: no events for thresholds */
	bool nmi_watchdog;		/* kernel.nmi_watchdog is on (perf reads it; the caller must) */
	/*
	 * Machine facts, asked for LITERAL ("#smt_on", "#num_cpus", ...),
	 * HAS_EVENT and CPUID identifiers before the defaults above, both
	 * when choosing events and when evaluating; -ENOENT: unknown (both
	 * branches of an "if" on it are kept; evaluating a metric that needs
	 * an unknown literal fails with -ENOENT). NULL: nothing known.
	 */
	pk_mexpr_lookup_fn consts;
	void *consts_ctx;
};

/* One selected metric. */
struct pk_metricgroup_metric {
	const char *name;		/* "IPC", or "IPC:u" when the item had a modifier */
	const char *metric;		/* the catalog's name ("IPC") */
	const char *pmu;		/* the catalog's PMU: "default_core", "cpu_core", "arm_cmn" ... */
	const char *modifier;		/* "u" for "IPC:u", else NULL */
	const char *scale_unit;		/* ScaleUnit as written ("100%"), or NULL */
	const char *desc;		/* BriefDescription, or NULL */
	const char *threshold;		/* MetricThreshold, or NULL */
	const char *default_group;	/* DefaultMetricgroupName, or NULL */
	size_t model, idx;		/* catalog model (the core model or a sys model) and index */
	size_t item;			/* the list item that selected it (0-based) */
	bool grouped;			/* its events were asked for as one weak group */
	bool nmi_ungrouped;		/* not grouped because of NO_GROUP_EVENTS_NMI and the NMI
					 * watchdog: perf warns and suggests disabling the watchdog */
	size_t nr_events;		/* events it reads (tool events included) */
	const size_t *events;		/* their indexes for pk_metricgroup__event() */
};

/* One event to read: an event of the spec, or a tool event the caller supplies. */
struct pk_metricgroup_event {
	const char *id;			/* as the expressions name it (unescaped): "INST_RETIRED.ANY",
					 * "msr@tsc@", "topdown-retiring", "duration_time" */
	const char *spec;		/* as written in the spec: "cpu_core/INST_RETIRED.ANY/",
					 * "msr/tsc/", "INST_RETIRED.ANY:u"; NULL for tool events */
	const char *name;		/* as perf prints it ("msr/tsc/", "INST_RETIRED.ANY:u", the spec
					 * text for hybrid-prefixed events) */
	const char *pmu;		/* the PMU it was written for ("cpu_core", "msr"), or NULL */
	unsigned spec_off, spec_len;	/* its bytes in pk_metricgroup__spec() (0, 0 for tool events) */
	size_t set;			/* event set: a metric's own group, or the shared ungrouped set */
	bool grouped;			/* inside a "{...}" of the spec */
	bool tool;			/* duration_time, user_time, system_time: not in the spec;
					 * its value is seconds (wall clock, user, system time) */
	size_t nr_metrics;		/* selected metrics reading it */
	const size_t *metrics;		/* their indexes for pk_metricgroup__metric() */
};

/*
 * Select the metrics of LIST for the core model MODEL of cat (PK_NO_MODEL:
 * sys metrics only), choose their events and write the spec. opts may be
 * NULL (defaults: no tree, nothing known). Errors: -EINVAL with err pointing
 * at the item of LIST that selects nothing (hint: the nearest name) or at an
 * empty item, or naming a metric whose expression does not parse; -ELOOP
 * for a reference cycle; -ENOMEM. err may be NULL; format it with
 * pk_spec_error__format(err, LIST, ...).
 */
PK_API int pk_metricgroup__new(struct pk_metricgroup **out, struct pk_catalog *cat, size_t model,
			       const char *list, const struct pk_metricgroup_opts *opts,
			       struct pk_spec_error *err);
PK_API void pk_metricgroup__free(struct pk_metricgroup *mg);

/* Selected metrics in perf's order (see above). */
PK_API size_t pk_metricgroup__nr_metrics(const struct pk_metricgroup *mg);
PK_API const struct pk_metricgroup_metric *pk_metricgroup__metric(const struct pk_metricgroup *mg,
								  size_t idx);
/* Events in spec order, then the tool events. */
PK_API size_t pk_metricgroup__nr_events(const struct pk_metricgroup *mg);
PK_API const struct pk_metricgroup_event *pk_metricgroup__event(const struct pk_metricgroup *mg,
								size_t idx);

/*
 * The events to open, in perf's event syntax for pk_evlist__add ("" when
 * every value needed is a tool event or a constant: then open nothing).
 * Each event of the spec may become several evsels (uncore units, hybrid
 * PMUs): their counts add up to the event's value.
 */
PK_API const char *pk_metricgroup__spec(const struct pk_metricgroup *mg);
/* The event written at byte spec_off of the spec (pk_evsel.spec_off), or -ENOENT. */
PK_API long pk_metricgroup__event_at(const struct pk_metricgroup *mg, unsigned spec_off);

/*
 * Does an event name as perf or pmukit print it ("INST_RETIRED.ANY",
 * "cpu_core/INST_RETIRED.ANY/", "cpu/event=0x3c/u", "msr/tsc/", "slots",
 * "duration_time") designate event idx? Names compare case-insensitively
 * after taking off a "PMU/.../" wrapping and ":MODS": the PMUs must agree
 * when both have one, modifiers must be the same set, and "slots" equals
 * "TOPDOWN.SLOTS", "cycles" "cpu-cycles" (perf's symbol aliases).
 */
PK_API bool pk_metricgroup__event_matches(const struct pk_metricgroup *mg, size_t idx,
					  const char *name);

/* --- computing the metrics ------------------------------------------------------------ */

/*
 * One metric's result. value is the expression (NaN when an operand was
 * not supported, a denominator zero ...); scaled is value times the
 * ScaleUnit's number, unit its label ("%", "MPKI", "" without ScaleUnit).
 * threshold: 1 when MetricThreshold is exceeded (perf prints it red), 0 when
 * not (green), -1 when the metric has none or it is NaN. error: 0, or the
 * negative errno that stopped the evaluation (-EDOM '%' by zero, -ENOENT an
 * unknown machine fact, -EINVAL a broken expression); value is NaN then.
 */
struct pk_metricgroup_value {
	double value;
	double scaled;
	const char *unit;
	int threshold;
	int error;
};

/*
 * The value of event idx for one aggregate (a CPU, the whole run, one
 * interval ...): the count, scaled for multiplexing, summed over the evsels
 * the event became; NaN when it was not supported (perf's <not supported>),
 * 0 when it never ran (<not counted>); seconds for tool events. *sources
 * starts at 1: set it to the number of counters summed (uncore units), which
 * source_count() returns. Return 0, -ENOENT (unknown: NaN), or another
 * negative errno to stop.
 */
typedef int (*pk_metricgroup_count_fn)(void *ctx, size_t idx, double *value, unsigned *sources);

/*
 * Compute every selected metric into out[0 .. nr_metrics) (each root
 * metric with its own events, references included, as perf does). Returns
 * 0, or fn's error (out then undefined).
 */
PK_API int pk_metricgroup__eval(struct pk_metricgroup *mg, pk_metricgroup_count_fn fn, void *ctx,
				struct pk_metricgroup_value *out);

/* Counts by the name perf printed (offline: pmukit/countsfile.h). */
struct pk_metricgroup_named {
	const char *name;		/* as printed; see pk_metricgroup__event_matches */
	double value;			/* raw count (unscaled by any event unit), NaN unsupported;
					 * tool events in seconds */
};

/*
 * The same from named counts: each event takes the sum of the counts whose
 * names match it (a name listed twice counts once), and source_count() is
 * the number of names summed; an event no name matches is NaN.
 */
PK_API int pk_metricgroup__eval_named(struct pk_metricgroup *mg,
				      const struct pk_metricgroup_named *counts, size_t nr,
				      struct pk_metricgroup_value *out);

/* --- TopDown ------------------------------------------------------------------------------ */

/* The highest N of a metric group "TopdownL<N>" of MODEL (perf: 0 when none). */
PK_API unsigned pk_topdown__max_level(struct pk_catalog *cat, size_t model);

/*
 * The -M list of --topdown --td-level LEVEL (0: 1), perf 6.12's: the group
 * "TopdownL<LEVEL>" alone (level 2 lists the level 2 metrics, not level 1's).
 * Returns 0, -ENOENT when MODEL has no TopdownL groups, -ERANGE when LEVEL is
 * above the highest, with a one-line reason in why (may be NULL).
 */
PK_API int pk_topdown__metric_list(struct pk_catalog *cat, size_t model, unsigned level, char *buf,
				   size_t len, char *why, size_t why_len);

/*
 * Why --topdown cannot run on this machine, in one line: no tables for the
 * CPU, no TopdownL groups for the model, the level too high, no core PMU in
 * the tree (a VM without a virtual PMU), or an event the metrics need that
 * the tree's PMUs do not have (e.g. a kernel without perf-metrics support
 * hiding topdown-retiring). Builds the selection and encodes its spec with
 * pk_evlist__add on pmus (stat mode). Returns 0 (why = "") when it can run,
 * else a negative errno.
 */
PK_API int pk_topdown__check(struct pk_catalog *cat, size_t model, unsigned level,
			     const struct pk_pmu_tree *pmus, const struct pk_metricgroup_opts *opts,
			     char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
