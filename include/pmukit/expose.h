/* SPDX-License-Identifier: MIT */
/*
 * pmukit/expose.h — counts and metrics of a counting session as Prometheus
 * metrics: the text exposition format 0.0.4 or OpenMetrics 1.0, for an
 * exporter's /metrics (`pmukit stat --serve`) or a file.
 *
 *   struct pk_expose_count c[] = {
 *           { .event = "context-switches", .pmu = "software", .value = v },
 *   };
 *   struct pk_expose_set s = { .counts = c, .nr_counts = 1, .cpuid = "GenuineIntel-6-55-4" };
 *   struct pk_expose_opts o = { .sz = sizeof(o),
 *                               .format = pk_expose__negotiate(accept_header) };
 *   char *text; size_t len;
 *   if (!pk_expose__write(&s, &o, &text, &len, &err))
 *           send(pk_expose__content_type(o.format), text, len), free(text);
 *
 * Families (OpenMetrics names; the text format names a counter family by its
 * sample, with "_total"):
 *   pmukit_event_total{event,pmu,LABELS}                  counter: the raw cumulative
 *           count, never scaled (a scaled cumulative value can go down and would
 *           read as a counter reset); only for events that counted
 *   pmukit_event_enabled_seconds_total{...}, pmukit_event_running_seconds_total{...}
 *           counters: the time the event was enabled and running, so that
 *           rate(total) * rate(enabled) / rate(running) scales over any window
 *   pmukit_event_state{event,pmu,LABELS,pmukit_event_state=S}   a state set (gauge in the
 *           text format): 1 for the event's state, 0 for the others; S is
 *           "counting", "not_counted" (never ran) or "not_supported"
 *   pmukit_metric_numerator_total{metric,LABELS}, pmukit_metric_denominator_total{...}
 *           counters: a ratio metric (-M, --topdown) as the cumulative operands of
 *           its division, so that a sum over hosts stays a ratio of sums
 *   pmukit_metric_value{metric,LABELS}       gauge: a metric that is not a ratio
 *   pmukit_metric_threshold_exceeded{metric,LABELS}   gauge 1/0: its MetricThreshold
 *   pmukit_metric_info{metric,unit,scale}    info: the ScaleUnit (the value shown is
 *           numerator / denominator * scale, in unit)
 *   pmukit_build_info{version}, pmukit_cpuid_info{cpuid},
 *   pmukit_cpu_info{cpu,socket,die,core}     info (gauge 1 in the text format)
 *
 * Label values are escaped as both formats require (\\, \", \n); HELP text
 * too. The output is one string the caller frees; nothing is kept.
 */
#ifndef PMUKIT_EXPOSE_H
#define PMUKIT_EXPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/api.h>
#include <pmukit/count.h>
#include <pmukit/error.h>
#include <pmukit/topology.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pk_expose_format {
	PK_EXPOSE_PROMETHEUS = 0,	/* text/plain; version=0.0.4 */
	PK_EXPOSE_OPENMETRICS,		/* application/openmetrics-text; version=1.0.0 */
};

/* One extra label of a series ("cpu" = "3", "socket" = "0", "cgroup" = "/a"). */
struct pk_expose_label {
	const char *name;	/* [a-zA-Z_][a-zA-Z0-9_]*, not "event", "pmu", "metric" */
	const char *value;	/* any UTF-8 */
};

/* One event's counts in one series (an aggregate, a CPU, a core ...). */
struct pk_expose_count {
	const char *event;	/* the event's name as perf prints it */
	const char *pmu;	/* its PMU ("cpu", "software"); NULL: "" */
	const struct pk_expose_label *labels;
	size_t nr_labels;
	struct pk_count_value value;	/* status, raw, enabled, running (scaled is not used) */
};

/* One metric in one series. */
struct pk_expose_metric {
	const char *metric;	/* its name ("tma_retiring", "IPC") */
	const char *unit;	/* ScaleUnit's unit ("%"); NULL: "" */
	double scale;		/* ScaleUnit's factor (100 for "100%"); 0: 1 */
	const struct pk_expose_label *labels;
	size_t nr_labels;
	bool ratio;		/* numerator / denominator; else value */
	double numerator, denominator;	/* cumulative; NaN or negative: not written */
	double value;		/* not a ratio: the value (scaled); NaN: not written */
	int threshold;		/* 1 exceeded, 0 not, -1 no threshold (not written) */
};

/* What to write. Arrays may be empty; strings NULL leave their family out. */
struct pk_expose_set {
	const struct pk_expose_count *counts;
	size_t nr_counts;
	const struct pk_expose_metric *metrics;
	size_t nr_metrics;
	const char *version;		/* pmukit_build_info; NULL: the library's */
	const char *cpuid;		/* pmukit_cpuid_info; NULL: none */
	const struct pk_topology *topo;	/* pmukit_cpu_info per online CPU; NULL: none */
};

struct pk_expose_opts {
	size_t sz;			/* sizeof(struct pk_expose_opts) */
	enum pk_expose_format format;	/* default: Prometheus text 0.0.4 */
	/*
	 * Milliseconds since the epoch on every sample (0: none, the scrape's
	 * time): OpenMetrics writes seconds ("1764259200.123"), the text format
	 * milliseconds, as each defines; for files to backfill and pushes.
	 */
	long long timestamp_ms;
	/*
	 * OpenMetrics without its final "# EOF": expositions of successive
	 * intervals written one after another, the caller ends the file with
	 * "# EOF" (Prometheus' parser takes families repeated with later
	 * timestamps, and nothing after an EOF).
	 */
	bool no_eof;
};

/*
 * The exposition of s into *out (malloc'd, NUL-terminated; *len its length,
 * len may be NULL). 0, -EINVAL (bad opts, a bad extra label name: err says
 * which), -ENOMEM.
 */
PK_API int pk_expose__write(const struct pk_expose_set *s, const struct pk_expose_opts *opts,
			    char **out, size_t *len, struct pk_error *err);

/* The Content-Type header of a format. */
PK_API const char *pk_expose__content_type(enum pk_expose_format f);

/*
 * The format an HTTP Accept header asks for: OpenMetrics when it lists
 * application/openmetrics-text (q > 0) before or above text/plain, else the
 * text format (also for NULL).
 */
PK_API enum pk_expose_format pk_expose__negotiate(const char *accept);

#ifdef __cplusplus
}
#endif
#endif
