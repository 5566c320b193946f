/* SPDX-License-Identifier: MIT */
/*
 * evspec/rules.c — the rules of the seed documents on top of plain encoding:
 *
 * - arm64 FEAT_PMUv3_TH (Documentation/arch/arm64/perf.rst): threshold,
 *   threshold_compare (0 !=, 1 ==, 2 >=, 3 <), threshold_count; a PMU whose
 *   caps/threshold_max reads 0 has no thresholds, and no threshold may exceed
 *   it.
 * - Intel TopDown with perf metrics (Ice Lake and later): slots leads any
 *   group holding topdown-* metric events (perf moves it first), metric events
 *   must be in such a group, and cannot sample: in record they only go in a
 *   leader-sampling group {slots,SAMPLER,topdown-x}:S, where the event after
 *   slots samples.
 * - Intel Auto Counter Reload: acr_mask=N (a format term, config2 on
 *   cpu_atom/cpu_core since Linux 6.16) and ratio-to-prev=R, which sets the
 *   previous group event's period (this period / R) and both masks:
 *   previous reloads this one; this one reloads both.
 * - precise_ip limits: x86 PMUs refuse more than caps/max_precise; ":P" asks
 *   for the most the PMU takes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evspec/evlist_int.h"

/* --- arm64 thresholds ------------------------------------------------------------------------ */

static bool is_threshold_term(const char *name)
{
	return !strcmp(name, "threshold") || !strcmp(name, "threshold_compare") ||
	       !strcmp(name, "threshold_count");
}

int rules_pmu_event(struct rctx *rc, struct ev *ev, const struct pk_pmu *pmu,
		    const struct xterm *xs, size_t n)
{
	(void)ev;
	const char *cap = pk_pmu__derived(pmu)->threshold_max;
	if (!cap)
		return 0;
	char *end;
	unsigned long long max = strtoull(cap, &end, 0);
	for (size_t i = 0; i < n; i++) {
		const struct spec_term *t = xs[i].t;
		if (!is_threshold_term(t->name))
			continue;
		if (!max)
			return rctx_error(rc, 0, t->pos, NULL,
					  "%s has no FEAT_PMUv3_TH: caps/threshold_max is 0",
					  pk_pmu__name(pmu));
		if (!strcmp(t->name, "threshold") && t->kind == SPEC_TERM_NUM && t->num > max)
			return rctx_error(rc, 0, t->val_pos.len ? t->val_pos : t->pos, NULL,
					  "threshold=%s is above %s's caps/threshold_max %s (%llu)",
					  t->str ? t->str : "?", pk_pmu__name(pmu), cap, max);
	}
	return 0;
}

/* --- TopDown ------------------------------------------------------------------------------------- */

#define TOPDOWN_SLOTS 0x0400u

static void mark(struct rctx *rc, struct ev *ev)
{
	const struct perf_event_attr *a = &ev->attr0;
	const struct pk_pmu_derived *d = pk_pmu__derived(ev->pmu);
	if (d && !ev->tool && d->has_max_precise)
		ev->max_precise = rc->max_precise >= 0 ? rc->max_precise : d->max_precise;
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW)
		ev->max_precise = rc->max_precise;
	if (!d || a->type != PERF_TYPE_RAW || pk_pmu__type(ev->pmu) != PERF_TYPE_RAW)
		return;
	if (rc->perf_metrics && d->has_slots) {
		if (a->config == TOPDOWN_SLOTS)
			ev->td = TD_SLOTS;
		else if (!(a->config & 0xff) && ((a->config >> 8) & 0xff) >= 0x80 &&
			 !(a->config >> 16))
			ev->td = TD_METRIC;
	}
	if (a->config == 0x8203 && d->has_mem_loads_aux)
		ev->mem_loads_aux = true;
}

size_t rules_group_leader(struct rctx *rc, struct ev **evs, size_t n)
{
	size_t slots = n;
	bool topdown = false;
	rctx_facts(rc);
	if (!rc->perf_metrics)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct ev *ev = evs[i];
		if (!ev->pmu_name || strncmp(ev->pmu_name, "cpu", 3) || !ev->perf_name)
			continue;
		if (strcasestr(ev->perf_name, "slots")) {
			slots = i;
			if (i == 0)
				return 0;
		}
		if (strcasestr(ev->perf_name, "topdown"))
			topdown = true;
		if (slots < n && topdown)
			return slots;
	}
	return 0;
}

static int check_topdown(struct rctx *rc, struct ev **evs, size_t nr, size_t i)
{
	const struct ev *ev = evs[i], *ld = evs[ev->pub.leader];
	struct spec_pos at = spec_pos_make(ev->pub.spec_off, ev->pub.spec_len);
	const char *nm = ev->pub.table_event ? ev->pub.table_event : ev->perf_name;
	(void)nr;
	if (ld->td != TD_SLOTS || ld->pub.nr_members < 2)
		return rctx_error(rc, 0, at, "e.g. {slots,topdown-retiring,topdown-be-bound}",
				  "%s is a TopDown metric event: it must be in a group led by slots "
				  "(the kernel refuses it otherwise)", nm);
	if (rc->opts->mode != PK_SPEC_RECORD)
		return 0;
	if (!ld->sample_read)
		return rctx_error(rc, 0, at, "use {slots,SAMPLING_EVENT,topdown-...}:S",
				  "%s cannot sample: in record it needs a leader-sampling group", nm);
	if (i == ev->pub.leader + 1)
		return rctx_error(rc, 0, at, "put a sampling event (e.g. cycles) right after slots",
				  "%s cannot be the sampling event of {slots,...}:S", nm);
	return 0;
}

/* --- Auto Counter Reload --------------------------------------------------------------------------- */

/* The position of evs[i] within its group: leader 0, then members in order. */
static unsigned group_slot(struct ev **evs, size_t i)
{
	unsigned slot = 0;
	size_t ld = evs[i]->pub.leader;
	for (size_t k = ld + 1; k <= i; k++)
		if (evs[k]->pub.leader == ld)
			slot++;
	return i == ld ? 0 : slot;
}

static uint64_t gather_bits(uint64_t word, uint64_t mask)
{
	uint64_t v = 0;
	unsigned vb = 0;
	for (unsigned b = 0; b < 64; b++)
		if (mask & (UINT64_C(1) << b))
			v |= ((word >> b) & 1) << vb++;
	return v;
}

static const struct pk_pmu_format *acr_format(const struct ev *ev)
{
	return ev->pmu ? pk_pmu__derived(ev->pmu)->acr_mask : NULL;
}

static int acr_set(struct rctx *rc, struct ev *ev, uint64_t mask, struct spec_pos at)
{
	const struct pk_pmu_format *f = acr_format(ev);
	if (!f)
		return rctx_error(rc, 0, at, "Auto Counter Reload is in Linux 6.16 and later",
				  "PMU '%s' has no acr_mask format", ev->pmu_name ? ev->pmu_name : "?");
	__u64 *w = encode_config_word(&ev->attr0, f->config);
	if (!w)
		return rctx_error(rc, 0, at, NULL, "acr_mask is in config3: headers too old");
	*w |= encode_place_bits(f->mask, mask);
	return 0;
}

static uint64_t event_period(const struct rctx *rc, const struct ev *ev)
{
	const struct ev_cterm *p = ev_find_cterm(ev, CT_PERIOD);
	if (p && (!p->weak || !rc->opts->period))
		return p->num;
	return rc->opts->period;
}

/* An acr_mask written in the spec (before ratio-to-prev adds any): its bits, else 0. */
static uint64_t explicit_acr(const struct ev *ev)
{
	const struct pk_pmu_format *f = acr_format(ev);
	struct perf_event_attr a = ev->attr0;
	__u64 *w = f ? encode_config_word(&a, f->config) : NULL;
	return w ? gather_bits(*w, f->mask) : 0;
}

static int ratio_to_prev(struct rctx *rc, struct ev **evs, size_t nr, size_t i,
			 const struct ev_cterm *ct, const uint64_t *given)
{
	struct ev *ev = evs[i];
	size_t ld = ev->pub.leader;
	if (evs[ld]->pub.nr_members < 2)
		return rctx_error(rc, 0, ct->pos, "e.g. {cpu_atom/instructions/,cpu_atom/cycles,period=100000,ratio-to-prev=0.5/}",
				  "ratio-to-prev needs a group: it relates this event to the one before it");
	if (i == ld)
		return rctx_error(rc, 0, ct->pos, NULL,
				  "ratio-to-prev on the first event of the group: no previous event");
	size_t p = i;
	while (p-- > ld)
		if (evs[p]->pub.leader == ld)
			break;
	struct ev *prev = evs[p];
	(void)nr;
	/* perf refuses to merge the two ("has set config2 (acr_mask?) already") */
	if (given[i] || given[p])
		return rctx_error(rc, 0, ct->pos, "write the masks with acr_mask=, or the ratio, not both",
				  "ratio-to-prev sets the acr_mask of %s, which the spec sets already",
				  given[i] ? "this event" : "the previous event");
	if (prev->pmu != ev->pmu || !ev->pmu)
		return rctx_error(rc, 0, ct->pos, NULL,
				  "ratio-to-prev compares events of one PMU; the previous event is on %s",
				  prev->pmu_name ? prev->pmu_name : "no PMU");
	uint64_t period = event_period(rc, ev);
	if (!period)
		return rctx_error(rc, 0, ct->pos, "add period=N to this event (or record -c N)",
				  "ratio-to-prev needs this event's sample period");
	double pp = (double)period / ct->fnum;
	if (!(pp >= 1 && pp < 18446744073709551615.0))
		return rctx_error(rc, 0, ct->pos, NULL, "ratio-to-prev=%g gives a period out of range",
				  ct->fnum);
	struct ev_cterm per = { .kind = CT_PERIOD, .num = (uint64_t)(pp + 0.5), .pos = ct->pos };
	int r = ev_add_cterm(rc, prev, &per);
	unsigned sp = group_slot(evs, p), se = group_slot(evs, i);
	if (!r)
		r = acr_set(rc, prev, UINT64_C(1) << se, ct->pos);
	if (!r)
		r = acr_set(rc, ev, (UINT64_C(1) << sp) | (UINT64_C(1) << se), ct->pos);
	if (!r && !ev_find_cterm(ev, CT_PERIOD)) {
		per.num = period;
		r = ev_add_cterm(rc, ev, &per);
	}
	return r;
}

static int acr_check(struct rctx *rc, struct ev **evs, size_t i)
{
	struct ev *ev = evs[i];
	const struct pk_pmu_format *f = acr_format(ev);
	if (!f)
		return 0;
	__u64 *w = encode_config_word(&ev->attr0, f->config);
	if (!w)
		return 0;
	ev->pub.acr_mask = gather_bits(*w, f->mask);
	if (!ev->pub.acr_mask)
		return 0;
	size_t members = evs[ev->pub.leader]->pub.nr_members;
	if (members < 64 && (ev->pub.acr_mask >> members))
		return rctx_error(rc, 0, spec_pos_make(ev->pub.spec_off, ev->pub.spec_len), NULL,
				  "acr_mask=0x%llx names events beyond this group of %zu",
				  (unsigned long long)ev->pub.acr_mask, members);
	return 0;
}

/* perf record opens per CPU: a member on other CPUs than its leader finds no leader fd. */
static bool is_hybrid(const struct rctx *rc, const struct pk_pmu *pmu)
{
	for (size_t i = 0; pmu && i < rc->nr_hybrid; i++)
		if (rc->hybrid[i] == pmu)
			return true;
	return false;
}

static int check_hybrid_group(struct rctx *rc, struct ev **evs, size_t i)
{
	const struct ev *ev = evs[i], *ld = evs[ev->pub.leader];
	if (rc->opts->mode != PK_SPEC_RECORD || ev == ld || !is_hybrid(rc, ev->pmu) ||
	    !is_hybrid(rc, ld->pmu) || ev->pmu == ld->pmu)
		return 0;
	return rctx_error(rc, 0, spec_pos_make(ev->pub.spec_off, ev->pub.spec_len),
			  "make one group per core PMU, e.g. {cpu_core/cycles/,cpu_core/instructions/}",
			  "this group mixes %s and %s events: perf record cannot open it (the "
			  "leader is not on the member's CPUs)", ld->pmu_name, ev->pmu_name);
}

/* --- all of it ---------------------------------------------------------------------------------- */

int rules_check(struct rctx *rc, struct ev **evs, size_t nr)
{
	int r;
	rctx_facts(rc);
	for (size_t i = 0; i < nr; i++)
		mark(rc, evs[i]);
	/*
	 * ratio-to-prev is a record option (perf applies it configuring a record
	 * event); perf stat leaves it out, so the attrs count without reloads.
	 */
	uint64_t *given = NULL;
	if (rc->opts->mode == PK_SPEC_RECORD &&
	    !(given = pk_arena__alloc(rc->arena, (nr ? nr : 1) * sizeof(*given))))
		return rctx_error(rc, -ENOMEM, spec_pos_make(0, 0), NULL, "out of memory");
	for (size_t i = 0; given && i < nr; i++)
		given[i] = explicit_acr(evs[i]);
	for (size_t i = 0; given && i < nr; i++) {
		const struct ev_cterm *ct = ev_find_cterm(evs[i], CT_RATIO_TO_PREV);
		if (ct && (r = ratio_to_prev(rc, evs, nr, i, ct, given)))
			return r;
	}
	for (size_t i = 0; i < nr; i++) {
		struct ev *ev = evs[i];
		if (ev->td == TD_METRIC && (r = check_topdown(rc, evs, nr, i)))
			return r;
		if ((r = acr_check(rc, evs, i)) || (r = check_hybrid_group(rc, evs, i)))
			return r;
		if (ev->attr0.precise_ip && ev->max_precise >= 0 &&
		    ev->attr0.precise_ip > (unsigned)ev->max_precise)
			return rctx_error(rc, 0, spec_pos_make(ev->pub.spec_off, ev->pub.spec_len),
					  ev->max_precise ? "use fewer 'p' (or 'P': the most it supports)"
							  : "drop the 'p' modifiers",
					  "precise_ip=%u: the PMU supports at most %d (caps/max_precise)",
					  ev->attr0.precise_ip, ev->max_precise);
	}
	return 0;
}
