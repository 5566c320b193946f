/* SPDX-License-Identifier: MIT */
/*
 * stat.h — what `pmukit stat` prints, independent of where the counts come
 * from (live counters or a --counts file): a frame of cells, one per
 * (aggregation id, event), printed by stat-print.c as perf stat's text, CSV
 * (-x) or JSON (-j) lines with perf's shadow metrics and -M metrics.
 */
#ifndef PMUKIT_STAT_H
#define PMUKIT_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pmukit/count.h>
#include <pmukit/shadow.h>

/* Aggregation modes, as perf stat's options choose them. */
enum stat_aggr {
	STAT_AGGR_GLOBAL,	/* default: everything summed */
	STAT_AGGR_CPU,		/* -A / --no-aggr: one line per CPU */
	STAT_AGGR_CORE,		/* --per-core */
	STAT_AGGR_DIE,		/* --per-die */
	STAT_AGGR_SOCKET,	/* --per-socket */
	STAT_AGGR_THREAD,	/* --per-thread: event by event, threads by count, descending */
};

/* One event column. */
struct stat_ev {
	const char *name;	/* as perf prints it */
	const char *unit;	/* "msec", a sysfs .unit, or NULL */
	double scale;		/* printed value = count * scale (clocks: 1e-6, ns -> msec) */
	enum pk_shadow_kind kind;	/* its role in perf's built-in metrics */
	const char *pmu;	/* shadow ratios pair events of one PMU; NULL: any */
	const char *cgroup;	/* -G: the cgroup it counts in; NULL: all tasks */
	unsigned ctx;		/* and of one context: pk_shadow__ctx_of_attr() (perf's evsel_context) */
	bool frac;		/* print two decimals (a non-integer scale or a unit) */
	bool tool;		/* duration_time, user_time, system_time: one value, not per CPU */
};

/* One value: a count of one event for one aggregation id. */
struct stat_cell {
	enum pk_count_status status;
	double val;		/* scaled for multiplexing, before stat_ev.scale */
	uint64_t ena, run;	/* ns */
	double noise;		/* -r: relative standard deviation of val, percent */
};

struct stat_id {
	char label[96];		/* "CPU3", "S0-D0-C1", "S0", "comm-tid"; "" for global */
	int cpu;		/* STAT_AGGR_CPU: the CPU number; -1 otherwise */
	int nr;			/* CPUs aggregated (perf's aggregate-number) */
	bool hidden;		/* not printed (a --per-thread thread gone before it was counted) */
};

/*
 * One metric value to print next to an event: its value already scaled by
 * ScaleUnit, the label perf prints ("%  tma_retiring", "insn per cycle").
 */
struct stat_metric {
	double val;
	bool valid;		/* false: printed as an empty metric (perf: NULL fmt) */
	const char *fmt;	/* printf format of the value ("%8.1f") */
	char label[160];
	int threshold;		/* 1 exceeded, 0 not, -1 unknown/none */
};

/* Metrics a frame's event has beyond the shadow ones (-M), filled by a provider. */
struct stat_frame;
typedef size_t (*stat_metrics_fn)(void *ctx, const struct stat_frame *fr, size_t id, size_t ev,
				  struct stat_metric *out, size_t max);

struct stat_frame {
	size_t nr_ev, nr_id;
	const struct stat_ev *ev;
	const struct stat_id *id;
	const struct stat_cell *cell;	/* [id * nr_ev + ev] */
	double interval;		/* -I: seconds since start; < 0 without -I */
	double wall_ns;			/* elapsed time the counts cover (CPUs utilized) */
	double user_ns, sys_ns;		/* the workload's user and system time (0: unknown) */
	unsigned long seq;		/* differs between frames: metric providers cache by it */
	bool skip_zero;			/* -a --per-thread: rows that counted 0 are not printed (perf) */
	stat_metrics_fn metrics;	/* may be NULL */
	void *metrics_ctx;
};

static inline const struct stat_cell *stat_frame__cell(const struct stat_frame *fr, size_t id,
						       size_t ev)
{
	return &fr->cell[id * fr->nr_ev + ev];
}

struct stat_print_opts {
	FILE *out;
	enum stat_aggr aggr;
	const char *sep;	/* -x: CSV separator; NULL otherwise */
	bool json;		/* -j */
	bool interval;		/* -I given: timestamps, the header every 25 prints */
	int runs;		/* -r N (1 without) */
	bool null_run;		/* -n: no counter lines */
	bool runs_unknown;	/* saved counts with noise: no "(N runs)", the file does not say */
	bool big_num;		/* thousands separators in text output (perf's default) */
	bool color;		/* colour metrics past their threshold (a terminal) */
	bool no_metric_shadow;	/* don't print perf's built-in metrics */
	bool metric_only;	/* --metric-only (--topdown): a column per -M metric, no events */
};

struct stat_printer {
	struct stat_print_opts o;
	unsigned nr_interval_prints;	/* perf repeats the interval header every 25 */
	uint32_t kinds;			/* the frame being printed: 1 << kind of each event */
	struct pk_shadow_value *shadow;	/* its counts for pk_shadow__metrics, built when needed */
	bool cgroups;			/* the frame has -G events: perf's cgroup column on every line */
};

void stat_printer__init(struct stat_printer *p, const struct stat_print_opts *o);
/* "\n Performance counter stats for 'CMD' (N runs):\n\n" (text, not -I). */
void stat_printer__header(struct stat_printer *p, const char *target);
/* Every line of one frame. */
void stat_printer__frame(struct stat_printer *p, const struct stat_frame *fr);
/* The elapsed/user/sys footer (text). elapsed_noise: -r stddev of elapsed (s). */
void stat_printer__footer(struct stat_printer *p, double elapsed_s, double elapsed_stddev_s,
			  double user_s, double sys_s, bool show_rusage);

/* stat-shadow.c: perf's built-in metrics of event e in aggregation id (pmukit/shadow.h), into
 * m[0..1]; returns how many (instructions may add stalled cycles per insn). */
size_t stat_printer__shadow(struct stat_printer *p, const struct stat_frame *fr, size_t id,
			    size_t e, struct stat_metric *m);
/* The end of a frame: what stat_printer__shadow built for it freed. */
void stat_printer__frame_done(struct stat_printer *p);
/* m set to fmt (NULL: nothing to show) and val, with label */
void stat_metric__set(struct stat_metric *m, const char *fmt, double val, const char *label);

/* Options of one `pmukit stat` command. */
struct stat_config {
	const char **specs;
	size_t nr_specs;
	enum stat_aggr aggr;
	bool system_wide;		/* -a */
	const char *cpu_list;		/* -C */
	const char *pid_list;		/* -p */
	const char *tid_list;		/* -t */
	double interval_ms;		/* -I; 0: off */
	unsigned interval_count;	/* --interval-count; 0: no limit */
	int runs;			/* -r */
	double timeout_ms;		/* --timeout; 0: none */
	double delay_ms;		/* -D; 0: none */
	bool null_run;			/* -n: no counters, elapsed time only */
	const char *sep;		/* -x */
	bool json;			/* -j */
	bool big_num;			/* -B (default on) / --no-big-num */
	bool big_num_given;		/* -B typed (perf refuses it with -x) */
	bool no_inherit;		/* -i */
	const char *output_path;	/* -o */
	bool append;			/* --append */
	const char *metrics;		/* -M */
	int topdown_level;		/* --topdown: 1 (--td-level N: N); 0 off */
	bool record_tpebs;		/* --record-tpebs */
	bool metric_no_group, metric_no_merge, metric_no_threshold;
	bool metric_only;		/* --metric-only; --topdown implies it */
	const char *counts_path;	/* --counts FILE: offline */
	const char *serve;		/* --serve ADDR: a Prometheus exporter (stat-serve.c) */
	const char *cgroups;		/* -G LIST (stat-serve-cgroup.c) */
	size_t cgroup_specs;		/* -G names the events of the -e before it: how many -e */
	size_t cgroup_nr_ev;		/* and their events (set before stat_live__init) */
	const char *each_cgroup;	/* --for-each-cgroup LIST */
	char *each_names;		/* its cgroups, a comma list (serve_cgroups__expand) */
	size_t nr_each;			/* how many */
	const char *openmetrics_path;	/* -I --openmetrics FILE: each interval's families (stat-serve-out.c) */
	const char *push_url;		/* -I --push URL: each interval's samples POSTed there */
	char **argv;			/* the workload, NULL without */
	FILE *out;			/* where the counts go (stderr, or -o) */
};

#endif
