/* SPDX-License-Identifier: MIT */
/*
 * stat-live.h — live counting for `pmukit stat`: the counters of one
 * target (a workload, CPUs, tasks), read and aggregated into the ids
 * stat-print.c prints (CPU, core, die, socket, or everything).
 */
#ifndef PMUKIT_STAT_LIVE_H
#define PMUKIT_STAT_LIVE_H

#include <pmukit/count.h>
#include <pmukit/cpumap.h>
#include <pmukit/topology.h>

#include "cli.h"
#include "stat-serve-cgroup.h"
#include "stat.h"

enum stat_tool { STAT_TOOL_NONE, STAT_TOOL_DURATION, STAT_TOOL_USER, STAT_TOOL_SYSTEM };

struct stat_live {
	const struct stat_config *cfg;
	const struct pk_evlist *el;
	const struct cli_env *env;
	struct pk_counter *cnt;
	size_t nr_ev;			/* events (evlist order) */
	size_t nr_ids;			/* aggregation ids printed */
	unsigned char *tool;		/* [ev]: enum stat_tool */
	struct stat_cell *cells;	/* [id * nr_ev + ev] */
	struct stat_ev *ev;
	struct stat_id *ids;
	struct pk_aggr_id *aggr;	/* [id]: the topology key of each id */
	enum pk_stat_aggr mode;
	struct stat_frame frame;	/* ev, ids; cells and times set per print */
	unsigned long seq;		/* frames printed */
	bool enable_after_open;		/* -a, -C, -p, -t: opened disabled, enabled at start */
	bool show_rusage;		/* a workload alone: print user and sys times */
	struct pk_cpu_map *cpus;	/* -a/-C: the CPUs counted; NULL per task */
	struct pk_topology *topo;
	pid_t *tids;			/* -p/-t: the threads counted */
	size_t nr_tids;
	struct serve_cgroups cg;	/* -G: each event's cgroup (cg.fd NULL without) */
	long long read_ms;		/* the last read: CLOCK_REALTIME, ms since the epoch */
	/* -I: called after each interval is printed (--openmetrics, --push), or NULL */
	void (*on_interval)(void *ctx);
	void *on_interval_ctx;
};

/* Build from the options and the evlist; prints its own errors. 0 or -1. */
int stat_live__init(struct stat_live *st, const struct stat_config *cfg, const struct cli_env *env,
		    const struct pk_evlist *el);
void stat_live__fini(struct stat_live *st);
/* "'true'", "'system wide'", "'CPU(s) 0-1'", "process id '42'" */
void stat_live__target(const struct stat_live *st, char *buf, size_t len);
/*
 * Open the counters. An event the machine lacks leading a group of several
 * fails the run as perf fails it: err->code STAT_GROUP_UNSUPPORTED, err->msg
 * in perf's words ("The cycles event is not supported.").
 */
#define STAT_GROUP_UNSUPPORTED (-1000)
int stat_live__open(struct stat_live *st, pid_t workload, struct pk_error *err);
void stat_live__close(struct stat_live *st);
/*
 * Read the counters into st->cells, per aggregation id: cumulative, or
 * (delta) the change since the previous read.
 */
void stat_live__read(struct stat_live *st, bool delta);
/* st->cells again from the last read, without reading: cumulative, or (delta) its change. */
void stat_live__cells(struct stat_live *st, bool delta);
/* Run (with -r repeats, -I intervals) and print. *exit_code: the command's exit. */
int stat_live__run(struct stat_live *st, struct stat_printer *pr, const char *target, int *exit_code);

#endif
