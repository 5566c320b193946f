/* SPDX-License-Identifier: MIT */
/*
 * stat-metrics.c — -M and --topdown for `pmukit stat`: select the metrics
 * (pmukit/metricgroup.h), give their events to the evlist, and print each
 * metric's value next to the first event it reads, per aggregation id, with
 * its ScaleUnit and MetricThreshold. The machine facts metrics ask for
 * (#smt_on, #num_cpus, #num_packages ...) come from the CPU topology.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/metricgroup.h>
#include <pmukit/topology.h>

#include "stat-metrics.h"
#include "util/buf.h"

struct stat_metrics {
	const struct stat_config *cfg;
	struct pk_metricgroup *mg;
	struct pk_topology *topo;	/* machine facts; NULL when unreadable */
	char *list;			/* the -M list given to the metricgroup */
	bool system_wide;
	int smt_override;		/* -1, or the #smt_on to assume (saved counts) */
	int wide_override;		/* -1, or the #core_wide to assume */
	/* live: evsel -> metricgroup event */
	size_t nr_evsel;
	long *event_of;			/* [evsel]: event index or -1 */
	size_t *anchor;			/* [metric]: the evsel its value is printed with */
	/* one evaluation, reused for every event of the same frame and id */
	const struct stat_frame *fr;
	size_t id;
	unsigned long seq;
	bool have;
	struct pk_metricgroup_value *val;
	/* offline: the counts file's event names per frame column */
	const char *const *names;
	size_t nr_names;
	unsigned char *told;		/* [metric]: 1 cannot be computed, 2 said so */
	stat_metrics_eval_fn eval;
	void *eval_ctx;
};

/* #smt_on, #num_cpus ...: facts of this machine. */
static int consts(void *ctx, const struct pk_mexpr_id *id, double *value)
{
	struct stat_metrics *sm = ctx;

	if (id->kind != PK_MEXPR_ID_LITERAL || !sm->topo)
		return -ENOENT;
	bool smt = sm->smt_override >= 0 ? sm->smt_override : pk_topology__smt_on(sm->topo);
	/* saved counts: the capture machine's SMT is not known (stat-counts.c tries both) */
	if (sm->cfg->counts_path && sm->smt_override < 0 &&
	    (id->literal == PK_MEXPR_LIT_SMT_ON || id->literal == PK_MEXPR_LIT_CORE_WIDE))
		return -ENOENT;
	switch (id->literal) {
	case PK_MEXPR_LIT_SMT_ON: *value = smt; return 0;
	case PK_MEXPR_LIT_NUM_CPUS: *value = pk_topology__num_cpus(sm->topo); return 0;
	case PK_MEXPR_LIT_NUM_CPUS_ONLINE: *value = pk_topology__num_cpus_online(sm->topo); return 0;
	case PK_MEXPR_LIT_NUM_PACKAGES: *value = pk_topology__nr_packages(sm->topo); return 0;
	case PK_MEXPR_LIT_NUM_DIES: *value = pk_topology__nr_dies(sm->topo); return 0;
	case PK_MEXPR_LIT_NUM_CORES: *value = pk_topology__nr_cores(sm->topo); return 0;
	/* perf: counting whole cores, i.e. system-wide with SMT on */
	case PK_MEXPR_LIT_CORE_WIDE:
		*value = sm->wide_override >= 0 ? sm->wide_override : sm->system_wide && smt;
		return 0;
	default: return -ENOENT;
	}
}

static bool nmi_watchdog_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "r");
	int v = 0;
	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v != 0;
}

/* item appended to the comma-separated list */
static int append(struct pk_buf *list, const char *item)
{
	return (list->len && pk_buf__putc(list, ',')) || pk_buf__puts(list, item) ? -1 : 0;
}

int stat_metrics__new(struct stat_metrics **out, const struct stat_config *cfg, struct cli_env *env)
{
	struct stat_metrics *sm;
	struct pk_error terr = { 0 };
	char why[512] = "";
	struct pk_buf list = { 0 };

	*out = NULL;
	if (!cfg->metrics && !cfg->topdown_level)
		return 0;
	if (!env->have_model) {
		fprintf(stderr, "pmukit stat: %s: the event tables do not know this CPU (%s)\n",
			cfg->metrics ? "-M" : "--topdown", env->cpuid_used ? env->cpuid_used : "?");
		return -1;
	}
	sm = calloc(1, sizeof(*sm));
	if (!sm)
		goto nomem;
	sm->cfg = cfg;
	sm->smt_override = -1;
	sm->wide_override = -1;
	sm->system_wide = cfg->system_wide || cfg->cpu_list;
	if (pk_topology__read(&sm->topo, NULL, &terr))
		sm->topo = NULL;	/* facts unknown: both branches of "if #smt_on" are kept */

	struct pk_metricgroup_opts o = {
		.sz = sizeof(o),
		.pmus = env->pmus,
		.cpuid = env->cpuid_used,
		.no_group = cfg->metric_no_group,
		.no_merge = cfg->metric_no_merge,
		.no_threshold = cfg->metric_no_threshold || (cfg->topdown_level && !cfg->metrics),
		.nmi_watchdog = nmi_watchdog_on(),
		.consts = consts,
		.consts_ctx = sm,
	};
	if (cfg->topdown_level) {
		/* TopDown as a tree: level 1, and level 2 under it with --td-level 2 */
		for (unsigned l = 1; l <= (unsigned)cfg->topdown_level; l++) {
			char buf[64];
			if (pk_topdown__metric_list(env->cat, env->model, l, buf, sizeof(buf), why,
						    sizeof(why))) {
				fprintf(stderr, "pmukit stat: --topdown: %s\n", why);
				goto fail;
			}
			if (append(&list, buf))
				goto nomem;
		}
		if (!cfg->counts_path &&
		    pk_topdown__check(env->cat, env->model, (unsigned)cfg->topdown_level, env->pmus, &o,
				      why, sizeof(why))) {
			fprintf(stderr, "pmukit stat: --topdown: %s\n", why);
			goto fail;
		}
	}
	if (cfg->metrics && append(&list, cfg->metrics))
		goto nomem;
	if (!(sm->list = pk_buf__detach(&list, NULL)))
		goto nomem;
	struct pk_spec_error err = { 0 };
	if (pk_metricgroup__new(&sm->mg, env->cat, env->model, sm->list, &o, &err)) {
		char msg[4096];
		fprintf(stderr, "pmukit stat: invalid metric list\n%s\n",
			pk_spec_error__format(&err, sm->list, msg, sizeof(msg)));
		goto fail;
	}
	sm->val = calloc(pk_metricgroup__nr_metrics(sm->mg) + 1, sizeof(*sm->val));
	sm->anchor = calloc(pk_metricgroup__nr_metrics(sm->mg) + 1, sizeof(*sm->anchor));
	if (!sm->val || !sm->anchor)
		goto nomem;
	*out = sm;
	return 0;
nomem:
	fprintf(stderr, "pmukit stat: out of memory\n");
fail:
	pk_buf__free(&list);
	stat_metrics__free(sm);
	return -1;
}

void stat_metrics__free(struct stat_metrics *sm)
{
	if (!sm)
		return;
	pk_metricgroup__free(sm->mg);
	pk_topology__free(sm->topo);
	free(sm->list);
	free(sm->event_of);
	free(sm->told);
	free(sm->anchor);
	free(sm->val);
	free(sm);
}

const char *stat_metrics__spec(const struct stat_metrics *sm)
{
	const char *s = pk_metricgroup__spec(sm->mg);
	return s && *s ? s : NULL;
}

/* Each metric is printed with the first evsel that reads one of its events. */
static void choose_anchors(struct stat_metrics *sm, size_t nr_evsel, bool (*reads)(struct stat_metrics *,
			   size_t evsel, size_t event))
{
	size_t nr = pk_metricgroup__nr_metrics(sm->mg);

	for (size_t m = 0; m < nr; m++) {
		const struct pk_metricgroup_metric *mm = pk_metricgroup__metric(sm->mg, m);
		size_t best = 0;
		bool found = false;
		for (size_t i = 0; i < nr_evsel && !found; i++)
			for (size_t k = 0; k < mm->nr_events && !found; k++)
				if (reads(sm, i, mm->events[k])) {
					best = i;
					found = true;
				}
		sm->anchor[m] = best;
	}
}

static bool live_reads(struct stat_metrics *sm, size_t evsel, size_t event)
{
	return sm->event_of[evsel] == (long)event;
}

int stat_metrics__bind(struct stat_metrics *sm, const struct pk_evlist *el, size_t first)
{
	sm->nr_evsel = pk_evlist__nr(el);
	sm->event_of = calloc(sm->nr_evsel + 1, sizeof(*sm->event_of));
	if (!sm->event_of)
		return -1;
	for (size_t i = 0; i < sm->nr_evsel; i++) {
		sm->event_of[i] = -1;
		if (i >= first)
			sm->event_of[i] = pk_metricgroup__event_at(sm->mg, pk_evlist__evsel(el, i)->spec_off);
	}
	choose_anchors(sm, sm->nr_evsel, live_reads);
	return 0;
}

struct pk_metricgroup *stat_metrics__group(struct stat_metrics *sm)
{
	return sm->mg;
}

void stat_metrics__assume(struct stat_metrics *sm, int smt_on, int core_wide)
{
	sm->smt_override = smt_on;
	sm->wide_override = core_wide;
}

static bool named_reads(struct stat_metrics *sm, size_t evsel, size_t event)
{
	return pk_metricgroup__event_matches(sm->mg, event, sm->names[evsel]);
}

/*
 * A metric the counts file cannot give (it reads an event the file has no
 * line for): once the frame is printed, name the missing events, once,
 * rather than leave its place empty.
 */
void stat_metrics__tell_missing(struct stat_metrics *sm, size_t m)
{
	size_t nr_m = pk_metricgroup__nr_metrics(sm->mg);
	if (!sm->names || m >= nr_m)
		return;
	if (!sm->told && !(sm->told = calloc(nr_m, sizeof(*sm->told))))
		return;
	if (!sm->told[m])
		sm->told[m] = 1;	/* pending */
}

void stat_metrics__flush_missing(struct stat_metrics *sm)
{
	for (size_t m = 0; sm->told && m < pk_metricgroup__nr_metrics(sm->mg); m++) {
		if (sm->told[m] != 1)
			continue;
		sm->told[m] = 2;	/* said */
		const struct pk_metricgroup_metric *mm = pk_metricgroup__metric(sm->mg, m);
		size_t missing = 0;
		for (size_t k = 0; k < mm->nr_events; k++) {
			size_t i = 0;
			while (i < sm->nr_names && !named_reads(sm, i, mm->events[k]))
				i++;
			if (i < sm->nr_names)
				continue;
			const struct pk_metricgroup_event *e = pk_metricgroup__event(sm->mg, mm->events[k]);
			fprintf(stderr, "%s%s", missing++ ? ", " : "pmukit stat: --counts: ",
				e->name ? e->name : e->id);
		}
		if (missing)
			fprintf(stderr, ": no count in the file: metric %s not computed\n", mm->name);
	}
}

int stat_metrics__bind_names(struct stat_metrics *sm, const char *const *names, size_t nr,
			     stat_metrics_eval_fn eval, void *ctx)
{
	sm->names = names;
	sm->eval = eval;
	sm->eval_ctx = ctx;
	sm->have = false;
	sm->nr_names = nr;
	choose_anchors(sm, nr, named_reads);
	return 0;
}

struct live_ctx {
	struct stat_metrics *sm;
	const struct stat_frame *fr;
	size_t id;
};

/* The value of metricgroup event idx in one aggregation id: the sum of its evsels. */
static int live_count(void *ctx, size_t idx, double *value, unsigned *sources)
{
	struct live_ctx *lc = ctx;
	const struct pk_metricgroup_event *ev = pk_metricgroup__event(lc->sm->mg, idx);
	const struct stat_frame *fr = lc->fr;

	if (ev->tool) {
		if (!strcmp(ev->id, "duration_time"))
			*value = fr->wall_ns / 1e9;
		else if (!strcmp(ev->id, "user_time") && fr->user_ns)
			*value = fr->user_ns / 1e9;
		else if (!strcmp(ev->id, "system_time") && fr->sys_ns)
			*value = fr->sys_ns / 1e9;
		else
			return -ENOENT;
		return 0;
	}
	double sum = 0;
	unsigned n = 0;
	bool any = false, supported = false;
	for (size_t e = 0; e < fr->nr_ev && e < lc->sm->nr_evsel; e++) {
		if (lc->sm->event_of[e] != (long)idx)
			continue;
		const struct stat_cell *c = stat_frame__cell(fr, lc->id, e);
		any = true;
		if (c->status == PK_COUNT_NOT_SUPPORTED)
			continue;
		supported = true;
		if (c->status == PK_COUNT_OK)
			sum += c->val;
		n++;
	}
	if (!any)
		return -ENOENT;
	*value = supported ? sum : NAN;
	*sources = n ? n : 1;
	return 0;
}

static void evaluate(struct stat_metrics *sm, const struct stat_frame *fr, size_t id)
{
	if (sm->have && sm->fr == fr && sm->id == id && sm->seq == fr->seq)
		return;
	struct live_ctx lc = { .sm = sm, .fr = fr, .id = id };
	int r = sm->eval ? sm->eval(sm->eval_ctx, fr, id, sm->val)
			 : pk_metricgroup__eval(sm->mg, live_count, &lc, sm->val);
	if (r) {
		for (size_t m = 0; m < pk_metricgroup__nr_metrics(sm->mg); m++)
			sm->val[m] = (struct pk_metricgroup_value){ .value = NAN, .scaled = NAN,
								     .threshold = -1, .error = -EINVAL };
	}
	sm->fr = fr;
	sm->id = id;
	sm->seq = fr->seq;
	sm->have = true;
}

/* stat_metrics_fn: the metrics printed with event ev of aggregation id. */
static size_t metrics_of(void *ctx, const struct stat_frame *fr, size_t id, size_t ev,
			 struct stat_metric *out, size_t max)
{
	struct stat_metrics *sm = ctx;
	size_t n = 0, nr = pk_metricgroup__nr_metrics(sm->mg);

	for (size_t m = 0; m < nr && n < max; m++) {
		if (sm->anchor[m] != ev)
			continue;
		evaluate(sm, fr, id);
		const struct pk_metricgroup_metric *mm = pk_metricgroup__metric(sm->mg, m);
		const struct pk_metricgroup_value *v = &sm->val[m];
		struct stat_metric *o = &out[n++];
		memset(o, 0, sizeof(*o));
		o->threshold = sm->cfg->metric_no_threshold ? -1 : v->threshold;
		o->valid = !v->error && !isnan(v->scaled) && !isinf(v->scaled);
		o->val = v->scaled;
		if (v->unit && *v->unit) {
			o->fmt = "%8.1f";
			snprintf(o->label, sizeof(o->label), "%s  %s", v->unit, mm->name);
		} else {
			o->fmt = "%8.2f";
			snprintf(o->label, sizeof(o->label), "%s", mm->name);
		}
		if (!o->valid)
			o->fmt = NULL;
	}
	return n;
}

void stat_metrics__attach(struct stat_metrics *sm, struct stat_frame *fr)
{
	fr->metrics = metrics_of;
	fr->metrics_ctx = sm;
}

void stat_metrics__report(const struct stat_metrics *sm, const struct stat_frame *fr)
{
	size_t events = 0, unsupported = 0;

	if (!fr->cell)
		return;
	for (size_t e = 0; e < fr->nr_ev && e < sm->nr_evsel; e++) {
		if (sm->event_of[e] < 0)
			continue;
		events++;
		for (size_t id = 0; id < fr->nr_id; id++)
			if (stat_frame__cell(fr, id, e)->status == PK_COUNT_NOT_SUPPORTED) {
				unsupported++;
				break;
			}
	}
	if (!events || unsupported < events)
		return;
	fprintf(stderr, "pmukit stat: %s: none of the %zu events the metrics need can be "
		"counted here (<not supported>: no such hardware PMU on this machine)\n",
		sm->cfg->topdown_level ? "--topdown" : "-M", events);
}
