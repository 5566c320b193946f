/* SPDX-License-Identifier: MIT */
/*
 * selfmon/perf_metrics.c — TopDown from PERF_METRICS (topdown.txt): the 8-bit fields as
 * Level 1 ratios (four fields summing to 0xff) and, from Sapphire Rapids on,
 * Level 2 ratios with the four subtractions (light operations = retiring -
 * heavy operations, machine clears = bad speculation - branch mispredicts,
 * fetch bandwidth = frontend bound - fetch latency, core bound = backend
 * bound - memory bound); period deltas by scaling each field by SLOTS at both
 * points; and the scheduled PERF_EVENT_IOC_RESET that keeps the fields
 * precise (each of their 255 steps covers SLOTS/255 slots since the last
 * reset, so long-running registers blur short regions).
 *
 * Note on the document's pseudo-code: it writes the ratio as
 * (field_b * slots_b - field_a * slots_a) / (slots_b - slots_a), leaving out
 * the division by 0xff that its own GET_METRIC/0xff decoding implies; the
 * functions here divide by 0xff, so ratios are 0..1 and sum to 1.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pmukit/selfmon.h>

#include "selfmon/selfmon_int.h"

static const char *const names[PK_TOPDOWN_NR] = {
	[PK_TOPDOWN_RETIRING] = "retiring",
	[PK_TOPDOWN_BAD_SPEC] = "bad_speculation",
	[PK_TOPDOWN_FE_BOUND] = "frontend_bound",
	[PK_TOPDOWN_BE_BOUND] = "backend_bound",
	[PK_TOPDOWN_HEAVY_OPS] = "heavy_operations",
	[PK_TOPDOWN_BR_MISPREDICT] = "branch_mispredicts",
	[PK_TOPDOWN_FETCH_LAT] = "fetch_latency",
	[PK_TOPDOWN_MEM_BOUND] = "memory_bound",
	[PK_TOPDOWN_LIGHT_OPS] = "light_operations",
	[PK_TOPDOWN_MACHINE_CLEARS] = "machine_clears",
	[PK_TOPDOWN_FETCH_BW] = "fetch_bandwidth",
	[PK_TOPDOWN_CORE_BOUND] = "core_bound",
};

const char *pk_topdown__name(enum pk_topdown_metric m)
{
	return (unsigned)m < PK_TOPDOWN_NR ? names[m] : NULL;
}

unsigned pk_topdown__field(uint64_t perf_metrics, unsigned i)
{
	return i < 8 ? (unsigned)(perf_metrics >> (i * 8) & 0xff) : 0;
}

/* The L2 entries derived from their L1 parent and measured L2 child. */
static void derive_l2(double v[PK_TOPDOWN_NR])
{
	v[PK_TOPDOWN_LIGHT_OPS] = v[PK_TOPDOWN_RETIRING] - v[PK_TOPDOWN_HEAVY_OPS];
	v[PK_TOPDOWN_MACHINE_CLEARS] = v[PK_TOPDOWN_BAD_SPEC] - v[PK_TOPDOWN_BR_MISPREDICT];
	v[PK_TOPDOWN_FETCH_BW] = v[PK_TOPDOWN_FE_BOUND] - v[PK_TOPDOWN_FETCH_LAT];
	v[PK_TOPDOWN_CORE_BOUND] = v[PK_TOPDOWN_BE_BOUND] - v[PK_TOPDOWN_MEM_BOUND];
}

void pk_topdown__decode(uint64_t perf_metrics, bool level2, double ratio[PK_TOPDOWN_NR])
{
	unsigned nfields = level2 ? 8 : 4;

	for (unsigned i = 0; i < PK_TOPDOWN_NR; i++)
		ratio[i] = 0.0;
	for (unsigned i = 0; i < nfields; i++)
		ratio[i] = (double)pk_topdown__field(perf_metrics, i) / 0xff;
	if (level2)
		derive_l2(ratio);
}

int pk_topdown__delta(const struct pk_topdown_sample *a, const struct pk_topdown_sample *b,
		      bool level2, struct pk_topdown *out)
{
	unsigned nfields = level2 ? 8 : 4;

	memset(out, 0, sizeof(*out));
	if (b->slots < a->slots) {
		out->lost = 1;
		return -ERANGE;
	}
	out->slots = (double)(b->slots - a->slots);
	for (unsigned i = 0; i < nfields; i++) {
		/* field * slots fits: 255 * 2^48 < 2^56 */
		uint64_t sa = pk_topdown__field(a->metrics, i) * a->slots;
		uint64_t sb = pk_topdown__field(b->metrics, i) * b->slots;
		/* 8-bit fields may make a metric shrink a little: keep the sign */
		double d = sb >= sa ? (double)(sb - sa) : -(double)(sa - sb);
		out->metric[i] = d / 0xff;
	}
	out->valid = PK_TOPDOWN_L1_MASK;
	if (level2) {
		derive_l2(out->metric);
		out->valid |= PK_TOPDOWN_L2_MASK;
	}
	out->periods = 1;
	return 0;
}

void pk_topdown__add(struct pk_topdown *acc, const struct pk_topdown *d)
{
	if (d->periods) {
		acc->valid = acc->periods ? acc->valid & d->valid : d->valid;
		acc->slots += d->slots;
		for (unsigned i = 0; i < PK_TOPDOWN_NR; i++)
			acc->metric[i] += d->metric[i];
		acc->periods += d->periods;
	}
	acc->lost += d->lost;
}

void pk_topdown__ratios(const struct pk_topdown *td, double ratio[PK_TOPDOWN_NR])
{
	for (unsigned i = 0; i < PK_TOPDOWN_NR; i++)
		ratio[i] = td->slots > 0 && (td->valid >> i & 1) ? td->metric[i] / td->slots : 0.0;
}

/*
 * Points from the kernel's counts (read(2) path): metric counts are already
 * slots (the kernel scales by SLOTS on every read), so a delta is a plain
 * difference; L2 subtractions need both the parent and the child measured.
 */
static void kernel_delta(const struct td_point *a, const struct td_point *b,
			 struct pk_topdown *out)
{
	static const unsigned pairs[4][3] = {
		{ PK_TOPDOWN_LIGHT_OPS, PK_TOPDOWN_RETIRING, PK_TOPDOWN_HEAVY_OPS },
		{ PK_TOPDOWN_MACHINE_CLEARS, PK_TOPDOWN_BAD_SPEC, PK_TOPDOWN_BR_MISPREDICT },
		{ PK_TOPDOWN_FETCH_BW, PK_TOPDOWN_FE_BOUND, PK_TOPDOWN_FETCH_LAT },
		{ PK_TOPDOWN_CORE_BOUND, PK_TOPDOWN_BE_BOUND, PK_TOPDOWN_MEM_BOUND },
	};
	uint32_t have = a->have & b->have;

	memset(out, 0, sizeof(*out));
	out->slots = (double)(b->slots - a->slots);
	for (unsigned i = 0; i < 8; i++) {
		if (have >> i & 1) {
			uint64_t x = a->count[i], y = b->count[i];
			out->metric[i] = y >= x ? (double)(y - x) : -(double)(x - y);
		}
	}
	out->valid = have;
	for (unsigned k = 0; k < 4; k++) {
		if ((have >> pairs[k][1] & 1) && (have >> pairs[k][2] & 1)) {
			out->metric[pairs[k][0]] = out->metric[pairs[k][1]] - out->metric[pairs[k][2]];
			out->valid |= 1u << pairs[k][0];
		}
	}
	out->periods = 1;
}

bool selfmon_topdown_point_delta(const struct pk_selfmon *g, const struct td_point *a,
				 const struct td_point *b, struct pk_topdown *out)
{
	memset(out, 0, sizeof(*out));
	if (a->source == TD_SRC_NONE || a->source != b->source || a->epoch != b->epoch)
		goto lost;
	if (a->source == TD_SRC_REG)
		return pk_topdown__delta(&a->reg, &b->reg, g->level2, out) == 0;
	if (b->slots < a->slots)
		goto lost;
	kernel_delta(a, b, out);
	return true;
lost:
	memset(out, 0, sizeof(*out));
	out->lost = 1;
	return false;
}

/*
 * On the user path the registers run from the last reset: reset them when
 * the leader has been enabled for td_reset_ns since then and no region is
 * open (an open region's begin point would be lost). read(2)-path groups
 * need nothing: every read(2) resets them in the kernel.
 */
int selfmon_topdown_maybe_reset(struct pk_selfmon *g)
{
	if (!g->topdown || g->path != PK_SELFMON_PATH_USER || g->td_open ||
	    g->td_reset_ns == UINT64_MAX)
		return 0;
	if (g->last_enabled < g->td_reset_enabled)
		g->td_reset_enabled = g->last_enabled;
	if (g->last_enabled - g->td_reset_enabled < g->td_reset_ns)
		return 0;
	return pk_selfmon__topdown_reset(g);
}
