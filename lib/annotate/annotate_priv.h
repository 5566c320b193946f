/* SPDX-License-Identifier: MIT */
/*
 * annotate_priv.h — the annotate objects' layouts, shared by annotate.c
 * (collection), lines.c (an annotation's lines) and print.c (--stdio).
 */
#ifndef PMUKIT_ANNOTATE_PRIV_H
#define PMUKIT_ANNOTATE_PRIV_H

#include <pmukit/annotate.h>

#include "annotate_int.h"
#include "util/u64map.h"

struct ann_counts {
	uint64_t nr_samples, period;
};

/*
 * The samples of one event at one address (summed as they come: an entry
 * holds about one hit per instruction, not one per sample).
 */
struct ann_hit {
	uint64_t rip, period;
	uint64_t nr_samples;
	uint64_t weight;		/* the sum of PERF_SAMPLE_WEIGHT(_STRUCT)'s weights, on the samples' own event */
	uint64_t nr_weighted;		/* samples with a weight (counted once: on their own event) */
	int attr;
};

struct ann_entry {
	struct pk_dso *dso;
	const struct pk_sym *sym;
	struct ann_counts *ev;		/* per attr */
	struct ann_hit *hits;
	size_t nr_hits, cap_hits;
	uint32_t *at;			/* by offset in sym: 1 + the first hit there (small symbols) */
	struct pk_u64map by_addr;	/* address ^ event << 56 -> hit, for the others */
};

#define ANN_OBJ_CACHE	4	/* binaries kept open */
#define ANN_DIRECT_MAX	(1u << 16)	/* symbols up to this size index their hits by offset */

/*
 * Samples summed by what resolves them (event, thread, cpumode, ip) until
 * the session's threads or maps are about to change, or the end: each key is
 * then resolved once (pk_annotate__process).
 */
struct ann_agg_slot {
	uint64_t ip;
	int32_t pid, tid;
	int attr;
	uint8_t cpumode, used;
	uint64_t sample_type;		/* the attr's */
	uint64_t nr_samples, period, weight;
};

struct ann_agg {
	struct ann_agg_slot *v;
	uint32_t *used;			/* the slots in use, in the order they were taken */
	size_t cap, nr;			/* cap a power of two */
};

struct pk_annotate {
	struct pk_session *s;
	struct pk_annotate_opts opts;
	struct ann_counts *totals;	/* per attr */
	size_t nr_attrs;
	struct ann_entry *entries;
	size_t nr_entries, cap_entries;
	struct pk_u64map by_sym;	/* sym pointer -> entry */
	const struct pk_sym *last_sym;	/* the last sample's, and its entry */
	size_t last_entry;
	size_t *order, nr_order;	/* entries of events [sorted_for, + sorted_nr), hottest first */
	int sorted_for, sorted_nr;
	struct pk_u64map read_prev;	/* PERF_SAMPLE_READ: each id's last value */
	/*
	 * The binaries opened last, kept for their next symbols (hottest first
	 * goes back and forth between a program and its libraries), the most
	 * recently used first.
	 */
	struct ann_obj_slot { char *path; struct ann_objfile *obj; } objs[ANN_OBJ_CACHE];
	size_t nr_objs;
	/*
	 * -l's " // ??:0" was the last srcline printed: perf's prev_line then
	 * still points at its static "??:0" in the next symbol (other
	 * srclines are freed with their symbol).
	 */
	bool unknown_last;
	/*
	 * Kernel samples read while the kernel's symbols were still loading
	 * (on the session's worker): their map found as they came, their
	 * symbol looked up once the symbols are there (ann_kwait__flush).
	 */
	struct ann_kwait {
		const struct pk_map *map;
		uint64_t ip, nr_samples, period, weight, sample_type;
		int attr;
	} *kwait;
	size_t nr_kwait, cap_kwait;
	struct ann_agg agg;
};

struct pk_annotation {
	struct pk_annotation_line *lines;
	size_t nr_lines;
	char **texts;			/* owned strings */
	size_t nr_texts;
	uint64_t *counts;		/* nr_samples then period, nr_attrs each, per instruction */
	size_t nr_attrs;
	int attr, nr_group;		/* the events annotated: [attr, attr + nr_group) */
	struct ann_counts *sym_totals;	/* per attr: the symbol's samples */
	struct ann_counts *ev_totals;	/* per attr: the event's samples */
	char *dso_long, *dso_short;
	char *event;			/* the header's event (or group) description */
	char *sym_name;
	char **event_names;		/* nr_group names */
	uint64_t start;			/* objdump address of the symbol */
	uint64_t size;			/* perf's symbol__size: end - start */
	struct pk_dso *dso;		/* the symbol's (--stdio2 names jump and call targets) */
	const struct ann_entry *entry;	/* its samples (-v prints their addresses) */
	int64_t rip_delta;		/* rip = objdump address - rip_delta */
	uint64_t sample_freq;		/* the leader's attr.sample_freq (or period): --stdio2's title */
	struct pk_annotate *a;		/* its collection (print state across symbols) */
	/* beyond perf (extra.c): */
	bool topdown;			/* the events are a TopDown group: the Level 1 columns */
	int td[5];			/* then the attrs of slots, retiring, bad spec, FE, BE (-1: none) */
	bool weights;			/* an event has weights: the average weight column */
};

/*
 * The TopDown and weight columns of each instruction (extra.c), once its
 * counts are in (and avg_weight holds the sum of its weights).
 */
void ann_extra__compute(struct pk_annotation *an);
/*
 * The Level 1 shares (percent of the slots) over every instruction whose
 * srcline is srcline (-l's summary per source line); NAN where unknown.
 */
void ann_extra__srcline_topdown(const struct pk_annotation *an, const char *srcline, double out[4]);

/* annotate_print.c, shared with --stdio2 (stdio2.c) */
double ann_print__percent(const struct pk_annotation *an, const struct pk_annotation_line *l, int attr,
			  enum pk_annotate_percent type);
double ann_print__max_percent(const struct pk_annotation *an, const struct pk_annotation_line *l,
			      enum pk_annotate_percent type);
int ann_print__summary(const struct pk_annotation *an, FILE *f, enum pk_annotate_percent type);
extern const char *const ann_percent_names[];
/* perf annotate --stdio2's text of the annotation (stdio2.c) */
int ann_print__stdio2(const struct pk_annotation *an, FILE *f, const struct pk_annotation_print_opts *o);

#endif
