/* SPDX-License-Identifier: MIT */
/*
 * list-table.c — the table part of `pmukit list`, gathered as perf 6.12 does
 * (tools/perf/util/pmus.c, pmu.c, metricgroup.c):
 * - each core PMU of the tree lists the core events of its own table
 *   (heterogeneous arm64: the table of the MIDR of the PMU's CPUs), named by
 *   the event and shown with that PMU as their unit; in the text listing
 *   without -v, core PMUs whose names differ only by an instance suffix
 *   ("armv8_pmuv3_0", "armv8_pmuv3_1") are listed once, by the first;
 * - without a core PMU in the tree (a VM) the machine's table stands in;
 * - uncore events once per table PMU when such a PMU is present (--all: all);
 * - sys events (tables matched by an uncore PMU's identifier against their
 *   Compat) once per event and table PMU, however many PMUs match;
 * - metrics of the machine's table, none on heterogeneous arm64 (perf
 *   supports no metrics there), plus the sys metrics of present PMUs.
 */
#include <ctype.h>
#include <string.h>

#include "list.h"

static bool is_core_table_pmu(const char *pmu)
{
	return !strcmp(pmu, "default_core") || !strcmp(pmu, "cpu_core") || !strcmp(pmu, "cpu_atom") ||
	       !strcmp(pmu, "cpu");
}

/* A PMU of the tree that table PMU name designates (core ones only: core). */
static const struct pk_pmu *tree_pmu_for(const struct cli_env *env, const char *table_pmu, bool core)
{
	for (size_t i = 0; env->pmus && i < pk_pmu_tree__nr_pmus(env->pmus); i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(env->pmus, i);
		if ((!core || pk_pmu__is_core(p)) && pk_pmu__matches_table_pmu(p, table_pmu))
			return p;
	}
	return NULL;
}

/*
 * Length of name without an instance suffix, the rule perf lists PMUs once
 * by: '_' then digits, all decimal or more than two hex ("armv8_pmuv3_0" and
 * "armv8_cortex_a55" lose theirs; "cpum_cf" keeps "_cf").
 */
static size_t base_len(const char *name)
{
	size_t n = strlen(name), k = n;
	bool letter = false;
	while (k && isxdigit((unsigned char)name[k - 1]))
		letter |= !isdigit((unsigned char)name[--k]);
	return k && k < n && name[k - 1] == '_' && (!letter || n - k > 2) ? k - 1 : n;
}

static bool same_base(const char *a, const char *b)
{
	size_t n = base_len(a);
	return n == base_len(b) && !strncmp(a, b, n);
}

bool list_core_model(const struct cli_env *env, const struct list_opts *o,
		     const struct pk_pmu *pmu, size_t *model)
{
	if (!env->cpuid) {
		if (o->cpu_root)
			return !pk_alias__model_for_pmu(env->cat, pmu, o->root_arch, o->cpu_root, model);
		if (!env->sysfs && !pk_alias__model_for_pmu(env->cat, pmu, NULL, NULL, model))
			return true;
	}
	*model = env->model;
	return env->have_model;
}

/* The filters every table event goes through: deprecated, then the glob. */
static bool event_ok(const struct list_opts *o, const struct pk_event *e)
{
	return (!e->deprecated || o->all || o->deprecated) && list_glob_ok(o, e->name, e->topic);
}

/* Event idx of model as an item; pmu NULL: the table's PMU name. */
static int add_event(struct items *it, struct cli_env *env, size_t model, size_t idx,
		     const char *pmu, bool core)
{
	struct pk_event e = { .sz = sizeof(e) };
	struct item *p = list_push(it);
	if (!p)
		return -1;
	pk_catalog__event(env->cat, model, idx, &e);	/* now with its description */
	*p = (struct item){ .kind = IT_TABLE, .name = e.name, .pmu = pmu ? pmu : e.pmu,
			    .topic = e.topic, .desc = e.desc, .long_desc = e.long_desc,
			    .encoding = e.encoding, .unit = e.unit, .compat = e.compat,
			    .deprecated = e.deprecated, .perpkg = e.perpkg, .core = core };
	return 0;
}

/*
 * The core events of core PMU pmu's table. As perf names them: a table event
 * for any core PMU ("default_core") takes the PMU's name, others ("cpu_core")
 * keep the table's.
 */
static int add_core_pmu(struct items *it, struct cli_env *env, const struct list_opts *o,
			const struct pk_pmu *pmu)
{
	size_t model;
	struct pk_model m;
	if (!list_core_model(env, o, pmu, &model) || pk_catalog__model(env->cat, model, &m))
		return 0;	/* perf: no table for a PMU whose CPU it cannot identify */
	for (size_t i = 0; i < m.nr_events; i++) {
		struct pk_event e = { .sz = sizeof(e) };
		pk_catalog__event_brief(env->cat, model, i, &e);
		if (!pk_pmu__matches_table_pmu(pmu, e.pmu) || !event_ok(o, &e))
			continue;
		bool any_core = !strcmp(e.pmu, "default_core");
		if (add_event(it, env, model, i, any_core ? pk_pmu__name(pmu) : NULL, true))
			return -1;
	}
	return 0;
}

/* Events of the machine's table that no core PMU of the tree lists. */
static int add_machine_events(struct items *it, struct cli_env *env, const struct list_opts *o,
			      size_t ncore)
{
	struct pk_model m;
	if (!env->have_model || pk_catalog__model(env->cat, env->model, &m))
		return 0;
	for (size_t i = 0; i < m.nr_events; i++) {
		struct pk_event e = { .sz = sizeof(e) };
		pk_catalog__event_brief(env->cat, env->model, i, &e);
		if (!event_ok(o, &e))
			continue;
		bool core = is_core_table_pmu(e.pmu);
		if (ncore && tree_pmu_for(env, e.pmu, true))
			continue;	/* listed by that core PMU */
		/* core events stand for the core PMU only when the tree has none */
		if (!o->all && !(core ? !ncore : tree_pmu_for(env, e.pmu, false) != NULL))
			continue;
		if (add_event(it, env, env->model, i, NULL, core))
			return -1;
	}
	return 0;
}

/* Is PMU one a sys table can apply to (perf reads identifiers of uncore PMUs only)? */
static bool has_identifier(const struct pk_pmu *p)
{
	return pk_pmu__is_uncore(p) && pk_pmu__identifier(p);
}

/* Does a PMU of the tree take this sys entry (table PMU may be NULL: any)? */
static bool sys_match(const struct cli_env *env, const char *table_pmu, const char *compat)
{
	for (size_t i = 0; compat && env->pmus && i < pk_pmu_tree__nr_pmus(env->pmus); i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(env->pmus, i);
		if (has_identifier(p) && (!table_pmu || pk_pmu__matches_table_pmu(p, table_pmu)) &&
		    pk_pmu__matches_compat(p, compat))
			return true;
	}
	return false;
}

static bool any_identifier(const struct cli_env *env)
{
	for (size_t i = 0; env->pmus && i < pk_pmu_tree__nr_pmus(env->pmus); i++)
		if (has_identifier(pk_pmu_tree__pmu(env->pmus, i)))
			return true;
	return false;
}

/* The sys models of arch, one by one: *m from 0; false at the end. */
static bool next_sys_model(const struct cli_env *env, const char *arch, size_t *m,
			   struct pk_model *md)
{
	for (; *m < pk_catalog__nr_models(env->cat); ++*m)
		if (!pk_catalog__model(env->cat, *m, md) && md->sys && !strcmp(md->arch, arch))
			return true;
	return false;
}

/* Sys events once per (name, table PMU), as perf drops the duplicates. */
static int add_sys_events(struct items *it, struct cli_env *env, const struct list_opts *o,
			  const char *arch)
{
	size_t first = it->n;
	struct pk_model md;
	for (size_t m = 0; next_sys_model(env, arch, &m, &md); m++) {
		for (size_t i = 0; i < md.nr_events; i++) {
			struct pk_event e = { .sz = sizeof(e) };
			pk_catalog__event_brief(env->cat, m, i, &e);
			if (!e.compat || !event_ok(o, &e) || !sys_match(env, e.pmu, e.compat))
				continue;
			bool seen = false;
			for (size_t k = first; k < it->n && !seen; k++)
				seen = !strcmp(it->v[k].name, e.name) && !strcmp(it->v[k].pmu, e.pmu);
			if (!seen && add_event(it, env, m, i, NULL, false))
				return -1;
		}
	}
	return 0;
}

static int add_metric(struct items *it, struct cli_env *env, size_t model, size_t idx)
{
	struct pk_metric mt = { .sz = sizeof(mt) };
	pk_catalog__metric(env->cat, model, idx, &mt);
	struct item *p = list_push(it);
	if (!p)
		return -1;
	*p = (struct item){ .kind = IT_METRIC, .name = mt.name, .pmu = mt.pmu, .expr = mt.expr,
			    .groups = mt.groups, .threshold = mt.threshold, .desc = mt.desc,
			    .long_desc = mt.long_desc, .unit = mt.unit, .compat = mt.compat,
			    .model = model };
	return 0;
}

static int add_metrics(struct items *it, struct cli_env *env, const struct list_opts *o,
		       const char *arch, size_t ncore, bool sys)
{
	struct pk_model md;
	/* perf 6.12 on arm64: "Metrics aren't currently supported on heterogeneous Arm systems" */
	if (env->have_model && !pk_catalog__model(env->cat, env->model, &md) &&
	    !(ncore > 1 && !strcmp(arch, "arm64"))) {
		for (size_t i = 0; i < md.nr_metrics; i++) {
			struct pk_metric mt = { .sz = sizeof(mt) };
			pk_catalog__metric(env->cat, env->model, i, &mt);
			if (list_glob_ok(o, mt.name, mt.groups) && add_metric(it, env, env->model, i))
				return -1;
		}
	}
	for (size_t m = 0; sys && next_sys_model(env, arch, &m, &md); m++) {
		for (size_t i = 0; i < md.nr_metrics; i++) {
			struct pk_metric mt = { .sz = sizeof(mt) };
			pk_catalog__metric(env->cat, m, i, &mt);
			/* perf: a sys metric is listed when any PMU's identifier matches */
			if (mt.expr && list_glob_ok(o, mt.name, mt.groups) &&
			    sys_match(env, NULL, mt.compat) && add_metric(it, env, m, i))
				return -1;
		}
	}
	return 0;
}

int list_add_tables(struct items *it, struct cli_env *env, const struct list_opts *o)
{
	bool events = list_class_ok(o, "pmu");
	bool metrics = list_class_ok(o, "metric") || list_class_ok(o, "metricgroup");
	const char *arch = o->root_arch && !env->cpuid ? o->root_arch : cli_env__arch(env);
	bool sys = any_identifier(env);
	/* perf's text listing (not -v, not JSON) takes a PMU once per name without suffix */
	bool once = !o->json && !o->long_desc;
	size_t ncore = 0;
	const char *last = NULL;

	for (size_t i = 0; env->pmus && i < pk_pmu_tree__nr_pmus(env->pmus); i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(env->pmus, i);
		if (!pk_pmu__is_core(p))
			continue;
		ncore++;
		if (!events || (once && last && same_base(last, pk_pmu__name(p))))
			continue;
		last = pk_pmu__name(p);
		if (add_core_pmu(it, env, o, p))
			return -1;
	}
	if (events && (add_machine_events(it, env, o, ncore) ||
		       (sys && add_sys_events(it, env, o, arch))))
		return -1;
	return metrics ? add_metrics(it, env, o, arch, ncore, sys) : 0;
}
