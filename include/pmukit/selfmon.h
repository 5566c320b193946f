/* SPDX-License-Identifier: MIT */
/*
 * pmukit/selfmon.h — self-monitoring: a counter group of the calling thread,
 * read in userspace through the perf user page (x86 rdpmc, arm64 mrs) when
 * the kernel allows it and through read(2) otherwise; named code regions that
 * accumulate deltas; TopDown (PERF_METRICS) decoding; and the check behind
 * `pmukit check user-access`.
 *
 *   struct pk_selfmon *g;
 *   struct pk_error err;
 *   if (pk_selfmon__open(&g, "{task-clock,page-faults}", NULL, &err))
 *           die(err.msg);
 *   pk_selfmon__enable(g);
 *   for (...) {
 *           pk_selfmon__region_begin(g, "body");
 *           body();
 *           pk_selfmon__region_end(g, "body");
 *   }
 *   pk_selfmon__region_print(g, stdout);
 *   pk_selfmon__free(g);
 *
 * A group has ONE read path, chosen at open and kept for its life: the user
 * page (every member mapped, cap_user_rdpmc set, the thread measuring itself:
 * pid 0, cpu -1) or read(2) of the leader (PERF_FORMAT_GROUP). The user page
 * path falls back to read(2) for a single read when the page says the
 * counter is not on the PMU right now (index 0), when the clock fields cannot
 * extend the times of a multiplexed event, when another thread reads, or when
 * the sequence lock keeps changing; a read never mixes the two sources.
 */
#ifndef PMUKIT_SELFMON_H
#define PMUKIT_SELFMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/perf_event.h>

#include <pmukit/api.h>
#include <pmukit/error.h>
#include <pmukit/events.h>
#include <pmukit/pmu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- the counter-read instruction ------------------------------------------- */

/*
 * How to read a hardware counter and the clock the user page's time fields
 * convert (x86: TSC; arm64: CNTVCT_EL0). Tests pass stubs.
 * read_counter: hwidx is the page's index - 1 (x86: the RDPMC operand, with
 * PK_RDPMC_FIXED / PK_RDPMC_METRIC flags; arm64: 0-30 PMEVCNTR<n>_EL0, 31
 * PMCCNTR_EL0). Returns 0, or non-zero when it cannot read that counter (the
 * read then goes through read(2)).
 */
struct pk_selfmon_ops {
	int (*read_counter)(void *ctx, uint32_t hwidx, uint64_t *value);
	uint64_t (*read_clock)(void *ctx);
	void *ctx;
};

/*
 * This machine's instructions: x86 `lfence; rdpmc` and `rdtsc`; arm64 `isb;
 * mrs` of the event counter or cycle counter and `mrs cntvct_el0`. On other
 * architectures both functions are NULL and every group reads with read(2).
 */
PK_API const struct pk_selfmon_ops *pk_selfmon_ops__native(void);

/* RDPMC operand flags (Documentation/.../topdown.txt). */
#define PK_RDPMC_FIXED		(1u << 30)	/* fixed counters */
#define PK_RDPMC_METRIC		(1u << 29)	/* metric registers */
#define PK_RDPMC_SLOTS		(PK_RDPMC_FIXED | 3u)	/* fixed counter 3: SLOTS */
#define PK_RDPMC_PERF_METRICS	(PK_RDPMC_METRIC | 0u)	/* PERF_METRICS (TopDown L1+L2) */

/* --- one user page ----------------------------------------------------------- */

/* Why a page read did not produce a value (the caller then uses read(2)). */
enum pk_userpage_status {
	PK_USERPAGE_OK = 0,
	PK_USERPAGE_NO_RDPMC,	/* cap_user_rdpmc clear, or no read_counter */
	PK_USERPAGE_INDEX0,	/* index 0: not on a counter now (off, multiplexed, migrated) */
	PK_USERPAGE_NO_TIME,	/* enabled != running and no cap_user_time to extend them */
	PK_USERPAGE_BAD_WIDTH,	/* pmc_width 0 or > 64, or time_shift > 63 */
	PK_USERPAGE_INSN,	/* read_counter refused the index */
	PK_USERPAGE_BUSY,	/* the sequence lock changed max_retries times in a row */
};

struct pk_userpage_value {
	uint64_t count;		/* offset + pmc sign-extended from pmc_width */
	uint64_t enabled;	/* time_enabled, extended to now when cap_user_time */
	uint64_t running;	/* time_running, likewise */
	uint32_t index;		/* the page's index (hwidx + 1) */
	uint32_t seq;		/* the lock value the read was consistent with */
	unsigned retries;	/* times the loop went round again */
};

/*
 * Read one event's count and times from its perf_event_mmap_page, following
 * the protocol of <linux/perf_event.h>: lock / index / offset / pmc_width /
 * cap_user_time(_short) / time_mult, time_shift, time_offset, time_cycles,
 * time_mask, retried while the lock changes (or is odd, i.e. mid-update).
 * max_retries 0 means 1000. Returns a pk_userpage_status; out is filled only
 * on PK_USERPAGE_OK. Without cap_user_time the times are those of the page's
 * last update: the count is exact and so is scaling while enabled == running;
 * a multiplexed event (enabled != running) then gives PK_USERPAGE_NO_TIME.
 */
PK_API int pk_userpage__read(const volatile struct perf_event_mmap_page *pc,
			     const struct pk_selfmon_ops *ops, unsigned max_retries,
			     struct pk_userpage_value *out);

/* The arithmetic of the protocol, exposed for tests and other page readers. */
/* raw counter bits -> signed value of its low `width` bits (1..64) */
PK_API int64_t pk_userpage__sign_extend(uint64_t raw, unsigned width);
/* ns elapsed since the page's times: time_offset + cyc * time_mult >> time_shift,
 * with cyc first corrected by time_cycles/time_mask when cap_user_time_short */
PK_API uint64_t pk_userpage__time_delta(uint64_t cyc, uint32_t time_mult, uint16_t time_shift,
					uint64_t time_offset, bool cap_short, uint64_t time_cycles,
					uint64_t time_mask);

/* --- a self-monitoring group ------------------------------------------------- */

enum pk_selfmon_path {
	PK_SELFMON_PATH_AUTO = 0,	/* user page when valid here, read(2) otherwise */
	PK_SELFMON_PATH_SYSCALL,	/* always read(2); pages not mapped */
	PK_SELFMON_PATH_USER,		/* user page, or the open fails saying why */
};

struct pk_selfmon_opts {
	size_t sz;			/* sizeof(struct pk_selfmon_opts) */
	enum pk_selfmon_path path;
	const struct pk_selfmon_ops *ops;	/* NULL: pk_selfmon_ops__native() */
	/* Another task or one CPU instead of the calling thread on any CPU. Such
	 * groups always read with read(2): rdpmc/mrs would read whatever the
	 * current CPU counts, with no error. */
	bool has_target;
	int pid;			/* with has_target: pid (0: self), as perf_event_open */
	int cpu;			/* with has_target: cpu (-1: any) */
	/* spec resolution (pk_selfmon__open), as struct pk_spec_opts */
	struct pk_catalog *cat;		/* tables, or NULL (sysfs and symbolic events only) */
	size_t model;			/* model in cat; ignored when cat is NULL */
	const struct pk_pmu_tree *pmus;	/* NULL: the machine's tree, read at open */
	/* TopDown */
	uint64_t topdown_reset_ns;	/* enabled time between PERF_METRICS resets;
					 * 0: 2 s; UINT64_MAX: never */
	bool topdown_level2;		/* force Level 2 decoding (else: L2 member or
					 * topdown-heavy-ops in the PMU tree) */
	unsigned max_retries;		/* sequence-lock retries per read; 0: 1000 */
};

struct pk_selfmon;

/*
 * Open SPEC (perf's syntax) as one group of the calling thread: the events of
 * a single {...} group, or all events of a spec without braces (the first
 * leads). perf stat's attr defaults, then: pid 0 / cpu -1 (or the target),
 * leader disabled, no inherit, no enable_on_exec, read_format
 * GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID. On arm64 the core PMU's
 * `rdpmc` and `long` format terms (config1:1, config1:0) are set when the
 * user page path is wanted and allowed; a 64-bit counter refused by the
 * hardware is retried as a 32-bit one. Errors: negative errno, err filled
 * (spec errors carry the column).
 */
PK_API int pk_selfmon__open(struct pk_selfmon **out, const char *spec,
			    const struct pk_selfmon_opts *opts, struct pk_error *err);
/* The same from ready attrs (attrs[0] leads; names may be NULL). The attrs'
 * read_format, disabled, inherit and enable_on_exec are overridden as above. */
PK_API int pk_selfmon__open_attrs(struct pk_selfmon **out, const struct perf_event_attr *attrs,
				  const char *const *names, size_t nr,
				  const struct pk_selfmon_opts *opts, struct pk_error *err);
PK_API void pk_selfmon__free(struct pk_selfmon *g);

PK_API int pk_selfmon__enable(struct pk_selfmon *g);
PK_API int pk_selfmon__disable(struct pk_selfmon *g);
/* Zero every count (PERF_EVENT_IOC_RESET on the group); times keep running. */
PK_API int pk_selfmon__reset(struct pk_selfmon *g);

struct pk_selfmon_value {
	uint64_t raw;		/* count */
	uint64_t enabled;	/* ns enabled */
	uint64_t running;	/* ns on a counter */
	double scaled;		/* raw * enabled / running; 0 when it never ran */
	uint64_t id;		/* kernel id (PERF_FORMAT_ID) */
};

/*
 * Read the group: vals[i] for event i, i < min(nr, pk_selfmon__nr()).
 * 0 or negative errno (read(2) failure; -EPERM for a thread other than the
 * opener on a TopDown user-path group, whose read(2) would reset
 * PERF_METRICS). A group belongs to the thread that opened it: other threads
 * get read(2); a fork()ed child does not inherit the user pages and must not
 * use it.
 */
PK_API int pk_selfmon__read(struct pk_selfmon *g, struct pk_selfmon_value *vals, size_t nr);

PK_API size_t pk_selfmon__nr(const struct pk_selfmon *g);
PK_API const char *pk_selfmon__name(const struct pk_selfmon *g, size_t idx);
PK_API int pk_selfmon__fd(const struct pk_selfmon *g, size_t idx);
PK_API const struct perf_event_attr *pk_selfmon__attr(const struct pk_selfmon *g, size_t idx);
/* PK_SELFMON_PATH_USER or PK_SELFMON_PATH_SYSCALL: the path chosen at open */
PK_API enum pk_selfmon_path pk_selfmon__path(const struct pk_selfmon *g);
/* Why read(2) was chosen ("" on the user page path). */
PK_API const char *pk_selfmon__path_reason(const struct pk_selfmon *g);

struct pk_selfmon_stats {
	uint64_t user_reads;	/* reads served by the user pages */
	uint64_t syscall_reads;	/* reads served by read(2) */
	uint64_t fallbacks;	/* user-path reads that had to use read(2) */
	uint64_t fallback_index0;	/* ... of which because of index 0 */
	uint64_t retries;	/* sequence-lock retries, all pages */
	uint64_t topdown_resets;	/* scheduled PERF_METRICS resets */
};
PK_API void pk_selfmon__stats(const struct pk_selfmon *g, struct pk_selfmon_stats *st);

/* --- TopDown ----------------------------------------------------------------- */

enum pk_topdown_metric {
	/* Level 1: PERF_METRICS bytes 0-3, summing to 0xff */
	PK_TOPDOWN_RETIRING,
	PK_TOPDOWN_BAD_SPEC,
	PK_TOPDOWN_FE_BOUND,
	PK_TOPDOWN_BE_BOUND,
	/* Level 2, bytes 4-7 (Sapphire Rapids and later) */
	PK_TOPDOWN_HEAVY_OPS,
	PK_TOPDOWN_BR_MISPREDICT,
	PK_TOPDOWN_FETCH_LAT,
	PK_TOPDOWN_MEM_BOUND,
	/* Level 2 by subtraction */
	PK_TOPDOWN_LIGHT_OPS,		/* retiring - heavy_ops */
	PK_TOPDOWN_MACHINE_CLEARS,	/* bad_spec - br_mispredict */
	PK_TOPDOWN_FETCH_BW,		/* fe_bound - fetch_lat */
	PK_TOPDOWN_CORE_BOUND,		/* be_bound - mem_bound */
	PK_TOPDOWN_NR
};
#define PK_TOPDOWN_L1_MASK	0x00fu
#define PK_TOPDOWN_L2_MASK	0xff0u

/* perf's name of the metric: "retiring", "bad_speculation", "light_operations"... */
PK_API const char *pk_topdown__name(enum pk_topdown_metric m);
/* byte i (0-7) of a PERF_METRICS value */
PK_API unsigned pk_topdown__field(uint64_t perf_metrics, unsigned i);
/*
 * Ratios (0..1) of one PERF_METRICS value: field/0xff for the L1 bytes and,
 * with level2, the L2 bytes and the four subtractions. Unused entries: 0.
 */
PK_API void pk_topdown__decode(uint64_t perf_metrics, bool level2, double ratio[PK_TOPDOWN_NR]);

/* SLOTS and PERF_METRICS read together. */
struct pk_topdown_sample {
	uint64_t slots;
	uint64_t metrics;
};

/* Slots of a period, per metric. */
struct pk_topdown {
	double slots;			/* slots in the period(s) */
	double metric[PK_TOPDOWN_NR];	/* slots attributed to each metric */
	uint32_t valid;			/* bit (1 << metric) per metric known */
	uint64_t periods;		/* periods added */
	uint64_t lost;			/* periods that could not be decoded */
};

/*
 * The period from a to b (both since the same reset), topdown.txt's way:
 * each metric is field * SLOTS at both points, the difference divided by
 * 0xff, the ratio over slots_b - slots_a. -ERANGE when b.slots < a.slots (a
 * reset in between). out->periods = 1.
 */
PK_API int pk_topdown__delta(const struct pk_topdown_sample *a, const struct pk_topdown_sample *b,
			     bool level2, struct pk_topdown *out);
/* acc += d (valid bits intersected once acc has periods). */
PK_API void pk_topdown__add(struct pk_topdown *acc, const struct pk_topdown *d);
/* metric / slots for the valid metrics, 0 for the others. */
PK_API void pk_topdown__ratios(const struct pk_topdown *td, double ratio[PK_TOPDOWN_NR]);

/* Is the group a TopDown group (SLOTS leading, TopDown metric members)? */
PK_API bool pk_selfmon__has_topdown(const struct pk_selfmon *g);
PK_API bool pk_selfmon__topdown_level2(const struct pk_selfmon *g);
/*
 * SLOTS and PERF_METRICS now, through the user page (rdpmc), without a
 * system call. -ENOTSUP on read(2)-path or non-TopDown groups, -EAGAIN when
 * the counters are not on the PMU right now (index 0).
 */
PK_API int pk_selfmon__topdown_sample(struct pk_selfmon *g, struct pk_topdown_sample *s);
/* Reset SLOTS and PERF_METRICS now (the group's counts keep their totals). */
PK_API int pk_selfmon__topdown_reset(struct pk_selfmon *g);

/* --- regions ----------------------------------------------------------------- */

/*
 * Named regions accumulate the deltas of every event between begin and end
 * (scaled and raw), the leader's enabled/running deltas and, on TopDown
 * groups, the slots per metric. Different regions may overlap or nest; one
 * region cannot be begun twice. A region interval across pk_selfmon__reset()
 * is dropped (counted in `lost`). Names are copied and looked up with strcmp
 * (the last region used is tried first); hot loops can use the _id variants.
 */
PK_API int pk_selfmon__region_begin(struct pk_selfmon *g, const char *name);
PK_API int pk_selfmon__region_end(struct pk_selfmon *g, const char *name);
/* The id of NAME (created when new), for the _id variants in hot loops. */
PK_API int pk_selfmon__region_id(struct pk_selfmon *g, const char *name);
PK_API int pk_selfmon__region_begin_id(struct pk_selfmon *g, int id);
PK_API int pk_selfmon__region_end_id(struct pk_selfmon *g, int id);

struct pk_selfmon_region {
	const char *name;
	uint64_t calls;		/* completed begin/end pairs */
	uint64_t lost;		/* intervals dropped (reset in between) */
	size_t nr;		/* events */
	const double *scaled;	/* nr sums of scaled deltas (owned by the group) */
	const uint64_t *raw;	/* nr sums of raw deltas */
	uint64_t enabled;	/* sum of the leader's enabled deltas, ns */
	uint64_t running;	/* sum of the leader's running deltas, ns */
	bool has_topdown;
	struct pk_topdown topdown;
};

PK_API size_t pk_selfmon__nr_regions(const struct pk_selfmon *g);
/* Totals of region idx (creation order) / of NAME (-ENOENT). Pointers stay
 * valid until the next region call or close. */
PK_API int pk_selfmon__region(const struct pk_selfmon *g, size_t idx,
			      struct pk_selfmon_region *out);
PK_API int pk_selfmon__find_region(const struct pk_selfmon *g, const char *name,
				   struct pk_selfmon_region *out);
/* A table of every region: calls, per-event totals, TopDown percentages. */
PK_API int pk_selfmon__region_print(const struct pk_selfmon *g, FILE *f);

/* --- can userspace read counters here? ---------------------------------------- */

enum pk_user_access_status {
	PK_USER_ACCESS_OK = 0,
	PK_USER_ACCESS_UNSUPPORTED_ARCH,	/* no counter-read instruction in pmukit */
	PK_USER_ACCESS_NO_HW_PMU,		/* no core PMU in the tree (a VM without vPMU) */
	PK_USER_ACCESS_RDPMC_OFF,		/* x86: <pmu>/rdpmc is 0 */
	PK_USER_ACCESS_SYSCTL_OFF,		/* arm64: kernel.perf_user_access is 0 */
	PK_USER_ACCESS_SYSCTL_MISSING,		/* arm64: no such sysctl (kernel < 5.17) */
	PK_USER_ACCESS_NO_RDPMC_FORMAT,		/* arm64: the PMU has no `rdpmc` format term */
	PK_USER_ACCESS_HETEROGENEOUS,		/* arm64: task not pinned to one PMU's CPUs */
	PK_USER_ACCESS_OPEN_FAILED,		/* the probe event could not be opened/mapped */
	PK_USER_ACCESS_NO_CAP,			/* opened and mapped, cap_user_rdpmc clear */
	PK_USER_ACCESS_NO_INDEX,		/* enabled, but the page's index stays 0 */
	PK_USER_ACCESS_BAD_VALUE,		/* a read through the page did not count */
};

struct pk_user_access_opts {
	size_t sz;
	const char *sysfs;		/* PMU tree root; NULL: PK_SYSFS_DEFAULT */
	const char *sysctl;		/* perf_user_access file; NULL: /proc/sys/kernel/perf_user_access */
	const char *arch;		/* "x86" or "arm64" (or x86_64, aarch64); NULL: this machine */
	bool no_probe;			/* static checks only (implied by a foreign arch) */
	const struct pk_selfmon_ops *ops;	/* NULL: native */
};

struct pk_user_access {
	enum pk_user_access_status status;
	const char *code;	/* "ok", "no-hw-pmu", "rdpmc-off", ... */
	char pmu[64];		/* the core PMU looked at, or "" */
	bool probed;		/* an event was opened and read */
	uint16_t pmc_width;	/* from the probe's page */
	bool cap_user_time;
	char msg[512];		/* what was found */
	char fix[256];		/* how to enable it, or "" */
};

/* Fill out; returns out->status (-EINVAL, out->msg filled, when opts->sz is bad). */
PK_API int pk_user_access__check(const struct pk_user_access_opts *opts,
				 struct pk_user_access *out);
PK_API const char *pk_user_access__code(enum pk_user_access_status st);

#ifdef __cplusplus
}
#endif
#endif
