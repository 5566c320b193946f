/* SPDX-License-Identifier: MIT */
/*
 * pmukit/report.h — perf report's histograms over a session: entries keyed
 * by sort keys (comm, pid/tid, dso, sym, srcline, cpu, weights), their
 * periods and sample counts, cumulative ("children") values and callchain
 * trees, group members' values and a TopDown Level 1 breakdown for
 * {slots,...,topdown-*}:S groups; and perf report --stdio's text for them.
 *
 *   struct pk_report *r;
 *   struct pk_report_opts o = { .sz = sizeof(o), .sort = "dso,sym" };
 *   if (pk_report__new(&r, session, &o, &err) ||
 *       pk_report__process(r, &err) ||      // reads the rest of the session
 *       pk_report__finish(r, &err))         // collapse, cumulate, sort
 *           die(&err);
 *   pk_report__fprintf(r, stdout, 0);       // one section per event
 *   for (size_t i = 0; i < pk_report__nr_entries(r, 0); i++) {
 *           const struct pk_report_entry *e = pk_report__entry(r, 0, i);
 *           printf("%s %" PRIu64 "\n", e->sym ? e->sym->name : "?", e->period);
 *   }
 *   pk_report__free(r);
 *
 * Semantics are perf 6.1's: which samples make which entries (perf's
 * hist_entry__cmp / collapse), their order (perf's output sort and its
 * tie-breaks), cumulation along callchains counted once per entry and
 * sample, callchain trees matched by function, group members' values as
 * deltas of PERF_SAMPLE_READ values per sample id. Work per sample is a few
 * hash lookups (no allocation): callchains go into one prefix tree per
 * context, and each entry's cumulative values and callchain tree are
 * derived from it once, at finish.
 *
 * The session must outlive the report (entries point at its threads, DSOs
 * and symbols). Not thread-safe; pk_report__finish uses the session's
 * worker threads for srclines.
 */
#ifndef PMUKIT_REPORT_H
#define PMUKIT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/session.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_report;

/*
 * An on/off option whose zero is perf's default, so that a zeroed options
 * struct means perf's defaults (as libbpf's enums do).
 */
enum pk_report_switch {
	PK_REPORT_DEFAULT = 0,
	PK_REPORT_ON,
	PK_REPORT_OFF,
};

/* Zero is every field's default (perf's); fields past sz (an older caller's struct) take theirs. */
struct pk_report_opts {
	size_t sz;			/* sizeof(struct pk_report_opts) */
	/*
	 * --sort: perf's keys, comma separated (comm, pid, tid, dso, sym|symbol,
	 * srcline, srcfile, parent, symbol_size, ipc_null, time, cpu, local_weight,
	 * weight, local_ins_lat, ins_lat,
	 * local_p_stage_cyc, p_stage_cyc, local_retire_lat, retire_lat, and the
	 * value columns overhead, overhead_children, sample, period, ...);
	 * "+KEYS" appends to the default. NULL: "comm,dso,sym".
	 */
	const char *sort;
	/* -F / --fields: output columns (value columns and sort keys); NULL: perf's default. */
	const char *fields;
	/*
	 * -g / --call-graph: perf's report syntax
	 * "print_type,threshold,print_limit,order,sort_key,value" (graph, flat,
	 * fractal, folded, none; caller, callee; function, address; percent,
	 * period, count). NULL: perf's default (graph,0.5,callee; caller with
	 * children).
	 */
	const char *call_graph;
	enum pk_report_switch children;	/* --children / --no-children; default on (off with hierarchy:
					 * its callchains in caller order unless OFF given) */
	enum pk_report_switch group;	/* --group / --no-group; default: on for recorded groups */
	double percent_limit;		/* --percent-limit: entries (and callchains) under it hidden */
	bool show_nr_samples;		/* -n: a Samples column */
	bool show_total_period;		/* --show-total-period: a Period column */
	bool show_cpu_utilization;	/* --show-cpu-utilization: sys and usr columns */
	/*
	 * TopDown Level 1 columns (Retiring, Bad Spec, FE Bound, BE Bound, and
	 * Level 2 when recorded) for groups led by slots with topdown-* members:
	 * default: on for such groups shown with --group.
	 */
	enum pk_report_switch topdown;
	/*
	 * The text of a tracepoint sample (its print format applied, as perf's
	 * trace_output): enables the "trace" sort key, the default when every
	 * event is a tracepoint, as in perf. The string may be reused after the
	 * call. NULL: no trace key.
	 */
	const char *(*trace_output)(void *ctx, const struct pk_resolved *rs);
	void *trace_ctx;
	/*
	 * Sample filters (pmukit/session.h): samples it drops (--time, -C) are
	 * not counted; samples it hides (--comms, --pid, --tid, --dsos,
	 * --symbols) stay in the totals and make hidden entries, as in perf.
	 * A list of one entry elides its column ("# comm: NAME" printed
	 * instead). Must outlive the report. NULL: none.
	 */
	const struct pk_sample_filter *filter;
	/*
	 * --symbol-filter: entries of the first event whose symbol's name does
	 * not contain it are hidden (perf applies it when it collapses, that is
	 * with the comm sort key).
	 */
	const char *symbol_filter;
	/*
	 * --percentage relative: percentages and the section header's totals
	 * of the shown entries only; false: perf's default, absolute.
	 */
	bool filter_relative;
	/* --time as given: " (time slices: STR)" in each section header. */
	const char *time_str;
	/* -U / --hide-unresolved: samples and callchain entries without a symbol left out */
	bool hide_unresolved;
	/*
	 * -p / --parent: the "parent" key's POSIX extended regex (the first
	 * callchain entry whose symbol matches is the sample's parent); given,
	 * it adds the parent key as perf does. NULL: perf's default
	 * "^sys_|^do_page_fault".
	 */
	const char *parent;
	bool exclude_other;		/* -x / --exclude-other: only entries with a parent */
	/* --time-quantum: the "time" key's buckets in ns (0: perf's default, 100 ms) */
	uint64_t time_quantum;
	/*
	 * --ignore-callees: a POSIX extended regex; the last callchain entry
	 * (in the order the callchain is resolved) whose symbol matches stands
	 * for the sample, the entries resolved before it forgotten, as perf's
	 * add_callchain_ip does. NULL: none.
	 */
	const char *ignore_callees;
	/*
	 * --hierarchy: entries as a tree, one level per sort key, callchains
	 * under the leaves; no children (PK_REPORT_ON for children is refused).
	 */
	bool hierarchy;
	/*
	 * -v / --verbose (perf's verbose > 0): the Shared Object column with the
	 * DSOs' long names, the Symbol column with each entry's address and the
	 * letter of where its symbols were found (perf's dso__symtab_origin: 'B'
	 * the build-id cache, 'D' its debug file, 'k' kallsyms, 'd' the file
	 * itself, '!' none, ...) before "[.] name". 0: off.
	 */
	int verbose;
	/*
	 * perf top's rules for a pipe's samples (pmukit top reads its record
	 * child's pipe): the children (cumulative) values with callchains, which
	 * perf report leaves out for pipes (it decides before their attrs come).
	 */
	bool top;
};

PK_API int pk_report__new(struct pk_report **out, struct pk_session *s,
			  const struct pk_report_opts *opts, struct pk_error *err);
PK_API void pk_report__free(struct pk_report *r);

/*
 * Read the session to its end and add its samples (PERF_SAMPLE_READ groups
 * split into their members' values as perf does). 0 or a negative errno.
 */
PK_API int pk_report__process(struct pk_report *r, struct pk_error *err);
/*
 * Add one resolved sample (what pk_report__process does for each); opts.filter
 * hides it here, dropping (pk_sample_filter__drop) is the caller's.
 */
PK_API int pk_report__add(struct pk_report *r, const struct pk_resolved *rs, struct pk_error *err);
/* After the last sample: srclines, collapse, cumulative values, output order. */
PK_API int pk_report__finish(struct pk_report *r, struct pk_error *err);

/* pk_report__fprintf flags */
enum {
	PK_REPORT_PRINT_QUIET	= 1u << 0,	/* -q: no header lines, no column headers */
	PK_REPORT_PRINT_NO_TIP	= 1u << 1,	/* no closing "# (...)" line */
	/* no "# comm: NAME" lines (printed before with pk_report__fprintf_filters) */
	PK_REPORT_PRINT_NO_FILTERS = 1u << 2,
};

/*
 * perf's lines for the filter lists of one entry whose column is elided
 * ("# comm: NAME", "# dso: NAME", "# symbol: NAME"), which perf prints
 * before it reads the samples, -q or not. pk_report__fprintf prints them
 * first unless told not to. 0 or -EIO.
 */
PK_API int pk_report__fprintf_filters(struct pk_report *r, FILE *fp);

/*
 * perf report --stdio's text after the file header: the filter lines
 * (pk_report__fprintf_filters), "# Total Lost
 * Samples", then for each event (or group) "# Samples: ... of event '...'",
 * "# Event count (approx.): ...", the column headers and dotted lines, the
 * entries and their callchains. 0 or a negative errno (write error).
 */
PK_API int pk_report__fprintf(struct pk_report *r, FILE *fp, unsigned flags);

/* ---- results ---------------------------------------------------------------------- */

/* One row of a section, in output order. */
struct pk_report_entry {
	const struct pk_thread *thread;	/* the first sample's thread */
	const char *comm;		/* the comm at that sample */
	int32_t cpu;
	const struct pk_map *map;	/* NULL: [unknown] */
	struct pk_dso *dso;		/* NULL: [unknown] */
	const struct pk_sym *sym;	/* NULL: unresolved (addr printed) */
	uint64_t ip, addr;		/* as perf's he->ip (map-relative) */
	char level;			/* '.', 'k', ... */
	const char *srcline;		/* with the srcline key, else NULL */
	uint64_t weight;		/* with a weight key: the sample weight of the entry */
	uint64_t period;		/* self */
	uint64_t nr_samples;
	uint64_t period_children;	/* cumulative (children), = period without children */
	uint64_t nr_samples_children;
	uint64_t weight_sum[3];		/* sums of the weight struct's parts over the samples */
	/* --group: each member's period and samples (member 0 is the leader); else NULL */
	const uint64_t *group_period;
	const uint64_t *group_samples;
	uint32_t nr_group;
	bool filtered;			/* under --percent-limit (not printed) */
	bool hidden;			/* hidden by a filter (not printed) */
};

struct pk_report_section {
	int attr;			/* leader's attr index */
	const char *name;		/* perf's event name, or its group description */
	uint64_t nr_samples;		/* group: all members' */
	uint64_t total_period;		/* group: all members' */
	size_t nr_entries;
};

PK_API size_t pk_report__nr_sections(const struct pk_report *r);
PK_API const struct pk_report_section *pk_report__section(const struct pk_report *r, size_t i);
PK_API size_t pk_report__nr_entries(const struct pk_report *r, size_t section);
PK_API const struct pk_report_entry *pk_report__entry(const struct pk_report *r, size_t section,
						      size_t i);
/*
 * A section's --stdio text as rows, for a browser: fn(ctx, (size_t)-1, the
 * column header line without its "# "), then fn(ctx, i, line) for each entry
 * pk_report__fprintf prints (i as in pk_report__entry), in order, its line
 * without callchain or newline. Stops at fn's non-zero return, which it
 * returns; -EINVAL before pk_report__finish, for --hierarchy or no such section.
 */
PK_API int pk_report__foreach_row(struct pk_report *r, size_t section,
				  int (*fn)(void *ctx, size_t entry, const char *line), void *ctx);
/*
 * The same rows with their percentages of total (> 0) instead of the
 * section's total: perf's TUI `F` view of the entries a zoom leaves, each of
 * their total. -EINVAL as pk_report__foreach_row, and for a group (--group).
 */
PK_API int pk_report__foreach_row_of(struct pk_report *r, size_t section, uint64_t total,
				     int (*fn)(void *ctx, size_t entry, const char *line), void *ctx);
/*
 * A --hierarchy section as rows, for a browser: fn(ctx, PK_REPORT_ROW_HEADER,
 * the column header as perf's TUI words it), then in --stdio's order each
 * line of its text: a node (fn's depth its level, 0 the first sort key's) or
 * a line under the node before (PK_REPORT_ROW_MORE: its callchain, "no entry
 * >= N%"), without newline or trailing blanks. Stops at fn's non-zero return,
 * which it returns; -EINVAL without --hierarchy, before pk_report__finish or
 * for no such section.
 */
enum { PK_REPORT_ROW_HEADER = -1, PK_REPORT_ROW_MORE = -2 };
PK_API int pk_report__foreach_hierarchy_row(struct pk_report *r, size_t section,
					    int (*fn)(void *ctx, int depth, const char *line), void *ctx);
/*
 * perf's TUI title of a section: "Samples: 40K of event 'cpu-clock', Event count
 * (approx.): N" (a group: "of events 'DESC'" and its members' totals), from the
 * numbers of --stdio's "# Samples" and "# Event count" lines. 0 or -EINVAL.
 */
PK_API int pk_report__snprintf_title(struct pk_report *r, size_t section, char *buf, size_t size);
/* The callchain lines --stdio prints under entry i of a section (none without callchains). */
PK_API int pk_report__fprintf_callchain(struct pk_report *r, size_t section, size_t i, FILE *fp);
/* LOST_SAMPLES records' total (perf's "Total Lost Samples"): pk_session__lost_samples(s, -1). */
PK_API uint64_t pk_report__total_lost_samples(const struct pk_report *r);

/* ---- perf diff ---------------------------------------------------------------------- */

/* -c / --compute: what each compared file's column shows and sorts by */
enum pk_diff_compute {
	PK_DIFF_DELTA_ABS,	/* "Delta Abs": new share - baseline share, by its size (the default) */
	PK_DIFF_DELTA,		/* "Delta": the same, by its signed value */
	PK_DIFF_RATIO,		/* "Ratio": new period / baseline period */
	PK_DIFF_WDIFF,		/* "Weighted diff": new period * w2 - baseline period * w1 */
};

struct pk_diff_opts {
	size_t sz;			/* sizeof(struct pk_diff_opts) */
	const char *sort;		/* unused: entries pair by the reports' own sort keys */
	double percent_limit;		/* unused: perf 6.1's diff has no --percent-limit */
	bool show_nr_samples;		/* unused */
	int compute;			/* enum pk_diff_compute (-c) */
	int64_t wdiff_w1, wdiff_w2;	/* -c wdiff:W1,W2: both non-zero for PK_DIFF_WDIFF */
	bool show_period;		/* -p: "Base period" and "Period" columns */
	bool show_formula;		/* -F: a "Formula" column per compared file */
	bool baseline_only;		/* -b: only the baseline's entries that pair with another file's */
	bool quiet;			/* -q: no "# Event", data files or column header lines */
	bool order_set;			/* -o given: order, else perf's default 1 */
	unsigned order;			/* -o N: rows sorted first by file N's values (0: not) */
	/*
	 * -v: the "# Data files:" list with two files too (the reports' own
	 * verbose, pk_report_opts.verbose, gives the columns' details). 0: off.
	 */
	int verbose;
};

/*
 * perf diff OLD NEW --stdio: entries of each event paired by the sort keys
 * (dso and symbol by default), printed with perf's Baseline and Delta
 * columns. The sessions must be finished reading (pk_report__finish).
 */
PK_API int pk_report__fprintf_diff(struct pk_report *old, struct pk_report *new_,
				   const char *old_name, const char *new_name, FILE *fp,
				   const struct pk_diff_opts *opts, struct pk_error *err);

/*
 * perf diff FILE0 FILE1 [FILE2...] --stdio: reports[0] is the baseline, each
 * other report is compared with it (one column group per file, "Name/N"
 * headers and a "# Data files:" list past two files), as perf 6.1 prints it.
 * All reports finished and made with the same sort keys; names are the
 * files' paths as given. 0, or a negative errno with err set (-EINVAL: fewer
 * than two reports, an order past the last file, wdiff without weights).
 */
PK_API int pk_report__fprintf_diffs(struct pk_report *const *reports, const char *const *names,
				    size_t nr, FILE *fp, const struct pk_diff_opts *opts,
				    struct pk_error *err);

#ifdef __cplusplus
}
#endif
#endif
