/* SPDX-License-Identifier: MIT */
/*
 * stat-counts.c — `pmukit stat --counts FILE`: counts saved by `perf stat
 * -j` or `pmukit stat -j` (pmukit/countsfile.h) printed again as stat
 * prints live counts (text, -x, -j), one frame per interval, with perf's
 * shadow metrics and the -M / --topdown metrics computed from them, so a
 * capture from one machine can be analysed on another.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/countsfile.h>
#include <pmukit/metricgroup.h>

#include "stat-metrics.h"
#include "util/strmap.h"

struct counts_frame {
	const struct pk_counts *c;
	struct stat_metrics *sm;
	size_t first_set, nr_sets;	/* the sets of this frame (one per id) */
	const char **names;		/* [ev] */
	struct stat_ev *ev;
	struct stat_id *id;
	struct stat_cell *cell;
	size_t nr_ev, nr_id;
	struct pk_strmap by_name;	/* event name -> column */
};

static enum stat_aggr aggr_of(enum pk_counts_aggr a)
{
	switch (a) {
	case PK_COUNTS_CPU: return STAT_AGGR_CPU;
	case PK_COUNTS_CORE:
	case PK_COUNTS_CACHE:
	case PK_COUNTS_CLUSTER: return STAT_AGGR_CORE;
	case PK_COUNTS_DIE: return STAT_AGGR_DIE;
	case PK_COUNTS_SOCKET:
	case PK_COUNTS_NODE: return STAT_AGGR_SOCKET;
	case PK_COUNTS_THREAD: return STAT_AGGR_THREAD;
	default: return STAT_AGGR_GLOBAL;
	}
}

/*
 * The metrics of one set. #smt_on and #core_wide are the capture machine's,
 * which the file does not record (the metrics were set up with them unknown,
 * so both branches' events are known): each metric takes the first of the
 * four assumptions whose branch reads events the file has.
 */
static int eval_set(void *ctx, const struct stat_frame *fr, size_t id, struct pk_metricgroup_value *out)
{
	struct counts_frame *cf = ctx;
	struct pk_metricgroup *mg = stat_metrics__group(cf->sm);
	size_t nr = pk_metricgroup__nr_metrics(mg);
	int r;
	(void)fr;

	if ((r = pk_counts__eval(cf->c, cf->first_set + id, mg, out)))
		return r;
	struct pk_metricgroup_value *alt = calloc(nr + 1, sizeof(*alt));
	if (!alt)
		return -ENOMEM;
	for (int k = 0; k < 4; k++) {
		stat_metrics__assume(cf->sm, k & 1, k >> 1);
		r = pk_counts__eval(cf->c, cf->first_set + id, mg, alt);
		stat_metrics__assume(cf->sm, -1, -1);
		for (size_t m = 0; !r && m < nr; m++)
			if ((out[m].error || isnan(out[m].value)) && !alt[m].error && !isnan(alt[m].value))
				out[m] = alt[m];
	}
	free(alt);
	for (size_t m = 0; m < nr; m++)
		if (out[m].error || isnan(out[m].value))
			stat_metrics__tell_missing(cf->sm, m);
	return 0;
}

static long find_name(const struct counts_frame *cf, const char *name)
{
	size_t e;
	return pk_strmap__get(&cf->by_name, name, &e) ? -1 : (long)e;
}

/* Columns, ids and cells of sets [first, first + n). */
static int build(struct counts_frame *cf)
{
	const struct pk_counts *c = cf->c;
	size_t max = 0;

	for (size_t s = 0; s < cf->nr_sets; s++)
		max += pk_counts__set(c, cf->first_set + s)->nr_records;
	cf->names = calloc(max + 1, sizeof(*cf->names));
	cf->ev = calloc(max + 1, sizeof(*cf->ev));
	cf->id = calloc(cf->nr_sets + 1, sizeof(*cf->id));
	if (!cf->names || !cf->ev || !cf->id)
		return -1;
	cf->nr_id = cf->nr_sets;
	for (size_t s = 0; s < cf->nr_sets; s++) {
		const struct pk_counts_set *set = pk_counts__set(c, cf->first_set + s);
		struct stat_id *id = &cf->id[s];
		snprintf(id->label, sizeof(id->label), "%s", set->aggr_id);
		id->cpu = set->aggr == PK_COUNTS_CPU ? atoi(set->aggr_id) : -1;
		id->nr = 1;
		if (set->aggr == PK_COUNTS_CPU)
			snprintf(id->label, sizeof(id->label), "CPU%s", set->aggr_id);
		for (size_t k = 0; k < set->nr_records; k++) {
			const struct pk_counts_record *r = pk_counts__record(c, set->records[k]);
			if (r->aggr_nr > 0)
				id->nr = r->aggr_nr;
			if (find_name(cf, r->event) >= 0)
				continue;
			if (pk_strmap__set(&cf->by_name, r->event, cf->nr_ev))
				return -1;
			struct stat_ev *ev = &cf->ev[cf->nr_ev];
			cf->names[cf->nr_ev++] = r->event;
			ev->name = r->event;
			ev->unit = r->unit;
			ev->kind = pk_shadow__kind_of_name(r->event);
			ev->ctx = pk_shadow__ctx_of_name(r->event);
			ev->scale = 1;
			ev->frac = ev->kind == PK_SHADOW_NSECS;
			if (ev->kind == PK_SHADOW_NSECS && !strcmp(r->unit, "msec"))
				ev->scale = 1e-6;	/* cells hold ns, as counted */
		}
	}
	cf->cell = calloc(cf->nr_ev * cf->nr_id + 1, sizeof(*cf->cell));
	if (!cf->cell)
		return -1;
	for (size_t i = 0; i < cf->nr_ev * cf->nr_id; i++)	/* absent from an id */
		cf->cell[i].status = PK_COUNT_NOT_COUNTED;
	for (size_t s = 0; s < cf->nr_sets; s++) {
		const struct pk_counts_set *set = pk_counts__set(c, cf->first_set + s);
		for (size_t k = 0; k < set->nr_records; k++) {
			const struct pk_counts_record *r = pk_counts__record(c, set->records[k]);
			long e = find_name(cf, r->event);
			struct stat_cell *cell = &cf->cell[s * cf->nr_ev + (size_t)e];
			cell->status = r->status == PK_COUNTS_OK ? PK_COUNT_OK :
				       r->status == PK_COUNTS_NOT_COUNTED ? PK_COUNT_NOT_COUNTED :
				       PK_COUNT_NOT_SUPPORTED;
			/* printed in the event's unit: keep the printed value, but clocks in ns */
			cell->val = cf->ev[e].scale != 1 ? r->value / cf->ev[e].scale : r->value;
			double run = isnan(r->runtime) ? 0 : r->runtime;
			double pct = isnan(r->pcnt_running) ? 100 : r->pcnt_running;
			cell->run = (uint64_t)run;
			cell->ena = pct > 0 ? (uint64_t)(run * 100.0 / pct + 0.5) : 0;
			if (pct >= 100)
				cell->ena = cell->run;
			cell->noise = isnan(r->variance) ? 0 : r->variance;
			if (r->status == PK_COUNTS_OK && r->value != floor(r->value))
				cf->ev[e].frac = true;	/* a scaled unit (Joules, MiB, ...) */
		}
	}
	return 0;
}

static void frame_free(struct counts_frame *cf)
{
	free(cf->names);
	free(cf->ev);
	free(cf->id);
	free(cf->cell);
	pk_strmap__free(&cf->by_name);
}

int stat_counts__run(const struct stat_config *cfg, struct cli_env *env, struct stat_metrics *sm,
		     struct stat_printer *pr)
{
	struct pk_counts *c = NULL;
	struct pk_error err = { 0 };
	char msg[1024];
	int ret = -1;

	(void)env;
	if (pk_counts__read(&c, cfg->counts_path, &err)) {
		fprintf(stderr, "pmukit stat: --counts: %s\n", pk_error__format(&err, msg, sizeof(msg)));
		return -1;
	}
	size_t nr_sets = pk_counts__nr_sets(c);
	if (!nr_sets) {
		fprintf(stderr, "pmukit stat: --counts %s: no counts in the file\n", cfg->counts_path);
		goto out;
	}
	const struct pk_counts_set *s0 = pk_counts__set(c, 0);
	bool intervals = s0->has_interval;
	pr->o.aggr = aggr_of(s0->aggr);
	pr->o.interval = intervals;
	bool has_variance = false;
	for (size_t i = 0; i < pk_counts__nr_records(c); i++)
		if (!isnan(pk_counts__record(c, i)->variance))
			has_variance = true;
	if (has_variance && pr->o.runs < 2) {
		pr->o.runs = 2;	/* print the saved noise; the number of runs is not saved */
		pr->o.runs_unknown = true;
	}

	char target[1100];
	snprintf(target, sizeof(target), "'%s' (saved counts)", cfg->counts_path);
	stat_printer__header(pr, target);
	unsigned long seq = 0;
	for (size_t s = 0; s < nr_sets;) {
		const struct pk_counts_set *set = pk_counts__set(c, s);
		size_t n = 1;
		while (s + n < nr_sets) {
			const struct pk_counts_set *t = pk_counts__set(c, s + n);
			if (t->has_interval != set->has_interval ||
			    (set->has_interval && t->interval != set->interval))
				break;
			n++;
		}
		struct counts_frame cf = { .c = c, .sm = sm, .first_set = s, .nr_sets = n };
		if (build(&cf)) {
			frame_free(&cf);
			fprintf(stderr, "pmukit stat: out of memory\n");
			goto out;
		}
		struct stat_frame fr = {
			.nr_ev = cf.nr_ev, .nr_id = cf.nr_id, .ev = cf.ev, .id = cf.id, .cell = cf.cell,
			.interval = set->has_interval ? set->interval : -1,
			.wall_ns = set->has_interval ? set->duration * 1e9 : 0,
			.seq = seq + 1,
		};
		seq++;
		long d = find_name(&cf, "duration_time");
		if (!set->has_interval && d >= 0 && cf.cell[d].status == PK_COUNT_OK)
			fr.wall_ns = cf.cell[d].val;	/* printed in ns */
		if (sm) {
			stat_metrics__bind_names(sm, cf.names, cf.nr_ev, eval_set, &cf);
			stat_metrics__attach(sm, &fr);
		}
		stat_printer__frame(pr, &fr);
		if (sm)
			stat_metrics__flush_missing(sm);
		frame_free(&cf);
		s += n;
	}
	ret = 0;
out:
	pk_counts__free(c);
	return ret;
}
