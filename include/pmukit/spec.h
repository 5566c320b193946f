/* SPDX-License-Identifier: MIT */
/*
 * pmukit/spec.h — event specifications in perf's syntax turned into the
 * perf_event_attr perf itself would open for the same spec and command
 * (stat or record defaults), plus what each event is (group roles, the
 * table event it came from, ACR masks, TPEBS).
 *
 *   struct pk_evlist *el = pk_evlist__new();
 *   pk_evlist__add(el, "{cycles,instructions}:u", &opts, &err);
 *   for (size_t i = 0; i < pk_evlist__nr(el); i++)
 *           use(pk_evlist__evsel(el, i)->attr);
 */
#ifndef PMUKIT_SPEC_H
#define PMUKIT_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/events.h>
#include <pmukit/pmu.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pk_spec_mode {
	PK_SPEC_STAT,		/* perf stat's defaults */
	PK_SPEC_RECORD,		/* perf record's defaults */
};

/* How call graphs are recorded (record --call-graph MODE). */
enum pk_call_graph_mode {
	PK_CALL_GRAPH_FP,	/* frame pointers: the kernel walks the stack */
	PK_CALL_GRAPH_DWARF,	/* user registers and a copy of the user stack */
	PK_CALL_GRAPH_LBR,	/* the CPU's call-stack LBR */
};

struct pk_spec_opts {
	size_t sz;			/* sizeof(struct pk_spec_opts) */
	enum pk_spec_mode mode;
	struct pk_catalog *cat;		/* tables, or NULL */
	size_t model;			/* model of the core PMU(s); PK_NO_MODEL (pmukit/alias.h) when none */
	const struct pk_pmu_tree *pmus;	/* PMU tree, or NULL (symbolic events only) */
	/* command options that change the attr, as perf's of the same name */
	bool system_wide;		/* -a: no inherit, no enable_on_exec */
	bool no_inherit;		/* -i / --no-inherit */
	bool workload;			/* a command is forked: enable_on_exec on leaders */
	uint64_t period;		/* record -c N (0: not given) */
	uint64_t freq;			/* record -F N (0: perf's default 4000) */
	bool call_graph;		/* record -g */
	/* record options (perf record's of the same name); older callers' structs end above */
	bool task_target;		/* -p / -t: running tasks (no enable_on_exec, no CPU sample) */
	bool sample_addr;		/* -d: ADDR and DATA_SRC, mmap_data on the tracking event */
	bool sample_weight;		/* -W: the weight (WEIGHT_STRUCT on x86, WEIGHT elsewhere) */
	bool sample_cpu;		/* --sample-cpu */
	enum pk_call_graph_mode call_graph_mode;	/* with call_graph: fp (default), dwarf, lbr */
	uint32_t call_graph_dump;	/* dwarf: user stack bytes (0: 8192), rounded up to 8 */
	/* perf record's -s, --switch-events, --all-user, --all-kernel, -D, -b/-j */
	bool inherit_stat;		/* -s: inherit_stat, times enabled/running read */
	bool switch_events;		/* --switch-events: context_switch on the tracking event */
	bool all_user, all_kernel;	/* --all-user / --all-kernel: exclude the other level */
	bool delay;			/* -D: leaders not enabled at exec; a tracking dummy is */
	uint64_t branch_stack;		/* -b / -j: branch_sample_type (0: no branch stack) */
};

/* One event as it will be opened. */
struct pk_evsel {
	struct perf_event_attr attr;
	const char *name;	/* perf's name for it: "cycles:u", "cpu/event=0x3c/k" */
	const char *pmu;	/* PMU name ("cpu", "software", "armv8_pmuv3_0", ...) or NULL */
	size_t leader;		/* index of its group leader (itself when alone or leading) */
	size_t nr_members;	/* leaders: size of the group, itself included; others 0 */
	const char *table_event;	/* the table event it resolved to or, for raw configs, matches */
	const char *table_desc;
	const char *metric_id;	/* metric-id= term */
	uint64_t acr_mask;	/* Intel ACR: events whose overflow reloads this one (bit per group slot) */
	bool tpebs;		/* :R, retire latency wanted */
	/*
	 * Counted once per package: an alias with NAME.per-pkg = 1 in sysfs or
	 * PerPkg "1" in the table (the table's word wins, as perf merges them).
	 * pk_counter sums such an event over CPUs taking one CPU per (socket, die).
	 */
	bool per_pkg;
	unsigned spec_off, spec_len;	/* where in the spec it was written */
	/*
	 * What a count means, as its alias says: sysfs NAME.unit and NAME.scale, or
	 * the table's ScaleUnit ("64Bytes"; the table's word wins). A printed value
	 * is count * scale, in unit. NULL and 1.0 when it has neither.
	 */
	const char *unit;
	double scale;
};

struct pk_evlist;


PK_API struct pk_evlist *pk_evlist__new(void);
PK_API void pk_evlist__free(struct pk_evlist *el);

/* Parse SPEC and append its events. On error nothing is appended and err is filled. */
PK_API int pk_evlist__add(struct pk_evlist *el, const char *spec, const struct pk_spec_opts *opts,
			  struct pk_spec_error *err);

/*
 * Whether encoding SPEC in MODE needs the tables and the PMU tree. False only
 * in stat mode when every event is a software or tool event without precise
 * modifiers ("task-clock", "{page-faults:u,cs}", "duration_time", "1:2"):
 * their attrs are the same with or without them, so a caller may skip loading
 * them (start-up time). True otherwise, and for a spec that does not parse
 * (the full context gives the better error).
 */
PK_API bool pk_spec__needs_context(const char *spec, enum pk_spec_mode mode);

PK_API size_t pk_evlist__nr(const struct pk_evlist *el);
PK_API const struct pk_evsel *pk_evlist__evsel(const struct pk_evlist *el, size_t idx);
/*
 * Record mode: the tracking event perf record adds after the list's events,
 * a software dummy ("dummy:HG") that gets the side-band records (mmap, comm,
 * task) when the first event cannot (system-wide, hybrid); NULL when the
 * first event tracks, in stat mode, or for an empty list.
 */
PK_API const struct pk_evsel *pk_evlist__tracking(const struct pk_evlist *el);


#ifdef __cplusplus
}
#endif
#endif
