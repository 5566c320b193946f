/* SPDX-License-Identifier: MIT */
/*
 * report/topdown.h — the TopDown computation report's columns use
 * (topdown_cols.c), shared with annotate's per-instruction columns: which
 * member of a {slots,$ev,topdown-*}:S group an event is, and a metric's
 * share of the slots (topdown.txt's delta formulas, over summed periods).
 */
#ifndef PMUKIT_REPORT_TOPDOWN_H
#define PMUKIT_REPORT_TOPDOWN_H

#include <stdbool.h>
#include <stdint.h>

/* the kinds rp_topdown_kind answers: slots, then Level 1, then Level 2 */
enum { TD_SLOTS, TD_RETIRING, TD_BAD_SPEC, TD_FE, TD_BE, TD_HEAVY, TD_BR_MIS, TD_FETCH_LAT, TD_MEM };

/* The TD_* kind of an event name ("slots", "cpu/topdown-retiring/"...), -1: none. */
int rp_topdown_kind(const char *name);
/* A metric's percent of the slots: 100 * v / slots; false when there are no slots. */
bool rp_topdown_ratio(uint64_t slots, uint64_t v, double *out);

#endif
