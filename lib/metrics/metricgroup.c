/* SPDX-License-Identifier: MIT */
/*
 * metrics/metricgroup.c — the selection half of pmukit/metricgroup.h: split
 * a -M list into items, match each item against metric names and metric
 * groups as perf's match_metric does (core model, then the sys models whose
 * Compat matches a PMU of the tree), suggest the nearest name for an item
 * that selects nothing, decide each metric's grouping (MetricgroupNoGroup,
 * MetricConstraint, options), and collect the events each metric needs
 * through its references and threshold. Scheduling is in mg_sched.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/alias.h>
#include <pmukit/cpuid.h>
#include <pmukit/metricgroup.h>
#include <pmukit/event_names.h>

#include "metrics/mg_int.h"
#include "util/edit_distance.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

int mg_idx__push(struct mg_idx *a, size_t x)
{
	if (PK_GROW(a->v, a->cap, a->n + 1))
		return -ENOMEM;
	a->v[a->n++] = x;
	return 0;
}

bool mg_is_tool(const char *name)
{
	return !strcmp(name, "duration_time") || !strcmp(name, "user_time") ||
	       !strcmp(name, "system_time");
}

/* --- perf's match_metric --------------------------------------------------------------- */

/* Is SOUGHT (len n) one of the ';'-separated entries of LIST, ignoring case? */
static bool match_list(const char *list, const char *sought, size_t n)
{
	if (n == 3 && !strncmp(sought, "all", 3))
		return true;
	if (!list)
		return n == 8 && !strncasecmp(sought, "No_group", 8);
	for (const char *p = list;;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && !strncasecmp(p, sought, n))
			return true;
		if (!end)
			return false;
		p = end + 1;
	}
}

/* --- the nearest name for a hint ------------------------------------------------------------ */

struct suggest {
	const char *item;
	size_t n;
	unsigned best;
	char name[96];
};

/* Is the item one of cand's '_'-separated words ("IPC" in "tma_info_thread_ipc")? */
static bool is_word(const char *item, size_t n, const char *cand, size_t len)
{
	for (size_t i = 0; i + n <= len; i++)
		if ((i == 0 || cand[i - 1] == '_') && (i + n == len || cand[i + n] == '_') &&
		    !strncasecmp(cand + i, item, n))
			return true;
	return false;
}

/* Distances are doubled, so that a whole word (1) beats one typo (2). */
static void consider(struct suggest *s, const char *cand, size_t len)
{
	if (!len || len >= sizeof(s->name))
		return;
	/* an item of 127 bytes or more is close to nothing (cand is shorter than name[]) */
	unsigned d = s->n >= 127 ? 2000
				 : 2 * (unsigned)pk_edit_distance(s->item, s->n, cand, len,
								  PK_EDIT_NOCASE, SIZE_MAX);
	/* a prefix of a long name ("tma_retir") is as good as a typo */
	if (len > s->n && !strncasecmp(cand, s->item, s->n) && s->n >= 4 && d > 2)
		d = 2;
	if (d > 1 && is_word(s->item, s->n, cand, len))
		d = 1;
	if (d < s->best || (d == s->best && len < strlen(s->name))) {
		s->best = d;
		memcpy(s->name, cand, len);
		s->name[len] = '\0';
	}
}

static void consider_list(struct suggest *s, const char *list)
{
	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		consider(s, p, len);
		p = end ? end + 1 : p + len;
	}
}

/* --- sources of metrics: the core model and the sys models matched by Compat ----------------- */

struct source {
	size_t model;
	size_t nr;
};

static bool sys_model_applies(struct pk_metricgroup *mg, size_t model)
{
	struct pk_model md;
	if (!mg->opts.pmus || pk_catalog__model(mg->cat, model, &md) || !md.sys || !md.nr_metrics)
		return false;
	struct pk_model core;
	if (mg->model != PK_NO_MODEL && !pk_catalog__model(mg->cat, mg->model, &core) &&
	    strcmp(core.arch, md.arch))
		return false;
	return true;
}

static bool sys_metric_applies(struct pk_metricgroup *mg, const struct pk_metric *m)
{
	if (!m->compat)
		return false;
	for (size_t i = 0; i < pk_pmu_tree__nr_pmus(mg->opts.pmus); i++)
		if (pk_pmu__matches_compat(pk_pmu_tree__pmu(mg->opts.pmus, i), m->compat))
			return true;
	return false;
}

static int sources(struct pk_metricgroup *mg, struct source **out, size_t *nr)
{
	size_t n = 0, cap = 4;
	struct source *s = malloc(cap * sizeof(*s));
	if (!s)
		return -ENOMEM;
	struct pk_model md;
	if (mg->model != PK_NO_MODEL && !pk_catalog__model(mg->cat, mg->model, &md))
		s[n++] = (struct source){ mg->model, md.nr_metrics };
	for (size_t i = 0; mg->opts.pmus && i < pk_catalog__nr_models(mg->cat); i++) {
		if (!sys_model_applies(mg, i))
			continue;
		if (PK_GROW(s, cap, n + 1)) {
			free(s);
			return -ENOMEM;
		}
		pk_catalog__model(mg->cat, i, &md);
		s[n++] = (struct source){ i, md.nr_metrics };
	}
	*out = s;
	*nr = n;
	return 0;
}

/* --- machine facts ---------------------------------------------------------------------------- */

static const struct pk_pmu *core_pmu(const struct pk_metricgroup *mg)
{
	for (size_t i = 0; mg->opts.pmus && i < pk_pmu_tree__nr_pmus(mg->opts.pmus); i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(mg->opts.pmus, i);
		if (pk_pmu__is_core(p))
			return p;
	}
	return NULL;
}

int mg_consts(void *vmg, const struct pk_mexpr_id *id, double *v)
{
	struct pk_metricgroup *mg = vmg;
	if (mg->opts.consts) {
		int rc = mg->opts.consts(mg->opts.consts_ctx, id, v);
		if (rc != -ENOENT)
			return rc;
	}
	switch (id->kind) {
	case PK_MEXPR_ID_CPUID:
		if (!mg->opts.cpuid)
			return -ENOENT;
		*v = pk_cpuid__match(NULL, id->name, mg->opts.cpuid) == 0;
		return 0;
	case PK_MEXPR_ID_LITERAL: {
		const struct pk_pmu *p = core_pmu(mg);
		const char *cap = p && id->literal == PK_MEXPR_LIT_SLOTS ? pk_pmu__cap(p, "slots") : NULL;
		if (!cap)
			return -ENOENT;
		*v = (double)strtoull(cap, NULL, 0);
		return 0;
	}
	case PK_MEXPR_ID_HAS_EVENT: {
		if (!mg->opts.pmus)
			return -ENOENT;
		struct pk_spec_opts so = { .sz = sizeof(so), .cat = mg->cat, .model = mg->model,
					   .pmus = mg->opts.pmus, .workload = true };
		struct pk_evlist *el = pk_evlist__new();
		struct pk_spec_error se;
		char spec[512];
		if (!el)
			return -ENOMEM;
		pk_mexpr_id__event_spec(id, spec, sizeof(spec));
		*v = pk_evlist__add(el, spec, &so, &se) == 0;
		pk_evlist__free(el);
		return 0;
	}
	default:
		return -ENOENT;
	}
}

struct pk_metric_eval *mg_evaluator(struct pk_metricgroup *mg, size_t model)
{
	for (size_t i = 0; i < mg->nr_evs; i++)
		if (mg->evs[i].model == model)
			return mg->evs[i].ev;
	if (PK_GROW(mg->evs, mg->cap_evs, mg->nr_evs + 1))
		return NULL;
	struct pk_metric_eval *ev;
	if (pk_metric_eval__new(&ev, mg->cat, model))
		return NULL;
	mg->evs[mg->nr_evs++] = (struct mg_evaluator){ model, ev };
	return ev;
}

/* --- selecting ------------------------------------------------------------------------------- */

struct item {
	const char *text;	/* the whole list */
	size_t off, len;	/* the item */
	size_t name_len;	/* before ':' */
	const char *mod;	/* after ':' (NUL-terminated copy) or NULL */
	size_t idx;
};

static bool group_events(const struct pk_metricgroup *mg, const struct pk_metric *m,
			 const struct item *it, bool *nmi)
{
	*nmi = false;
	if (mg->opts.no_group || match_list(m->nogroup, it->text + it->off, it->name_len))
		return false;
	switch (m->grouping) {
	case PK_GROUPING_NO_GROUP_EVENTS:
		return false;
	case PK_GROUPING_NO_GROUP_EVENTS_NMI:
		*nmi = mg->opts.nmi_watchdog;
		return !mg->opts.nmi_watchdog;
	case PK_GROUPING_NO_GROUP_EVENTS_SMT: {
		struct pk_mexpr_id smt = { .name = "#smt_on", .kind = PK_MEXPR_ID_LITERAL,
					   .literal = PK_MEXPR_LIT_SMT_ON };
		double v;
		/* unknown counts as on: not grouping is the safe side */
		return mg_consts((void *)mg, &smt, &v) == 0 && v == 0;
	}
	default:
		return true;
	}
}

static const struct pk_pmu *wrap_pmu(const struct pk_metricgroup *mg, const char *pmu)
{
	if (mg->nr_core_pmus < 2 || !pmu)
		return NULL;
	const struct pk_pmu *p = pk_pmu_tree__find(mg->opts.pmus, pmu);
	return p && pk_pmu__is_core(p) ? p : NULL;
}

static int add_metric(struct pk_metricgroup *mg, size_t model, size_t idx,
		      const struct pk_metric *m, const struct item *it)
{
	for (size_t i = 0; i < mg->nr_metrics; i++) {
		const struct mg_metric *o = &mg->metrics[i];
		if (o->pub.model == model && o->pub.idx == idx &&
		    !strcmp(o->pub.modifier ? o->pub.modifier : "", it->mod ? it->mod : ""))
			return 0;
	}
	if (PK_GROW(mg->metrics, mg->cap_metrics, mg->nr_metrics + 1))
		return -ENOMEM;
	struct mg_metric *r = &mg->metrics[mg->nr_metrics];
	*r = (struct mg_metric){ .m = *m, .seq = mg->nr_metrics, .set = (size_t)-1 };
	char *name = it->mod ? malloc(strlen(m->name) + strlen(it->mod) + 2) : NULL;
	if (it->mod) {
		if (!name)
			return -ENOMEM;
		sprintf(name, "%s:%s", m->name, it->mod);
		r->pub.name = pk_arena__strdup(&mg->arena, name);
		free(name);
		r->pub.modifier = pk_arena__strdup(&mg->arena, it->mod);
		if (!r->pub.name || !r->pub.modifier)
			return -ENOMEM;
	} else {
		r->pub.name = m->name;
	}
	r->pub.metric = m->name;
	r->pub.pmu = m->pmu;
	r->pub.scale_unit = m->unit;
	r->pub.desc = m->desc;
	r->pub.threshold = m->threshold;
	r->pub.default_group = m->default_group;
	r->pub.model = model;
	r->pub.idx = idx;
	r->pub.item = it->idx;
	r->pub.grouped = group_events(mg, m, it, &r->pub.nmi_ungrouped);
	r->wrap = wrap_pmu(mg, m->pmu);
	mg->nr_metrics++;
	return 0;
}

static int select_item(struct pk_metricgroup *mg, const struct source *src, size_t nsrc,
		       const struct item *it, struct pk_spec_error *err)
{
	const char *name = it->text + it->off;
	bool found = false;
	for (size_t s = 0; s < nsrc; s++) {
		bool sys = src[s].model != mg->model;
		for (size_t i = 0; i < src[s].nr; i++) {
			struct pk_metric m = { .sz = sizeof(m) };
			if (pk_catalog__metric(mg->cat, src[s].model, i, &m) || !m.expr)
				continue;
			if (mg->opts.pmu && strcmp(mg->opts.pmu, m.pmu ? m.pmu : "cpu"))
				continue;
			if (!match_list(m.groups, name, it->name_len) &&
			    !(strlen(m.name) == it->name_len && !strncasecmp(m.name, name, it->name_len)))
				continue;
			if (sys && !sys_metric_applies(mg, &m))
				continue;
			found = true;
			int rc = add_metric(mg, src[s].model, i, &m, it);
			if (rc)
				return pk_spec_error__set(err, rc, it->off, it->len, NULL,
						"out of memory");
		}
	}
	if (found)
		return 0;

	/* the nearest metric or group name */
	struct suggest sg = { .item = name, .n = it->name_len, .best = 1000 };
	for (size_t s = 0; s < nsrc; s++) {
		for (size_t i = 0; i < src[s].nr; i++) {
			struct pk_metric m = { .sz = sizeof(m) };
			if (pk_catalog__metric(mg->cat, src[s].model, i, &m))
				continue;
			consider(&sg, m.name, strlen(m.name));
			consider_list(&sg, m.groups);
		}
	}
	char hint[128] = "";
	if (sg.best <= 2 * (2 + it->name_len / 4))
		snprintf(hint, sizeof(hint), "did you mean '%s'?", sg.name);
	return pk_spec_error__set(err, -EINVAL, it->off, it->name_len, hint,
			"no metric or metric group '%.*s'%s", (int)it->name_len, name,
			nsrc ? "" : " (no metric tables for this CPU)");
}

/* --- the events of each metric ---------------------------------------------------------------- */

struct collect {
	struct pk_metricgroup *mg;
	struct mg_metric *r;
};

static int collect_id(void *ctx, const struct pk_mexpr_id *id)
{
	struct collect *c = ctx;
	struct mg_metric *r = c->r;
	for (size_t i = 0; i < r->nr_ids; i++)
		if (!strcmp(r->ids[i].name, id->name))
			return 0;	/* EVENT and SOURCE_COUNT of one name are one event */
	if (PK_GROW(r->ids, r->cap_ids, r->nr_ids + 1))
		return -ENOMEM;
	const char *name = pk_arena__strdup(&c->mg->arena, id->name);
	if (!name)
		return -ENOMEM;
	r->ids[r->nr_ids++] = (struct mg_id){ .name = name };
	r->nr_counted += !mg_is_tool(name);
	return 0;
}

static int expand(struct pk_metricgroup *mg, struct mg_metric *r, const struct item *items,
		  struct pk_spec_error *err)
{
	const struct item *it = &items[r->pub.item];
	struct pk_metric_eval *ev = mg_evaluator(mg, r->pub.model);
	if (!ev)
		return pk_spec_error__set(err, -ENOMEM, it->off, it->len, NULL, "out of memory");
	struct collect c = { mg, r };
	int rc = pk_metric_eval__for_each_event(ev, r->pub.idx, !mg->opts.no_threshold, mg_consts,
						mg, collect_id, &c);
	if (!rc)
		return 0;
	const char *which = r->pub.metric;
	const struct pk_spec_error *pe = pk_metric_eval__error(ev, &which);
	if (rc == -ENOMEM)
		return pk_spec_error__set(err, rc, it->off, it->len, NULL, "out of memory");
	if (rc == -ELOOP)
		return pk_spec_error__set(err, rc, it->off, it->len, NULL, "metric %s: %s",
				r->pub.metric, pe ? pe->msg : "reference cycle");
	return pk_spec_error__set(err, rc, it->off, it->len, NULL, "metric %s: %s%s%s (error %d)",
			r->pub.metric, pe ? "expression of " : "cannot be evaluated",
			pe ? which : "", pe ? " does not parse" : "", rc);
}

/* --- the object -------------------------------------------------------------------------------- */

static void tree_facts(struct pk_metricgroup *mg)
{
	for (size_t i = 0; mg->opts.pmus && i < pk_pmu_tree__nr_pmus(mg->opts.pmus); i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(mg->opts.pmus, i);
		if (!pk_pmu__is_core(p))
			continue;
		mg->nr_core_pmus++;
		if (pk_pmu__type(p) == 4 && pk_pmu__find_alias(p, "slots"))
			mg->td_pmu = p;
	}
}

static int split_items(const char *list, struct item **out, size_t *nr, char **mods)
{
	size_t n = 1;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	struct item *it = calloc(n, sizeof(*it));
	char *m = strdup(list);
	if (!it || !m) {
		free(it);
		free(m);
		return -ENOMEM;
	}
	size_t k = 0, off = 0;
	for (;;) {
		size_t len = strcspn(list + off, ",");
		struct item *x = &it[k];
		*x = (struct item){ .text = list, .off = off, .len = len, .name_len = len, .idx = k };
		const char *colon = memchr(list + off, ':', len);
		if (colon) {
			x->name_len = (size_t)(colon - (list + off));
			m[off + len] = '\0';
			x->mod = m + (colon - list) + 1;
		}
		k++;
		if (!list[off + len])
			break;
		off += len + 1;
	}
	*out = it;
	*nr = k;
	*mods = m;
	return 0;
}

int pk_metricgroup__new(struct pk_metricgroup **out, struct pk_catalog *cat, size_t model,
			const char *list, const struct pk_metricgroup_opts *opts,
			struct pk_spec_error *err)
{
	*out = NULL;
	if (!list)
		return pk_spec_error__set(err, -EINVAL, 0, 0, NULL, "no metric list");
	if (PK_OPTS_CHECK(opts))
		return pk_spec_error__set(err, -EINVAL, 0, 0, NULL,
					  "pk_metricgroup_opts: bad sz %zu", opts->sz);
	struct pk_metricgroup *mg = calloc(1, sizeof(*mg));
	if (!mg)
		return pk_spec_error__set(err, -ENOMEM, 0, 0, NULL, "out of memory");
	mg->cat = cat;
	mg->model = model;
	PK_OPTS_LOAD(&mg->opts, opts);	/* checked above */
	tree_facts(mg);

	struct item *items = NULL;
	struct source *src = NULL;
	size_t nitems = 0, nsrc = 0;
	char *mods = NULL;
	int rc = split_items(list, &items, &nitems, &mods);
	if (!rc && (rc = sources(mg, &src, &nsrc)))
		rc = pk_spec_error__set(err, rc, 0, 0, NULL, "out of memory");
	for (size_t i = 0; !rc && i < nitems; i++) {
		const struct item *it = &items[i];
		if (!it->name_len)
			rc = pk_spec_error__set(err, -EINVAL, it->off, it->len ? it->len : 1, NULL,
					"empty metric name");
		else if (it->mod && !*it->mod)
			rc = pk_spec_error__set(err, -EINVAL, it->off + it->name_len, 1, NULL,
					"no modifier after ':'");
		else
			rc = select_item(mg, src, nsrc, it, err);
	}
	for (size_t i = 0; !rc && i < mg->nr_metrics; i++)
		rc = expand(mg, &mg->metrics[i], items, err);
	if (!rc && (rc = mg_schedule(mg, !strcmp(list, "Default"))))
		pk_spec_error__set(err, rc, 0, 0, NULL, "out of memory");
	free(items);
	free(src);
	free(mods);
	if (rc) {
		pk_metricgroup__free(mg);
		return rc;
	}
	*out = mg;
	return 0;
}

void pk_metricgroup__free(struct pk_metricgroup *mg)
{
	if (!mg)
		return;
	for (size_t i = 0; i < mg->nr_metrics; i++) {
		free(mg->metrics[i].ids);
		free(mg->metrics[i].events.v);
	}
	for (size_t i = 0; i < mg->nr_events; i++)
		free(mg->events[i].metrics.v);
	for (size_t i = 0; i < mg->nr_sets; i++) {
		free(mg->sets[i].specs);
		free(mg->sets[i].ids);
	}
	for (size_t i = 0; i < mg->nr_evs; i++)
		pk_metric_eval__free(mg->evs[i].ev);
	free(mg->evs);
	free(mg->metrics);
	free(mg->sets);
	free(mg->events);
	free(mg->spec);
	pk_arena__free(&mg->arena);
	free(mg);
}

size_t pk_metricgroup__nr_metrics(const struct pk_metricgroup *mg)
{
	return mg->nr_metrics;
}

const struct pk_metricgroup_metric *pk_metricgroup__metric(const struct pk_metricgroup *mg,
							   size_t idx)
{
	return idx < mg->nr_metrics ? &mg->metrics[idx].pub : NULL;
}

size_t pk_metricgroup__nr_events(const struct pk_metricgroup *mg)
{
	return mg->nr_events;
}

const struct pk_metricgroup_event *pk_metricgroup__event(const struct pk_metricgroup *mg,
							 size_t idx)
{
	return idx < mg->nr_events ? &mg->events[idx].pub : NULL;
}

const char *pk_metricgroup__spec(const struct pk_metricgroup *mg)
{
	return mg->spec ? mg->spec : "";
}

long pk_metricgroup__event_at(const struct pk_metricgroup *mg, unsigned spec_off)
{
	for (size_t i = 0; i < mg->nr_events; i++) {
		const struct pk_metricgroup_event *e = &mg->events[i].pub;
		if (!e->tool && spec_off >= e->spec_off && spec_off < e->spec_off + e->spec_len)
			return (long)i;
	}
	return -ENOENT;
}
