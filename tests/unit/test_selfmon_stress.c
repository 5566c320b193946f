/* SPDX-License-Identifier: MIT */
/*
 * test_selfmon_stress.c — the sequence-lock loop against a writer thread on
 * another CPU that keeps rewriting a synthetic user page (garbage first, then
 * a consistent version k, as a torn update would show): N reads (2 million by
 * default, PMUKIT_STRESS_READS to change), each either refused or exactly
 * version k's count/enabled/running with a counter that keeps counting
 * across the 48-bit wrap. The same for the TopDown pair (SLOTS and
 * PERF_METRICS under two pages' locks).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmukit/selfmon.h>

#include "selfmon/selfmon_int.h"

#define MASK48 ((1ULL << 48) - 1)
#define ST(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

struct shared {
	struct perf_event_mmap_page page, page2;
	uint64_t reg, reg2;		/* "hardware" registers the writer reprograms */
	int stop;
	uint64_t versions;
};

struct reader {
	struct shared *sh;
	uint64_t ticks;			/* the counter counting between reprogrammings */
};

static int rd_counter(void *ctx, uint32_t hwidx, uint64_t *v)
{
	struct reader *r = ctx;

	if (hwidx == PK_RDPMC_PERF_METRICS) {
		*v = __atomic_load_n(&r->sh->reg2, __ATOMIC_RELAXED);
		return 0;
	}
	r->ticks = (r->ticks + 7) % 2000;
	*v = (__atomic_load_n(&r->sh->reg, __ATOMIC_RELAXED) + r->ticks) & MASK48;
	return 0;
}

static uint64_t rd_clock(void *ctx)
{
	(void)ctx;
	return 0;	/* delta = time_offset */
}

static unsigned long nreads(void)
{
	const char *e = getenv("PMUKIT_STRESS_READS");
	unsigned long n = e ? strtoul(e, NULL, 10) : 0;

	return n ? n : 2000000;
}

/* version k: count K = k * 10^6 with the counter programmed near 2^48 */
static uint64_t start_of(uint64_t k)
{
	return ((uint64_t)-1000 - k % 777) & MASK48;
}

static void write_version(struct perf_event_mmap_page *pc, uint64_t *reg, uint64_t k)
{
	uint32_t seq = __atomic_load_n(&pc->lock, __ATOMIC_RELAXED);
	uint64_t start = start_of(k);

	ST(pc->lock, seq + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	/* what a reader ignoring the lock would see */
	ST(pc->offset, (int64_t)0x0badbadbadbadbadLL);
	ST(pc->time_enabled, 0xdeadULL);
	ST(pc->time_running, 0xbeefULL);
	ST(pc->time_offset, 0x5555ULL);
	ST(*reg, 0x123456789aULL);
	for (volatile int spin = 0; spin < 20; spin++)	/* widen the torn window */
		;
	/* version k */
	ST(pc->offset, (int64_t)(k * 1000000 - (uint64_t)pk_userpage__sign_extend(start, 48)));
	ST(*reg, start);
	ST(pc->time_enabled, k * 1000);
	ST(pc->time_running, k * 1000 - k % 3);
	ST(pc->time_offset, k);
	__atomic_store_n(&pc->lock, seq + 2, __ATOMIC_RELEASE);
}

static void *writer(void *arg)
{
	struct shared *sh = arg;
	uint64_t k = 1;

	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		write_version(&sh->page, &sh->reg, ++k);
		for (volatile int spin = 0; spin < 50; spin++)
			;
	}
	sh->versions = k;
	return NULL;
}

static void init_page(struct perf_event_mmap_page *pc, uint32_t index)
{
	memset(pc, 0, sizeof(*pc));
	pc->cap_bit0_is_deprecated = 1;
	pc->cap_user_rdpmc = 1;
	pc->cap_user_time = 1;
	pc->time_mult = 1u << 10;
	pc->time_shift = 10;
	pc->pmc_width = 48;
	pc->index = index;
}

static void test_stress_counter(void **state)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	struct reader rd = { .sh = sh };
	struct pk_selfmon_ops ops = { rd_counter, rd_clock, &rd };
	unsigned long n = nreads(), ok = 0, busy = 0, retries = 0;
	pthread_t th;

	(void)state;
	assert_non_null(sh);
	init_page(&sh->page, 1);
	write_version(&sh->page, &sh->reg, 1);
	assert_int_equal(pthread_create(&th, NULL, writer, sh), 0);
	for (unsigned long i = 0; i < n; i++) {
		struct pk_userpage_value v;
		int st = pk_userpage__read(&sh->page, &ops, 100000, &v);
		uint64_t k;

		if (st == PK_USERPAGE_BUSY) {
			busy++;
			continue;
		}
		assert_int_equal(st, PK_USERPAGE_OK);
		retries += v.retries;
		/* enabled = k * 1000 + delta(k) = k * 1001 */
		k = v.enabled / 1001;
		if (v.enabled % 1001 || v.running != k * 1000 - k % 3 + k ||
		    v.count < k * 1000000 || v.count >= k * 1000000 + 2000) {
			fail_msg("torn read %lu: count %llu enabled %llu running %llu", i,
				 (unsigned long long)v.count, (unsigned long long)v.enabled,
				 (unsigned long long)v.running);
		}
		ok++;
	}
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	printf("# %lu reads: %lu consistent, %lu busy, %lu retries, %llu versions written\n", n,
	       ok, busy, retries, (unsigned long long)sh->versions);
	assert_true(ok >= n / 2);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		assert_true(retries > 0);	/* the race was really run */
	free(sh);
}

/* TopDown pair: slots = k * 1000, every PERF_METRICS byte = k & 0xff */
static void write_pair(struct shared *sh, uint64_t k)
{
	uint32_t s1 = __atomic_load_n(&sh->page.lock, __ATOMIC_RELAXED);
	uint32_t s2 = __atomic_load_n(&sh->page2.lock, __ATOMIC_RELAXED);

	ST(sh->page.lock, s1 + 1);
	ST(sh->page2.lock, s2 + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	ST(sh->reg, 0xabcdefULL);
	ST(sh->reg2, 0x1122334455667788ULL);
	ST(sh->reg, k * 1000);
	for (volatile int spin = 0; spin < 20; spin++)	/* widen the torn window */
		;
	ST(sh->reg2, (k & 0xff) * 0x0101010101010101ULL);
	__atomic_store_n(&sh->page.lock, s1 + 2, __ATOMIC_RELEASE);
	__atomic_store_n(&sh->page2.lock, s2 + 2, __ATOMIC_RELEASE);
}

static void *pair_writer(void *arg)
{
	struct shared *sh = arg;
	uint64_t k = 1;

	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		write_pair(sh, ++k);
		for (volatile int spin = 0; spin < 50; spin++)
			;
	}
	sh->versions = k;
	return NULL;
}

static int pair_counter(void *ctx, uint32_t hwidx, uint64_t *v)
{
	struct shared *sh = ctx;

	*v = __atomic_load_n(hwidx == PK_RDPMC_PERF_METRICS ? &sh->reg2 : &sh->reg,
			     __ATOMIC_RELAXED);
	return 0;
}

static void test_stress_topdown_pair(void **state)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	struct pk_selfmon_ops ops = { pair_counter, rd_clock, NULL };
	unsigned long n = nreads() / 2, ok = 0, busy = 0;
	pthread_t th;

	(void)state;
	assert_non_null(sh);
	ops.ctx = sh;
	init_page(&sh->page, PK_RDPMC_SLOTS + 1);
	init_page(&sh->page2, PK_RDPMC_PERF_METRICS + 1);
	write_pair(sh, 1);
	assert_int_equal(pthread_create(&th, NULL, pair_writer, sh), 0);
	for (unsigned long i = 0; i < n; i++) {
		struct pk_topdown_sample s;
		int st = selfmon_topdown_pair(&sh->page, &sh->page2, &ops, 100000, &s, NULL);
		uint64_t k;

		if (st == PK_USERPAGE_BUSY) {
			busy++;
			continue;
		}
		assert_int_equal(st, PK_USERPAGE_OK);
		k = s.slots / 1000;
		if (s.slots % 1000 || s.metrics != (k & 0xff) * 0x0101010101010101ULL)
			fail_msg("torn pair %lu: slots %llu metrics %#llx", i,
				 (unsigned long long)s.slots, (unsigned long long)s.metrics);
		ok++;
	}
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	printf("# %lu pair reads: %lu consistent, %lu busy, %llu versions written\n", n, ok,
	       busy, (unsigned long long)sh->versions);
	assert_true(ok >= n / 2);
	free(sh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stress_counter),
		cmocka_unit_test(test_stress_topdown_pair),
	};
	return cmocka_run_group_tests_name("selfmon_stress", tests, NULL, NULL);
}
