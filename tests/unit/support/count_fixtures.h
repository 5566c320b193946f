/* SPDX-License-Identifier: MIT */
/*
 * support/count_fixtures.h — what the counting tests share: synthetic
 * pk_counters (one event on some CPUs, readings set by hand) for the
 * aggregation rules, and a main that runs only the tests that need no
 * perf_event_open(2) where it is unavailable (qemu-user, seccomp).
 */
#ifndef PMUKIT_TEST_COUNT_FIXTURES_H
#define PMUKIT_TEST_COUNT_FIXTURES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "count/count_int.h"

/* tests/fixtures/sysfs/NAME and tests/fixtures/topology/NAME, read or the test fails. */
struct pk_pmu_tree *pmu_fixture(const char *name);
struct pk_topology *topo_fixture(const char *name);

/* One event on cpus[0..n), one thread, fds faked (never closed): free with fake_free. */
struct pk_counter *fake_counter(const int *cpus, size_t n, uint64_t read_format);
/* One reading of CPU slot s: value, enabled, running (the previous one kept, as a read does). */
void fake_read(struct pk_counter *c, size_t s, uint64_t v, uint64_t ena, uint64_t run);
void fake_free(struct pk_counter *c);

/*
 * Run all[] where perf_event_open works, else only offline[] (saying how
 * many were left out). The cmocka group result.
 */
int run_counting_tests(const char *group, const struct CMUnitTest *offline, size_t nr_offline,
		       const struct CMUnitTest *all, size_t nr_all);

#endif
