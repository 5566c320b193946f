/* SPDX-License-Identifier: MIT */
/*
 * stat-metrics.h — -M metrics and --topdown for `pmukit stat`: which events
 * the metrics need, and their values printed next to the events of a frame,
 * live or from a --counts file.
 */
#ifndef PMUKIT_STAT_METRICS_H
#define PMUKIT_STAT_METRICS_H

#include <pmukit/spec.h>

#include "cli.h"
#include "stat.h"

struct stat_metrics;

/* *out stays NULL without -M or --topdown. Prints its own errors; 0 or -1. */
int stat_metrics__new(struct stat_metrics **out, const struct stat_config *cfg, struct cli_env *env);
void stat_metrics__free(struct stat_metrics *sm);
/* The events to open for the metrics, in perf's event syntax (NULL: none). */
const char *stat_metrics__spec(const struct stat_metrics *sm);
/* The metric events were added to el from index first on. 0 or -1. */
int stat_metrics__bind(struct stat_metrics *sm, const struct pk_evlist *el, size_t first);
/* Make frames print the metrics (frame->metrics, metrics_ctx). */
void stat_metrics__attach(struct stat_metrics *sm, struct stat_frame *fr);

/* After a live run: one line on stderr when none of the metric events could be counted. */
void stat_metrics__report(const struct stat_metrics *sm, const struct stat_frame *fr);

/*
 * Offline: frames whose events are named (a counts file); eval computes
 * every metric for one aggregation id of a frame.
 */
struct pk_metricgroup;
struct pk_metricgroup_value;
typedef int (*stat_metrics_eval_fn)(void *ctx, const struct stat_frame *fr, size_t id,
				    struct pk_metricgroup_value *out);
struct pk_metricgroup *stat_metrics__group(struct stat_metrics *sm);
/*
 * Assume #smt_on and #core_wide (0 or 1; -1: this machine's and this run's)
 * when evaluating, for counts saved on another machine.
 */
void stat_metrics__assume(struct stat_metrics *sm, int smt_on, int core_wide);
int stat_metrics__bind_names(struct stat_metrics *sm, const char *const *names, size_t nr,
			     stat_metrics_eval_fn eval, void *ctx);
/*
 * Offline: metric m could not be computed; __flush_missing (after the frame
 * is printed) names the events the file lacks, once per metric.
 */
void stat_metrics__tell_missing(struct stat_metrics *sm, size_t m);
void stat_metrics__flush_missing(struct stat_metrics *sm);

/* --counts FILE: read saved -j counts, print them with the metrics. 0 or -1. */
int stat_counts__run(const struct stat_config *cfg, struct cli_env *env, struct stat_metrics *sm,
		     struct stat_printer *pr);

#endif
