/* SPDX-License-Identifier: MIT */
/*
 * pmukit/count.h — counting mode: open every event of a pk_evlist for a task,
 * a list of threads (-p/-t) or a set of CPUs (-a/-C), in groups through
 * group_fd (leader first), read them with each attr's read_format
 * (PERF_FORMAT_GROUP, TOTAL_TIME_ENABLED/RUNNING), scale multiplexed counts
 * and sum CPUs/threads as perf stat does, give interval (-I) deltas, and say
 * which events were not supported here or never ran.
 *
 * A workload (events enabled at exec):
 *   struct pk_counter *c;
 *   struct pk_count_opts o = { .sz = sizeof(o), .pid = pid };
 *   struct pk_count_value v;
 *   struct pk_error err;
 *   pk_counter__open(&c, el, &o, &err);
 *   ... the task runs ...
 *   pk_counter__read(c, &err);
 *   for (size_t i = 0; i < pk_counter__nr(c); i++)
 *           pk_counter__value(c, i, &v);
 *   pk_counter__free(c);
 *
 * System-wide, per CPU, every second (pmukit stat -a -A -I 1000):
 *   pk_cpu_map__online(NULL, &cpus, &err);
 *   struct pk_count_opts o = { .sz = sizeof(o), .cpus = cpus, .pmus = tree };
 *   pk_counter__open(&c, el, &o, &err);	// the evlist built with system_wide: leaders disabled
 *   pk_counter__enable(c, &err);
 *   for (;;) {
 *           sleep(1);
 *           pk_counter__read(c, &err);
 *           for (size_t s = 0; s < pk_counter__nr_cpus(c); s++)
 *                   if (!pk_counter__value_at(c, i, s, PK_COUNT_ALL, PK_COUNT_DELTA, &v))
 *                           print(pk_counter__cpu(c, s), &v);
 *   }
 *
 * Slots: a counter has CPU slots (pk_counter__cpu: the CPUs of opts->cpus any
 * event is opened on, ascending; or the single opts->cpu, -1 for any CPU) and
 * thread slots (pk_counter__thread: opts->tids in order; or opts->pid, -1
 * for every task). Each event has one fd per (CPU slot it is placed on,
 * thread slot).
 */
#ifndef PMUKIT_COUNT_H
#define PMUKIT_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmukit/api.h>
#include <pmukit/cpumap.h>
#include <pmukit/error.h>
#include <pmukit/pmu.h>
#include <pmukit/spec.h>
#include <pmukit/topology.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_counter;

/*
 * What to count on. Zero is the default of every field (a struct with only
 * sz set counts the calling process on any CPU), and fields past sz (an
 * older caller's struct) take their defaults.
 */
struct pk_count_opts {
	size_t sz;		/* sizeof(struct pk_count_opts) */
	pid_t pid;		/* task to count, on any CPU; 0: the calling process. Ignored with tids or cpus */
	/*
	 * -a / -C: count every task (with tids: those threads) on these CPUs,
	 * each event on the CPUs pk_count__event_cpus gives for its PMU (one CPU:
	 * a map of one, with cpu_list). NULL: the task above on any CPU. The map
	 * is copied.
	 */
	const struct pk_cpu_map *cpus;
	bool cpu_list;		/* cpus is the user's -C list, not all online CPUs (-a) */
	/* -p / -t: one fd per thread, values summed (pk_counter__value_at per thread). NULL: pid. Copied. */
	const pid_t *tids;
	size_t nr_tids;
	/* The PMU tree the evlist was resolved against, to place events by their PMU; NULL: no placement. */
	const struct pk_pmu_tree *pmus;
	/*
	 * The CPU topology of the cpus above, for per-package events
	 * (pk_evsel.per_pkg); only read during open. NULL: the machine's
	 * (PK_CPU_ROOT_DEFAULT), read at open when such an event is counted on
	 * CPUs; a CPU whose socket is unknown has a package of its own.
	 */
	const struct pk_topology *topo;
	/*
	 * perf stat -G: [evsel] the fd of a cgroup directory (of the perf_event
	 * cgroup mount) to count that event in, every task of the cgroup on each
	 * CPU of cpus (PERF_FLAG_PID_CGROUP), or -1 for all tasks; NULL: none.
	 * Only with cpus. Read during open: the caller may close them after.
	 */
	const int *cgroups;
};

enum pk_count_status {
	PK_COUNT_OK,		/* counted (possibly multiplexed: running < enabled) */
	PK_COUNT_NOT_COUNTED,	/* opened but never ran (running == 0): perf's <not counted> */
	PK_COUNT_NOT_SUPPORTED,	/* open failed with ENOENT/EOPNOTSUPP/EINVAL: <not supported> */
};

/*
 * One value. Of one fd: as read. Of several (CPUs, threads), as perf stat
 * aggregates: raw, enabled and running summed, scaled the sum of each fd's
 * scaled value, percent from the summed times.
 *
 * Per-package events (pk_evsel.per_pkg: RAPL energy, uncore counters read the
 * same from every CPU of a package) are counted once per package, as perf's
 * check_per_pkg: in any sum over several CPUs, of the fds that have run
 * (cumulative enabled and running both > 0), only the first of each
 * (socket, die), in (thread slot, CPU slot) order over all the event's fds,
 * adds its value; the others add nothing (they still count in *nr). So a
 * per-core aggregate whose CPUs all come after another of their package is
 * <not counted>. One CPU's value (a single CPU slot, PK_STAT_AGGR_CPU) is
 * that CPU's reading as is.
 */
struct pk_count_value {
	enum pk_count_status status;
	int open_errno;		/* NOT_SUPPORTED: the errno of perf_event_open */
	uint64_t raw;		/* value as read */
	uint64_t enabled, running;	/* ns; 0 when the read_format lacks them */
	double scaled;		/* raw * enabled / running (raw when not multiplexed) */
	double percent;		/* running / enabled * 100 (100 when not multiplexed) */
};

/* pk_counter__value_at: every CPU slot / every thread slot. */
#define PK_COUNT_ALL ((size_t)-1)
/* pk_counter__value_at flags */
#define PK_COUNT_DELTA 1u	/* the change between the last two reads (after the first read: since open) */

/*
 * Open every event of el as opts says, with its attr as is (leaders that the
 * evlist made disabled count nothing until pk_counter__enable or their
 * enable_on_exec). Events the machine does not have (ENOENT, EOPNOTSUPP,
 * EINVAL, ENODEV on any of their CPUs/threads) are marked not supported and
 * closed everywhere, the rest still open; a member whose leader is not
 * supported is not supported either, and a member is only opened where its
 * leader is. An event placed on none of the CPUs (a cpu_atom event with
 * -C of cpu_core CPUs; perf drops it) is not supported with open_errno ENODEV
 * and an empty pk_counter__event_cpus. Tool events (PMU "tool": duration_time,
 * user_time, ...) go to the first CPU of the map only, as perf counts them once.
 * With several threads, a thread that exited before it was opened (ESRCH) is
 * skipped (perf's ignore_missing_thread); with one it is an error naming it.
 * Other failures (EACCES/EPERM with the sysctl or capability that would allow
 * them, EMFILE, ...) close everything and return a negative errno, err
 * naming the event and the CPU or thread.
 */
PK_API int pk_counter__open(struct pk_counter **out, const struct pk_evlist *el,
			    const struct pk_count_opts *opts, struct pk_error *err);
/*
 * perf stat's enable/disable after setup (-a, -p, -t; -D): PERF_EVENT_IOC_ENABLE
 * or _DISABLE on every group leader's fds (members follow their leader).
 * 0 or -errno with err filled.
 */
PK_API int pk_counter__enable(struct pk_counter *c, struct pk_error *err);
PK_API int pk_counter__disable(struct pk_counter *c, struct pk_error *err);
/*
 * Read every opened fd (one read per group with PERF_FORMAT_GROUP). Counters
 * are never reset: each read is cumulative; the previous one is kept for
 * PK_COUNT_DELTA.
 */
PK_API int pk_counter__read(struct pk_counter *c, struct pk_error *err);
PK_API void pk_counter__free(struct pk_counter *c);

/* Number of events (evlist order). */
PK_API size_t pk_counter__nr(const struct pk_counter *c);
/*
 * The last read cumulative value of event idx over every CPU and thread
 * (NOT_COUNTED before the first read, or when every thread was gone at open).
 * -EINVAL for a bad idx.
 */
PK_API int pk_counter__value(const struct pk_counter *c, size_t idx, struct pk_count_value *v);

/* CPU slots: number, and the CPU of a slot (-1: any CPU; -1 too for a bad slot). */
PK_API size_t pk_counter__nr_cpus(const struct pk_counter *c);
PK_API int pk_counter__cpu(const struct pk_counter *c, size_t slot);
/* The CPU slots as a map (every CPU some event is on); NULL when counting per task (cpu -1). */
PK_API const struct pk_cpu_map *pk_counter__cpus(const struct pk_counter *c);
/* The CPUs event idx is placed on (possibly empty); NULL when counting per task or a bad idx. */
PK_API const struct pk_cpu_map *pk_counter__event_cpus(const struct pk_counter *c, size_t idx);
/* Thread slots: number, and the thread of a slot (-1: every task; -1 too for a bad slot). */
PK_API size_t pk_counter__nr_threads(const struct pk_counter *c);
PK_API pid_t pk_counter__thread(const struct pk_counter *c, size_t slot);

/*
 * The value of event idx on one CPU slot (PK_COUNT_ALL: all) and one thread
 * slot (PK_COUNT_ALL: all), cumulative or (flags PK_COUNT_DELTA) of the last
 * interval: per fd the delta of raw/enabled/running, scaled, then summed.
 * As perf stat, a value narrower than all CPUs (one CPU slot) is
 * PK_COUNT_NOT_COUNTED with zero raw/enabled/running when any of its fds did
 * not run (enabled or running 0) in that reading; the total and per-thread
 * values just sum. Not supported events give their status (return 0).
 * -ENOENT when the event has no fd there (not placed on that CPU, its thread
 * gone), -EINVAL for a bad idx or slot.
 */
PK_API int pk_counter__value_at(const struct pk_counter *c, size_t idx, size_t cpu_slot,
				size_t thread_slot, unsigned flags, struct pk_count_value *v);
/* pk_counter__value_at(c, idx, slot, PK_COUNT_ALL, 0, v): one CPU's cumulative value. */
PK_API int pk_counter__value_cpu(const struct pk_counter *c, size_t idx, size_t slot,
				 struct pk_count_value *v);
/*
 * The value of event idx over the CPU slots whose key in mode is id
 * (pk_topology__aggr_ids over pk_counter__cpus), as pk_counter__value_at
 * with the not-counted rule of every non-global mode; PK_STAT_AGGR_GLOBAL: all;
 * PK_STAT_AGGR_THREAD: the thread slot id->thread, all CPUs. *nr (may be NULL)
 * gets the number of fds summed, perf's aggregate-number column ("S0  2").
 * -ENOENT when none of the event's fds is there.
 */
PK_API int pk_counter__value_aggr(const struct pk_counter *c, size_t idx,
				  const struct pk_topology *t, enum pk_stat_aggr mode,
				  const struct pk_aggr_id *id, unsigned flags,
				  struct pk_count_value *v, unsigned *nr);

/* raw * enabled / running, rounded as perf does; raw when running is 0 or equals enabled. */
PK_API double pk_count__scale(uint64_t raw, uint64_t enabled, uint64_t running);
/*
 * Decode one read(2) buffer of a counter opened with read_format: nr values
 * (nr must match the group's opened size with PERF_FORMAT_GROUP, else 1) into
 * out[0..nr), status and scaling filled. Returns 0 or -EINVAL when the buffer
 * is too short or the group size differs.
 */
PK_API int pk_count__decode(uint64_t read_format, const void *buf, size_t len, size_t nr,
			    struct pk_count_value *out);
/*
 * The interval value of one counter from two cumulative readings of it
 * (prev earlier, both with read_format): raw, enabled and running deltas,
 * rescaled; PK_COUNT_NOT_COUNTED when the counter did not run in between
 * (running delta 0). A NOT_SUPPORTED cur is copied. Values of several fds
 * summed cannot be differenced exactly this way: use PK_COUNT_DELTA.
 * 0, or -EINVAL when a counter went backwards.
 */
PK_API int pk_count__delta(const struct pk_count_value *prev, const struct pk_count_value *cur,
			   uint64_t read_format, struct pk_count_value *out);

/*
 * Where an event of pmu goes when counting on map (opts->cpus), as perf 6.12
 * places it (__perf_evlist__propagate_maps), into *out (caller frees):
 * - a PMU with a cpumask file (uncore): its cpumask CPUs, the one CPU per
 *   socket/die the kernel reads it on; with a -C list (cpu_list) the listed
 *   CPUs instead, as perf (the driver counts on its cpumask CPU for each);
 * - a PMU with a cpus file (hybrid cpu_core/cpu_atom, arm64 big.LITTLE):
 *   map ∩ cpus, possibly empty;
 * - any other PMU, or pmu NULL (software, tracepoint, legacy): map.
 * A cpumask/cpus file that does not parse counts as absent. 0 or -ENOMEM.
 */
PK_API int pk_count__event_cpus(const struct pk_pmu *pmu, const struct pk_cpu_map *map,
				bool cpu_list, struct pk_cpu_map **out);

/*
 * -p PID[,PID...]: the threads of each process, from PROCFS/PID/task
 * (procfs NULL: "/proc"), pids in the given order (repeats dropped), each
 * one's threads ascending. *tids is malloc'd (free() it). Errors: -EINVAL for
 * a malformed list (err->column: 1-based position of the bad byte),
 * -ESRCH "no such process PID" when PID has no task directory, -ENOMEM.
 */
PK_API int pk_threads__from_pids(const char *pid_list, const char *procfs, pid_t **tids, size_t *nr,
				 struct pk_error *err);
/*
 * -t TID[,TID...]: the threads as listed (repeats dropped), each checked to
 * exist as PROCFS/TID. Errors as pk_threads__from_pids ("no such thread TID").
 */
PK_API int pk_threads__parse(const char *tid_list, const char *procfs, pid_t **tids, size_t *nr,
			     struct pk_error *err);
/*
 * Every thread of every process under PROCFS (perf stat -a --per-thread
 * counts each on any CPU), ascending. *tids is malloc'd. -errno with err
 * naming PROCFS when it cannot be listed, -ENOMEM.
 */
PK_API int pk_threads__all(const char *procfs, pid_t **tids, size_t *nr, struct pk_error *err);
/* PROCFS/TID/comm without its newline into buf (perf's --per-thread "COMM-TID"). 0 or -errno. */
PK_API int pk_thread__comm(const char *procfs, pid_t tid, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
