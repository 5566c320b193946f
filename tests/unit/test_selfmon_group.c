/* SPDX-License-Identifier: MIT */
/*
 * test_selfmon_group.c — the whole self-monitoring API on real software
 * events of this machine (task-clock, page-faults): open from specs and
 * attrs, the read(2) path and its reason, values monotonic and equal to a
 * bare read(2) of the group fd, disable/reset, targets, errors; then the
 * same group with synthetic user pages injected under it (stub counter): the
 * page path, the index-0 fallback to read(2) for that read only, reads from
 * another thread; and regions, with exact deltas on the synthetic pages.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/selfmon.h>

#include "selfmon/selfmon_int.h"


static struct pk_selfmon *open_sw(const char *spec)
{
	struct pk_selfmon *g = NULL;
	struct pk_error err;
	int rc = pk_selfmon__open(&g, spec, NULL, &err);

	if (rc)
		fail_msg("open %s: %d %s", spec, rc, err.msg);
	return g;
}

/* Bare read(2) of the group: {nr, enabled, running, {value, id}...}. */
static void raw_read(struct pk_selfmon *g, uint64_t *value, size_t nr)
{
	uint64_t buf[3 + 2 * 8];
	ssize_t n = read(pk_selfmon__fd(g, 0), buf, sizeof(buf));

	assert_true(n >= (ssize_t)((3 + 2 * nr) * sizeof(uint64_t)));
	assert_int_equal(buf[0], nr);
	for (size_t i = 0; i < nr; i++)
		value[i] = buf[3 + 2 * i];
}

static void touch_pages(size_t n)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	assert_true(p != MAP_FAILED);
	for (size_t i = 0; i < n; i++)
		p[i * (size_t)psz] = 1;
	munmap(p, n * (size_t)psz);
}

static void test_open_software(void **state)
{
	struct pk_selfmon *g;
	const struct perf_event_attr *a;

	(void)state;
	g = open_sw("task-clock,page-faults");
	assert_int_equal(pk_selfmon__nr(g), 2);
	assert_string_equal(pk_selfmon__name(g, 0), "task-clock");
	assert_string_equal(pk_selfmon__name(g, 1), "page-faults");
	/* software events have no hardware counter: read(2), and it says why: on x86 the
	 * page's cap_user_rdpmc is 0; arm64 refuses a group with no event on a core PMU
	 * before mapping any page (measured in the make check-arm64 guest) */
	assert_int_equal(pk_selfmon__path(g), PK_SELFMON_PATH_SYSCALL);
#if defined(__aarch64__)
	assert_non_null(strstr(pk_selfmon__path_reason(g), "arm64 core PMU"));
#else
	assert_non_null(strstr(pk_selfmon__path_reason(g), "cap_user_rdpmc 0"));
#endif
	a = pk_selfmon__attr(g, 0);
	assert_int_equal(a->read_format, PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
					 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID);
	assert_true(a->disabled);
	assert_false(a->inherit);
	assert_false(a->enable_on_exec);
	assert_false(pk_selfmon__attr(g, 1)->disabled);
	assert_false(pk_selfmon__has_topdown(g));
	pk_selfmon__free(g);

	g = open_sw("{task-clock,page-faults}:u");
	assert_int_equal(pk_selfmon__nr(g), 2);
	pk_selfmon__free(g);
}

static void test_read_matches_syscall(void **state)
{
	struct pk_selfmon *g;
	struct pk_selfmon_value a[2], b[2], prev[2];
	uint64_t r[2];

	(void)state;
	g = open_sw("task-clock,page-faults");
	assert_int_equal(pk_selfmon__enable(g), 0);
	assert_int_equal(pk_selfmon__read(g, prev, 2), 0);
	for (int round = 0; round < 50; round++) {
		touch_pages(4);
		assert_int_equal(pk_selfmon__read(g, a, 2), 0);
		raw_read(g, r, 2);
		assert_int_equal(pk_selfmon__read(g, b, 2), 0);
		for (int i = 0; i < 2; i++) {
			/* monotonic, and the bare read(2) sits between two library reads */
			assert_true(a[i].raw >= prev[i].raw);
			assert_true(a[i].raw <= r[i] && r[i] <= b[i].raw);
			assert_true(a[i].enabled >= prev[i].enabled);
			assert_true(a[i].running <= a[i].enabled);
			prev[i] = b[i];
		}
		/* no fault between the reads: page-faults is exactly read(2)'s */
		assert_int_equal(a[1].raw, r[1]);
		assert_true(a[0].scaled >= (double)a[0].raw);
	}
	assert_true(prev[1].raw >= 50 * 4);
	assert_true(prev[0].raw > 0);
	/* ids are the kernel's */
	assert_true(a[0].id != 0 && a[0].id != a[1].id);
	{
		struct pk_selfmon_stats st;
		pk_selfmon__stats(g, &st);
		assert_int_equal(st.user_reads, 0);
		assert_true(st.syscall_reads >= 101);
	}
	pk_selfmon__free(g);
}

static void test_disable_reset(void **state)
{
	struct pk_selfmon *g;
	struct pk_selfmon_value a[2], b[2];

	(void)state;
	g = open_sw("task-clock,page-faults");
	/* opened disabled */
	touch_pages(8);
	assert_int_equal(pk_selfmon__read(g, a, 2), 0);
	assert_int_equal(a[1].raw, 0);
	assert_int_equal(a[0].enabled, 0);
	assert_int_equal(pk_selfmon__enable(g), 0);
	touch_pages(8);
	assert_int_equal(pk_selfmon__disable(g), 0);
	assert_int_equal(pk_selfmon__read(g, a, 2), 0);
	assert_true(a[1].raw >= 8);
	touch_pages(8);
	assert_int_equal(pk_selfmon__read(g, b, 2), 0);
	assert_int_equal(b[0].raw, a[0].raw);
	assert_int_equal(b[1].raw, a[1].raw);
	assert_int_equal(pk_selfmon__reset(g), 0);
	assert_int_equal(pk_selfmon__read(g, b, 2), 0);
	assert_int_equal(b[0].raw, 0);
	assert_int_equal(b[1].raw, 0);
	assert_true(b[0].enabled >= a[0].enabled);	/* times are not reset */
	/* a short vals array gets the first events */
	assert_int_equal(pk_selfmon__read(g, b, 1), 0);
	assert_int_equal(pk_selfmon__read(g, NULL, 0), 0);
	assert_int_equal(pk_selfmon__read(g, NULL, 1), -EINVAL);
	pk_selfmon__free(g);
}

static void test_open_errors(void **state)
{
	struct pk_selfmon *g = (void *)1;
	struct pk_error err;

	(void)state;
	assert_int_equal(pk_selfmon__open(&g, "task-clock,nosuchevent", NULL, &err), -EINVAL);
	assert_null(g);
	assert_int_equal(err.column, 12);
	assert_non_null(strstr(err.msg, "nosuchevent"));
	/* two explicit groups are two objects */
	assert_int_equal(pk_selfmon__open(&g, "{task-clock,page-faults},{cpu-clock,minor-faults}",
					  NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "one {...} group"));
	assert_int_equal(pk_selfmon__open(&g, "task-clock,duration_time", NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "tool event"));
	assert_int_equal(err.column, 12);
	assert_int_equal(pk_selfmon__open(NULL, "task-clock", NULL, &err), -EINVAL);
	assert_int_equal(pk_selfmon__open_attrs(&g, NULL, NULL, 0, NULL, &err), -EINVAL);
	pk_selfmon__free(NULL);
}

static void test_open_refusals(void **state)
{
	struct pk_selfmon *g;
	struct pk_error err;
	struct pk_selfmon_opts o = { .sz = sizeof(o) };

	(void)state;
	/* the user path on software events is impossible, and says why */
	o.path = PK_SELFMON_PATH_USER;
	assert_int_equal(pk_selfmon__open(&g, "task-clock", &o, &err), -EOPNOTSUPP);
#if defined(__aarch64__)
	assert_non_null(strstr(err.msg, "arm64 core PMU"));	/* as above */
#else
	assert_non_null(strstr(err.msg, "software event"));
#endif
	/* another task: read(2) only, the user path refused */
	o.has_target = true;
	o.pid = getpid();
	o.cpu = -1;
	assert_int_equal(pk_selfmon__open(&g, "task-clock", &o, &err), -EINVAL);
	o.path = PK_SELFMON_PATH_AUTO;
	assert_int_equal(pk_selfmon__open(&g, "task-clock", &o, &err), 0);
	assert_int_equal(pk_selfmon__path(g), PK_SELFMON_PATH_SYSCALL);
	assert_non_null(strstr(pk_selfmon__path_reason(g), "wrong counter"));
	pk_selfmon__free(g);
	/* the syscall path on request */
	o.has_target = false;
	o.path = PK_SELFMON_PATH_SYSCALL;
	assert_int_equal(pk_selfmon__open(&g, "task-clock", &o, &err), 0);
	assert_string_equal(pk_selfmon__path_reason(g), "read(2) requested");
	pk_selfmon__free(g);
}

static void test_open_attrs(void **state)
{
	struct perf_event_attr a[2] = {
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK, .inherit = 1 },
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS },
	};
	struct pk_selfmon *g;
	struct pk_selfmon_value v[2];
	struct pk_error err;

	(void)state;
	assert_int_equal(pk_selfmon__open_attrs(&g, a, NULL, 2, NULL, &err), 0);
	assert_string_equal(pk_selfmon__name(g, 0), "1:0x1");
	assert_false(pk_selfmon__attr(g, 0)->inherit);
	assert_int_equal(pk_selfmon__enable(g), 0);
	touch_pages(3);
	assert_int_equal(pk_selfmon__read(g, v, 2), 0);
	assert_true(v[1].raw >= 3);
	pk_selfmon__free(g);
}

/* --- synthetic pages under a real group ------------------------------------------------ */

struct stub {
	uint64_t reg[8];
	uint64_t clock;
	unsigned calls;
};

static int stub_counter(void *ctx, uint32_t hwidx, uint64_t *v)
{
	struct stub *s = ctx;

	s->calls++;
	*v = s->reg[hwidx & 7];
	return 0;
}

static uint64_t stub_clock(void *ctx)
{
	return ((struct stub *)ctx)->clock;
}

static void init_page(struct perf_event_mmap_page *p, uint32_t index, int64_t offset)
{
	memset(p, 0, sizeof(*p));
	p->lock = 2;
	p->cap_bit0_is_deprecated = 1;
	p->cap_user_rdpmc = 1;
	p->pmc_width = 48;
	p->index = index;
	p->offset = offset;
	p->time_enabled = p->time_running = 1000;
}

struct fixture {
	struct pk_selfmon *g;
	struct perf_event_mmap_page pages[2];
	struct stub hw;
	struct pk_selfmon_ops ops;
};

static int inject_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const volatile struct perf_event_mmap_page *pp[2];

	if (!f)
		return -1;
	f->g = open_sw("task-clock,page-faults");
	init_page(&f->pages[0], 1, 100);
	init_page(&f->pages[1], 2, 200);
	f->hw.reg[0] = 10;
	f->hw.reg[1] = 20;
	f->ops = (struct pk_selfmon_ops){ stub_counter, stub_clock, &f->hw };
	pp[0] = &f->pages[0];
	pp[1] = &f->pages[1];
	selfmon__test_inject(f->g, pp, &f->ops, NULL, false);
	pk_selfmon__enable(f->g);
	*state = f;
	return 0;
}

static int inject_teardown(void **state)
{
	struct fixture *f = *state;

	if (f)
		pk_selfmon__free(f->g);
	free(f);
	return 0;
}

static void test_user_path(void **state)
{
	struct fixture *f = *state;
	struct pk_selfmon_value v[2];
	struct pk_selfmon_stats st;

	assert_int_equal(pk_selfmon__path(f->g), PK_SELFMON_PATH_USER);
	assert_int_equal(pk_selfmon__read(f->g, v, 2), 0);
	assert_int_equal(v[0].raw, 110);
	assert_int_equal(v[1].raw, 220);
	assert_int_equal(v[0].enabled, 1000);
	assert_true(v[0].id != 0);
	/* multiplexed with cap_user_time: extended and scaled */
	f->pages[0].cap_user_time = 1;
	f->pages[0].time_mult = 1;
	f->pages[0].time_shift = 0;
	f->pages[0].time_offset = 0;
	f->pages[0].time_running = 500;
	f->hw.clock = 500;		/* enabled 1500, running 1000 */
	assert_int_equal(pk_selfmon__read(f->g, v, 2), 0);
	assert_int_equal(v[0].enabled, 1500);
	assert_int_equal(v[0].running, 1000);
	assert_true(v[0].scaled == 165.0);
	pk_selfmon__stats(f->g, &st);
	assert_int_equal(st.user_reads, 2);
	assert_int_equal(st.fallbacks, 0);
}

/* index 0 on one member: that read alone goes through read(2), whole */
static void test_index0_fallback(void **state)
{
	struct fixture *f = *state;
	struct pk_selfmon_value a[2], b[2], c[2];
	struct pk_selfmon_stats st;
	uint64_t r[2];

	touch_pages(5);
	f->pages[1].lock += 2;
	f->pages[1].index = 0;
	assert_int_equal(pk_selfmon__read(f->g, a, 2), 0);
	raw_read(f->g, r, 2);
	assert_int_equal(pk_selfmon__read(f->g, b, 2), 0);
	/* the kernel's values for both events, not page values for one */
	assert_true(a[0].raw <= r[0] && r[0] <= b[0].raw);
	assert_int_equal(a[1].raw, r[1]);
	assert_true(a[1].raw >= 5);
	pk_selfmon__stats(f->g, &st);
	assert_int_equal(st.fallbacks, 2);
	assert_int_equal(st.fallback_index0, 2);
	assert_int_equal(st.syscall_reads, 2);
	/* back on the counter: pages again */
	f->pages[1].lock += 2;
	f->pages[1].index = 2;
	assert_int_equal(pk_selfmon__read(f->g, c, 2), 0);
	assert_int_equal(c[0].raw, 110);
	assert_int_equal(c[1].raw, 220);
}

static void *other_thread(void *arg)
{
	struct fixture *f = arg;
	struct pk_selfmon_value *v = calloc(2, sizeof(*v));

	if (pk_selfmon__read(f->g, v, 2)) {
		free(v);
		return NULL;
	}
	return v;
}

/* rdpmc in another thread would read that thread's CPU: read(2) instead */
static void test_other_thread(void **state)
{
	struct fixture *f = *state;
	struct pk_selfmon_value *v;
	struct pk_selfmon_stats st;
	struct pk_topdown_sample s;
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, other_thread, f), 0);
	assert_int_equal(pthread_join(th, (void **)&v), 0);
	assert_non_null(v);
	assert_true(v[0].raw != 110);	/* the kernel's task-clock, not the page */
	free(v);
	pk_selfmon__stats(f->g, &st);
	assert_int_equal(st.user_reads, 0);
	assert_int_equal(st.fallbacks, 1);
	assert_int_equal(f->hw.calls, 0);
	assert_int_equal(pk_selfmon__topdown_sample(f->g, &s), -ENOTSUP);
}

static void test_regions_exact(void **state)
{
	struct fixture *f = *state;
	struct pk_selfmon_region r;
	char *buf = NULL;
	size_t len = 0;
	FILE *mf;

	for (int i = 0; i < 3; i++) {
		assert_int_equal(pk_selfmon__region_begin(f->g, "loop"), 0);
		f->hw.reg[0] += 7;
		f->hw.reg[1] += 1;
		f->pages[0].time_enabled += 100;
		f->pages[0].time_running += 100;
		assert_int_equal(pk_selfmon__region_end(f->g, "loop"), 0);
		f->hw.reg[0] += 1000;	/* outside the region */
	}
	assert_int_equal(pk_selfmon__find_region(f->g, "loop", &r), 0);
	assert_string_equal(r.name, "loop");
	assert_int_equal(r.calls, 3);
	assert_int_equal(r.nr, 2);
	assert_int_equal(r.raw[0], 21);
	assert_int_equal(r.raw[1], 3);
	assert_true(r.scaled[0] == 21.0);
	assert_int_equal(r.enabled, 300);
	assert_int_equal(r.running, 300);
	assert_false(r.has_topdown);

	/* errors: end without begin, begin twice; nesting of different regions */
	assert_int_equal(pk_selfmon__region_end(f->g, "loop"), -EINVAL);
	assert_int_equal(pk_selfmon__region_end(f->g, "never"), -EINVAL);
	assert_int_equal(pk_selfmon__region_begin(f->g, "outer"), 0);
	assert_int_equal(pk_selfmon__region_begin(f->g, "outer"), -EBUSY);
	assert_int_equal(pk_selfmon__region_begin(f->g, "inner"), 0);
	f->hw.reg[1] += 5;
	assert_int_equal(pk_selfmon__region_end(f->g, "inner"), 0);
	f->hw.reg[1] += 5;
	assert_int_equal(pk_selfmon__region_end(f->g, "outer"), 0);
	assert_int_equal(pk_selfmon__nr_regions(f->g), 3);
	assert_int_equal(pk_selfmon__region(f->g, 1, &r), 0);
	assert_string_equal(r.name, "outer");
	assert_int_equal(r.raw[1], 10);
	assert_int_equal(pk_selfmon__region(f->g, 2, &r), 0);
	assert_int_equal(r.raw[1], 5);
	assert_int_equal(pk_selfmon__find_region(f->g, "nope", &r), -ENOENT);

	/* ids */
	assert_int_equal(pk_selfmon__region_id(f->g, "outer"), 1);
	assert_int_equal(pk_selfmon__region_begin_id(f->g, 7), -EINVAL);

	/* a reset inside a region drops that interval */
	assert_int_equal(pk_selfmon__region_begin(f->g, "loop"), 0);
	assert_int_equal(pk_selfmon__reset(f->g), 0);
	assert_int_equal(pk_selfmon__region_end(f->g, "loop"), 0);
	assert_int_equal(pk_selfmon__find_region(f->g, "loop", &r), 0);
	assert_int_equal(r.calls, 3);
	assert_int_equal(r.lost, 1);

	mf = open_memstream(&buf, &len);
	assert_int_equal(pk_selfmon__region_print(f->g, mf), 0);
	fclose(mf);
	assert_non_null(strstr(buf, "region loop: 3 calls (1 lost to resets)"));
	assert_non_null(strstr(buf, "task-clock"));
	assert_non_null(strstr(buf, "7.0 per call"));
	free(buf);
}

/* regions on the real read(2) path */
static void test_regions_real(void **state)
{
	struct pk_selfmon *g;
	struct pk_selfmon_region r;
	int id;

	(void)state;
	g = open_sw("{task-clock,page-faults}");
	pk_selfmon__enable(g);
	id = pk_selfmon__region_id(g, "touch");
	assert_true(id >= 0);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(pk_selfmon__region_begin_id(g, id), 0);
		touch_pages(16);
		assert_int_equal(pk_selfmon__region_end_id(g, id), 0);
	}
	assert_int_equal(pk_selfmon__find_region(g, "touch", &r), 0);
	assert_int_equal(r.calls, 20);
	assert_true(r.raw[1] >= 20 * 16);
	assert_true(r.raw[0] > 0);
	assert_true(r.enabled > 0 && r.running == r.enabled);
	pk_selfmon__free(g);
}

int main(void)
{
	/* cmocka 1.1's TAP prints a skipped test as "not ok ... # SKIP", which prove
	 * counts as a failure: tests that need perf_event_open are not registered
	 * where it is unavailable (qemu-user, seccomp) */
	const struct CMUnitTest always[] = {
		cmocka_unit_test(test_open_errors),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_open_software),
		cmocka_unit_test(test_read_matches_syscall),
		cmocka_unit_test(test_disable_reset),
		cmocka_unit_test(test_open_refusals),
		cmocka_unit_test(test_open_attrs),
		cmocka_unit_test_setup_teardown(test_user_path, inject_setup, inject_teardown),
		cmocka_unit_test_setup_teardown(test_index0_fallback, inject_setup, inject_teardown),
		cmocka_unit_test_setup_teardown(test_other_thread, inject_setup, inject_teardown),
		cmocka_unit_test_setup_teardown(test_regions_exact, inject_setup, inject_teardown),
		cmocka_unit_test(test_regions_real),
	};
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1 };
	struct pk_selfmon *g;

	if (pk_selfmon__open_attrs(&g, &a, NULL, 1, NULL, NULL)) {
		printf("# perf_event_open unavailable here: %zu tests need it, not run\n",
		       sizeof(tests) / sizeof(tests[0]) - 1);
		return cmocka_run_group_tests_name("selfmon_group", always, NULL, NULL);
	}
	pk_selfmon__free(g);
	return cmocka_run_group_tests_name("selfmon_group", tests, NULL, NULL);
}
