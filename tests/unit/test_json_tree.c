/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_json_tree.c — ir_tree__load() over the hand-written tree in
 * tests/fixtures/arch (x86 plain and hybrid models, arm64 standard events and
 * a sys model, powerpc) and the malformed inputs in tests/fixtures/bad: every
 * jevents translation rule with its exact encoding or description, the walk,
 * mapfiles, only_arch/only_model, determinism across thread counts, and each
 * error with its file, line, column and message. Fixtures are found through
 * PMUKIT_SRC (default "."); the real tree through PMUKIT_ARCH_DIR (optional).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/ir.h"
#include "events/json_event.h"

static const char *src_dir(void)
{
	const char *s = getenv("PMUKIT_SRC");
	return s && *s ? s : ".";
}

static void fixture(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/tests/fixtures/%s", src_dir(), rel);
}

static int load(struct ir_tree *t, const char *rel, const char *arch, const char *model,
		int threads, struct pk_error *err)
{
	char root[1024];
	struct ir_load_opts o = { .only_arch = arch, .only_model = model, .threads = threads };
	fixture(root, sizeof(root), rel);
	memset(err, 0, sizeof(*err));
	return ir_tree__load(t, root, &o, err);
}

static const struct ir_model *model(const struct ir_tree *t, const char *arch, const char *name)
{
	for (size_t i = 0; i < t->nr_models; i++)
		if (!strcmp(t->models[i].arch, arch) && !strcmp(t->models[i].name, name))
			return &t->models[i];
	fail_msg("no model %s/%s", arch, name);
	return NULL;
}

static const struct ir_event *event(const struct ir_model *m, const char *name, const char *pmu)
{
	for (size_t i = 0; i < m->nr_events; i++)
		if (!strcmp(m->events[i].name, name) && (!pmu || !strcmp(m->events[i].pmu, pmu)))
			return &m->events[i];
	fail_msg("no event %s in %s", name, m->name);
	return NULL;
}

static const struct ir_metric *metric(const struct ir_model *m, const char *name)
{
	for (size_t i = 0; i < m->nr_metrics; i++)
		if (!strcmp(m->metrics[i].name, name))
			return &m->metrics[i];
	fail_msg("no metric %s in %s", name, m->name);
	return NULL;
}

#define assert_null_str(x) assert_null((const void *)(x))

static int setup(void **state)
{
	struct ir_tree *t = calloc(1, sizeof(*t));
	struct pk_error err;
	assert_non_null(t);
	int rc = load(t, "arch", NULL, NULL, 2, &err);
	if (rc) {
		char buf[1024];
		fprintf(stderr, "load: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	ir_tree__free(*state);
	free(*state);
	return 0;
}

/* ---- helpers ------------------------------------------------------------ */

static void test_key_table(void **state)
{
	(void)state;
	static const char *const known[] = {
		"AggregationMode", "ArchStdEvent", "BriefDescript6ion", "BriefDescription",
		"CountersNumFixed", "Data_LA", "EventCode", "EventName", "EventidCode",
		"ExtSel", "MSRIndex", "MSRValue", "MetricgroupNoGroup", "PublicDescrition",
		"PublicDescription", "ThreadMask", "UMask", "Unit",
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		assert_true(json_key__lookup(known[i]) >= 0);
	assert_int_equal(json_key__lookup("EventNmae"), -1);
	assert_int_equal(json_key__lookup("umask"), -1);
	assert_int_equal(json_key__lookup(""), -1);
}

static void test_py_int(void **state)
{
	(void)state;
	bool neg;
	unsigned long long v;
#define OK(s, base, want_neg, want)                                        \
	do {                                                               \
		assert_true(json_py_int(s, strlen(s), base, &neg, &v));    \
		assert_int_equal(neg, want_neg);                           \
		assert_int_equal(v, want);                                 \
	} while (0)
#define BAD(s, base) assert_false(json_py_int(s, strlen(s), base, &neg, &v))
	OK("0x1A", 0, false, 0x1a);
	OK("0XB7", 0, false, 0xb7);
	OK(" 0x_1f ", 16, false, 0x1f);
	OK("0o17", 0, false, 15);
	OK("0b101", 0, false, 5);
	OK("00", 0, false, 0);
	OK("-0", 10, false, 0);
	OK("-12", 10, true, 12);
	OK("010", 10, false, 10);
	OK("1_000", 10, false, 1000);
	OK("ff", 16, false, 255);
	OK("0xffffffffffffffff", 0, false, 0xffffffffffffffffull);
	BAD("010", 0);
	BAD("", 0);
	BAD("0x", 16);
	BAD("1__0", 10);
	BAD("_1", 10);
	BAD("1_", 10);
	BAD("0x1A", 10);
	BAD("0xZZ", 16);
	BAD("0x10000000000000000", 0);
#undef OK
#undef BAD
	char buf[32];
	assert_int_equal(json_fmt_llx(buf, false, 9), 1);
	assert_string_equal(buf, "9");
	json_fmt_llx(buf, false, 10);
	assert_string_equal(buf, "0xa");
	json_fmt_llx(buf, true, 5);
	assert_string_equal(buf, "-0x5");
	json_fmt_num(buf, false, 2000003, false);
	assert_string_equal(buf, "2000003");
}

/* ---- the walk ----------------------------------------------------------- */

static void test_models_and_maps(void **state)
{
	const struct ir_tree *t = *state;
	static const char *const names[][2] = {
		{ "arm64", "acme/soc9/sys" }, { "arm64", "acme/widget-1" },
		{ "powerpc", "pw1" },	      { "x86", "alpha" },
		{ "x86", "beta" },
	};
	/* sorted; "test" skipped; acme/deep/a/b/c is 5 levels down: ignored */
	assert_int_equal(t->nr_models, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(t->models[i].arch, names[i][0]);
		assert_string_equal(t->models[i].name, names[i][1]);
		assert_int_equal(t->models[i].sys, i == 0);
	}
	assert_int_equal(t->nr_maps, 6);
	/* header, comments and empty lines skipped; CR LF accepted */
	assert_string_equal(t->maps[0].arch, "arm64");
	assert_string_equal(t->maps[0].cpuid, "0x00000000410fd080");
	assert_string_equal(t->maps[0].type, "core");
	assert_string_equal(t->maps[0].dir, "acme/widget-1");
	assert_int_equal(t->maps[0].model, 1);
	assert_string_equal(t->maps[2].cpuid, "0x004[bcd][[:xdigit:]]{4}");
	assert_int_equal(t->maps[2].model, 2);
	assert_string_equal(t->maps[4].cpuid, "GenuineIntel-6-(1A|1E)");
	assert_string_equal(t->maps[4].version, "v1");
	assert_int_equal(t->maps[4].model, 3);
	assert_string_equal(t->maps[5].cpuid, "GenuineIntel-6-9[AB]");
	assert_int_equal(t->maps[5].model, 4);
	/* events in file order (files by name), entries without a name dropped */
	const struct ir_model *a = model(t, "x86", "alpha");
	assert_int_equal(a->nr_events, 18);
	assert_string_equal(a->events[0].name, "l1d.miss_loads");
	assert_string_equal(a->events[0].file, "x86/alpha/cache.json");
	assert_string_equal(a->events[5].name, "inst_retired.any");
	assert_string_equal(a->events[16].name, "empty_unit_event");
	assert_string_equal(a->events[17].name, "unc_iio_both_codes");
	assert_int_equal(a->nr_metrics, 4);
}

static void test_topics(void **state)
{
	const struct ir_model *a = model(*state, "x86", "alpha");
	assert_string_equal(event(a, "l1d.miss_loads", NULL)->topic, "cache");
	assert_string_equal(event(a, "unc_m_clockticks", NULL)->topic, "uncore memory");
	const struct ir_model *s = model(*state, "arm64", "acme/soc9/sys");
	assert_string_equal(s->events[0].topic, "ddr");
	assert_true(s->sys);
	/* an event in "pw1-metrics.json" has the topic "metrics" */
	const struct ir_model *p = model(*state, "powerpc", "pw1");
	assert_string_equal(event(p, "pm_run_cyc", NULL)->topic, "metrics");
	assert_string_equal(event(p, "pm_cyc", NULL)->topic, "other");
}

/* ---- encodings ---------------------------------------------------------- */

static void expect_enc(const struct ir_model *m, const char *name, const char *pmu,
		       const char *enc)
{
	assert_string_equal(event(m, name, pmu)->encoding, enc);
}

static void test_encodings_core(void **state)
{
	const struct ir_model *a = model(*state, "x86", "alpha");
	/* zero-padded hex canonicalized; 0..9 in decimal */
	expect_enc(a, "l1d.miss_loads", NULL, "event=0x51,period=100003,umask=1");
	/* the field order; Invert "0" skipped */
	expect_enc(a, "uops_dispatched.core_ge_2", NULL,
		   "event=0xa1,any=1,cmask=2,edge=1,period=2000003,umask=0xff");
	/* "0XCA" | ExtSel << 8; "0x07" -> 7; PortMask 0 skipped; "010" -> 10 */
	expect_enc(a, "fp_assist.any", NULL, "event=0x1ca,fc_mask=7,inv=1,period=10,umask=0x1e");
	/* a well-known event keeps perf's fixed encoding */
	expect_enc(a, "inst_retired.any", NULL, "event=0xc0,period=2000003");
	expect_enc(a, "cpu_clk_unhalted.thread_p", NULL, "event=0x3c,period=2000003");
	const struct ir_model *b = model(*state, "x86", "beta");
	expect_enc(b, "cpu_clk_unhalted.ref", "cpu_atom", "event=0x0,umask=0x03,period=2000003");
}

static void test_encodings_msr(void **state)
{
	const struct ir_model *a = model(*state, "x86", "alpha");
	/* first EventCode of a list; offcore_rsp with the MSRValue as written */
	expect_enc(a, "ocr.demand_read.remote", NULL,
		   "event=0xb7,period=100003,umask=1,offcore_rsp=0x3FC0000001");
	expect_enc(a, "mem_trans_retired.load_latency_gt_32", NULL,
		   "event=0xcd,period=100,umask=1,ldlat=0x20");
	/* MSRIndex without MSRValue: perf prints Python's None */
	expect_enc(a, "mem_inst_retired.latency_above_threshold_0", NULL,
		   "event=0xb,period=2000000,umask=0x10,ldlat=None");
	const struct ir_model *b = model(*state, "x86", "beta");
	expect_enc(b, "frontend_retired.itlb_miss", "cpu_core",
		   "event=0xc6,period=100007,umask=1,frontend=0x14");
	/* integer MSRValue (and Counter) accepted, formatted in decimal */
	expect_enc(b, "ocr.demand_data_rd.any_response", "cpu_atom",
		   "event=0x2a,period=100003,umask=1,offcore_rsp=65537");
}

static void test_encodings_uncore(void **state)
{
	const struct ir_model *a = model(*state, "x86", "alpha");
	expect_enc(a, "unc_m_clockticks", "uncore_imc", "event=0");
	expect_enc(a, "unc_m_cas_count.rd", "uncore_imc", "event=4,umask=0xf");
	/* Filter appended after the fields */
	expect_enc(a, "unc_cbo_cache_lookup.any_mesi", "uncore_cbox",
		   "event=0x34,umask=0x11,filter_state=0x1f");
	/* ConfigCode wins over EventCode, and over EventidCode; an empty Filter adds nothing */
	expect_enc(a, "unc_iio_data_req.part0", "uncore_iio",
		   "config=0xc,ch_mask=1,fc_mask=4,umask=1");
	expect_enc(a, "unc_iio_both_codes", "uncore_iio", "config=3");
	expect_enc(a, "unc_pcie_reads", "uncore_pcie", "eventid=0x2a,type=5");
	expect_enc(a, "unc_l3_lookup.all", "amd_l3",
		   "event=0x10,umask=0xff,rdwrmask=2,enallcores=1,enallslices=1,sliceid=3,"
		   "threadmask=3");
	const struct ir_model *p = model(*state, "powerpc", "pw1");
	expect_enc(p, "pm_1plus_ppc_cmpl", NULL, "event=0x100f2");
	expect_enc(p, "pm_inst_cmpl", NULL, "event=2");
}

static void test_units(void **state)
{
	const struct ir_model *a = model(*state, "x86", "alpha");
	assert_string_equal(event(a, "l1d.miss_loads", NULL)->pmu, "default_core");
	assert_string_equal(event(a, "empty_unit_event", NULL)->pmu, "default_core");
	assert_string_equal(event(a, "unc_m_clockticks", NULL)->pmu, "uncore_imc");
	assert_string_equal(event(a, "unc_cbo_cache_lookup.any_mesi", NULL)->pmu, "uncore_cbox");
	assert_string_equal(event(a, "unc_l3_lookup.all", NULL)->pmu, "amd_l3");
	const struct ir_model *s = model(*state, "arm64", "acme/soc9/sys");
	assert_string_equal(event(s, "soc9_ddr.read_cycles", NULL)->pmu, "imx9_ddr");
	assert_string_equal(event(s, "soc9_ddr.write_cycles", NULL)->pmu, "uncore_soc9_ddr");
	/* hybrid: one name on two PMUs is not a duplicate */
	const struct ir_model *b = model(*state, "x86", "beta");
	assert_string_equal(event(b, "l2_rqsts.miss", "cpu_core")->desc,
			    "Second-level cache misses on the performance cores");
	assert_string_equal(event(b, "l2_rqsts.miss", "cpu_atom")->desc,
			    "Second-level cache misses on the efficiency cores");
}

/* ---- descriptions and flags --------------------------------------------- */

static void test_descriptions(void **state)
{
	const struct ir_model *a = model(*state, "x86", "alpha");
	const struct ir_event *e = event(a, "l1d.miss_loads", NULL);
	/* trailing ".  " and ". " removed */
	assert_string_equal(e->desc, "Loads that miss the first-level cache");
	assert_string_equal(e->long_desc,
			    "Counts load operations that miss in the first-level data cache");
	e = event(a, "mem_trans_retired.load_latency_gt_32", NULL);
	assert_string_equal(e->desc, "Loads with latency above 32 cycles  Supports address when "
				     "precise (Must be precise)");
	assert_null_str(e->long_desc);
	e = event(a, "mem_inst_retired.latency_above_threshold_0", NULL);
	assert_string_equal(e->desc,
			    "Loads above the programmed latency threshold (Precise Event)");
	e = event(a, "mem_load_retired.l2_hit", NULL);
	assert_string_equal(e->desc, "Retired loads that hit the second-level cache  Supports "
				     "address when precise.  Spec update: AB123, AB124 (Precise "
				     "event)");
	assert_string_equal(e->long_desc, "Counts retired load instructions whose data hit the "
					  "second-level cache  Supports address when precise.  "
					  "Spec update: AB123, AB124 (Precise event)");
	e = event(a, "br_inst_retired.all_branches", NULL);
	assert_string_equal(e->desc, "Branch instructions retired (Precise event)");
	assert_ptr_equal(e->long_desc, e->desc); /* equal descriptions are stored once */
	assert_null_str(event(a, "unc_m_clockticks", NULL)->long_desc);
	assert_string_equal(event(a, "unc_m_cas_count.rd", NULL)->unit, "64Bytes");
}

static void test_flags(void **state)
{
	const struct ir_model *a = model(*state, "x86", "alpha");
	assert_true(event(a, "fp_assist.any", NULL)->deprecated);
	assert_false(event(a, "l1d.miss_loads", NULL)->deprecated);
	assert_true(event(a, "unc_m_clockticks", NULL)->perpkg);
	assert_false(event(a, "empty_unit_event", NULL)->perpkg);
	assert_true(event(a, "br_inst_retired.all_branches", NULL)->experimental);
	assert_false(event(a, "fp_assist.any", NULL)->experimental);
}

/* ---- metrics and groups ------------------------------------------------- */

static void test_metrics(void **state)
{
	const struct ir_model *a = model(*state, "x86", "alpha");
	const struct ir_metric *m = metric(a, "IPC");
	assert_string_equal(m->expr, "INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD_P");
	assert_string_equal(m->threshold, "IPC < 0.5");
	assert_string_equal(m->groups, "Summary;Ret");
	assert_string_equal(m->desc, "Instructions per cycle");
	assert_string_equal(m->unit, "1per_cycle");
	assert_string_equal(m->pmu, "default_core");
	assert_string_equal(m->file, "x86/alpha/alpha-metrics.json");
	m = metric(a, "tma_backend_bound");
	assert_string_equal(m->nogroup, "TopdownL1");
	assert_string_equal(m->default_group, "TopdownL1");
	assert_int_equal(m->grouping, 2);
	assert_int_equal(m->aggr_mode, 0);
	assert_string_equal(m->long_desc, "Fraction of issue slots where no uop was delivered "
					  "because the back end was busy");
	m = metric(a, "pkg_power");
	assert_int_equal(m->aggr_mode, 1);
	assert_int_equal(m->grouping, 2); /* NO_NMI_WATCHDOG */
	assert_string_equal(m->expr, "power@energy\\-pkg@ / duration_time");
	assert_null_str(m->groups);
	/* an entry with EventName and MetricName is both */
	m = metric(a, "read_bytes");
	assert_string_equal(m->pmu, "uncore_imc");
	assert_string_equal(m->expr, "UNC_M_CAS_COUNT.RD * 64");
	assert_string_equal(event(a, "unc_m_cas_count.rd", NULL)->encoding, "event=4,umask=0xf");
	assert_int_equal(a->nr_groups, 3);
	assert_string_equal(a->groups[0].name, "Summary");
	assert_string_equal(a->groups[0].desc, "Headline numbers");
	assert_string_equal(a->groups[2].name, "TopdownL1");
	assert_string_equal(a->groups[2].desc, "Top-down level 1");
	assert_int_equal(model(*state, "x86", "beta")->nr_groups, 0);
}

/* ---- arm64: standard events, sys ---------------------------------------- */

static void test_arch_std(void **state)
{
	const struct ir_model *w = model(*state, "arm64", "acme/widget-1");
	const struct ir_event *e = event(w, "inst_retired", NULL);
	assert_string_equal(e->encoding, "event=8");
	assert_string_equal(e->desc, "Instructions architecturally executed");
	assert_string_equal(e->long_desc, "Counts retired instructions architecturally executed");
	assert_string_equal(e->topic, "pipeline");
	/* lookup is case-insensitive; an own PublicDescription is kept */
	e = event(w, "cpu_cycles", NULL);
	assert_string_equal(e->encoding, "event=0x11");
	assert_string_equal(e->desc, "Cycles");
	assert_string_equal(e->long_desc, "Counts core clock cycles of the widget");
	/* the standard encoding replaces an own EventCode; the own Unit stays; of two
	 * standard definitions of one name the later one counts */
	e = event(w, "l1d_cache_refill_rd", NULL);
	assert_string_equal(e->encoding, "event=0x42");
	assert_string_equal(e->desc, "Level 1 data cache refill, read (second definition)");
	assert_string_equal(e->pmu, "uncore_armv8_pmuv3_0");
	/* standard metric: expression, unit, description inherited, own group kept */
	const struct ir_metric *m = metric(w, "ipc");
	assert_string_equal(m->expr, "INST_RETIRED / CPU_CYCLES");
	assert_string_equal(m->unit, "1per_cycle");
	assert_string_equal(m->desc, "Instructions per cycle");
	assert_string_equal(m->groups, "Widget");
	assert_int_equal(w->nr_events, 4);
}

static void test_sys_model(void **state)
{
	const struct ir_model *s = model(*state, "arm64", "acme/soc9/sys");
	assert_true(s->sys);
	assert_int_equal(s->nr_events, 2);
	assert_string_equal(s->events[0].compat, "soc9-ddr");
	const struct ir_metric *m = metric(s, "soc9_ddr_read.bytes");
	assert_string_equal(m->compat, "soc9-ddr");
	assert_string_equal(m->pmu, "imx9_ddr");
	assert_null_str(event(model(*state, "x86", "alpha"), "l1d.miss_loads", NULL)->compat);
}

/* ---- options and determinism ------------------------------------------- */

static void test_only_model(void **state)
{
	(void)state;
	struct ir_tree t;
	struct pk_error err;
	assert_int_equal(load(&t, "arch", "arm64", "acme/widget-1", 1, &err), 0);
	assert_int_equal(t.nr_models, 1);
	assert_string_equal(t.models[0].name, "acme/widget-1");
	/* the standard events are still read */
	assert_string_equal(event(&t.models[0], "inst_retired", NULL)->encoding, "event=8");
	assert_int_equal(t.nr_maps, 2);
	assert_int_equal(t.maps[1].model, 0);
	ir_tree__free(&t);

	assert_int_equal(load(&t, "arch", "x86", NULL, 0, &err), 0);
	assert_int_equal(t.nr_models, 2);
	assert_int_equal(t.nr_maps, 2);
	ir_tree__free(&t);

	assert_int_equal(load(&t, "arch", "x86", "gamma", 1, &err), -ENOENT);
	assert_string_equal(err.msg, "no model directory \"gamma\"");
	assert_int_equal(t.nr_models, 0);
	assert_int_equal(load(&t, "arch", "sparc", NULL, 1, &err), -ENOENT);
	assert_string_equal(err.msg, "no arch directory \"sparc\"");
	assert_int_equal(load(&t, "no-such-tree", NULL, NULL, 1, &err), -ENOENT);
	assert_string_equal(err.msg, "cannot open directory: No such file or directory");

	/* a model without an arch: looked for in every arch */
	assert_int_equal(load(&t, "arch", NULL, "pw1", 1, &err), 0);
	assert_int_equal(t.nr_models, 1);
	assert_string_equal(t.models[0].arch, "powerpc");
	assert_int_equal(t.nr_maps, 2);
	ir_tree__free(&t);
	assert_int_equal(load(&t, "arch", NULL, "gamma", 1, &err), -ENOENT);
	assert_string_equal(err.msg, "no model directory \"gamma\" in any arch");
}

static void same_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void test_threads_deterministic(void **state)
{
	const struct ir_tree *ref = *state;
	for (int nt = 1; nt <= 8; nt *= 8) {
		struct ir_tree t;
		struct pk_error err;
		assert_int_equal(load(&t, "arch", NULL, NULL, nt, &err), 0);
		assert_int_equal(t.nr_models, ref->nr_models);
		for (size_t i = 0; i < t.nr_models; i++) {
			const struct ir_model *x = &t.models[i], *y = &ref->models[i];
			assert_int_equal(x->nr_events, y->nr_events);
			assert_int_equal(x->nr_metrics, y->nr_metrics);
			for (size_t k = 0; k < x->nr_events; k++) {
				same_str(x->events[k].name, y->events[k].name);
				same_str(x->events[k].pmu, y->events[k].pmu);
				same_str(x->events[k].encoding, y->events[k].encoding);
				same_str(x->events[k].desc, y->events[k].desc);
				same_str(x->events[k].long_desc, y->events[k].long_desc);
			}
			for (size_t k = 0; k < x->nr_metrics; k++)
				same_str(x->metrics[k].name, y->metrics[k].name);
		}
		ir_tree__free(&t);
	}
}

/* ---- errors --------------------------------------------------------------- */

static void expect_error(const char *arch, int code, const char *file, unsigned line,
			 unsigned col, const char *msg)
{
	struct ir_tree t;
	struct pk_error err;
	char path[1024], rel[256];
	snprintf(rel, sizeof(rel), "bad/%s", file);
	fixture(path, sizeof(path), rel);
	int rc = load(&t, "bad", arch, NULL, 2, &err);
	if (rc != code || strcmp(err.file, path) || err.line != line || err.column != col ||
	    strcmp(err.msg, msg))
		fail_msg("%s: got %d %s:%u:%u: %s", arch, rc, err.file, err.line, err.column,
			 err.msg);
	assert_int_equal(t.nr_models, 0); /* the tree is left empty */
	assert_null(t.models);
}

static void test_errors_json(void **state)
{
	(void)state;
	expect_error("syntax", -EINVAL, "syntax/m/a.json", 4, 9,
		     "invalid JSON: object value separator ',' expected");
	expect_error("truncated", -EINVAL, "truncated/m/a.json", 4, 1,
		     "invalid JSON: unexpected end of data");
	expect_error("trailing", -EINVAL, "trailing/m/a.json", 5, 3,
		     "invalid JSON: unexpected character");
	expect_error("utf8", -EINVAL, "utf8/m/a.json", 4, 33, "invalid UTF-8");
	expect_error("not_array", -EINVAL, "not_array/m/a.json", 1, 1,
		     "the top-level value must be an array of objects, not object");
	expect_error("entry_type", -EINVAL, "entry_type/m/a.json", 5, 5,
		     "entry 1 must be an object, not string");
	expect_error("groups", -EINVAL, "groups/m/metricgroups.json", 3, 5,
		     "description of metric group \"Bad\" must be a string, not array");
	expect_error("group_name", -EINVAL, "group_name/m/metricgroups.json", 3, 5,
		     "metric group name \"X\" is too short");
}

/* Keys perf 6.12 does not use (perf 6.1's CollectPEBSRecord, ..., a future one) are ignored, as jevents ignores them; ExtSel still shifts into the event code. */
static void test_older_keys(void **state)
{
	struct ir_tree t;
	struct pk_error err;
	(void)state;
	assert_int_equal(load(&t, "bad", "older_keys", NULL, 1, &err), 0);
	const struct ir_model *m = model(&t, "older_keys", "m");
	assert_string_equal(event(m, "a", "default_core")->encoding, "event=1");	/* jevents: llx */
	assert_string_equal(event(m, "b", "default_core")->encoding, "event=0x102,umask=3");
	ir_tree__free(&t);
}

/* only_cpuid: the matched model's files alone are read (a broken other model does not matter) */
static void test_only_cpuid(void **state)
{
	struct ir_tree t;
	struct pk_error err;
	char root[1024];
	(void)state;
	fixture(root, sizeof(root), "bad");
	struct ir_load_opts o = { .only_arch = "only_cpuid", .threads = 1,
				  .only_cpuid = "GenuineIntel-6-55-4" };
	assert_int_equal(ir_tree__load(&t, root, &o, &err), 0);
	assert_int_equal(t.nr_models, 1);
	assert_string_equal(event(model(&t, "only_cpuid", "good"), "good.event", "default_core")->encoding,
			    "event=0x3c");
	assert_int_equal(t.nr_maps, 1);
	ir_tree__free(&t);
	/* every model read: the broken one stops it */
	o.only_cpuid = NULL;
	assert_int_equal(ir_tree__load(&t, root, &o, &err), -EINVAL);
	assert_non_null(strstr(err.file, "broken/a.json"));
	/* an identifier no row matches (a model name): every model, as before */
	o.only_cpuid = "skylake";
	assert_int_equal(ir_tree__load(&t, root, &o, &err), -EINVAL);
}

static void test_errors_entries(void **state)
{
	(void)state;
	expect_error("loop", -ELOOP, "loop/mapfile.csv", 2, 13,
		     "directory \"loop\": Too many levels of symbolic links");
	expect_error("bad_regex", -EINVAL, "bad_regex/mapfile.csv", 2, 1,
		     "CPUID pattern \"GenuineIntel-6-(55\" is not a valid regular expression");
	expect_error("wrong_type", -EINVAL, "wrong_type/m/a.json", 5, 9,
		     "\"UMask\" must be a string, not int");
	expect_error("number", -EINVAL, "number/m/a.json", 5, 9,
		     "\"UMask\": invalid or out-of-range number \"0xZZ\"");
	/* perf converts both codes even though ConfigCode wins */
	expect_error("eventid", -EINVAL, "eventid/m/a.json", 5, 9,
		     "\"EventidCode\": invalid or out-of-range number \"zz\"");
	expect_error("msr", -EINVAL, "msr/m/a.json", 5, 9,
		     "\"MSRIndex\": unknown MSR \"0x123\" (known: 0x3f6, 0x1a6, 0x1a7, 0x3f7)");
	expect_error("flag", -EINVAL, "flag/m/a.json", 4, 9,
		     "\"PerPkg\" must be \"0\" or \"1\", not \"yes\"");
	expect_error("enum", -EINVAL, "enum/m/a.json", 5, 9,
		     "\"AggregationMode\": unknown value \"PerSocket\" (known: PerChip, PerCore)");
	expect_error("empty_expr", -EINVAL, "empty_expr/m/a.json", 4, 9,
		     "\"MetricExpr\" is empty");
	expect_error("arch_std", -EINVAL, "arch_std/m/a.json", 6, 9,
		     "unknown ArchStdEvent \"NOPE\" (not in the arch_std standard event files)");
	char first[1024], msg[1400];
	fixture(first, sizeof(first), "bad/dup/m/a.json");
	snprintf(msg, sizeof(msg),
		 "duplicate event \"x.one\" for PMU \"default_core\" (first defined at %s:4:9)",
		 first);
	expect_error("dup", -EINVAL, "dup/m/b.json", 8, 9, msg);
}

static void test_errors_mapfile(void **state)
{
	(void)state;
	expect_error("mapfile_dir", -ENOENT, "mapfile_dir/mapfile.csv", 3, 13,
		     "directory \"nosuch\" does not exist");
	expect_error("not_model", -EINVAL, "not_model/mapfile.csv", 3, 13,
		     "\"empty\" is not a model directory "
		     "(no .json files 1..4 levels below the arch)");
	expect_error("mapfile_cols", -EINVAL, "mapfile_cols/mapfile.csv", 3, 0,
		     "expected 4 columns (CPUID,Version,Dir,Type), found 3");
	expect_error("no_mapfile", -ENOENT, "no_mapfile/mapfile.csv", 0, 0,
		     "cannot read mapfile: No such file or directory");
}

/* Every prefix and many one-byte corruptions of a file: an error or a tree,
 * never a crash (the sanitizer build checks memory errors). */
static void test_corruptions(void **state)
{
	(void)state;
	char src[1024], tmpl[] = "/tmp/pmukit-json-tree-XXXXXX", path[512];
	fixture(src, sizeof(src), "arch/x86/alpha/pipeline.json");
	FILE *f = fopen(src, "rb");
	assert_non_null(f);
	static char text[8192], bad[8192];
	size_t n = fread(text, 1, sizeof(text), f);
	fclose(f);
	assert_true(n > 100 && n < sizeof(text));
	assert_non_null(mkdtemp(tmpl));
	snprintf(path, sizeof(path), "%s/a", tmpl);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/a/m", tmpl);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/a/mapfile.csv", tmpl);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("h\nX,1,m,core\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/a/m/p.json", tmpl);
	static const char subst[] = { '"', '{', '[', ',', '\\', '\0', 'x' };
	size_t tries = n + 1 + n * sizeof(subst);
	for (size_t k = 0; k < tries; k++) {
		size_t len = n;
		memcpy(bad, text, n);
		if (k <= n)
			len = k; /* prefix */
		else
			bad[(k - n - 1) / sizeof(subst)] = subst[(k - n - 1) % sizeof(subst)];
		f = fopen(path, "wb");
		assert_non_null(f);
		fwrite(bad, 1, len, f);
		fclose(f);
		struct ir_tree t;
		struct pk_error err = { 0 };
		struct ir_load_opts o = { .threads = 1 };
		int rc = ir_tree__load(&t, tmpl, &o, &err);
		if (k <= n) /* only the full file (or all but its final newline) is valid */
			assert_int_equal(rc == 0, len >= n - 1);
		if (rc) {
			assert_true(rc < 0);
			assert_true(err.msg[0] != '\0');
			assert_true(err.line > 0);
		} else {
			ir_tree__free(&t);
		}
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/a/mapfile.csv", tmpl);
	unlink(path);
	snprintf(path, sizeof(path), "%s/a/m", tmpl);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a", tmpl);
	rmdir(path);
	rmdir(tmpl);
}

/* A model of the real tree when it is there (the oracle script checks it all). */
static void test_real_tree(void **state)
{
	(void)state;
	const char *dir = getenv("PMUKIT_ARCH_DIR");
	struct stat st;
	if (!dir || stat(dir, &st))
		skip();
	struct ir_tree t;
	struct pk_error err;
	struct ir_load_opts o = { .only_arch = "x86", .only_model = "skylake" };
	assert_int_equal(ir_tree__load(&t, dir, &o, &err), 0);
	assert_int_equal(t.nr_models, 1);
	const struct ir_model *m = &t.models[0];
	size_t ne = m->nr_events, nm = m->nr_metrics, nmaps = t.nr_maps;
	const char *enc = event(m, "inst_retired.any", NULL)->encoding;
	bool ok = enc && !strcmp(enc, "event=0xc0,period=2000003");
	ir_tree__free(&t);
	assert_true(ne > 500);
	assert_true(nm > 100);
	assert_true(nmaps >= 1);
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_py_int),
		cmocka_unit_test(test_models_and_maps),
		cmocka_unit_test(test_topics),
		cmocka_unit_test(test_encodings_core),
		cmocka_unit_test(test_encodings_msr),
		cmocka_unit_test(test_encodings_uncore),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_descriptions),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_arch_std),
		cmocka_unit_test(test_sys_model),
		cmocka_unit_test(test_only_model),
		cmocka_unit_test(test_threads_deterministic),
		cmocka_unit_test(test_errors_json),
		cmocka_unit_test(test_older_keys),
		cmocka_unit_test(test_only_cpuid),
		cmocka_unit_test(test_errors_entries),
		cmocka_unit_test(test_errors_mapfile),
		cmocka_unit_test(test_corruptions),
		cmocka_unit_test(test_real_tree),
	};
	return cmocka_run_group_tests_name("json_tree", tests, setup, teardown);
}
