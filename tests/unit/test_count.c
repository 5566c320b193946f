/* SPDX-License-Identifier: MIT */
/*
 * test_count.c — counting mode (pmukit/count.h): the scaling arithmetic and
 * read(2) buffer decoding on synthetic buffers, then real software events on
 * a forked child (this binary re-executed with --touch N, counters enabled at
 * exec): page-faults of N touched pages within a few percent of N, groups
 * read with PERF_FORMAT_GROUP, unsupported events marked while the rest count.
 * Issue 4 (stat -a, -C, -A, --per-core/socket, -p, -t, -I): interval deltas and perf's
 * aggregation rules on synthetic counters, event placement by PMU on the
 * fixture PMU trees, then real system-wide cpu-clock per CPU, a -C map, -p
 * on a spinning two-thread child (this binary with --spin N), enable/disable,
 * missing threads, every thread of a fake procfs (-a --per-thread) and the
 * permission message of an unprivileged user.
 */
#include <errno.h>
#include <fcntl.h>
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

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>

#include <cmocka.h>

#include <pmukit/count.h>
#include <pmukit/spec.h>

#include "count/count_int.h"	/* synthetic counters for the aggregation rules */

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
	struct pk_count_opts co = { .sz = sizeof(co), .pid = pid, .cpu = -1 };
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
	pk_counter__close(c);
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

/* A counter of one event on the given CPUs, one thread, fds faked (never closed): see fake_free. */
static struct pk_counter *fake_counter(const int *cpus, size_t n, uint64_t rf)
{
	struct pk_counter *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	c->nr = 1;
	c->ev = calloc(1, sizeof(*c->ev));
	c->nr_cpus = n;
	c->cpu = calloc(n, sizeof(int));
	memcpy(c->cpu, cpus, n * sizeof(int));
	assert_int_equal(pk_cpu_map__new(cpus, n, &c->cpus), 0);
	c->nr_threads = 1;
	c->tid = calloc(1, sizeof(pid_t));
	c->tid[0] = -1;
	c->ev[0].supported = true;
	c->ev[0].read_format = rf;
	c->ev[0].fds = calloc(n, sizeof(struct cnt_fd));
	for (size_t s = 0; s < n; s++)
		c->ev[0].fds[s].fd = 1000 + (int)s;	/* "opened" */
	return c;
}

/* One reading of CPU slot s: value, enabled, running (the previous reading kept, as a read does). */
static void fake_read(struct pk_counter *c, size_t s, uint64_t v, uint64_t e, uint64_t r)
{
	struct cnt_fd *f = &c->ev[0].fds[s];
	memcpy(f->prev, f->cur, sizeof(f->cur));
	f->cur[0] = v;
	f->cur[1] = e;
	f->cur[2] = r;
}

static void fake_free(struct pk_counter *c)
{
	free(c->ev[0].fds);
	free(c->ev);
	free(c->cpu);
	free(c->tid);
	pk_cpu_map__free(c->cpus);
	free(c);
}

static struct pk_topology *topo_fixture(const char *name)
{
	char root[1024];
	const char *src = getenv("PMUKIT_SRC");
	struct pk_topology *t = NULL;
	snprintf(root, sizeof(root), "%s/tests/fixtures/topology/%s", src && *src ? src : ".", name);
	assert_int_equal(pk_topology__read(root, &t, NULL), 0);
	return t;
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

/* --- issue 4: which CPUs an event goes to, on the fixture PMU trees ---------------------------- */

static struct pk_pmu_tree *pmu_fixture(const char *name)
{
	char root[1024];
	const char *src = getenv("PMUKIT_SRC");
	struct pk_pmu_tree *t = NULL;
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/%s", src && *src ? src : ".", name);
	assert_int_equal(pk_pmu_tree__open(root, &t, NULL), 0);
	return t;
}

static void expect_placement(const struct pk_pmu_tree *tree, const char *pmu, const char *map_list,
			     bool cpu_list, const char *want)
{
	struct pk_cpu_map *map = NULL, *out = NULL;
	const struct pk_pmu *p = pmu ? pk_pmu_tree__find(tree, pmu) : NULL;
	char buf[256];

	if (pmu)
		assert_non_null(p);
	assert_int_equal(pk_cpu_map__parse(map_list, &map, NULL), 0);
	assert_int_equal(pk_count__event_cpus(p, map, cpu_list, &out), 0);
	pk_cpu_map__format(out, buf, sizeof(buf));
	if (strcmp(buf, want))
		print_message("%s over %s: '%s', want '%s'\n", pmu ? pmu : "(none)", map_list, buf, want);
	assert_string_equal(buf, want);
	pk_cpu_map__free(map);
	pk_cpu_map__free(out);
}

static void test_event_cpus(void **state)
{
	(void)state;
	/* Alder Lake: cpu_core has cpus 0-7, cpu_atom 8-15 (fixture README) */
	struct pk_pmu_tree *t = pmu_fixture("x86-hybrid");
	expect_placement(t, "cpu_core", "0-15", false, "0-7");
	expect_placement(t, "cpu_atom", "0-15", false, "8-15");
	expect_placement(t, "cpu_core", "2,9", true, "2");	/* -C 2,9 */
	expect_placement(t, "cpu_atom", "2,9", true, "9");
	expect_placement(t, "cpu_atom", "0-3", true, "");	/* none: perf drops the event */
	expect_placement(t, "software", "0-15", false, "0-15");
	expect_placement(t, "tracepoint", "1,3", true, "1,3");
	expect_placement(t, NULL, "0-15", false, "0-15");	/* legacy, no PMU */
	pk_pmu_tree__close(t);

	/* Skylake-SP uncore: cpumask 0 (one CPU per socket in this one-socket tree) */
	t = pmu_fixture("x86-skl");
	expect_placement(t, "uncore_imc_0", "0-15", false, "0");	/* -a */
	expect_placement(t, "uncore_cha_1", "0-15", false, "0");
	expect_placement(t, "uncore_imc_0", "3", true, "3");	/* -C 3: perf 6.12 opens it there */
	pk_pmu_tree__close(t);

	/* Zen 3: amd_l3 per CCX, cpumask 0,8 */
	t = pmu_fixture("amd-zen3");
	expect_placement(t, "amd_l3", "0-15", false, "0,8");
	pk_pmu_tree__close(t);

	/* arm64 big.LITTLE: two core PMUs with cpus files */
	t = pmu_fixture("arm64-het");
	expect_placement(t, "armv8_pmuv3_0", "0-7", false, "0-3");
	expect_placement(t, "armv8_pmuv3_1", "0-7", false, "4-7");
	expect_placement(t, "armv8_pmuv3_1", "3-5", true, "4-5");
	expect_placement(t, "arm_cmn_0", "0-7", false, "0");
	pk_pmu_tree__close(t);
}

/* --- issue 4: real counting over CPUs and threads ---------------------------------------------- */

static struct pk_evlist *evlist_of(const char *spec, bool system_wide, bool workload)
{
	struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT, .workload = workload,
				   .system_wide = system_wide };
	struct pk_spec_error serr = { 0 };
	struct pk_evlist *el = pk_evlist__new();
	assert_non_null(el);
	int r = pk_evlist__add(el, spec, &so, &serr);
	if (r)
		print_message("%s: %s\n", spec, serr.msg);
	assert_int_equal(r, 0);
	return el;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static struct pk_counter *open_ok(const struct pk_evlist *el, const struct pk_count_opts *o)
{
	struct pk_counter *c = NULL;
	struct pk_error err = { 0 };
	int r = pk_counter__open(&c, el, o, &err);
	if (r)
		print_message("open: %s\n", err.msg);
	assert_int_equal(r, 0);
	return c;
}

static void read_ok(struct pk_counter *c)
{
	struct pk_error err = { 0 };
	int r = pk_counter__read(c, &err);
	if (r)
		print_message("read: %s\n", err.msg);
	assert_int_equal(r, 0);
}

static void test_system_wide(void **state)
{
	(void)state;
	struct pk_cpu_map *online = NULL;
	struct pk_pmu_tree *pmus = NULL;
	struct pk_topology *topo = NULL;
	struct pk_count_value v, total;

	assert_int_equal(pk_cpu_map__online(NULL, &online, NULL), 0);
	assert_int_equal(pk_topology__read(NULL, &topo, NULL), 0);
	assert_int_equal(pk_pmu_tree__open(NULL, &pmus, NULL), 0);
	struct pk_evlist *el = evlist_of("cpu-clock", true, false);
	/* perf stat -a opens leaders disabled and enables them after setup */
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.disabled, 1);
	struct pk_count_opts o = { .sz = sizeof(o), .pid = -1, .cpu = -1, .cpus = online, .pmus = pmus };
	struct pk_counter *c = open_ok(el, &o);

	size_t n = pk_cpu_map__nr(online);
	assert_int_equal(pk_counter__nr_cpus(c), n);
	assert_true(pk_cpu_map__equal(pk_counter__cpus(c), online));
	assert_true(pk_cpu_map__equal(pk_counter__event_cpus(c, 0), online));
	assert_int_equal(pk_counter__nr_threads(c), 1);
	assert_int_equal(pk_counter__thread(c, 0), -1);
	for (size_t s = 0; s < n; s++)
		assert_int_equal(pk_counter__cpu(c, s), pk_cpu_map__cpu(online, s));
	assert_int_equal(pk_counter__cpu(c, n), -1);

	/* still disabled: nothing */
	read_ok(c);
	assert_int_equal(pk_counter__value(c, 0, &total), 0);
	assert_int_equal(total.raw, 0);
	assert_int_equal(total.status, PK_COUNT_NOT_COUNTED);

	struct pk_error err = { 0 };
	double t0 = now_ns();
	assert_int_equal(pk_counter__enable(c, &err), 0);
	sleep_ms(100);
	read_ok(c);
	double wall = now_ns() - t0;
	assert_int_equal(pk_counter__value(c, 0, &total), 0);
	assert_int_equal(total.status, PK_COUNT_OK);
	double sum = 0;
	uint64_t raw = 0;
	for (size_t s = 0; s < n; s++) {
		assert_int_equal(pk_counter__value_cpu(c, 0, s, &v), 0);
		print_message("# -a cpu-clock CPU%d: %.2f ms\n", pk_counter__cpu(c, s), v.scaled / 1e6);
		assert_int_equal(v.status, PK_COUNT_OK);
		/* a CPU-wide clock runs all the time: the 100 ms slept, at most the wall time */
		assert_true(v.scaled > 50e6 && v.scaled <= wall);
		sum += v.scaled;
		raw += v.raw;
	}
	assert_true(sum == total.scaled);
	assert_int_equal(raw, total.raw);

	/* --per-core / --per-socket over this machine's topology: the parts add up to the total */
	enum pk_stat_aggr modes[] = { PK_STAT_AGGR_CPU, PK_STAT_AGGR_CORE, PK_STAT_AGGR_SOCKET };
	for (size_t m = 0; m < 3; m++) {
		struct pk_aggr_id *ids = NULL;
		size_t nids = 0;
		unsigned nr, fds = 0;
		double part = 0;
		assert_int_equal(pk_topology__aggr_ids(topo, modes[m], pk_counter__cpus(c), &ids, &nids), 0);
		assert_true(nids >= 1);
		for (size_t i = 0; i < nids; i++) {
			assert_int_equal(pk_counter__value_aggr(c, 0, topo, modes[m], &ids[i], 0, &v, &nr), 0);
			assert_int_equal(v.status, PK_COUNT_OK);
			part += v.scaled;
			fds += nr;
		}
		assert_true(part == total.scaled);
		assert_int_equal(fds, n);
		free(ids);
	}
	/* -I: the interval since the last read */
	sleep_ms(50);
	read_ok(c);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, PK_COUNT_ALL, PK_COUNT_DELTA, &v), 0);
	struct pk_count_value now;
	assert_int_equal(pk_counter__value(c, 0, &now), 0);
	assert_int_equal(v.raw, now.raw - total.raw);
	assert_true(v.scaled > n * 25e6 && v.scaled < now.scaled);
	pk_counter__close(c);
	pk_evlist__free(el);
	pk_pmu_tree__close(pmus);
	pk_topology__free(topo);
	pk_cpu_map__free(online);
}

static void test_cpu_list(void **state)
{
	(void)state;
	struct pk_cpu_map *online = NULL, *one = NULL;
	struct pk_count_value v, cv;

	assert_int_equal(pk_cpu_map__online(NULL, &online, NULL), 0);
	int cpu = pk_cpu_map__cpu(online, pk_cpu_map__nr(online) - 1);	/* -C 1 here */
	assert_int_equal(pk_cpu_map__new(&cpu, 1, &one), 0);
	struct pk_evlist *el = evlist_of("cpu-clock,page-faults", true, false);
	struct pk_count_opts o = { .sz = sizeof(o), .pid = -1, .cpu = -1, .cpus = one, .cpu_list = true };
	struct pk_counter *c = open_ok(el, &o);
	assert_int_equal(pk_counter__nr_cpus(c), 1);
	assert_int_equal(pk_counter__cpu(c, 0), cpu);
	double t0 = now_ns();
	assert_int_equal(pk_counter__enable(c, NULL), 0);
	sleep_ms(50);
	read_ok(c);
	double wall = now_ns() - t0;
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_int_equal(pk_counter__value_cpu(c, 0, 0, &cv), 0);
	assert_true(v.status == PK_COUNT_OK && v.scaled > 25e6);
	assert_true(cv.scaled == v.scaled);
	/* one CPU's clock: at most the wall time (two CPUs would give twice the sleep) */
	assert_true(v.scaled <= wall);
	assert_int_equal(pk_counter__value(c, 1, &v), 0);
	assert_int_equal(v.status, PK_COUNT_OK);
	pk_counter__close(c);
	pk_evlist__free(el);

	/* a CPU that does not exist: <not supported>, as perf stat -C 5 on two CPUs */
	int absent = PK_CPU_MAX - 1;
	pk_cpu_map__free(one);
	assert_int_equal(pk_cpu_map__new(&absent, 1, &one), 0);
	el = evlist_of("cpu-clock", true, false);
	o.cpus = one;
	c = open_ok(el, &o);
	read_ok(c);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_int_equal(v.status, PK_COUNT_NOT_SUPPORTED);
	pk_counter__close(c);
	pk_evlist__free(el);
	pk_cpu_map__free(one);
	pk_cpu_map__free(online);
}

/* Fork this binary spinning in nthreads threads; wait until they all exist. */
static pid_t spawn_spinner(int nthreads)
{
	char arg[16];
	snprintf(arg, sizeof(arg), "%d", nthreads);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* dies with the test, and keeps no pipe of the test runner open */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int nul = open("/dev/null", O_RDWR);
		if (nul >= 0) {
			dup2(nul, 1);
			dup2(nul, 2);
		}
		execl("/proc/self/exe", "test_count", "--spin", arg, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 500; i++) {
		pid_t *tids = NULL;
		size_t nr = 0;
		char list[16];
		snprintf(list, sizeof(list), "%d", (int)pid);
		int r = pk_threads__from_pids(list, NULL, &tids, &nr, NULL);
		free(tids);
		char comm[32] = "";
		if (!r && nr == (size_t)nthreads && !pk_thread__comm(NULL, pid, comm, sizeof(comm)) &&
		    !strcmp(comm, "pk-spin"))	/* named by spin() */
			return pid;
		sleep_ms(2);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("the spinner did not start its threads");
	return -1;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_attach(void **state)
{
	(void)state;
	pid_t pid = spawn_spinner(2);
	char list[64];
	pid_t *tids = NULL;
	size_t nr = 0;
	struct pk_error err = { 0 };

	/* -p PID: its two threads, the main one (tid == pid) first */
	snprintf(list, sizeof(list), "%d", (int)pid);
	assert_int_equal(pk_threads__from_pids(list, NULL, &tids, &nr, &err), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(tids[0], pid);
	assert_true(tids[1] > pid);
	struct pk_evlist *el = evlist_of("{task-clock,context-switches}", false, false);
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.disabled, 1);	/* -p: enabled after setup */
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.enable_on_exec, 0);
	struct pk_count_opts o = { .sz = sizeof(o), .pid = -1, .cpu = -1, .tids = tids, .nr_tids = nr };
	struct pk_counter *c = open_ok(el, &o);
	assert_int_equal(pk_counter__nr_threads(c), 2);
	assert_int_equal(pk_counter__thread(c, 1), tids[1]);
	assert_int_equal(pk_counter__nr_cpus(c), 1);
	assert_int_equal(pk_counter__cpu(c, 0), -1);
	assert_null(pk_counter__cpus(c));

	assert_int_equal(pk_counter__enable(c, &err), 0);
	sleep_ms(60);
	read_ok(c);
	struct pk_count_value a, b, t0, t1, d;
	assert_int_equal(pk_counter__value(c, 0, &a), 0);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, 0, 0, &t0), 0);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, 1, 0, &t1), 0);
	print_message("# -p spinner: task-clock %.2f ms (threads %.2f + %.2f)\n", a.scaled / 1e6,
		      t0.scaled / 1e6, t1.scaled / 1e6);
	/* both threads spun; the sum is the total (summed as perf) */
	assert_true(t0.raw > 0 && t1.raw > 0);
	assert_int_equal(t0.raw + t1.raw, a.raw);
	assert_true(t0.scaled + t1.scaled == a.scaled);
	struct pk_aggr_id th = { -1, -1, -1, -1, -1, 1 };
	unsigned nfd;
	assert_int_equal(pk_counter__value_aggr(c, 0, NULL, PK_STAT_AGGR_THREAD, &th, 0, &d, &nfd), 0);
	assert_true(d.raw == t1.raw && nfd == 1);
	/* the group member was read with its leader */
	assert_int_equal(pk_counter__value(c, 1, &d), 0);
	assert_int_equal(d.status, PK_COUNT_OK);

	/* it keeps growing; the interval value is the difference */
	sleep_ms(60);
	read_ok(c);
	assert_int_equal(pk_counter__value(c, 0, &b), 0);
	assert_true(b.raw > a.raw);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, PK_COUNT_ALL, PK_COUNT_DELTA, &d), 0);
	assert_int_equal(d.raw, b.raw - a.raw);

	/* disabled: no growth, and the interval is <not counted> (perf -I after a disable) */
	assert_int_equal(pk_counter__disable(c, &err), 0);
	read_ok(c);
	assert_int_equal(pk_counter__value(c, 0, &a), 0);
	assert_int_equal(pk_counter__value(c, 1, &t0), 0);
	sleep_ms(60);
	read_ok(c);
	assert_int_equal(pk_counter__value(c, 0, &b), 0);
	assert_int_equal(pk_counter__value(c, 1, &t1), 0);
	assert_int_equal(b.raw, a.raw);
	assert_int_equal(b.enabled, a.enabled);
	assert_int_equal(t1.raw, t0.raw);	/* the member stopped with its leader */
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, PK_COUNT_ALL, PK_COUNT_DELTA, &d), 0);
	assert_int_equal(d.status, PK_COUNT_NOT_COUNTED);
	/* enabled again: growing again */
	assert_int_equal(pk_counter__enable(c, &err), 0);
	sleep_ms(60);
	read_ok(c);
	assert_int_equal(pk_counter__value(c, 0, &d), 0);
	assert_true(d.raw > b.raw);
	pk_counter__close(c);

	/* a thread that is gone before open: skipped among several, an error alone */
	pid_t gone = tids[0];
	reap(pid);
	pid_t two[2] = { getpid(), gone };
	o.tids = two;
	o.nr_tids = 2;
	c = open_ok(el, &o);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, 1, 0, &d), -ENOENT);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, 0, 0, &d), 0);
	pk_counter__close(c);
	o.tids = &gone;
	o.nr_tids = 1;
	c = (struct pk_counter *)&c;
	assert_int_equal(pk_counter__open(&c, el, &o, &err), -ESRCH);
	assert_null(c);
	snprintf(list, sizeof(list), "no such process %d", (int)gone);
	assert_non_null(strstr(err.msg, list));
	/* -p of a process that is gone */
	snprintf(list, sizeof(list), "%d", (int)gone);
	free(tids);
	assert_int_equal(pk_threads__from_pids(list, NULL, &tids, &nr, &err), -ESRCH);
	assert_null(tids);
	snprintf(list, sizeof(list), "no such process %d", (int)gone);
	assert_string_equal(err.msg, list);
	pk_evlist__free(el);
}

static void mkfile(const char *dir, const char *rel, const char *body)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	if (body) {
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fputs(body, f);
		fclose(f);
	} else {
		mkdir(p, 0755);
	}
}

static void test_thread_lists(void **state)
{
	(void)state;
	char dir[] = "/tmp/pk-procfs-XXXXXX";
	pid_t *tids = NULL;
	size_t nr = 0;
	struct pk_error err = { 0 };

	/* a fake procfs: process 42 with threads 45 and 42 (listed in that order), process 43 */
	assert_non_null(mkdtemp(dir));
	mkfile(dir, "42/task/45", NULL);
	mkfile(dir, "42/task/42", NULL);
	mkfile(dir, "42/comm", "spin\n");
	mkfile(dir, "45/comm", "spin-worker\n");
	mkfile(dir, "43/task/43", NULL);
	mkfile(dir, "44/task/.keep", NULL);	/* a zombie: no task entries */

	assert_int_equal(pk_threads__from_pids("43,42,43", dir, &tids, &nr, &err), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(tids[0], 43);	/* pids in the given order, repeats dropped */
	assert_int_equal(tids[1], 42);	/* each one's threads ascending */
	assert_int_equal(tids[2], 45);
	free(tids);
	assert_int_equal(pk_threads__from_pids("42,4242", dir, &tids, &nr, &err), -ESRCH);
	assert_string_equal(err.msg, "no such process 4242");
	assert_int_equal(pk_threads__from_pids("44", dir, &tids, &nr, &err), -ESRCH);
	assert_int_equal(pk_threads__from_pids("42,x", dir, &tids, &nr, &err), -EINVAL);
	assert_int_equal(err.column, 4);
	assert_int_equal(pk_threads__from_pids("42;43", dir, &tids, &nr, &err), -EINVAL);
	assert_int_equal(err.column, 3);
	assert_int_equal(pk_threads__from_pids("", dir, &tids, &nr, &err), -EINVAL);
	assert_int_equal(pk_threads__from_pids("0", dir, &tids, &nr, &err), -EINVAL);
	assert_int_equal(pk_threads__from_pids("99999999999", dir, &tids, &nr, &err), -EINVAL);
	assert_null(tids);

	/* -t: as listed, each checked */
	assert_int_equal(pk_threads__parse("45,42,45", dir, &tids, &nr, &err), 0);
	assert_int_equal(nr, 2);
	assert_true(tids[0] == 45 && tids[1] == 42);
	free(tids);
	assert_int_equal(pk_threads__parse("45,46", dir, &tids, &nr, &err), -ESRCH);
	assert_string_equal(err.msg, "no such thread 46");

	/* -a --per-thread: every thread of every process, ascending; a zombie has none */
	mkfile(dir, "7/task/7", NULL);
	mkfile(dir, "7/task/50", NULL);
	mkfile(dir, "self/task/1", NULL);	/* not a process number: skipped */
	mkfile(dir, "sys/x", NULL);
	assert_int_equal(pk_threads__all(dir, &tids, &nr, &err), 0);
	assert_int_equal(nr, 5);
	const pid_t all[] = { 7, 42, 43, 45, 50 };
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(tids[i], all[i]);
	free(tids);
	char none[1100];
	snprintf(none, sizeof(none), "%s/none", dir);
	assert_int_equal(pk_threads__all(none, &tids, &nr, &err), -ENOENT);
	assert_null(tids);

	char comm[32];
	assert_int_equal(pk_thread__comm(dir, 45, comm, sizeof(comm)), 0);
	assert_string_equal(comm, "spin-worker");
	assert_int_equal(pk_thread__comm(dir, 46, comm, sizeof(comm)), -ENOENT);

	/* the real /proc: this process, its own thread */
	char self[16];
	snprintf(self, sizeof(self), "%d", (int)getpid());
	assert_int_equal(pk_threads__from_pids(self, NULL, &tids, &nr, &err), 0);
	assert_true(nr >= 1 && tids[0] == getpid());
	free(tids);
	assert_int_equal(pk_threads__parse(self, NULL, &tids, &nr, &err), 0);
	free(tids);
	assert_int_equal(pk_threads__all(NULL, &tids, &nr, &err), 0);
	bool found = false;
	for (size_t i = 0; i < nr; i++)
		found |= tids[i] == getpid();
	assert_true(found && nr >= 2);
	free(tids);

	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* An unprivileged user counting CPU-wide: the message names the sysctl and the capability. */
static void test_permission(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("# not root: checking the message of this user directly\n");
	}
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(pfd[0]);
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(2);
		struct pk_cpu_map *m = NULL;
		int cpu0 = 0;
		struct pk_counter *c = NULL;
		struct pk_error err = { 0 };
		if (pk_cpu_map__new(&cpu0, 1, &m))
			_exit(3);
		struct pk_evlist *el = pk_evlist__new();
		struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT, .system_wide = true };
		if (!el || pk_evlist__add(el, "cpu-clock", &so, NULL))
			_exit(4);
		struct pk_count_opts o = { .sz = sizeof(o), .pid = -1, .cpu = -1, .cpus = m };
		int r = pk_counter__open(&c, el, &o, &err);
		char msg[600];
		snprintf(msg, sizeof(msg), "%d %s", r, err.msg);
		if (write(pfd[1], msg, strlen(msg)) < 0)
			_exit(5);
		_exit(0);
	}
	close(pfd[1]);
	char msg[600] = "";
	ssize_t n = read(pfd[0], msg, sizeof(msg) - 1);
	close(pfd[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(n > 0);
	msg[n] = '\0';
	print_message("# as nobody: %s\n", msg);
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid = 2;
	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	if (paranoid <= 0) {	/* CPU-wide allowed to everyone */
		assert_int_equal(atoi(msg), 0);
		return;
	}
	assert_true(atoi(msg) == -EACCES || atoi(msg) == -EPERM);
	assert_non_null(strstr(msg, "cpu-clock on CPU 0: permission denied"));
	assert_non_null(strstr(msg, "/proc/sys/kernel/perf_event_paranoid"));
	assert_non_null(strstr(msg, "<= 0 for CPU-wide"));
	assert_non_null(strstr(msg, "CAP_PERFMON"));
}

static void *spin_thread(void *arg)
{
	(void)arg;
	for (;;)
		__asm__ volatile("" ::: "memory");
	return NULL;
}

static int spin(int nthreads)
{
	prctl(PR_SET_NAME, "pk-spin");
	for (int i = 1; i < nthreads; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, spin_thread, NULL))
			return 1;
	}
	spin_thread(NULL);
	return 0;
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
	if (argc == 3 && !strcmp(argv[1], "--spin"))
		return spin(atoi(argv[2]));
	/* perf_event_open may be unavailable (qemu-user, seccomp): then only the synthetic tests */
	const struct CMUnitTest always[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_decode_group),
		cmocka_unit_test(test_decode_single),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_aggregate_rules),
		cmocka_unit_test(test_event_cpus),
		cmocka_unit_test(test_thread_lists),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_decode_group),
		cmocka_unit_test(test_decode_single),
		cmocka_unit_test(test_page_faults),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_aggregate_rules),
		cmocka_unit_test(test_event_cpus),
		cmocka_unit_test(test_thread_lists),
		cmocka_unit_test(test_system_wide),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_attach),
		cmocka_unit_test(test_permission),
	};
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1 };
	int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("# perf_event_open unavailable here: %zu tests need it, not run\n",
		       sizeof(tests) / sizeof(tests[0]) - sizeof(always) / sizeof(always[0]));
		return cmocka_run_group_tests_name("count", always, NULL, NULL);
	}
	close(fd);
	return cmocka_run_group_tests_name("count", tests, NULL, NULL);
}
