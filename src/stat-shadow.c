/* SPDX-License-Identifier: MIT */
/*
 * stat-shadow.c — perf's built-in ("shadow") metrics beside a count: CPUs
 * utilized, GHz, insn per cycle, stalled cycles per insn, "X% of all Y", and
 * rates per second; and the kinds and contexts of events they pair by.
 */
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "stat.h"

/* ---- shadow metrics (perf's built-in ones) ---- */

/* The first event of KIND in this aggregation id (same PMU and context unless clocks: perf 6.1
 * gives cycles:u its GHz from task-clock) that counted, or NULL. */
static const struct stat_cell *kind_cell(const struct stat_printer *p, const struct stat_frame *fr,
					 size_t id, const struct stat_ev *self, enum stat_kind kind,
					 bool or_not_counted)
{
	if (!(p->kinds & (1u << kind)))
		return NULL;	/* none in this frame: no scan (thousands of events in --counts) */
	for (size_t e = 0; e < fr->nr_ev; e++) {
		const struct stat_ev *ev = &fr->ev[e];
		const struct stat_cell *c = stat_frame__cell(fr, id, e);

		if (ev->kind != kind || (kind != STAT_K_NSECS && ev->ctx != self->ctx) ||
		    !(c->status == PK_COUNT_OK ||
					  (or_not_counted && c->status == PK_COUNT_NOT_COUNTED)))
			continue;
		if (kind != STAT_K_NSECS && self->pmu && ev->pmu && strcmp(self->pmu, ev->pmu))
			continue;
		return c;
	}
	return NULL;
}

/* Its value (0 when there is none). */
static double find_kind(const struct stat_printer *p, const struct stat_frame *fr, size_t id,
			const struct stat_ev *self,
			enum stat_kind kind)
{
	const struct stat_cell *c = kind_cell(p, fr, id, self, kind, false);
	return c ? c->val : 0;
}

void stat_metric__set(struct stat_metric *m, const char *fmt, double val, const char *label)
{
	memset(m, 0, sizeof(*m));
	m->threshold = -1;
	m->fmt = fmt;
	m->val = val;
	m->valid = fmt != NULL;
	snprintf(m->label, sizeof(m->label), "%s", label ? label : "");
}

static size_t ratio(struct stat_metric *m, double num, double den, const char *label)
{
	if (num && den)
		stat_metric__set(m, "%7.2f%%", num / den * 100.0, label);
	else
		stat_metric__set(m, NULL, 0, label);
	return 1;
}

/*
 * perf's shadow metrics for event ev in aggregation id: up to 2 (instructions
 * may add stalled cycles per insn). Returns how many.
 */
size_t stat_printer__shadow(const struct stat_printer *p, const struct stat_frame *fr, size_t id,
			    size_t e, struct stat_metric *m)
{
	const struct stat_ev *ev = &fr->ev[e];
	double v = stat_frame__cell(fr, id, e)->val;
	size_t n = 0;
	/* "X% of all Y": the event over its denominator */
	static const struct { enum stat_kind kind, of; const char *label; } ratios[] = {
		{ STAT_K_STALLED_FRONT, STAT_K_CYCLES, "frontend cycles idle" },
		{ STAT_K_STALLED_BACK, STAT_K_CYCLES, "backend cycles idle" },
		{ STAT_K_BRANCH_MISS, STAT_K_BRANCHES, "of all branches" },
		{ STAT_K_L1D_MISS, STAT_K_L1D, "of all L1-dcache accesses" },
		{ STAT_K_L1I_MISS, STAT_K_L1I, "of all L1-icache accesses" },
		{ STAT_K_LL_MISS, STAT_K_LL, "of all LL-cache accesses" },
		{ STAT_K_DTLB_MISS, STAT_K_DTLB, "of all dTLB cache accesses" },
		{ STAT_K_ITLB_MISS, STAT_K_ITLB, "of all iTLB cache accesses" },
		{ STAT_K_CACHE_MISSES, STAT_K_CACHE_REFS, "of all cache refs" },
	};

	if (p->o.no_metric_shadow)
		return 0;
	/* perf 6.1 prints the backend ratio even when it is 0 (the frontend one only when not) */
	if (ev->kind == STAT_K_STALLED_BACK) {
		double cyc = find_kind(p, fr, id, ev, STAT_K_CYCLES);
		stat_metric__set(m, "%7.2f%%", cyc ? v / cyc * 100.0 : 0, "backend cycles idle");
		return 1;
	}
	for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++)
		if (ev->kind == ratios[i].kind)
			return ratio(m, v, find_kind(p, fr, id, ev, ratios[i].of), ratios[i].label);
	switch (ev->kind) {
	case STAT_K_NSECS: {
		double wall = fr->wall_ns;
		if (wall)
			stat_metric__set(m, "%8.3f", v / wall, "CPUs utilized");	/* v: ns */
		else
			stat_metric__set(m, NULL, 0, "CPUs utilized");
		return 1;
	}
	case STAT_K_CYCLES: {
		double ns = find_kind(p, fr, id, ev, STAT_K_NSECS);
		if (v && ns)
			stat_metric__set(m, "%8.3f", v / ns, "GHz");
		else
			stat_metric__set(m, NULL, 0, "GHz");
		return 1;
	}
	case STAT_K_INSTRUCTIONS: {
		double cyc = find_kind(p, fr, id, ev, STAT_K_CYCLES);
		double fe = find_kind(p, fr, id, ev, STAT_K_STALLED_FRONT);
		double be = find_kind(p, fr, id, ev, STAT_K_STALLED_BACK);
		double stalled = fe > be ? fe : be;
		if (cyc)
			stat_metric__set(&m[n++], "%7.2f ", v / cyc, "insn per cycle");
		else
			stat_metric__set(&m[n++], NULL, 0, "insn per cycle");
		if (stalled && v)
			stat_metric__set(&m[n++], "%7.2f ", stalled / v, "stalled cycles per insn");
		return n;
	}
	default: {
		/* perf 6.1: a rate wherever a clock was read, 0 /sec when it did not run */
		const struct stat_cell *clk = kind_cell(p, fr, id, ev, STAT_K_NSECS, true);
		if (!clk)
			return 0;
		double ns = clk->status == PK_COUNT_OK ? clk->val : 0;
		double rate = ns ? 1e9 * v * ev->scale / ns : 0;
		const char *pfx = "";
		if (rate >= 1e9) { rate /= 1e9; pfx = "G"; }
		else if (rate >= 1e6) { rate /= 1e6; pfx = "M"; }
		else if (rate >= 1e3) { rate /= 1e3; pfx = "K"; }
		char unit[16];
		snprintf(unit, sizeof(unit), "%s/sec", pfx);
		stat_metric__set(m, "%8.3f", rate, unit);
		return 1;
	}
	}
}

/* ---- kinds ---- */

enum stat_kind stat_kind__of_attr(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE)
		return a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK ?
			STAT_K_NSECS : STAT_K_OTHER;
	if (a->type == PERF_TYPE_HARDWARE) {
		switch (a->config & 0xffffffffULL) {	/* hybrid: PMU type in the high bits */
		case PERF_COUNT_HW_CPU_CYCLES: return STAT_K_CYCLES;
		case PERF_COUNT_HW_INSTRUCTIONS: return STAT_K_INSTRUCTIONS;
		case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND: return STAT_K_STALLED_FRONT;
		case PERF_COUNT_HW_STALLED_CYCLES_BACKEND: return STAT_K_STALLED_BACK;
		case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return STAT_K_BRANCHES;
		case PERF_COUNT_HW_BRANCH_MISSES: return STAT_K_BRANCH_MISS;
		case PERF_COUNT_HW_CACHE_REFERENCES: return STAT_K_CACHE_REFS;
		case PERF_COUNT_HW_CACHE_MISSES: return STAT_K_CACHE_MISSES;
		default: return STAT_K_OTHER;
		}
	}
	if (a->type == PERF_TYPE_HW_CACHE) {
		uint64_t c = a->config & 0xffffffffULL;
		unsigned cache = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;
		static const enum stat_kind all[] = {
			[PERF_COUNT_HW_CACHE_L1D] = STAT_K_L1D, [PERF_COUNT_HW_CACHE_L1I] = STAT_K_L1I,
			[PERF_COUNT_HW_CACHE_LL] = STAT_K_LL, [PERF_COUNT_HW_CACHE_DTLB] = STAT_K_DTLB,
			[PERF_COUNT_HW_CACHE_ITLB] = STAT_K_ITLB,
		};
		if (cache >= sizeof(all) / sizeof(all[0]) || !all[cache])
			return STAT_K_OTHER;
		/* perf matches the whole config: accesses are op read, result access */
		if (op == PERF_COUNT_HW_CACHE_OP_READ && res == PERF_COUNT_HW_CACHE_RESULT_MISS)
			return all[cache] + 1;
		if (op == PERF_COUNT_HW_CACHE_OP_READ && res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
			return all[cache];
	}
	return STAT_K_OTHER;
}

enum stat_kind stat_kind__of_name(const char *name)
{
	static const struct { const char *name; enum stat_kind kind; } names[] = {
		{ "task-clock", STAT_K_NSECS }, { "cpu-clock", STAT_K_NSECS },
		{ "cycles", STAT_K_CYCLES }, { "cpu-cycles", STAT_K_CYCLES },
		{ "instructions", STAT_K_INSTRUCTIONS },
		{ "stalled-cycles-frontend", STAT_K_STALLED_FRONT },
		{ "idle-cycles-frontend", STAT_K_STALLED_FRONT },
		{ "stalled-cycles-backend", STAT_K_STALLED_BACK },
		{ "idle-cycles-backend", STAT_K_STALLED_BACK },
		{ "branches", STAT_K_BRANCHES }, { "branch-instructions", STAT_K_BRANCHES },
		{ "branch-misses", STAT_K_BRANCH_MISS },
		{ "cache-references", STAT_K_CACHE_REFS }, { "cache-misses", STAT_K_CACHE_MISSES },
		{ "L1-dcache-loads", STAT_K_L1D }, { "L1-dcache-load-misses", STAT_K_L1D_MISS },
		{ "L1-icache-loads", STAT_K_L1I }, { "L1-icache-load-misses", STAT_K_L1I_MISS },
		{ "LLC-loads", STAT_K_LL }, { "LLC-load-misses", STAT_K_LL_MISS },
		{ "dTLB-loads", STAT_K_DTLB }, { "dTLB-load-misses", STAT_K_DTLB_MISS },
		{ "iTLB-loads", STAT_K_ITLB }, { "iTLB-load-misses", STAT_K_ITLB_MISS },
	};
	char base[128];
	const char *s = name;
	size_t n;

	/* "cpu_core/cycles/" -> "cycles"; drop ":u"-style modifiers */
	const char *slash = strchr(s, '/');
	if (slash && slash[1]) {
		s = slash + 1;
		n = strcspn(s, "/");
	} else {
		n = strcspn(s, ":");
	}
	if (n >= sizeof(base))
		return STAT_K_OTHER;
	memcpy(base, s, n);
	base[n] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(base, names[i].name))
			return names[i].kind;
	return STAT_K_OTHER;
}

/* ---- contexts: which events' shadow ratios pair ---- */

enum { STAT_CTX_KERNEL = 1, STAT_CTX_USER = 2, STAT_CTX_HV = 4, STAT_CTX_HOST = 8,
       STAT_CTX_IDLE = 16 };

unsigned stat_ctx__of_attr(const struct perf_event_attr *a)
{
	return (a->exclude_kernel ? STAT_CTX_KERNEL : 0) | (a->exclude_user ? STAT_CTX_USER : 0) |
	       (a->exclude_hv ? STAT_CTX_HV : 0) | (a->exclude_host ? STAT_CTX_HOST : 0) |
	       (a->exclude_idle ? STAT_CTX_IDLE : 0);
}

unsigned stat_ctx__of_name(const char *name)
{
	/* "cycles:u", "cpu/cycles/uk": the modifiers perf appended to the name */
	const char *end = strrchr(name, '/'), *mods;
	if (end && end != name && strchr(name, '/') != end)
		mods = end + 1;
	else if ((mods = strrchr(name, ':')))
		mods++;
	else
		return 0;
	if (strspn(mods, "ukhIGHpPSDWebR") != strlen(mods))
		return 0;	/* not modifiers ("sched:sched_switch") */
	bool u = strchr(mods, 'u'), k = strchr(mods, 'k'), h = strchr(mods, 'h');
	unsigned ctx = 0;
	if (u || k || h)
		ctx = (u ? 0 : STAT_CTX_USER) | (k ? 0 : STAT_CTX_KERNEL) | (h ? 0 : STAT_CTX_HV);
	if (strchr(mods, 'G') && !strchr(mods, 'H'))
		ctx |= STAT_CTX_HOST;
	if (strchr(mods, 'I'))
		ctx |= STAT_CTX_IDLE;
	return ctx;
}
