/* SPDX-License-Identifier: MIT */
/*
 * metrics/shadow.c — perf stat's built-in ("shadow") metrics (pmukit/shadow.h):
 * the kind and context of an event from its attr or printed name, and the
 * metrics of one count against the others of its aggregation, with perf 6.1's
 * formats and labels.
 */
#include <stdbool.h>
#include <string.h>

#include <linux/perf_event.h>

#include <pmukit/shadow.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct pk_shadow_value *val_at(const struct pk_shadow_value *v, size_t i)
{
	return (const struct pk_shadow_value *)((const char *)v + i * v[0].sz);
}

/* The fields past a value's sz (an older caller's struct) take their defaults. */
#define VAL_HAS(v, f) ((v)->sz >= offsetof(struct pk_shadow_value, f) + sizeof((v)->f))

static double val_scale(const struct pk_shadow_value *v)
{
	return VAL_HAS(v, scale) && v->scale ? v->scale : 1;
}

/*
 * The first value of kind among vals that counted (with or_not_counted: or never ran), of
 * self's PMU and context unless a clock (perf 6.1 gives cycles:u its GHz from task-clock).
 */
static const struct pk_shadow_value *find(const struct pk_shadow_value *vals, size_t nr,
					  const struct pk_shadow_value *self, enum pk_shadow_kind kind,
					  bool or_not_counted)
{
	for (size_t i = 0; i < nr; i++) {
		const struct pk_shadow_value *v = val_at(vals, i);
		if (v->kind != kind || (kind != PK_SHADOW_NSECS && v->ctx != self->ctx) ||
		    !(v->status == PK_COUNT_OK ||
		      (or_not_counted && v->status == PK_COUNT_NOT_COUNTED)))
			continue;
		if (kind != PK_SHADOW_NSECS && self->pmu && v->pmu && strcmp(self->pmu, v->pmu))
			continue;
		return v;
	}
	return NULL;
}

static double find_value(const struct pk_shadow_value *vals, size_t nr,
			 const struct pk_shadow_value *self, enum pk_shadow_kind kind)
{
	const struct pk_shadow_value *v = find(vals, nr, self, kind, false);
	return v ? v->value : 0;
}

static size_t set(struct pk_shadow_metric *m, const char *fmt, double value, const char *label)
{
	*m = (struct pk_shadow_metric){ .value = fmt ? value : 0, .fmt = fmt, .label = label };
	return 1;
}

/* "X% of all Y": empty unless both counted something */
static size_t ratio(struct pk_shadow_metric *m, double num, double den, const char *label)
{
	return num && den ? set(m, "%7.2f%%", num / den * 100.0, label) : set(m, NULL, 0, label);
}

/* perf 6.1: a rate wherever a clock was read, 0 /sec when it did not run */
static size_t rate(const struct pk_shadow_value *vals, size_t nr,
		   const struct pk_shadow_value *self, struct pk_shadow_metric *m)
{
	const struct pk_shadow_value *clk = find(vals, nr, self, PK_SHADOW_NSECS, true);
	if (!clk)
		return 0;
	double ns = clk->status == PK_COUNT_OK ? clk->value : 0;
	double r = ns ? 1e9 * self->value * val_scale(self) / ns : 0;
	const char *unit = "/sec";
	if (r >= 1e9) {
		r /= 1e9;
		unit = "G/sec";
	} else if (r >= 1e6) {
		r /= 1e6;
		unit = "M/sec";
	} else if (r >= 1e3) {
		r /= 1e3;
		unit = "K/sec";
	}
	return set(m, "%8.3f", r, unit);
}

static size_t instructions(const struct pk_shadow_value *vals, size_t nr,
			   const struct pk_shadow_value *self, struct pk_shadow_metric *m)
{
	double v = self->value, cyc = find_value(vals, nr, self, PK_SHADOW_CYCLES);
	double fe = find_value(vals, nr, self, PK_SHADOW_STALLED_FRONT);
	double be = find_value(vals, nr, self, PK_SHADOW_STALLED_BACK);
	double stalled = fe > be ? fe : be;
	size_t n = set(m, cyc ? "%7.2f " : NULL, cyc ? v / cyc : 0, "insn per cycle");
	if (stalled && v)
		n += set(m + n, "%7.2f ", stalled / v, "stalled cycles per insn");
	return n;
}

size_t pk_shadow__metrics(const struct pk_shadow_value *vals, size_t nr, size_t self_idx,
			  double wall_ns, struct pk_shadow_metric *m)
{
	static const struct { enum pk_shadow_kind kind, of; const char *label; } ratios[] = {
		{ PK_SHADOW_STALLED_FRONT, PK_SHADOW_CYCLES, "frontend cycles idle" },
		{ PK_SHADOW_BRANCH_MISSES, PK_SHADOW_BRANCHES, "of all branches" },
		{ PK_SHADOW_L1D_MISSES, PK_SHADOW_L1D, "of all L1-dcache accesses" },
		{ PK_SHADOW_L1I_MISSES, PK_SHADOW_L1I, "of all L1-icache accesses" },
		{ PK_SHADOW_LL_MISSES, PK_SHADOW_LL, "of all LL-cache accesses" },
		{ PK_SHADOW_DTLB_MISSES, PK_SHADOW_DTLB, "of all dTLB cache accesses" },
		{ PK_SHADOW_ITLB_MISSES, PK_SHADOW_ITLB, "of all iTLB cache accesses" },
		{ PK_SHADOW_CACHE_MISSES, PK_SHADOW_CACHE_REFS, "of all cache refs" },
	};
	if (!vals || self_idx >= nr || vals[0].sz < offsetof(struct pk_shadow_value, status) +
							  sizeof(vals[0].status))
		return 0;
	const struct pk_shadow_value *self = val_at(vals, self_idx);
	double v = self->value;
	if (self->status != PK_COUNT_OK)
		return 0;
	for (size_t i = 0; i < NELEM(ratios); i++)
		if (self->kind == ratios[i].kind)
			return ratio(m, v, find_value(vals, nr, self, ratios[i].of), ratios[i].label);
	switch (self->kind) {
	case PK_SHADOW_STALLED_BACK: {
		/* perf 6.1 prints the backend ratio even when it is 0 (the frontend one only when not) */
		double cyc = find_value(vals, nr, self, PK_SHADOW_CYCLES);
		return set(m, "%7.2f%%", cyc ? v / cyc * 100.0 : 0, "backend cycles idle");
	}
	case PK_SHADOW_NSECS:
		return set(m, wall_ns ? "%8.3f" : NULL, wall_ns ? v / wall_ns : 0, "CPUs utilized");
	case PK_SHADOW_CYCLES: {
		double ns = find_value(vals, nr, self, PK_SHADOW_NSECS);
		return set(m, v && ns ? "%8.3f" : NULL, v && ns ? v / ns : 0, "GHz");
	}
	case PK_SHADOW_INSTRUCTIONS:
		return instructions(vals, nr, self, m);
	default:
		return rate(vals, nr, self, m);
	}
}

/* ---- kinds ---- */


enum pk_shadow_kind pk_shadow__kind_of_attr(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE)
		return a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK ?
			PK_SHADOW_NSECS : PK_SHADOW_OTHER;
	if (a->type == PERF_TYPE_HARDWARE) {
		switch (a->config & 0xffffffffULL) {	/* hybrid: PMU type in the high bits */
		case PERF_COUNT_HW_CPU_CYCLES: return PK_SHADOW_CYCLES;
		case PERF_COUNT_HW_INSTRUCTIONS: return PK_SHADOW_INSTRUCTIONS;
		case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND: return PK_SHADOW_STALLED_FRONT;
		case PERF_COUNT_HW_STALLED_CYCLES_BACKEND: return PK_SHADOW_STALLED_BACK;
		case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return PK_SHADOW_BRANCHES;
		case PERF_COUNT_HW_BRANCH_MISSES: return PK_SHADOW_BRANCH_MISSES;
		case PERF_COUNT_HW_CACHE_REFERENCES: return PK_SHADOW_CACHE_REFS;
		case PERF_COUNT_HW_CACHE_MISSES: return PK_SHADOW_CACHE_MISSES;
		default: return PK_SHADOW_OTHER;
		}
	}
	if (a->type == PERF_TYPE_HW_CACHE) {
		uint64_t c = a->config & 0xffffffffULL;
		unsigned cache = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;
		static const enum pk_shadow_kind all[] = {
			[PERF_COUNT_HW_CACHE_L1D] = PK_SHADOW_L1D, [PERF_COUNT_HW_CACHE_L1I] = PK_SHADOW_L1I,
			[PERF_COUNT_HW_CACHE_LL] = PK_SHADOW_LL, [PERF_COUNT_HW_CACHE_DTLB] = PK_SHADOW_DTLB,
			[PERF_COUNT_HW_CACHE_ITLB] = PK_SHADOW_ITLB,
		};
		if (cache >= sizeof(all) / sizeof(all[0]) || !all[cache])
			return PK_SHADOW_OTHER;
		/* perf matches the whole config: accesses are op read, result access */
		if (op == PERF_COUNT_HW_CACHE_OP_READ && res == PERF_COUNT_HW_CACHE_RESULT_MISS)
			return all[cache] + 1;
		if (op == PERF_COUNT_HW_CACHE_OP_READ && res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
			return all[cache];
	}
	return PK_SHADOW_OTHER;
}

enum pk_shadow_kind pk_shadow__kind_of_name(const char *name)
{
	static const struct { const char *name; enum pk_shadow_kind kind; } names[] = {
		{ "task-clock", PK_SHADOW_NSECS }, { "cpu-clock", PK_SHADOW_NSECS },
		{ "cycles", PK_SHADOW_CYCLES }, { "cpu-cycles", PK_SHADOW_CYCLES },
		{ "instructions", PK_SHADOW_INSTRUCTIONS },
		{ "stalled-cycles-frontend", PK_SHADOW_STALLED_FRONT },
		{ "idle-cycles-frontend", PK_SHADOW_STALLED_FRONT },
		{ "stalled-cycles-backend", PK_SHADOW_STALLED_BACK },
		{ "idle-cycles-backend", PK_SHADOW_STALLED_BACK },
		{ "branches", PK_SHADOW_BRANCHES }, { "branch-instructions", PK_SHADOW_BRANCHES },
		{ "branch-misses", PK_SHADOW_BRANCH_MISSES },
		{ "cache-references", PK_SHADOW_CACHE_REFS }, { "cache-misses", PK_SHADOW_CACHE_MISSES },
		{ "L1-dcache-loads", PK_SHADOW_L1D }, { "L1-dcache-load-misses", PK_SHADOW_L1D_MISSES },
		{ "L1-icache-loads", PK_SHADOW_L1I }, { "L1-icache-load-misses", PK_SHADOW_L1I_MISSES },
		{ "LLC-loads", PK_SHADOW_LL }, { "LLC-load-misses", PK_SHADOW_LL_MISSES },
		{ "dTLB-loads", PK_SHADOW_DTLB }, { "dTLB-load-misses", PK_SHADOW_DTLB_MISSES },
		{ "iTLB-loads", PK_SHADOW_ITLB }, { "iTLB-load-misses", PK_SHADOW_ITLB_MISSES },
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
		return PK_SHADOW_OTHER;
	memcpy(base, s, n);
	base[n] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(base, names[i].name))
			return names[i].kind;
	return PK_SHADOW_OTHER;
}

/* ---- contexts: which events' shadow ratios pair ---- */

enum { CTX_KERNEL = 1, CTX_USER = 2, CTX_HV = 4, CTX_HOST = 8,
       CTX_IDLE = 16 };

unsigned pk_shadow__ctx_of_attr(const struct perf_event_attr *a)
{
	return (a->exclude_kernel ? CTX_KERNEL : 0) | (a->exclude_user ? CTX_USER : 0) |
	       (a->exclude_hv ? CTX_HV : 0) | (a->exclude_host ? CTX_HOST : 0) |
	       (a->exclude_idle ? CTX_IDLE : 0);
}

unsigned pk_shadow__ctx_of_name(const char *name)
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
		ctx = (u ? 0 : CTX_USER) | (k ? 0 : CTX_KERNEL) | (h ? 0 : CTX_HV);
	if (strchr(mods, 'G') && !strchr(mods, 'H'))
		ctx |= CTX_HOST;
	if (strchr(mods, 'I'))
		ctx |= CTX_IDLE;
	return ctx;
}
