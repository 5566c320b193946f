/* SPDX-License-Identifier: MIT */
/*
 * test_explain.c — what attrs mean: privilege levels, arm64 exception levels on
 * VHE/non-VHE hosts and in guests (the cases of Documentation/arch/arm64/
 * perf.rst), threshold decoding from config1, reverse lookup of raw configs.
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

#include <pmukit/explain.h>
#include <pmukit/pmukit.h>

static void test_levels(void **state)
{
	(void)state;
	struct perf_event_attr a = { .exclude_kernel = 1, .exclude_hv = 1, .exclude_guest = 1 };
	struct pk_levels l;
	char buf[256];
	pk_explain__levels(&a, &l);
	assert_true(l.user);
	assert_false(l.kernel);
	assert_string_equal(pk_explain__levels_text(&l, buf, sizeof(buf)),
			    "user; host only (guest excluded)");
	struct perf_event_attr b = { 0 };
	pk_explain__levels(&b, &l);
	assert_string_equal(pk_explain__levels_text(&l, buf, sizeof(buf)),
			    "user, kernel and hypervisor; host and guest");
	b.exclude_idle = 1;
	b.exclude_user = 1;
	pk_explain__levels(&b, &l);
	assert_string_equal(pk_explain__levels_text(&l, buf, sizeof(buf)),
			    "kernel and hypervisor; host and guest; not when idle");
}

static void test_arm64_els(void **state)
{
	(void)state;
	struct pk_arm64_els e;
	char buf[256];
	/* exclude_kernel: VHE host loses EL2 (its kernel) — the guest loses EL1 */
	struct perf_event_attr k = { .exclude_kernel = 1 };
	pk_explain__arm64_els(&k, PK_ARM64_VHE_HOST, &e);
	assert_true(e.host_el0 && !e.host_el1 && !e.host_el2);
	assert_true(e.guest_el0 && !e.guest_el1);
	/* exclude_hv is ignored on VHE, excludes EL2 on non-VHE, no effect in a guest */
	struct perf_event_attr hv = { .exclude_hv = 1 };
	pk_explain__arm64_els(&hv, PK_ARM64_VHE_HOST, &e);
	assert_true(e.host_el0 && e.host_el2);
	pk_explain__arm64_els(&hv, PK_ARM64_NVHE_HOST, &e);
	assert_true(e.host_el0 && e.host_el1 && !e.host_el2);
	assert_false(e.blackout);
	pk_explain__arm64_els(&hv, PK_ARM64_GUEST, &e);
	assert_true(e.host_el0 && e.host_el1 && !e.host_el2);
	/* non-VHE counting EL2: the blackout window note */
	struct perf_event_attr all = { 0 };
	pk_explain__arm64_els(&all, PK_ARM64_NVHE_HOST, &e);
	assert_true(e.host_el2 && e.blackout);
	assert_non_null(strstr(pk_explain__arm64_text(&e, PK_ARM64_NVHE_HOST, buf, sizeof(buf)),
			       "blackout"));
	/* exclude_host: only the guest's EL0/EL1 */
	struct perf_event_attr g = { .exclude_host = 1 };
	pk_explain__arm64_els(&g, PK_ARM64_VHE_HOST, &e);
	assert_true(!e.host_el0 && !e.host_el2 && e.guest_el0 && e.guest_el1);
	assert_string_equal(pk_explain__arm64_text(&e, PK_ARM64_VHE_HOST, buf, sizeof(buf)),
			    "host: nothing; guests: EL0 EL1");
	/* never EL2 inside a guest */
	pk_explain__arm64_els(&all, PK_ARM64_GUEST, &e);
	assert_false(e.host_el2);
	assert_non_null(strstr(pk_explain__arm64_text(&e, PK_ARM64_GUEST, buf, sizeof(buf)),
			       "never counted within a guest"));
}

static const struct pk_pmu *arm_pmu(struct pk_pmu_tree **t)
{
	assert_int_equal(pk_pmu_tree__new(t), 0);
	assert_int_equal(pk_pmu_tree__add_core(*t, "arm64", NULL), 0);
	return pk_pmu_tree__find(*t, "armv8_pmuv3");
}

static void test_threshold(void **state)
{
	(void)state;
	struct pk_pmu_tree *t;
	const struct pk_pmu *p = arm_pmu(&t);
	/* stall_slot/threshold=2,threshold_compare=2/: config1 = 2<<5 | 2<<2 */
	struct perf_event_attr a = { .config = 0x3f, .config1 = (2u << 5) | (2u << 2) };
	struct pk_threshold th;
	char buf[256];
	pk_explain__threshold(p, &a, &th);
	assert_true(th.present);
	assert_int_equal(th.value, 2);
	assert_int_equal(th.compare, 2);
	assert_false(th.count);
	assert_string_equal(pk_explain__threshold_text(&th, "stall_slot", buf, sizeof(buf)),
			    "counts stall_slot on cycles where it increments by >= 2, by the "
			    "increment of that cycle");
	/* dtlb_walk/threshold=10,threshold_compare=3,threshold_count/ */
	struct perf_event_attr b = { .config1 = (10u << 5) | (3u << 2) | (1u << 4) };
	pk_explain__threshold(p, &b, &th);
	assert_int_equal(th.value, 10);
	assert_int_equal(th.compare, 3);
	assert_true(th.count);
	assert_non_null(strstr(pk_explain__threshold_text(&th, "dtlb_walk", buf, sizeof(buf)),
			       "< 10, by 1 per such cycle"));
	/* threshold 0 disables it */
	struct perf_event_attr c = { .config1 = 3u << 2 };
	pk_explain__threshold(p, &c, &th);
	assert_false(th.present);
	pk_pmu_tree__free(t);
}

static void test_reverse_lookup(void **state)
{
	(void)state;
	struct pk_catalog *cat;
	struct pk_pmu_tree *t;
	size_t model;
	assert_int_equal(pk_catalog__open_builtin(&cat), 0);
	assert_int_equal(pk_catalog__find_model(cat, "x86/skylake", &model), 0);
	assert_int_equal(pk_pmu_tree__new(&t), 0);
	assert_int_equal(pk_pmu_tree__add_core(t, "x86", NULL), 0);
	const struct pk_pmu *cpu = pk_pmu_tree__find(t, "cpu");
	/* r02c2 on skylake: event 0xc2 umask 0x02 (6.12 data has no umask 1 for 0xc2) */
	struct perf_event_attr a = { .type = 4, .config = 0x2c2 };
	struct pk_event e = { .sz = sizeof(e) };
	assert_int_equal(pk_explain__reverse(cat, model, cpu, &a, &e), 0);
	assert_string_equal(e.name, "uops_retired.retire_slots");
	/* cmask and inv are part of the match: 0x2c2 with cmask=1,inv=1 is another event */
	struct perf_event_attr a2 = { .type = 4, .config = 0x2c2 | 1ull << 23 | 1ull << 24 };
	assert_int_equal(pk_explain__reverse(cat, model, cpu, &a2, &e), 0);
	assert_string_equal(e.name, "uops_retired.stall_cycles");
	/* l1d.replacement's own config comes back as l1d.replacement */
	struct perf_event_attr b = { .type = 4, .config = 0x151 };
	assert_int_equal(pk_explain__reverse(cat, model, cpu, &b, &e), 0);
	assert_string_equal(e.name, "l1d.replacement");
	struct perf_event_attr c = { .type = 4, .config = 0xffffffull << 40 };
	assert_int_equal(pk_explain__reverse(cat, model, cpu, &c, &e), -ENOENT);
	pk_pmu_tree__free(t);
	pk_catalog__free(cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_arm64_els),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_reverse_lookup),
	};
	return cmocka_run_group_tests_name("explain", tests, NULL, NULL);
}
