/* SPDX-License-Identifier: MIT */
/*
 * pmukit/record.h — a sampling session, as perf record runs one: every event
 * of a pk_evlist (plus its tracking dummy, pk_evlist__tracking) opened per
 * CPU and task, one mmap'd ring buffer per CPU that every other fd on that
 * CPU is redirected into (PERF_EVENT_IOC_SET_OUTPUT), ids from
 * PERF_EVENT_IOC_ID, poll() wake-ups, and the buffers drained into a sink as
 * whole records (a record that wraps the buffer's end is copied out whole).
 * Around it: starting a workload held before exec (enable_on_exec), the
 * side-band perf synthesizes for tasks that already run (/proc) and the
 * kernel map (kallsyms), and which DSOs got samples (build-ids).
 *
 * A program recording itself:
 *   struct pk_record *r;
 *   struct pk_record_opts o = { .sz = sizeof(o), .pid = 0 };  // this process, every CPU
 *   pk_record__open(&r, el, &o, &err);
 *   pk_record__enable(r, &err);
 *   ... work ...
 *   pk_record__disable(r, &err);
 *   pk_record__drain(r, my_sink, ctx, &err);   // whole records
 *   pk_record__free(r);
 *
 * pmukit record: pk_workload__start, pk_record__open on its pid, a writer
 * (pmukit/data_write.h) fed the attrs and ids (pk_record__event), the
 * side-band (pk_synth__kernel_mmap, pk_synth__tasks), then pk_workload__go
 * and a loop of pk_record__poll / pk_record__drain until it exits.
 */
#ifndef PMUKIT_RECORD_H
#define PMUKIT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

#include <pmukit/api.h>
#include <pmukit/cpumap.h>
#include <pmukit/error.h>
#include <pmukit/pmu.h>
#include <pmukit/spec.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_record;

/*
 * What to record (perf record's target). Events are opened on every CPU of
 * cpus (NULL: every online CPU), each per thread slot:
 *   - tids/nr_tids (-p: a process's threads, -t): each of those threads;
 *   - else pid: that task and, with inherit, its children (a workload;
 *     0 = the calling process); -1: every task (-a, -C).
 * Fields past sz (an older caller's struct) take their defaults.
 */
struct pk_record_opts {
	size_t sz;			/* sizeof(struct pk_record_opts) */
	pid_t pid;
	const pid_t *tids;
	size_t nr_tids;
	const struct pk_cpu_map *cpus;
	bool cpu_list;			/* cpus is a -C list (uncore placement, as counting) */
	const struct pk_pmu_tree *pmus;	/* places events by their PMU's CPUs; NULL: every CPU */
	/*
	 * Data pages of each ring buffer, a power of two; 0: perf's default
	 * (512 KiB: 128 pages of 4 KiB).
	 */
	size_t mmap_pages;
	/* Leave out the evlist's tracking dummy (the caller synthesizes or needs no side-band). */
	bool no_tracking;
	/*
	 * perf record's fallback: a hardware cycles event the kernel has no PMU
	 * for (ENOENT, ENXIO, ENODEV) is opened as cpu-clock, its attr otherwise
	 * kept and its name made from the attr as perf makes it ("cpu-clock:ppp").
	 * pk_record__fallbacks counts them.
	 */
	bool cycles_fallback;
};

PK_API int pk_record__open(struct pk_record **out, const struct pk_evlist *el,
			   const struct pk_record_opts *opts, struct pk_error *err);
PK_API void pk_record__free(struct pk_record *r);

/*
 * The events as opened: the evlist's, then the tracking dummy when there is
 * one. Attr exactly as passed to perf_event_open; ids one per fd
 * (PERF_EVENT_IOC_ID), in CPU then thread order.
 */
struct pk_record_event {
	const struct perf_event_attr *attr;
	const char *name;		/* perf's name ("cpu-clock", "dummy:HG") */
	size_t leader;			/* index of its group leader (itself when alone) */
	size_t nr_members;		/* leaders: group size; others 0 */
	const uint64_t *ids;
	size_t nr_ids;
};
PK_API size_t pk_record__nr_events(const struct pk_record *r);
PK_API int pk_record__event(const struct pk_record *r, size_t idx, struct pk_record_event *ev);
/* How many events cycles_fallback opened as cpu-clock. */
PK_API size_t pk_record__fallbacks(const struct pk_record *r);
/* The index of the event an id belongs to, or -1. */
PK_API long pk_record__event_of_id(const struct pk_record *r, uint64_t id);

/*
 * A tracepoint filter (perf record --filter) on every fd of event idx:
 * PERF_EVENT_IOC_SET_FILTER. 0 or -errno with err in perf's words.
 */
PK_API int pk_record__set_filter(struct pk_record *r, size_t idx, const char *filter,
				 struct pk_error *err);

/*
 * Start / stop sampling: PERF_EVENT_IOC_ENABLE / _DISABLE on every group
 * leader's fds (-a, -p, -t; a workload's leaders start at exec with
 * enable_on_exec). 0 or -errno with err filled.
 */
PK_API int pk_record__enable(struct pk_record *r, struct pk_error *err);
PK_API int pk_record__disable(struct pk_record *r, struct pk_error *err);

/* pk_record__poll's answers besides 0 (timeout) and a negative errno. */
#define PK_RECORD_READY	1	/* a buffer has data past its wake-up mark */
#define PK_RECORD_WAKE	2	/* extra_fd is readable */
#define PK_RECORD_HUP	3	/* every recorded task has exited (-p, -t, a workload) */
/*
 * Wait up to timeout_ms (-1: no limit) for a buffer's wake-up, extra_fd
 * (-1: none) to become readable or every task to exit. Interrupted by a
 * signal: -EINTR.
 */
PK_API int pk_record__poll(struct pk_record *r, int timeout_ms, int extra_fd);

/*
 * The sink: len bytes of whole records (each a struct perf_event_header and
 * its size), in buffer order. Return 0, or a negative errno to stop: the
 * records handed over are then not consumed (the kernel keeps them).
 */
typedef int (*pk_record_sink)(void *ctx, const void *recs, size_t len);
/*
 * Drain every ring buffer once (one pass: records written meanwhile wait for
 * the next). Returns the bytes handed to sink, or the sink's negative errno
 * (err filled).
 */
PK_API long long pk_record__drain(struct pk_record *r, pk_record_sink sink, void *ctx,
				  struct pk_error *err);
/* Bytes of records the kernel dropped are not seen here: PERF_RECORD_LOST records say how many. */

/*
 * What an attr asks for that a kernel or PMU may refuse, as text for an
 * error message ("; leader sampling (...); the weight struct (...)"), this
 * machine's lack of a hardware PMU first when the event needs one. Length.
 */
PK_API size_t pk_record__features(const struct perf_event_attr *attr, uint64_t acr_mask, char *buf,
				  size_t len);

/* ---- a workload held before exec ---- */

struct pk_workload;
/*
 * Start argv[0] (PATH searched) with argv, stopped before exec until
 * pk_workload__go; until exec the child is named "perf-exec" (PR_SET_NAME),
 * as perf's is. Its pid is pk_workload__pid. 0 or -errno with err filled.
 */
PK_API int pk_workload__start(struct pk_workload **out, char *const *argv, struct pk_error *err);
PK_API pid_t pk_workload__pid(const struct pk_workload *w);
/*
 * Let it exec. 0, or -errno when exec failed (err says why; the child has
 * exited with 127 and is reaped by pk_workload__wait).
 */
PK_API int pk_workload__go(struct pk_workload *w, struct pk_error *err);
/*
 * Reap it: 1 with *status (a wait status) once it has exited, 0 when it
 * still runs and nohang, -errno.
 */
PK_API int pk_workload__wait(struct pk_workload *w, bool nohang, int *status);
struct rusage;
/* Its resource use (wait4's) once pk_workload__wait has reaped it: 0, else -EBUSY. */
PK_API int pk_workload__rusage(const struct pk_workload *w, struct rusage *ru);
/* Kill (if not yet reaped: SIGKILL before go, else sig), reap and free it. */
PK_API void pk_workload__free(struct pk_workload *w, int sig);

/* ---- side-band perf synthesizes ---- */

/*
 * Bytes of the sample_id trailer (sample_id_all) of a non-sample record for
 * sample_type: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER, 8 each. Synthesized
 * records carry that many zero bytes, as perf writes them.
 */
PK_API size_t pk_sample__id_size(uint64_t sample_type);

/*
 * The kernel's map as perf synthesizes it: PERF_RECORD_MMAP, pid -1,
 * "[kernel.kallsyms]_text" from _text (or _stext) in PROCFS/kallsyms to the
 * top of the address space, misc KERNEL; procfs NULL: "/proc". Addresses
 * hidden (kptr_restrict: all zero): -EPERM with err saying so (nothing
 * written). 0 or the sink's -errno.
 */
PK_API int pk_synth__kernel_mmap(const char *procfs, size_t id_size, pk_record_sink sink, void *ctx,
				 struct pk_error *err);
/*
 * A COMM record for task pid (its own process: pid = tid = pid, misc 0)
 * named comm, as perf synthesizes one for the workload it forked before
 * exec ("perf-exec", the name pk_workload's child has until exec), so that
 * samples taken before exec's own COMM have a name. 0 or the sink's -errno.
 */
PK_API int pk_synth__comm(pid_t pid, const char *comm, size_t id_size, pk_record_sink sink,
			  void *ctx, struct pk_error *err);
/*
 * Running tasks as perf synthesizes them: for each pid (nr 0: every process
 * under procfs), a COMM per thread (the process's first), the executable
 * maps of PROCFS/PID/maps as PERF_RECORD_MMAP2 (data maps too with
 * mmap_data), then a FORK for every other thread from its process. A task
 * that vanished meanwhile is skipped. 0 or the sink's -errno.
 */
PK_API int pk_synth__tasks(const char *procfs, const pid_t *pids, size_t nr, bool mmap_data,
			   size_t id_size, pk_record_sink sink, void *ctx, struct pk_error *err);

/* ---- what the records say: samples, losses, DSOs that got samples ---- */

struct pk_record_stats;
/*
 * A reader of the recorded stream: counts samples and lost records, and
 * follows COMM/MMAP/MMAP2/FORK/EXIT to know which DSO each sample's IP (and
 * its user callchain) fell in. sample_type per id from r (NULL: the single
 * sample_type given).
 */
PK_API int pk_record_stats__new(struct pk_record_stats **out, const struct pk_record *r,
				uint64_t sample_type);
PK_API void pk_record_stats__free(struct pk_record_stats *s);
/* Feed whole records (a pk_record_sink's input). 0 or -ENOMEM. */
PK_API int pk_record_stats__feed(struct pk_record_stats *s, const void *recs, size_t len);
PK_API uint64_t pk_record_stats__samples(const struct pk_record_stats *s);
/* PERF_RECORD_LOST's lost counts plus PERF_RECORD_LOST_SAMPLES'. */
PK_API uint64_t pk_record_stats__lost(const struct pk_record_stats *s);
/* Number of PERF_RECORD_LOST / _LOST_SAMPLES records. */
PK_API uint64_t pk_record_stats__lost_records(const struct pk_record_stats *s);
/*
 * The DSOs that got samples: pid (-1: the kernel), misc (cpumode:
 * PERF_RECORD_MISC_KERNEL or _USER) and the filename as mapped
 * ("[kernel.kallsyms]" for the kernel). Stops when fn returns non-zero.
 */
PK_API int pk_record_stats__for_each_dso(const struct pk_record_stats *s,
					 int (*fn)(void *ctx, int32_t pid, uint16_t misc, const char *filename),
					 void *ctx);

#ifdef __cplusplus
}
#endif
#endif
