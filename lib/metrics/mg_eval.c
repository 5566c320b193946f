/* SPDX-License-Identifier: MIT */
/*
 * metrics/mg_eval.c — computing the metrics of a pk_metricgroup: each root
 * metric from the events of its own set (references re-evaluated per root,
 * as perf does), its ScaleUnit and MetricThreshold; the same from counts
 * named as perf prints them (name matching with PMU prefixes, modifiers and
 * perf's aliases); and --topdown: the highest TopdownL level, the -M list for
 * a level, and why TopDown cannot run on a machine.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/alias.h>
#include <pmukit/metricgroup.h>
#include <pmukit/event_names.h>

#include "metrics/mg_int.h"
#include "util/opts.h"

/* --- names as perf prints them ------------------------------------------------------------- */

/* Split NAME in buf: "pmu/base/mods" or "base:mods"; pointers into buf. */
void mg_split(const char *name, char *buf, size_t len, char **pmu, char **base, char **mods)
{
	snprintf(buf, len, "%s", name);
	char *first = strchr(buf, '/');
	*pmu = NULL;
	*mods = buf + strlen(buf);
	*base = buf;
	if (first) {
		char *last = strrchr(buf, '/');
		*first = '\0';
		*pmu = buf;
		*base = first + 1;
		if (last > first) {
			*last = '\0';
			*mods = last + 1;
		}
	} else {
		char *colon = strchr(buf, ':');
		if (colon) {
			*colon = '\0';
			*mods = colon + 1;
		}
	}
}

int mg_split_name(struct pk_arena *a, const char *name, char **pmu, char **base, char **mods)
{
	size_t len = strlen(name) + 1;
	char *buf = malloc(len), *p, *b, *m;
	if (!buf)
		return -ENOMEM;
	mg_split(name, buf, len, &p, &b, &m);
	*pmu = p ? pk_arena__strdup(a, p) : NULL;
	*base = pk_arena__strdup(a, b);
	*mods = pk_arena__strdup(a, m);
	free(buf);
	return (p && !*pmu) || !*base || !*mods ? -ENOMEM : 0;
}

bool mg_same_event_name(const char *a, const char *b)
{
	if (!strcasecmp(a, b))
		return true;
	bool sa = !strcasecmp(a, "slots") || !strcasecmp(a, "topdown.slots");
	bool sb = !strcasecmp(b, "slots") || !strcasecmp(b, "topdown.slots");
	if (sa && sb)
		return true;
	const struct pk_symbol *x = pk_symbols__find(a), *y = pk_symbols__find(b);
	return x && x == y;
}

bool mg_same_mods(const char *a, const char *b)
{
	unsigned ca[128] = { 0 }, cb[128] = { 0 };
	for (; *a; a++)
		ca[(unsigned char)*a & 127]++;
	for (; *b; b++)
		cb[(unsigned char)*b & 127]++;
	return !memcmp(ca, cb, sizeof(ca));
}

/* "uncore_cha_10" is an instance of "uncore_cha" (perf's uncore naming). */
static bool same_pmu(const char *printed, const char *want)
{
	size_t n = strlen(want);
	if (!strcmp(printed, want))
		return true;
	if (strncmp(printed, want, n))
		return false;
	const char *s = printed + n + (printed[n] == '_');
	if (!*s)
		return false;
	while (*s >= '0' && *s <= '9')
		s++;
	return !*s;
}

bool pk_metricgroup__event_matches(const struct pk_metricgroup *mg, size_t idx, const char *name)
{
	if (idx >= mg->nr_events || !name)
		return false;
	const struct mg_event *e = &mg->events[idx];
	size_t len = strlen(name) + 1;
	char small[256], *buf = len <= sizeof(small) ? small : malloc(len), *p, *b, *m;
	if (!buf)
		return false;
	mg_split(name, buf, len, &p, &b, &m);
	bool ok = mg_same_event_name(b, e->m_base) && mg_same_mods(m, e->m_mods) &&
		  (!p || !e->m_pmu || same_pmu(p, e->m_pmu));
	if (buf != small)
		free(buf);
	return ok;
}

/* --- evaluation ------------------------------------------------------------------------------------ */

struct ectx {
	struct pk_metricgroup *mg;
	const struct mg_metric *r;
	pk_metricgroup_count_fn fn;
	void *ctx;
	int err;		/* fn's error, which stops everything */
};

static int lookup(void *vx, const struct pk_mexpr_id *id, double *out)
{
	struct ectx *x = vx;
	if (id->kind != PK_MEXPR_ID_EVENT && id->kind != PK_MEXPR_ID_SOURCE_COUNT)
		return mg_consts(x->mg, id, out);
	const struct mg_metric *r = x->r;
	for (size_t i = 0; i < r->nr_ids; i++) {
		if (strcmp(r->ids[i].name, id->name))
			continue;
		double v = NAN;
		unsigned src = 1;
		int rc = x->fn(x->ctx, r->ids[i].event, &v, &src);
		if (rc == -ENOENT)
			return rc;
		if (rc) {
			x->err = rc;
			return rc;
		}
		*out = id->kind == PK_MEXPR_ID_SOURCE_COUNT ? (double)(src ? src : 1) : v;
		return 0;
	}
	return -ENOENT;
}

int pk_metricgroup__eval(struct pk_metricgroup *mg, pk_metricgroup_count_fn fn, void *ctx,
			 struct pk_metricgroup_value *out)
{
	for (size_t i = 0; i < mg->nr_metrics; i++) {
		const struct mg_metric *r = &mg->metrics[i];
		struct pk_metricgroup_value *o = &out[i];
		struct pk_metric_eval *ev = mg_evaluator(mg, r->pub.model);
		if (!ev)
			return -ENOMEM;
		struct ectx x = { mg, r, fn, ctx, 0 };
		*o = (struct pk_metricgroup_value){ .value = NAN, .scaled = NAN, .unit = "",
						    .threshold = -1 };
		/* each root from its own events: forget values memoised for other roots */
		pk_metric_eval__reset(ev);
		int rc = pk_metric_eval__value(ev, r->pub.idx, lookup, &x, &o->value);
		if (x.err)
			return x.err;
		if (rc) {
			o->error = rc;
			o->value = NAN;
		}
		if (pk_metric__scale(r->pub.scale_unit, o->value, &o->scaled, &o->unit)) {
			o->scaled = o->value;
			o->unit = "";
		}
		if (rc || !r->pub.threshold)
			continue;
		rc = pk_metric_eval__threshold(ev, r->pub.idx, lookup, &x);
		if (x.err)
			return x.err;
		o->threshold = rc == 0 || rc == 1 ? rc : -1;
	}
	return 0;
}

struct named {
	const double *v;
	const unsigned *src;
};

static int named_fn(void *ctx, size_t idx, double *value, unsigned *sources)
{
	const struct named *n = ctx;
	*value = n->v[idx];
	*sources = n->src[idx];
	return n->src[idx] ? 0 : -ENOENT;
}

int pk_metricgroup__eval_named(struct pk_metricgroup *mg, const struct pk_metricgroup_named *counts,
			       size_t nr, struct pk_metricgroup_value *out)
{
	size_t ne = mg->nr_events ? mg->nr_events : 1;
	double *v = calloc(ne, sizeof(*v));
	unsigned *src = calloc(ne, sizeof(*src));
	int rc = v && src ? 0 : -ENOMEM;
	for (size_t e = 0; !rc && e < mg->nr_events; e++) {
		v[e] = NAN;
		for (size_t i = 0; i < nr; i++) {
			if (!counts[i].name || !pk_metricgroup__event_matches(mg, e, counts[i].name))
				continue;
			bool dup = false;
			for (size_t j = 0; j < i && !dup; j++)
				dup = counts[j].name && !strcmp(counts[j].name, counts[i].name);
			if (dup)
				continue;
			v[e] = src[e] ? v[e] + counts[i].value : counts[i].value;
			src[e]++;
		}
	}
	struct named n = { v, src };
	if (!rc)
		rc = pk_metricgroup__eval(mg, named_fn, &n, out);
	free(v);
	free(src);
	return rc;
}

/* --- TopDown -------------------------------------------------------------------------------------------- */

unsigned pk_topdown__max_level(struct pk_catalog *cat, size_t model)
{
	struct pk_model md;
	unsigned max = 0;
	if (model == PK_NO_MODEL || pk_catalog__model(cat, model, &md))
		return 0;
	for (size_t i = 0; i < md.nr_metrics; i++) {
		struct pk_metric m = { .sz = sizeof(m) };
		const char *p;
		if (pk_catalog__metric(cat, model, i, &m) || !m.groups ||
		    !(p = strstr(m.groups, "TopdownL")))
			continue;
		/* perf reads the digit after the first "TopdownL" */
		if (p[8] >= '0' && p[8] <= '9' && (unsigned)(p[8] - '0') > max)
			max = (unsigned)(p[8] - '0');
	}
	return max;
}

static const char *model_name(struct pk_catalog *cat, size_t model, char *buf, size_t len)
{
	struct pk_model md;
	if (model == PK_NO_MODEL || pk_catalog__model(cat, model, &md))
		snprintf(buf, len, "this CPU");
	else
		snprintf(buf, len, "%s/%s", md.arch, md.name);
	return buf;
}

int pk_topdown__metric_list(struct pk_catalog *cat, size_t model, unsigned level, char *buf,
			    size_t len, char *why, size_t why_len)
{
	char mn[128];
	unsigned max = pk_topdown__max_level(cat, model);
	if (why && why_len)
		why[0] = '\0';
	if (!max) {
		if (why)
			snprintf(why, why_len,
				 model == PK_NO_MODEL
					 ? "no event tables match this CPU, so no TopDown metrics"
					 : "%s has no TopDown metrics (no metric group TopdownL1)",
				 model_name(cat, model, mn, sizeof(mn)));
		return -ENOENT;
	}
	if (level > max) {
		if (why)
			snprintf(why, why_len, "invalid TopDown level %u: the highest of %s is %u",
				 level, model_name(cat, model, mn, sizeof(mn)), max);
		return -ERANGE;
	}
	snprintf(buf, len, "TopdownL%u", level ? level : 1);
	return 0;
}

int pk_topdown__check(struct pk_catalog *cat, size_t model, unsigned level,
		      const struct pk_pmu_tree *pmus, const struct pk_metricgroup_opts *opts,
		      char *why, size_t why_len)
{
	char list[32], mn[128];
	int rc = pk_topdown__metric_list(cat, model, level, list, sizeof(list), why, why_len);
	if (rc || !pmus)
		return rc;
	if (!pk_pmu_tree__has_core(pmus)) {
		snprintf(why, why_len,
			 "no core PMU (cpu, cpu_core, armv8_pmuv3...): this machine exposes no "
			 "hardware counters (a VM without a virtual PMU?), so the %s metrics of %s "
			 "cannot be counted", list, model_name(cat, model, mn, sizeof(mn)));
		return -ENODEV;
	}
	struct pk_metricgroup_opts o = { .sz = sizeof(o) };
	if (PK_OPTS_LOAD(&o, opts)) {
		snprintf(why, why_len, "pk_metricgroup_opts: bad sz %zu", opts->sz);
		return -EINVAL;
	}
	o.pmus = pmus;
	o.no_threshold = true;
	struct pk_metricgroup *mg;
	struct pk_spec_error se;
	if ((rc = pk_metricgroup__new(&mg, cat, model, list, &o, &se))) {
		snprintf(why, why_len, "the %s metrics of %s cannot be set up: %s", list,
			 model_name(cat, model, mn, sizeof(mn)), se.msg);
		return rc;
	}
	const char *spec = pk_metricgroup__spec(mg);
	struct pk_spec_opts so = { .sz = sizeof(so), .cat = cat, .model = model, .pmus = pmus,
				   .workload = true };
	struct pk_evlist *el = pk_evlist__new();
	if (!el) {
		pk_metricgroup__free(mg);
		return -ENOMEM;
	}
	if (*spec && (rc = pk_evlist__add(el, spec, &so, &se))) {
		long e = pk_metricgroup__event_at(mg, se.off);
		const struct pk_metricgroup_event *pe = e >= 0 ? pk_metricgroup__event(mg, (size_t)e) : NULL;
		const char *metric = pe && pe->nr_metrics
					     ? pk_metricgroup__metric(mg, pe->metrics[0])->name : list;
		snprintf(why, why_len, "%s needs %s, which this machine's PMUs do not offer: %s",
			 metric, pe ? pe->spec : "an event", se.msg);
	}
	pk_evlist__free(el);
	pk_metricgroup__free(mg);
	return rc;
}
