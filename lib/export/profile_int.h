/* SPDX-License-Identifier: MIT */
/*
 * export/profile_int.h — the profile's storage, shared by the exporters:
 * interned records (strings, frames, stack nodes, threads) and sample columns.
 */
#ifndef PMUKIT_EXPORT_PROFILE_INT_H
#define PMUKIT_EXPORT_PROFILE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <pmukit/profile.h>

#include "util/intern.h"

#define PK_FREC_KIND	0x3u
#define PK_FREC_INLINED	0x4u

/* Strings are references: offset + 1 into the string store, 0 = none. */
struct pk_frame_rec {
	uint64_t addr;
	uint32_t name, dso, file, line, flags, pad;
};

struct pk_stack_node {
	uint32_t frame;		/* UINT32_MAX for node 0 */
	uint32_t parent;	/* the caller's node; always a smaller id */
	uint32_t depth;
};

struct pk_thread_rec {
	int32_t pid, tid;
	uint32_t comm;
};

struct pk_event_rec {
	uint32_t name, unit, weight_unit;
	uint64_t period, freq;
};

struct pk_profile {
	struct pk_intern strs, frames, nodes, threads;
	struct pk_event_rec *events;
	size_t nr_events;

	size_t nr_samples;
	uint32_t *s_stack, *s_thread;
	int32_t *s_cpu;
	uint16_t *s_event;
	uint64_t *s_time;
	struct pk_profile_value *s_values;	/* nr_samples x nr_events */
	size_t cap_stack, cap_thread, cap_cpu, cap_event, cap_time, cap_values;

	bool has_clock;
	uint64_t clock_perf, clock_wall;
};

const char *pk_profile__str(const struct pk_profile *p, uint32_t ref);
const struct pk_frame_rec *pk_profile__frame_rec(const struct pk_profile *p, uint32_t id);
const struct pk_thread_rec *pk_profile__thread_rec(const struct pk_profile *p, uint32_t id);

static inline const struct pk_stack_node *pk_profile__node(const struct pk_profile *p, uint32_t id)
{
	return (const struct pk_stack_node *)p->nodes.buf.data + id;
}

#endif
