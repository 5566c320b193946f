/* SPDX-License-Identifier: MIT */
/*
 * metrics/metric_eval.c — catalog metrics: resolve the identifiers of a
 * metric's expression that name other metrics (within the metric's PMU, as
 * perf does), evaluate metrics recursively with memoised values and cycle
 * detection, evaluate MetricThreshold, list the events a metric tree needs,
 * and apply a ScaleUnit.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/alias.h>
#include <pmukit/metric.h>

#include "metrics/mexpr.h"
#include "util/grow.h"

/* References nested deeper than this are refused (real trees stay under 20). */
#define MAX_REF_DEPTH 100

enum { PARSE_NOT_YET, PARSE_OK, PARSE_FAILED };
enum { VAL_NONE, VAL_BUSY, VAL_DONE };

struct entry {
	struct pk_mexpr *expr, *thr;
	uint8_t expr_state, thr_state, val_state;
	double value;
};

struct pk_metric_eval {
	struct pk_catalog *cat;
	size_t model;
	size_t nr;
	struct entry *ent;
	bool has_error;
	struct pk_spec_error err;
	char err_metric[128];
};

static bool same_pmu(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int pk_mexpr__resolve_metrics(struct pk_mexpr *e, struct pk_catalog *cat, size_t model,
			      const char *pmu)
{
	int n = 0;
	struct pk_model md;
	if (pk_catalog__model(cat, model, &md))
		return -ENOENT;
	for (size_t i = 0; i < e->nr_ids; i++) {
		struct pk_mexpr_id *id = &e->ids[i];
		size_t idx;
		if (id->kind != PK_MEXPR_ID_EVENT ||
		    pk_catalog__find_metric(cat, model, id->name, &idx))
			continue;
		/* metrics are sorted by (name, pmu): the run of this name starts at idx */
		for (size_t j = idx; j < md.nr_metrics; j++) {
			struct pk_metric m = { .sz = sizeof(m) };
			if (pk_catalog__metric(cat, model, j, &m) || strcasecmp(m.name, id->name))
				break;
			if (!pmu || same_pmu(m.pmu, pmu)) {
				id->kind = PK_MEXPR_ID_METRIC;
				id->metric = j;
				n++;
				break;
			}
		}
	}
	return n;
}

int pk_metric_eval__new(struct pk_metric_eval **out, struct pk_catalog *cat, size_t model)
{
	struct pk_model md;
	*out = NULL;
	if (pk_catalog__model(cat, model, &md))
		return -ENOENT;
	struct pk_metric_eval *ev = calloc(1, sizeof(*ev));
	if (!ev || !(ev->ent = calloc(md.nr_metrics ? md.nr_metrics : 1, sizeof(*ev->ent)))) {
		free(ev);
		return -ENOMEM;
	}
	ev->cat = cat;
	ev->model = model;
	ev->nr = md.nr_metrics;
	*out = ev;
	return 0;
}

void pk_metric_eval__free(struct pk_metric_eval *ev)
{
	if (!ev)
		return;
	for (size_t i = 0; i < ev->nr; i++) {
		pk_mexpr__free(ev->ent[i].expr);
		pk_mexpr__free(ev->ent[i].thr);
	}
	free(ev->ent);
	free(ev);
}

void pk_metric_eval__reset(struct pk_metric_eval *ev)
{
	for (size_t i = 0; i < ev->nr; i++)
		ev->ent[i].val_state = VAL_NONE;
}

const struct pk_spec_error *pk_metric_eval__error(const struct pk_metric_eval *ev,
						   const char **metric)
{
	if (!ev->has_error)
		return NULL;
	if (metric)
		*metric = ev->err_metric;
	return &ev->err;
}

static void set_error(struct pk_metric_eval *ev, const char *metric,
		      const struct pk_spec_error *err, int code, const char *msg)
{
	ev->has_error = true;
	snprintf(ev->err_metric, sizeof(ev->err_metric), "%s", metric);
	if (err) {
		ev->err = *err;
	} else {
		ev->err = (struct pk_spec_error){ .code = code };
		snprintf(ev->err.msg, sizeof(ev->err.msg), "%s", msg);
	}
}

/* The parsed MetricExpr (thr false) or MetricThreshold (thr true) of metric idx. */
static struct pk_mexpr *get(struct pk_metric_eval *ev, size_t idx, bool thr, int *rc)
{
	struct entry *en = &ev->ent[idx];
	uint8_t *state = thr ? &en->thr_state : &en->expr_state;
	struct pk_mexpr **e = thr ? &en->thr : &en->expr;
	*rc = 0;
	if (*state == PARSE_OK)
		return *e;
	struct pk_metric m = { .sz = sizeof(m) };
	if ((*rc = pk_catalog__metric(ev->cat, ev->model, idx, &m)))
		return NULL;
	const char *text = thr ? m.threshold : m.expr;
	if (!text) {
		*rc = -ENOENT;
		return NULL;
	}
	if (*state == PARSE_FAILED) {
		*rc = -EINVAL;
		return NULL;
	}
	struct pk_spec_error err;
	*rc = pk_mexpr__parse(e, text, &err);
	if (!*rc) {
		int n = pk_mexpr__resolve_metrics(*e, ev->cat, ev->model, m.pmu);
		if (n < 0) {
			pk_mexpr__free(*e);
			*e = NULL;
			*rc = n;
		}
	} else {
		set_error(ev, m.name, &err, 0, NULL);
	}
	*state = *rc ? PARSE_FAILED : PARSE_OK;
	return *e;
}

const struct pk_mexpr *pk_metric_eval__expr(struct pk_metric_eval *ev, size_t metric)
{
	int rc;
	return metric < ev->nr ? get(ev, metric, false, &rc) : NULL;
}

struct lookup {
	struct pk_metric_eval *ev;
	pk_mexpr_lookup_fn fn;
	void *ctx;
	int depth;
};

static int value(struct pk_metric_eval *ev, size_t idx, pk_mexpr_lookup_fn fn, void *ctx,
		 int depth, double *out);

static int lookup(void *vctx, const struct pk_mexpr_id *id, double *v)
{
	struct lookup *l = vctx;
	if (id->kind == PK_MEXPR_ID_METRIC)
		return value(l->ev, id->metric, l->fn, l->ctx, l->depth + 1, v);
	return l->fn ? l->fn(l->ctx, id, v) : -ENOENT;
}

static const char *metric_name(struct pk_metric_eval *ev, size_t idx)
{
	struct pk_metric m = { .sz = sizeof(m) };
	return pk_catalog__metric(ev->cat, ev->model, idx, &m) ? "?" : m.name;
}

static int value(struct pk_metric_eval *ev, size_t idx, pk_mexpr_lookup_fn fn, void *ctx,
		 int depth, double *out)
{
	struct entry *en = &ev->ent[idx];
	int rc;
	if (en->val_state == VAL_DONE) {
		*out = en->value;
		return 0;
	}
	if (en->val_state == VAL_BUSY) {
		set_error(ev, metric_name(ev, idx), NULL, -ELOOP,
			  "metric references itself (reference cycle)");
		return -ELOOP;
	}
	if (depth > MAX_REF_DEPTH) {
		set_error(ev, metric_name(ev, idx), NULL, -ELOOP, "metric references nested too deep");
		return -ELOOP;
	}
	struct pk_mexpr *e = get(ev, idx, false, &rc);
	if (!e)
		return rc == -ENOENT ? -EINVAL : rc;
	struct lookup l = { ev, fn, ctx, depth };
	en->val_state = VAL_BUSY;
	rc = pk_mexpr__eval(e, lookup, &l, &en->value);
	en->val_state = rc ? VAL_NONE : VAL_DONE;
	if (!rc)
		*out = en->value;
	return rc;
}

int pk_metric_eval__value(struct pk_metric_eval *ev, size_t metric, pk_mexpr_lookup_fn fn,
			  void *ctx, double *out)
{
	if (metric >= ev->nr)
		return -ENOENT;
	return value(ev, metric, fn, ctx, 0, out);
}

int pk_metric_eval__value_name(struct pk_metric_eval *ev, const char *metric,
			       pk_mexpr_lookup_fn fn, void *ctx, double *out)
{
	size_t idx;
	int rc = pk_catalog__find_metric(ev->cat, ev->model, metric, &idx);
	return rc ? rc : pk_metric_eval__value(ev, idx, fn, ctx, out);
}

int pk_metric_eval__threshold(struct pk_metric_eval *ev, size_t metric, pk_mexpr_lookup_fn fn,
			      void *ctx)
{
	int rc;
	if (metric >= ev->nr)
		return -ENOENT;
	struct pk_mexpr *t = get(ev, metric, true, &rc);
	if (!t)
		return rc;
	struct lookup l = { ev, fn, ctx, 0 };
	double v;
	if ((rc = pk_mexpr__eval(t, lookup, &l, &v)))
		return rc;
	if (isnan(v))
		return -ENODATA;
	return v != 0;
}

/* --- the events a metric tree needs ------------------------------------------------ */

struct walk {
	struct pk_metric_eval *ev;
	pk_mexpr_lookup_fn consts;
	void *consts_ctx;
	pk_metric_id_fn each;
	void *each_ctx;
	uint8_t *visited;
	const struct pk_mexpr_id **seen;
	size_t nr_seen, cap_seen;
};

static int emit(struct walk *w, const struct pk_mexpr_id *id)
{
	for (size_t i = 0; i < w->nr_seen; i++)
		if (w->seen[i]->kind == id->kind && !strcmp(w->seen[i]->name, id->name))
			return 0;
	if (PK_GROW(w->seen, w->cap_seen, w->nr_seen + 1))
		return -ENOMEM;
	w->seen[w->nr_seen++] = id;
	return w->each(w->each_ctx, id);
}

static int walk_expr(struct walk *w, const struct pk_mexpr *e, int depth);

static int walk_metric(struct walk *w, size_t idx, int depth)
{
	int rc;
	if (w->visited[idx])
		return 0;
	if (depth > MAX_REF_DEPTH)
		return -ELOOP;
	w->visited[idx] = 1;
	const struct pk_mexpr *e = get(w->ev, idx, false, &rc);
	if (!e)
		return rc == -ENOENT ? -EINVAL : rc;
	return walk_expr(w, e, depth);
}

static int walk_expr(struct walk *w, const struct pk_mexpr *e, int depth)
{
	bool small[64], *needed = e->nr_ids <= 64 ? small : malloc(e->nr_ids);
	if (!needed)
		return -ENOMEM;
	int rc = pk_mexpr__needed_ids(e, w->consts, w->consts_ctx, needed);
	for (size_t i = 0; !rc && i < e->nr_ids; i++) {
		if (!needed[i])
			continue;
		const struct pk_mexpr_id *id = &e->ids[i];
		if (id->kind == PK_MEXPR_ID_METRIC)
			rc = walk_metric(w, id->metric, depth + 1);
		else
			rc = emit(w, id);
	}
	if (needed != small)
		free(needed);
	return rc;
}

int pk_metric_eval__for_each_event(struct pk_metric_eval *ev, size_t metric, bool threshold,
				   pk_mexpr_lookup_fn consts, void *consts_ctx,
				   pk_metric_id_fn each, void *each_ctx)
{
	if (metric >= ev->nr)
		return -ENOENT;
	struct walk w = { .ev = ev, .consts = consts, .consts_ctx = consts_ctx, .each = each,
			  .each_ctx = each_ctx, .visited = calloc(ev->nr, 1) };
	if (!w.visited)
		return -ENOMEM;
	int rc = walk_metric(&w, metric, 0);
	if (!rc && threshold) {
		const struct pk_mexpr *t = get(ev, metric, true, &rc);
		if (t)
			rc = walk_expr(&w, t, 0);
		else if (rc == -ENOENT)
			rc = 0;
	}
	free(w.seen);
	free(w.visited);
	return rc;
}

/* --- one-shot forms, ScaleUnit ---------------------------------------------------------- */

int pk_metric__eval(struct pk_catalog *cat, size_t model, const char *metric,
		    pk_mexpr_lookup_fn events, void *ctx, double *out)
{
	struct pk_metric_eval *ev;
	int rc = pk_metric_eval__new(&ev, cat, model);
	if (rc)
		return rc;
	rc = pk_metric_eval__value_name(ev, metric, events, ctx, out);
	pk_metric_eval__free(ev);
	return rc;
}

int pk_metric__threshold_exceeded(struct pk_catalog *cat, size_t model, const char *metric,
				  pk_mexpr_lookup_fn events, void *ctx)
{
	struct pk_metric_eval *ev;
	size_t idx;
	int rc = pk_catalog__find_metric(cat, model, metric, &idx);
	if (rc || (rc = pk_metric_eval__new(&ev, cat, model)))
		return rc;
	rc = pk_metric_eval__threshold(ev, idx, events, ctx);
	pk_metric_eval__free(ev);
	return rc;
}

int pk_metric__scale(const char *scale_unit, double value, double *scaled, const char **unit)
{
	double scale = 1.0;
	*unit = "";
	if (scale_unit && *scale_unit) {
		int rc = pk_alias__parse_scale_unit(scale_unit, &scale, unit);
		if (rc)
			return rc;
	}
	*scaled = value * scale;
	return 0;
}
