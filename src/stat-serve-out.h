/* SPDX-License-Identifier: MIT */
/*
 * stat-serve-out.h — `pmukit stat -I MS --openmetrics FILE` and `--push URL`
 * (stat-serve-out.c): at each interval, the exporter's families with the
 * interval's timestamp, appended to an OpenMetrics file (for `promtool tsdb
 * create-blocks-from openmetrics`) and POSTed to a VictoriaMetrics import
 * endpoint.
 */
#ifndef PMUKIT_STAT_SERVE_OUT_H
#define PMUKIT_STAT_SERVE_OUT_H

#include <stddef.h>

#include "cli.h"
#include "stat-live.h"
#include "stat-metrics.h"

struct serve_out;

/*
 * For st's cfg->openmetrics_path and cfg->push_url: the file created (or
 * stdout for "-"), the URL checked; st->on_interval set. Errors on stderr;
 * 0 or -1.
 */
int serve_out__open(struct serve_out **out, struct stat_live *st, struct stat_metrics *sm,
		    size_t first_metric_ev, struct cli_env *env);
/* The file ended with "# EOF" and closed; a summary of failed pushes. 0, or -1 (a write failed). */
int serve_out__close(struct serve_out *o);

#endif
