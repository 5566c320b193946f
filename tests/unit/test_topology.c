/* SPDX-License-Identifier: MIT */
/*
 * test_topology.c — CPU topology (pmukit/topology.h) on fake sysfs CPU roots
 * (tests/fixtures/topology, see its README: expected values follow from how
 * each tree was laid out) and on this machine, where the expected keys are
 * read from the sysfs files here and, when perf is installed, from the
 * labels perf stat -a -A / --per-core / --per-socket prints.
 * The fixtures' -A/--per-core/--per-die labels were also checked by hand
 * against perf 6.1 run under `unshare -m` with the fixture bind-mounted on
 * /sys/devices/system/cpu (same labels, same order).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/topology.h>

static struct pk_topology *open_fixture(const char *name)
{
	char root[1024];
	const char *src = getenv("PMUKIT_SRC");
	struct pk_topology *t = NULL;
	struct pk_error err = { 0 };

	snprintf(root, sizeof(root), "%s/tests/fixtures/topology/%s", src && *src ? src : ".", name);
	int r = pk_topology__read(&t, root, &err);
	if (r)
		print_message("%s: %s\n", root, err.msg);
	assert_int_equal(r, 0);
	return t;
}

/* The labels of mode over map, joined with ' '. */
static const char *labels(const struct pk_topology *t, enum pk_stat_aggr mode,
			  const struct pk_cpu_map *map, char *out, size_t len)
{
	struct pk_aggr_id *ids = NULL;
	size_t nr = 0, o = 0;

	assert_int_equal(pk_topology__aggr_ids(t, mode, map, &ids, &nr), 0);
	out[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		char b[64];
		o += (size_t)snprintf(out + o, len - o, "%s%s", i ? " " : "",
				      pk_aggr_id__format(&ids[i], mode, b, sizeof(b)));
		assert_true(o < len);
	}
	free(ids);
	return out;
}

static void expect_labels(const struct pk_topology *t, enum pk_stat_aggr mode, const char *list,
			  const char *want)
{
	struct pk_cpu_map *m = NULL;
	char buf[1024];
	if (list)
		assert_int_equal(pk_cpu_map__parse(&m, list, NULL), 0);
	labels(t, mode, list ? m : pk_topology__online(t), buf, sizeof(buf));
	if (strcmp(buf, want))
		print_message("mode %d over %s: '%s', want '%s'\n", (int)mode, list ? list : "online",
			      buf, want);
	assert_string_equal(buf, want);
	pk_cpu_map__free(m);
}

static void expect_cpu(const struct pk_topology *t, int cpu, int socket, int die, int cluster,
		       int core)
{
	struct pk_cpu_topo tp;
	assert_int_equal(pk_topology__cpu(t, cpu, &tp), 0);
	assert_int_equal(tp.socket, socket);
	assert_int_equal(tp.die, die);
	assert_int_equal(tp.cluster, cluster);
	assert_int_equal(tp.core, core);
}

static void test_2s2c2t(void **state)
{
	(void)state;
	struct pk_topology *t = open_fixture("2s2c2t");

	/* siblings N and N+4; core ids 0 and 4 in each socket */
	expect_cpu(t, 0, 0, 0, 0, 0);
	expect_cpu(t, 1, 0, 0, 0, 4);
	expect_cpu(t, 2, 1, 0, 0, 0);
	expect_cpu(t, 7, 1, 0, 0, 4);
	assert_true(pk_topology__smt_on(t));
	assert_int_equal(pk_topology__nr_packages(t), 2);
	assert_int_equal(pk_topology__nr_dies(t), 2);
	assert_int_equal(pk_topology__nr_cores(t), 4);
	assert_int_equal(pk_topology__num_cpus(t), 8);
	assert_int_equal(pk_topology__num_cpus_online(t), 8);

	expect_labels(t, PK_STAT_AGGR_CPU, NULL, "CPU0 CPU1 CPU2 CPU3 CPU4 CPU5 CPU6 CPU7");
	expect_labels(t, PK_STAT_AGGR_CORE, NULL, "S0-D0-C0 S0-D0-C4 S1-D0-C0 S1-D0-C4");
	expect_labels(t, PK_STAT_AGGR_CLUSTER, NULL, "S0-D0-CLS0 S1-D0-CLS0");
	expect_labels(t, PK_STAT_AGGR_DIE, NULL, "S0-D0 S1-D0");
	expect_labels(t, PK_STAT_AGGR_SOCKET, NULL, "S0 S1");
	expect_labels(t, PK_STAT_AGGR_GLOBAL, NULL, "");
	/* -C 6,1,5: the cores and sockets of those CPUs only, sorted by place */
	expect_labels(t, PK_STAT_AGGR_CORE, "6,1,5", "S0-D0-C4 S1-D0-C0");
	expect_labels(t, PK_STAT_AGGR_SOCKET, "6,1,5", "S0 S1");
	expect_labels(t, PK_STAT_AGGR_CPU, "6,1,5", "CPU1 CPU5 CPU6");

	/* keys: siblings share their core's key, not their CPU key */
	struct pk_aggr_id a = pk_topology__aggr_id(t, PK_STAT_AGGR_CORE, 1);
	struct pk_aggr_id b = pk_topology__aggr_id(t, PK_STAT_AGGR_CORE, 5);
	struct pk_aggr_id c = pk_topology__aggr_id(t, PK_STAT_AGGR_CORE, 3);
	assert_true(pk_aggr_id__equal(&a, &b));
	assert_false(pk_aggr_id__equal(&a, &c));	/* same core id, other socket */
	assert_int_equal(a.cpu, -1);
	assert_int_equal(a.thread, -1);
	a = pk_topology__aggr_id(t, PK_STAT_AGGR_CPU, 1);
	b = pk_topology__aggr_id(t, PK_STAT_AGGR_CPU, 5);
	assert_false(pk_aggr_id__equal(&a, &b));
	assert_int_equal(a.cpu, 1);
	assert_int_equal(a.core, 4);
	a = pk_topology__aggr_id(t, PK_STAT_AGGR_SOCKET, 6);
	assert_int_equal(a.socket, 1);
	assert_int_equal(a.die, -1);
	assert_int_equal(a.core, -1);

	/* threads are not the topology's */
	struct pk_aggr_id *ids = (struct pk_aggr_id *)&ids;
	size_t nr = 1;
	assert_int_equal(pk_topology__aggr_ids(t, PK_STAT_AGGR_THREAD, pk_topology__online(t), &ids, &nr),
			 -EINVAL);
	assert_null(ids);
	assert_int_equal(nr, 0);
	pk_topology__free(t);
}

static void test_nosmt(void **state)
{
	(void)state;
	struct pk_topology *t = open_fixture("1s4c-nosmt");

	expect_cpu(t, 3, 0, 0, 65535, 3);
	assert_false(pk_topology__smt_on(t));	/* smt/active 0 */
	assert_int_equal(pk_topology__nr_packages(t), 1);
	assert_int_equal(pk_topology__nr_dies(t), 1);
	assert_int_equal(pk_topology__nr_cores(t), 4);
	assert_int_equal(pk_topology__num_cpus(t), 4);
	expect_labels(t, PK_STAT_AGGR_CORE, NULL, "S0-D0-C0 S0-D0-C1 S0-D0-C2 S0-D0-C3");
	expect_labels(t, PK_STAT_AGGR_CLUSTER, NULL, "S0-D0-CLS65535");
	expect_labels(t, PK_STAT_AGGR_SOCKET, NULL, "S0");
	pk_topology__free(t);
}

static void test_offline(void **state)
{
	(void)state;
	struct pk_topology *t = open_fixture("offline");
	struct pk_cpu_topo tp = { 7, 7, 7, 7 };
	char buf[64];

	pk_cpu_map__format(pk_topology__online(t), buf, sizeof(buf));
	assert_string_equal(buf, "0-1,3");
	pk_cpu_map__format(pk_topology__present(t), buf, sizeof(buf));
	assert_string_equal(buf, "0-3");
	/* the offline CPU has no topology directory: unknown */
	assert_int_equal(pk_topology__cpu(t, 2, &tp), -ENOENT);
	assert_int_equal(tp.socket, 7);
	assert_int_equal(pk_topology__cpu(t, 4, &tp), -ENOENT);
	expect_cpu(t, 3, 0, 0, 0, 1);	/* no cluster_id file: 0 */
	/* no smt/: decided from the topology, core 1 has two online CPUs */
	assert_true(pk_topology__smt_on(t));
	assert_int_equal(pk_topology__num_cpus(t), 4);	/* present */
	assert_int_equal(pk_topology__num_cpus_online(t), 3);
	assert_int_equal(pk_topology__nr_cores(t), 2);
	expect_labels(t, PK_STAT_AGGR_CORE, NULL, "S0-D0-C0 S0-D0-C1");
	expect_labels(t, PK_STAT_AGGR_CPU, NULL, "CPU0 CPU1 CPU3");
	pk_topology__free(t);
}

static void test_dies(void **state)
{
	(void)state;
	struct pk_topology *t = open_fixture("2die");

	assert_false(pk_topology__smt_on(t));	/* no smt/, one CPU per core */
	assert_int_equal(pk_topology__nr_packages(t), 1);
	assert_int_equal(pk_topology__nr_dies(t), 2);
	assert_int_equal(pk_topology__nr_cores(t), 4);	/* core ids restart in each die */
	expect_labels(t, PK_STAT_AGGR_DIE, NULL, "S0-D0 S0-D1");
	expect_labels(t, PK_STAT_AGGR_CORE, NULL, "S0-D0-C0 S0-D0-C1 S0-D1-C0 S0-D1-C1");
	expect_labels(t, PK_STAT_AGGR_DIE, "3", "S0-D1");
	pk_topology__free(t);

	/* an old kernel without die_id/cluster_id: die 0, cluster 0, as perf */
	t = open_fixture("nodie");
	expect_cpu(t, 1, 0, 0, 0, 1);
	expect_labels(t, PK_STAT_AGGR_CORE, NULL, "S0-D0-C0 S0-D0-C1");
	expect_labels(t, PK_STAT_AGGR_DIE, NULL, "S0-D0");
	pk_topology__free(t);
}

static void test_errors(void **state)
{
	(void)state;
	struct pk_topology *t = (struct pk_topology *)&t;
	struct pk_error err = { 0 };
	assert_int_equal(pk_topology__read(&t, "/nonexistent/cpu", &err), -ENOENT);
	assert_null(t);
	assert_string_equal(err.file, "/nonexistent/cpu/online");
}

/* An int file, -1 when missing. */
static int read_path(const char *p)
{
	int v = -1;
	FILE *f = fopen(p, "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* A topology file of cpu, -1 when missing. */
static int read_int(const char *fmt, int cpu)
{
	char p[256];
	snprintf(p, sizeof(p), fmt, cpu);
	return read_path(p);
}

/* The first CSV field of each line perf stat -x, ARGS prints (its aggregation labels). */
static bool perf_labels(const char *args, char *out, size_t len)
{
	char cmd[512], line[1024];
	size_t o = 0;
	snprintf(cmd, sizeof(cmd), "perf stat -x, %s -e cpu-clock sleep 0.01 2>&1 >/dev/null", args);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	out[0] = '\0';
	while (fgets(line, sizeof(line), p)) {
		char *c = strchr(line, ',');
		if (!c || (line[0] != 'C' && line[0] != 'S'))
			continue;
		*c = '\0';
		o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", line);
	}
	return pclose(p) == 0 && o > 0;
}

static void test_this_machine(void **state)
{
	(void)state;
	struct pk_topology *t = NULL;
	struct pk_error err = { 0 };
	assert_int_equal(pk_topology__read(&t, NULL, &err), 0);
	const struct pk_cpu_map *on = pk_topology__online(t);
	assert_int_equal(pk_topology__num_cpus_online(t), (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(pk_topology__num_cpus(t) >= pk_topology__num_cpus_online(t));

	/* every online CPU: the files' values (die 0 when absent) */
	char want[4096] = "";
	size_t o = 0;
	for (size_t i = 0; i < pk_cpu_map__nr(on); i++) {
		int cpu = pk_cpu_map__cpu(on, i);
		int s = read_int(PK_CPU_ROOT_DEFAULT "/cpu%d/topology/physical_package_id", cpu);
		int d = read_int(PK_CPU_ROOT_DEFAULT "/cpu%d/topology/die_id", cpu);
		int c = read_int(PK_CPU_ROOT_DEFAULT "/cpu%d/topology/core_id", cpu);
		struct pk_cpu_topo tp;
		assert_int_equal(pk_topology__cpu(t, cpu, &tp), 0);
		assert_int_equal(tp.socket, s);
		assert_int_equal(tp.die, d < 0 ? 0 : d);
		assert_int_equal(tp.core, c);
		/* the distinct labels in place order: fine to build by hand for few CPUs */
		char l[64];
		snprintf(l, sizeof(l), "S%d-D%d-C%d", s, d < 0 ? 0 : d, c);
		if (!strstr(want, l))
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s", o ? " " : "", l);
	}
	char got[4096];
	labels(t, PK_STAT_AGGR_CORE, on, got, sizeof(got));
	print_message("# --per-core here: %s\n", got);
	if (pk_cpu_map__nr(on) <= 16)	/* the hand-built order is by CPU: compare sets there */
		for (char *tok = strtok(want, " "); tok; tok = strtok(NULL, " "))
			assert_non_null(strstr(got, tok));
	int active = read_path(PK_CPU_ROOT_DEFAULT "/smt/active");
	if (active >= 0)
		assert_int_equal(pk_topology__smt_on(t), active == 1);

	/* perf 6.1 as the oracle of the labels, when it is installed and may count CPU-wide */
	char perf[4096];
	struct { const char *args; enum pk_stat_aggr mode; } modes[] = {
		{ "-a -A", PK_STAT_AGGR_CPU },
		{ "-a --per-core", PK_STAT_AGGR_CORE },
		{ "-a --per-socket", PK_STAT_AGGR_SOCKET },
		{ "-a --per-die", PK_STAT_AGGR_DIE },
	};
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		if (!perf_labels(modes[m].args, perf, sizeof(perf))) {
			print_message("# perf stat %s not usable here: labels checked against sysfs only\n",
				      modes[m].args);
			break;
		}
		labels(t, modes[m].mode, on, got, sizeof(got));
		print_message("# perf stat %s: %s\n", modes[m].args, perf);
		assert_string_equal(got, perf);
	}
	pk_topology__free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_2s2c2t),
		cmocka_unit_test(test_nosmt),
		cmocka_unit_test(test_offline),
		cmocka_unit_test(test_dies),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_this_machine),
	};
	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
