/* SPDX-License-Identifier: MIT */
/*
 * stat-serve.h — `pmukit stat --serve ADDR`: a Prometheus exporter of the
 * counters stat opens (stat-serve.c), read when /metrics is scraped and
 * written by the library's exposition (pmukit/expose.h).
 */
#ifndef PMUKIT_STAT_SERVE_H
#define PMUKIT_STAT_SERVE_H

#include <stddef.h>

#include "cli.h"
#include "stat-live.h"
#include "stat-metrics.h"
#include "stat.h"

/* Options --serve cannot go with: a message on stderr and -1, else 0. */
int stat_serve__check(const struct stat_config *cfg);

/*
 * Open the counters of st, listen on cfg->serve and answer scrapes until
 * SIGINT or SIGTERM. The metric events (sm) are st's evsels from
 * first_metric_ev on. Returns the exit code.
 */
int stat_serve__run(struct stat_live *st, struct stat_metrics *sm, size_t first_metric_ev,
		    struct cli_env *env);

/*
 * The exporter's families for -I --openmetrics and --push
 * (stat-serve-out.c): the labels, metrics and ratios of st's events, set
 * up once; NULL when out of memory.
 */
struct serve;
struct pk_expose_opts;
struct serve *stat_serve__new(struct stat_live *st, struct stat_metrics *sm, size_t first_metric_ev,
			      struct cli_env *env);
/* The families of st's counters as last read (cumulative) into *body (malloc'd). 0 or -1. */
int stat_serve__expose(struct serve *sv, const struct pk_expose_opts *o, char **body, size_t *len);
void stat_serve__free(struct serve *sv);

#endif
