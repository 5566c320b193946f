/* SPDX-License-Identifier: MIT */
/*
 * value.c — counter values as perf stat computes them: read(2) buffers
 * decoded per read_format, multiplexing scaled, <not counted> marked, interval
 * deltas from cumulative readings, and sums over CPUs/threads (each fd scaled
 * first, then summed; perf's "failed" rule for per-CPU aggregates; per-package
 * events taken once per package).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/count.h>

#include "count/count_int.h"

double pk_count__scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	if (!running || running >= enabled)
		return (double)raw;
	/* perf_counts_values__scale: truncated to an integer count */
	return (double)(uint64_t)((double)raw * (double)enabled / (double)running);
}

static bool has_times(uint64_t rf)
{
	return (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && (rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
}

static double percent(uint64_t enabled, uint64_t running)
{
	/* perf: 100 * run / ena, 100 when equal */
	if (running == enabled || !enabled)
		return 100.0;
	return 100.0 * (double)running / (double)enabled;
}

/* status, scaled and percent of v from its raw/enabled/running */
static void finish(struct pk_count_value *v, uint64_t rf)
{
	v->status = PK_COUNT_OK;
	v->scaled = (double)v->raw;
	v->percent = 100.0;
	if (!has_times(rf))
		return;
	v->percent = percent(v->enabled, v->running);
	if (!v->running) {
		v->status = PK_COUNT_NOT_COUNTED;
		v->scaled = 0;
		return;
	}
	v->scaled = pk_count__scale(v->raw, v->enabled, v->running);
}

int pk_count__decode(uint64_t rf, const void *buf, size_t len, size_t nr,
		     struct pk_count_value *out)
{
	const uint64_t *w = buf;
	size_t words = len / sizeof(uint64_t), i = 0;
	uint64_t ena = 0, run = 0;
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	if (rf & PERF_FORMAT_GROUP) {
		if (words < 1 || w[0] != nr)
			return -EINVAL;
		i = 1;
	} else if (nr != 1) {
		return -EINVAL;
	}
	if (rf & PERF_FORMAT_GROUP) {
		size_t need = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + nr * per;
		if (words < need)
			return -EINVAL;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			ena = w[i++];
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			run = w[i++];
		for (size_t k = 0; k < nr; k++, i += per) {
			memset(&out[k], 0, sizeof(out[k]));
			out[k].raw = w[i];
			out[k].enabled = ena;
			out[k].running = run;
			finish(&out[k], rf);
		}
		return 0;
	}
	/* { value; [enabled]; [running]; [id]; [lost] } */
	size_t need = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + per - 1;
	if (words < need)
		return -EINVAL;
	memset(&out[0], 0, sizeof(out[0]));
	out[0].raw = w[i++];
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[0].enabled = w[i++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[0].running = w[i++];
	finish(&out[0], rf);
	return 0;
}

int pk_count__delta(const struct pk_count_value *prev, const struct pk_count_value *cur,
		    uint64_t rf, struct pk_count_value *out)
{
	if (cur->status == PK_COUNT_NOT_SUPPORTED) {
		*out = *cur;
		return 0;
	}
	if (cur->raw < prev->raw || cur->enabled < prev->enabled || cur->running < prev->running)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->raw = cur->raw - prev->raw;
	out->enabled = cur->enabled - prev->enabled;
	out->running = cur->running - prev->running;
	finish(out, rf);
	return 0;
}

/* --- sums over a counter's fds ---------------------------------------------------------------- */

static void unsupported(const struct cnt_ev *ev, struct pk_count_value *v)
{
	memset(v, 0, sizeof(*v));
	v->status = PK_COUNT_NOT_SUPPORTED;
	v->open_errno = ev->open_errno;
	v->percent = 100.0;
}

/* Which CPU slots a sum takes: all, one, or those of an aggregation key. */
struct cpu_sel {
	size_t slot;			/* PK_COUNT_ALL: all (unless t) */
	const struct pk_topology *t;	/* with mode and id: the slots whose key is id */
	enum pk_stat_aggr mode;
	const struct pk_aggr_id *id;
};

static bool selected(const struct pk_counter *c, const struct cpu_sel *sel, size_t s)
{
	if (sel->id) {
		struct pk_aggr_id k = pk_topology__aggr_id(sel->t, sel->mode, c->cpu[s]);
		return c->cpu[s] >= 0 && pk_aggr_id__equal(&k, sel->id);
	}
	return sel->slot == PK_COUNT_ALL || sel->slot == s;
}

/*
 * A per-package event summed over several CPUs (see pk_count_value): which of
 * its fds add their value, keep[cpu_slot * nr_threads + thread_slot]. The
 * fds that have run, in (thread, CPU) order, each the first of its package;
 * the choice follows the cumulative readings, so intervals keep it. *keep
 * NULL: every fd adds (not per-package, or no packages known). 0 or -ENOMEM.
 */
static int pkg_keep(const struct pk_counter *c, size_t idx, bool **keep)
{
	const struct cnt_ev *ev = &c->ev[idx];
	size_t n = c->nr_cpus * c->nr_threads, nseen = 0;

	*keep = NULL;
	if (!ev->per_pkg || !c->pkg || !n)
		return 0;
	bool *k = calloc(n, sizeof(*k));
	long long *seen = malloc(c->nr_cpus * sizeof(*seen));
	if (!k || !seen) {
		free(k);
		free(seen);
		return -ENOMEM;
	}
	bool times = has_times(ev->read_format);
	for (size_t t = 0; t < c->nr_threads; t++)
		for (size_t s = 0; s < c->nr_cpus; s++) {
			const struct cnt_fd *f = cnt_fd(c, idx, s, t);
			long long p = c->pkg[s];
			size_t j = 0;
			if (f->fd < 0 || (times && (!f->cur[1] || !f->cur[2])))
				continue;	/* did not run: not the package's reading */
			if (p < 0) {		/* unknown package: a package of its own */
				k[s * c->nr_threads + t] = true;
				continue;
			}
			while (j < nseen && seen[j] != p)
				j++;
			if (j < nseen)
				continue;
			if (nseen < c->nr_cpus)
				seen[nseen++] = p;
			k[s * c->nr_threads + t] = true;
		}
	free(seen);
	*keep = k;
	return 0;
}

/*
 * Sum event idx over the selected CPU slots and thread slot ts (PK_COUNT_ALL:
 * all). strict: perf's failed rule (any fd that did not run makes the whole
 * value not counted).
 */
static int sum(const struct pk_counter *c, size_t idx, const struct cpu_sel *sel, size_t ts,
	       unsigned flags, bool strict, struct pk_count_value *v, unsigned *nr_out)
{
	const struct cnt_ev *ev = &c->ev[idx];
	uint64_t rf = ev->read_format;
	bool failed = false, *keep = NULL;
	unsigned nr = 0;
	double scaled = 0;

	if (nr_out)
		*nr_out = 0;
	if (!ev->supported) {
		unsupported(ev, v);
		return 0;
	}
	/* one CPU's value is its own reading; sums over CPUs take one per package */
	if (sel->slot == PK_COUNT_ALL && !(sel->id && sel->mode == PK_STAT_AGGR_CPU) &&
	    pkg_keep(c, idx, &keep))
		return -ENOMEM;
	memset(v, 0, sizeof(*v));
	for (size_t s = 0; s < c->nr_cpus; s++) {
		if (!selected(c, sel, s))
			continue;
		for (size_t t = 0; t < c->nr_threads; t++) {
			if (ts != PK_COUNT_ALL && t != ts)
				continue;
			const struct cnt_fd *f = cnt_fd(c, idx, s, t);
			if (f->fd < 0)
				continue;
			if (keep && !keep[s * c->nr_threads + t]) {
				nr++;	/* another CPU read this package */
				continue;
			}
			struct pk_count_value one = { 0 };
			one.raw = f->cur[0];
			one.enabled = f->cur[1];
			one.running = f->cur[2];
			if (flags & PK_COUNT_DELTA) {
				/* a counter never goes back; clamp rather than wrap if it did */
				one.raw = one.raw >= f->prev[0] ? one.raw - f->prev[0] : 0;
				one.enabled = one.enabled >= f->prev[1] ? one.enabled - f->prev[1] : 0;
				one.running = one.running >= f->prev[2] ? one.running - f->prev[2] : 0;
			}
			finish(&one, rf);
			if (strict && has_times(rf) && (!one.enabled || !one.running))
				failed = true;
			v->raw += one.raw;
			v->enabled += one.enabled;
			v->running += one.running;
			scaled += one.scaled;
			nr++;
		}
	}
	free(keep);
	if (!nr)
		return -ENOENT;
	if (nr_out)
		*nr_out = nr;
	if (failed) {
		v->raw = v->enabled = v->running = 0;
		scaled = 0;
	}
	v->status = PK_COUNT_OK;
	v->scaled = scaled;
	v->percent = 100.0;
	if (has_times(rf)) {
		v->percent = percent(v->enabled, v->running);
		if (!v->running || !v->enabled) {
			v->status = PK_COUNT_NOT_COUNTED;
			v->scaled = 0;
		}
	}
	return 0;
}

int pk_counter__value_at(const struct pk_counter *c, size_t idx, size_t cpu_slot,
			 size_t thread_slot, unsigned flags, struct pk_count_value *v)
{
	struct cpu_sel sel = { .slot = cpu_slot };

	if (!c || idx >= c->nr || (cpu_slot != PK_COUNT_ALL && cpu_slot >= c->nr_cpus) ||
	    (thread_slot != PK_COUNT_ALL && thread_slot >= c->nr_threads))
		return -EINVAL;
	return sum(c, idx, &sel, thread_slot, flags, cpu_slot != PK_COUNT_ALL, v, NULL);
}

int pk_counter__value_cpu(const struct pk_counter *c, size_t idx, size_t slot,
			  struct pk_count_value *v)
{
	return pk_counter__value_at(c, idx, slot, PK_COUNT_ALL, 0, v);
}

int pk_counter__value(const struct pk_counter *c, size_t idx, struct pk_count_value *v)
{
	struct cpu_sel all = { .slot = PK_COUNT_ALL };

	if (!c || idx >= c->nr)
		return -EINVAL;
	int r = sum(c, idx, &all, PK_COUNT_ALL, 0, false, v, NULL);
	if (r == -ENOENT) {	/* opened nowhere (every thread gone): nothing counted */
		memset(v, 0, sizeof(*v));
		v->status = PK_COUNT_NOT_COUNTED;
		v->percent = 100.0;
		r = 0;
	}
	return r;
}

int pk_counter__value_aggr(const struct pk_counter *c, size_t idx, const struct pk_topology *t,
			   enum pk_stat_aggr mode, const struct pk_aggr_id *id, unsigned flags,
			   struct pk_count_value *v, unsigned *nr)
{
	struct cpu_sel sel = { .slot = PK_COUNT_ALL };

	if (!c || idx >= c->nr || !id)
		return -EINVAL;
	if (mode == PK_STAT_AGGR_GLOBAL)
		return sum(c, idx, &sel, PK_COUNT_ALL, flags, false, v, nr);
	if (mode == PK_STAT_AGGR_THREAD) {
		if (id->thread < 0 || (size_t)id->thread >= c->nr_threads)
			return -EINVAL;
		return sum(c, idx, &sel, (size_t)id->thread, flags, false, v, nr);
	}
	sel.t = t;
	sel.mode = mode;
	sel.id = id;
	return sum(c, idx, &sel, PK_COUNT_ALL, flags, true, v, nr);
}
