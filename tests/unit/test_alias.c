/* SPDX-License-Identifier: MIT */
/*
 * test_alias.c — sysfs aliases merged with the built-in tables as perf merges
 * them, sys events matched by Compat, and one table per core PMU on a
 * heterogeneous arm64 machine (fake PMU and CPU trees).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/pmukit.h>

static char *fixture(const char *rel)
{
	static char path[4096];	/* test-local scratch, not library state */
	const char *src = getenv("PMUKIT_SRC");
	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src ? src : ".", rel);
	return path;
}

struct ctx {
	struct pk_catalog *cat;
	struct pk_pmu_tree *tree;
	size_t model;
};

static struct ctx open_ctx(const char *tree, const char *model)
{
	struct ctx c;
	struct pk_error err;
	assert_int_equal(pk_catalog__open_builtin(&c.cat), 0);
	assert_int_equal(pk_pmu_tree__open(&c.tree, fixture(tree), &err), 0);
	assert_int_equal(pk_catalog__find_model(c.cat, model, &c.model), 0);
	return c;
}

static void close_ctx(struct ctx *c)
{
	pk_catalog__free(c->cat);
	pk_pmu_tree__free(c->tree);
}

static void test_sysfs_only_and_table_only(void **state)
{
	(void)state;
	struct ctx c = open_ctx("sysfs/x86-skl", "x86/skylake");
	const struct pk_pmu *cpu = pk_pmu_tree__find(c.tree, "cpu");
	struct pk_alias a;
	assert_int_equal(pk_alias__find(cpu, c.cat, c.model, "cpu-cycles", &a), 0);
	assert_true(a.from_sysfs);
	assert_false(a.from_table);
	assert_string_equal(a.encoding, "event=0x3c");
	assert_null(a.desc);
	assert_int_equal(pk_alias__find(cpu, c.cat, c.model, "L1D.REPLACEMENT", &a), 0);
	assert_false(a.from_sysfs);
	assert_true(a.from_table);
	assert_string_equal(a.encoding, "event=0x51,period=2000003,umask=1");
	assert_string_equal(a.topic, "cache");
	assert_non_null(a.desc);
	/* a core event is not an uncore PMU's alias, and the reverse */
	const struct pk_pmu *cha = pk_pmu_tree__find(c.tree, "uncore_cha_0");
	assert_int_equal(pk_alias__find(cha, c.cat, c.model, "l1d.replacement", &a), -ENOENT);
	assert_int_equal(pk_alias__find(cpu, c.cat, c.model, "nope.nope", &a), -ENOENT);
	/* without a model only sysfs answers */
	assert_int_equal(pk_alias__find(cpu, c.cat, PK_NO_MODEL, "l1d.replacement", &a), -ENOENT);
	/* scale and unit from sysfs */
	const struct pk_pmu *power = pk_pmu_tree__find(c.tree, "power");
	assert_int_equal(pk_alias__find(power, c.cat, c.model, "energy-pkg", &a), 0);
	assert_string_equal(a.unit, "Joules");
	assert_true(a.scale > 2.32e-10 && a.scale < 2.33e-10);
	close_ctx(&c);
}

/* arm64: the sysfs alias cpu_cycles is updated by the table's CPU_CYCLES, as perf does. */
static void test_sysfs_updated_by_table(void **state)
{
	(void)state;
	struct ctx c = open_ctx("sysfs/arm64-het", "arm64/arm/neoverse-n1");
	const struct pk_pmu *p = pk_pmu_tree__find(c.tree, "armv8_pmuv3_0");
	struct pk_alias a;
	assert_int_equal(pk_alias__find(p, c.cat, c.model, "CPU_CYCLES", &a), 0);
	assert_true(a.from_sysfs);
	assert_true(a.from_table);
	assert_string_equal(a.encoding, "event=0x11");	/* the table's terms */
	assert_non_null(a.desc);
	assert_string_equal(a.table_pmu, "default_core");
	close_ctx(&c);
}

static int count_cb(const struct pk_alias *a, void *ctx)
{
	size_t *n = ctx;
	n[0]++;
	if (a->from_sysfs && a->from_table)
		n[1]++;
	if (!strcmp(a->name, "hnf_cache_miss"))
		n[2]++;
	return 0;
}

/* sys events: arm_cmn_0's identifier matches the Compat of arm/cmn/sys. */
static void test_sys_events_by_compat(void **state)
{
	(void)state;
	struct ctx c = open_ctx("sysfs/arm64-het", "arm64/arm/neoverse-n1");
	const struct pk_pmu *cmn = pk_pmu_tree__find(c.tree, "arm_cmn_0");
	struct pk_alias a;
	assert_int_equal(pk_alias__find(cmn, c.cat, c.model, "hnf_cache_miss", &a), 0);
	assert_true(a.from_table);
	assert_string_equal(a.encoding, "eventid=1,type=5");
	/* a PMU whose identifier matches no Compat gets no sys events */
	const struct pk_pmu *ddrc = pk_pmu_tree__find(c.tree, "hisi_sccl1_ddrc0");
	assert_int_equal(pk_alias__find(ddrc, c.cat, c.model, "hnf_cache_miss", &a), -ENOENT);
	size_t n[3] = { 0 };
	assert_int_equal(pk_alias__for_each(cmn, c.cat, c.model, count_cb, n), 0);
	assert_true(n[0] > 10);
	assert_int_equal(n[2], 1);
	/* every core alias once; the sysfs ones that the table knows are merged */
	const struct pk_pmu *core = pk_pmu_tree__find(c.tree, "armv8_pmuv3_0");
	memset(n, 0, sizeof(n));
	assert_int_equal(pk_alias__for_each(core, c.cat, c.model, count_cb, n), 0);
	struct pk_model md;
	pk_catalog__model(c.cat, c.model, &md);
	assert_true(n[0] >= md.nr_events);
	assert_true(n[1] >= 3);	/* cpu_cycles, inst_retired, stall_slot */
	close_ctx(&c);
}

/* Each cluster's PMU gets its own CPU's table. */
static void test_model_per_core_pmu(void **state)
{
	(void)state;
	struct ctx c = open_ctx("sysfs/arm64-het", "arm64/arm/neoverse-n1");
	size_t m0, m1;
	struct pk_model a, b;
	const char *cpus = fixture("cpu/arm64-biglittle");
	char root[4096];
	snprintf(root, sizeof(root), "%s", cpus);
	assert_int_equal(pk_alias__model_for_pmu(c.cat, pk_pmu_tree__find(c.tree, "armv8_pmuv3_0"),
						 "arm64", root, &m0),
			 0);
	assert_int_equal(pk_alias__model_for_pmu(c.cat, pk_pmu_tree__find(c.tree, "armv8_pmuv3_1"),
						 "arm64", root, &m1),
			 0);
	pk_catalog__model(c.cat, m0, &a);
	pk_catalog__model(c.cat, m1, &b);
	assert_string_equal(a.name, "arm/cortex-a55");
	assert_string_equal(b.name, "arm/cortex-a77");
	close_ctx(&c);
}

static void test_scale_unit(void **state)
{
	(void)state;
	double s;
	const char *u;
	assert_int_equal(pk_alias__parse_scale_unit("64Bytes", &s, &u), 0);
	assert_true(s == 64.0);
	assert_string_equal(u, "Bytes");
	assert_int_equal(pk_alias__parse_scale_unit("6.103515625e-5MiB", &s, &u), 0);
	assert_true(s > 6.1035e-5 && s < 6.1036e-5);
	assert_string_equal(u, "MiB");
	assert_int_equal(pk_alias__parse_scale_unit("Joules", &s, &u), 0);
	assert_true(s == 1.0);
	assert_int_equal(pk_alias__parse_scale_unit("", &s, &u), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_only_and_table_only),
		cmocka_unit_test(test_sysfs_updated_by_table),
		cmocka_unit_test(test_sys_events_by_compat),
		cmocka_unit_test(test_model_per_core_pmu),
		cmocka_unit_test(test_scale_unit),
	};
	return cmocka_run_group_tests_name("alias", tests, NULL, NULL);
}
