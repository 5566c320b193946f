/* SPDX-License-Identifier: MIT */
/*
 * test_perpkg.c — per-package events (perf's .per-pkg / PerPkg "1"): the flag
 * on pk_evsel from a sysfs alias and from a table event (the table's word
 * winning when both have the event, as perf merges them), then the counting
 * rule of pmukit/count.h on synthetic per-CPU readings of the 2s2c2t topology
 * fixture (only the first CPU that ran in each (socket, die) adds its value,
 * in totals, per-socket and per-core sums and -I deltas; one CPU's value is
 * its own), and for real on this machine's CPUs through the fixture PMU
 * tests/fixtures/sysfs/perpkg, whose events open as cpu-clock.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/alias.h>
#include <pmukit/count.h>
#include <pmukit/events.h>
#include <pmukit/spec.h>

#include "support/count_fixtures.h"	/* synthetic counters */

#define RF_TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static const char *src_dir(void)
{
	const char *s = getenv("PMUKIT_SRC");
	return s && *s ? s : ".";
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
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
}

/* The evsels of spec resolved against tree (and cat's model, when cat). */
static struct pk_evlist *resolve(const char *spec, const struct pk_pmu_tree *tree,
				 struct pk_catalog *cat, size_t model, bool system_wide)
{
	struct pk_evlist *el = pk_evlist__new();
	struct pk_spec_opts so = { .sz = sizeof(so), .mode = PK_SPEC_STAT, .cat = cat,
				   .model = cat ? model : PK_NO_MODEL, .pmus = tree,
				   .system_wide = system_wide };
	struct pk_spec_error err = { 0 };
	assert_non_null(el);
	int r = pk_evlist__add(el, spec, &so, &err);
	if (r)
		print_message("%s: %s\n", spec, err.msg);
	assert_int_equal(r, 0);
	return el;
}

static bool per_pkg_of(const char *spec, const struct pk_pmu_tree *tree, struct pk_catalog *cat,
		       size_t model)
{
	struct pk_evlist *el = resolve(spec, tree, cat, model, false);
	assert_true(pk_evlist__nr(el) >= 1);
	bool pp = pk_evlist__evsel(el, 0)->per_pkg;
	for (size_t i = 1; i < pk_evlist__nr(el); i++)
		assert_true(pk_evlist__evsel(el, i)->per_pkg == pp);
	pk_evlist__free(el);
	return pp;
}

/* NAME.per-pkg in sysfs: 1 sets the flag, 0 or no file does not; symbolic events never. */
static void test_flag_sysfs(void **state)
{
	(void)state;
	struct pk_pmu_tree *t = pmu_fixture("perpkg");

	assert_true(per_pkg_of("pkgsw/cpuclk/", t, NULL, 0));
	assert_true(per_pkg_of("cpuclk", t, NULL, 0));		/* bare alias name */
	assert_true(per_pkg_of("pkgsw/event=cpuclk/", t, NULL, 0));	/* event=ALIAS */
	assert_true(per_pkg_of("pkgsw/cpuclk,period=1/", t, NULL, 0));
	assert_false(per_pkg_of("pkgsw/cpuclk_all/", t, NULL, 0));
	assert_false(per_pkg_of("pkgsw/cpuclk_zero/", t, NULL, 0));
	assert_false(per_pkg_of("pkgsw/event=0/", t, NULL, 0));	/* no alias: no flag */
	assert_false(per_pkg_of("cpu-clock", t, NULL, 0));
	/* the real-machine-like fixture: RAPL's energy-pkg has no .per-pkg file there */
	struct pk_pmu_tree *skl = pmu_fixture("x86-skl");
	assert_false(per_pkg_of("power/energy-pkg/", skl, NULL, 0));
	pk_pmu_tree__free(skl);
	pk_pmu_tree__free(t);
}

/* PerPkg "1" in the table; the table's flag replaces sysfs's when both have the event. */
static void test_flag_table(void **state)
{
	(void)state;
	char path[1024], dir[] = "/tmp/pk-perpkg-XXXXXX";
	struct pk_catalog *cat = NULL;
	struct pk_pmu_tree *t = NULL;
	struct pk_error err = { 0 };
	size_t model;

	snprintf(path, sizeof(path), "%s/tests/fixtures/arch", src_dir());
	assert_int_equal(pk_catalog__open_dir(&cat, path, NULL, &err), 0);
	assert_int_equal(pk_catalog__find_model(cat, "alpha", &model), 0);

	/* uncore events of the fixture table (alpha/uncore-memory.json) on x86-skl's uncore_imc_0 */
	struct pk_pmu_tree *skl = pmu_fixture("x86-skl");
	assert_true(per_pkg_of("UNC_M_CLOCKTICKS", skl, cat, model));
	assert_true(per_pkg_of("uncore_imc/UNC_M_CAS_COUNT.RD/", skl, cat, model));
	assert_false(per_pkg_of("INST_RETIRED.ANY", skl, cat, model));	/* a core event */
	pk_pmu_tree__free(skl);

	/* the same names in sysfs, with the opposite flags: the table decides */
	assert_non_null(mkdtemp(dir));
	mkfile(dir, "cpu/type", "4\n");
	mkfile(dir, "cpu/format/event", "config:0-7\n");
	mkfile(dir, "cpu/format/umask", "config:8-15\n");
	mkfile(dir, "cpu/events/inst_retired.any", "event=0xc0\n");
	mkfile(dir, "cpu/events/inst_retired.any.per-pkg", "1\n");
	mkfile(dir, "cpu/events/sysfs_only", "event=0x11\n");
	mkfile(dir, "cpu/events/sysfs_only.per-pkg", "1\n");
	mkfile(dir, "uncore_imc_0/type", "12\n");
	mkfile(dir, "uncore_imc_0/cpumask", "0\n");
	mkfile(dir, "uncore_imc_0/format/event", "config:0-7\n");
	mkfile(dir, "uncore_imc_0/format/umask", "config:8-15\n");
	mkfile(dir, "uncore_imc_0/events/unc_m_clockticks", "event=0x0\n");
	assert_int_equal(pk_pmu_tree__open(&t, dir, NULL), 0);
	assert_false(per_pkg_of("cpu/inst_retired.any/", t, cat, model));
	assert_true(per_pkg_of("cpu/sysfs_only/", t, cat, model));
	assert_true(per_pkg_of("uncore_imc_0/unc_m_clockticks/", t, cat, model));
	/* no table model: sysfs alone */
	assert_true(per_pkg_of("cpu/inst_retired.any/", t, NULL, 0));
	assert_false(per_pkg_of("uncore_imc_0/unc_m_clockticks/", t, NULL, 0));
	/* a group: each member its own flag */
	struct pk_evlist *el = resolve("{cpu/sysfs_only/,cpu/event=0x3c/}", t, cat, model, false);
	assert_int_equal(pk_evlist__nr(el), 2);
	assert_true(pk_evlist__evsel(el, 0)->per_pkg);
	assert_false(pk_evlist__evsel(el, 1)->per_pkg);
	pk_evlist__free(el);
	pk_pmu_tree__free(t);
	pk_catalog__free(cat);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* ---- the counting rule on synthetic readings ---- */

/* One per-package (or plain) event on the given CPUs, packages from t. */
static struct pk_counter *pkg_counter(const int *cpus, size_t n, bool per_pkg,
				      const struct pk_topology *t)
{
	struct pk_counter *c = fake_counter(cpus, n, RF_TIMES);
	c->ev[0].per_pkg = per_pkg;
	assert_int_equal(cnt_set_packages(c, t), 0);
	return c;
}

static double aggr(struct pk_counter *c, const struct pk_topology *t, enum pk_stat_aggr mode,
		   int cpu, unsigned flags, enum pk_count_status *st, unsigned *nr)
{
	struct pk_aggr_id id = pk_topology__aggr_id(t, mode, cpu);
	struct pk_count_value v;
	assert_int_equal(pk_counter__value_aggr(c, 0, t, mode, &id, flags, &v, nr), 0);
	*st = v.status;
	return v.scaled;
}

/*
 * 2s2c2t: socket 0 has CPUs 0,1,4,5 (cores 0 = {0,4}, 4 = {1,5}), socket 1
 * CPUs 2,3,6,7. Every CPU of a package reads the same package counter, so a
 * sum over CPUs must take it once: 100 + 70, where the plain sum is 480.
 */
static void test_rule(void **state)
{
	(void)state;
	struct pk_topology *t = topo_fixture("2s2c2t");
	const int cpus[] = { 0, 1, 2, 4, 5 };
	struct pk_counter *pp = pkg_counter(cpus, 5, true, t);
	struct pk_counter *plain = pkg_counter(cpus, 5, false, t);
	const uint64_t val[] = { 100, 101, 70, 104, 105 };
	struct pk_count_value v;
	enum pk_count_status st;
	unsigned nr;

	for (size_t s = 0; s < 5; s++) {
		fake_read(pp, s, val[s], 1000, 1000);
		fake_read(plain, s, val[s], 1000, 1000);
	}
	/* the total: CPU 0 for socket 0, CPU 2 for socket 1 */
	assert_int_equal(pk_counter__value(pp, 0, &v), 0);
	assert_true(v.status == PK_COUNT_OK && v.scaled == 170.0);
	assert_int_equal(v.raw, 170);
	assert_int_equal(v.enabled, 2000);
	assert_int_equal(pk_counter__value(plain, 0, &v), 0);
	assert_true(v.scaled == 480.0);
	assert_true(aggr(pp, t, PK_STAT_AGGR_GLOBAL, 0, 0, &st, &nr) == 170.0);
	assert_int_equal(nr, 5);	/* perf's aggregate-number still counts every CPU */
	assert_int_equal(pk_counter__value_at(pp, 0, PK_COUNT_ALL, 0, 0, &v), 0);
	assert_true(v.scaled == 170.0);
	/* per socket */
	assert_true(aggr(pp, t, PK_STAT_AGGR_SOCKET, 5, 0, &st, &nr) == 100.0);
	assert_true(st == PK_COUNT_OK && nr == 4);
	assert_true(aggr(pp, t, PK_STAT_AGGR_SOCKET, 2, 0, &st, &nr) == 70.0 && nr == 1);
	assert_true(aggr(plain, t, PK_STAT_AGGR_SOCKET, 5, 0, &st, &nr) == 410.0);
	/* per core: the core of CPU 0 has socket 0's reading; the other core of socket 0 none */
	assert_true(aggr(pp, t, PK_STAT_AGGR_CORE, 4, 0, &st, &nr) == 100.0 && st == PK_COUNT_OK);
	aggr(pp, t, PK_STAT_AGGR_CORE, 1, 0, &st, &nr);
	assert_int_equal(st, PK_COUNT_NOT_COUNTED);
	assert_int_equal(nr, 2);
	/* one CPU: its own reading */
	assert_int_equal(pk_counter__value_cpu(pp, 0, 4, &v), 0);
	assert_true(v.status == PK_COUNT_OK && v.scaled == 105.0);
	assert_true(aggr(pp, t, PK_STAT_AGGR_CPU, 5, 0, &st, &nr) == 105.0 && st == PK_COUNT_OK);

	/* -I: the next interval, the same CPUs read their packages */
	const uint64_t val2[] = { 130, 131, 75, 134, 135 };
	for (size_t s = 0; s < 5; s++)
		fake_read(pp, s, val2[s], 2000, 2000);
	assert_int_equal(pk_counter__value_at(pp, 0, PK_COUNT_ALL, PK_COUNT_ALL, PK_COUNT_DELTA, &v), 0);
	assert_true(v.status == PK_COUNT_OK && v.scaled == 35.0);
	assert_true(aggr(pp, t, PK_STAT_AGGR_SOCKET, 0, PK_COUNT_DELTA, &st, &nr) == 30.0);

	fake_free(pp);
	fake_free(plain);
	pk_topology__free(t);
}

/* A CPU that has not run does not read its package (perf: not a good instance): the next one does. */
static void test_first_that_ran(void **state)
{
	(void)state;
	struct pk_topology *t = topo_fixture("2s2c2t");
	struct pk_counter *c = pkg_counter((const int[]){ 0, 1, 4 }, 3, true, t);
	struct pk_count_value v;

	fake_read(c, 0, 0, 1000, 0);		/* never ran */
	fake_read(c, 1, 50, 1000, 500);		/* multiplexed: 100 */
	fake_read(c, 2, 60, 1000, 1000);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_true(v.status == PK_COUNT_OK && v.scaled == 100.0);
	assert_int_equal(v.running, 500);
	assert_true(v.percent == 50.0);
	/* no CPU ran: nothing counted */
	for (size_t s = 0; s < 3; s++)
		fake_read(c, s, 0, 0, 0);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_int_equal(v.status, PK_COUNT_NOT_COUNTED);
	fake_free(c);

	/* packages unknown (no topology): every CPU adds, nothing is dropped */
	c = pkg_counter((const int[]){ 0, 1 }, 2, true, NULL);
	fake_read(c, 0, 10, 100, 100);
	fake_read(c, 1, 20, 100, 100);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_true(v.scaled == 30.0);
	fake_free(c);

	/* two dies of one socket are two packages (perf keys by socket and die) */
	struct pk_topology *d2 = topo_fixture("2die");
	struct pk_cpu_topo a, b;
	assert_int_equal(pk_topology__cpu(d2, 0, &a), 0);
	int other = -1;
	for (int cpu = 1; cpu < 8 && other < 0; cpu++)
		if (!pk_topology__cpu(d2, cpu, &b) && b.socket == a.socket && b.die != a.die)
			other = cpu;
	assert_true(other > 0);
	c = pkg_counter((const int[]){ 0, other }, 2, true, d2);
	fake_read(c, 0, 10, 100, 100);
	fake_read(c, 1, 20, 100, 100);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_true(v.scaled == 30.0);
	fake_free(c);
	pk_topology__free(d2);
	pk_topology__free(t);
}

/* ---- for real: cpu-clock on every online CPU through the fixture PMU ---- */

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts))
		;
}

/*
 * pkgsw/cpuclk/ (per-package) and pkgsw/cpuclk_all/ count cpu-clock on every
 * CPU. With a topology where all of them are one package, the per-package
 * total is exactly the first CPU's reading; the plain one the sum of all.
 */
static void test_live(void **state)
{
	(void)state;
	struct pk_pmu_tree *tree = pmu_fixture("perpkg");
	struct pk_evlist *el = resolve("pkgsw/cpuclk/,pkgsw/cpuclk_all/", tree, NULL, 0, true);
	struct pk_cpu_map *cpus = NULL;
	struct pk_topology *one = topo_fixture("1s4c-nosmt");	/* CPUs 0-3, one socket */
	struct pk_counter *c = NULL;
	struct pk_error err = { 0 };
	struct pk_count_value v, all, first;

	assert_true(pk_evlist__evsel(el, 0)->per_pkg);
	assert_false(pk_evlist__evsel(el, 1)->per_pkg);
	assert_int_equal(pk_cpu_map__online(NULL, &cpus, NULL), 0);
	/* the fixture's CPUs: those of this machine's that it has */
	struct pk_cpu_map *four = NULL, *use = NULL;
	assert_int_equal(pk_cpu_map__parse(&four, "0-3", NULL), 0);
	assert_int_equal(pk_cpu_map__intersect(cpus, four, &use), 0);
	struct pk_count_opts o = { .sz = sizeof(o), .cpus = use,
				   .pmus = tree, .topo = one };
	int r = pk_counter__open(&c, el, &o, &err);
	if (r)
		print_message("open: %s\n", err.msg);
	assert_int_equal(r, 0);
	size_t n = pk_counter__nr_cpus(c);
	assert_true(n >= 1);
	assert_int_equal(pk_counter__enable(c, &err), 0);
	sleep_ms(50);
	assert_int_equal(pk_counter__disable(c, &err), 0);
	assert_int_equal(pk_counter__read(c, &err), 0);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_int_equal(pk_counter__value_cpu(c, 0, 0, &first), 0);
	assert_int_equal(v.status, PK_COUNT_OK);
	assert_true(v.scaled == first.scaled);
	assert_true(v.scaled >= 40e6);		/* 50 ms of one CPU's clock */
	assert_int_equal(pk_counter__value(c, 1, &all), 0);
	double sum = 0;
	for (size_t s = 0; s < n; s++) {
		struct pk_count_value one_cpu;
		assert_int_equal(pk_counter__value_cpu(c, 1, s, &one_cpu), 0);
		sum += one_cpu.scaled;
	}
	assert_true(all.scaled == sum);
	if (n > 1)	/* the plain one counts every CPU's clock */
		assert_true(all.scaled > 1.5 * v.scaled);
	print_message("# %zu CPUs: per-package %.0f ns, every CPU %.0f ns\n", n, v.scaled, all.scaled);
	pk_counter__free(c);

	/* without a topology given, the machine's: at most one reading per package of it */
	o.topo = NULL;
	assert_int_equal(pk_counter__open(&c, el, &o, &err), 0);
	assert_int_equal(pk_counter__enable(c, &err), 0);
	sleep_ms(20);
	assert_int_equal(pk_counter__disable(c, &err), 0);
	assert_int_equal(pk_counter__read(c, &err), 0);
	struct pk_topology *mine = NULL;
	assert_int_equal(pk_topology__read(&mine, NULL, NULL), 0);
	unsigned pkgs = pk_topology__nr_dies(mine);
	assert_int_equal(pk_counter__value(c, 0, &v), 0);
	assert_int_equal(pk_counter__value(c, 1, &all), 0);
	assert_int_equal(pk_counter__value_cpu(c, 0, 0, &first), 0);
	if (pkgs == 1)
		assert_true(v.scaled == first.scaled);
	assert_true(v.scaled <= all.scaled);
	pk_topology__free(mine);
	pk_counter__free(c);

	pk_cpu_map__free(four);
	pk_cpu_map__free(use);
	pk_cpu_map__free(cpus);
	pk_topology__free(one);
	pk_evlist__free(el);
	pk_pmu_tree__free(tree);
}

int main(void)
{
	const struct CMUnitTest always[] = {
		cmocka_unit_test(test_flag_sysfs),
		cmocka_unit_test(test_flag_table),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_first_that_ran),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flag_sysfs),
		cmocka_unit_test(test_flag_table),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_first_that_ran),
		cmocka_unit_test(test_live),
	};
	/* CPU-wide counting needs perf_event_open and perf_event_paranoid <= 0 (or root) */
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_CPU_CLOCK, .disabled = 1 };
	int fd = (int)syscall(__NR_perf_event_open, &a, -1, 0, -1, 0);
	if (fd < 0) {
		printf("# CPU-wide perf_event_open unavailable here: test_live not run\n");
		return cmocka_run_group_tests_name("perpkg", always, NULL, NULL);
	}
	close(fd);
	return cmocka_run_group_tests_name("perpkg", tests, NULL, NULL);
}
