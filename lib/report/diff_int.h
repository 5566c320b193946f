/* SPDX-License-Identifier: MIT */
/*
 * report/diff_int.h — what perf diff's pairing and sorting (diff.c) hands its
 * printer (diff_print.c): the rows of one event, each the baseline's entry
 * (or a dummy standing for a compared file's entry the baseline lacks) with
 * its pair in every compared file and the values computed for them.
 */
#ifndef PMUKIT_REPORT_DIFF_INT_H
#define PMUKIT_REPORT_DIFF_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report_int.h"

/* a row's pair in one compared file (e NULL: none) and perf's values for it */
struct rd_pair {
	const struct rp_entry *e;
	uint64_t period;		/* the pair's (collapsed) period */
	double delta;			/* new share - baseline share (percent points) */
	double ratio;			/* new period / (baseline period or 1) */
	int64_t wdiff;			/* new period * w2 - baseline period * w1 */
};

struct rd_row {
	struct pk_report *r;		/* the report of e */
	const struct rp_entry *e;	/* the baseline's entry, or the compared file's one (dummy) */
	uint64_t period;		/* the baseline period (0 for a dummy) */
	bool dummy;			/* not in the baseline: perf's dummy entry of hists__link */
	bool srcline_known;		/* perf has read its srcline before the widths are measured */
	bool hidden;			/* hidden by a sample filter (its entry's, the first sample's) */
	struct rd_pair *p;		/* [nr files]; p[0] unused */
};

/* one event's diff: the files, their matched hists and the rows */
struct rd_diff {
	struct pk_report *const *r;	/* r[0]: the baseline */
	const char *const *names;
	size_t n;			/* files */
	int *h;				/* each file's hists of this event, -1 none */
	/* each file's total period (baseline: of its rows), or with --percentage relative of its samples (rows) not hidden */
	uint64_t *total;
	struct pk_diff_opts o;
	struct rd_row *rows;
	size_t nr_rows;
};

/* diff_print.c: the column headers (unless quiet) and the rows in the order given */
int rd_print(const struct rd_diff *d, const uint32_t *order, size_t nr, FILE *fp);

#endif
