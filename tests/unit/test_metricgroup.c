/* SPDX-License-Identifier: MIT */
/*
 * test_metricgroup.c — pmukit/metricgroup.h, perf stat's -M and --topdown:
 *
 * - on a catalog this test writes (its metrics shaped for each rule): the
 *   items a list selects (names, groups, "all", "No_group", case, dedup,
 *   modifiers), errors with offsets and hints, perf's order (events needed,
 *   then reverse selection; "Default" by group and name), grouping
 *   (MetricgroupNoGroup, the three MetricConstraints, --metric-no-group),
 *   sharing (the ungrouped set, subset groups, --metric-no-merge), tool
 *   events left to the caller, msr@tsc@ -> msr/tsc/, TopDown events forced
 *   into a group led by slots on a perf-metrics PMU; the exact spec strings
 *   follow from those rules and are written out by hand below;
 * - the spec encoded by pk_evlist__add on the fixture PMU trees, every evsel
 *   mapped back to its event; values through the slots (summed evsels,
 *   source_count) and by printed name, ScaleUnit, thresholds, errors;
 * - --topdown: levels, the -M list, why it cannot run (no tables, no core
 *   PMU, missing topdown events);
 * - the real tables: hybrid prefixes (alderlake), sys metrics (CMN on
 *   arm64), TopDown levels 1 and 2 from synthetic counts for Ice Lake
 *   (PERF_METRICS level 1, JSON level 2), Sapphire Rapids (PERF_METRICS
 *   levels 1 and 2, topdown.txt's subtractions) and Skylake (JSON TMA), the
 *   expected percentages computed here from the formulas; and every metric
 *   and metric group of seven models encoded on the matching fixture tree.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/pmukit.h>

/* --- helpers ------------------------------------------------------------------------------- */

static const char *src_dir(void)
{
	return getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".";
}

static void mkfile(const char *root, const char *rel, const char *content)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f)
		fail_msg("cannot write %s", path);
	fputs(content, f);
	fclose(f);
}

static void rm_rf(const char *dir)
{
	char cmd[1100];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fail_msg("%s failed", cmd);
}

static struct pk_pmu_tree *open_fixture_tree(const char *name)
{
	char path[1024];
	struct pk_pmu_tree *t;
	struct pk_error err;
	snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs/%s", src_dir(), name);
	if (pk_pmu_tree__open(&t, path, &err))
		fail_msg("cannot open %s: %s", path, err.msg);
	return t;
}

/* Machine facts for the tests: SMT on (or off), core-wide counting, one package. */
struct facts {
	double smt;
};

static int facts_fn(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	const struct facts *f = ctx;
	if (id->kind != PK_MEXPR_ID_LITERAL)
		return -ENOENT;
	switch (id->literal) {
	case PK_MEXPR_LIT_SMT_ON:
		*v = f->smt;
		return 0;
	case PK_MEXPR_LIT_CORE_WIDE:
		*v = 1;
		return 0;
	case PK_MEXPR_LIT_SYSTEM_TSC_FREQ:
		*v = 2e9;
		return 0;
	default:
		return -ENOENT;	/* #num_packages and the rest: unknown */
	}
}

static struct facts smt_on = { 1 }, smt_off = { 0 };

static struct pk_metricgroup_opts opts_with(const struct pk_pmu_tree *t, struct facts *f)
{
	return (struct pk_metricgroup_opts){ .sz = sizeof(struct pk_metricgroup_opts), .pmus = t,
					     .consts = facts_fn, .consts_ctx = f };
}

static struct pk_metricgroup *mg_new(struct pk_catalog *cat, size_t model, const char *list,
				     const struct pk_metricgroup_opts *o)
{
	struct pk_metricgroup *mg;
	struct pk_spec_error err;
	char buf[2048];
	if (pk_metricgroup__new(&mg, cat, model, list, o, &err))
		fail_msg("-M %s refused:\n%s", list, pk_spec_error__format(&err, list, buf, sizeof(buf)));
	return mg;
}

static const char *spec_of(struct pk_catalog *cat, size_t model, const char *list,
			   const struct pk_metricgroup_opts *o, char *buf, size_t len)
{
	struct pk_metricgroup *mg = mg_new(cat, model, list, o);
	snprintf(buf, len, "%s", pk_metricgroup__spec(mg));
	pk_metricgroup__free(mg);
	return buf;
}

#define SPEC_IS(cat, model, list, o, want)                                                   \
	do {                                                                                 \
		char b_[4096];                                                               \
		const char *got_ = spec_of(cat, model, list, o, b_, sizeof(b_));             \
		if (strcmp(got_, want))                                                      \
			fail_msg("-M %s:\n got  %s\n want %s", list, got_, want);              \
	} while (0)

static long metric_named(const struct pk_metricgroup *mg, const char *name)
{
	for (size_t i = 0; i < pk_metricgroup__nr_metrics(mg); i++)
		if (!strcmp(pk_metricgroup__metric(mg, i)->name, name))
			return (long)i;
	return -1;
}

/* --- the test's own catalog ---------------------------------------------------------------- */

static char fx_dir[64];
static struct pk_catalog *fx_cat;
static size_t fx_model;
static struct pk_pmu_tree *icl, *skl;

static const char fx_events[] =
	"[\n"
	" {\"EventName\": \"INST_RETIRED.ANY\", \"EventCode\": \"0xc0\", \"BriefDescription\": \"i\"},\n"
	" {\"EventName\": \"CPU_CLK_UNHALTED.THREAD\", \"EventCode\": \"0x3c\", \"BriefDescription\": \"c\"},\n"
	" {\"EventName\": \"CPU_CLK_UNHALTED.THREAD_P_ANY\", \"EventCode\": \"0x3c\", \"UMask\": \"0x2\","
	"  \"BriefDescription\": \"c\"},\n"
	" {\"EventName\": \"BR_INST_RETIRED.ALL_BRANCHES\", \"EventCode\": \"0xc4\", \"BriefDescription\": \"b\"},\n"
	" {\"EventName\": \"BR_MISP_RETIRED.ALL_BRANCHES\", \"EventCode\": \"0xc5\", \"BriefDescription\": \"m\"},\n"
	" {\"EventName\": \"TOPDOWN.SLOTS\", \"EventCode\": \"0x00\", \"UMask\": \"0x4\", \"BriefDescription\": \"s\"},\n"
	" {\"EventName\": \"INT_MISC.CLEARS_COUNT\", \"EventCode\": \"0x0d\", \"UMask\": \"0x1\","
	"  \"BriefDescription\": \"x\"},\n"
	" {\"EventName\": \"MEM_BW.LINES\", \"EventCode\": \"0x10\", \"UMask\": \"0x1\","
	"  \"ScaleUnit\": \"64Bytes\", \"BriefDescription\": \"l\"},\n"
	" {\"EventName\": \"UNC_CHA_CLOCKTICKS\", \"EventCode\": \"0x0\", \"Unit\": \"CHA\","
	"  \"PerPkg\": \"1\", \"BriefDescription\": \"u\"}\n"
	"]\n";

#define TD_SUM "(topdown\\\\-fe\\\\-bound + topdown\\\\-bad\\\\-spec + topdown\\\\-retiring + topdown\\\\-be\\\\-bound)"

static const char fx_metrics[] =
	"[\n"
	" {\"MetricName\": \"ipc\", \"MetricExpr\": \"INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD\","
	"  \"MetricGroup\": \"Summary;Ret\", \"MetricThreshold\": \"ipc < 1\"},\n"
	" {\"MetricName\": \"cpi\", \"MetricExpr\": \"1 / ipc\", \"MetricGroup\": \"Summary\"},\n"
	" {\"MetricName\": \"br_ratio\", \"MetricExpr\": \"BR_MISP_RETIRED.ALL_BRANCHES / "
	"BR_INST_RETIRED.ALL_BRANCHES\", \"MetricGroup\": \"Branches\", \"MetricConstraint\": "
	"\"NO_GROUP_EVENTS\", \"ScaleUnit\": \"100%\", \"MetricThreshold\": \"br_ratio > 0.01\"},\n"
	" {\"MetricName\": \"br_mpki\", \"MetricExpr\": \"1e3 * BR_MISP_RETIRED.ALL_BRANCHES / "
	"INST_RETIRED.ANY\", \"MetricGroup\": \"Branches\", \"MetricgroupNoGroup\": \"Branches\"},\n"
	" {\"MetricName\": \"clk_rate\", \"MetricExpr\": \"CPU_CLK_UNHALTED.THREAD / duration_time\","
	"  \"MetricGroup\": \"Clocks\", \"MetricConstraint\": \"NO_GROUP_EVENTS_NMI\"},\n"
	" {\"MetricName\": \"smt_clks\", \"MetricExpr\": \"(CPU_CLK_UNHALTED.THREAD_P_ANY / 2 if #SMT_on "
	"else CPU_CLK_UNHALTED.THREAD)\", \"MetricGroup\": \"Clocks\", \"MetricConstraint\": "
	"\"NO_GROUP_EVENTS_SMT\"},\n"
	" {\"MetricName\": \"tsc_ghz\", \"MetricExpr\": \"msr@tsc@ / 1e9 / duration_time\","
	"  \"MetricGroup\": \"Clocks\", \"ScaleUnit\": \"1GHz\"},\n"
	" {\"MetricName\": \"td_retiring\", \"MetricExpr\": \"topdown\\\\-retiring / " TD_SUM
	" + 0 * TOPDOWN.SLOTS\", \"MetricGroup\": \"TopdownL1;Default\", \"MetricgroupNoGroup\": "
	"\"TopdownL1;Default\", \"DefaultMetricgroupName\": \"TopdownL1\", \"ScaleUnit\": \"100%\","
	"  \"MetricThreshold\": \"td_retiring > 0.7\"},\n"
	" {\"MetricName\": \"td_backend\", \"MetricExpr\": \"topdown\\\\-be\\\\-bound / " TD_SUM
	" + 5 * INT_MISC.CLEARS_COUNT / TOPDOWN.SLOTS\", \"MetricGroup\": \"TopdownL1;Default\","
	"  \"MetricgroupNoGroup\": \"TopdownL1;Default\", \"DefaultMetricgroupName\": \"TopdownL1\","
	"  \"ScaleUnit\": \"100%\", \"MetricThreshold\": \"td_backend > 0.2\"},\n"
	" {\"MetricName\": \"aaa_default\", \"MetricExpr\": \"INST_RETIRED.ANY\", \"MetricGroup\": "
	"\"Default\", \"DefaultMetricgroupName\": \"Summary\"},\n"
	" {\"MetricName\": \"cha_per_unit\", \"MetricExpr\": \"UNC_CHA_CLOCKTICKS / "
	"source_count(UNC_CHA_CLOCKTICKS)\", \"MetricGroup\": \"Uncore\"},\n"
	" {\"MetricName\": \"mem_gbs\", \"MetricExpr\": \"MEM_BW.LINES * 64 / 1e9 / duration_time\","
	"  \"MetricGroup\": \"Memory\", \"ScaleUnit\": \"1GB/s\"},\n"
	" {\"MetricName\": \"lonely\", \"MetricExpr\": \"INST_RETIRED.ANY\"},\n"
	" {\"MetricName\": \"legacy_ipc\", \"MetricExpr\": \"instructions / cycles\", \"MetricGroup\": \"Legacy\"},\n"
	" {\"MetricName\": \"modzero\", \"MetricExpr\": \"INST_RETIRED.ANY % (CPU_CLK_UNHALTED.THREAD - "
	"CPU_CLK_UNHALTED.THREAD)\", \"MetricGroup\": \"Odd\"},\n"
	" {\"MetricName\": \"needs_lit\", \"MetricExpr\": \"INST_RETIRED.ANY * #num_packages\","
	"  \"MetricGroup\": \"Odd\"},\n"
	" {\"MetricName\": \"consts_only\", \"MetricExpr\": \"2 * #SMT_on\", \"MetricGroup\": \"Odd\"}\n"
	"]\n";

static int setup(void **state)
{
	(void)state;
	char path[256];
	struct pk_error err = { 0 };
	strcpy(fx_dir, "/tmp/pk_mg_XXXXXX");
	if (!mkdtemp(fx_dir))
		return -1;
	snprintf(path, sizeof(path), "%s/arch", fx_dir);
	mkfile(path, "x86/mapfile.csv", "Family-model,Version,Filename,EventType\nGenuineIntel-6-99,v1,mg,core\n");
	mkfile(path, "x86/mg/pipeline.json", fx_events);
	mkfile(path, "x86/mg/metrics.json", fx_metrics);
	if (pk_catalog__open_dir(&fx_cat, path, NULL, &err)) {
		print_message("open_dir: %s\n", err.msg);
		return -1;
	}
	if (pk_catalog__find_model(fx_cat, "mg", &fx_model))
		return -1;
	icl = open_fixture_tree("x86-icl");
	skl = open_fixture_tree("x86-skl");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pk_catalog__free(fx_cat);
	pk_pmu_tree__free(icl);
	pk_pmu_tree__free(skl);
	rm_rf(fx_dir);
	return 0;
}

/* --- selection ---------------------------------------------------------------------------- */

static void names_are(const struct pk_metricgroup *mg, const char *want)
{
	char got[1024] = "";
	for (size_t i = 0; i < pk_metricgroup__nr_metrics(mg); i++) {
		strcat(got, i ? " " : "");
		strcat(got, pk_metricgroup__metric(mg, i)->name);
	}
	if (strcmp(got, want))
		fail_msg("metrics '%s', want '%s'", got, want);
}

static void test_select(void **state)
{
	(void)state;
	struct pk_metricgroup_opts o = opts_with(icl, &smt_on);
	struct pk_metricgroup *mg;

	/* a group selects its metrics; perf's order: most events first, ties latest first */
	mg = mg_new(fx_cat, fx_model, "Summary", &o);
	names_are(mg, "ipc cpi");	/* the table's order is by name: cpi, ipc */
	pk_metricgroup__free(mg);
	/* names and groups ignore case; a metric selected twice is kept once, at its first item */
	mg = mg_new(fx_cat, fx_model, "IPC,summary", &o);
	names_are(mg, "cpi ipc");
	assert_int_equal(pk_metricgroup__metric(mg, (size_t)metric_named(mg, "ipc"))->item, 0);
	assert_int_equal(pk_metricgroup__metric(mg, (size_t)metric_named(mg, "cpi"))->item, 1);
	pk_metricgroup__free(mg);
	/* "No_group": the metrics without MetricGroup; "all": every metric */
	mg = mg_new(fx_cat, fx_model, "No_group", &o);
	names_are(mg, "lonely");
	pk_metricgroup__free(mg);
	mg = mg_new(fx_cat, fx_model, "all", &o);
	struct pk_model md;
	pk_catalog__model(fx_cat, fx_model, &md);
	assert_int_equal(pk_metricgroup__nr_metrics(mg), md.nr_metrics);
	pk_metricgroup__free(mg);
	/* the Default group: by DefaultMetricgroupName, then name (not by event count) */
	mg = mg_new(fx_cat, fx_model, "Default", &o);
	names_are(mg, "aaa_default td_backend td_retiring");
	assert_string_equal(pk_metricgroup__metric(mg, 1)->default_group, "TopdownL1");
	pk_metricgroup__free(mg);
	mg = mg_new(fx_cat, fx_model, "aaa_default,TopdownL1", &o);
	names_are(mg, "td_backend td_retiring aaa_default");
	pk_metricgroup__free(mg);
	/* modifiers make another metric */
	mg = mg_new(fx_cat, fx_model, "ipc:u,ipc", &o);
	names_are(mg, "ipc ipc:u");
	const struct pk_metricgroup_metric *m = pk_metricgroup__metric(mg, 1);
	assert_string_equal(m->metric, "ipc");
	assert_string_equal(m->modifier, "u");
	assert_string_equal(m->threshold, "ipc < 1");
	pk_metricgroup__free(mg);
	/* a metric of constants only needs no event */
	mg = mg_new(fx_cat, fx_model, "consts_only", &o);
	assert_string_equal(pk_metricgroup__spec(mg), "");
	assert_int_equal(pk_metricgroup__nr_events(mg), 0);
	pk_metricgroup__free(mg);
}

static void refused(const char *list, int code, unsigned off, unsigned len, const char *msg,
		    const char *hint)
{
	struct pk_metricgroup_opts o = opts_with(icl, &smt_on);
	struct pk_metricgroup *mg = (void *)1;
	struct pk_spec_error err;
	char buf[1024];
	int rc = pk_metricgroup__new(&mg, fx_cat, fx_model, list, &o, &err);
	if (rc != code || mg || err.off != off || err.len != len || !strstr(err.msg, msg) ||
	    strcmp(err.hint, hint))
		fail_msg("-M %s: rc %d off %u len %u '%s' hint '%s'", list, rc, err.off, err.len,
			 err.msg, err.hint);
	pk_spec_error__format(&err, list, buf, sizeof(buf));
	assert_non_null(strstr(buf, msg));
}

static void test_errors(void **state)
{
	(void)state;
	refused("ipc,brnaches", -EINVAL, 4, 8, "no metric or metric group 'brnaches'",
		"did you mean 'Branches'?");
	refused("Summary,td_retirin:u", -EINVAL, 8, 10, "'td_retirin'", "did you mean 'td_retiring'?");
	/* a word of a name ("ipc" of ...) beats a one-letter typo of another */
	refused("clk", -EINVAL, 0, 3, "'clk'", "did you mean 'clk_rate'?");
	refused("zzzzzzzzzzzz", -EINVAL, 0, 12, "'zzzzzzzzzzzz'", "");
	refused("ipc,,cpi", -EINVAL, 4, 1, "empty metric name", "");
	refused("ipc,", -EINVAL, 4, 1, "empty metric name", "");
	refused("ipc:", -EINVAL, 3, 1, "no modifier", "");
	refused("", -EINVAL, 0, 1, "empty metric name", "");
	/* no tables at all */
	struct pk_metricgroup *mg;
	struct pk_spec_error err;
	assert_int_equal(pk_metricgroup__new(&mg, fx_cat, PK_NO_MODEL, "ipc", NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no metric tables"));
}

/* --- scheduling ----------------------------------------------------------------------------- */

static void test_grouping(void **state)
{
	(void)state;
	struct pk_metricgroup_opts o = opts_with(icl, &smt_on);
	/* cpi's group holds ipc's events: ipc reads it */
	SPEC_IS(fx_cat, fx_model, "Summary", &o, "{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD}:W");
	/* NO_GROUP_EVENTS, and MetricgroupNoGroup for the group named: one shared ungrouped set */
	SPEC_IS(fx_cat, fx_model, "Branches", &o,
		"BR_MISP_RETIRED.ALL_BRANCHES,BR_INST_RETIRED.ALL_BRANCHES,INST_RETIRED.ANY");
	/* MetricgroupNoGroup only applies when that group is named */
	SPEC_IS(fx_cat, fx_model, "br_mpki", &o, "{BR_MISP_RETIRED.ALL_BRANCHES,INST_RETIRED.ANY}:W");
	/* modifiers: their own group, the modifier on every event, msr@tsc@ as msr/tsc/ */
	SPEC_IS(fx_cat, fx_model, "ipc:u,ipc", &o,
		"{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD}:W,"
		"{INST_RETIRED.ANY:u,CPU_CLK_UNHALTED.THREAD:u}:W");
	SPEC_IS(fx_cat, fx_model, "tsc_ghz:k", &o, "{msr/tsc/k}:W");
	/* SMT on: NO_GROUP_EVENTS_SMT ungrouped, its live branch only; NMI watchdog on too */
	o.nmi_watchdog = true;
	SPEC_IS(fx_cat, fx_model, "Clocks", &o,
		"CPU_CLK_UNHALTED.THREAD_P_ANY,CPU_CLK_UNHALTED.THREAD,{msr/tsc/}:W");
	struct pk_metricgroup *mg = mg_new(fx_cat, fx_model, "Clocks", &o);
	names_are(mg, "tsc_ghz smt_clks clk_rate");
	const struct pk_metricgroup_metric *clk = pk_metricgroup__metric(mg, 2);
	assert_false(clk->grouped);
	assert_true(clk->nmi_ungrouped);
	assert_false(pk_metricgroup__metric(mg, 1)->nmi_ungrouped);
	/* duration_time: one tool event, after the spec's events, for both metrics */
	assert_int_equal(pk_metricgroup__nr_events(mg), 4);
	const struct pk_metricgroup_event *dt = pk_metricgroup__event(mg, 3);
	assert_true(dt->tool);
	assert_string_equal(dt->id, "duration_time");
	assert_null(dt->spec);
	assert_int_equal(dt->nr_metrics, 2);
	assert_int_equal(clk->nr_events, 2);
	assert_int_equal(clk->events[1], 3);
	pk_metricgroup__free(mg);
	/* SMT off, watchdog off: everything grouped; clk_rate reads smt_clks' group */
	o = opts_with(icl, &smt_off);
	SPEC_IS(fx_cat, fx_model, "Clocks", &o, "{msr/tsc/}:W,{CPU_CLK_UNHALTED.THREAD}:W");
	/* --metric-no-group, --metric-no-merge */
	o.no_group = true;
	SPEC_IS(fx_cat, fx_model, "Summary", &o, "INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD");
	o.no_group = false;
	o.no_merge = true;
	SPEC_IS(fx_cat, fx_model, "Summary", &o,
		"{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD}:W,{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD}:W");
	SPEC_IS(fx_cat, fx_model, "Branches", &o,
		"BR_MISP_RETIRED.ALL_BRANCHES,BR_INST_RETIRED.ALL_BRANCHES,"
		"BR_MISP_RETIRED.ALL_BRANCHES,INST_RETIRED.ANY");
	/* --metric-no-threshold: the threshold's events are not opened */
	o = opts_with(icl, &smt_on);
	SPEC_IS(fx_cat, fx_model, "br_ratio,cpi", &o,
		"BR_MISP_RETIRED.ALL_BRANCHES,BR_INST_RETIRED.ALL_BRANCHES,"
		"{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD}:W");
}

static void test_topdown_groups(void **state)
{
	(void)state;
	struct pk_metricgroup_opts o = opts_with(icl, &smt_on);
	/* ungrouped (MetricgroupNoGroup TopdownL1): the TopDown events still form a group, slots first */
	SPEC_IS(fx_cat, fx_model, "TopdownL1", &o,
		"{TOPDOWN.SLOTS,topdown-be-bound,topdown-fe-bound,topdown-bad-spec,topdown-retiring},"
		"INT_MISC.CLEARS_COUNT");
	SPEC_IS(fx_cat, fx_model, "td_retiring", &o,
		"{TOPDOWN.SLOTS,topdown-retiring,topdown-fe-bound,topdown-bad-spec,topdown-be-bound}:W");
	SPEC_IS(fx_cat, fx_model, "ipc,TopdownL1", &o,
		"{TOPDOWN.SLOTS,topdown-be-bound,topdown-fe-bound,topdown-bad-spec,topdown-retiring},"
		"INT_MISC.CLEARS_COUNT,{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD}:W");
	/* without a tree the topdown-* events say it; a tree without perf metrics says not */
	struct pk_metricgroup_opts none = opts_with(NULL, &smt_on);
	SPEC_IS(fx_cat, fx_model, "TopdownL1", &none,
		"{TOPDOWN.SLOTS,topdown-be-bound,topdown-fe-bound,topdown-bad-spec,topdown-retiring},"
		"INT_MISC.CLEARS_COUNT");
	struct pk_metricgroup_opts so = opts_with(skl, &smt_on);
	SPEC_IS(fx_cat, fx_model, "TopdownL1", &so,
		"topdown-be-bound,topdown-fe-bound,topdown-bad-spec,topdown-retiring,"
		"INT_MISC.CLEARS_COUNT,TOPDOWN.SLOTS");

	/* the kernel's rule holds: pk_evlist__add takes it, slots leading the TopDown group */
	struct pk_metricgroup *mg = mg_new(fx_cat, fx_model, "ipc,TopdownL1", &o);
	struct pk_spec_opts sp = { .sz = sizeof(sp), .cat = fx_cat, .model = fx_model, .pmus = icl,
				   .workload = true };
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error se;
	assert_int_equal(pk_evlist__add(el, pk_metricgroup__spec(mg), &sp, &se), 0);
	const struct pk_evsel *lead = pk_evlist__evsel(el, 0);
	assert_int_equal(lead->attr.config, 0x400);
	assert_int_equal(lead->nr_members, 5);
	pk_evlist__free(el);
	pk_metricgroup__free(mg);
}

/* --- spec, evsels and values ------------------------------------------------------------------- */

struct live {
	struct pk_metricgroup *mg;
	double by_event[64];
	unsigned sources[64];
	unsigned calls;
};

static double count_of(const char *id)
{
	static const struct {
		const char *id;
		double v;
	} counts[] = {
		{ "INST_RETIRED.ANY", 3000 },	     { "CPU_CLK_UNHALTED.THREAD", 1000 },
		{ "CPU_CLK_UNHALTED.THREAD_P_ANY", 1800 }, { "BR_INST_RETIRED.ALL_BRANCHES", 1000 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 50 }, { "msr@tsc@", 4e9 },
		{ "UNC_CHA_CLOCKTICKS", 300 },	     { "MEM_BW.LINES", 1e6 },
		{ "duration_time", 2.0 },
	};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (!strcmp(counts[i].id, id))
			return counts[i].v;
	return NAN;
}

static int live_fn(void *ctx, size_t idx, double *value, unsigned *sources)
{
	struct live *l = ctx;
	l->calls++;
	assert_true(idx < pk_metricgroup__nr_events(l->mg));
	assert_int_equal(*sources, 1);
	*value = l->by_event[idx];
	*sources = l->sources[idx];
	return isnan(*value) && !l->sources[idx] ? -ENOENT : 0;
}

static void test_live(void **state)
{
	(void)state;
	struct pk_metricgroup_opts o = opts_with(icl, &smt_on);
	const char *list = "ipc,br_ratio,Clocks,cha_per_unit,mem_gbs,Odd,ipc:u";
	struct live l = { .mg = mg_new(fx_cat, fx_model, list, &o) };
	struct pk_metricgroup *mg = l.mg;
	const char *spec = pk_metricgroup__spec(mg);

	/* encode; each evsel comes from one event; an event's evsels add up (2 CHA units) */
	struct pk_spec_opts sp = { .sz = sizeof(sp), .cat = fx_cat, .model = fx_model, .pmus = icl,
				   .workload = true };
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error se;
	char buf[2048];
	size_t first = pk_evlist__nr(el);
	if (pk_evlist__add(el, spec, &sp, &se))
		fail_msg("%s", pk_spec_error__format(&se, spec, buf, sizeof(buf)));
	size_t ne = pk_metricgroup__nr_events(mg);
	assert_true(ne < 64);
	for (size_t i = first; i < pk_evlist__nr(el); i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		long k = pk_metricgroup__event_at(mg, e->spec_off);
		assert_true(k >= 0);
		const struct pk_metricgroup_event *pe = pk_metricgroup__event(mg, (size_t)k);
		assert_false(pe->tool);
		assert_int_equal(pe->spec_off, e->spec_off);
		assert_true(!strncmp(spec + pe->spec_off, pe->spec, pe->spec_len));
		assert_string_equal(e->name, pe->spec);
		double v = count_of(pe->id);
		l.by_event[k] = (isnan(v) ? 0 : v) + (l.sources[k] ? l.by_event[k] : 0);
		l.sources[k]++;
	}
	for (size_t k = 0; k < ne; k++) {
		const struct pk_metricgroup_event *pe = pk_metricgroup__event(mg, k);
		if (pe->tool) {
			l.by_event[k] = count_of(pe->id);
			l.sources[k] = 1;
		}
		assert_true(l.sources[k] > 0);	/* every event became an evsel or is a tool event */
		assert_true(pe->nr_metrics > 0);
	}
	assert_int_equal(pk_metricgroup__event_at(mg, (unsigned)strlen(spec) + 5), -ENOENT);
	pk_evlist__free(el);

	size_t nm = pk_metricgroup__nr_metrics(mg);
	struct pk_metricgroup_value v[32];
	assert_true(nm < 32);
	assert_int_equal(pk_metricgroup__eval(mg, live_fn, &l, v), 0);
	assert_true(l.calls > 0);
#define VAL(name) (&v[metric_named(mg, name)])
	assert_true(VAL("ipc")->value == 3.0);
	assert_int_equal(VAL("ipc")->threshold, 0);		/* ipc < 1 */
	assert_true(VAL("ipc:u")->value == 3.0);
	assert_true(fabs(VAL("br_ratio")->value - 0.05) < 1e-15);
	assert_true(fabs(VAL("br_ratio")->scaled - 5.0) < 1e-12);
	assert_string_equal(VAL("br_ratio")->unit, "%");
	assert_int_equal(VAL("br_ratio")->threshold, 1);	/* 0.05 > 0.01 */
	assert_true(VAL("clk_rate")->value == 1000 / 2.0);	/* duration_time in seconds */
	assert_int_equal(VAL("clk_rate")->threshold, -1);
	assert_true(VAL("smt_clks")->value == 1800 / 2.0);	/* #SMT_on: the _ANY branch */
	assert_true(fabs(VAL("tsc_ghz")->value - 2.0) < 1e-12);
	assert_string_equal(VAL("tsc_ghz")->unit, "GHz");
	assert_true(VAL("cha_per_unit")->value == 600 / 2.0);	/* source_count: 2 CHA units */
	assert_true(fabs(VAL("mem_gbs")->value - 1e6 * 64 / 1e9 / 2) < 1e-15);
	assert_int_equal(VAL("modzero")->error, -EDOM);
	assert_true(isnan(VAL("modzero")->value));
	assert_int_equal(VAL("needs_lit")->error, -ENOENT);	/* #num_packages unknown */
	assert_true(VAL("consts_only")->value == 2);

	/* <not supported>: NaN through the metric, no threshold colour */
	long br = -1;
	for (size_t k = 0; k < ne; k++)
		if (!strcmp(pk_metricgroup__event(mg, k)->id, "BR_MISP_RETIRED.ALL_BRANCHES"))
			br = (long)k;
	if (br < 0)
		fail_msg("BR_MISP_RETIRED.ALL_BRANCHES is not among the events");
	l.by_event[br] = NAN;
	assert_int_equal(pk_metricgroup__eval(mg, live_fn, &l, v), 0);
	assert_true(isnan(VAL("br_ratio")->value));
	assert_int_equal(VAL("br_ratio")->threshold, -1);
	assert_int_equal(VAL("br_ratio")->error, 0);
	assert_true(VAL("ipc")->value == 3.0);
#undef VAL
	pk_metricgroup__free(mg);
}

static int failing_fn(void *ctx, size_t idx, double *value, unsigned *sources)
{
	(void)ctx;
	(void)idx;
	(void)value;
	(void)sources;
	return -EIO;
}

static void test_named(void **state)
{
	(void)state;
	struct pk_metricgroup_opts o = opts_with(icl, &smt_on);
	struct pk_metricgroup *mg =
		mg_new(fx_cat, fx_model, "ipc:u,ipc,td_retiring,tsc_ghz,cha_per_unit,legacy_ipc", &o);
	/* which printed names each event answers to */
	static const struct {
		const char *id, *mods, *name;
		bool match;
	} cases[] = {
		{ "INST_RETIRED.ANY", "", "INST_RETIRED.ANY", true },
		{ "INST_RETIRED.ANY", "", "inst_retired.any", true },
		{ "INST_RETIRED.ANY", "", "cpu/INST_RETIRED.ANY/", true },
		{ "INST_RETIRED.ANY", "", "INST_RETIRED.ANY:u", false },
		{ "INST_RETIRED.ANY", "", "INST_RETIRED.ANYX", false },
		{ "INST_RETIRED.ANY", "u", "INST_RETIRED.ANY:u", true },
		{ "INST_RETIRED.ANY", "u", "cpu/INST_RETIRED.ANY/u", true },
		{ "INST_RETIRED.ANY", "u", "INST_RETIRED.ANY", false },
		{ "INST_RETIRED.ANY", "u", "INST_RETIRED.ANY:k", false },
		{ "TOPDOWN.SLOTS", "", "slots", true },
		{ "TOPDOWN.SLOTS", "", "cpu/slots/", true },
		{ "TOPDOWN.SLOTS", "", "TOPDOWN.SLOTS", true },
		{ "topdown-retiring", "", "topdown-retiring", true },
		{ "topdown-retiring", "", "topdown-be-bound", false },
		{ "msr@tsc@", "", "msr/tsc/", true },
		{ "msr@tsc@", "", "tsc", true },
		{ "msr@tsc@", "", "cpu/tsc/", false },
		{ "UNC_CHA_CLOCKTICKS", "", "uncore_cha_1/UNC_CHA_CLOCKTICKS/", true },
		{ "duration_time", "", "duration_time", true },
		{ "duration_time", "", "user_time", false },
		{ "cycles", "", "cpu-cycles", true },	/* perf's symbol aliases */
		{ "cycles", "", "cpu/cycles/", true },
		{ "cycles", "", "cycles:u", false },
		{ "cycles", "", "ref-cycles", false },
		{ "instructions", "", "instructions", true },
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		long found = -1;
		for (size_t k = 0; k < pk_metricgroup__nr_events(mg); k++) {
			const struct pk_metricgroup_event *e = pk_metricgroup__event(mg, k);
			bool u = e->spec && strstr(e->spec, ":u");
			if (!strcmp(e->id, cases[c].id) && u == !!*cases[c].mods)
				found = (long)k;
		}
		assert_true(found >= 0);
		if (pk_metricgroup__event_matches(mg, (size_t)found, cases[c].name) != cases[c].match)
			fail_msg("event %s%s%s vs printed '%s': want %s", cases[c].id,
				 *cases[c].mods ? ":" : "", cases[c].mods, cases[c].name,
				 cases[c].match ? "match" : "no match");
	}
	assert_false(pk_metricgroup__event_matches(mg, 999, "x"));

	/* values by name: a repeated name counts once, two names add up (source_count 2) */
	const struct pk_metricgroup_named n[] = {
		{ "cpu/INST_RETIRED.ANY/", 3000 },	{ "CPU_CLK_UNHALTED.THREAD", 1000 },
		{ "INST_RETIRED.ANY:u", 1000 },	{ "CPU_CLK_UNHALTED.THREAD:u", 500 },
		{ "slots", 1e6 },			{ "topdown-retiring", 2e5 },
		{ "topdown-fe-bound", 3e5 },		{ "topdown-bad-spec", 1e5 },
		{ "topdown-be-bound", 4e5 },		{ "msr/tsc/", 3e9 },
		{ "duration_time", 1.5 },		{ "uncore_cha_0/UNC_CHA_CLOCKTICKS/", 100 },
		{ "uncore_cha_1/UNC_CHA_CLOCKTICKS/", 300 }, { "uncore_cha_1/UNC_CHA_CLOCKTICKS/", 300 },
		{ NULL, 5 },				{ "cpu-cycles", 400 },
		{ "instructions", 1000 },
	};
	struct pk_metricgroup_value v[8];
	assert_int_equal(pk_metricgroup__nr_metrics(mg), 6);
	assert_int_equal(pk_metricgroup__eval_named(mg, n, sizeof(n) / sizeof(n[0]), v), 0);
	assert_true(v[metric_named(mg, "ipc")].value == 3.0);
	assert_true(v[metric_named(mg, "ipc:u")].value == 2.0);
	assert_true(fabs(v[metric_named(mg, "td_retiring")].scaled - 20.0) < 1e-12);
	assert_int_equal(v[metric_named(mg, "td_retiring")].threshold, 0);
	assert_true(fabs(v[metric_named(mg, "tsc_ghz")].value - 2.0) < 1e-12);
	assert_true(v[metric_named(mg, "cha_per_unit")].value == 200);
	assert_true(v[metric_named(mg, "legacy_ipc")].value == 2.5);	/* cycles from cpu-cycles */
	/* nothing named: NaN, not an error */
	assert_int_equal(pk_metricgroup__eval_named(mg, n, 0, v), 0);
	assert_true(isnan(v[0].value));
	assert_int_equal(v[0].error, 0);
	/* the callback's own error stops the evaluation */
	assert_int_equal(pk_metricgroup__eval(mg, failing_fn, NULL, v), -EIO);
	pk_metricgroup__free(mg);
}

/* --- TopDown: levels and why it cannot run ---------------------------------------------------- */

static void write_vm_tree(const char *root)
{
	/* what this kind of VM shows: no core PMU, only software-ish PMUs */
	mkfile(root, "software/type", "1\n");
	mkfile(root, "tracepoint/type", "2\n");
	mkfile(root, "breakpoint/type", "5\n");
	mkfile(root, "msr/type", "9\n");
	mkfile(root, "msr/format/event", "config:0-63\n");
	mkfile(root, "msr/events/tsc", "event=0x00\n");
}

static void test_topdown_api(void **state)
{
	(void)state;
	struct pk_catalog *cat;
	size_t icx, spr, zen3, skx;
	char list[32], why[512], path[256];
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	if (pk_catalog__find_model(cat, "icelake", &icx) || pk_catalog__find_model(cat, "amdzen3", &zen3) ||
	    pk_catalog__find_model(cat, "sapphirerapids", &spr) ||
	    pk_catalog__find_model(cat, "skylakex", &skx)) {
		print_message("# skipped: the built-in tables lack the real models\n");
		pk_catalog__free(cat);
		return;
	}
	/* the fixture catalog has TopdownL1 only; AMD Zen 3 has no TopdownL groups */
	assert_int_equal(pk_topdown__max_level(fx_cat, fx_model), 1);
	assert_int_equal(pk_topdown__max_level(cat, zen3), 0);
	assert_int_equal(pk_topdown__max_level(cat, PK_NO_MODEL), 0);
	assert_true(pk_topdown__max_level(cat, icx) >= 2);
	assert_int_equal(pk_topdown__metric_list(cat, icx, 0, list, sizeof(list), why, sizeof(why)), 0);
	assert_string_equal(list, "TopdownL1");
	assert_string_equal(why, "");
	assert_int_equal(pk_topdown__metric_list(cat, icx, 2, list, sizeof(list), NULL, 0), 0);
	assert_string_equal(list, "TopdownL2");
	unsigned max = pk_topdown__max_level(cat, icx);
	assert_int_equal(pk_topdown__metric_list(cat, icx, max + 1, list, sizeof(list), why, sizeof(why)),
			 -ERANGE);
	assert_non_null(strstr(why, "x86/icelake"));
	assert_int_equal(pk_topdown__metric_list(cat, zen3, 1, list, sizeof(list), why, sizeof(why)),
			 -ENOENT);
	assert_non_null(strstr(why, "x86/amdzen3 has no TopDown metrics"));
	assert_int_equal(pk_topdown__check(cat, PK_NO_MODEL, 1, icl, NULL, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "no event tables"));

	/* it runs on the Ice Lake tree */
	assert_int_equal(pk_topdown__check(cat, icx, 1, icl, NULL, why, sizeof(why)), 0);
	assert_int_equal(pk_topdown__check(cat, icx, 2, icl, NULL, why, sizeof(why)), 0);
	/* a VM without core PMU */
	snprintf(path, sizeof(path), "%s/vm", fx_dir);
	write_vm_tree(path);
	struct pk_pmu_tree *vm;
	struct pk_error err;
	assert_int_equal(pk_pmu_tree__open(&vm, path, &err), 0);
	assert_int_equal(pk_topdown__check(cat, icx, 1, vm, NULL, why, sizeof(why)), -ENODEV);
	assert_non_null(strstr(why, "no core PMU"));
	print_message("# %s\n", why);
	pk_pmu_tree__free(vm);
	/* Ice Lake metrics on a Skylake PMU (no perf metrics): topdown events missing */
	assert_true(pk_topdown__check(cat, icx, 1, skl, NULL, why, sizeof(why)) < 0);
	assert_non_null(strstr(why, "topdown-"));
	print_message("# %s\n", why);
	/* Sapphire Rapids level 2 needs the level 2 PERF_METRICS events Ice Lake's PMU lacks */
	assert_int_equal(pk_topdown__check(cat, spr, 1, icl, NULL, why, sizeof(why)), 0);
	assert_true(pk_topdown__check(cat, spr, 2, icl, NULL, why, sizeof(why)) < 0);
	assert_non_null(strstr(why, "topdown-"));
	print_message("# %s\n", why);
	/* Skylake-X's JSON TMA metrics run on its tree */
	assert_int_equal(pk_topdown__check(cat, skx, 2, skl, NULL, why, sizeof(why)), 0);
	pk_catalog__free(cat);
}

/* --- the real tables: hybrid, sys metrics ------------------------------------------------------ */

static void test_hybrid(void **state)
{
	(void)state;
	struct pk_catalog *cat;
	size_t adl;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	if (pk_catalog__find_model(cat, "alderlake", &adl)) {
		print_message("# skipped: no alderlake tables\n");
		pk_catalog__free(cat);
		return;
	}
	struct pk_pmu_tree *hy = open_fixture_tree("x86-hybrid");
	struct pk_metricgroup_opts o = opts_with(hy, &smt_on);
	struct pk_metricgroup *mg = mg_new(cat, adl, "tma_info_thread_ipc,TopdownL1", &o);
	/* both PMUs' metrics of that name; each event written for its metric's PMU */
	size_t core = 0, atom = 0;
	for (size_t i = 0; i < pk_metricgroup__nr_metrics(mg); i++) {
		const struct pk_metricgroup_metric *m = pk_metricgroup__metric(mg, i);
		core += !strcmp(m->pmu, "cpu_core");
		atom += !strcmp(m->pmu, "cpu_atom");
		for (size_t k = 0; k < m->nr_events; k++) {
			const struct pk_metricgroup_event *e = pk_metricgroup__event(mg, m->events[k]);
			if (!e->tool && strcmp(e->pmu ? e->pmu : "", m->pmu))
				fail_msg("%s (%s) reads %s", m->name, m->pmu, e->spec);
		}
	}
	assert_int_equal(core, 5);	/* ipc + 4 level-1 metrics */
	assert_int_equal(atom, 4);	/* the E-core tables have level 1, no tma_info_thread_ipc */
	const char *spec = pk_metricgroup__spec(mg);
	assert_non_null(strstr(spec, "cpu_core/INST_RETIRED.ANY/"));
	assert_non_null(strstr(spec, "cpu_atom/TOPDOWN_RETIRING.ALL/"));
	assert_non_null(strstr(spec, "{cpu_core/TOPDOWN.SLOTS/,cpu_core/topdown-"));
	/* opened on the right PMU only */
	struct pk_spec_opts sp = { .sz = sizeof(sp), .cat = cat, .model = adl, .pmus = hy, .workload = true };
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error se;
	char buf[4096];
	if (pk_evlist__add(el, spec, &sp, &se))
		fail_msg("%s", pk_spec_error__format(&se, spec, buf, sizeof(buf)));
	assert_int_equal(pk_evlist__nr(el), pk_metricgroup__nr_events(mg));
	for (size_t i = 0; i < pk_evlist__nr(el); i++) {
		const struct pk_evsel *e = pk_evlist__evsel(el, i);
		const struct pk_metricgroup_event *pe =
			pk_metricgroup__event(mg, (size_t)pk_metricgroup__event_at(mg, e->spec_off));
		assert_string_equal(e->pmu, pe->pmu);
	}
	pk_evlist__free(el);
	pk_metricgroup__free(mg);
	/* --cputype cpu_atom: that PMU's metrics only */
	o.pmu = "cpu_atom";
	mg = mg_new(cat, adl, "tma_retiring", &o);
	assert_int_equal(pk_metricgroup__nr_metrics(mg), 1);
	assert_string_equal(pk_metricgroup__metric(mg, 0)->pmu, "cpu_atom");
	pk_metricgroup__free(mg);
	pk_pmu_tree__free(hy);
	pk_catalog__free(cat);
}

static void test_sys_metrics(void **state)
{
	(void)state;
	struct pk_catalog *cat;
	size_t n1;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	if (pk_catalog__find_model(cat, "neoverse-n1", &n1)) {
		print_message("# skipped: no neoverse-n1 tables\n");
		pk_catalog__free(cat);
		return;
	}
	struct pk_pmu_tree *arm = open_fixture_tree("arm64-het");
	struct pk_metricgroup_opts o = opts_with(arm, &smt_on);
	/* the CMN metrics apply: the tree's arm_cmn_0 has a matching identifier */
	struct pk_metricgroup *mg = mg_new(cat, n1, "slc_miss_rate,ipc", &o);
	assert_int_equal(pk_metricgroup__nr_metrics(mg), 2);
	const struct pk_metricgroup_metric *m = pk_metricgroup__metric(mg, (size_t)metric_named(mg, "slc_miss_rate"));
	assert_string_equal(m->pmu, "arm_cmn");
	assert_true(m->model != n1);
	struct pk_spec_opts sp = { .sz = sizeof(sp), .cat = cat, .model = n1, .pmus = arm, .workload = true };
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error se;
	char buf[2048];
	if (pk_evlist__add(el, pk_metricgroup__spec(mg), &sp, &se))
		fail_msg("%s", pk_spec_error__format(&se, pk_metricgroup__spec(mg), buf, sizeof(buf)));
	for (size_t i = 0; i < pk_evlist__nr(el); i++)
		if (strstr(pk_evlist__evsel(el, i)->name, "hnf"))
			assert_string_equal(pk_evlist__evsel(el, i)->pmu, "arm_cmn_0");
	pk_evlist__free(el);
	pk_metricgroup__free(mg);
	/* without a tree (or on a machine without the mesh) they do not */
	struct pk_spec_error err;
	o = opts_with(NULL, &smt_on);
	assert_int_equal(pk_metricgroup__new(&mg, cat, n1, "slc_miss_rate", &o, &err), -EINVAL);
	pk_pmu_tree__free(arm);
	pk_catalog__free(cat);
}

/* --- TopDown levels 1 and 2 from known counts ------------------------------------------------------ */

struct kv {
	const char *name;
	double v;
};

static double kv_get(const struct kv *kv, const char *name)
{
	for (; kv->name; kv++)
		if (!strcmp(kv->name, name))
			return kv->v;
	fail_msg("test table lacks %s", name);
	return NAN;
}

/* max() as the metrics use it (no libm in the test link) */
static double maxd(double a, double b)
{
	return a < b ? b : a;
}

struct want {
	const char *metric;
	double frac;
};

/*
 * -M TopdownL1,TopdownL2 on TREE for MODEL: the spec encodes; values given
 * by event through the slots, and again by printed name, give want[] (as
 * fractions; the ScaleUnit makes percentages).
 */
static void topdown_case(const char *model_name, struct pk_pmu_tree *tree, const struct kv *kv,
			 const struct want *want, size_t nwant)
{
	struct pk_catalog *cat;
	size_t model;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	if (pk_catalog__find_model(cat, model_name, &model)) {
		print_message("# skipped: no %s tables\n", model_name);
		pk_catalog__free(cat);
		return;
	}
	char list[32], why[256];
	assert_int_equal(pk_topdown__metric_list(cat, model, 2, list, sizeof(list), why, sizeof(why)), 0);
	struct pk_metricgroup_opts o = opts_with(tree, &smt_on);
	o.no_threshold = true;	/* as --topdown */
	char full[64];
	snprintf(full, sizeof(full), "TopdownL1,%s", list);
	struct pk_metricgroup *mg = mg_new(cat, model, full, &o);
	assert_int_equal(pk_metricgroup__nr_metrics(mg), nwant);
	assert_int_equal(pk_topdown__check(cat, model, 2, tree, NULL, why, sizeof(why)), 0);
	struct pk_spec_opts sp = { .sz = sizeof(sp), .cat = cat, .model = model, .pmus = tree,
				   .workload = true };
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_error se;
	char buf[4096];
	if (pk_evlist__add(el, pk_metricgroup__spec(mg), &sp, &se))
		fail_msg("%s", pk_spec_error__format(&se, pk_metricgroup__spec(mg), buf, sizeof(buf)));
	pk_evlist__free(el);

	struct live l = { .mg = mg };
	size_t ne = pk_metricgroup__nr_events(mg);
	assert_true(ne < 64);
	struct pk_metricgroup_named named[64];
	for (size_t k = 0; k < ne; k++) {
		const struct pk_metricgroup_event *e = pk_metricgroup__event(mg, k);
		l.by_event[k] = kv_get(kv, e->id);
		l.sources[k] = 1;
		named[k] = (struct pk_metricgroup_named){ e->name, l.by_event[k] };
	}
	struct pk_metricgroup_value v[32], w[32];
	assert_int_equal(pk_metricgroup__eval(mg, live_fn, &l, v), 0);
	assert_int_equal(pk_metricgroup__eval_named(mg, named, ne, w), 0);
	for (size_t i = 0; i < nwant; i++) {
		long k = metric_named(mg, want[i].metric);
		if (k < 0)
			fail_msg("%s: %s not selected", model_name, want[i].metric);
		if (v[k].error || !(fabs(v[k].value - want[i].frac) < 1e-12) ||
		    !(fabs(v[k].scaled - 100 * want[i].frac) < 1e-9) || strcmp(v[k].unit, "%"))
			fail_msg("%s %s = %.17g (%g%s, error %d), want %.17g", model_name,
				 want[i].metric, v[k].value, v[k].scaled, v[k].unit, v[k].error,
				 want[i].frac);
		assert_true(w[k].value == v[k].value);
		print_message("  %-15s %-22s %6.2f%%\n", model_name, want[i].metric, v[k].scaled);
	}
	pk_metricgroup__free(mg);
	pk_catalog__free(cat);
}

/*
 * Ice Lake: level 1 from PERF_METRICS (slots and the topdown-* events, which
 * the kernel reports scaled to slots), level 2 from the JSON formulas
 * (icl-metrics.json), computed here.
 */
static void test_topdown_icelake(void **state)
{
	(void)state;
	static const struct kv kv[] = {
		{ "TOPDOWN.SLOTS", 1e6 },
		{ "topdown-retiring", 250000 },
		{ "topdown-bad-spec", 100000 },
		{ "topdown-fe-bound", 350000 },
		{ "topdown-be-bound", 300000 },
		{ "INT_MISC.CLEARS_COUNT", 2000 },
		{ "INT_MISC.UOP_DROPPING", 10000 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 42000 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 9000 },
		{ "MACHINE_CLEARS.COUNT", 1000 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 30000 },
		{ "EXE_ACTIVITY.BOUND_ON_STORES", 10000 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 50000 },
		{ "EXE_ACTIVITY.1_PORTS_UTIL", 15000 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 20000 },
		{ "UOPS_RETIRED.SLOTS", 80000 },
		{ "UOPS_ISSUED.ANY", 100000 },
		{ "IDQ.MS_UOPS", 50000 },
		{ "UOPS_DECODED.DEC0", 30000 },
		{ "cpu@UOPS_DECODED.DEC0,cmask=1@", 10000 },
		{ "IDQ.MITE_UOPS", 100000 },
		{ NULL, 0 },
	};
#define K(n) kv_get(kv, n)
	double slots = K("TOPDOWN.SLOTS");
	double sum = K("topdown-fe-bound") + K("topdown-bad-spec") + K("topdown-retiring") +
		     K("topdown-be-bound");
	double ret = K("topdown-retiring") / sum;
	double fe = K("topdown-fe-bound") / sum - K("INT_MISC.UOP_DROPPING") / slots;
	double be = K("topdown-be-bound") / sum + 5 * K("INT_MISC.CLEARS_COUNT") / slots;
	double bad = maxd(1 - (fe + be + ret), 0);
	double ms = K("UOPS_RETIRED.SLOTS") / K("UOPS_ISSUED.ANY") * K("IDQ.MS_UOPS") / slots;
	double heavy = ms + ret * (K("UOPS_DECODED.DEC0") - K("cpu@UOPS_DECODED.DEC0,cmask=1@")) /
				    K("IDQ.MITE_UOPS");
	double brm = K("BR_MISP_RETIRED.ALL_BRANCHES") /
		     (K("BR_MISP_RETIRED.ALL_BRANCHES") + K("MACHINE_CLEARS.COUNT")) * bad;
	double flat = (5 * K("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE") -
		       K("INT_MISC.UOP_DROPPING")) / slots;
	double mem = (K("CYCLE_ACTIVITY.STALLS_MEM_ANY") + K("EXE_ACTIVITY.BOUND_ON_STORES")) /
		     (K("CYCLE_ACTIVITY.STALLS_TOTAL") +
		      (K("EXE_ACTIVITY.1_PORTS_UTIL") + ret * K("EXE_ACTIVITY.2_PORTS_UTIL")) +
		      K("EXE_ACTIVITY.BOUND_ON_STORES")) * be;
#undef K
	const struct want want[] = {
		{ "tma_retiring", ret },		{ "tma_bad_speculation", bad },
		{ "tma_frontend_bound", fe },		{ "tma_backend_bound", be },
		{ "tma_heavy_operations", heavy },	{ "tma_light_operations", maxd(0, ret - heavy) },
		{ "tma_branch_mispredicts", brm },	{ "tma_machine_clears", maxd(0, bad - brm) },
		{ "tma_fetch_latency", flat },		{ "tma_fetch_bandwidth", maxd(0, fe - flat) },
		{ "tma_memory_bound", mem },		{ "tma_core_bound", maxd(0, be - mem) },
	};
	/* the numbers are chosen so that no max(0, ...) clips and level 1 adds up */
	assert_true(fabs(ret + bad + fe + be - 1) < 1e-12);
	assert_true(ret > heavy && bad > brm && fe > flat && be > mem);
	topdown_case("icelake", icl, kv, want, sizeof(want) / sizeof(want[0]));
}

/* Sapphire Rapids: levels 1 and 2 from PERF_METRICS; topdown.txt's subtractions for the rest. */
static void test_topdown_sapphirerapids(void **state)
{
	(void)state;
	static const struct kv kv[] = {
		{ "TOPDOWN.SLOTS", 1e6 },	   { "topdown-retiring", 250000 },
		{ "topdown-bad-spec", 100000 },	   { "topdown-fe-bound", 350000 },
		{ "topdown-be-bound", 300000 },	   { "topdown-heavy-ops", 90000 },
		{ "topdown-br-mispredict", 80000 }, { "topdown-fetch-lat", 200000 },
		{ "topdown-mem-bound", 120000 },   { "INT_MISC.UOP_DROPPING", 0 },
		{ NULL, 0 },
	};
	/* topdown.txt: each ratio is its field over slots; level 2's other halves by subtraction */
	double slots = kv_get(kv, "TOPDOWN.SLOTS");
	double ret = kv_get(kv, "topdown-retiring") / slots, bad = kv_get(kv, "topdown-bad-spec") / slots;
	double fe = kv_get(kv, "topdown-fe-bound") / slots, be = kv_get(kv, "topdown-be-bound") / slots;
	double heavy = kv_get(kv, "topdown-heavy-ops") / slots;
	double brm = kv_get(kv, "topdown-br-mispredict") / slots;
	double flat = kv_get(kv, "topdown-fetch-lat") / slots;
	double mem = kv_get(kv, "topdown-mem-bound") / slots;
	const struct want want[] = {
		{ "tma_retiring", ret },		{ "tma_bad_speculation", bad },
		{ "tma_frontend_bound", fe },		{ "tma_backend_bound", be },
		{ "tma_heavy_operations", heavy },	{ "tma_light_operations", ret - heavy },
		{ "tma_branch_mispredicts", brm },	{ "tma_machine_clears", bad - brm },
		{ "tma_fetch_latency", flat },		{ "tma_fetch_bandwidth", fe - flat },
		{ "tma_memory_bound", mem },		{ "tma_core_bound", be - mem },
	};
	/* the Ice Lake tree plus the level 2 PERF_METRICS events (umask 0x84..0x87) */
	char path[256];
	char cmd[600];
	snprintf(path, sizeof(path), "%s/spr", fx_dir);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/tests/fixtures/sysfs/x86-icl' '%s'", src_dir(), path);
	assert_int_equal(system(cmd), 0);
	mkfile(path, "cpu/events/topdown-heavy-ops", "event=0x00,umask=0x84\n");
	mkfile(path, "cpu/events/topdown-br-mispredict", "event=0x00,umask=0x85\n");
	mkfile(path, "cpu/events/topdown-fetch-lat", "event=0x00,umask=0x86\n");
	mkfile(path, "cpu/events/topdown-mem-bound", "event=0x00,umask=0x87\n");
	struct pk_pmu_tree *t;
	struct pk_error err;
	assert_int_equal(pk_pmu_tree__open(&t, path, &err), 0);
	topdown_case("sapphirerapids", t, kv, want, sizeof(want) / sizeof(want[0]));
	pk_pmu_tree__free(t);
}

/* Skylake: the JSON TMA metrics over ordinary events (skl-metrics.json), SMT on, core-wide. */
static void test_topdown_skylake(void **state)
{
	(void)state;
	static const struct kv kv[] = {
		{ "CPU_CLK_UNHALTED.THREAD_ANY", 2e6 },
		{ "IDQ_UOPS_NOT_DELIVERED.CORE", 1.2e6 },
		{ "UOPS_RETIRED.RETIRE_SLOTS", 1.6e6 },
		{ "INT_MISC.RECOVERY_CYCLES_ANY", 40000 },
		{ "UOPS_ISSUED.ANY", 1.92e6 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 8000 },
		{ "MACHINE_CLEARS.COUNT", 2000 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 200000 },
		{ "UOPS_RETIRED.MACRO_FUSED", 200000 },
		{ "INST_RETIRED.ANY", 1.4e6 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 300000 },
		{ "EXE_ACTIVITY.BOUND_ON_STORES", 100000 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 500000 },
		{ "EXE_ACTIVITY.1_PORTS_UTIL", 300000 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 250000 },
		{ NULL, 0 },
	};
#define K(n) kv_get(kv, n)
	double clks = K("CPU_CLK_UNHALTED.THREAD_ANY") / 2;	/* #SMT_on, #core_wide */
	double slots = 4 * clks;
	double recov = 4 * (K("INT_MISC.RECOVERY_CYCLES_ANY") / 2);
	double fe = K("IDQ_UOPS_NOT_DELIVERED.CORE") / slots;
	double bad = (K("UOPS_ISSUED.ANY") - K("UOPS_RETIRED.RETIRE_SLOTS") + recov) / slots;
	double ret = K("UOPS_RETIRED.RETIRE_SLOTS") / slots;
	double be = 1 - fe - (K("UOPS_ISSUED.ANY") + recov) / slots;
	double brm = K("BR_MISP_RETIRED.ALL_BRANCHES") /
		     (K("BR_MISP_RETIRED.ALL_BRANCHES") + K("MACHINE_CLEARS.COUNT")) * bad;
	double flat = 4 * K("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE") / slots;
	double heavy = (K("UOPS_RETIRED.RETIRE_SLOTS") + K("UOPS_RETIRED.MACRO_FUSED") -
			K("INST_RETIRED.ANY")) / slots;
	double mem = (K("CYCLE_ACTIVITY.STALLS_MEM_ANY") + K("EXE_ACTIVITY.BOUND_ON_STORES")) /
		     (K("CYCLE_ACTIVITY.STALLS_TOTAL") +
		      (K("EXE_ACTIVITY.1_PORTS_UTIL") + ret * K("EXE_ACTIVITY.2_PORTS_UTIL")) +
		      K("EXE_ACTIVITY.BOUND_ON_STORES")) * be;
#undef K
	const struct want want[] = {
		{ "tma_retiring", ret },		{ "tma_bad_speculation", bad },
		{ "tma_frontend_bound", fe },		{ "tma_backend_bound", be },
		{ "tma_heavy_operations", heavy },	{ "tma_light_operations", ret - heavy },
		{ "tma_branch_mispredicts", brm },	{ "tma_machine_clears", bad - brm },
		{ "tma_fetch_latency", flat },		{ "tma_fetch_bandwidth", fe - flat },
		{ "tma_memory_bound", mem },		{ "tma_core_bound", be - mem },
	};
	assert_true(fabs(ret + bad + fe + be - 1) < 1e-12);
	topdown_case("skylake", skl, kv, want, sizeof(want) / sizeof(want[0]));
}

/* --- every metric and group of real models, encoded --------------------------------------------- */

/* The fixture tree plus the PMUs the model's tables name that it lacks (for the second pass). */
static void augment_tree(const char *dir, struct pk_catalog *cat, size_t model,
			 const struct pk_pmu_tree *t)
{
	struct pk_model md;
	pk_catalog__model(cat, model, &md);
	char pmus[64][48];
	size_t npmus = 0;
	for (size_t i = 0; i < md.nr_events; i++) {
		struct pk_event e = { .sz = sizeof(e) };
		pk_catalog__event_brief(cat, model, i, &e);
		if (!strcmp(e.pmu, "default_core") || !strncmp(e.pmu, "cpu", 3))
			continue;
		bool have = false;
		for (size_t k = 0; k < pk_pmu_tree__nr_pmus(t) && !have; k++)
			have = pk_pmu__matches_table_pmu(pk_pmu_tree__pmu(t, k), e.pmu);
		for (size_t k = 0; k < npmus && !have; k++)
			have = !strcmp(pmus[k], e.pmu);
		if (!have && npmus < 64 && strlen(e.pmu) < sizeof(pmus[0]))
			strcpy(pmus[npmus++], e.pmu);
	}
	char rel[1024];
	for (size_t k = 0; k < npmus; k++) {
		/* every term of its events a field of its own, wide enough for the values used */
		/* plus edge, inv, cmask: metrics add them ("UNC_ARB_DAT_OCCUPANCY.RD@cmask\=1@") */
		char names[16][24] = { "event", "edge", "inv", "cmask" };
		unsigned width[16] = { 8, 1, 1, 8 };
		size_t nt = 4;
		for (size_t i = 0; i < md.nr_events; i++) {
			struct pk_event e = { .sz = sizeof(e) };
			pk_catalog__event_brief(cat, model, i, &e);
			if (strcmp(e.pmu, pmus[k]))
				continue;
			char enc[512];
			snprintf(enc, sizeof(enc), "%s", e.encoding);
			for (char *tok = strtok(enc, ","); tok; tok = strtok(NULL, ",")) {
				char *eq = strchr(tok, '=');
				unsigned long long val = eq ? strtoull(eq + 1, NULL, 0) : 1;
				if (eq)
					*eq = '\0';
				if (!strcmp(tok, "period"))
					continue;
				size_t j = 0;
				while (j < nt && strcmp(names[j], tok))
					j++;
				if (j == nt && nt < 16)
					snprintf(names[nt++], sizeof(names[0]), "%s", tok);
				unsigned w = 1;
				while (w < 64 && (val >> w))
					w++;
				if (j < 16 && w > width[j])
					width[j] = w;
			}
		}
		char pmu[64];
		size_t pl = strlen(pmus[k]);
		snprintf(pmu, sizeof(pmu), "%s%s", pmus[k],
			 pl && pmus[k][pl - 1] >= '0' && pmus[k][pl - 1] <= '9' ? "" : "_0");
		char buf[64];
		snprintf(rel, sizeof(rel), "%s/type", pmu);
		snprintf(buf, sizeof(buf), "%zu\n", 40 + k);
		mkfile(dir, rel, buf);
		snprintf(rel, sizeof(rel), "%s/cpumask", pmu);
		mkfile(dir, rel, "0\n");
		unsigned word = 0, bit = 0;
		for (size_t j = 0; j < nt; j++) {
			unsigned w = width[j] < 8 && !strcmp(names[j], "event") ? 8 : width[j];
			if (bit + w > 64) {
				word++;
				bit = 0;
			}
			snprintf(rel, sizeof(rel), "%s/format/%s", pmu, names[j]);
			snprintf(buf, sizeof(buf), "config%.0u:%u-%u\n", word, bit, bit + w - 1);
			mkfile(dir, rel, buf);
			bit += w;
		}
	}
	/* C-state residency counters and the msr PMU, as the kernel names them */
	static const char *const cst[] = { "cstate_core", "cstate_pkg" };
	for (int c = 0; c < 2; c++) {
		if (pk_pmu_tree__find(t, cst[c]))
			continue;
		snprintf(rel, sizeof(rel), "%s/type", cst[c]);
		mkfile(dir, rel, c ? "31\n" : "30\n");
		snprintf(rel, sizeof(rel), "%s/cpumask", cst[c]);
		mkfile(dir, rel, "0\n");
		snprintf(rel, sizeof(rel), "%s/format/event", cst[c]);
		mkfile(dir, rel, "config:0-63\n");
		for (int n = 1; n <= 10; n++) {
			char buf[32];
			snprintf(rel, sizeof(rel), "%s/events/c%d-residency", cst[c], n);
			snprintf(buf, sizeof(buf), "event=0x%02x\n", n);
			mkfile(dir, rel, buf);
		}
	}
	if (!pk_pmu_tree__find(t, "msr")) {
		static const char *const msr[] = { "tsc", "aperf", "mperf", "smi", "pperf" };
		mkfile(dir, "msr/type", "32\n");
		mkfile(dir, "msr/format/event", "config:0-63\n");
		for (int n = 0; n < 5; n++) {
			char buf[32];
			snprintf(rel, sizeof(rel), "msr/events/%s", msr[n]);
			snprintf(buf, sizeof(buf), "event=0x%02x\n", n);
			mkfile(dir, rel, buf);
		}
	}
	/* the level 2 PERF_METRICS events of Sapphire Rapids and later */
	const struct pk_pmu *cpu = pk_pmu_tree__find(t, "cpu");
	if (cpu && pk_pmu__find_alias(cpu, "slots") && !pk_pmu__find_alias(cpu, "topdown-heavy-ops")) {
		mkfile(dir, "cpu/events/topdown-heavy-ops", "event=0x00,umask=0x84\n");
		mkfile(dir, "cpu/events/topdown-br-mispredict", "event=0x00,umask=0x85\n");
		mkfile(dir, "cpu/events/topdown-fetch-lat", "event=0x00,umask=0x86\n");
		mkfile(dir, "cpu/events/topdown-mem-bound", "event=0x00,umask=0x87\n");
	}
}

struct cov {
	size_t lists, refused, setup_failed, evsels, unmapped;
	char first[6][300];
};

/* -M list on tree: build, encode, map every evsel back. */
static void cover_one(struct cov *c, struct pk_catalog *cat, size_t model, struct pk_pmu_tree *t,
		      const char *list)
{
	struct pk_metricgroup_opts o = opts_with(t, &smt_on);
	struct pk_metricgroup *mg;
	struct pk_spec_error se;
	c->lists++;
	if (pk_metricgroup__new(&mg, cat, model, list, &o, &se)) {
		if (c->setup_failed + c->refused < 6)
			snprintf(c->first[c->setup_failed + c->refused], sizeof(c->first[0]),
				 "-M %s: %s", list, se.msg);
		c->setup_failed++;
		return;
	}
	const char *spec = pk_metricgroup__spec(mg);
	struct pk_spec_opts sp = { .sz = sizeof(sp), .cat = cat, .model = model, .pmus = t,
				   .workload = true };
	struct pk_evlist *el = pk_evlist__new();
	if (*spec && pk_evlist__add(el, spec, &sp, &se)) {
		long k = pk_metricgroup__event_at(mg, se.off);
		if (c->setup_failed + c->refused < 6)
			snprintf(c->first[c->setup_failed + c->refused], sizeof(c->first[0]),
				 "-M %s: %s refused: %s", list,
				 k >= 0 ? pk_metricgroup__event(mg, (size_t)k)->spec : "?", se.msg);
		c->refused++;
	} else {
		for (size_t i = 0; i < pk_evlist__nr(el); i++) {
			long k = pk_metricgroup__event_at(mg, pk_evlist__evsel(el, i)->spec_off);
			c->evsels++;
			c->unmapped += k < 0;
		}
	}
	pk_evlist__free(el);
	pk_metricgroup__free(mg);
}

static void cover_model(struct cov *c, struct pk_catalog *cat, size_t model, struct pk_pmu_tree *t,
			size_t *nmetrics, size_t *ngroups)
{
	struct pk_model md;
	pk_catalog__model(cat, model, &md);
	char *seen = calloc(1, 1);
	size_t seen_len = 0;
	*nmetrics = *ngroups = 0;
	for (size_t i = 0; i < md.nr_metrics; i++) {
		struct pk_metric m = { .sz = sizeof(m) };
		pk_catalog__metric(cat, model, i, &m);
		struct pk_metric prev = { .sz = sizeof(prev) };
		if (i && !pk_catalog__metric(cat, model, i - 1, &prev) && !strcmp(prev.name, m.name))
			continue;	/* one name, several PMUs (hybrid): one -M item */
		(*nmetrics)++;
		cover_one(c, cat, model, t, m.name);
	}
	/* the groups metrics name (metricgroups.json also describes groups no metric uses) */
	for (size_t i = 0; i < md.nr_metrics; i++) {
		struct pk_metric m = { .sz = sizeof(m) };
		pk_catalog__metric(cat, model, i, &m);
		for (const char *p = m.groups; p && *p;) {
			size_t len = strcspn(p, ";");
			char key[160];
			snprintf(key, sizeof(key), ";%.*s;", (int)len, p);
			if (len && len < 150 && !strstr(seen, key)) {
				char *ns = realloc(seen, seen_len + strlen(key) + 1);
				assert_non_null(ns);
				seen = ns;
				strcpy(seen + seen_len, key);
				seen_len += strlen(key);
				(*ngroups)++;
				char name[160];
				snprintf(name, sizeof(name), "%.*s", (int)len, p);
				cover_one(c, cat, model, t, name);
			}
			p += len + (p[len] == ';');
		}
	}
	free(seen);
}

static void test_real_coverage(void **state)
{
	(void)state;
	static const struct {
		const char *tree, *model;
	} cases[] = {
		{ "x86-skl", "skylakex" },	   { "x86-skl", "skylake" },
		{ "x86-icl", "icelake" },	   { "x86-icl", "icelakex" },
		{ "x86-icl", "sapphirerapids" }, { "x86-hybrid", "alderlake" },
		{ "amd-zen3", "amdzen3" },	   { "arm64-het", "neoverse-n1" },
	};
	struct pk_catalog *cat;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	size_t tot_lists = 0, tot_refused_plain = 0, tot_refused = 0, tot_failed = 0;
	for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		size_t model, nm, ng;
		if (pk_catalog__find_model(cat, cases[ci].model, &model)) {
			print_message("# skipped %s: not in the built-in tables\n", cases[ci].model);
			continue;
		}
		struct pk_pmu_tree *t = open_fixture_tree(cases[ci].tree);
		/* pass 1: the fixture tree as it is */
		struct cov plain = { 0 };
		cover_model(&plain, cat, model, t, &nm, &ng);
		/* pass 2: plus the uncore/cstate/msr PMUs and topdown events it lacks */
		char dir[256], cmd[700];
		snprintf(dir, sizeof(dir), "%s/aug-%s-%s", fx_dir, cases[ci].tree, cases[ci].model);
		snprintf(cmd, sizeof(cmd), "cp -r '%s/tests/fixtures/sysfs/%s' '%s'", src_dir(),
			 cases[ci].tree, dir);
		assert_int_equal(system(cmd), 0);
		augment_tree(dir, cat, model, t);
		struct pk_pmu_tree *ta;
		struct pk_error err;
		assert_int_equal(pk_pmu_tree__open(&ta, dir, &err), 0);
		struct cov aug = { 0 };
		cover_model(&aug, cat, model, ta, &nm, &ng);
		print_message("# %-14s on %-10s: %zu metrics + %zu groups; %zu refused on the fixture "
			      "tree (PMUs or events it lacks), %zu on it + those; %zu evsels, "
			      "%zu unmapped; %zu selections failed\n",
			      cases[ci].model, cases[ci].tree, nm, ng, plain.refused, aug.refused,
			      aug.evsels, aug.unmapped, aug.setup_failed);
		for (size_t i = 0; i < 3 && i < plain.refused + plain.setup_failed; i++)
			print_message("#   e.g. %s\n", plain.first[i]);
		for (size_t i = 0; i < 6 && i < aug.refused + aug.setup_failed; i++)
			print_message("#   FAIL %s\n", aug.first[i]);
		tot_lists += aug.lists;
		tot_refused_plain += plain.refused;
		tot_refused += aug.refused + aug.unmapped;
		tot_failed += aug.setup_failed + plain.setup_failed;
		pk_pmu_tree__free(ta);
		pk_pmu_tree__free(t);
	}
	print_message("# coverage: %zu -M lists, %zu refused for missing PMUs on the bare fixtures, "
		      "%zu refused otherwise, %zu failed to select\n",
		      tot_lists, tot_refused_plain, tot_refused, tot_failed);
	assert_int_equal(tot_refused, 0);
	assert_int_equal(tot_failed, 0);
	pk_catalog__free(cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_topdown_groups),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_topdown_api),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_sys_metrics),
		cmocka_unit_test(test_topdown_icelake),
		cmocka_unit_test(test_topdown_sapphirerapids),
		cmocka_unit_test(test_topdown_skylake),
		cmocka_unit_test(test_real_coverage),
	};
	return cmocka_run_group_tests_name("metricgroup", tests, setup, teardown);
}
