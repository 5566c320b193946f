/* SPDX-License-Identifier: MIT */
/*
 * test_count.c — counting mode (pmukit/count.h) on one task and on synthetic
 * counters: the scaling arithmetic and read(2) buffer decoding on synthetic
 * buffers, then real software events on a forked child (this binary
 * re-executed with --touch N, counters enabled at exec): page-faults of N
 * touched pages within a few percent of N, groups read with
 * PERF_FORMAT_GROUP, unsupported events marked while the rest count; -I
 * interval deltas and perf's aggregation rules (-A, --per-core/socket) on
 * synthetic counters. Counting over CPUs and running tasks (-a, -C, -p, -t)
 * is test_count_targets.c. `make bench` and stat.sh use --touch too.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>


#include <cmocka.h>

#include <pmukit/count.h>
#include <pmukit/spec.h>

#include "support/count_fixtures.h"	/* synthetic counters, the main */

#define RF_TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static void test_scale(void **state)
{
	(void)state;
	assert_true(pk_count__scale(1000, 200, 100) == 2000.0);
	assert_true(pk_count__scale(1000, 300, 100) == 3000.0);
	assert_true(pk_count__scale(10, 3, 2) == 15.0);
	assert_true(pk_count__scale(7, 3, 2) == 10.0);	/* 10.5 truncated, as perf */
	assert_true(pk_count__scale(1000, 100, 100) == 1000.0);
	assert_true(pk_count__scale(1000, 0, 0) == 1000.0);
	assert_true(pk_count__scale(1000, 100, 0) == 1000.0);
}

static void test_decode_group(void **state)
{
	(void)state;
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | RF_TIMES;
	uint64_t buf[] = { 2, 1000, 250, 40, 0x11, 7, 0x12 };
	struct pk_count_value v[2];

	assert_int_equal(pk_count__decode(rf, buf, sizeof(buf), 2, v), 0);
	assert_int_equal(v[0].status, PK_COUNT_OK);
	assert_int_equal(v[0].raw, 40);
	assert_true(v[0].scaled == 160.0);
	assert_true(v[1].scaled == 28.0);
	assert_true(v[0].percent == 25.0 && v[1].percent == 25.0);
	assert_int_equal(v[1].enabled, 1000);
	assert_int_equal(v[1].running, 250);
	/* wrong group size, short buffer */
	assert_int_equal(pk_count__decode(rf, buf, sizeof(buf), 3, v), -EINVAL);
	assert_int_equal(pk_count__decode(rf, buf, sizeof(buf) - 8, 2, v), -EINVAL);
	/* without ID */
	uint64_t b2[] = { 2, 500, 500, 3, 4 };
	assert_int_equal(pk_count__decode(PERF_FORMAT_GROUP | RF_TIMES, b2, sizeof(b2), 2, v), 0);
	assert_true(v[0].scaled == 3.0 && v[1].scaled == 4.0);
	assert_true(v[0].percent == 100.0);
	/* never ran: <not counted>, 0% running */
	uint64_t b3[] = { 1, 500, 0, 9, 0x11 };
	assert_int_equal(pk_count__decode(rf, b3, sizeof(b3), 1, v), 0);
	assert_int_equal(v[0].status, PK_COUNT_NOT_COUNTED);
	assert_true(v[0].percent == 0.0);
	assert_true(v[0].scaled == 0.0);
}

static void test_decode_single(void **state)
{
	(void)state;
	struct pk_count_value v;
	uint64_t b1[] = { 123, 1000, 500 };
	assert_int_equal(pk_count__decode(RF_TIMES, b1, sizeof(b1), 1, &v), 0);
	assert_true(v.scaled == 246.0 && v.percent == 50.0);
	uint64_t b2[] = { 123, 0x55 };
	assert_int_equal(pk_count__decode(PERF_FORMAT_ID, b2, sizeof(b2), 1, &v), 0);
	assert_true(v.scaled == 123.0 && v.percent == 100.0 && v.status == PK_COUNT_OK);
	uint64_t b3[] = { 123, 1000, 0 };
	assert_int_equal(pk_count__decode(RF_TIMES, b3, sizeof(b3), 1, &v), 0);
	assert_int_equal(v.status, PK_COUNT_NOT_COUNTED);
	assert_int_equal(pk_count__decode(RF_TIMES, b3, 16, 1, &v), -EINVAL);
	assert_int_equal(pk_count__decode(RF_TIMES, b3, sizeof(b3), 2, &v), -EINVAL);
}

/* Run this binary with --touch PAGES under counters for SPEC; values into out. */
static size_t count_touch(const char *spec, long pages, struct pk_count_value *out, size_t max)
{
	struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT, .workload = true };
	struct pk_spec_error serr = { 0 };
	struct pk_evlist *el = pk_evlist__new();
	struct pk_counter *c = NULL;
	struct pk_error err = { 0 };
	int gp[2];
	char arg[32];

	assert_non_null(el);
	assert_int_equal(pk_evlist__add(el, spec, &so, &serr), 0);
	assert_int_equal(pipe2(gp, O_CLOEXEC), 0);
	snprintf(arg, sizeof(arg), "%ld", pages);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		char ch;
		close(gp[1]);
		if (read(gp[0], &ch, 1) != 1)
			_exit(126);
		execl("/proc/self/exe", "test_count", "--touch", arg, (char *)NULL);
		_exit(127);
	}
	close(gp[0]);
	struct pk_count_opts co = { .sz = sizeof(co), .pid = pid };
	int ret = pk_counter__open(&c, el, &co, &err);
	if (ret)
		print_message("open: %s\n", err.msg);
	assert_int_equal(ret, 0);
	assert_int_equal(write(gp[1], "g", 1), 1);
	close(gp[1]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(pk_counter__read(c, &err), 0);
	size_t nr = pk_counter__nr(c);
	assert_true(nr <= max);
	for (size_t i = 0; i < nr; i++)
		assert_int_equal(pk_counter__value(c, i, &out[i]), 0);
	assert_int_equal(pk_counter__value(c, nr, &out[0]), -EINVAL);
	pk_counter__free(c);
	pk_evlist__free(el);
	return nr;
}

static void test_page_faults(void **state)
{
	(void)state;
	const long n = 4096;
	struct pk_count_value base[2], v[2];

	assert_int_equal(count_touch("task-clock,page-faults", 0, base, 2), 2);
	assert_int_equal(count_touch("task-clock,page-faults", n, v, 2), 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(v[i].status, PK_COUNT_OK);
		assert_true(v[i].running > 0 && v[i].running == v[i].enabled);
		assert_true(v[i].percent == 100.0);
	}
	assert_true(v[0].raw > 0);	/* task-clock, ns */
	double touched = v[1].scaled - base[1].scaled;
	print_message("# page-faults: %.0f for %ld pages (%.0f baseline)\n", touched, n,
		      base[1].scaled);
	assert_true(touched > n * 0.97 && touched < n * 1.03);
}

/*
 * A struct with only sz set counts the calling process on any CPU: this thread, moved to the
 * last online CPU, still counts its task-clock (a zero that meant CPU 0 counted nothing there).
 */
static void test_zeroed_opts(void **state)
{
	(void)state;
	struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT };
	struct pk_spec_error serr = { 0 };
	struct pk_evlist *el = pk_evlist__new();
	struct pk_counter *c = NULL;
	struct pk_error err = { 0 };
	struct pk_count_value v;
	cpu_set_t old, one;
	long last = sysconf(_SC_NPROCESSORS_ONLN) - 1;

	assert_non_null(el);
	assert_int_equal(pk_evlist__add(el, "task-clock", &so, &serr), 0);
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	CPU_ZERO(&one);
	CPU_SET((int)last, &one);
	if (last < 1 || sched_setaffinity(0, sizeof(one), &one))
		skip();		/* one CPU, or not allowed to move: nothing to tell apart */
	struct pk_count_opts co = { .sz = sizeof(co) };
	int ret = pk_counter__open(&c, el, &co, &err);
	if (ret)
		print_message("open: %s\n", err.msg);
	assert_int_equal(ret, 0);
	assert_int_equal(pk_counter__enable(c, &err), 0);
	volatile uint64_t x = 0;
	for (uint64_t i = 0; i < 20000000; i++)
		x += i;
	assert_int_equal(pk_counter__read(c, &err), 0);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
	assert_int_equal(pk_counter__nr_cpus(c), 1);
	assert_int_equal(pk_counter__cpu(c, 0), -1);
	assert_int_equal(v.status, PK_COUNT_OK);
	assert_true(v.raw > 1000000);	/* ns: the loop takes milliseconds */
	pk_counter__free(c);
	pk_evlist__free(el);
}

static void test_group(void **state)
{
	(void)state;
	struct pk_count_value v[3];

	assert_int_equal(count_touch("{task-clock,page-faults},context-switches", 256, v, 3), 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(v[i].status, PK_COUNT_OK);
	assert_true(v[0].raw > 0 && v[1].raw >= 256);
	assert_int_equal(v[0].enabled, v[1].enabled);	/* one group read */
	assert_int_equal(v[0].running, v[1].running);
}

static void test_unsupported(void **state)
{
	(void)state;
	struct pk_count_value v[4];

	/* no hardware PMU on these VMs: cycles and its group are <not supported>, the rest count */
	assert_int_equal(count_touch("cycles,page-faults,{instructions,task-clock}", 16, v, 4), 4);
	assert_int_equal(v[1].status, PK_COUNT_OK);
	assert_true(v[1].raw >= 16);
	assert_true(v[0].status == PK_COUNT_OK || v[0].status == PK_COUNT_NOT_SUPPORTED);
	if (v[0].status == PK_COUNT_NOT_SUPPORTED) {
		assert_true(v[0].open_errno == ENOENT || v[0].open_errno == EOPNOTSUPP ||
			    v[0].open_errno == EINVAL || v[0].open_errno == ENODEV);
		assert_int_equal(v[2].status, PK_COUNT_NOT_SUPPORTED);
		assert_int_equal(v[3].status, PK_COUNT_NOT_SUPPORTED);	/* member of a failed leader */
	}
}

/* --- issue 4: deltas and aggregation, synthetic ------------------------------------------------ */

static void test_delta(void **state)
{
	(void)state;
	struct pk_count_value prev = { .raw = 100, .enabled = 1000, .running = 1000 };
	struct pk_count_value cur = { .raw = 300, .enabled = 2000, .running = 1500 };
	struct pk_count_value d;

	/* multiplexed interval: 200 counted in 500 of 1000 ns -> 400, 50% */
	assert_int_equal(pk_count__delta(&prev, &cur, RF_TIMES, &d), 0);
	assert_int_equal(d.status, PK_COUNT_OK);
	assert_int_equal(d.raw, 200);
	assert_int_equal(d.enabled, 1000);
	assert_int_equal(d.running, 500);
	assert_true(d.scaled == 400.0 && d.percent == 50.0);
	/* never ran in the interval (enabled grew, running did not): <not counted> as perf -I */
	struct pk_count_value idle = { .raw = 300, .enabled = 3000, .running = 1500 };
	assert_int_equal(pk_count__delta(&cur, &idle, RF_TIMES, &d), 0);
	assert_int_equal(d.status, PK_COUNT_NOT_COUNTED);
	assert_true(d.scaled == 0.0 && d.percent == 0.0);
	/* nothing elapsed at all: not counted either (perf: run == 0) */
	assert_int_equal(pk_count__delta(&cur, &cur, RF_TIMES, &d), 0);
	assert_int_equal(d.status, PK_COUNT_NOT_COUNTED);
	/* fully running: the plain difference */
	struct pk_count_value full = { .raw = 350, .enabled = 2100, .running = 1600 };
	assert_int_equal(pk_count__delta(&cur, &full, RF_TIMES, &d), 0);
	assert_true(d.scaled == 50.0 && d.percent == 100.0 && d.status == PK_COUNT_OK);
	/* without times: always counted */
	assert_int_equal(pk_count__delta(&prev, &cur, 0, &d), 0);
	assert_true(d.status == PK_COUNT_OK && d.scaled == 200.0);
	/* backwards: refused */
	assert_int_equal(pk_count__delta(&cur, &prev, RF_TIMES, &d), -EINVAL);
	/* not supported stays so */
	struct pk_count_value ns = { .status = PK_COUNT_NOT_SUPPORTED, .open_errno = ENOENT };
	assert_int_equal(pk_count__delta(&prev, &ns, RF_TIMES, &d), 0);
	assert_int_equal(d.status, PK_COUNT_NOT_SUPPORTED);
	assert_int_equal(d.open_errno, ENOENT);
}

static void test_aggregate_rules(void **state)
{
	(void)state;
	/* CPUs 0 and 4 are one core of 2s2c2t, CPU 1 another (see its README) */
	struct pk_counter *c = fake_counter((int[]){ 0, 1, 4 }, 3, RF_TIMES);
	struct pk_topology *t = topo_fixture("2s2c2t");
	struct pk_count_value v;
	unsigned nr;

	fake_read(c, 0, 100, 1000, 500);	/* multiplexed: 200 */
	fake_read(c, 1, 100, 1000, 1000);	/* 100 */
	fake_read(c, 2, 50, 1000, 0);		/* never ran */

	/* perf scales each CPU's count, then sums (200 + 100 + 0), times summed */
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_int_equal(v.status, PK_COUNT_OK);
	assert_true(v.scaled == 300.0);
	assert_int_equal(v.raw, 250);
	assert_int_equal(v.enabled, 3000);
	assert_int_equal(v.running, 1500);
	assert_true(v.percent == 50.0);

	/* per CPU */
	assert_int_equal(pk_counter__value_cpu(c, 0, 0, &v), 0);
	assert_true(v.scaled == 200.0 && v.percent == 50.0);
	assert_int_equal(pk_counter__value_cpu(c, 0, 2, &v), 0);
	assert_int_equal(v.status, PK_COUNT_NOT_COUNTED);
	assert_int_equal(pk_counter__value_cpu(c, 0, 3, &v), -EINVAL);

	/* per core: a core with a CPU that did not run is <not counted> as a whole (perf's failed rule) */
	struct pk_aggr_id core0 = pk_topology__aggr_id(t, PK_STAT_AGGR_CORE, 0);
	struct pk_aggr_id core4 = pk_topology__aggr_id(t, PK_STAT_AGGR_CORE, 1);
	struct pk_aggr_id s1 = pk_topology__aggr_id(t, PK_STAT_AGGR_SOCKET, 2);
	assert_int_equal(pk_counter__value_aggr(c, 0, t, PK_STAT_AGGR_CORE, &core0, 0, &v, &nr), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(v.status, PK_COUNT_NOT_COUNTED);
	assert_true(v.raw == 0 && v.enabled == 0 && v.running == 0 && v.scaled == 0.0);
	assert_int_equal(pk_counter__value_aggr(c, 0, t, PK_STAT_AGGR_CORE, &core4, 0, &v, &nr), 0);
	assert_int_equal(nr, 1);
	assert_true(v.status == PK_COUNT_OK && v.scaled == 100.0);
	/* socket 1 has none of the counter's CPUs */
	assert_int_equal(pk_counter__value_aggr(c, 0, t, PK_STAT_AGGR_SOCKET, &s1, 0, &v, &nr), -ENOENT);
	/* global through value_aggr: as pk_counter__value, 3 fds */
	struct pk_aggr_id g = pk_topology__aggr_id(t, PK_STAT_AGGR_GLOBAL, 0);
	assert_int_equal(pk_counter__value_aggr(c, 0, t, PK_STAT_AGGR_GLOBAL, &g, 0, &v, &nr), 0);
	assert_true(nr == 3 && v.scaled == 300.0);

	/* -I: the next interval, from the cumulative readings */
	fake_read(c, 0, 300, 2000, 1000);	/* +200 in 500 of 1000: 400 */
	fake_read(c, 1, 100, 2000, 2000);	/* +0 while running: 0, counted */
	fake_read(c, 2, 50, 2000, 0);		/* still never ran */
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, PK_COUNT_ALL, PK_COUNT_DELTA, &v), 0);
	assert_true(v.status == PK_COUNT_OK && v.scaled == 400.0);
	assert_int_equal(v.raw, 200);
	assert_int_equal(v.enabled, 3000);
	assert_int_equal(v.running, 1500);
	assert_int_equal(pk_counter__value_at(c, 0, 1, PK_COUNT_ALL, PK_COUNT_DELTA, &v), 0);
	assert_true(v.status == PK_COUNT_OK && v.scaled == 0.0 && v.percent == 100.0);
	/* the cumulative value is not a delta: 600 + 100 */
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_true(v.scaled == 700.0);
	/* an interval in which nothing ran anywhere: <not counted> */
	fake_read(c, 0, 300, 3000, 1000);
	fake_read(c, 1, 100, 3000, 2000);
	fake_read(c, 2, 50, 3000, 0);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, PK_COUNT_ALL, PK_COUNT_DELTA, &v), 0);
	assert_int_equal(v.status, PK_COUNT_NOT_COUNTED);
	assert_true(v.percent == 0.0);

	/* an event not on a CPU: -ENOENT there, not a zero */
	c->ev[0].fds[1].fd = -1;
	assert_int_equal(pk_counter__value_cpu(c, 0, 1, &v), -ENOENT);
	/* not supported: the status, everywhere */
	c->ev[0].supported = false;
	c->ev[0].open_errno = EOPNOTSUPP;
	assert_int_equal(pk_counter__value_cpu(c, 0, 0, &v), 0);
	assert_int_equal(v.status, PK_COUNT_NOT_SUPPORTED);
	assert_int_equal(v.open_errno, EOPNOTSUPP);
	pk_topology__free(t);
	fake_free(c);
}

/* Not instrumented: ASan's shadow checks would fault shadow pages in too (1 per 8). */
__attribute__((no_sanitize_address)) static int touch(long pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	if (pages <= 0)
		return 0;
	char *p = mmap(NULL, (size_t)(pages * psz), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	madvise(p, (size_t)(pages * psz), MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i++)
		((volatile char *)p)[i * psz] = 1;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--touch"))
		return touch(atol(argv[2]));
	/* perf_event_open may be unavailable (qemu-user, seccomp): then only the synthetic tests */
	const struct CMUnitTest always[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_decode_group),
		cmocka_unit_test(test_decode_single),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_aggregate_rules),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_decode_group),
		cmocka_unit_test(test_decode_single),
		cmocka_unit_test(test_page_faults),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_zeroed_opts),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_aggregate_rules),
	};
	return run_counting_tests("count", always, sizeof(always) / sizeof(always[0]), tests,
				  sizeof(tests) / sizeof(tests[0]));
}
