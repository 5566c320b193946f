/* SPDX-License-Identifier: MIT */
/*
 * pmu/synthetic.c — the core PMU(s) a machine of some arch would have, with
 * the format terms its kernel driver exports, for answering offline (another
 * CPU, or a VM without a hardware PMU): x86 Intel "cpu", Intel hybrid
 * "cpu_core" + "cpu_atom", AMD "cpu", arm64 "armv8_pmuv3", powerpc "cpu",
 * plus software/tracepoint/breakpoint. Type numbers are the usual ones; a
 * real machine may number dynamic PMUs differently.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_int.h"
#include "util/grow.h"

struct syn_pmu {
	const char *name;
	uint32_t type;
	const char *cpus;
	const char *formats;	/* "name=body;name=body" */
	const char *caps;	/* "name=value;..." */
};

#define INTEL_FMT "event=config:0-7;umask=config:8-15;edge=config:18;pc=config:19;inv=config:23;" \
		  "cmask=config:24-31;ldlat=config1:0-15;offcore_rsp=config1:0-63;frontend=config1:0-23"

static const struct syn_pmu intel[] = {
	{ "cpu", 4, NULL, INTEL_FMT ";any=config:21;in_tx=config:32;in_tx_cp=config:33", NULL },
};
static const struct syn_pmu intel_hybrid[] = {
	{ "cpu_core", 4, "0-7", INTEL_FMT, NULL },
	{ "cpu_atom", 10, "8-15", INTEL_FMT, NULL },
};
static const struct syn_pmu amd[] = {
	{ "cpu", 4, NULL,
	  "event=config:0-7,32-35;umask=config:8-15;edge=config:18;inv=config:23;cmask=config:24-31",
	  NULL },
};
static const struct syn_pmu arm64[] = {
	{ "armv8_pmuv3", 8, "0-7",
	  "event=config:0-15;long=config1:0;rdpmc=config1:1;threshold_compare=config1:2-3;"
	  "threshold_count=config1:4;threshold=config1:5-16",
	  "threshold_max=0x00000fff;slots=0x00000008" },
};
static const struct syn_pmu powerpc[] = {
	{ "cpu", 4, NULL, "event=config:0-49", NULL },
};
static const struct syn_pmu common[] = {
	{ "software", 1, NULL, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL, NULL },
	{ "breakpoint", 5, NULL, NULL, NULL },
};

/* Split "a=b;c=d" into n entries; each value handed to fn. */
static int each_pair(struct pk_arena *a, const char *list,
		     int (*fn)(struct pk_arena *, const char *, const char *, void *), void *ctx)
{
	while (list && *list) {
		size_t n = strcspn(list, ";");
		const char *eq = memchr(list, '=', n);
		if (!eq)
			return -EINVAL;
		char *name = pk_arena__strndup(a, list, (size_t)(eq - list));
		char *val = pk_arena__strndup(a, eq + 1, n - (size_t)(eq - list) - 1);
		if (!name || !val)
			return -ENOMEM;
		int r = fn(a, name, val, ctx);
		if (r)
			return r;
		list += n + (list[n] == ';');
	}
	return 0;
}

static int add_format(struct pk_arena *a, const char *name, const char *body, void *ctx)
{
	(void)a;
	struct pk_pmu *p = ctx;
	struct pk_pmu_format *f = &p->formats[p->nr_formats];
	if (pk_pmu_format__parse(body, f))
		return -EINVAL;
	f->name = name;
	p->nr_formats++;
	return 0;
}

static int add_cap(struct pk_arena *a, const char *name, const char *value, void *ctx)
{
	(void)a;
	struct pk_pmu *p = ctx;
	p->caps[p->nr_caps++] = (struct pk_pmu_cap){ name, value };
	return 0;
}

static int cmp_format(const void *x, const void *y)
{
	return strcmp(((const struct pk_pmu_format *)x)->name, ((const struct pk_pmu_format *)y)->name);
}

static int cmp_cap(const void *x, const void *y)
{
	return strcmp(((const struct pk_pmu_cap *)x)->name, ((const struct pk_pmu_cap *)y)->name);
}

static size_t count(const char *list)
{
	size_t n = list && *list;
	for (; list && *list; list++)
		n += *list == ';';
	return n;
}

static int build(struct pk_arena *a, const struct syn_pmu *d, struct pk_pmu *p)
{
	memset(p, 0, sizeof(*p));
	p->name = d->name;
	p->type = d->type;
	p->cpus = d->cpus;
	p->is_core = strcmp(d->name, "software") && strcmp(d->name, "tracepoint") &&
		     strcmp(d->name, "breakpoint");
	p->formats = pk_arena__alloc(a, (count(d->formats) + 1) * sizeof(*p->formats));
	p->caps = pk_arena__alloc(a, (count(d->caps) + 1) * sizeof(*p->caps));
	if (!p->formats || !p->caps)
		return -ENOMEM;
	int r = each_pair(a, d->formats, add_format, p);
	if (!r)
		r = each_pair(a, d->caps, add_cap, p);
	qsort(p->formats, p->nr_formats, sizeof(*p->formats), cmp_format);
	qsort(p->caps, p->nr_caps, sizeof(*p->caps), cmp_cap);
	return r;
}

int pk_pmu_tree__add_core(struct pk_pmu_tree *tree, const char *arch, const char *flavour)
{
	const struct syn_pmu *set;
	size_t n;
	if (!strcmp(arch, "x86") && flavour && !strcmp(flavour, "amd"))
		set = amd, n = sizeof(amd) / sizeof(amd[0]);
	else if (!strcmp(arch, "x86") && flavour && !strcmp(flavour, "hybrid"))
		set = intel_hybrid, n = 2;
	else if (!strcmp(arch, "x86"))
		set = intel, n = 1;
	else if (!strcmp(arch, "arm64"))
		set = arm64, n = 1;
	else if (!strcmp(arch, "powerpc"))
		set = powerpc, n = 1;
	else
		return -ENOTSUP;
	size_t cap = tree->nr_pmus;	/* the array holds exactly its PMUs */
	for (size_t pass = 0; pass < 2; pass++) {
		const struct syn_pmu *s = pass ? common : set;
		size_t k = pass ? sizeof(common) / sizeof(common[0]) : n;
		for (size_t i = 0; i < k; i++) {
			if (pk_pmu_tree__find(tree, s[i].name))
				continue;
			if (PK_GROW(tree->pmus, cap, tree->nr_pmus + 1)) {
				pk_pmu_tree__derive(tree);
				return -ENOMEM;
			}
			int r = build(&tree->arena, &s[i], &tree->pmus[tree->nr_pmus]);
			if (r) {
				pk_pmu_tree__derive(tree);	/* the array moved */
				return r;
			}
			tree->nr_pmus++;
		}
	}
	qsort(tree->pmus, tree->nr_pmus, sizeof(*tree->pmus), pk_pmu__cmp);
	return pk_pmu_tree__derive(tree);	/* facts point into the array, which moved */
}

bool pk_pmu_tree__has_core(const struct pk_pmu_tree *tree)
{
	for (size_t i = 0; tree && i < tree->nr_pmus; i++)
		if (tree->pmus[i].is_core)
			return true;
	return false;
}

int pk_pmu_tree__new(struct pk_pmu_tree **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	return pk_pmu_tree__derive(*out);	/* the facts of no PMU */
}
