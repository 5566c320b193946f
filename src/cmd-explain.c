/* SPDX-License-Identifier: MIT */
/*
 * cmd-explain.c — `pmukit explain`: the perf_event_attr each event of a spec
 * would be opened with by stat or record, and what it means (table event,
 * group role, counted privilege levels, arm64 exception levels, thresholds,
 * ACR reloads). Works offline: without the CPU's PMU, a synthetic core PMU
 * with the kernel's formats stands in.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <pmukit/explain.h>
#include <pmukit/spec.h>

#include "cli.h"
#include "record.h"
#include "evspec/attr_json.h"

struct explain_opts {
	bool json;
	struct pk_spec_opts spec;
	const char **specs;
	size_t nr_specs;
	bool bad_value;		/* a value refused: exit 1 (a usage error, 129, otherwise) */
};

/* "amd" for AMD models, "hybrid" when the model has cpu_core/cpu_atom events. */
/*
 * The PMU tree to encode against: --sysfs as given; otherwise this machine's,
 * unless it is for another arch or has no core PMU, in which case the
 * missing core PMU is synthesized. Returns true when that happened.
 */
static bool offline_tree(struct cli_env *env)
{
	const char *arch = cli_env__arch(env);
	if (env->sysfs)
		return false;
	if (strcmp(arch, pk_cpuid__host_arch())) {
		pk_pmu_tree__free(env->pmus);
		env->pmus = NULL;
	}
	if (!env->pmus && pk_pmu_tree__new(&env->pmus))
		return false;
	if (pk_pmu_tree__has_core(env->pmus))
		return false;
	return !pk_pmu_tree__add_core(env->pmus, arch, cli_env__core_flavour(env, arch));
}

static const char *role(const struct pk_evlist *el, size_t i)
{
	const struct pk_evsel *e = pk_evlist__evsel(el, i);
	if (e->leader != i)
		return "member";
	return e->nr_members > 1 ? "leader" : "single";
}

static bool is_arm64(struct cli_env *env, const struct pk_evsel *e)
{
	return !strcmp(cli_env__arch(env), "arm64") ||
	       (e->pmu && (!strncmp(e->pmu, "armv8_pmuv3", 11) || !strncmp(e->pmu, "armv9_pmuv3", 11)));
}

/* The evsel's PMU; raw-type events belong to the (first) core PMU. */
static const struct pk_pmu *evsel_pmu(struct cli_env *env, const struct pk_evsel *e)
{
	if (!env->pmus)
		return NULL;
	if (e->pmu)
		return pk_pmu_tree__find(env->pmus, e->pmu);
	for (size_t i = 0; e->attr.type == PERF_TYPE_RAW && i < pk_pmu_tree__nr_pmus(env->pmus); i++)
		if (pk_pmu__is_core(pk_pmu_tree__pmu(env->pmus, i)))
			return pk_pmu_tree__pmu(env->pmus, i);
	return NULL;
}

static json_object *explain_json(struct cli_env *env, const struct pk_evlist *el, size_t i,
				 const char *spec)
{
	const struct pk_evsel *e = pk_evlist__evsel(el, i);
	json_object *o = json_object_new_object(), *attr = NULL;
	char buf[1024];
	json_object_object_add(o, "index", json_object_new_int((int)i));
	json_object_object_add(o, "name", json_object_new_string(e->name ? e->name : ""));
	json_object_object_add(o, "spec",
			       json_object_new_string_len(spec + e->spec_off, (int)e->spec_len));
	if (e->pmu)
		json_object_object_add(o, "pmu", json_object_new_string(e->pmu));
	if (!attr_json__to_object(&e->attr, &attr))
		json_object_object_add(o, "attr", attr);
	json_object *g = json_object_new_object();
	json_object_object_add(g, "role", json_object_new_string(role(el, i)));
	json_object_object_add(g, "leader", json_object_new_int((int)e->leader));
	json_object_object_add(g, "size",
			       json_object_new_int((int)pk_evlist__evsel(el, e->leader)->nr_members));
	json_object_object_add(o, "group", g);
	const struct pk_pmu *pmu = evsel_pmu(env, e);
	struct pk_event rev = { .sz = sizeof(rev) };
	if (e->table_event) {
		json_object_object_add(o, "table_event", json_object_new_string(e->table_event));
		if (e->table_desc)
			json_object_object_add(o, "desc", json_object_new_string(e->table_desc));
	} else if (pmu && env->have_model &&
		   !pk_explain__reverse(env->cat, env->model, pmu, &e->attr, &rev)) {
		/* a raw configuration the tables know by name */
		json_object_object_add(o, "table_event", json_object_new_string(rev.name));
		if (rev.desc)
			json_object_object_add(o, "desc", json_object_new_string(rev.desc));
	}
	struct pk_levels lv;
	pk_explain__levels(&e->attr, &lv);
	json_object *c = json_object_new_object();
	json_object_object_add(c, "user", json_object_new_boolean(lv.user));
	json_object_object_add(c, "kernel", json_object_new_boolean(lv.kernel));
	json_object_object_add(c, "hv", json_object_new_boolean(lv.hv));
	json_object_object_add(c, "host", json_object_new_boolean(lv.host));
	json_object_object_add(c, "guest", json_object_new_boolean(lv.guest));
	json_object_object_add(c, "text",
			       json_object_new_string(pk_explain__levels_text(&lv, buf, sizeof(buf))));
	json_object_object_add(o, "counts", c);
	if (is_arm64(env, e)) {
		static const char *const keys[] = { "vhe_host", "nvhe_host", "guest" };
		json_object *a = json_object_new_object();
		for (int s = 0; s < 3; s++) {
			struct pk_arm64_els els;
			pk_explain__arm64_els(&e->attr, (enum pk_arm64_system)s, &els);
			json_object_object_add(a, keys[s], json_object_new_string(pk_explain__arm64_text(
								   &els, (enum pk_arm64_system)s, buf,
								   sizeof(buf))));
		}
		json_object_object_add(o, "arm64_els", a);
	}
	struct pk_threshold th;
	pk_explain__threshold(pmu, &e->attr, &th);
	if (th.present) {
		json_object *t = json_object_new_object();
		json_object_object_add(t, "value", json_object_new_int64((int64_t)th.value));
		json_object_object_add(t, "compare", json_object_new_int((int)th.compare));
		json_object_object_add(t, "count", json_object_new_boolean(th.count));
		json_object_object_add(t, "text", json_object_new_string(pk_explain__threshold_text(
							  &th, e->table_event ? e->table_event : e->name,
							  buf, sizeof(buf))));
		json_object_object_add(o, "threshold", t);
	}
	if (e->acr_mask) {
		json_object *a = json_object_new_object();
		snprintf(buf, sizeof(buf), "0x%" PRIx64, e->acr_mask);
		json_object_object_add(a, "mask", json_object_new_string(buf));
		json_object_object_add(a, "text",
				       json_object_new_string(pk_explain__acr_text(el, i, buf, sizeof(buf))));
		json_object_object_add(o, "acr", a);
	}
	if (e->tpebs)
		json_object_object_add(o, "tpebs", json_object_new_boolean(true));
	if (e->metric_id)
		json_object_object_add(o, "metric_id", json_object_new_string(e->metric_id));
	return o;
}

/* "IDENTIFIER|TID" for the bit fields perf -vv prints by name. */
static const char *bits_text(const char *key, uint64_t v, char *buf, size_t len)
{
	static const char *const sample[] = { "IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID",
					      "CPU", "PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK",
					      "REGS_USER", "STACK_USER", "WEIGHT", "DATA_SRC",
					      "IDENTIFIER", "TRANSACTION", "REGS_INTR", "PHYS_ADDR",
					      "AUX", "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE",
					      "WEIGHT_STRUCT" };
	static const char *const rf[] = { "TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP",
					  "LOST" };
	const char *const *names = !strcmp(key, "sample_type") ? sample : rf;
	size_t n = !strcmp(key, "sample_type") ? sizeof(sample) / sizeof(sample[0])
					       : sizeof(rf) / sizeof(rf[0]);
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < 64; i++) {
		if (!(v & (1ull << i)))
			continue;
		int w = i < n ? snprintf(buf + used, len - used, "%s%s", used ? "|" : "", names[i])
			      : snprintf(buf + used, len - used, "%s0x%llx", used ? "|" : "",
					 1ull << i);
		if (w > 0 && (size_t)w < len - used)
			used += (size_t)w;
	}
	return buf;
}

/* Text: the same facts, one per line, and the non-zero attr fields as perf -vv shows them. */
static void print_text(json_object *o)
{
	json_object *v;
	printf("%s", json_object_get_string(json_object_object_get(o, "name")));
	if (json_object_object_get_ex(o, "pmu", &v))
		printf("  (pmu %s)", json_object_get_string(v));
	printf("\n");
	static const char *const facts[][2] = {
		{ "table_event", "table event" }, { "desc", "description" }, { "metric_id", "metric id" },
	};
	for (size_t k = 0; k < sizeof(facts) / sizeof(facts[0]); k++)
		if (json_object_object_get_ex(o, facts[k][0], &v))
			printf("  %-13s %s\n", facts[k][1], json_object_get_string(v));
	json_object *g = json_object_object_get(o, "group");
	const char *r = json_object_get_string(json_object_object_get(g, "role"));
	if (strcmp(r, "single"))
		printf("  %-13s %s of the group led by event %d (%d events)\n", "group", r,
		       json_object_get_int(json_object_object_get(g, "leader")),
		       json_object_get_int(json_object_object_get(g, "size")));
	printf("  %-13s %s\n", "counts",
	       json_object_get_string(json_object_object_get(json_object_object_get(o, "counts"), "text")));
	if (json_object_object_get_ex(o, "arm64_els", &v)) {
		printf("  %-13s VHE host   %s\n", "arm64 ELs",
		       json_object_get_string(json_object_object_get(v, "vhe_host")));
		printf("  %-13s non-VHE    %s\n", "",
		       json_object_get_string(json_object_object_get(v, "nvhe_host")));
		printf("  %-13s in a guest %s\n", "",
		       json_object_get_string(json_object_object_get(v, "guest")));
	}
	if (json_object_object_get_ex(o, "threshold", &v))
		printf("  %-13s %s\n", "threshold",
		       json_object_get_string(json_object_object_get(v, "text")));
	if (json_object_object_get_ex(o, "acr", &v))
		printf("  %-13s mask %s: %s\n", "auto reload",
		       json_object_get_string(json_object_object_get(v, "mask")),
		       json_object_get_string(json_object_object_get(v, "text")));
	if (json_object_object_get_ex(o, "tpebs", &v))
		printf("  %-13s retire latency sampled (TPEBS)\n", ":R");
	printf("  perf_event_attr:\n");
	json_object_object_foreach(json_object_object_get(o, "attr"), key, val) {
		const char *s = json_object_get_string(val);
		/* zero fields are left out, but the type always shows (0 is PERF_TYPE_HARDWARE) */
		if ((!strcmp(s, "0") || !strcmp(s, "0x0")) && strcmp(key, "type"))
			continue;
		char names[512];
		if (!strcmp(key, "sample_type") || !strcmp(key, "read_format"))
			s = bits_text(key, (uint64_t)json_object_get_int64(val), names, sizeof(names));
		printf("    %-32s %s\n", key, s);
	}
}

/* -e SPEC, repeatable */
static int opt_event(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct explain_opts *o = opt->value;
	(void)unset;
	o->specs[o->nr_specs++] = arg;
	return 0;
}

static int opt_mode(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct explain_opts *o = opt->value;
	(void)unset;
	if (!strcmp(arg, "stat"))
		o->spec.mode = PK_SPEC_STAT;
	else if (!strcmp(arg, "record"))
		o->spec.mode = PK_SPEC_RECORD;
	else {
		fprintf(stderr, "pmukit explain: --mode must be stat or record, not '%s'\n", arg);
		o->bad_value = true;
		return -1;
	}
	return 0;
}

/* -C, -p, -t: the kind of target their lists would make (the lists themselves are not read) */
static int opt_target(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct explain_opts *o = opt->value;
	(void)arg, (void)unset;
	if (opt->short_name == 'C')
		o->spec.system_wide = true;	/* CPUs: system-wide, as -a */
	else
		o->spec.task_target = true;
	if (opt->short_name == 't')
		o->spec.no_inherit = true;
	return 0;
}

/* The command line into o: 0, -1 (--help printed: exit 0), or the exit status (said). */
static int parse_args(int argc, char **argv, struct explain_opts *o, struct cli_env *env)
{
	struct rec_spec_ctx x = { .spec = &o->spec, .prog = "pmukit explain" };
	const struct cli_opt opts[] = {
		CLI_CALLBACK_F('e', "event", o, "event", "event specification, perf syntax "
			       "(repeatable; a last argument without -e too)", opt_event, CLI_NONEG),
		CLI_CALLBACK_F(0, "mode", o, "stat|record", "that command's defaults (default stat)",
			       opt_mode, CLI_NONEG),
		CLI_BOOL('j', "json", &o->json, "one JSON array, an object per event with \"attr\""),
		CLI_CALLBACK_F('C', "cpu", o, "cpu", "as record -C (system-wide)", opt_target,
			       CLI_NONEG),
		CLI_CALLBACK_F('p', "pid", o, "pid", "as record -p (running tasks)", opt_target,
			       CLI_NONEG),
		CLI_CALLBACK_F('t', "tid", o, "tid", "as record -t (running threads, no inherit)",
			       opt_target, CLI_NONEG),
		CLI_GROUP("As stat's and record's options of those names (-a: system-wide, every "
			  "CPU);\nthe sampling ones for --mode record:"),
		RECORD_SPEC_OPTIONS(&x, 0),
		CLI_GROUP(""),
		CLI_ENV_OPTS(env),
		CLI_END(),
	};
	static const char usage[] = "pmukit explain [<options>] -e <event> [-e <event>]...";
	int n = cli_opts__parse(argc, argv, opts, usage, 0);
	if (n < 0)
		return n == CLI_HELP ? -1 : o->bad_value || x.bad_value ? 1 : 129;
	if (record_opt_period_check(&x))
		return 1;
	for (int i = 0; i < n; i++)	/* a spec may also come last, without -e */
		o->specs[o->nr_specs++] = argv[i];
	if (o->spec.task_target)
		o->spec.workload = false;	/* -p/-t: tasks that run already */
	if (!o->nr_specs) {
		fprintf(stderr, "pmukit explain: no event given (-e SPEC)\n");
		cli_opts__usage(stderr, opts, usage);
		return 1;
	}
	return 0;
}

/* The events of every spec, encoded; starts[s]: spec s's first (nr_specs + 1 of them). */
static struct pk_evlist *build(const struct explain_opts *o, size_t *starts)
{
	struct pk_evlist *el = pk_evlist__new();
	if (!el) {
		fprintf(stderr, "pmukit explain: out of memory\n");
		return NULL;
	}
	for (size_t s = 0; s < o->nr_specs; s++) {
		struct pk_spec_error err = { 0 };
		starts[s] = pk_evlist__nr(el);
		if (pk_evlist__add(el, o->specs[s], &o->spec, &err)) {
			char msg[4096];
			fprintf(stderr, "pmukit explain: invalid event specification\n%s\n",
				pk_spec_error__format(&err, o->specs[s], msg, sizeof(msg)));
			pk_evlist__free(el);
			return NULL;
		}
	}
	starts[o->nr_specs] = pk_evlist__nr(el);
	return el;
}

static void print(struct cli_env *env, const struct explain_opts *o, const struct pk_evlist *el,
		  const size_t *starts, bool offline)
{
	json_object *arr = json_object_new_array();
	for (size_t s = 0, i = 0; s < o->nr_specs; s++)
		for (; i < starts[s + 1]; i++)
			json_object_array_add(arr, explain_json(env, el, i, o->specs[s]));
	if (o->json) {
		puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_SPACED |
							 JSON_C_TO_STRING_NOSLASHESCAPE));
	} else {
		if (offline)
			printf("# offline: no %s core PMU here; using the kernel's usual formats and "
			       "type numbers\n", cli_env__arch(env));
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			if (i)
				printf("\n");
			printf("event %zu: ", i);
			print_text(json_object_array_get_idx(arr, i));
		}
	}
	json_object_put(arr);
}

int cmd_explain(int argc, char **argv)
{
	struct explain_opts o = { .spec = { .sz = sizeof(o.spec), .mode = PK_SPEC_STAT,
					    .workload = true } };
	struct cli_env env;
	struct pk_evlist *el = NULL;
	size_t *starts = NULL;
	int ret = 1;
	cli_env__init(&env);
	o.specs = calloc((size_t)argc + 1, sizeof(*o.specs));
	if (!o.specs)
		return 1;
	int prc = parse_args(argc, argv, &o, &env);
	if (prc) {
		ret = prc < 0 ? 0 : prc;
		goto out;
	}
	if (cli_env__open(&env, "pmukit explain"))
		goto out;
	bool offline = offline_tree(&env);
	o.spec.cat = env.cat;
	o.spec.model = env.have_model ? env.model : PK_NO_MODEL;
	o.spec.pmus = env.pmus;
	starts = calloc(o.nr_specs + 1, sizeof(*starts));
	if (!starts) {
		fprintf(stderr, "pmukit explain: out of memory\n");
		goto out;
	}
	if (!(el = build(&o, starts)))
		goto out;
	print(&env, &o, el, starts, offline);
	ret = 0;
out:
	free(starts);
	pk_evlist__free(el);
	free(o.specs);
	cli_env__close(&env);
	return ret;
}
