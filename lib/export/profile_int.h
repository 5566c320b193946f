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
#include "util/recset.h"

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

/* Whole stacks already interned, by their frame lists: one lookup for a repeated stack. */
struct pk_stack_slot {
	uint32_t hash, stack;	/* stack 0 = empty slot */
	uint32_t off, len;	/* the frame list in stack_lists, in frames */
};

/* Recently interned strings by the caller's pointer (checked with strcmp: buffers get reused). */
struct pk_str_hint {
	const char *ptr;
	uint32_t ref;
};

struct pk_profile {
	struct pk_intern strs;			/* strings, NUL-terminated */
	struct pk_str_hint hints[4096];
	struct pk_recset frames, nodes, threads;
	struct pk_event_rec *events;
	size_t nr_events, cap_events;

	size_t nr_samples;
	uint32_t *s_stack, *s_thread;
	int32_t *s_cpu;
	uint16_t *s_event;
	uint64_t *s_time;
	struct pk_profile_value *s_values;	/* nr_samples x nr_events */
	size_t cap_stack, cap_thread, cap_cpu, cap_event, cap_time, cap_values;

	struct pk_stack_slot *stack_slots;
	size_t nr_stack_slots, used_stack_slots;
	struct pk_buf stack_lists;	/* uint32_t frame ids, leaf first */

	bool has_clock;
	uint64_t clock_perf, clock_wall;
};

const char *pk_profile__str(const struct pk_profile *p, uint32_t ref);
const struct pk_frame_rec *pk_profile__frame_rec(const struct pk_profile *p, uint32_t id);
const struct pk_thread_rec *pk_profile__thread_rec(const struct pk_profile *p, uint32_t id);

static inline const struct pk_stack_node *pk_profile__node(const struct pk_profile *p, uint32_t id)
{
	return (const struct pk_stack_node *)pk_recset__get(&p->nodes, id);
}

#endif
