/* SPDX-License-Identifier: MIT */
/*
 * pmukit/countsfile.h — counts saved by `perf stat -j` (perf 6.1 and later,
 * one JSON object a line) or `pmukit stat -j` (the same shape), read back
 * for offline metrics: `pmukit stat --counts FILE -M METRICS`.
 *
 *   struct pk_counts *c;
 *   struct pk_error err;
 *   if (pk_counts__read(&c, "run.json", &err)) die(pk_error__format(&err, ...));
 *   for (size_t s = 0; s < pk_counts__nr_sets(c); s++) {
 *           pk_counts__eval(c, s, mg, values);       // mg: pmukit/metricgroup.h
 *           print(pk_counts__set(c, s), values);
 *   }
 *   pk_counts__free(c);
 *
 * A line is one counter of one aggregate:
 *   {"interval" : 1.000121, "core" : "S0-D0-C1", "aggregate-number" : 2,
 *    "counter-value" : "1234.000000", "unit" : "", "event" : "cycles",
 *    "event-runtime" : 1000, "pcnt-running" : 100.00, "metric-value" : ...}
 * "interval" (with -I), the aggregation key ("cpu" with -A, "core", "cache",
 * "cluster", "die", "socket", "node" with --per-X, "thread" with
 * --per-thread; none for the whole run), "aggregate-number", "cgroup",
 * "unit", "event-runtime", "pcnt-running" and "variance" (with -r) may be
 * absent; "counter-value" is a number as a string (or a JSON number) or
 * "<not counted>" / "<not supported>". Lines without "event" (metric-only
 * lines, --metric-only, the Default group's "metricgroup" headers), blank
 * lines and lines starting with '#' (perf stat -o's "# started on") are
 * skipped; keys perf may add later are ignored. perf 6.1 may print NaN
 * metric values as a bare nan: such lines are read with null there.
 * Anything else that is not a JSON object of that shape is an error naming
 * the line and column.
 *
 * Objects are opaque and owned by the caller; no global state.
 */
#ifndef PMUKIT_COUNTSFILE_H
#define PMUKIT_COUNTSFILE_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/metricgroup.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pk_counts_aggr {
	PK_COUNTS_GLOBAL,	/* no key: the whole run (or -a without -A) */
	PK_COUNTS_CPU,		/* -A: "cpu" : "3" */
	PK_COUNTS_CORE,		/* --per-core: "S0-D0-C1" */
	PK_COUNTS_CACHE,	/* --per-cache: "S0-D0-L3-ID0" */
	PK_COUNTS_CLUSTER,	/* --per-cluster: "S0-D0-CLS0" */
	PK_COUNTS_DIE,		/* --per-die: "S0-D0" */
	PK_COUNTS_SOCKET,	/* --per-socket: "S0" */
	PK_COUNTS_NODE,		/* --per-node: "N0" */
	PK_COUNTS_THREAD,	/* --per-thread: "comm-tid" */
};

enum pk_counts_status {
	PK_COUNTS_OK,
	PK_COUNTS_NOT_COUNTED,	/* "<not counted>": opened, never ran */
	PK_COUNTS_NOT_SUPPORTED,	/* "<not supported>" */
};

/* One counter line. Strings live as long as the pk_counts. */
struct pk_counts_record {
	unsigned line;			/* 1-based line in the file */
	bool has_interval;
	double interval;		/* seconds since the start (-I); NaN when absent */
	enum pk_counts_aggr aggr;
	const char *aggr_id;		/* the key's value ("3", "S0-D0-C1"); "" for GLOBAL */
	int aggr_nr;			/* "aggregate-number" (CPUs aggregated), -1 when absent */
	const char *cgroup;		/* "cgroup", or NULL */
	const char *event;		/* as printed: "cycles", "cpu_core/INST_RETIRED.ANY/", "msr/tsc/" */
	enum pk_counts_status status;
	double value;			/* counter-value as printed (in unit); NaN unless OK */
	const char *unit;		/* "msec", "ns", "Joules", ...; "" when absent */
	double runtime;			/* "event-runtime" (ns the counter ran), NaN when absent */
	double pcnt_running;		/* "pcnt-running", NaN when absent */
	double variance;		/* "variance" (-r, percent), NaN when absent */
};

struct pk_counts;

/*
 * Parse len bytes of buf (need not end in NUL); file names the input in
 * errors (may be NULL). Errors: -EINVAL (err: file:line:column and what is
 * wrong), -ENOMEM. A file without any counter line is valid (no records).
 */
PK_API int pk_counts__parse(struct pk_counts **out, const char *buf, size_t len, const char *file,
			    struct pk_error *err);
/* Read and parse PATH ("-": standard input). Also -errno when it cannot be read. */
PK_API int pk_counts__read(struct pk_counts **out, const char *path, struct pk_error *err);
PK_API void pk_counts__free(struct pk_counts *c);

PK_API size_t pk_counts__nr_records(const struct pk_counts *c);
PK_API const struct pk_counts_record *pk_counts__record(const struct pk_counts *c, size_t idx);
/* Lines skipped: blank, '#' comments and lines without "event". */
PK_API size_t pk_counts__nr_skipped(const struct pk_counts *c);

/*
 * A set: the records of one (interval, aggregation key, cgroup), in order of
 * first appearance in the file; the unit metrics are computed for.
 */
struct pk_counts_set {
	bool has_interval;
	double interval;		/* NaN when absent */
	enum pk_counts_aggr aggr;
	const char *aggr_id;
	const char *cgroup;		/* or NULL */
	double duration;		/* seconds the set covers with -I: its interval minus
					 * the previous distinct interval (the first: itself);
					 * NaN without intervals */
	size_t nr_records;
	const size_t *records;		/* indexes for pk_counts__record */
};

PK_API size_t pk_counts__nr_sets(const struct pk_counts *c);
PK_API const struct pk_counts_set *pk_counts__set(const struct pk_counts *c, size_t idx);
/* "cpu", "core", "cache", "cluster", "die", "socket", "node", "thread", "" (global). */
PK_API const char *pk_counts_aggr__name(enum pk_counts_aggr aggr);

/*
 * The raw count of record idx, as metrics use it: the printed value with its
 * unit undone (task-clock/cpu-clock "msec" -> ns; an event whose table
 * ScaleUnit or sysfs .scale/.unit, on mg's catalog model and tree, gives the
 * printed unit -> value / scale), tool events (duration_time, user_time,
 * system_time, printed in ns) in seconds, <not counted> 0, <not supported>
 * NaN. *known is false when a unit was printed but its scale is unknown
 * (the printed value is returned). mg may be NULL (no tables).
 */
PK_API double pk_counts__raw(const struct pk_counts *c, size_t idx, struct pk_metricgroup *mg,
			     bool *known);

/*
 * Compute mg's metrics (out[0 .. pk_metricgroup__nr_metrics)) from set s:
 * pk_metricgroup__eval_named() over the set's records as raw counts (see
 * pk_counts__raw); duration_time, when a metric needs it and the set has
 * none, comes from a duration_time record of the same interval under
 * another key, else from the set's duration. 0, -ENOENT (no such set),
 * -ENOMEM.
 */
PK_API int pk_counts__eval(const struct pk_counts *c, size_t set, struct pk_metricgroup *mg,
			   struct pk_metricgroup_value *out);

#ifdef __cplusplus
}
#endif
#endif
