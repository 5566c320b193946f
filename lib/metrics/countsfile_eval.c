/* SPDX-License-Identifier: MIT */
/*
 * metrics/countsfile_eval.c — metrics from a counts file: undo the unit
 * perf printed each count in (msec clocks, ScaleUnit of table events, sysfs
 * .scale/.unit, tool events in ns), supply duration_time for intervals that
 * lack it, and evaluate a pk_metricgroup on one set of records.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/alias.h>
#include <pmukit/countsfile.h>

#include "metrics/countsfile_int.h"
#include "metrics/mg_int.h"

/* A table event of mg's model whose ScaleUnit prints in UNIT: its scale. */
static bool table_scale(struct pk_metricgroup *mg, const char *base, const char *unit, double *scale)
{
	size_t first, count;
	if (!mg || mg->model == PK_NO_MODEL ||
	    pk_catalog__find_event(mg->cat, mg->model, base, NULL, &first, &count))
		return false;
	for (size_t i = first; i < first + count; i++) {
		struct pk_event e = { .sz = sizeof(e) };
		const char *u;
		double sc;
		if (!pk_catalog__event_brief(mg->cat, mg->model, i, &e) && e.unit &&
		    !pk_alias__parse_scale_unit(e.unit, &sc, &u) && !strcmp(u, unit) && sc != 0) {
			*scale = sc;
			return true;
		}
	}
	return false;
}

/* A sysfs alias (.scale, .unit) of the tree printing in UNIT. */
static bool sysfs_scale(struct pk_metricgroup *mg, const char *pmu, const char *base,
			const char *unit, double *scale)
{
	const struct pk_pmu_tree *t = mg ? mg->opts.pmus : NULL;
	for (size_t i = 0; t && i < pk_pmu_tree__nr_pmus(t); i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(t, i);
		if (pmu && strncmp(pk_pmu__name(p), pmu, strlen(pmu)))
			continue;
		const struct pk_pmu_alias *a = pk_pmu__find_alias(p, base);
		if (a && a->unit && !strcmp(a->unit, unit) && a->scale != 0) {
			*scale = a->scale;
			return true;
		}
	}
	return false;
}

static double tool_seconds(const char *unit, double v, bool *known)
{
	if (!*unit || !strcmp(unit, "ns"))
		return v * 1e-9;
	if (!strcmp(unit, "us") || !strcmp(unit, "usec"))
		return v * 1e-6;
	if (!strcmp(unit, "ms") || !strcmp(unit, "msec"))
		return v * 1e-3;
	if (!strcmp(unit, "s"))
		return v;
	*known = false;
	return v * 1e-9;
}

double pk_counts__raw(const struct pk_counts *c, size_t idx, struct pk_metricgroup *mg, bool *known)
{
	bool dummy = false;
	known = known ? known : &dummy;
	*known = true;
	if (idx >= c->nr)
		return NAN;
	const struct pk_counts_record *r = &c->recs[idx];
	if (r->status == PK_COUNTS_NOT_SUPPORTED)
		return NAN;
	if (r->status == PK_COUNTS_NOT_COUNTED)
		return 0;
	size_t len = strlen(r->event) + 1;
	char small[256], *buf = len <= sizeof(small) ? small : malloc(len), *pmu, *base, *mods;
	if (!buf)
		return NAN;
	mg_split(r->event, buf, len, &pmu, &base, &mods);
	double v = r->value, scale;
	if (mg_is_tool(base))
		v = tool_seconds(r->unit, v, known);
	else if (!*r->unit)
		;
	else if (!strcmp(r->unit, "msec") &&
		 (!strcasecmp(base, "task-clock") || !strcasecmp(base, "cpu-clock")))
		v *= 1e6;
	else if (table_scale(mg, base, r->unit, &scale) || sysfs_scale(mg, pmu, base, r->unit, &scale))
		v /= scale;
	else
		*known = false;
	if (buf != small)
		free(buf);
	return v;
}

static bool needs_duration(const struct pk_metricgroup *mg)
{
	for (size_t i = 0; i < mg->nr_events; i++)
		if (mg->events[i].pub.tool && !strcmp(mg->events[i].pub.id, "duration_time"))
			return true;
	return false;
}

static bool is_duration(const char *event)
{
	return !strcmp(event, "duration_time");
}

int pk_counts__eval(const struct pk_counts *c, size_t set, struct pk_metricgroup *mg,
		    struct pk_metricgroup_value *out)
{
	if (set >= c->nr_sets)
		return -ENOENT;
	const struct pk_counts_set *s = &c->sets[set].pub;
	struct pk_metricgroup_named *n = calloc(s->nr_records + 1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	size_t k = 0;
	bool have_duration = false;
	for (size_t i = 0; i < s->nr_records; i++) {
		const struct pk_counts_record *r = &c->recs[s->records[i]];
		n[k].name = r->event;
		n[k++].value = pk_counts__raw(c, s->records[i], mg, NULL);
		have_duration |= is_duration(r->event);
	}
	if (!have_duration && needs_duration(mg)) {
		/* perf prints duration_time once an interval, under one aggregation key */
		long dr = c->sets[set].dur_rec;
		double d = dr >= 0 ? pk_counts__raw(c, (size_t)dr, mg, NULL) : s->duration;
		n[k].name = "duration_time";
		n[k++].value = d;
	}
	int rc = pk_metricgroup__eval_named(mg, n, k, out);
	free(n);
	return rc;
}
