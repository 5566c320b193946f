/* SPDX-License-Identifier: MIT */
/*
 * report/topdown_cols.c — TopDown Level 1 (and 2) per entry for sampling read
 * groups led by slots with topdown-* members ({slots,$ev,topdown-*}:S, as
 * topdown.txt describes them). The kernel reads a topdown-* member as its
 * share of slots, so each member's delta per sample is the slots of that
 * category: over an entry's samples, ratio = metric slots / slots (the
 * seed's delta formulas), and the Level 2 complements are Light Ops =
 * Retiring - Heavy Ops, Machine Clears = Bad Spec - Br Mispredict,
 * Fetch BW = FE Bound - Fetch Lat, Core Bound = BE Bound - Mem Bound.
 */
#include <string.h>

#include "report/report_int.h"
#include "report/topdown.h"

static const char *const td_names[] = {
	[TD_RETIRING] = "topdown-retiring", [TD_BAD_SPEC] = "topdown-bad-spec",
	[TD_FE] = "topdown-fe-bound", [TD_BE] = "topdown-be-bound",
	[TD_HEAVY] = "topdown-heavy-ops", [TD_BR_MIS] = "topdown-br-mispredict",
	[TD_FETCH_LAT] = "topdown-fetch-lat", [TD_MEM] = "topdown-mem-bound",
};

/* "slots", "cpu/slots/", "cpu_core/slots/", "topdown-slots" (with or without modifiers) */
static bool is_slots(const char *n)
{
	const char *p = strstr(n, "slots");
	if (!p)
		return false;
	char before = p == n ? 0 : p[-1], after = p[5];
	return (!before || before == '/' || before == '-' || before == '.') &&
	       (!after || after == '/' || after == ':');
}

int rp_topdown_kind(const char *n)
{
	if (is_slots(n))
		return TD_SLOTS;
	for (int k = TD_RETIRING; k <= TD_MEM; k++)
		if (strstr(n, td_names[k]))
			return k;
	return -1;
}

void rp_topdown_setup(struct pk_report *r)
{
	bool any = false, l2 = false;
	for (size_t h = 0; h < r->nr_hists; h++) {
		struct rp_hists *hs = &r->hists[h];
		for (int k = 0; k < 9; k++)
			hs->td[k] = -1;
		if (!hs->is_leader || hs->nr_members < 2)
			continue;
		for (int m = 0; m < hs->nr_members && h + (size_t)m < r->nr_hists; m++) {
			int k = rp_topdown_kind(r->hists[h + m].name);
			if (k >= 0 && hs->td[k] < 0)
				hs->td[k] = (int)h + m;
		}
		/* slots must lead the group (topdown.txt) and a metric must be there */
		bool metric = false;
		for (int k = TD_RETIRING; k <= TD_MEM; k++)
			metric |= hs->td[k] >= 0;
		if (hs->td[TD_SLOTS] != (int)h || !metric) {
			for (int k = 0; k < 9; k++)
				hs->td[k] = -1;
			continue;
		}
		any = true;
		for (int k = TD_HEAVY; k <= TD_MEM; k++)
			l2 |= hs->td[k] >= 0;
	}
	r->topdown = any && r->group && r->opts.topdown != PK_REPORT_OFF;
	/* with -F, the columns are the ones asked for */
	if (!r->topdown || r->field_order)
		return;
	/* the columns go after the value columns, before the first sort key */
	int cols[12], nc = 0;
	for (int c = RP_COL_TD_RETIRING; c <= RP_COL_TD_BE_BOUND; c++)
		cols[nc++] = c;
	if (l2)
		for (int c = RP_COL_TD_HEAVY_OPS; c <= RP_COL_TD_CORE_BOUND; c++)
			cols[nc++] = c;
	int at = 0;
	while (at < r->nr_fields && !rp_col__is_key(r->fields[at]))
		at++;
	int nf = 0, out[32];
	for (int i = 0; i < at && nf < 32; i++)
		out[nf++] = r->fields[i];
	for (int i = 0; i < nc && nf < 32; i++) {
		bool have = false;
		for (int j = 0; j < r->nr_fields; j++)
			have |= r->fields[j] == cols[i];
		if (!have)
			out[nf++] = cols[i];
	}
	for (int i = at; i < r->nr_fields && nf < 32; i++)
		out[nf++] = r->fields[i];
	memcpy(r->fields, out, (size_t)nf * sizeof(int));
	r->nr_fields = nf;
}

static bool member_period(const struct pk_report *r, const struct rp_entry *e, int h, int k,
			  uint64_t *v)
{
	const struct rp_hists *hs = &r->hists[h];
	int mh = hs->td[k];
	if (mh < 0)
		return false;
	int m = mh - h;
	if (!e->pairs) {
		*v = m == 0 ? e->stat.period : 0;
		return true;
	}
	*v = e->pairs[m] != UINT32_MAX ? rp_entry(r, e->pairs[m])->stat.period : 0;
	return true;
}

static bool ratio(const struct pk_report *r, const struct rp_entry *e, int h, int k, double *out)
{
	uint64_t slots, v;
	return member_period(r, e, h, TD_SLOTS, &slots) && member_period(r, e, h, k, &v) &&
	       rp_topdown_ratio(slots, v, out);
}

bool rp_topdown_ratio(uint64_t slots, uint64_t v, double *out)
{
	if (!slots)
		return false;
	*out = 100.0 * (double)v / (double)slots;
	return true;
}

double rp_topdown_value(const struct pk_report *r, int col, const struct rp_entry *e, int h,
			bool *valid)
{
	double a = 0, b = 0;
	*valid = false;
	if (h < 0 || (size_t)h >= r->nr_hists || r->hists[h].td[TD_SLOTS] < 0)
		return 0;
	switch (col) {
	case RP_COL_TD_RETIRING:
		*valid = ratio(r, e, h, TD_RETIRING, &a);
		return a;
	case RP_COL_TD_BAD_SPEC:
		*valid = ratio(r, e, h, TD_BAD_SPEC, &a);
		return a;
	case RP_COL_TD_FE_BOUND:
		*valid = ratio(r, e, h, TD_FE, &a);
		return a;
	case RP_COL_TD_BE_BOUND:
		*valid = ratio(r, e, h, TD_BE, &a);
		return a;
	case RP_COL_TD_HEAVY_OPS:
		*valid = ratio(r, e, h, TD_HEAVY, &a);
		return a;
	case RP_COL_TD_LIGHT_OPS:
		*valid = ratio(r, e, h, TD_RETIRING, &a) && ratio(r, e, h, TD_HEAVY, &b);
		return a - b;
	case RP_COL_TD_BR_MISPREDICT:
		*valid = ratio(r, e, h, TD_BR_MIS, &a);
		return a;
	case RP_COL_TD_MACHINE_CLEARS:
		*valid = ratio(r, e, h, TD_BAD_SPEC, &a) && ratio(r, e, h, TD_BR_MIS, &b);
		return a - b;
	case RP_COL_TD_FETCH_LAT:
		*valid = ratio(r, e, h, TD_FETCH_LAT, &a);
		return a;
	case RP_COL_TD_FETCH_BW:
		*valid = ratio(r, e, h, TD_FE, &a) && ratio(r, e, h, TD_FETCH_LAT, &b);
		return a - b;
	case RP_COL_TD_MEM_BOUND:
		*valid = ratio(r, e, h, TD_MEM, &a);
		return a;
	case RP_COL_TD_CORE_BOUND:
		*valid = ratio(r, e, h, TD_BE, &a) && ratio(r, e, h, TD_MEM, &b);
		return a - b;
	default:
		return 0;
	}
}
