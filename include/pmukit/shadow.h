/* SPDX-License-Identifier: MIT */
/*
 * pmukit/shadow.h — perf stat's built-in ("shadow") metrics: the second column
 * perf prints beside a count without -M. CPUs utilized for task-clock and
 * cpu-clock, GHz for cycles, insn per cycle and stalled cycles per insn for
 * instructions, "X% of all Y" for misses and stalls, and a rate per second for
 * every other event where a clock was counted.
 *
 * Each event of one aggregation (one CPU, core, thread, or the whole run) is a
 * struct pk_shadow_value: its kind (the role it plays in these metrics, from
 * its attr or from its name as perf prints it), its context (which exclude_*
 * bits it was counted with: instructions:u pairs with cycles:u only, as perf
 * pairs them), its PMU and its count. pk_shadow__metrics gives the metrics of
 * one of them against the others, with perf 6.1's formats and labels:
 *
 *   struct pk_shadow_value v[2] = {
 *           { .sz = sizeof(v[0]), .kind = pk_shadow__kind_of_attr(&cycles_attr),
 *             .value = cycles, .status = PK_COUNT_OK },
 *           { .sz = sizeof(v[0]), .kind = pk_shadow__kind_of_attr(&insn_attr),
 *             .value = insns, .status = PK_COUNT_OK },
 *   };
 *   struct pk_shadow_metric m[PK_SHADOW_MAX_METRICS];
 *   size_t n = pk_shadow__metrics(v, 2, 1, wall_ns, m);   // "insn per cycle"
 *   for (size_t i = 0; i < n; i++)
 *           if (m[i].fmt) printf(m[i].fmt, m[i].value), printf(" %s\n", m[i].label);
 *
 * Pure functions: no state, no allocation.
 */
#ifndef PMUKIT_SHADOW_H
#define PMUKIT_SHADOW_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/api.h>
#include <pmukit/count.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_event_attr;

/* The role an event plays in perf's built-in metrics (perf's evsel__stat_type). */
enum pk_shadow_kind {
	PK_SHADOW_OTHER,		/* a rate per second, where a clock was counted */
	PK_SHADOW_NSECS,		/* task-clock, cpu-clock: "CPUs utilized" */
	PK_SHADOW_CYCLES,		/* "GHz" */
	PK_SHADOW_INSTRUCTIONS,		/* "insn per cycle", "stalled cycles per insn" */
	PK_SHADOW_STALLED_FRONT,	/* "frontend cycles idle" */
	PK_SHADOW_STALLED_BACK,		/* "backend cycles idle" */
	PK_SHADOW_BRANCHES,
	PK_SHADOW_BRANCH_MISSES,	/* "of all branches" */
	PK_SHADOW_CACHE_REFS,
	PK_SHADOW_CACHE_MISSES,		/* "of all cache refs" */
	PK_SHADOW_L1D, PK_SHADOW_L1D_MISSES,	/* each cache: loads, then their misses */
	PK_SHADOW_L1I, PK_SHADOW_L1I_MISSES,
	PK_SHADOW_LL, PK_SHADOW_LL_MISSES,
	PK_SHADOW_DTLB, PK_SHADOW_DTLB_MISSES,
	PK_SHADOW_ITLB, PK_SHADOW_ITLB_MISSES,
	PK_SHADOW_NR,
};

/* The kind of an attr; of an event name as perf prints it ("cycles:u", "cpu_core/cycles/"). */
PK_API enum pk_shadow_kind pk_shadow__kind_of_attr(const struct perf_event_attr *attr);
PK_API enum pk_shadow_kind pk_shadow__kind_of_name(const char *name);

/*
 * The context metrics pair events in: a bit per exclude_{kernel,user,hv,host,idle}
 * set. From an attr, or from the modifiers of a name as perf prints it
 * ("instructions:u", "cpu/cycles/uk"); 0 for a name without modifiers.
 */
PK_API unsigned pk_shadow__ctx_of_attr(const struct perf_event_attr *attr);
PK_API unsigned pk_shadow__ctx_of_name(const char *name);

/* One event's count in one aggregation. Arrays of them are read with vals[0].sz as stride. */
struct pk_shadow_value {
	size_t sz;			/* sizeof(struct pk_shadow_value) */
	enum pk_shadow_kind kind;
	unsigned ctx;			/* pk_shadow__ctx_of_*: ratios pair equal contexts */
	const char *pmu;		/* ratios pair events of one PMU (NULL: any) */
	double value;			/* the count scaled for multiplexing (clocks: ns) */
	double scale;			/* rates count value * scale per second; 0: 1 */
	enum pk_count_status status;	/* only PK_COUNT_OK values are used (a clock that did
					   not run still gives rates of 0 /sec, as perf 6.1) */
};

/* One metric: printf(fmt, value) then label; fmt NULL: perf prints the column empty. */
struct pk_shadow_metric {
	double value;
	const char *fmt;		/* perf 6.1's format ("%8.3f", "%7.2f%%", "%7.2f ") */
	const char *label;		/* "CPUs utilized", "insn per cycle", "M/sec"... (static) */
};

#define PK_SHADOW_MAX_METRICS 2

/*
 * The built-in metrics of vals[self] among vals[0..nr), as perf 6.1 prints
 * them beside its count: up to PK_SHADOW_MAX_METRICS into out, how many
 * returned (0: none, as for a rate without any clock). wall_ns: the elapsed
 * time the counts cover ("CPUs utilized"; 0: unknown). A value that is not
 * PK_COUNT_OK has no metrics.
 */
PK_API size_t pk_shadow__metrics(const struct pk_shadow_value *vals, size_t nr, size_t self,
				 double wall_ns, struct pk_shadow_metric *out);

#ifdef __cplusplus
}
#endif

#endif
