/* SPDX-License-Identifier: MIT */
/*
 * support/count_fixtures.c — synthetic counters and the perf_event_open-aware
 * main of the counting tests (see count_fixtures.h).
 */
#include "count_fixtures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

static const char *src_dir(void)
{
	const char *s = getenv("PMUKIT_SRC");
	return s && *s ? s : ".";
}

struct pk_pmu_tree *pmu_fixture(const char *name)
{
	char root[1024];
	struct pk_pmu_tree *t = NULL;
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/%s", src_dir(), name);
	assert_int_equal(pk_pmu_tree__open(&t, root, NULL), 0);
	return t;
}

struct pk_topology *topo_fixture(const char *name)
{
	char root[1024];
	struct pk_topology *t = NULL;
	snprintf(root, sizeof(root), "%s/tests/fixtures/topology/%s", src_dir(), name);
	assert_int_equal(pk_topology__read(&t, root, NULL), 0);
	return t;
}

struct pk_counter *fake_counter(const int *cpus, size_t n, uint64_t read_format)
{
	struct pk_counter *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	c->nr = 1;
	c->ev = calloc(1, sizeof(*c->ev));
	c->nr_cpus = n;
	c->cpu = calloc(n, sizeof(int));
	assert_true(c->ev && c->cpu);
	memcpy(c->cpu, cpus, n * sizeof(int));
	assert_int_equal(pk_cpu_map__new(&c->cpus, cpus, n), 0);
	c->nr_threads = 1;
	c->tid = calloc(1, sizeof(pid_t));
	assert_non_null(c->tid);
	c->tid[0] = -1;
	c->ev[0].supported = true;
	c->ev[0].read_format = read_format;
	c->ev[0].fds = calloc(n, sizeof(struct cnt_fd));
	assert_non_null(c->ev[0].fds);
	for (size_t s = 0; s < n; s++)
		c->ev[0].fds[s].fd = 1000 + (int)s;	/* "opened" */
	return c;
}

void fake_read(struct pk_counter *c, size_t s, uint64_t v, uint64_t ena, uint64_t run)
{
	struct cnt_fd *f = &c->ev[0].fds[s];
	memcpy(f->prev, f->cur, sizeof(f->cur));
	f->cur[0] = v;
	f->cur[1] = ena;
	f->cur[2] = run;
}

void fake_free(struct pk_counter *c)
{
	free(c->ev[0].fds);
	free(c->ev);
	free(c->cpu);
	free(c->tid);
	free(c->pkg);
	pk_cpu_map__free(c->cpus);
	free(c);
}

int run_counting_tests(const char *group, const struct CMUnitTest *offline, size_t nr_offline,
		       const struct CMUnitTest *all, size_t nr_all)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1 };
	int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("# perf_event_open unavailable here: %zu tests need it, not run\n",
		       nr_all - nr_offline);
		return _cmocka_run_group_tests(group, offline, nr_offline, NULL, NULL);
	}
	close(fd);
	return _cmocka_run_group_tests(group, all, nr_all, NULL, NULL);
}
