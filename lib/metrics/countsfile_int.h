/* SPDX-License-Identifier: MIT */
/*
 * metrics/countsfile_int.h — the inside of a pk_counts, shared by the
 * reader (countsfile.c) and the metric evaluation (countsfile_eval.c).
 */
#ifndef PMUKIT_METRICS_COUNTSFILE_INT_H
#define PMUKIT_METRICS_COUNTSFILE_INT_H

#include <stddef.h>

#include <pmukit/countsfile.h>

#include "util/arena.h"

struct counts_set {
	struct pk_counts_set pub;
	size_t *idx;
	size_t n, cap;
	long dur_rec;		/* a duration_time record of the same interval (any key), or -1 */
};

struct pk_counts {
	struct pk_arena arena;		/* strings */
	struct pk_counts_record *recs;
	size_t nr, cap;
	size_t skipped;
	struct counts_set *sets;
	size_t nr_sets, cap_sets;
};

#endif
