/* SPDX-License-Identifier: MIT */
/*
 * pmu/alias.c — sysfs aliases merged with table events as perf merges them
 * (a table event of the same name updates the sysfs alias; table events for
 * the PMU add the rest), and the table model of each core PMU.
 */
#include <pmukit/alias.h>
#include <pmukit/cpuid.h>

#include "events/catalog_int.h"
#include "pmu/lookup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int pk_alias__parse_scale_unit(const char *s, double *scale, const char **unit)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s) {		/* no number: the whole thing is the unit */
		*scale = 1.0;
		*unit = s;
		return *s ? 0 : -EINVAL;
	}
	*scale = v;
	*unit = end;
	return 0;
}

/*
 * The table event for this PMU named name, searching the model then sys
 * models: 0 with *m and *idx set, or -ENOENT. range: the model's events of
 * that name when the caller looked them up already (NULL: look up).
 */
static int table_event(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
		       const char *name, const struct pk_alias_range *range, size_t *m_out,
		       size_t *idx)
{
	size_t first, count;
	if (!cat)
		return -ENOENT;
	bool found = false;
	if (model != PK_NO_MODEL) {
		if (range) {
			found = range->found;
			first = range->first;
			count = range->count;
		} else {
			found = !pk_catalog__find_event(cat, model, name, NULL, &first, &count);
		}
	}
	if (found) {
		struct pk_table_pmu tp = { 0 };
		const char *last = NULL;
		for (size_t i = first; i < first + count; i++) {
			const char *p = pk_catalog__event_pmu(cat, model, i);
			if (!p)
				continue;
			if (p != last)
				pk_table_pmu__init(&tp, last = p);
			if (pk_pmu__matches_prepared(pmu, &tp)) {
				*m_out = model;
				*idx = i;
				return 0;
			}
		}
	}
	if (!pk_pmu__is_uncore(pmu) || !pk_pmu__identifier(pmu))
		return -ENOENT;
	for (size_t m = 0; m < pk_catalog__nr_models(cat); m++) {
		struct pk_model md;
		pk_catalog__model(cat, m, &md);
		if (!md.sys || pk_catalog__find_event(cat, m, name, NULL, &first, &count))
			continue;
		for (size_t i = first; i < first + count; i++) {
			struct pk_event e = { .sz = sizeof(e) };
			pk_catalog__event_brief(cat, m, i, &e);
			if (e.compat && pk_pmu__matches_table_pmu(pmu, e.pmu) &&
			    pk_pmu__matches_compat(pmu, e.compat)) {
				*m_out = m;
				*idx = i;
				return 0;
			}
		}
	}
	return -ENOENT;
}

static void from_table(struct pk_alias *a, const struct pk_event *e)
{
	a->encoding = e->encoding;
	a->desc = e->desc;
	a->long_desc = e->long_desc ? e->long_desc : e->desc;
	a->topic = e->topic;
	a->per_pkg = e->perpkg;
	a->from_table = true;
	a->table_pmu = e->pmu;
	if (e->unit && !pk_alias__parse_scale_unit(e->unit, &a->scale, &a->unit) && !*a->unit)
		a->unit = NULL;
}

static void from_sysfs(struct pk_alias *a, const struct pk_pmu_alias *s)
{
	*a = (struct pk_alias){
		.name = s->name,
		.encoding = s->encoding,
		.unit = s->unit,
		.scale = s->scale,
		.per_pkg = s->per_pkg,
		.snapshot = s->snapshot,
		.from_sysfs = true,
	};
}

int pk_alias__from_parts(struct pk_catalog *cat, const struct pk_alias_parts *parts,
			 struct pk_alias *out)
{
	const struct pk_pmu_alias *s = parts->sysfs;
	struct pk_event e = { .sz = sizeof(e) };
	bool have_table = parts->table && !pk_catalog__event(cat, parts->model, parts->idx, &e);
	if (s) {
		from_sysfs(out, s);
		if (have_table)
			from_table(out, &e);	/* perf: the table updates the sysfs alias */
		return 0;
	}
	if (!have_table)
		return -ENOENT;
	*out = (struct pk_alias){ .name = e.name, .scale = 1.0, .deprecated = e.deprecated };
	from_table(out, &e);
	return 0;
}

int pk_alias__brief(struct pk_catalog *cat, const struct pk_alias_parts *parts,
		    struct pk_alias_brief *out)
{
	const struct pk_pmu_alias *s = parts->sysfs;
	const char *name, *encoding, *desc;
	bool have_table = parts->table &&
			  !pk_catalog__event_text(cat, parts->model, parts->idx, &name, &encoding, &desc);
	if (!s && !have_table)
		return -ENOENT;
	/* as pk_alias__from_parts: the table's terms and text update the sysfs alias */
	*out = (struct pk_alias_brief){
		.name = s ? s->name : name,
		.encoding = have_table ? encoding : s->encoding,
		.desc = have_table ? desc : NULL,
	};
	return 0;
}

void pk_alias__find_parts(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
			  const char *name, const struct pk_alias_range *range,
			  struct pk_alias_parts *parts)
{
	*parts = (struct pk_alias_parts){ .sysfs = pk_pmu__find_alias(pmu, name) };
	parts->table = !table_event(pmu, cat, model, name, range, &parts->model, &parts->idx);
}

int pk_alias__find(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
		   const char *name, struct pk_alias *out)
{
	struct pk_alias_parts parts;
	pk_alias__find_parts(pmu, cat, model, name, NULL, &parts);
	return pk_alias__from_parts(cat, &parts, out);
}

static int for_each_table(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
			  bool sys, pk_alias_fn fn, void *ctx)
{
	struct pk_model md;
	if (pk_catalog__model(cat, model, &md))
		return 0;
	for (size_t i = 0; i < md.nr_events; i++) {
		struct pk_event e = { .sz = sizeof(e) };
		pk_catalog__event_brief(cat, model, i, &e);
		if (!pk_pmu__matches_table_pmu(pmu, e.pmu) ||
		    (sys && !(e.compat && pk_pmu__matches_compat(pmu, e.compat))) ||
		    pk_pmu__find_alias(pmu, e.name))
			continue;
		struct pk_alias a = { .name = e.name, .scale = 1.0, .deprecated = e.deprecated };
		pk_catalog__event(cat, model, i, &e);
		from_table(&a, &e);
		int ret = fn(&a, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

int pk_alias__for_each(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
		       pk_alias_fn fn, void *ctx)
{
	int ret;
	for (size_t i = 0; i < pk_pmu__nr_aliases(pmu); i++) {
		struct pk_alias a;
		pk_alias__find(pmu, cat, model, pk_pmu__alias(pmu, i)->name, &a);
		if ((ret = fn(&a, ctx)))
			return ret;
	}
	if (!cat)
		return 0;
	if (model != PK_NO_MODEL && (ret = for_each_table(pmu, cat, model, false, fn, ctx)))
		return ret;
	if (!pk_pmu__is_uncore(pmu) || !pk_pmu__identifier(pmu))
		return 0;
	for (size_t m = 0; m < pk_catalog__nr_models(cat); m++) {
		struct pk_model md;
		pk_catalog__model(cat, m, &md);
		if (md.sys && (ret = for_each_table(pmu, cat, m, true, fn, ctx)))
			return ret;
	}
	return 0;
}

int pk_alias__model_for_pmu(const struct pk_catalog *cat, const struct pk_pmu *pmu,
			    const char *arch, const char *cpu_root, size_t *model)
{
	const char *cpus = pk_pmu__cpus(pmu);
	int cpu = cpus && *cpus >= '0' && *cpus <= '9' ? atoi(cpus) : -1;
	char id[128];
	size_t map;
	struct pk_map_entry e;
	int ret = arch ? pk_cpuid__read(arch, cpu_root, cpu, id, sizeof(id))
		       : pk_cpuid__host(cpu_root, cpu, id, sizeof(id));
	if (ret || pk_catalog__match_cpuid(cat, arch ? arch : pk_cpuid__host_arch(), id, &map))
		return -ENOENT;
	pk_catalog__map(cat, map, &e);
	*model = e.model;
	return 0;
}
