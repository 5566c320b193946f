/* SPDX-License-Identifier: MIT */
/*
 * annotate/extra.c — annotate's columns beyond perf: for a TopDown group
 * ({slots,$ev,topdown-*}:S, topdown.txt) each instruction's Level 1 shares
 * of its slots, computed with report's function (report/topdown.h) over the
 * periods of the samples on that instruction, as report computes them over
 * a symbol's, and each source line's over its instructions (-l); for
 * weighted samples (-W) each instruction's average weight.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <pmukit/annotate.h>
#include <pmukit/session.h>

#include "annotate_priv.h"
#include "report/topdown.h"

/* attr of each TD_SLOTS..TD_BE member of the annotation's events (-1: none); false: not TopDown */
static bool topdown_members(const struct pk_annotation *an, int td[TD_BE + 1])
{
	for (int k = 0; k <= TD_BE; k++)
		td[k] = -1;
	if (an->nr_group < 2)
		return false;
	for (int m = 0; m < an->nr_group; m++) {
		const char *name = pk_session__event_name(an->a->s, an->attr + m);
		int k = name ? rp_topdown_kind(name) : -1;
		if (k >= 0 && k <= TD_BE && td[k] < 0)
			td[k] = an->attr + m;
	}
	/* as report: slots leads the group, and a metric is there */
	bool metric = false;
	for (int k = TD_RETIRING; k <= TD_BE; k++)
		metric |= td[k] >= 0;
	return td[TD_SLOTS] == an->attr && metric;
}

void ann_extra__compute(struct pk_annotation *an)
{
	int td[TD_BE + 1];
	bool topdown = topdown_members(an, td);
	an->topdown = topdown;
	for (int k = 0; k <= TD_BE; k++)
		an->td[k] = td[k];
	for (size_t i = 0; i < an->nr_lines; i++) {
		struct pk_annotation_line *l = &an->lines[i];
		for (int k = 0; k < 4; k++)
			l->topdown[k] = NAN;
		if (l->offset < 0)
			continue;
		if (l->nr_weighted) {
			an->weights = true;
			l->avg_weight /= (double)l->nr_weighted;
		}
		for (int k = TD_RETIRING; topdown && k <= TD_BE; k++) {
			double v;
			if (td[k] >= 0 && rp_topdown_ratio(l->period[td[TD_SLOTS]], l->period[td[k]], &v))
				l->topdown[k - TD_RETIRING] = v;
		}
	}
}

void ann_extra__srcline_topdown(const struct pk_annotation *an, const char *srcline, double out[4])
{
	uint64_t sum[TD_BE + 1] = { 0 };
	for (size_t i = 0; i < an->nr_lines; i++) {
		const struct pk_annotation_line *l = &an->lines[i];
		if (l->offset < 0 || !l->srcline || strcmp(l->srcline, srcline))
			continue;
		for (int k = 0; k <= TD_BE; k++)
			sum[k] += an->td[k] >= 0 ? l->period[an->td[k]] : 0;
	}
	for (int k = TD_RETIRING; k <= TD_BE; k++) {
		double v;
		out[k - TD_RETIRING] = NAN;
		if (an->topdown && an->td[k] >= 0 && rp_topdown_ratio(sum[TD_SLOTS], sum[k], &v))
			out[k - TD_RETIRING] = v;
	}
}
