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

/* What samples share: interned, one id per sample. */
struct pk_sample_rec {
	uint32_t stack, thread;
	int32_t cpu;
	uint32_t event;
};

#define PK_TBLOCK_SHIFT 6
#define PK_TBLOCK ((size_t)1 << PK_TBLOCK_SHIFT)
#define PK_SCHUNK_SHIFT 14
#define PK_SCHUNK ((size_t)1 << PK_SCHUNK_SHIFT)

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

	/*
	 * Samples, small per sample: what repeats (stack, thread, cpu, event) is
	 * interned as a sample record and each sample keeps its record's id; times
	 * are offsets from their block's first time (a block whose span does not fit
	 * 32 bits keeps full times); periods and per-event values get columns only
	 * once a sample needs them (a period other than the first, a weight, group
	 * values).
	 */
	size_t nr_samples;
	struct pk_recset srecs;			/* struct pk_sample_rec */
	/* per sample, in chunks of PK_SCHUNK that never move (no copies, no holes as they grow) */
	uint16_t **s_rec16;			/* the record ids of a chunk while they fit 16 bits */
	uint32_t **s_rec32;			/* then (NULL before) */
	uint16_t **t_d16;			/* the time step from the sample before in its block */
	size_t nr_chunks;
	uint64_t *t_base;			/* per block: the time of its first sample */
	uint32_t *t_c32, *t_c64;		/* per block: 0, or 1 + its chunk in t_o32 / t_full */
	uint32_t *t_o32;			/* PK_TBLOCK offsets from the base per chunk */
	uint64_t *t_full;			/* PK_TBLOCK times per chunk */
	size_t nr_c32, nr_c64;
	uint64_t t_last;			/* the last sample's time */
	uint64_t period0;			/* the first sample's period */
	uint64_t *s_period;			/* NULL while every period is period0 */
	struct pk_profile_value *s_values;	/* nr_samples x nr_events; NULL while not needed */
	struct pk_profile_value *scratch;	/* nr_events: what pk_profile__sample points to */
	size_t cap_rec16, cap_rec32, cap_td16, cap_tbase, cap_tc32, cap_tc64, cap_to32, cap_tfull, cap_period, cap_values;

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

static inline const struct pk_sample_rec *pk_profile__srec(const struct pk_profile *p, size_t i)
{
	const uint32_t *r32 = p->s_rec32[i >> PK_SCHUNK_SHIFT];
	size_t k = i & (PK_SCHUNK - 1);
	return (const struct pk_sample_rec *)pk_recset__get(&p->srecs,
		r32 ? r32[k] : p->s_rec16[i >> PK_SCHUNK_SHIFT][k]);
}

static inline uint64_t pk_profile__s_time(const struct pk_profile *p, size_t i)
{
	size_t b = i >> PK_TBLOCK_SHIFT, k = i & (PK_TBLOCK - 1);
	if (p->t_c64[b])
		return p->t_full[((size_t)(p->t_c64[b] - 1) << PK_TBLOCK_SHIFT) + k];
	if (p->t_c32[b])
		return p->t_base[b] + p->t_o32[((size_t)(p->t_c32[b] - 1) << PK_TBLOCK_SHIFT) + k];
	uint64_t t = p->t_base[b];
	const uint16_t *d = p->t_d16[i >> PK_SCHUNK_SHIFT] + ((i - k) & (PK_SCHUNK - 1));
	for (size_t j = 1; j <= k; j++)	/* a block never crosses a chunk */
		t += d[j];
	return t;
}

/* Sample i's value of event e (0 for an event that did not take it and has no group value). */
static inline struct pk_profile_value pk_profile__s_value(const struct pk_profile *p, size_t i,
							   uint32_t e)
{
	if (p->s_values)
		return p->s_values[i * p->nr_events + e];
	if (pk_profile__srec(p, i)->event != e)
		return (struct pk_profile_value){ 0, 0 };
	return (struct pk_profile_value){ p->s_period ? p->s_period[i] : p->period0, 0 };
}

#endif
