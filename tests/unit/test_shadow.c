/* SPDX-License-Identifier: MIT */
/*
 * test_shadow.c — perf stat's built-in metrics from the library
 * (pmukit/shadow.h): kinds from attrs and printed names, contexts from
 * exclude bits and modifiers, and each metric's value, format and label
 * computed here from the counts given (ratios pair equal contexts and PMUs,
 * GHz takes any clock, rates pick K/M/G, a clock that never ran gives 0 /sec,
 * rows read with the caller's stride).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <linux/perf_event.h>

#include <pmukit/shadow.h>

static struct pk_shadow_value val(enum pk_shadow_kind kind, double v)
{
	return (struct pk_shadow_value){ .sz = sizeof(struct pk_shadow_value), .kind = kind,
					 .value = v, .status = PK_COUNT_OK };
}

static void test_kinds(void **state)
{
	(void)state;
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS };
	assert_int_equal(pk_shadow__kind_of_attr(&a), PK_SHADOW_INSTRUCTIONS);
	a.config = PERF_COUNT_HW_CPU_CYCLES | (8ull << 32);	/* a hybrid PMU's cycles */
	assert_int_equal(pk_shadow__kind_of_attr(&a), PK_SHADOW_CYCLES);
	a = (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK };
	assert_int_equal(pk_shadow__kind_of_attr(&a), PK_SHADOW_NSECS);
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	assert_int_equal(pk_shadow__kind_of_attr(&a), PK_SHADOW_OTHER);
	a = (struct perf_event_attr){ .type = PERF_TYPE_HW_CACHE, .config = PERF_COUNT_HW_CACHE_L1D |
		(PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16) };
	assert_int_equal(pk_shadow__kind_of_attr(&a), PK_SHADOW_L1D_MISSES);
	assert_int_equal(pk_shadow__kind_of_name("cpu_core/cycles/"), PK_SHADOW_CYCLES);
	assert_int_equal(pk_shadow__kind_of_name("instructions:u"), PK_SHADOW_INSTRUCTIONS);
	assert_int_equal(pk_shadow__kind_of_name("LLC-load-misses"), PK_SHADOW_LL_MISSES);
	assert_int_equal(pk_shadow__kind_of_name("sched:sched_switch"), PK_SHADOW_OTHER);
}

static void test_contexts(void **state)
{
	(void)state;
	struct perf_event_attr u = { .exclude_kernel = 1, .exclude_hv = 1 };
	assert_int_equal(pk_shadow__ctx_of_name("cycles:u"), pk_shadow__ctx_of_attr(&u));
	assert_int_equal(pk_shadow__ctx_of_name("cpu/cycles/u"), pk_shadow__ctx_of_attr(&u));
	assert_int_equal(pk_shadow__ctx_of_name("cycles"), 0);
	assert_int_equal(pk_shadow__ctx_of_name("sched:sched_switch"), 0);
	assert_int_not_equal(pk_shadow__ctx_of_name("cycles:k"), pk_shadow__ctx_of_name("cycles:u"));
}

static void test_metrics(void **state)
{
	(void)state;
	const double ns = 2.5e9, cyc = 7.5e9, insn = 9e9, fe = 1e9, be = 2e9;
	struct pk_shadow_value v[] = {
		val(PK_SHADOW_NSECS, ns), val(PK_SHADOW_CYCLES, cyc), val(PK_SHADOW_INSTRUCTIONS, insn),
		val(PK_SHADOW_STALLED_FRONT, fe), val(PK_SHADOW_STALLED_BACK, be),
		val(PK_SHADOW_BRANCHES, 4e8), val(PK_SHADOW_BRANCH_MISSES, 1e6),
		val(PK_SHADOW_OTHER, 500),
	};
	const size_t n = sizeof(v) / sizeof(v[0]);
	struct pk_shadow_metric m[PK_SHADOW_MAX_METRICS];
	const double wall = 1.25e9;

	assert_int_equal(pk_shadow__metrics(v, n, 0, wall, m), 1);
	assert_string_equal(m[0].label, "CPUs utilized");
	assert_true(m[0].value == ns / wall);
	assert_int_equal(pk_shadow__metrics(v, n, 1, wall, m), 1);
	assert_string_equal(m[0].label, "GHz");
	assert_true(m[0].value == cyc / ns);
	assert_int_equal(pk_shadow__metrics(v, n, 2, wall, m), 2);
	assert_string_equal(m[0].label, "insn per cycle");
	assert_true(m[0].value == insn / cyc);
	assert_string_equal(m[1].label, "stalled cycles per insn");
	assert_true(m[1].value == be / insn);	/* the larger of the two stalls */
	assert_int_equal(pk_shadow__metrics(v, n, 3, wall, m), 1);
	assert_string_equal(m[0].label, "frontend cycles idle");
	assert_true(m[0].value == fe / cyc * 100.0);
	assert_string_equal(m[0].fmt, "%7.2f%%");
	assert_int_equal(pk_shadow__metrics(v, n, 6, wall, m), 1);
	assert_string_equal(m[0].label, "of all branches");
	assert_true(m[0].value == 1e6 / 4e8 * 100.0);
	assert_int_equal(pk_shadow__metrics(v, n, 7, wall, m), 1);	/* 500 in 2.5 s */
	assert_string_equal(m[0].label, "/sec");
	assert_true(m[0].value == 1e9 * 500 / ns);
	assert_int_equal(pk_shadow__metrics(v, n, 5, wall, m), 1);	/* 4e8 in 2.5 s */
	assert_string_equal(m[0].label, "M/sec");
	assert_true(m[0].value == 1e9 * 4e8 / ns / 1e6);
	/* no wall time: CPUs utilized printed empty */
	assert_int_equal(pk_shadow__metrics(v, n, 0, 0, m), 1);
	assert_null(m[0].fmt);
	/* an event that did not count has none */
	v[7].status = PK_COUNT_NOT_COUNTED;
	assert_int_equal(pk_shadow__metrics(v, n, 7, wall, m), 0);
	assert_int_equal(pk_shadow__metrics(v, n, n, wall, m), 0);
}

static void test_pairing(void **state)
{
	(void)state;
	struct pk_shadow_metric m[PK_SHADOW_MAX_METRICS];
	/* instructions:u pairs with cycles:u, not with cycles */
	struct pk_shadow_value v[] = { val(PK_SHADOW_CYCLES, 100), val(PK_SHADOW_CYCLES, 40),
				       val(PK_SHADOW_INSTRUCTIONS, 80) };
	v[1].ctx = v[2].ctx = pk_shadow__ctx_of_name("cycles:u");
	assert_int_equal(pk_shadow__metrics(v, 3, 2, 0, m), 1);
	assert_true(m[0].value == 80.0 / 40);
	/* ... and with one PMU's cycles */
	v[0].ctx = v[1].ctx = v[2].ctx = 0;
	v[0].pmu = "cpu_atom", v[1].pmu = "cpu_core", v[2].pmu = "cpu_core";
	assert_int_equal(pk_shadow__metrics(v, 3, 2, 0, m), 1);
	assert_true(m[0].value == 80.0 / 40);
	/* GHz takes any clock, whatever its context; a clock that never ran gives 0 /sec */
	struct pk_shadow_value c[] = { val(PK_SHADOW_NSECS, 1e9), val(PK_SHADOW_CYCLES, 3e9),
				       val(PK_SHADOW_OTHER, 10) };
	c[1].ctx = pk_shadow__ctx_of_name("cycles:u");
	assert_int_equal(pk_shadow__metrics(c, 3, 1, 0, m), 1);
	assert_true(m[0].value == 3.0);
	c[0].status = PK_COUNT_NOT_COUNTED;
	assert_int_equal(pk_shadow__metrics(c, 3, 2, 0, m), 1);
	assert_true(m[0].value == 0);
	assert_string_equal(m[0].label, "/sec");
	/* no clock at all: no rate */
	c[0].kind = PK_SHADOW_OTHER;
	assert_int_equal(pk_shadow__metrics(c, 3, 2, 0, m), 0);
}

/* a newer caller's rows are longer: the library steps by their sz */
static void test_stride(void **state)
{
	(void)state;
	struct wide {
		struct pk_shadow_value v;
		char more[24];
	} w[2];
	memset(w, 0x5a, sizeof(w));
	for (int i = 0; i < 2; i++) {
		w[i].v = val(i ? PK_SHADOW_INSTRUCTIONS : PK_SHADOW_CYCLES, i ? 30 : 10);
		w[i].v.sz = sizeof(struct wide);
	}
	struct pk_shadow_metric m[PK_SHADOW_MAX_METRICS];
	assert_int_equal(pk_shadow__metrics(&w[0].v, 2, 1, 0, m), 1);
	assert_true(m[0].value == 3.0);
	w[0].v.sz = 4;	/* too short to hold a value */
	assert_int_equal(pk_shadow__metrics(&w[0].v, 2, 1, 0, m), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_contexts),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_stride),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
