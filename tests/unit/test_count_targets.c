/* SPDX-License-Identifier: MIT */
/*
 * test_count_targets.c — counting over CPUs and running tasks (pmukit/count.h,
 * issue 4's stat -a, -C, -A, -p, -t): which CPUs an event goes to on the
 * fixture PMU trees, then real system-wide cpu-clock per CPU, a -C map, -p
 * and -t on a spinning two-thread child (this binary re-executed with
 * --spin N), enable/disable, thread lists, missing threads, every thread
 * of a fake procfs (-a --per-thread) and the permission message of an
 * unprivileged user.
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

#include "support/count_fixtures.h"	/* the main */


#define RF_TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* --- issue 4: which CPUs an event goes to, on the fixture PMU trees ---------------------------- */

static void expect_placement(const struct pk_pmu_tree *tree, const char *pmu, const char *map_list,
			     bool cpu_list, const char *want)
{
	struct pk_cpu_map *map = NULL, *out = NULL;
	const struct pk_pmu *p = pmu ? pk_pmu_tree__find(tree, pmu) : NULL;
	char buf[256];

	if (pmu)
		assert_non_null(p);
	assert_int_equal(pk_cpu_map__parse(&map, map_list, NULL), 0);
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
	pk_pmu_tree__free(t);

	/* Skylake-SP uncore: cpumask 0 (one CPU per socket in this one-socket tree) */
	t = pmu_fixture("x86-skl");
	expect_placement(t, "uncore_imc_0", "0-15", false, "0");	/* -a */
	expect_placement(t, "uncore_cha_1", "0-15", false, "0");
	expect_placement(t, "uncore_imc_0", "3", true, "3");	/* -C 3: perf 6.12 opens it there */
	pk_pmu_tree__free(t);

	/* Zen 3: amd_l3 per CCX, cpumask 0,8 */
	t = pmu_fixture("amd-zen3");
	expect_placement(t, "amd_l3", "0-15", false, "0,8");
	pk_pmu_tree__free(t);

	/* arm64 big.LITTLE: two core PMUs with cpus files */
	t = pmu_fixture("arm64-het");
	expect_placement(t, "armv8_pmuv3_0", "0-7", false, "0-3");
	expect_placement(t, "armv8_pmuv3_1", "0-7", false, "4-7");
	expect_placement(t, "armv8_pmuv3_1", "3-5", true, "4-5");
	expect_placement(t, "arm_cmn_0", "0-7", false, "0");
	pk_pmu_tree__free(t);
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
	assert_int_equal(pk_topology__read(&topo, NULL, NULL), 0);
	assert_int_equal(pk_pmu_tree__open(&pmus, NULL, NULL), 0);
	struct pk_evlist *el = evlist_of("cpu-clock", true, false);
	/* perf stat -a opens leaders disabled and enables them after setup */
	assert_int_equal(pk_evlist__evsel(el, 0)->attr.disabled, 1);
	struct pk_count_opts o = { .sz = sizeof(o), .cpus = online, .pmus = pmus };
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
	pk_counter__free(c);
	pk_evlist__free(el);
	pk_pmu_tree__free(pmus);
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
	assert_int_equal(pk_cpu_map__new(&one, &cpu, 1), 0);
	struct pk_evlist *el = evlist_of("cpu-clock,page-faults", true, false);
	struct pk_count_opts o = { .sz = sizeof(o), .cpus = one, .cpu_list = true };
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
	pk_counter__free(c);
	pk_evlist__free(el);

	/* a CPU that does not exist: <not supported>, as perf stat -C 5 on two CPUs */
	int absent = PK_CPU_MAX - 1;
	pk_cpu_map__free(one);
	assert_int_equal(pk_cpu_map__new(&one, &absent, 1), 0);
	el = evlist_of("cpu-clock", true, false);
	o.cpus = one;
	c = open_ok(el, &o);
	read_ok(c);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_int_equal(v.status, PK_COUNT_NOT_SUPPORTED);
	pk_counter__free(c);
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
	struct pk_count_opts o = { .sz = sizeof(o), .tids = tids, .nr_tids = nr };
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
	pk_counter__free(c);

	/* a thread that is gone before open: skipped among several, an error alone */
	pid_t gone = tids[0];
	reap(pid);
	pid_t two[2] = { getpid(), gone };
	o.tids = two;
	o.nr_tids = 2;
	c = open_ok(el, &o);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, 1, 0, &d), -ENOENT);
	assert_int_equal(pk_counter__value_at(c, 0, PK_COUNT_ALL, 0, 0, &d), 0);
	pk_counter__free(c);
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
		if (pk_cpu_map__new(&m, &cpu0, 1))
			_exit(3);
		struct pk_evlist *el = pk_evlist__new();
		struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT, .system_wide = true };
		if (!el || pk_evlist__add(el, "cpu-clock", &so, NULL))
			_exit(4);
		struct pk_count_opts o = { .sz = sizeof(o), .cpus = m };
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

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--spin"))
		return spin(atoi(argv[2]));
	/* perf_event_open may be unavailable (qemu-user, seccomp): then only the offline tests */
	const struct CMUnitTest always[] = {
		cmocka_unit_test(test_event_cpus),
		cmocka_unit_test(test_thread_lists),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_cpus),
		cmocka_unit_test(test_thread_lists),
		cmocka_unit_test(test_system_wide),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_attach),
		cmocka_unit_test(test_permission),
	};
	return run_counting_tests("count_targets", always, sizeof(always) / sizeof(always[0]),
				  tests, sizeof(tests) / sizeof(tests[0]));
}
