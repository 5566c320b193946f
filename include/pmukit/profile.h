/* SPDX-License-Identifier: MIT */
/*
 * pmukit/profile.h — an in-memory sampled profile: events, interned frames,
 * interned stacks (a tree of shared prefixes), threads and samples. The
 * report/script commands fill it from perf.data; the exporters
 * (pmukit/export.h) write it as folded stacks, pprof, Firefox Profiler JSON
 * and flame graphs.
 *
 *   struct pk_profile *p;
 *   pk_profile__new(&p);
 *   int ev = pk_profile__add_event(p, &(struct pk_profile_event){
 *           .name = "cpu-clock", .unit = "nanoseconds", .period = 250000 });
 *   uint32_t f[2], stack, thr;
 *   pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "leaf",
 *           .dso = "/usr/bin/app", .addr = 0x401234 }, &f[0]);
 *   pk_profile__intern_frame(p, &(struct pk_profile_frame){ .name = "main",
 *           .dso = "/usr/bin/app", .addr = 0x401000 }, &f[1]);
 *   pk_profile__intern_stack(p, f, 2, &stack);		// leaf first
 *   pk_profile__intern_thread(p, 42, 42, "app", &thr);
 *   pk_profile__add_sample(p, &(struct pk_profile_sample){ .stack = stack,
 *           .thread = thr, .cpu = 0, .event = ev, .time = t, .period = 250000 });
 *
 * Ids are dense, start at 0 (stack 0 is the empty stack), and are stable for
 * the life of the profile; strings returned point into the profile.
 */
#ifndef PMUKIT_PROFILE_H
#define PMUKIT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmukit/api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_profile;

/* What a sampled value measures. Strings are copied. */
struct pk_profile_event {
	const char *name;	/* as perf names it, modifiers included: "cpu-clock:u" */
	const char *unit;	/* of the sample periods: "nanoseconds", "count", "bytes"... NULL: "count" */
	uint64_t period;	/* fixed sample period (-c), 0 when sampled by frequency */
	uint64_t freq;		/* sample frequency in Hz (-F), 0 when by period */
	const char *weight_unit;/* unit of the samples' weights ("cycles"); NULL when unweighted */
};

enum pk_frame_kind {
	PK_FRAME_USER = 0,
	PK_FRAME_KERNEL,
	PK_FRAME_JIT,		/* /tmp/perf-PID.map, jitted-*.so */
};

/* One frame of a call stack; interned on every field. Strings are copied. */
struct pk_profile_frame {
	const char *name;	/* function; NULL or "" when unknown */
	const char *dso;	/* as perf prints it: a path, "[kernel.kallsyms]", "[vdso]"; NULL unknown */
	const char *file;	/* source file, NULL when unknown */
	uint32_t line;		/* source line, 0 when unknown */
	bool inlined;		/* inlined into the next (calling) frame at the same address */
	enum pk_frame_kind kind;
	uint64_t addr;		/* instruction address (as perf script prints it); 0 unknown */
};

struct pk_profile_thread {
	int32_t pid, tid;
	const char *comm;
};

/* Per-event values of one sample. */
struct pk_profile_value {
	uint64_t count;		/* the event's value: the sample period, or a group member's delta */
	uint64_t weight;	/* PERF_SAMPLE_WEIGHT(_STRUCT), 0 when none */
};

struct pk_profile_sample {
	uint32_t stack;		/* from pk_profile__intern_stack; 0 = no frames */
	uint32_t thread;	/* from pk_profile__intern_thread */
	int32_t cpu;		/* -1 when unknown */
	uint32_t event;		/* the event that took the sample */
	uint64_t time;		/* ns (perf clock) */
	uint64_t period;	/* values[event].count when values is NULL */
	uint64_t weight;	/* values[event].weight when values is NULL */
	/* NULL, or one value per event (group reads): overrides period/weight */
	const struct pk_profile_value *values;
};

PK_API int pk_profile__new(struct pk_profile **p);
PK_API void pk_profile__free(struct pk_profile *p);

/*
 * Builders. Each returns 0 or a negative errno (-ENOMEM, -EINVAL, -EBUSY:
 * events are added before the first sample; -E2BIG past 2^32 - 2 ids).
 */
PK_API int pk_profile__add_event(struct pk_profile *p, const struct pk_profile_event *ev);	/* index */
PK_API int pk_profile__intern_frame(struct pk_profile *p, const struct pk_profile_frame *f,
				    uint32_t *id);
/* frames[0] is the leaf, frames[n-1] the outermost caller. n = 0 gives stack 0. */
PK_API int pk_profile__intern_stack(struct pk_profile *p, const uint32_t *frames, size_t n,
				    uint32_t *id);
/* The stack `parent` called into `frame` (for callers that walk root to leaf). */
PK_API int pk_profile__stack_push(struct pk_profile *p, uint32_t parent, uint32_t frame,
				  uint32_t *id);
PK_API int pk_profile__intern_thread(struct pk_profile *p, int32_t pid, int32_t tid,
				     const char *comm, uint32_t *id);
PK_API int pk_profile__add_sample(struct pk_profile *p, const struct pk_profile_sample *s);
/* A reference point: perf clock time perf_ns was wall-clock time wall_ns (ns since the epoch). */
PK_API void pk_profile__set_clock(struct pk_profile *p, uint64_t perf_ns, uint64_t wall_ns);
/* Wall-clock ns of perf time t, or 0 when no reference point was set. */
PK_API uint64_t pk_profile__wall_time(const struct pk_profile *p, uint64_t t);

/* Sizes. */
PK_API size_t pk_profile__nr_events(const struct pk_profile *p);
PK_API size_t pk_profile__nr_frames(const struct pk_profile *p);
PK_API size_t pk_profile__nr_stacks(const struct pk_profile *p);	/* the empty stack included */
PK_API size_t pk_profile__nr_threads(const struct pk_profile *p);
PK_API size_t pk_profile__nr_samples(const struct pk_profile *p);

/* Readers: strings point into the profile (valid until it grows); -EINVAL for ids out of range. */
PK_API int pk_profile__event(const struct pk_profile *p, size_t idx, struct pk_profile_event *ev);
/* -1 when no event has that name */
PK_API int pk_profile__find_event(const struct pk_profile *p, const char *name);
PK_API int pk_profile__frame(const struct pk_profile *p, uint32_t id, struct pk_profile_frame *f);
PK_API int pk_profile__thread(const struct pk_profile *p, uint32_t id, struct pk_profile_thread *t);
/* Stack nodes: the leaf frame, the caller's stack (0 at the root), the number of frames. */
PK_API uint32_t pk_profile__stack_frame(const struct pk_profile *p, uint32_t stack);
PK_API uint32_t pk_profile__stack_parent(const struct pk_profile *p, uint32_t stack);
PK_API uint32_t pk_profile__stack_depth(const struct pk_profile *p, uint32_t stack);
/* Frame ids leaf first into buf[0..n); returns the depth (may exceed n). */
PK_API size_t pk_profile__stack_frames(const struct pk_profile *p, uint32_t stack, uint32_t *buf,
				       size_t n);
/*
 * Sample idx in insertion order; s->values points into the profile (nr_events
 * entries), valid until the next call on it (samples without group values or
 * weights share one array).
 */
PK_API int pk_profile__sample(const struct pk_profile *p, size_t idx, struct pk_profile_sample *s);

/* Totals of one event over the samples it took: their number, sum of counts, sum of weights. */
struct pk_profile_total {
	uint64_t samples, count, weight;
};
PK_API int pk_profile__total(const struct pk_profile *p, size_t event, struct pk_profile_total *t);

#ifdef __cplusplus
}
#endif
#endif
