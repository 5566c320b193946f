/* SPDX-License-Identifier: MIT */
/*
 * test_pmu.c — PMU discovery: format bodies, the fake trees under
 * tests/fixtures/sysfs (Skylake-SP, Ice Lake-SP, Alder Lake hybrid, arm64
 * big.LITTLE with CMN/HiSilicon uncore), a tree of odd content built at run
 * time, perf's PMU name matching rules, and this machine's real PMU tree.
 * Also the facts derived once per tree for the spec encoder (pmu/derived.h),
 * checked against the public lookups they stand for, and recomputed when the
 * tree changes.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/pmu.h>

#include "pmu/derived.h"
#include "pmu/lookup.h"

/* --- helpers -------------------------------------------------------------------- */

static const char *fixture(char *buf, size_t len, const char *tree)
{
	const char *src = getenv("PMUKIT_SRC");
	snprintf(buf, len, "%s/tests/fixtures/sysfs/%s", src && *src ? src : ".", tree);
	return buf;
}

static struct pk_pmu_tree *open_fixture(const char *name)
{
	char path[4096];
	struct pk_pmu_tree *t = NULL;
	struct pk_error err = { 0 };
	int rc = pk_pmu_tree__open(&t, fixture(path, sizeof(path), name), &err);
	if (rc)
		fprintf(stderr, "open %s: %s\n", path, err.msg);
	assert_int_equal(rc, 0);
	assert_non_null(t);
	return t;
}

static const struct pk_pmu *pmu_of(const struct pk_pmu_tree *t, const char *name)
{
	const struct pk_pmu *p = pk_pmu_tree__find(t, name);
	assert_non_null(p);
	assert_string_equal(pk_pmu__name(p), name);
	return p;
}

static void check_format(const struct pk_pmu *p, const char *name, int config, uint64_t mask,
			 unsigned width)
{
	const struct pk_pmu_format *f = pk_pmu__find_format(p, name);
	assert_non_null(f);
	assert_string_equal(f->name, name);
	assert_int_equal(f->config, config);
	assert_int_equal(f->mask, mask);
	assert_int_equal(f->width, width);
}

static const struct pk_pmu_alias *check_alias(const struct pk_pmu *p, const char *name,
					      const char *encoding)
{
	const struct pk_pmu_alias *a = pk_pmu__find_alias(p, name);
	assert_non_null(a);
	assert_string_equal(a->encoding, encoding);
	return a;
}

static void check_names(const struct pk_pmu_tree *t, const char *const *names, size_t n)
{
	assert_int_equal(pk_pmu_tree__nr_pmus(t), n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(pk_pmu__name(pk_pmu_tree__pmu(t, i)), names[i]);
		assert_ptr_equal(pk_pmu_tree__find(t, names[i]), pk_pmu_tree__pmu(t, i));
	}
	assert_null(pk_pmu_tree__pmu(t, n));
}

static void put(const char *dir, const char *rel, const char *body)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	if (!body) {
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		return;
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* --- format bodies ------------------------------------------------------------- */

static void test_format_parse_valid(void **state)
{
	static const struct {
		const char *body;
		int config;
		uint64_t mask;
		unsigned width;
	} cases[] = {
		{ "config:0-7\n", 0, 0xff, 8 },
		{ "config:8-15", 0, 0xff00, 8 },
		{ "config:21\n", 0, 1u << 21, 1 },
		{ "config:63", 0, UINT64_C(1) << 63, 1 },
		{ "config1:0-63\n", 1, UINT64_MAX, 64 },
		{ "config:0-7,32-35\n", 0, UINT64_C(0xf000000ff), 12 },
		{ "config:8-15,32-57", 0, UINT64_C(0x03ffffff0000ff00), 34 },
		{ "config1:5-16", 1, 0x1ffe0, 12 },
		{ "config2:0-63\n", 2, UINT64_MAX, 64 },
		{ "config3:3,5,7-8", 3, 0x1a8, 4 },
		{ "config:0-3,2-5", 0, 0x3f, 6 },	/* overlapping ranges OR */
		{ " config : 1 - 2 , 4 \n\n", 0, 0x16, 3 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pk_pmu_format f = { .name = "keep" };
		assert_int_equal(pk_pmu_format__parse(cases[i].body, &f), 0);
		assert_string_equal(f.name, "keep");
		assert_int_equal(f.config, cases[i].config);
		assert_int_equal(f.mask, cases[i].mask);
		assert_int_equal(f.width, cases[i].width);
	}
}

static void test_format_parse_invalid(void **state)
{
	static const char *const bad[] = {
		"", "\n", "config", "config:", "config:\n", "config0:1", "config4:1", "config12:1",
		"confi:0", "Config:0", "config:-1", "config:64", "config:0-64", "config:7-0",
		"config:0-7,", "config:0-7 junk", "config:0-7\nconfig1:0", "config:,1",
		"config:99999999999999999999", "config:1--2", "config:0x3", "config1:0-7;",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pk_pmu_format f = { .name = "x", .config = 9, .mask = 42, .width = 7 };
		assert_int_equal(pk_pmu_format__parse(bad[i], &f), -EINVAL);
		assert_int_equal(f.config, 9);
		assert_int_equal(f.mask, 42);
		assert_int_equal(f.width, 7);
	}
	assert_int_equal(pk_pmu_format__parse(NULL, &(struct pk_pmu_format){ 0 }), -EINVAL);

	/* what is wrong, in words */
	static const char *const why[][2] = {
		{ "config:70-80\n", "bit 70 is beyond 63 (a config word has 64 bits)" },
		{ "config:0-80\n", "bit 80 is beyond 63 (a config word has 64 bits)" },
		{ "config:15-8\n", "the range '15-8' ends below its start" },
		{ "", "empty: expected config[123]:BITS, e.g. config:0-7" },
		{ "garbage", "expected config, config1, config2 or config3 at 'garbage'" },
		{ "config:0-7 junk\n", "unexpected 'junk' after the bits" },
		{ "config5:1", "expected ':' after the config word at '5:1'" },
		{ "config:-1", "expected a bit number at '-1'" },
	};
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		struct pk_pmu_format f = { 0 };
		char msg[160];
		assert_int_equal(pk_pmu_format__parse_why(why[i][0], &f, msg, sizeof(msg)), -EINVAL);
		assert_string_equal(msg, why[i][1]);
	}
}

/* --- errors ---------------------------------------------------------------------- */

static void test_open_errors(void **state)
{
	char path[4096];
	struct pk_pmu_tree *t = (struct pk_pmu_tree *)&t;
	struct pk_error err = { 0 };
	(void)state;

	assert_int_equal(pk_pmu_tree__open(&t, "/nonexistent/pmukit/devices", &err), -ENOENT);
	assert_null(t);
	assert_int_equal(err.code, -ENOENT);
	assert_string_equal(err.file, "/nonexistent/pmukit/devices");
	assert_non_null(strstr(err.msg, "cannot open PMU tree"));

	memset(&err, 0, sizeof(err));
	fixture(path, sizeof(path), "x86-skl/README.txt");
	assert_int_equal(pk_pmu_tree__open(&t, path, &err), -ENOTDIR);
	assert_null(t);
	assert_int_equal(err.code, -ENOTDIR);
	/* no error object is fine too */
	assert_int_equal(pk_pmu_tree__open(&t, "/nonexistent/pmukit", NULL), -ENOENT);
	pk_pmu_tree__free(NULL);
}

/* --- x86-skl ----------------------------------------------------------------------- */

static void test_skl_pmus(void **state)
{
	static const char *const names[] = {
		"breakpoint", "cpu", "kprobe", "msr", "power", "software", "tracepoint",
		"uncore_cha_0", "uncore_cha_1", "uncore_imc_0", "uprobe",
	};
	static const uint32_t types[] = { 5, 4, 6, 8, 9, 1, 2, 10, 11, 12, 7 };
	struct pk_pmu_tree *t = open_fixture("x86-skl");
	(void)state;

	check_names(t, names, 11);
	for (size_t i = 0; i < 11; i++)
		assert_int_equal(pk_pmu__type(pk_pmu_tree__pmu(t, i)), types[i]);
	assert_null(pk_pmu_tree__find(t, "README.txt"));
	assert_null(pk_pmu_tree__find(t, "CPU"));

	const struct pk_pmu *cpu = pmu_of(t, "cpu");
	assert_true(pk_pmu__is_core(cpu));
	assert_false(pk_pmu__is_uncore(cpu));
	assert_null(pk_pmu__cpus(cpu));
	assert_null(pk_pmu__identifier(cpu));
	const struct pk_pmu *cha = pmu_of(t, "uncore_cha_1");
	assert_false(pk_pmu__is_core(cha));
	assert_true(pk_pmu__is_uncore(cha));
	assert_string_equal(pk_pmu__cpus(cha), "0");
	const struct pk_pmu *sw = pmu_of(t, "software");
	assert_false(pk_pmu__is_core(sw));
	assert_false(pk_pmu__is_uncore(sw));
	assert_int_equal(pk_pmu__nr_formats(sw), 0);
	assert_int_equal(pk_pmu__nr_aliases(sw), 0);
	assert_null(pk_pmu__cap(sw, "pmu_name"));
	pk_pmu_tree__free(t);
}

static void test_skl_cpu(void **state)
{
	static const char *const fmt_order[] = {
		"any", "cmask", "edge", "event", "frontend", "in_tx",
		"in_tx_cp", "inv", "ldlat", "offcore_rsp", "pc", "umask",
	};
	struct pk_pmu_tree *t = open_fixture("x86-skl");
	const struct pk_pmu *cpu = pmu_of(t, "cpu");
	(void)state;

	assert_int_equal(pk_pmu__nr_formats(cpu), 12);
	for (size_t i = 0; i < 12; i++)
		assert_string_equal(pk_pmu__format(cpu, i)->name, fmt_order[i]);
	assert_null(pk_pmu__format(cpu, 12));
	check_format(cpu, "event", 0, 0xff, 8);
	check_format(cpu, "umask", 0, 0xff00, 8);
	check_format(cpu, "edge", 0, 1u << 18, 1);
	check_format(cpu, "pc", 0, 1u << 19, 1);
	check_format(cpu, "any", 0, 1u << 21, 1);
	check_format(cpu, "inv", 0, 1u << 23, 1);
	check_format(cpu, "cmask", 0, 0xff000000u, 8);
	check_format(cpu, "in_tx", 0, UINT64_C(1) << 32, 1);
	check_format(cpu, "in_tx_cp", 0, UINT64_C(1) << 33, 1);
	check_format(cpu, "ldlat", 1, 0xffff, 16);
	check_format(cpu, "offcore_rsp", 1, UINT64_MAX, 64);
	check_format(cpu, "frontend", 1, 0xffffff, 24);
	assert_null(pk_pmu__find_format(cpu, "EVENT"));	/* formats: exact names */
	assert_null(pk_pmu__find_format(cpu, "thresh"));

	/* 8 generic + 2 mem + 12 TSX + 5 topdown; the 2 .scale files are not aliases */
	assert_int_equal(pk_pmu__nr_aliases(cpu), 27);
	assert_string_equal(pk_pmu__alias(cpu, 0)->name, "branch-instructions");
	assert_string_equal(pk_pmu__alias(cpu, 26)->name, "tx-start");
	assert_null(pk_pmu__alias(cpu, 27));
	for (size_t i = 1; i < 27; i++)
		assert_true(strcmp(pk_pmu__alias(cpu, i - 1)->name, pk_pmu__alias(cpu, i)->name) < 0);
	const struct pk_pmu_alias *a = check_alias(cpu, "cpu-cycles", "event=0x3c");
	assert_string_equal(a->name, "cpu-cycles");
	assert_null(a->unit);
	assert_true(a->scale == 1.0);
	assert_false(a->per_pkg);
	assert_false(a->snapshot);
	assert_ptr_equal(pk_pmu__find_alias(cpu, "CPU-Cycles"), a);	/* case-insensitive */
	check_alias(cpu, "instructions", "event=0xc0");
	check_alias(cpu, "ref-cycles", "event=0x00,umask=0x03");
	check_alias(cpu, "bus-cycles", "event=0x3c,umask=0x01");
	check_alias(cpu, "cache-misses", "event=0x2e,umask=0x41");
	check_alias(cpu, "mem-loads", "event=0xcd,umask=0x1,ldlat=3");
	check_alias(cpu, "mem-stores", "event=0xd0,umask=0x82");
	check_alias(cpu, "cycles-ct", "event=0x3c,in_tx=1,in_tx_cp=1");
	a = check_alias(cpu, "topdown-total-slots", "event=0x3c,umask=0x0,any=1");
	assert_true(a->scale == 2.0);
	a = check_alias(cpu, "TOPDOWN-RECOVERY-BUBBLES", "event=0xd,umask=0x3,cmask=1,any=1");
	assert_string_equal(a->name, "topdown-recovery-bubbles");
	assert_true(a->scale == 2.0);
	assert_null(pk_pmu__find_alias(cpu, "topdown-total-slots.scale"));
	assert_null(pk_pmu__find_alias(cpu, "slots"));	/* Ice Lake only */
	assert_null(pk_pmu__find_alias(cpu, "cpu-cycle"));
	assert_null(pk_pmu__find_alias(cpu, ""));

	assert_string_equal(pk_pmu__cap(cpu, "branches"), "32");
	assert_string_equal(pk_pmu__cap(cpu, "max_precise"), "3");
	assert_string_equal(pk_pmu__cap(cpu, "pmu_name"), "skylake");
	assert_null(pk_pmu__cap(cpu, "slots"));
	pk_pmu_tree__free(t);
}

static void test_skl_uncore_and_power(void **state)
{
	struct pk_pmu_tree *t = open_fixture("x86-skl");
	(void)state;

	const struct pk_pmu *power = pmu_of(t, "power");
	assert_true(pk_pmu__is_uncore(power));
	assert_false(pk_pmu__is_core(power));
	assert_string_equal(pk_pmu__cpus(power), "0");
	assert_int_equal(pk_pmu__nr_aliases(power), 2);
	const struct pk_pmu_alias *e = check_alias(power, "energy-pkg", "event=0x02");
	assert_true(e->scale == ldexp(1.0, -32));	/* 2.3283064365386962890625e-10 */
	assert_string_equal(e->unit, "Joules");
	assert_string_equal(pk_pmu__alias(power, 0)->name, "energy-pkg");
	assert_string_equal(pk_pmu__alias(power, 1)->name, "energy-ram");

	const struct pk_pmu *imc = pmu_of(t, "uncore_imc_0");
	assert_int_equal(pk_pmu__nr_aliases(imc), 3);
	e = check_alias(imc, "cas_count_read", "event=0x04,umask=0x03");
	assert_true(e->scale == 6.103515625e-5);
	assert_string_equal(e->unit, "MiB");
	e = check_alias(imc, "clockticks", "event=0x00,umask=0x00");
	assert_null(e->unit);
	check_format(imc, "thresh", 0, 0xff000000u, 8);
	assert_null(pk_pmu__find_format(imc, "tid_en"));

	const struct pk_pmu *msr = pmu_of(t, "msr");
	check_format(msr, "event", 0, UINT64_MAX, 64);
	check_alias(msr, "tsc", "event=0x00");
	check_alias(msr, "smi", "event=0x04");
	const struct pk_pmu *up = pmu_of(t, "uprobe");
	check_format(up, "retprobe", 0, 1, 1);
	check_format(up, "ref_ctr_offset", 0, UINT64_C(0xffffffff00000000), 32);
	pk_pmu_tree__free(t);
}

/* perf's table PMU name rule, on the Skylake tree. */
static void test_skl_table_match(void **state)
{
	static const struct {
		const char *pmu, *table;
		bool match;
	} cases[] = {
		{ "cpu", "cpu", true },
		{ "cpu", "default_core", true },
		{ "cpu", "cpu_core", false },
		{ "cpu", "cp", false },
		{ "uncore_cha_0", "uncore_cha", true },
		{ "uncore_cha_1", "uncore_cha", true },
		{ "uncore_cha_1", "uncore_cha_1", true },
		{ "uncore_cha_1", "uncore_cha_0", false },
		{ "uncore_cha_0", "uncore_ch", false },
		{ "uncore_cha_0", "uncore", false },
		{ "uncore_cha_0", "uncore_cha_", true },	/* perf: "_" is optional */
		{ "uncore_cha_0", "default_core", false },
		{ "uncore_cha_0", "uncore_imc", false },
		{ "uncore_imc_0", "uncore_imc", true },
		{ "power", "power", true },
		{ "software", "software", true },
		{ "software", "default_core", false },
		{ "msr", "ms", false },
		/* no cpumask: perf does not ignore suffixes of non-uncore PMUs */
		{ "kprobe", "kprob", false },
	};
	struct pk_pmu_tree *t = open_fixture("x86-skl");
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool m = pk_pmu__matches_table_pmu(pmu_of(t, cases[i].pmu), cases[i].table);
		if (m != cases[i].match)
			fail_msg("%s vs %s: got %d", cases[i].pmu, cases[i].table, m);
	}
	assert_false(pk_pmu__matches_table_pmu(pmu_of(t, "cpu"), NULL));
	assert_false(pk_pmu__matches_table_pmu(NULL, "cpu"));
	pk_pmu_tree__free(t);
}

/* --- x86-icl ----------------------------------------------------------------------- */

static void test_icl(void **state)
{
	struct pk_pmu_tree *t = open_fixture("x86-icl");
	const struct pk_pmu *cpu = pmu_of(t, "cpu");
	(void)state;

	assert_int_equal(pk_pmu_tree__nr_pmus(t), 11);
	assert_int_equal(pk_pmu__nr_formats(cpu), 11);
	assert_null(pk_pmu__find_format(cpu, "any"));
	check_format(cpu, "cmask", 0, 0xff000000u, 8);
	check_alias(cpu, "slots", "event=0x00,umask=0x4");
	check_alias(cpu, "topdown-retiring", "event=0x00,umask=0x80");
	check_alias(cpu, "topdown-bad-spec", "event=0x00,umask=0x81");
	check_alias(cpu, "topdown-fe-bound", "event=0x00,umask=0x82");
	check_alias(cpu, "Topdown-BE-Bound", "event=0x00,umask=0x83");
	check_alias(cpu, "tx-capacity-read", "event=0x54,umask=0x80");
	assert_null(pk_pmu__find_alias(cpu, "topdown-total-slots"));
	assert_null(pk_pmu__find_alias(cpu, "topdown-heavy-ops"));
	/* 8 generic + 2 mem + 8 TSX + 5 topdown */
	assert_int_equal(pk_pmu__nr_aliases(cpu), 23);
	assert_string_equal(pk_pmu__cap(cpu, "pmu_name"), "icelake");

	const struct pk_pmu *cha = pmu_of(t, "uncore_cha_0");
	check_format(cha, "umask", 0, UINT64_C(0x03ffffff0000ff00), 34);
	assert_true(pk_pmu__matches_table_pmu(cha, "uncore_cha"));
	const struct pk_pmu_alias *a = check_alias(pmu_of(t, "uncore_imc_0"), "cas_count_write",
						   "event=0x04,umask=0x30");
	assert_string_equal(a->unit, "MiB");
	pk_pmu_tree__free(t);
}

/* --- x86-hybrid -------------------------------------------------------------------- */

static void test_hybrid(void **state)
{
	static const char *const names[] = { "breakpoint", "cpu_atom", "cpu_core", "software",
					     "tracepoint" };
	struct pk_pmu_tree *t = open_fixture("x86-hybrid");
	(void)state;

	check_names(t, names, 5);
	const struct pk_pmu *core = pmu_of(t, "cpu_core");
	const struct pk_pmu *atom = pmu_of(t, "cpu_atom");
	assert_int_equal(pk_pmu__type(core), 4);
	assert_int_equal(pk_pmu__type(atom), 10);
	assert_true(pk_pmu__is_core(core));
	assert_true(pk_pmu__is_core(atom));
	assert_false(pk_pmu__is_uncore(core));
	assert_string_equal(pk_pmu__cpus(core), "0-7");
	assert_string_equal(pk_pmu__cpus(atom), "8-15");
	assert_null(pk_pmu_tree__find(t, "cpu"));

	assert_true(pk_pmu__matches_table_pmu(core, "default_core"));
	assert_true(pk_pmu__matches_table_pmu(atom, "default_core"));
	assert_true(pk_pmu__matches_table_pmu(core, "cpu_core"));
	assert_false(pk_pmu__matches_table_pmu(core, "cpu_atom"));
	assert_true(pk_pmu__matches_table_pmu(atom, "cpu_atom"));
	assert_false(pk_pmu__matches_table_pmu(atom, "cpu_core"));
	assert_false(pk_pmu__matches_table_pmu(atom, "cpu"));
	assert_false(pk_pmu__matches_table_pmu(pmu_of(t, "software"), "default_core"));

	check_alias(core, "slots", "event=0x00,umask=0x4");
	check_alias(core, "topdown-mem-bound", "event=0x00,umask=0x87");
	check_alias(core, "mem-loads", "event=0xcd,umask=0x1,ldlat=3");
	check_alias(atom, "topdown-retiring", "event=0xc2,umask=0x0");
	check_alias(atom, "mem-loads", "event=0xd0,umask=0x5,ldlat=3");
	assert_null(pk_pmu__find_alias(atom, "slots"));
	assert_int_equal(pk_pmu__nr_aliases(core), 20);
	assert_int_equal(pk_pmu__nr_aliases(atom), 14);
	check_format(core, "frontend", 1, 0xffffff, 24);
	assert_null(pk_pmu__find_format(atom, "frontend"));
	assert_null(pk_pmu__find_format(core, "in_tx"));
	assert_string_equal(pk_pmu__cap(atom, "pmu_name"), "alderlake_hybrid");
	pk_pmu_tree__free(t);
}

/* --- arm64-het ------------------------------------------------------------------- */

static void test_arm64(void **state)
{
	static const char *const names[] = {
		"arm_cmn_0", "armv8_pmuv3_0", "armv8_pmuv3_1", "breakpoint",
		"hisi_sccl1_ddrc0", "hisi_sicl2_cpa0", "software", "tracepoint",
	};
	struct pk_pmu_tree *t = open_fixture("arm64-het");
	(void)state;

	check_names(t, names, 8);
	const struct pk_pmu *little = pmu_of(t, "armv8_pmuv3_0");
	const struct pk_pmu *big = pmu_of(t, "armv8_pmuv3_1");
	assert_int_equal(pk_pmu__type(little), 8);
	assert_int_equal(pk_pmu__type(big), 9);
	assert_true(pk_pmu__is_core(little));
	assert_true(pk_pmu__is_core(big));
	assert_false(pk_pmu__is_uncore(big));
	assert_string_equal(pk_pmu__cpus(little), "0-3");
	assert_string_equal(pk_pmu__cpus(big), "4-7");
	check_format(big, "event", 0, 0xffff, 16);
	check_format(big, "long", 1, 0x1, 1);
	check_format(big, "rdpmc", 1, 0x2, 1);
	check_format(big, "threshold_compare", 1, 0xc, 2);
	check_format(big, "threshold_count", 1, 0x10, 1);
	check_format(big, "threshold", 1, 0x1ffe0, 12);
	assert_string_equal(pk_pmu__cap(big, "threshold_max"), "0x00000fff");
	assert_string_equal(pk_pmu__cap(little, "threshold_max"), "0x00000000");
	assert_string_equal(pk_pmu__cap(big, "slots"), "0x00000008");
	check_alias(big, "cpu_cycles", "event=0x0011");
	check_alias(big, "inst_retired", "event=0x0008");
	check_alias(little, "STALL_SLOT", "event=0x003f");
	assert_int_equal(pk_pmu__nr_aliases(little), 12);

	const struct pk_pmu *cmn = pmu_of(t, "arm_cmn_0");
	const struct pk_pmu *ddrc = pmu_of(t, "hisi_sccl1_ddrc0");
	const struct pk_pmu *cpa = pmu_of(t, "hisi_sicl2_cpa0");
	assert_true(pk_pmu__is_uncore(cmn));
	assert_false(pk_pmu__is_core(cmn));
	assert_string_equal(pk_pmu__identifier(cmn), "43c01");
	check_format(cmn, "eventid", 0, 0x7ff0000, 11);
	check_alias(cmn, "hnf_cache_miss", "type=0x5,eventid=0x1");
	check_alias(ddrc, "flux_rd", "config=0x1");

	assert_true(pk_pmu__matches_table_pmu(little, "default_core"));
	assert_true(pk_pmu__matches_table_pmu(big, "armv8_pmuv3_1"));
	assert_false(pk_pmu__matches_table_pmu(big, "armv8_pmuv3"));	/* core: exact only */
	assert_false(pk_pmu__matches_table_pmu(cmn, "default_core"));
	assert_true(pk_pmu__matches_table_pmu(cmn, "arm_cmn"));
	assert_true(pk_pmu__matches_table_pmu(ddrc, "hisi_sccl,ddrc"));
	assert_true(pk_pmu__matches_table_pmu(ddrc, "sccl,ddrc"));	/* first token unanchored */
	assert_false(pk_pmu__matches_table_pmu(ddrc, "hisi_sccl,hha"));
	assert_false(pk_pmu__matches_table_pmu(ddrc, "hisi_sccl,ddr"));
	assert_false(pk_pmu__matches_table_pmu(ddrc, "ddrc,hisi_sccl"));	/* order matters */
	assert_false(pk_pmu__matches_table_pmu(ddrc, "hisi_sicl,ddrc"));
	assert_false(pk_pmu__matches_table_pmu(ddrc, ","));
	assert_false(pk_pmu__matches_table_pmu(ddrc, "hisi_sccl"));
	assert_true(pk_pmu__matches_table_pmu(cpa, "hisi_sicl,cpa"));
	assert_false(pk_pmu__matches_table_pmu(cpa, "hisi_sccl,ddrc"));

	assert_true(pk_pmu__matches_compat(cmn, "(434|436|43c|43a).*"));
	assert_false(pk_pmu__matches_compat(cmn, "(434|436)"));
	assert_false(pk_pmu__matches_compat(cmn, "43c"));	/* must cover the whole id */
	assert_false(pk_pmu__matches_compat(cmn, "("));	/* bad regex */
	assert_true(pk_pmu__matches_compat(cpa, "0x00000030"));
	assert_false(pk_pmu__matches_compat(ddrc, "0x00000030"));
	assert_false(pk_pmu__matches_compat(big, ".*"));	/* no identifier */
	assert_false(pk_pmu__matches_compat(cmn, NULL));
	pk_pmu_tree__free(t);
}

/* --- odd content, built at run time ------------------------------------------- */

struct odd {
	char dir[64];
	struct pk_pmu_tree *tree;
};

static int odd_setup(void **state)
{
	static struct odd o;
	char big[100 * 1024];

	snprintf(o.dir, sizeof(o.dir), "/tmp/pmukit-test-pmu-XXXXXX");
	if (!mkdtemp(o.dir))
		return -1;
	put(o.dir, "notype/format/event", "config:0-7\n");
	put(o.dir, "badtype/type", "abc\n");
	put(o.dir, "bigtype/type", "4294967296\n");
	put(o.dir, "hextype/type", "0x4\n");
	put(o.dir, "emptytype/type", "");
	put(o.dir, "maxtype/type", "4294967295");
	put(o.dir, "a_file", "not a PMU\n");
	put(o.dir, "odd/type", " 7 \n");
	put(o.dir, "odd/format/good", "config:0-3\n");
	put(o.dir, "odd/format/bad1", "config:\n");
	put(o.dir, "odd/format/bad2", "garbage");
	put(o.dir, "odd/format/empty", "");
	put(o.dir, "odd/format/cfg5", "config5:1\n");
	put(o.dir, "odd/format/subdir", NULL);
	put(o.dir, "odd/events/spaces", "  event=0x1 \t\n\n");
	put(o.dir, "odd/events/empty", "");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(o.dir, "odd/events/huge", big);
	put(o.dir, "odd/events/subdir", NULL);
	put(o.dir, "odd/events/badscale", "event=0x2\n");
	put(o.dir, "odd/events/badscale.scale", "two\n");
	put(o.dir, "odd/events/orphan.unit", "MiB\n");
	put(o.dir, "odd/events/pp", "event=0x3\n");
	put(o.dir, "odd/events/pp.per-pkg", "1\n");
	put(o.dir, "odd/events/pp.snapshot", "1\n");
	put(o.dir, "odd/events/pp0", "event=0x4\n");
	put(o.dir, "odd/events/pp0.per-pkg", "0\n");
	put(o.dir, "odd/events/unitempty", "event=0x5\n");
	put(o.dir, "odd/events/unitempty.unit", "");
	put(o.dir, "odd/events/unitempty.scale", "0.5\n");
	put(o.dir, "odd/events/Mixed", "event=0x6\n");
	put(o.dir, "odd/events/mixed", "event=0x7\n");
	put(o.dir, "odd/caps", "not a directory\n");
	put(o.dir, "odd/cpumask", "\n");
	put(o.dir, "odd/cpus", "0-1\n");
	put(o.dir, "odd/identifier", "  id  \n");
	char fifo[128];
	snprintf(fifo, sizeof(fifo), "%s/odd/events/fifo", o.dir);
	if (mkfifo(fifo, 0644))
		return -1;
	char loop[128];
	snprintf(loop, sizeof(loop), "%s/loop", o.dir);
	if (symlink("loop", loop))
		return -1;
	put(o.dir, "flat/type", "3\n");
	put(o.dir, "flat/events", "event=0x1\n");
	put(o.dir, "flat/format", "config:0-7\n");
	put(o.dir, "cpum_cf/type", "11\n");
	/* instance suffixes (all with a cpumask, so uncore) */
	static const char *const unc[] = { "foo_1a", "foo_1ab", "bar12", "baz_", "qux_x_10",
					   "qux_x_2", "qux_x_1ab", "qux_x" };
	for (size_t i = 0; i < sizeof(unc) / sizeof(unc[0]); i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "%s/type", unc[i]);
		put(o.dir, rel, "20\n");
		snprintf(rel, sizeof(rel), "%s/cpumask", unc[i]);
		put(o.dir, rel, "0\n");
	}
	if (pk_pmu_tree__open(&o.tree, o.dir, NULL))
		return -1;
	*state = &o;
	return 0;
}

static int odd_teardown(void **state)
{
	struct odd *o = *state;
	pk_pmu_tree__free(o->tree);
	return nftw(o->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_odd_tree(void **state)
{
	static const char *const names[] = {
		"bar12", "baz_", "cpum_cf", "flat", "foo_1a", "foo_1ab", "maxtype", "odd",
		"qux_x", "qux_x_1ab", "qux_x_2", "qux_x_10",
	};
	struct odd *o = *state;
	const struct pk_pmu_tree *t = o->tree;

	check_names(t, names, 12);
	assert_int_equal(pk_pmu__type(pmu_of(t, "maxtype")), UINT32_MAX);

	const struct pk_pmu *odd = pmu_of(t, "odd");
	assert_int_equal(pk_pmu__type(odd), 7);
	assert_int_equal(pk_pmu__nr_formats(odd), 1);
	check_format(odd, "good", 0, 0xf, 4);
	/* the files left out, and why, for the messages of whoever uses them */
	char want[512];
	snprintf(want, sizeof(want), "%s/odd/format/bad2: expected config, config1, config2 or config3 at 'garbage'", o->dir);
	assert_string_equal(pk_pmu__format_problem(odd, "bad2"), want);
	snprintf(want, sizeof(want), "%s/odd/format/empty: empty: expected config[123]:BITS, e.g. config:0-7", o->dir);
	assert_string_equal(pk_pmu__format_problem(odd, "empty"), want);
	assert_non_null(strstr(pk_pmu__format_problem(odd, "cfg5"), "expected ':' after the config word"));
	assert_null(pk_pmu__format_problem(odd, "good"));
	assert_null(pk_pmu__format_problem(odd, "nosuchterm"));
	snprintf(want, sizeof(want), "%s/badtype/type: 'abc' is not a PMU type number", o->dir);
	assert_string_equal(pk_pmu_tree__pmu_problem(t, "badtype"), want);
	snprintf(want, sizeof(want), "%s/notype/type: missing or unreadable", o->dir);
	assert_string_equal(pk_pmu_tree__pmu_problem(t, "notype"), want);
	assert_null(pk_pmu_tree__pmu_problem(t, "odd"));
	assert_null(pk_pmu_tree__pmu_problem(t, "nosuchpmu"));
	assert_true(pk_pmu__is_uncore(odd));	/* cpumask exists, even empty */
	assert_true(pk_pmu__is_core(odd));	/* and so does cpus */
	assert_string_equal(pk_pmu__cpus(odd), "0-1");	/* empty cpumask: cpus */
	assert_string_equal(pk_pmu__identifier(odd), "id");
	assert_null(pk_pmu__cap(odd, "caps"));

	/* spaces empty badscale pp pp0 unitempty Mixed mixed: no huge, subdir, fifo, orphan */
	assert_int_equal(pk_pmu__nr_aliases(odd), 8);
	check_alias(odd, "spaces", "event=0x1");
	check_alias(odd, "empty", "");
	assert_null(pk_pmu__find_alias(odd, "huge"));
	assert_null(pk_pmu__find_alias(odd, "subdir"));
	assert_null(pk_pmu__find_alias(odd, "fifo"));
	assert_null(pk_pmu__find_alias(odd, "orphan"));
	assert_null(pk_pmu__find_alias(odd, "orphan.unit"));
	const struct pk_pmu_alias *a = check_alias(odd, "badscale", "event=0x2");
	assert_true(a->scale == 1.0);
	a = check_alias(odd, "pp", "event=0x3");
	assert_true(a->per_pkg);
	assert_true(a->snapshot);
	a = check_alias(odd, "pp0", "event=0x4");
	assert_false(a->per_pkg);
	assert_false(a->snapshot);
	a = check_alias(odd, "unitempty", "event=0x5");
	assert_non_null(a->unit);
	assert_string_equal(a->unit, "");
	assert_true(a->scale == 0.5);
	check_alias(odd, "Mixed", "event=0x6");
	check_alias(odd, "mixed", "event=0x7");
	check_alias(odd, "MIXED", "event=0x6");	/* first of the case-insensitive run */

	const struct pk_pmu *flat = pmu_of(t, "flat");
	assert_int_equal(pk_pmu__nr_aliases(flat), 0);
	assert_int_equal(pk_pmu__nr_formats(flat), 0);
	assert_false(pk_pmu__is_core(flat));
	assert_null(pk_pmu__cpus(flat));

	const struct pk_pmu *cf = pmu_of(t, "cpum_cf");
	assert_true(pk_pmu__is_core(cf));
	assert_false(pk_pmu__matches_table_pmu(cf, "cpum"));
	assert_true(pk_pmu__matches_table_pmu(cf, "default_core"));
	/* hex suffixes need more than two digits; decimal ones any number */
	assert_false(pk_pmu__matches_table_pmu(pmu_of(t, "foo_1a"), "foo"));
	assert_true(pk_pmu__matches_table_pmu(pmu_of(t, "foo_1ab"), "foo"));
	assert_true(pk_pmu__matches_table_pmu(pmu_of(t, "bar12"), "bar"));
	assert_true(pk_pmu__matches_table_pmu(pmu_of(t, "bar12"), "bar1"));
	assert_false(pk_pmu__matches_table_pmu(pmu_of(t, "baz_"), "baz"));
	assert_true(pk_pmu__matches_table_pmu(pmu_of(t, "qux_x_10"), "qux_x"));
	assert_true(pk_pmu__matches_table_pmu(pmu_of(t, "qux_x_10"), "qux,x"));
	assert_false(pk_pmu__matches_table_pmu(pmu_of(t, "qux_x"), "qux_x_"));
}

/* --- NULL arguments ----------------------------------------------------------------- */

static void test_null_args(void **state)
{
	(void)state;
	assert_int_equal(pk_pmu_tree__nr_pmus(NULL), 0);
	assert_null(pk_pmu_tree__pmu(NULL, 0));
	assert_null(pk_pmu_tree__find(NULL, "cpu"));
	assert_null(pk_pmu__name(NULL));
	assert_int_equal(pk_pmu__nr_aliases(NULL), 0);
	assert_null(pk_pmu__find_alias(NULL, "x"));
	assert_null(pk_pmu__find_format(NULL, "x"));
	assert_null(pk_pmu__cap(NULL, "x"));
	assert_int_equal(pk_pmu_tree__open(NULL, NULL, NULL), -EINVAL);
}

/* --- this machine's tree -------------------------------------------------------- */

static void test_real_sysfs(void **state)
{
	struct pk_pmu_tree *t = NULL;
	struct pk_error err = { 0 };
	const struct pk_pmu *p;
	(void)state;

	if (access(PK_SYSFS_DEFAULT "/software/type", R_OK) != 0)
		skip();
	assert_int_equal(pk_pmu_tree__open(&t, NULL, &err), 0);
	p = pmu_of(t, "software");
	assert_int_equal(pk_pmu__type(p), 1);	/* PERF_TYPE_SOFTWARE */
	assert_false(pk_pmu__is_core(p));
	p = pmu_of(t, "tracepoint");
	assert_int_equal(pk_pmu__type(p), 2);	/* PERF_TYPE_TRACEPOINT */
	if ((p = pk_pmu_tree__find(t, "breakpoint")))
		assert_int_equal(pk_pmu__type(p), 5);	/* PERF_TYPE_BREAKPOINT */
	if ((p = pk_pmu_tree__find(t, "uprobe"))) {
		check_format(p, "retprobe", 0, 1, 1);
		check_format(p, "ref_ctr_offset", 0, UINT64_C(0xffffffff00000000), 32);
	}
	if ((p = pk_pmu_tree__find(t, "msr"))) {
		check_format(p, "event", 0, UINT64_MAX, 64);
		check_alias(p, "tsc", "event=0x00");
	}
	for (size_t i = 1; i < pk_pmu_tree__nr_pmus(t); i++)
		assert_true(strcmp(pk_pmu__name(pk_pmu_tree__pmu(t, i - 1)),
				   pk_pmu__name(pk_pmu_tree__pmu(t, i))) != 0);
	pk_pmu_tree__free(t);
}

/* Values go into split ranges low bits first, and come back out; too wide is refused. */
static void test_format_place_extract(void **state)
{
	(void)state;
	struct pk_pmu_format f;
	assert_int_equal(pk_pmu_format__parse("config:0-7,32-35", &f), 0);
	uint64_t cfg[4] = { 0x100, 0, 0, 0 };	/* bit 8 belongs to another term: kept */
	assert_int_equal(pk_pmu_format__place(&f, 0x1ff, cfg), 0);
	assert_true(cfg[0] == (0xffull | 0x100ull | (1ull << 32)));
	assert_true(pk_pmu_format__extract(&f, cfg) == 0x1ff);
	assert_int_equal(pk_pmu_format__place(&f, 0x1000, cfg), -ERANGE);
	assert_int_equal(pk_pmu_format__parse("config1:5-16", &f), 0);	/* arm64 threshold */
	uint64_t c1[4] = { 0 };
	assert_int_equal(pk_pmu_format__place(&f, 4095, c1), 0);
	assert_true(c1[1] == 0xfffull << 5);
	assert_int_equal(pk_pmu_format__place(&f, 4096, c1), -ERANGE);
	assert_true(pk_pmu_format__extract(&f, c1) == 4095);
	assert_int_equal(pk_pmu_format__parse("config:21", &f), 0);	/* single bit */
	uint64_t c2[4] = { 0 };
	assert_int_equal(pk_pmu_format__place(&f, 1, c2), 0);
	assert_true(c2[0] == 1ull << 21);
	assert_int_equal(pk_pmu_format__place(&f, 2, c2), -ERANGE);
}

/* Offline core PMUs carry the kernel's formats; existing PMUs are kept. */
static void test_synthetic_core(void **state)
{
	(void)state;
	struct pk_pmu_tree *t;
	assert_int_equal(pk_pmu_tree__new(&t), 0);
	assert_false(pk_pmu_tree__has_core(t));
	assert_int_equal(pk_pmu_tree__add_core(t, "x86", "hybrid"), 0);
	assert_true(pk_pmu_tree__has_core(t));
	const struct pk_pmu *atom = pk_pmu_tree__find(t, "cpu_atom");
	assert_non_null(atom);
	assert_int_equal(pk_pmu__type(atom), 10);
	assert_true(pk_pmu__is_core(atom));
	const struct pk_pmu_format *f = pk_pmu__find_format(atom, "cmask");
	assert_non_null(f);
	assert_true(f->mask == 0xff000000ull);
	assert_int_equal(pk_pmu__type(pk_pmu_tree__find(t, "software")), 1);
	assert_false(pk_pmu__is_core(pk_pmu_tree__find(t, "software")));
	pk_pmu_tree__free(t);

	assert_int_equal(pk_pmu_tree__new(&t), 0);
	assert_int_equal(pk_pmu_tree__add_core(t, "arm64", NULL), 0);
	const struct pk_pmu *arm = pk_pmu_tree__find(t, "armv8_pmuv3");
	f = pk_pmu__find_format(arm, "threshold");
	assert_int_equal(f->config, 1);
	assert_true(f->mask == 0xfffull << 5);
	assert_string_equal(pk_pmu__cap(arm, "threshold_max"), "0x00000fff");
	pk_pmu_tree__free(t);

	assert_int_equal(pk_pmu_tree__new(&t), 0);
	assert_int_equal(pk_pmu_tree__add_core(t, "x86", "amd"), 0);
	f = pk_pmu__find_format(pk_pmu_tree__find(t, "cpu"), "event");
	assert_true(f->mask == (0xffull | 0xfull << 32));
	assert_int_equal(pk_pmu_tree__add_core(t, "sparc", NULL), -ENOTSUP);
	pk_pmu_tree__free(t);

	/* a real tree keeps its own PMUs */
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs/x86-skl",
		 getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".");
	struct pk_error err;
	assert_int_equal(pk_pmu_tree__open(&t, path, &err), 0);
	size_t n = pk_pmu_tree__nr_pmus(t);
	assert_int_equal(pk_pmu_tree__add_core(t, "x86", NULL), 0);
	assert_int_equal(pk_pmu_tree__nr_pmus(t), n);
	pk_pmu_tree__free(t);
}


/* --- derived facts (pmu/derived.h) ------------------------------------------------------ */

static char *upper(const char *s, char *buf, size_t len)
{
	size_t i = 0;
	for (; s[i] && i + 1 < len; i++)
		buf[i] = s[i] >= 'a' && s[i] <= 'z' ? (char)(s[i] - 'a' + 'A') : s[i];
	buf[i] = '\0';
	return buf;
}

/* Every derived fact equals what the public lookups answer. */
static void check_derived(const struct pk_pmu_tree *t)
{
	const struct pk_pmu_tree_derived *td = pk_pmu_tree__derived(t);
	size_t n = pk_pmu_tree__nr_pmus(t), nh = 0;
	int lowest = -1;
	bool metrics = false;
	char buf[256];
	assert_non_null(td);
	assert_int_equal(td->nr_order, n);
	for (size_t i = 0; i < n; i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(t, i);
		const struct pk_pmu_derived *d = pk_pmu__derived(p);
		const char *mp = pk_pmu__cap(p, "max_precise");
		assert_int_equal(d->has_max_precise, mp != NULL);
		assert_int_equal(d->max_precise, mp ? atoi(mp) : -1);
		if (mp && (lowest < 0 || atoi(mp) < lowest))
			lowest = atoi(mp);
		assert_ptr_equal(d->threshold_max, pk_pmu__cap(p, "threshold_max"));
		const struct pk_pmu_format *acr = NULL;
		for (size_t k = 0; k < pk_pmu__nr_formats(p); k++)
			if (!strcmp(pk_pmu__format(p, k)->name, "acr_mask"))
				acr = pk_pmu__format(p, k);
		assert_ptr_equal(d->acr_mask, acr);
		bool slots = false, aux = false;
		for (size_t k = 0; k < pk_pmu__nr_aliases(p); k++) {
			const struct pk_pmu_alias *a = pk_pmu__alias(p, k);
			slots |= !strcasecmp(a->name, "slots");
			aux |= !strcasecmp(a->name, "mem-loads-aux");
			/* the quick refusal never refuses an alias, in any case */
			assert_non_null(pk_pmu__find_alias(p, a->name));
			assert_string_equal(pk_pmu__find_alias(p, a->name)->name, a->name);
			assert_non_null(pk_pmu__find_alias(p, upper(a->name, buf, sizeof(buf))));
		}
		for (size_t k = 0; k < pk_pmu__nr_formats(p); k++)
			assert_ptr_equal(pk_pmu__find_format(p, pk_pmu__format(p, k)->name),
					 pk_pmu__format(p, k));
		assert_int_equal(d->has_slots, slots);
		assert_int_equal(d->has_mem_loads_aux, aux);
		metrics |= pk_pmu__type(p) == 4 && slots;
		/* the order: (kernfs hash, name), each PMU once, ranks its positions */
		assert_int_equal(d->kernfs_hash, pk_pmu__kernfs_hash(pk_pmu__name(p)));
		assert_ptr_equal(td->order[d->kernfs_rank], p);
		const char *nm = pk_pmu__name(p);
		if (!strncmp(nm, "cpu_", 4) && pk_pmu__is_core(p) && !pk_pmu__is_uncore(p))
			nh++;
	}
	for (size_t i = 1; i < td->nr_order; i++) {
		const struct pk_pmu_derived *a = pk_pmu__derived(td->order[i - 1]),
					    *b = pk_pmu__derived(td->order[i]);
		assert_true(a->kernfs_hash < b->kernfs_hash ||
			    (a->kernfs_hash == b->kernfs_hash &&
			     strcmp(pk_pmu__name(td->order[i - 1]), pk_pmu__name(td->order[i])) < 0));
	}
	assert_int_equal(td->max_precise, lowest);
	assert_int_equal(td->perf_metrics, metrics);
	assert_int_equal(td->nr_hybrid, nh);
	for (size_t i = 0; i < td->nr_hybrid; i++) {
		assert_ptr_equal(td->hybrid[i], pk_pmu_tree__find(t, pk_pmu__name(td->hybrid[i])));
		if (i)
			assert_true(pk_pmu__derived(td->hybrid[i - 1])->kernfs_rank <
				    pk_pmu__derived(td->hybrid[i])->kernfs_rank);
	}
}

/* The candidates for a name cover every PMU the public lookups accept. */
static void check_candidates(const struct pk_pmu_tree *t, const char *name, const char *const *tps,
			     size_t nt)
{
	size_t n = pk_pmu_tree__nr_pmus(t);
	unsigned char mark[256] = { 0 };
	uint32_t idx[256];
	struct pk_table_pmu tp[8];
	assert_true(n <= 256 && nt <= 8);
	for (size_t k = 0; k < nt; k++)
		pk_table_pmu__init(&tp[k], tps[k]);
	size_t nc = pk_pmu_tree__candidates(t, name, pk_pmu__name_hash(name), tp, nt, mark, idx);
	/* the list: the marked PMUs, each once, in tree order */
	size_t marked = 0;
	for (size_t i = 0; i < n; i++)
		marked += mark[i];
	assert_int_equal(nc, marked);
	for (size_t c = 0; c < nc; c++) {
		assert_true(idx[c] < n && mark[idx[c]]);
		if (c)
			assert_true(idx[c - 1] < idx[c]);
	}
	for (size_t i = 0; i < n; i++) {
		const struct pk_pmu *p = pk_pmu_tree__pmu(t, i);
		bool want = pk_pmu__find_alias(p, name) ||
			    (pk_pmu__is_uncore(p) && pk_pmu__identifier(p));
		for (size_t k = 0; k < nt; k++) {
			want |= pk_pmu__matches_table_pmu(p, tps[k]);
			assert_int_equal(pk_pmu__matches_prepared(p, &tp[k]),
					 pk_pmu__matches_table_pmu(p, tps[k]));
		}
		if (want && !mark[i])
			fail_msg("%s: %s is not a candidate", name, pk_pmu__name(p));
	}
}

static void test_derived(void **state)
{
	(void)state;
	static const char *const fixtures[] = { "x86-skl", "x86-icl", "x86-hybrid", "arm64-het" };
	static const char *const tps[] = {
		"cpu", "default_core", "uncore_cha", "cha", "uncore_imc", "hisi_sccl,ddrc",
		"hisi_sicl,cpa", "arm_cmn", "cpu_core", "cpu_atom", "armv8_pmuv3", "power", "msr",
		"nonexistent", "d", "u", "",
	};
	char buf[256];
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		struct pk_pmu_tree *t = open_fixture(fixtures[f]);
		check_derived(t);
		for (size_t i = 0; i < pk_pmu_tree__nr_pmus(t); i++) {
			const struct pk_pmu *p = pk_pmu_tree__pmu(t, i);
			for (size_t k = 0; k < pk_pmu__nr_aliases(p); k++) {
				const char *a = pk_pmu__alias(p, k)->name;
				check_candidates(t, a, tps, 3);
				check_candidates(t, upper(a, buf, sizeof(buf)), NULL, 0);
			}
			check_candidates(t, pk_pmu__name(p), NULL, 0);
		}
		for (size_t k = 0; k < sizeof(tps) / sizeof(tps[0]); k++)
			check_candidates(t, "l1d.replacement", &tps[k], 1);
		check_candidates(t, "cycles", tps, 8);
		pk_pmu_tree__free(t);
	}
	/* hybrid: the two core PMUs in sysfs order; Ice Lake: perf metrics */
	struct pk_pmu_tree *t = open_fixture("x86-hybrid");
	assert_int_equal(pk_pmu_tree__derived(t)->nr_hybrid, 2);
	pk_pmu_tree__free(t);
	t = open_fixture("x86-icl");
	assert_true(pk_pmu_tree__derived(t)->perf_metrics);
	pk_pmu_tree__free(t);
}

/* The facts follow the tree when it changes (they point into its PMU array, which moves). */
static void test_derived_follows_changes(void **state)
{
	(void)state;
	struct pk_pmu_tree *t;
	assert_int_equal(pk_pmu_tree__new(&t), 0);
	const struct pk_pmu_tree_derived *td = pk_pmu_tree__derived(t);
	assert_int_equal(td->max_precise, -1);
	assert_int_equal(td->nr_hybrid, 0);
	assert_int_equal(td->nr_order, 0);
	unsigned char mark[4] = { 0 };
	uint32_t idx[4];
	assert_int_equal(pk_pmu_tree__candidates(t, "cycles", pk_pmu__name_hash("cycles"), NULL, 0,
						 mark, idx), 0);
	check_derived(t);

	assert_int_equal(pk_pmu_tree__add_core(t, "x86", "hybrid"), 0);
	td = pk_pmu_tree__derived(t);
	assert_int_equal(td->nr_hybrid, 2);
	check_derived(t);
	const char *names[2] = { pk_pmu__name(td->hybrid[0]), pk_pmu__name(td->hybrid[1]) };
	assert_true((!strcmp(names[0], "cpu_core") && !strcmp(names[1], "cpu_atom")) ||
		    (!strcmp(names[0], "cpu_atom") && !strcmp(names[1], "cpu_core")));
	size_t before = td->nr_order;

	/* a PMU more: the array is reallocated, every fact recomputed */
	assert_int_equal(pk_pmu_tree__add_core(t, "x86", NULL), 0);
	td = pk_pmu_tree__derived(t);
	assert_int_equal(td->nr_order, before + 1);
	assert_int_equal(td->nr_order, pk_pmu_tree__nr_pmus(t));
	check_derived(t);
	unsigned char m2[64] = { 0 };
	uint32_t i2[64];
	struct pk_table_pmu tp;
	pk_table_pmu__init(&tp, "default_core");
	pk_pmu_tree__candidates(t, "x", pk_pmu__name_hash("x"), &tp, 1, m2, i2);
	for (size_t i = 0; i < pk_pmu_tree__nr_pmus(t); i++)
		if (pk_pmu__is_core(pk_pmu_tree__pmu(t, i)))
			assert_true(m2[i]);
	pk_pmu_tree__free(t);

	/* arm64: threshold_max, read from the synthetic PMU's caps */
	assert_int_equal(pk_pmu_tree__new(&t), 0);
	assert_int_equal(pk_pmu_tree__add_core(t, "arm64", NULL), 0);
	check_derived(t);
	assert_string_equal(pk_pmu__derived(pk_pmu_tree__find(t, "armv8_pmuv3"))->threshold_max,
			    "0x00000fff");
	pk_pmu_tree__free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_parse_valid),
		cmocka_unit_test(test_format_parse_invalid),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_skl_pmus),
		cmocka_unit_test(test_skl_cpu),
		cmocka_unit_test(test_skl_uncore_and_power),
		cmocka_unit_test(test_skl_table_match),
		cmocka_unit_test(test_icl),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test_setup_teardown(test_odd_tree, odd_setup, odd_teardown),
		cmocka_unit_test(test_null_args),
		cmocka_unit_test(test_real_sysfs),
		cmocka_unit_test(test_format_place_extract),
		cmocka_unit_test(test_synthetic_core),
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_derived_follows_changes),
	};
	return cmocka_run_group_tests_name("pmu", tests, NULL, NULL);
}
