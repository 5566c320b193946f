/* SPDX-License-Identifier: MIT */
/*
 * test_countsfile.c — pmukit/countsfile.h: perf stat -j output read back.
 *
 * - real perf 6.1 captures (tests/fixtures/counts/perf61-*.json, software
 *   events on this kind of VM: plain, -I, -a -A, --per-core -I,
 *   --per-socket, -r): every field, the sets and their durations, and
 *   metrics computed from them checked against the metric perf itself
 *   printed on the same line (CPUs utilized, K/sec, /sec): an oracle that
 *   needs no hardware;
 * - synthetic files with hardware event names (icelake-topdown.json,
 *   skylake-per-core.json, units.json, see the README there): the TopDown
 *   levels 1 and 2 per interval and per core, with names as perf prints
 *   them ("slots", "cpu/topdown-retiring/", "cpu/NAME/u"), the expected
 *   values computed here from the formulas; units undone (ScaleUnit, sysfs
 *   .scale, msec, ns); duration_time from another key of the interval;
 * - malformed input: each error's line and column, nothing accepted.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/pmukit.h>

static const char *src_dir(void)
{
	return getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".";
}

static struct pk_counts *read_fixture(const char *name)
{
	char path[512], buf[1024];
	struct pk_counts *c;
	struct pk_error err;
	snprintf(path, sizeof(path), "%s/tests/fixtures/counts/%s", src_dir(), name);
	if (pk_counts__read(&c, path, &err))
		fail_msg("%s", pk_error__format(&err, buf, sizeof(buf)));
	return c;
}

static char *slurp(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/tests/fixtures/counts/%s", src_dir(), name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Line no (1-based) of text, into buf. */
static const char *line_of(const char *text, unsigned no, char *buf, size_t len)
{
	for (unsigned i = 1; i < no && text; i++)
		text = strchr(text, '\n') ? strchr(text, '\n') + 1 : NULL;
	assert_non_null(text);
	size_t n = strcspn(text, "\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), text);
	return buf;
}

static double maxd(double a, double b)
{
	return a < b ? b : a;
}

/* --- a catalog of our own: metrics over software events, and a few with units --------------- */

static char fx_dir[64];
static struct pk_catalog *cat;
static size_t fx_model;
static struct pk_pmu_tree *skl;

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
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	char path[512];
	struct pk_error err;
	strcpy(fx_dir, "/tmp/pk_cf_XXXXXX");
	if (!mkdtemp(fx_dir))
		return -1;
	snprintf(path, sizeof(path), "%s/arch", fx_dir);
	mkfile(path, "x86/mapfile.csv", "Family-model,Version,Filename,EventType\nGenuineIntel-6-99,v1,cf,core\n");
	mkfile(path, "x86/cf/pipeline.json",
	       "[{\"EventName\": \"INST_RETIRED.ANY\", \"EventCode\": \"0xc0\", \"BriefDescription\": \"i\"},\n"
	       " {\"EventName\": \"CPU_CLK_UNHALTED.THREAD\", \"EventCode\": \"0x3c\", \"BriefDescription\": \"c\"},\n"
	       " {\"EventName\": \"BR_INST_RETIRED.ALL_BRANCHES\", \"EventCode\": \"0xc4\", \"BriefDescription\": \"b\"},\n"
	       " {\"EventName\": \"BR_MISP_RETIRED.ALL_BRANCHES\", \"EventCode\": \"0xc5\", \"BriefDescription\": \"m\"},\n"
	       " {\"EventName\": \"MEM_BW.LINES\", \"EventCode\": \"0x10\", \"UMask\": \"0x1\","
	       "  \"ScaleUnit\": \"64Bytes\", \"BriefDescription\": \"l\"}]\n");
	mkfile(path, "x86/cf/metrics.json",
	       "[{\"MetricName\": \"cpus_utilized\", \"MetricExpr\": \"task\\\\-clock / duration_time / 1e9\"},\n"
	       " {\"MetricName\": \"faults_per_sec\", \"MetricExpr\": \"page\\\\-faults / task\\\\-clock * 1e9\"},\n"
	       " {\"MetricName\": \"cs_per_sec\", \"MetricExpr\": \"context\\\\-switches / cpu\\\\-clock * 1e9\"},\n"
	       " {\"MetricName\": \"pf_per_sec\", \"MetricExpr\": \"page\\\\-faults / cpu\\\\-clock * 1e9\"},\n"
	       " {\"MetricName\": \"user_share\", \"MetricExpr\": \"user_time / duration_time\"},\n"
	       " {\"MetricName\": \"ipc\", \"MetricExpr\": \"INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD\"},\n"
	       " {\"MetricName\": \"br_ratio\", \"MetricExpr\": \"BR_MISP_RETIRED.ALL_BRANCHES / "
	       "BR_INST_RETIRED.ALL_BRANCHES\"},\n"
	       " {\"MetricName\": \"mem_gbs\", \"MetricExpr\": \"MEM_BW.LINES * 64 / 1e9 / duration_time\"},\n"
	       " {\"MetricName\": \"cas_mib\", \"MetricExpr\": \"cas_count_read * 64 / 1048576\"},\n"
	       " {\"MetricName\": \"pkg_joules\", \"MetricExpr\": \"energy\\\\-pkg * 2.3283064365386962890625e-10\"}]\n");
	if (pk_catalog__open_dir(&cat, path, NULL, &err) || pk_catalog__find_model(cat, "cf", &fx_model))
		return -1;
	snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs/x86-skl", src_dir());
	if (pk_pmu_tree__open(&skl, path, &err))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	pk_pmu_tree__free(skl);
	pk_catalog__free(cat);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx_dir);
	return system(cmd) ? -1 : 0;
}

static struct pk_metricgroup *mg_new(struct pk_catalog *c, size_t model, const char *list,
				     const struct pk_pmu_tree *tree, bool no_threshold)
{
	static struct {
		int dummy;
	} ctx;
	struct pk_metricgroup_opts o = { .sz = sizeof(o), .pmus = tree, .no_threshold = no_threshold,
					 .consts_ctx = &ctx };
	struct pk_metricgroup *mg;
	struct pk_spec_error err;
	char buf[1024];
	if (pk_metricgroup__new(&mg, c, model, list, &o, &err))
		fail_msg("%s", pk_spec_error__format(&err, list, buf, sizeof(buf)));
	return mg;
}

static long metric_named(const struct pk_metricgroup *mg, const char *name)
{
	for (size_t i = 0; i < pk_metricgroup__nr_metrics(mg); i++)
		if (!strcmp(pk_metricgroup__metric(mg, i)->name, name))
			return (long)i;
	fail_msg("no metric %s", name);
	return -1;
}

/* --- real captures ------------------------------------------------------------------------------ */

static void test_perf61_plain(void **state)
{
	(void)state;
	struct pk_counts *c = read_fixture("perf61-sw.json");
	/* perf -o writes "# started on ..." and a blank line first */
	assert_int_equal(pk_counts__nr_records(c), 7);
	assert_int_equal(pk_counts__nr_skipped(c), 2);
	assert_int_equal(pk_counts__nr_sets(c), 1);
	const struct pk_counts_record *r = pk_counts__record(c, 0);
	assert_int_equal(r->line, 3);
	assert_false(r->has_interval);
	assert_true(isnan(r->interval));
	assert_int_equal(r->aggr, PK_COUNTS_GLOBAL);
	assert_string_equal(r->aggr_id, "");
	assert_int_equal(r->aggr_nr, -1);
	assert_null(r->cgroup);
	assert_string_equal(r->event, "task-clock");
	assert_int_equal(r->status, PK_COUNTS_OK);
	assert_true(r->value == 28.328071);
	assert_string_equal(r->unit, "msec");
	assert_true(r->runtime == 28328071);
	assert_true(r->pcnt_running == 100);
	assert_true(isnan(r->variance));
	bool known;
	assert_true(fabs(pk_counts__raw(c, 0, NULL, &known) - 28328071) < 1e-6);
	assert_true(known);
	r = pk_counts__record(c, 3);
	assert_string_equal(r->event, "cycles");
	assert_int_equal(r->status, PK_COUNTS_NOT_SUPPORTED);
	assert_true(isnan(r->value));
	assert_true(isnan(pk_counts__raw(c, 3, NULL, NULL)));
	/* tool events: ns printed, seconds for metrics */
	assert_string_equal(pk_counts__record(c, 4)->event, "duration_time");
	assert_true(fabs(pk_counts__raw(c, 4, NULL, NULL) - 0.069348302) < 1e-15);
	assert_true(fabs(pk_counts__raw(c, 5, NULL, NULL) - 0.025715) < 1e-15);

	/* our metrics against the metric perf printed on the same lines */
	char *text = slurp("perf61-sw.json"), line[1024];
	struct pk_metricgroup *mg = mg_new(cat, fx_model, "cpus_utilized,faults_per_sec,user_share", NULL, false);
	struct pk_metricgroup_value v[4];
	assert_int_equal(pk_counts__eval(c, 0, mg, v), 0);
	double perf_cpus, perf_kps;
	assert_int_equal(sscanf(strstr(line_of(text, 3, line, sizeof(line)), "\"metric-value\""),
				"\"metric-value\" : %lf", &perf_cpus), 1);
	assert_int_equal(sscanf(strstr(line_of(text, 4, line, sizeof(line)), "\"metric-value\""),
				"\"metric-value\" : %lf", &perf_kps), 1);
	double cpus = v[metric_named(mg, "cpus_utilized")].value;
	double kps = v[metric_named(mg, "faults_per_sec")].value / 1e3;	/* perf: K/sec */
	print_message("# CPUs utilized %.6f (perf %.6f), page-faults %.6f K/sec (perf %.6f)\n", cpus,
		      perf_cpus, kps, perf_kps);
	assert_true(fabs(cpus - perf_cpus) < 5e-7);
	assert_true(fabs(kps - perf_kps) < 5e-7);
	assert_true(fabs(v[metric_named(mg, "user_share")].value - 25715000.0 / 69348302) < 1e-12);
	assert_int_equal(pk_counts__eval(c, 1, mg, v), -ENOENT);
	pk_metricgroup__free(mg);
	free(text);
	pk_counts__free(c);
}

/*
 * Every set of a capture: our METRIC (scaled by mult) from the counts of
 * the set equals the metric-value perf printed on the line of EVENT in it.
 */
static size_t perf_oracle(const char *file, const char *metric, const char *event, double mult)
{
	struct pk_counts *c = read_fixture(file);
	char *text = slurp(file), line[1024];
	struct pk_metricgroup *mg = mg_new(cat, fx_model, metric, NULL, false);
	struct pk_metricgroup_value v;
	size_t checked = 0;
	for (size_t s = 0; s < pk_counts__nr_sets(c); s++) {
		const struct pk_counts_set *set = pk_counts__set(c, s);
		assert_int_equal(pk_counts__eval(c, s, mg, &v), 0);
		for (size_t i = 0; i < set->nr_records; i++) {
			const struct pk_counts_record *r = pk_counts__record(c, set->records[i]);
			if (strcmp(r->event, event) || r->status != PK_COUNTS_OK || r->value == 0)
				continue;
			double want;
			assert_int_equal(sscanf(strstr(line_of(text, r->line, line, sizeof(line)),
						       "\"metric-value\""),
						"\"metric-value\" : %lf", &want), 1);
			if (!(fabs(v.value * mult - want) < 5e-7 * maxd(1, want)))
				fail_msg("%s set %zu (%s %s): %s = %.9g, perf printed %.6f", file, s,
					 pk_counts_aggr__name(set->aggr), set->aggr_id, metric,
					 v.value * mult, want);
			checked++;
		}
	}
	pk_metricgroup__free(mg);
	free(text);
	pk_counts__free(c);
	return checked;
}

static void test_perf61_aggregations(void **state)
{
	(void)state;
	struct pk_counts *c = read_fixture("perf61-sw-interval.json");
	/* -I: one set per interval; durations between intervals; <not counted> reads 0 */
	assert_int_equal(pk_counts__nr_records(c), 12);
	assert_int_equal(pk_counts__nr_sets(c), 4);
	const struct pk_counts_set *s0 = pk_counts__set(c, 0), *s1 = pk_counts__set(c, 1);
	assert_true(s0->has_interval && s0->interval == 0.100376646);
	assert_true(fabs(s0->duration - 0.100376646) < 1e-15);
	assert_true(fabs(s1->duration - (0.200999550 - 0.100376646)) < 1e-15);
	assert_int_equal(s1->nr_records, 3);
	const struct pk_counts_record *r = pk_counts__record(c, s1->records[0]);
	assert_int_equal(r->status, PK_COUNTS_NOT_COUNTED);
	assert_true(pk_counts__raw(c, s1->records[0], NULL, NULL) == 0);
	pk_counts__free(c);

	/* -a -A: per CPU */
	c = read_fixture("perf61-sw-cpu.json");
	assert_int_equal(pk_counts__nr_sets(c), 2);
	assert_int_equal(pk_counts__set(c, 0)->aggr, PK_COUNTS_CPU);
	assert_string_equal(pk_counts__set(c, 1)->aggr_id, "1");
	assert_int_equal(pk_counts__set(c, 1)->nr_records, 2);
	assert_true(isnan(pk_counts__set(c, 1)->duration));
	pk_counts__free(c);

	/* --per-core -I: interval x core */
	c = read_fixture("perf61-sw-core-interval.json");
	assert_int_equal(pk_counts__nr_sets(c), 6);
	const struct pk_counts_set *s = pk_counts__set(c, 3);
	assert_int_equal(s->aggr, PK_COUNTS_CORE);
	assert_string_equal(s->aggr_id, "S0-D0-C1");
	assert_true(s->interval == 0.201358250);
	assert_int_equal(pk_counts__record(c, s->records[0])->aggr_nr, 1);
	pk_counts__free(c);

	/* --per-socket, -r */
	c = read_fixture("perf61-sw-socket.json");
	assert_int_equal(pk_counts__nr_sets(c), 1);
	assert_string_equal(pk_counts_aggr__name(pk_counts__set(c, 0)->aggr), "socket");
	assert_int_equal(pk_counts__record(c, 0)->aggr_nr, 2);
	pk_counts__free(c);
	c = read_fixture("perf61-sw-repeat.json");
	assert_true(pk_counts__record(c, 0)->variance == 6.92);
	pk_counts__free(c);

	/* perf's own metrics on those lines, from our counts */
	size_t n = perf_oracle("perf61-sw-interval.json", "faults_per_sec", "page-faults", 1e-3);
	n += perf_oracle("perf61-sw-cpu.json", "pf_per_sec", "page-faults", 1);
	n += perf_oracle("perf61-sw-core-interval.json", "cs_per_sec", "context-switches", 1);
	n += perf_oracle("perf61-sw-socket.json", "pf_per_sec", "page-faults", 1);
	/* (not -r: perf derives its shadow metrics there from other statistics than the means) */
	print_message("# %zu metric values equal perf 6.1's\n", n);
	assert_int_equal(n, 1 + 2 + 6 + 1);
}

/* --- units ------------------------------------------------------------------------------------------- */

static void test_units(void **state)
{
	(void)state;
	struct pk_counts *c = read_fixture("units.json");
	struct pk_metricgroup *mg = mg_new(cat, fx_model, "mem_gbs,br_ratio,ipc,ipc:u,cas_mib,pkg_joules",
					   skl, false);
	bool known;
	/* ScaleUnit 64Bytes of the table event: 64e6 Bytes printed, 1e6 counted */
	assert_string_equal(pk_counts__record(c, 0)->unit, "Bytes");
	assert_true(pk_counts__raw(c, 0, mg, &known) == 1e6 && known);
	/* without tables the scale is unknown: the printed value, flagged */
	assert_true(pk_counts__raw(c, 0, NULL, &known) == 64e6 && !known);
	/* a line without "unit" */
	assert_string_equal(pk_counts__record(c, 3)->unit, "");
	assert_true(pk_counts__raw(c, 3, mg, &known) == 1000 && known);
	/* sysfs .scale/.unit of the tree: MiB of cas_count_read, Joules of energy-pkg */
	assert_true(fabs(pk_counts__raw(c, 8, mg, &known) - 61.035156 / 6.103515625e-5) < 1e-6 && known);
	assert_true(fabs(pk_counts__raw(c, 9, mg, &known) - 12.5 / 2.3283064365386962890625e-10) < 1e-3);
	assert_true(known);
	assert_true(fabs(pk_counts__raw(c, 10, mg, &known) - 1.5e6) < 1e-9 && known);	/* msec */
	assert_true(pk_counts__raw(c, 11, mg, &known) == 5 && !known);		/* furlongs */
	/* perf 6.1's bare -nan metric value is read as null */
	assert_string_equal(pk_counts__record(c, 12)->event, "nan-metric");
	assert_true(pk_counts__raw(c, 99, mg, NULL) != pk_counts__raw(c, 99, mg, NULL));

	struct pk_metricgroup_value v[8];
	assert_int_equal(pk_counts__eval(c, 0, mg, v), 0);
	assert_true(fabs(v[metric_named(mg, "mem_gbs")].value - 1e6 * 64 / 1e9 / 2) < 1e-15);
	assert_true(isnan(v[metric_named(mg, "br_ratio")].value));	/* <not supported> */
	assert_true(v[metric_named(mg, "ipc")].value == 3);
	assert_true(v[metric_named(mg, "ipc:u")].value == 0);	/* <not counted> is 0 */
	assert_true(fabs(v[metric_named(mg, "cas_mib")].value - 61.035156) < 1e-6);
	assert_true(fabs(v[metric_named(mg, "pkg_joules")].value - 12.5) < 1e-9);
	pk_metricgroup__free(mg);
	pk_counts__free(c);
}

/* --- TopDown from counts files ------------------------------------------------------------------------ */

struct kv {
	const char *name;
	double v;
};

/* The value a set has for NAME, looked up here by exact printed name. */
static double rec(const struct pk_counts *c, const struct pk_counts_set *s, const char *name)
{
	for (size_t i = 0; i < s->nr_records; i++)
		if (!strcmp(pk_counts__record(c, s->records[i])->event, name))
			return pk_counts__record(c, s->records[i])->value;
	fail_msg("set lacks %s", name);
	return NAN;
}

static void check(struct pk_metricgroup *mg, const struct pk_metricgroup_value *v, const char *metric,
		  double want, const char *where)
{
	long k = metric_named(mg, metric);
	if (v[k].error || !(fabs(v[k].value - want) < 1e-12))
		fail_msg("%s: %s = %.17g (error %d), want %.17g", where, metric, v[k].value, v[k].error,
			 want);
	print_message("  %-10s %-28s %7.2f%s\n", where, metric, v[k].scaled, v[k].unit);
}

/* Ice Lake, -I: each interval's level 1 (PERF_METRICS) and level 2 (icl-metrics.json). */
static void test_icelake_intervals(void **state)
{
	(void)state;
	struct pk_catalog *bi;
	size_t icl;
	assert_int_equal(pk_catalog__open_builtin(&bi), 0);
	if (pk_catalog__find_model(bi, "icelake", &icl)) {
		print_message("# skipped: no icelake tables\n");
		pk_catalog__free(bi);
		return;
	}
	struct pk_counts *c = read_fixture("icelake-topdown.json");
	assert_int_equal(pk_counts__nr_sets(c), 2);
	assert_int_equal(pk_counts__nr_skipped(c), 2 + 2);	/* header, blank, 2 metric-only lines */
	struct pk_metricgroup *mg = mg_new(bi, icl, "TopdownL1,TopdownL2", NULL, true);
	assert_int_equal(pk_metricgroup__nr_metrics(mg), 12);
	for (size_t si = 0; si < 2; si++) {
		const struct pk_counts_set *s = pk_counts__set(c, si);
		struct pk_metricgroup_value v[12];
		assert_int_equal(pk_counts__eval(c, si, mg, v), 0);
		/* interval 2 prints slots and cpu/topdown-retiring/ as perf may */
		double slots = rec(c, s, si ? "slots" : "TOPDOWN.SLOTS");
		double tret = rec(c, s, si ? "cpu/topdown-retiring/" : "topdown-retiring");
#define R(n) rec(c, s, n)
		double sum = R("topdown-fe-bound") + R("topdown-bad-spec") + tret + R("topdown-be-bound");
		double ret = tret / sum;
		double fe = R("topdown-fe-bound") / sum - R("INT_MISC.UOP_DROPPING") / slots;
		double be = R("topdown-be-bound") / sum + 5 * R("INT_MISC.CLEARS_COUNT") / slots;
		double bad = maxd(1 - (fe + be + ret), 0);
		double ms = R("UOPS_RETIRED.SLOTS") / R("UOPS_ISSUED.ANY") * R("IDQ.MS_UOPS") / slots;
		double heavy = ms + ret * (R("UOPS_DECODED.DEC0") - R("cpu/UOPS_DECODED.DEC0,cmask=1/")) /
					    R("IDQ.MITE_UOPS");
		double brm = R("BR_MISP_RETIRED.ALL_BRANCHES") /
			     (R("BR_MISP_RETIRED.ALL_BRANCHES") + R("MACHINE_CLEARS.COUNT")) * bad;
		double flat = (5 * R("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE") -
			       R("INT_MISC.UOP_DROPPING")) / slots;
		double mem = (R("CYCLE_ACTIVITY.STALLS_MEM_ANY") + R("EXE_ACTIVITY.BOUND_ON_STORES")) /
			     (R("CYCLE_ACTIVITY.STALLS_TOTAL") +
			      (R("EXE_ACTIVITY.1_PORTS_UTIL") + ret * R("EXE_ACTIVITY.2_PORTS_UTIL")) +
			      R("EXE_ACTIVITY.BOUND_ON_STORES")) * be;
#undef R
		char where[32];
		snprintf(where, sizeof(where), "t=%.3f", s->interval);
		check(mg, v, "tma_retiring", ret, where);
		check(mg, v, "tma_bad_speculation", bad, where);
		check(mg, v, "tma_frontend_bound", fe, where);
		check(mg, v, "tma_backend_bound", be, where);
		check(mg, v, "tma_heavy_operations", heavy, where);
		check(mg, v, "tma_light_operations", maxd(0, ret - heavy), where);
		check(mg, v, "tma_branch_mispredicts", brm, where);
		check(mg, v, "tma_machine_clears", maxd(0, bad - brm), where);
		check(mg, v, "tma_fetch_latency", flat, where);
		check(mg, v, "tma_fetch_bandwidth", maxd(0, fe - flat), where);
		check(mg, v, "tma_memory_bound", mem, where);
		check(mg, v, "tma_core_bound", maxd(0, be - mem), where);
	}
	pk_metricgroup__free(mg);
	pk_counts__free(c);
	pk_catalog__free(bi);
}

static int smt_facts(void *ctx, const struct pk_mexpr_id *id, double *v)
{
	(void)ctx;
	if (id->kind == PK_MEXPR_ID_LITERAL &&
	    (id->literal == PK_MEXPR_LIT_SMT_ON || id->literal == PK_MEXPR_LIT_CORE_WIDE)) {
		*v = 1;
		return 0;
	}
	return -ENOENT;
}

/* Core 1 of skylake-per-core.json prints its events as cpu/NAME/. */
static double rec_core(const struct pk_counts *c, const struct pk_counts_set *s, size_t core,
		       const char *event)
{
	char n[128];
	snprintf(n, sizeof(n), "%s%s%s", core ? "cpu/" : "", event, core ? "/" : "");
	return rec(c, s, n);
}

/* Skylake --per-core: two cores (the second printed as cpu/NAME/), duration_time under one. */
static void test_skylake_per_core(void **state)
{
	(void)state;
	struct pk_catalog *bi;
	size_t sk;
	assert_int_equal(pk_catalog__open_builtin(&bi), 0);
	if (pk_catalog__find_model(bi, "skylake", &sk)) {
		print_message("# skipped: no skylake tables\n");
		pk_catalog__free(bi);
		return;
	}
	struct pk_counts *c = read_fixture("skylake-per-core.json");
	assert_int_equal(pk_counts__nr_sets(c), 2);
	struct pk_metricgroup_opts o = { .sz = sizeof(o), .no_threshold = true, .consts = smt_facts };
	struct pk_metricgroup *mg;
	const char *list = "TopdownL1,tma_info_thread_ipc,tma_info_system_kernel_utilization,"
			   "tma_info_system_turbo_utilization";
	assert_int_equal(pk_metricgroup__new(&mg, bi, sk, list, &o, NULL), 0);
	for (size_t si = 0; si < 2; si++) {
		const struct pk_counts_set *s = pk_counts__set(c, si);
		struct pk_metricgroup_value v[16];
		assert_int_equal(pk_counts__eval(c, si, mg, v), 0);
#define R(e) rec_core(c, s, si, e)
		double slots = 4 * (R("CPU_CLK_UNHALTED.THREAD_ANY") / 2);
		double recov = 4 * (R("INT_MISC.RECOVERY_CYCLES_ANY") / 2);
		double fe = R("IDQ_UOPS_NOT_DELIVERED.CORE") / slots;
		double bad = (R("UOPS_ISSUED.ANY") - R("UOPS_RETIRED.RETIRE_SLOTS") + recov) / slots;
		double ret = R("UOPS_RETIRED.RETIRE_SLOTS") / slots;
		double be = 1 - fe - (R("UOPS_ISSUED.ANY") + recov) / slots;
		double ipc = R("INST_RETIRED.ANY") / R("CPU_CLK_UNHALTED.THREAD");
		double kern = rec(c, s, si ? "cpu/CPU_CLK_UNHALTED.THREAD_P/k" : "CPU_CLK_UNHALTED.THREAD_P:k") /
			      R("CPU_CLK_UNHALTED.THREAD");
#undef R
		const char *where = s->aggr_id;
		check(mg, v, "tma_retiring", ret, where);
		check(mg, v, "tma_bad_speculation", bad, where);
		check(mg, v, "tma_frontend_bound", fe, where);
		check(mg, v, "tma_backend_bound", be, where);
		check(mg, v, "tma_info_thread_ipc", ipc, where);
		check(mg, v, "tma_info_system_kernel_utilization", kern, where);
		/* REF_TSC is in neither set: NaN, not an error */
		long t = metric_named(mg, "tma_info_system_turbo_utilization");
		assert_true(isnan(v[t].value));
		assert_int_equal(v[t].error, 0);
	}
	pk_metricgroup__free(mg);
	pk_counts__free(c);

	/* duration_time printed under core C0 only serves C1 of the same (absent) interval */
	c = read_fixture("skylake-per-core.json");
	struct pk_metricgroup *d = mg_new(cat, fx_model, "mem_gbs", NULL, false);
	const char *fake = "{\"core\" : \"S0-D0-C1\", \"counter-value\" : \"64000000\", \"unit\" : "
			   "\"Bytes\", \"event\" : \"MEM_BW.LINES\"}\n"
			   "{\"core\" : \"S0-D0-C0\", \"counter-value\" : \"250000000\", \"unit\" : "
			   "\"ns\", \"event\" : \"duration_time\"}\n";
	struct pk_counts *f;
	assert_int_equal(pk_counts__parse(&f, fake, strlen(fake), "fake", NULL), 0);
	struct pk_metricgroup_value v;
	assert_int_equal(pk_counts__eval(f, 0, d, &v), 0);
	assert_true(fabs(v.value - 1e6 * 64 / 1e9 / 0.25) < 1e-12);
	pk_counts__free(f);
	/* with -I and no duration_time at all: the interval's length */
	fake = "{\"interval\" : 1.0, \"counter-value\" : \"64000000\", \"unit\" : \"Bytes\", "
	       "\"event\" : \"MEM_BW.LINES\"}\n"
	       "{\"interval\" : 1.5, \"counter-value\" : \"64000000\", \"unit\" : \"Bytes\", "
	       "\"event\" : \"MEM_BW.LINES\"}\n";
	assert_int_equal(pk_counts__parse(&f, fake, strlen(fake), "fake", NULL), 0);
	assert_int_equal(pk_counts__eval(f, 1, d, &v), 0);
	assert_true(fabs(v.value - 1e6 * 64 / 1e9 / 0.5) < 1e-12);
	pk_counts__free(f);
	pk_metricgroup__free(d);
	pk_counts__free(c);
	pk_catalog__free(bi);
}

/* --- malformed input -------------------------------------------------------------------------------- */

static void bad_input(const char *text, unsigned line, unsigned col, const char *msg)
{
	struct pk_counts *c = (void *)1;
	struct pk_error err = { 0 };
	char buf[1024];
	int rc = pk_counts__parse(&c, text, strlen(text), "in.json", &err);
	if (rc != -EINVAL || c || err.line != line || err.column != col || !strstr(err.msg, msg))
		fail_msg("'%s': rc %d at %u:%u '%s', want %u:%u '%s'", text, rc, err.line, err.column,
			 err.msg, line, col, msg);
	assert_non_null(strstr(pk_error__format(&err, buf, sizeof(buf)), "in.json:"));
}

static void test_errors(void **state)
{
	(void)state;
	bad_input("not json", 1, 2, "not a JSON line");	/* json-c stops after "n" */
	bad_input("\n\n  [1, 2]", 3, 3, "expected a JSON object");
	bad_input("{\"event\" : \"x\"}", 1, 2, "needs \"counter-value\"");
	bad_input("{\"event\" : \"x\", \"counter-value\" : \"12abc\"}", 1, 17, "\"counter-value\" must be");
	bad_input("{\"event\" : \"x\", \"counter-value\" : [1]}", 1, 17, "\"counter-value\" must be");
	bad_input("{\"event\" : \"x\", \"counter-value\" : null}", 1, 17, "null");
	bad_input("{\"event\" : 3, \"counter-value\" : \"1\"}", 1, 2, "\"event\" must be a string");
	bad_input("{\"event\" : \"x\", \"counter-value\" : \"1\"} junk", 1, 40, "not a JSON line");
	bad_input("{\"event\" : \"x\", \"counter-value\" : \"1\"", 1, 38, "unexpected end");
	bad_input("{\"interval\" : \"soon\", \"event\" : \"x\", \"counter-value\" : \"1\"}", 1, 2,
		  "\"interval\" must be a number");
	bad_input("{\"aggregate-number\" : -2, \"event\" : \"x\", \"counter-value\" : \"1\"}", 1, 2,
		  "\"aggregate-number\" must be a count");
	bad_input("{\"cpu\" : {}, \"event\" : \"x\", \"counter-value\" : \"1\"}", 1, 2,
		  "\"cpu\" must be a string");
	bad_input("{\"event\" : \"x\", \"counter-value\" : \"1\"}\n{\"event\" : \"y\", \"unit\" : 5, "
		  "\"counter-value\" : \"1\"}", 2, 17, "\"unit\" must be a string");
	/* values no counter has, and files mixing what perf never mixes */
	bad_input("{\"event\" : \"x\", \"counter-value\" : \"1e999\"}", 1, 17, "finite count >= 0, not \"1e999\"");
	bad_input("{\"event\" : \"x\", \"counter-value\" : \"-5\"}", 1, 17, "finite count >= 0");
	bad_input("{\"event\" : \"x\", \"counter-value\" : \"NaN\"}", 1, 17, "finite count >= 0");
	bad_input("{\"event\" : \"x\", \"counter-value\" : \"1\", \"event-runtime\" : -3}", 1, 40,
		  "\"event-runtime\" must be a finite number >= 0");
	bad_input("{\"cpu\" : \"-1\", \"event\" : \"x\", \"counter-value\" : \"1\"}", 1, 2,
		  "\"cpu\" must be a CPU number, not \"-1\"");
	bad_input("{\"event\" : \"a\\u0000b\", \"counter-value\" : \"1\"}", 1, 2, "holds a NUL");
	bad_input("{\"interval\" : 1.0, \"event\" : \"x\", \"counter-value\" : \"1\"}\n"
		  "{\"event\" : \"x\", \"counter-value\" : \"1\"}", 2, 2,
		  "interval and total counts mixed in one file");
	const char nul[] = "{\"event\" : \"x\", \"counter-value\" : \"1\"}\n{\"ev\0";
	struct pk_counts *c;
	struct pk_error err;
	assert_int_equal(pk_counts__parse(&c, nul, sizeof(nul) - 1, NULL, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 5);

	/* accepted: CRLF, numbers as JSON numbers, "cpu" as a number, no trailing newline, nothing */
	const char *ok = "{\"cpu\" : 3, \"event\" : \"x\", \"counter-value\" : 7}\r\n"
			 "{\"metric-value\" : \"none\"}\r\n{}";
	assert_int_equal(pk_counts__parse(&c, ok, strlen(ok), NULL, &err), 0);
	assert_int_equal(pk_counts__nr_records(c), 1);
	assert_int_equal(pk_counts__nr_skipped(c), 2);
	assert_string_equal(pk_counts__record(c, 0)->aggr_id, "3");
	assert_true(pk_counts__record(c, 0)->value == 7);
	pk_counts__free(c);
	assert_int_equal(pk_counts__parse(&c, "", 0, NULL, &err), 0);
	assert_int_equal(pk_counts__nr_sets(c), 0);
	assert_null(pk_counts__set(c, 0));
	assert_null(pk_counts__record(c, 0));
	pk_counts__free(c);
	assert_int_equal(pk_counts__read(&c, "/nonexistent/counts.json", &err), -ENOENT);
	assert_string_equal(err.file, "/nonexistent/counts.json");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf61_plain),
		cmocka_unit_test(test_perf61_aggregations),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_icelake_intervals),
		cmocka_unit_test(test_skylake_per_core),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests_name("countsfile", tests, setup, teardown);
}
