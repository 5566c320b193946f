/* SPDX-License-Identifier: MIT */
/*
 * metrics/mg_sched.c — the scheduling half of pmukit/metricgroup.h: order
 * the selected metrics as perf does, spell each event identifier for the
 * spec (pmu@terms@ forms, hybrid PMU prefixes, -M modifiers), build the
 * event sets perf 6.12 would parse (the shared ungrouped set, per-metric
 * weak groups, groups reused by metrics whose events they contain), force
 * TopDown events of a perf-metrics PMU into one group led by slots, and
 * write the spec with the offsets of every event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/alias.h>
#include <pmukit/metricgroup.h>
#include <pmukit/event_names.h>

#include "metrics/mg_int.h"
#include "util/buf.h"
#include "util/grow.h"

/* --- ordering ------------------------------------------------------------------------------ */

static int cmp_perf(const void *a, const void *b)
{
	const struct mg_metric *x = a, *y = b;
	if (x->nr_counted != y->nr_counted)
		return x->nr_counted > y->nr_counted ? -1 : 1;
	/* perf prepends each metric to its list: the latest selection first */
	return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

static int cmp_default(const void *a, const void *b)
{
	const struct mg_metric *x = a, *y = b;
	int c = strcmp(x->m.default_group ? x->m.default_group : "",
		       y->m.default_group ? y->m.default_group : "");
	if (!c)
		c = strcmp(x->pub.name, y->pub.name);
	if (!c)
		c = strcmp(x->pub.pmu ? x->pub.pmu : "", y->pub.pmu ? y->pub.pmu : "");
	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* --- spelling -------------------------------------------------------------------------------- */

/* Does the hybrid PMU p know the event BASE (alias, table event, legacy name)? */
static bool pmu_knows(const struct pk_metricgroup *mg, const struct pk_pmu *p, const char *base)
{
	struct pk_alias a;
	uint64_t config;
	if (!pk_alias__find(p, mg->cat, mg->model, base, &a))
		return true;
	const struct pk_symbol *s = pk_symbols__find(base);
	if (s)
		return s->kind == PK_SYMBOL_HARDWARE;
	return pk_symbols__parse_cache(base, &config) == 0;
}

static int spell(struct pk_metricgroup *mg, const struct mg_metric *r, struct mg_id *id)
{
	const char *n = id->name, *mod = r->pub.modifier ? r->pub.modifier : "";
	const char *at = strchr(n, '@'), *last = strrchr(n, '@');
	size_t len = strlen(n) + strlen(mod) + 64;
	char *buf = malloc(len + (r->wrap ? strlen(pk_pmu__name(r->wrap)) : 0));
	if (!buf)
		return -ENOMEM;
	if (at && last > at) {
		sprintf(buf, "%.*s/%.*s/%s%s", (int)(at - n), n, (int)(last - at - 1), at + 1, last + 1,
			mod);
	} else {
		const char *colon = strchr(n, ':');
		size_t blen = colon ? (size_t)(colon - n) : strlen(n);
		const char *mods = colon ? colon + 1 : "";
		char base[256];
		snprintf(base, sizeof(base), "%.*s", (int)blen, n);
		if (r->wrap && blen < sizeof(base) && pmu_knows(mg, r->wrap, base))
			sprintf(buf, "%s/%s/%s%s", pk_pmu__name(r->wrap), base, mods, mod);
		else if (*mods || *mod)
			sprintf(buf, "%s:%s%s", base, mods, mod);
		else
			strcpy(buf, n);
	}
	id->spec = pk_arena__strdup(&mg->arena, buf);
	free(buf);
	return id->spec ? 0 : -ENOMEM;
}

/* --- sets -------------------------------------------------------------------------------------- */

static long set_find(const struct mg_set *s, const char *spec)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->specs[i], spec))
			return (long)i;
	return -1;
}

static int set_add(struct mg_set *s, const char *spec, const char *id)
{
	if (set_find(s, spec) >= 0)
		return 0;
	if (s->n == s->cap) {	/* two arrays, one capacity: the same policy gives both the same */
		size_t cap_specs = s->cap, cap_ids = s->cap;
		if (PK_GROW(s->specs, cap_specs, s->n + 1) || PK_GROW(s->ids, cap_ids, s->n + 1))
			return -ENOMEM;
		s->cap = cap_specs < cap_ids ? cap_specs : cap_ids;
	}
	s->ids[s->n] = id;
	s->specs[s->n++] = spec;
	return 0;
}

static struct mg_set *new_set(struct pk_metricgroup *mg, bool grouped, size_t owner)
{
	if (PK_GROW(mg->sets, mg->cap_sets, mg->nr_sets + 1))
		return NULL;
	struct mg_set *s = &mg->sets[mg->nr_sets++];
	memset(s, 0, sizeof(*s));	/* (the analyzer loses a struct literal stored in the heap) */
	s->grouped = grouped;
	s->owner = owner;
	return s;
}

static int add_ids(struct mg_set *s, const struct mg_metric *r)
{
	for (size_t i = 0; i < r->nr_ids; i++)
		if (r->ids[i].spec && set_add(s, r->ids[i].spec, r->ids[i].name))
			return -ENOMEM;
	return 0;
}

static bool contains_all(const struct mg_set *s, const struct mg_metric *r)
{
	for (size_t i = 0; i < r->nr_ids; i++)
		if (r->ids[i].spec && set_find(s, r->ids[i].spec) < 0)
			return false;
	return true;
}

static bool same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* --- TopDown events perf 6.12 forces into a group ------------------------------------------------ */

static bool is_haswell_topdown(const char *s)
{
	static const char *const hsw[] = { "topdown-total-slots", "topdown-slots-issued",
					   "topdown-slots-retired", "topdown-fetch-bubbles",
					   "topdown-recovery-bubbles" };
	for (size_t i = 0; i < sizeof(hsw) / sizeof(hsw[0]); i++)
		if (!strncasecmp(s, hsw[i], strlen(hsw[i])))
			return true;
	return false;
}

/* The PMU an event spelling names ("cpu_core/X/" -> cpu_core), or NULL. */
static size_t spec_pmu(const char *spec, const char **pmu)
{
	const char *slash = strchr(spec, '/');
	*pmu = slash ? spec : NULL;
	return slash ? (size_t)(slash - spec) : 0;
}

/* 0: no, 1: a slots event (leads), 2: another event that must join the group. */
static int must_group(const struct pk_metricgroup *mg, const struct mg_set *s, const char *spec)
{
	const char *pmu;
	size_t plen = spec_pmu(spec, &pmu);
	if (mg->td_pmu) {
		const char *tn = pk_pmu__name(mg->td_pmu);
		if (pmu && (plen != strlen(tn) || strncmp(pmu, tn, plen)))
			return 0;
	} else if (mg->opts.pmus) {
		return 0;	/* a tree without perf metrics: no such rule */
	} else {
		/* no tree: perf metrics when the set uses its topdown-* pseudo events */
		bool pm = false;
		for (size_t i = 0; i < s->n && !pm; i++) {
			const char *b = strchr(s->specs[i], '/') ? strchr(s->specs[i], '/') + 1
								 : s->specs[i];
			pm = !strncasecmp(b, "topdown-", 8) && !is_haswell_topdown(b);
		}
		if (!pm)
			return 0;
	}
	if (strcasestr(spec, "uops_retired.slots"))
		return 0;
	const char *base = pmu ? pmu + plen + 1 : spec;
	size_t blen = strcspn(base, "/:");
	if ((blen == 5 && !strncasecmp(base, "slots", 5)) ||
	    (blen == 13 && !strncasecmp(base, "topdown.slots", 13)))
		return 1;
	return strcasestr(spec, "topdown") || strcasestr(spec, "slots") ? 2 : 0;
}

/* --- the spec ------------------------------------------------------------------------------------ */

static int new_event(struct pk_metricgroup *mg, size_t set, const char *spec, const char *id,
		     size_t off, bool grouped)
{
	if (PK_GROW(mg->events, mg->cap_events, mg->nr_events + 1))
		return -ENOMEM;
	struct mg_event *e = &mg->events[mg->nr_events];
	*e = (struct mg_event){ 0 };
	e->pub.id = id;
	e->pub.spec = spec;
	e->pub.name = spec ? spec : id;
	e->pub.spec_off = (unsigned)off;
	e->pub.spec_len = spec ? (unsigned)strlen(spec) : 0;
	e->pub.set = set;
	e->pub.grouped = grouped;
	e->pub.tool = !spec;
	if (mg_split_name(&mg->arena, e->pub.name, &e->m_pmu, &e->m_base, &e->m_mods))
		return -ENOMEM;
	e->pub.pmu = e->m_pmu;
	mg->nr_events++;
	return 0;
}

/* Append one event of set si: a ',' unless it opens the spec or a group. */
static int emit(struct pk_metricgroup *mg, struct pk_buf *o, size_t si, size_t k,
		bool grouped)
{
	const char *spec = mg->sets[si].specs[k];
	if (o->len && !strchr("{,", o->data[o->len - 1]) && pk_buf__puts(o, ","))
		return -ENOMEM;
	size_t off = o->len;
	if (pk_buf__puts(o, spec))
		return -ENOMEM;
	return new_event(mg, si, spec, mg->sets[si].ids[k], off, grouped);
}

/* The TopDown events of a set, slots first: "{slots,topdown-a,topdown-b". */
static int emit_td(struct pk_metricgroup *mg, struct pk_buf *o, size_t si, const int *kind)
{
	const struct mg_set *s = &mg->sets[si];
	for (int k = 1; k <= 2; k++)
		for (size_t j = 0; j < s->n; j++)
			if (kind[j] == k && emit(mg, o, si, j, true))
				return -ENOMEM;
	return 0;
}

/*
 * A grouped set is "{...}:W" (TopDown events first, slots leading, as perf
 * 6.12 sorts them); in an ungrouped one the TopDown events perf forces into
 * a group become "{...}" where the first of them was.
 */
static int write_set(struct pk_metricgroup *mg, struct pk_buf *o, size_t si)
{
	const struct mg_set *s = &mg->sets[si];
	int *kind = calloc(s->n ? s->n : 1, sizeof(*kind));
	if (!kind)
		return -ENOMEM;
	size_t nmust = 0, first_must = s->n;
	for (size_t i = 0; i < s->n; i++) {
		kind[i] = must_group(mg, s, s->specs[i]);
		if (kind[i] && !nmust++)
			first_must = i;
	}
	int rc = 0;
	if (o->len && pk_buf__puts(o, ","))
		rc = -ENOMEM;
	if (!rc && s->grouped) {
		rc = pk_buf__puts(o, "{");
		if (!rc && nmust)
			rc = emit_td(mg, o, si, kind);
		for (size_t i = 0; !rc && i < s->n; i++)
			if (!kind[i])
				rc = emit(mg, o, si, i, true);
		if (!rc)
			rc = pk_buf__puts(o, "}:W");
	} else {
		for (size_t i = 0; !rc && i < s->n; i++) {
			if (nmust > 1 && i == first_must) {
				if (o->len && !strchr("{,", o->data[o->len - 1]) &&
				    pk_buf__puts(o, ","))
					rc = -ENOMEM;
				if (!rc)
					rc = pk_buf__puts(o, "{");
				if (!rc)
					rc = emit_td(mg, o, si, kind);
				if (!rc)
					rc = pk_buf__puts(o, "}");
			} else if (nmust <= 1 || !kind[i]) {
				rc = emit(mg, o, si, i, false);
			}
		}
	}
	free(kind);
	return rc;
}

/* --- putting it together ---------------------------------------------------------------------------- */

static int link_metric(struct pk_metricgroup *mg, size_t ri)
{
	struct mg_metric *r = &mg->metrics[ri];
	for (size_t i = 0; i < r->nr_ids; i++) {
		struct mg_id *id = &r->ids[i];
		size_t ev = (size_t)-1;
		for (size_t e = 0; e < mg->nr_events && ev == (size_t)-1; e++) {
			const struct pk_metricgroup_event *pe = &mg->events[e].pub;
			if (id->spec ? (pe->set == r->set && pe->spec && !strcmp(pe->spec, id->spec))
				     : (pe->tool && !strcmp(pe->id, id->name)))
				ev = e;
		}
		if (ev == (size_t)-1) {
			if (id->spec)
				return -EINVAL;	/* cannot happen: the set has every spec */
			if (new_event(mg, (size_t)-1, NULL, id->name, 0, false))
				return -ENOMEM;
			ev = mg->nr_events - 1;
		}
		id->event = ev;
		if (mg_idx__push(&r->events, ev) || mg_idx__push(&mg->events[ev].metrics, ri))
			return -ENOMEM;
	}
	r->pub.nr_events = r->events.n;
	r->pub.events = r->events.v;
	return 0;
}

static void publish(struct pk_metricgroup *mg)
{
	for (size_t i = 0; i < mg->nr_events; i++) {
		mg->events[i].pub.nr_metrics = mg->events[i].metrics.n;
		mg->events[i].pub.metrics = mg->events[i].metrics.v;
	}
}

int mg_schedule(struct pk_metricgroup *mg, bool is_default)
{
	int rc = 0;
	qsort(mg->metrics, mg->nr_metrics, sizeof(*mg->metrics), is_default ? cmp_default : cmp_perf);
	for (size_t i = 0; !rc && i < mg->nr_metrics; i++)
		for (size_t k = 0; !rc && k < mg->metrics[i].nr_ids; k++)
			if (!mg_is_tool(mg->metrics[i].ids[k].name))
				rc = spell(mg, &mg->metrics[i], &mg->metrics[i].ids[k]);
	if (rc)
		return rc;

	/* the shared set: every ungrouped metric without modifier */
	size_t shared = (size_t)-1;
	if (!mg->opts.no_merge) {
		struct mg_set *s = new_set(mg, false, (size_t)-1);
		if (!s)
			return -ENOMEM;
		for (size_t i = 0; !rc && i < mg->nr_metrics; i++)
			if (!mg->metrics[i].pub.grouped && !mg->metrics[i].pub.modifier)
				rc = add_ids(s, &mg->metrics[i]);
		if (rc)
			return rc;
		if (s->n)
			shared = mg->nr_sets - 1;
		else
			mg->nr_sets--;
	}
	for (size_t i = 0; i < mg->nr_metrics; i++) {
		struct mg_metric *r = &mg->metrics[i];
		if (!r->nr_counted)
			continue;
		if (shared != (size_t)-1 && !r->pub.grouped && !r->pub.modifier) {
			r->set = shared;
			continue;
		}
		for (size_t j = 0; !mg->opts.no_merge && j < i && r->set == (size_t)-1; j++) {
			const struct mg_metric *n = &mg->metrics[j];
			if (n->own_set && same_str(n->pub.modifier, r->pub.modifier) &&
			    same_str(n->pub.pmu, r->pub.pmu) && contains_all(&mg->sets[n->set], r))
				r->set = n->set;
		}
		if (r->set != (size_t)-1)
			continue;
		struct mg_set *s = new_set(mg, r->pub.grouped, i);
		if (!s || add_ids(s, r))
			return -ENOMEM;
		r->set = mg->nr_sets - 1;
		r->own_set = true;
	}

	struct pk_buf o = { 0 };
	if (pk_buf__puts(&o, ""))
		return -ENOMEM;
	for (size_t si = 0; !rc && si < mg->nr_sets; si++)
		rc = write_set(mg, &o, si);
	mg->spec = pk_buf__detach(&o, NULL);
	for (size_t i = 0; !rc && i < mg->nr_metrics; i++)
		rc = link_metric(mg, i);
	if (!rc)
		publish(mg);
	return rc;
}
