/* SPDX-License-Identifier: MIT */
/*
 * cmd-list.c — `pmukit list`: symbolic, cache, kernel PMU, tracepoint and
 * table events grouped by topic, then metric groups with their metrics; or
 * all of it as one JSON array (--json). Which table events and metrics (per
 * core PMU, uncore, sys) is list-table.c's part.
 */
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <json-c/json.h>

#include "list.h"
#include "util/grow.h"
#include "util/tracefs.h"

struct item *list_push(struct items *it)
{
	if (PK_GROW(it->v, it->cap, it->n + 1))
		return NULL;
	struct item *p = &it->v[it->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

static const char *const classes[][2] = {
	{ "hw", "hardware" }, { "sw", "software" }, { "cache", "hwcache" }, { "tool", "tool" },
	{ "tracepoint", "tracepoint" }, { "pmu", "pmu" }, { "metric", "metric" },
	{ "metricgroup", "metricgroup" },
};

/* Index of a class keyword, or -1 when the filter is a glob (or absent). */
static int filter_class(const struct list_opts *o)
{
	for (size_t i = 0; o->filter && i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(o->filter, classes[i][0]) || !strcmp(o->filter, classes[i][1]))
			return (int)i;
	return -1;
}

bool list_glob_ok(const struct list_opts *o, const char *a, const char *b)
{
	if (!o->filter || filter_class(o) >= 0)
		return true;
	return (a && !fnmatch(o->filter, a, FNM_CASEFOLD)) ||
	       (b && !fnmatch(o->filter, b, FNM_CASEFOLD));
}

bool list_class_ok(const struct list_opts *o, const char *cls)
{
	int c = filter_class(o);
	return c < 0 || !strcmp(classes[c][0], cls);
}

static int add_symbols(struct items *it, const struct list_opts *o)
{
	static const char *const kinds[] = { "Hardware event", "Software event", "Tool event" };
	static const char *const cls[] = { "hw", "sw", "tool" };
	for (size_t i = 0; i < pk_symbols__count(); i++) {
		const struct pk_symbol *s = pk_symbols__get(i);
		if (!list_class_ok(o, cls[s->kind]) || !list_glob_ok(o, s->name, s->alias))
			continue;
		struct item *p = list_push(it);
		if (!p)
			return -1;
		p->kind = IT_SYMBOL;
		p->name = s->name;
		p->alias = s->alias;
		p->type_desc = kinds[s->kind];
		if (s->kind != PK_SYMBOL_TOOL &&
		    asprintf(&p->owned[0], "type=%u,config=0x%llx", s->type,
			     (unsigned long long)s->config) > 0)
			p->encoding = p->owned[0];
	}
	for (size_t i = 0; list_class_ok(o, "cache") && i < pk_symbols__nr_cache(); i++) {
		char name[64];
		uint64_t config = pk_symbols__cache(i, name, sizeof(name));
		if (!list_glob_ok(o, name, NULL))
			continue;
		struct item *p = list_push(it);
		if (!p || !(p->owned[0] = strdup(name)))
			return -1;
		p->kind = IT_CACHE;
		p->name = p->owned[0];
		p->type_desc = "Hardware cache event";
		if (asprintf(&p->owned[1], "type=3,config=0x%llx", (unsigned long long)config) > 0)
			p->encoding = p->owned[1];
	}
	return 0;
}

/*
 * Does a table (model's, or a sys table) update this sysfs alias? Then perf
 * lists it with the table's data, among the table events.
 */
static bool table_has(const struct cli_env *env, const struct pk_pmu *pmu, size_t model,
		      const char *name)
{
	struct pk_alias a;
	return !pk_alias__find(pmu, env->cat, model, name, &a) && a.from_table;
}

static int add_sysfs(struct items *it, const struct cli_env *env, const struct list_opts *o)
{
	for (size_t i = 0; env->pmus && list_class_ok(o, "pmu") && i < pk_pmu_tree__nr_pmus(env->pmus); i++) {
		const struct pk_pmu *pmu = pk_pmu_tree__pmu(env->pmus, i);
		size_t model = env->have_model ? env->model : PK_NO_MODEL;
		if (pk_pmu__nr_aliases(pmu) && pk_pmu__is_core(pmu) &&
		    !list_core_model(env, o, pmu, &model))
			model = PK_NO_MODEL;	/* each core PMU its own table */
		for (size_t a = 0; a < pk_pmu__nr_aliases(pmu); a++) {
			const struct pk_pmu_alias *al = pk_pmu__alias(pmu, a);
			if (table_has(env, pmu, model, al->name))
				continue;
			struct item *p = list_push(it);
			if (!p || asprintf(&p->owned[0], "%s/%s/", pk_pmu__name(pmu), al->name) < 0)
				return -1;
			p->kind = IT_SYSFS;
			p->name = p->owned[0];
			p->pmu = pk_pmu__name(pmu);
			p->encoding = al->encoding;
			p->unit = al->unit;
			p->perpkg = al->per_pkg;
			p->type_desc = "Kernel PMU event";
			if (!list_glob_ok(o, p->name, al->name))
				it->n--, free(p->owned[0]);
		}
	}
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * SYS:EVENT for every tracefs event with an id, as perf lists them: ftrace's
 * internal events have none and can not be opened (every other subsystem's
 * events have one, so only ftrace's are checked: eventfs lookups are slow).
 * Sorted with plain strcmp (no locale cost).
 */
static int add_tracepoints(struct items *it, const struct cli_env *env, const struct list_opts *o)
{
	(void)env;	/* tracepoints come from tracefs, which --sysfs does not replace */
	if (!list_class_ok(o, "tracepoint"))
		return 0;
	const char *tracefs = pk_tracefs__root(NULL);
	char events[PATH_MAX];
	if (!tracefs)
		return 0;
	snprintf(events, sizeof(events), "%s/events", tracefs);
	{
		DIR *top = opendir(events);
		if (!top)
			return 0;
		char **names = NULL;
		size_t n = 0, cap = 0;
		struct dirent *s;
		while ((s = readdir(top))) {
			if (s->d_name[0] == '.' || s->d_type != DT_DIR)
				continue;
			int sfd = openat(dirfd(top), s->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			/* only ftrace's internal events lack an id: check there, not 2000 times */
			bool ftrace = !strcmp(s->d_name, "ftrace");
			DIR *sub = sfd >= 0 ? fdopendir(sfd) : NULL;
			struct dirent *ev;
			while (sub && (ev = readdir(sub))) {
				if (ev->d_name[0] == '.' || ev->d_type != DT_DIR)
					continue;
				char id[NAME_MAX + 8];	/* only events that can be opened, as perf */
				snprintf(id, sizeof(id), "%s/id", ev->d_name);
				if (ftrace && faccessat(sfd, id, F_OK, 0))
					continue;
				if (PK_GROW(names, cap, n + 1))
					break;
				if (asprintf(&names[n], "%s:%s", s->d_name, ev->d_name) > 0)
					n++;
			}
			if (sub)
				closedir(sub);
			else if (sfd >= 0)
				close(sfd);
		}
		closedir(top);
		if (n)
			qsort(names, n, sizeof(*names), name_cmp);
		for (size_t i = 0; i < n; i++) {
			struct item *p = list_glob_ok(o, names[i], NULL) ? list_push(it) : NULL;
			if (!p) {
				free(names[i]);
				continue;
			}
			p->kind = IT_TRACEPOINT;
			p->name = p->owned[0] = names[i];
			p->type_desc = "Tracepoint event";
		}
		free(names);
		return 0;
	}
	return 0;
}

/* perf's order: topic, core PMUs' events first, PMU name, event name. */
static int topic_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = strcmp(x->topic ? x->topic : "", y->topic ? y->topic : "");
	if (c)
		return c;
	if (x->core != y->core)
		return x->core ? -1 : 1;
	c = strcmp(x->pmu ? x->pmu : "", y->pmu ? y->pmu : "");
	return c ? c : strcasecmp(x->name, y->name);
}

static void print_desc(const struct item *p, const struct list_opts *o, int width)
{
	const char *d = o->long_desc && p->long_desc ? p->long_desc : p->desc;
	if (!d)
		return;
	char *with_unit = NULL;
	if (p->kind == IT_TABLE && p->pmu && strcmp(p->pmu, "default_core") && !o->long_desc) {
		size_t n = strlen(d);
		if (asprintf(&with_unit, n && d[n - 1] == '.' ? "%s Unit: %s" : "%s. Unit: %s", d,
			     p->pmu) < 0)
			with_unit = NULL;
	}
	fputs("       [", stdout);
	cli_wordwrap(stdout, with_unit ? with_unit : d, 8, width);
	fputs("]\n", stdout);
	free(with_unit);
}

struct group_row {
	const char *group;
	size_t item;
};

static int row_cmp(const void *a, const void *b, void *ctx)
{
	const struct group_row *x = a, *y = b;
	const struct item *items = ctx;
	int c = strcmp(x->group, y->group);
	if (!c)
		c = strcasecmp(items[x->item].name, items[y->item].name);
	return c ? c : (x->item > y->item) - (x->item < y->item);
}

/* The description of metric group name in model's metricgroups.json, or NULL. */
static const char *group_desc(struct cli_env *env, size_t model, const char *name)
{
	struct pk_model m;
	const char *desc = NULL;
	for (size_t g = 0; !pk_catalog__model(env->cat, model, &m) && g < m.nr_groups; g++) {
		struct pk_metric_group mg;
		pk_catalog__metric_group(env->cat, model, g, &mg);
		if (!strcmp(mg.name, name))
			desc = mg.desc;
	}
	return desc;
}

/* One metric group heading per group a metric belongs to, as perf list does. */
static void print_metric_groups(struct cli_env *env, struct items *it, const struct list_opts *o,
				int width)
{
	struct group_row *rows = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < it->n; i++) {
		const struct item *p = &it->v[i];
		if (p->kind != IT_METRIC)
			continue;
		const char *g = p->groups && *p->groups ? p->groups : "No_group";
		while (*g) {
			size_t len = strcspn(g, ";");
			if (PK_GROW(rows, cap, n + 1))
				goto out;
			char *name = strndup(g, len);
			rows[n].group = name;
			rows[n++].item = i;
			g += len + (g[len] == ';');
		}
	}
	if (n)
		qsort_r(rows, n, sizeof(*rows), row_cmp, it->v);
	if (n)
		printf("\nMetric Groups:\n");
	for (size_t i = 0; i < n; i++) {
		if (!i || strcmp(rows[i].group, rows[i - 1].group)) {
			/* described by the metric's table (sys metrics: their own), else the machine's */
			const char *gdesc = group_desc(env, it->v[rows[i].item].model, rows[i].group);
			if (!gdesc && env->have_model)
				gdesc = group_desc(env, env->model, rows[i].group);
			printf("\n%s:%s%s%s\n", rows[i].group, gdesc ? " [" : "", gdesc ? gdesc : "",
			       gdesc ? "]" : "");
		}
		const struct item *p = &it->v[rows[i].item];
		printf("  %s\n", p->name);
		print_desc(p, o, width);
		if (o->details)
			printf("       [%s]\n", p->expr);
	}
out:
	for (size_t i = 0; i < n; i++)
		free((char *)rows[i].group);
	free(rows);
}

static void print_text(struct cli_env *env, struct items *it, const struct list_opts *o)
{
	int width = cli_columns();
	/* untopiced kinds first, in the order added */
	for (size_t i = 0; i < it->n; i++) {
		const struct item *p = &it->v[i];
		if (p->kind == IT_TABLE || p->kind == IT_METRIC)
			continue;
		int pos = p->alias ? printf("  %s OR %s", p->name, p->alias) : printf("  %s", p->name);
		printf("%*s[%s]\n", pos < 53 ? 53 - pos : 1, "", p->type_desc);
		if (o->details && p->encoding)
			printf("       [%s]\n", p->encoding);
	}
	if (filter_class(o) < 0 || !strcmp(classes[filter_class(o)][0], "hw")) {
		/* perf shows the raw forms with the hardware class */
		if (!o->filter)
			printf("  %-51s[Raw event descriptor]\n  %-51s[Raw event descriptor]\n"
			       "  %-51s[Hardware breakpoint]\n",
			       "rNNN", "cpu/t1=v1[,t2=v2,t3 ...]/modifier", "mem:<addr>[/len][:access]");
	}
	size_t first = it->n;
	for (size_t i = 0; i < it->n; i++)
		if (it->v[i].kind == IT_TABLE) {
			first = i;
			break;
		}
	size_t last = first;
	while (last < it->n && it->v[last].kind == IT_TABLE)
		last++;
	qsort(it->v + first, last - first, sizeof(*it->v), topic_cmp);
	for (size_t i = first; i < last; i++) {
		const struct item *p = &it->v[i];
		if (i == first || strcmp(p->topic, it->v[i - 1].topic))
			printf("\n%s:\n", p->topic);
		printf("  %s\n", p->name);
		print_desc(p, o, width);
		if (o->details)
			printf("       [%s]\n", p->encoding);
	}
	print_metric_groups(env, it, o, width);
}

static void jstr(json_object *o, const char *k, const char *v)
{
	if (v)
		json_object_object_add(o, k, json_object_new_string(v));
}

/* perf's tracepoint encoding: "tracepoint/config=0xID/", the id from tracefs. */
static char *tracepoint_encoding(const char *name)
{
	const char *root = pk_tracefs__root(NULL), *colon = strchr(name, ':');
	char path[PATH_MAX], *enc = NULL;
	unsigned long long id;
	if (!root || !colon)
		return NULL;
	snprintf(path, sizeof(path), "%s/events/%.*s/%s/id", root, (int)(colon - name), name,
		 colon + 1);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fscanf(f, "%llu", &id) == 1 && asprintf(&enc, "tracepoint/config=0x%llx/", id) < 0)
		enc = NULL;
	fclose(f);
	return enc;
}

/*
 * What perf's list -j says of the events without JSON of their own: the PMU
 * (the core PMU for hardware and cache events, software, tool, tracepoint),
 * a description, a cache event's PMU-qualified alias, a tracepoint's encoding.
 */
static void json_fill(json_object *o, const struct item *p, const char *core_pmu)
{
	char buf[128];
	if (p->kind == IT_SYMBOL) {
		bool hw = p->type_desc && !strcmp(p->type_desc, "Hardware event");
		jstr(o, "pmu", hw ? core_pmu : p->type_desc && !strcmp(p->type_desc, "Tool event") ? "tool" : "software");
		jstr(o, "desc", list_symbol_desc(p->name));
	} else if (p->kind == IT_CACHE) {
		jstr(o, "pmu", core_pmu);
		if (!list_cache_desc(p->name, buf, sizeof(buf)))
			jstr(o, "desc", buf);
		snprintf(buf, sizeof(buf), "%s/%s/", core_pmu, p->name);
		jstr(o, "alias", buf);
	} else if (p->kind == IT_TRACEPOINT) {
		char *enc = tracepoint_encoding(p->name);
		jstr(o, "pmu", "tracepoint");
		jstr(o, "encoding", enc);
		free(enc);
		snprintf(buf, sizeof(buf), "Tracepoint %s", p->name);
		jstr(o, "desc", buf);
	}
}

static int print_json(const struct items *it, const char *core_pmu)
{
	static const char *const types[] = { "symbol", "cache", "sysfs", "tracepoint", "table" };
	json_object *arr = json_object_new_array();
	for (size_t i = 0; arr && i < it->n; i++) {
		const struct item *p = &it->v[i];
		json_object *o = json_object_new_object();
		if (!o)
			break;
		jstr(o, "kind", p->kind == IT_METRIC ? "metric" : "event");
		jstr(o, "name", p->name);
		if (p->kind == IT_METRIC) {
			jstr(o, "expr", p->expr);
			json_object *g = json_object_new_array();
			for (const char *s = p->groups; s && *s;) {
				size_t n = strcspn(s, ";");
				json_object_array_add(g, json_object_new_string_len(s, (int)n));
				s += n + (s[n] == ';');
			}
			json_object_object_add(o, "groups", g);
			jstr(o, "threshold", p->threshold);
		} else {
			jstr(o, "type", p->type_desc ? p->type_desc : types[p->kind]);
			jstr(o, "alias", p->alias);
			jstr(o, "topic", p->topic ? p->topic : p->type_desc);
			jstr(o, "encoding", p->encoding);
			json_object_object_add(o, "deprecated", json_object_new_boolean(p->deprecated));
			json_object_object_add(o, "perpkg", json_object_new_boolean(p->perpkg));
		}
		if (!p->pmu && !p->desc && p->kind != IT_METRIC)
			json_fill(o, p, core_pmu);
		jstr(o, "pmu", p->pmu);
		jstr(o, "desc", p->desc);
		jstr(o, "long_desc", p->long_desc);
		jstr(o, "unit", p->unit);
		jstr(o, "compat", p->compat);
		json_object_array_add(arr, o);
	}
	const char *s = arr ? json_object_to_json_string_ext(
				      arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)
			    : NULL;
	int ret = s ? (puts(s) < 0) : 1;
	json_object_put(arr);
	return ret;
}

/*
 * --cpu-root: the arch whose identifier files the tree holds; without
 * --cpuid, the machine's model comes from its first CPU, as cli_env__open
 * takes this machine's. 0, or 1 with a message.
 */
static int open_cpu_root(struct cli_env *env, struct list_opts *o)
{
	static const char *const arches[] = { "arm64", "x86", "powerpc", "riscv", "s390" };
	char id[128];
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]) && !o->root_arch; i++)
		if (!pk_cpuid__read(arches[i], o->cpu_root, -1, id, sizeof(id)))
			o->root_arch = arches[i];
	if (!o->root_arch) {
		fprintf(stderr, "pmukit list: --cpu-root %s: no CPU identifier found there\n",
			o->cpu_root);
		return 1;
	}
	if (env->cpuid)
		return 0;	/* it names the CPU of every PMU */
	size_t map;
	struct pk_map_entry e;
	env->have_model = !pk_catalog__match_cpuid(env->cat, o->root_arch, id, &map) &&
			  !pk_catalog__map(env->cat, map, &e);
	if (env->have_model)
		env->model = e.model;
	snprintf(env->cpuid_buf, sizeof(env->cpuid_buf), "%s", id);
	env->cpuid_used = env->cpuid_buf;
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	struct cli_env env;
	cli_env__init(&env);
	o.cpu_root = getenv("PMUKIT_CPU_ROOT");
	const struct cli_opt opts[] = {
		CLI_BOOL('j', "json", &o.json, "one JSON array of {kind, name, pmu, topic, desc, "
			 "encoding, ...} and {kind: \"metric\", name, expr, groups, ...}"),
		CLI_BOOL('a', "all", &o.all, "include deprecated events and uncore events whose PMU "
			 "is not present"),
		CLI_BOOL(0, "deprecated", &o.deprecated, "include deprecated events"),
		CLI_BOOL('v', "long-desc", &o.long_desc, "long descriptions"),
		CLI_BOOL('d', "details", &o.details, "show encodings and metric expressions"),
		CLI_ENV_OPTS(&env),
		CLI_STRING(0, "cpu-root", &o.cpu_root, "dir", "the CPUs of the listed machine instead "
			   "of /sys/devices/system/cpu (its cpuN/regs/identification/midr_el1, or "
			   "cpuinfo/sysinfo files): each core PMU's table comes from its CPUs' "
			   "identifier, as on a heterogeneous arm64 machine; --cpuid overrides it for "
			   "every PMU, as perf's PERF_CPUID (env PMUKIT_CPU_ROOT)"),
		CLI_END(),
	};
	int n = cli_opts__parse(argc, argv, opts, "pmukit list [<options>] "
				"[hw|sw|cache|tool|tracepoint|pmu|metric|metricgroup|<glob>]", 0);
	if (n < 0)
		return n == CLI_HELP ? 0 : 129;	/* perf's usage status */
	if (n > 1) {
		fprintf(stderr, "pmukit list: one filter at most, got '%s' and '%s'\n", argv[0],
			argv[1]);
		return 1;
	}
	o.filter = n ? argv[0] : NULL;
	if (o.cpu_root && !*o.cpu_root)
		o.cpu_root = NULL;
	if (cli_env__open(&env, "pmukit list") || (o.cpu_root && open_cpu_root(&env, &o))) {
		cli_env__close(&env);
		return 1;
	}
	struct items it = { 0 };
	struct pk_model md;
	size_t want = 8192 + (env.have_model && !pk_catalog__model(env.cat, env.model, &md)
				      ? md.nr_events + md.nr_metrics : 0);
	it.v = malloc(want * sizeof(*it.v));	/* one allocation for a whole list */
	it.cap = it.v ? want : 0;
	int ret = add_symbols(&it, &o) || add_sysfs(&it, &env, &o) ||
		  add_tracepoints(&it, &env, &o) || list_add_tables(&it, &env, &o);
	if (ret)
		fprintf(stderr, "pmukit list: out of memory\n");
	else if (o.json) {
		const char *core = "cpu";	/* where the tree has no core PMU: x86's name */
		for (size_t i = 0; env.pmus && i < pk_pmu_tree__nr_pmus(env.pmus); i++)
			if (pk_pmu__is_core(pk_pmu_tree__pmu(env.pmus, i))) {
				core = pk_pmu__name(pk_pmu_tree__pmu(env.pmus, i));
				break;
			}
		ret = print_json(&it, core);
	} else {
		print_text(&env, &it, &o);
	}
	for (size_t i = 0; i < it.n; i++)
		for (int k = 0; k < 3; k++)
			free(it.v[i].owned[k]);
	free(it.v);
	cli_env__close(&env);
	return ret ? 1 : 0;
}
