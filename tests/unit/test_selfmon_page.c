/* SPDX-License-Identifier: MIT */
/*
 * test_selfmon_page.c — the user-page read protocol on a synthetic
 * perf_event_mmap_page with a stub counter-read instruction: plain reads,
 * pmc_width sign extension across 48-bit and 32-bit wraps (arm64's UNKNOWN
 * upper bits included), the time extension arithmetic against values worked
 * out by hand, every reason to fall back to read(2) (index 0 among them),
 * and sequence-lock retries caused by an "update" in the middle of a read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/selfmon.h>

/* --- the stub "hardware" -------------------------------------------------------- */

struct stub {
	uint64_t reg[64];		/* counter hwidx -> value */
	uint64_t clock;
	unsigned counter_calls;
	uint32_t last_hwidx;
	int fail;			/* read_counter refuses */
	/* called inside read_counter: a kernel update racing the read */
	void (*during)(struct stub *s);
	volatile struct perf_event_mmap_page *pc;
	unsigned during_left;
};

static int stub_counter(void *ctx, uint32_t hwidx, uint64_t *v)
{
	struct stub *s = ctx;

	s->counter_calls++;
	s->last_hwidx = hwidx;
	if (s->fail)
		return -1;
	*v = s->reg[hwidx & 63];
	if (s->during && s->during_left) {
		s->during_left--;
		s->during(s);
	}
	return 0;
}

static uint64_t stub_clock(void *ctx)
{
	return ((struct stub *)ctx)->clock;
}

static struct perf_event_mmap_page page;
static struct stub hw;
static struct pk_selfmon_ops ops;

static int setup(void **state)
{
	(void)state;
	memset(&page, 0, sizeof(page));
	memset(&hw, 0, sizeof(hw));
	hw.pc = &page;
	ops.read_counter = stub_counter;
	ops.read_clock = stub_clock;
	ops.ctx = &hw;
	page.lock = 2;
	page.cap_bit0_is_deprecated = 1;
	page.cap_user_rdpmc = 1;
	page.pmc_width = 48;
	return 0;
}

/* --- arithmetic ---------------------------------------------------------------------- */

static void test_sign_extend(void **state)
{
	(void)state;
	assert_int_equal(pk_userpage__sign_extend(0xffffffffffffULL, 48), -1);
	assert_int_equal(pk_userpage__sign_extend(0x7fffffffffffULL, 48), 0x7fffffffffffLL);
	assert_int_equal(pk_userpage__sign_extend(0x800000000000ULL, 48), -0x800000000000LL);
	/* bits above the width are not part of the value */
	assert_int_equal(pk_userpage__sign_extend(0xabcd000000000005ULL, 48), 5);
	assert_int_equal(pk_userpage__sign_extend(0xdeadbeef80000000ULL, 32), -0x80000000LL);
	assert_int_equal(pk_userpage__sign_extend(0xdeadbeef7fffffffULL, 32), 0x7fffffff);
	assert_int_equal(pk_userpage__sign_extend(1, 1), -1);
	assert_int_equal(pk_userpage__sign_extend(0x8000000000000000ULL, 64), INT64_MIN);
	assert_int_equal(pk_userpage__sign_extend(42, 64), 42);
}

/*
 * time_offset + cyc * mult >> shift, checked against values computed by hand
 * (exact 128-bit products): 123456789012345 * 2863311531 >> 31 =
 * 164609052035623, minus 987654321 = 164608064381302.
 */
static void test_time_delta(void **state)
{
	(void)state;
	assert_int_equal(pk_userpage__time_delta(123456789012345ULL, 2863311531u, 31,
						 (uint64_t)-987654321LL, false, 0, ~0ULL),
			 164608064381302ULL);
	/* mult 2^shift: the identity */
	assert_int_equal(pk_userpage__time_delta(1000, 1u << 10, 10, 5, false, 0, ~0ULL), 1005);
	/* shift 0 */
	assert_int_equal(pk_userpage__time_delta(7, 3, 0, 0, false, 0, ~0ULL), 21);
	/*
	 * cap_user_time_short: a 56-bit counter that wrapped since time_cycles
	 * 0x00fffffffffff000 now reads 0x100; the true count is
	 * time_cycles + ((0x100 - time_cycles) & (2^56 - 1)) = 0x0100000000000100,
	 * times 0x155555 >> 20 = 96076769144078677, minus 1234567.
	 */
	assert_int_equal(pk_userpage__time_delta(0x100, 0x155555, 20, (uint64_t)-1234567LL, true,
						 0x00fffffffffff000ULL, (1ULL << 56) - 1),
			 96076769142844110ULL);
	/* the same without the short correction would be far off */
	assert_int_not_equal(pk_userpage__time_delta(0x100, 0x155555, 20, (uint64_t)-1234567LL,
						     false, 0, ~0ULL),
			     96076769142844110ULL);
}

/* --- reads ---------------------------------------------------------------------------- */

static void test_plain_read(void **state)
{
	struct pk_userpage_value v;

	(void)state;
	page.index = 3;
	page.offset = 1000;
	page.time_enabled = 100;
	page.time_running = 100;
	hw.reg[2] = 500;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(hw.last_hwidx, 2);	/* rdpmc(index - 1) */
	assert_int_equal(v.count, 1500);
	assert_int_equal(v.enabled, 100);
	assert_int_equal(v.running, 100);
	assert_int_equal(v.index, 3);
	assert_int_equal(v.seq, 2);
	assert_int_equal(v.retries, 0);
	assert_int_equal(hw.counter_calls, 1);
}

/*
 * x86 style: the kernel programs the counter to -period (48 bits) and keeps
 * offset = count - (u64)-period. Counting up through 2^48 must not make the
 * value jump by 2^48.
 */
static void test_width48_wrap(void **state)
{
	struct pk_userpage_value v;
	const uint64_t mask48 = (1ULL << 48) - 1;

	(void)state;
	page.index = 1;
	page.offset = (int64_t)(10000 + 256);	/* count 10000, prev_count -256 */
	hw.reg[0] = (uint64_t)-256 & mask48;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 10000);
	hw.reg[0] = ((uint64_t)-256 + 100) & mask48;	/* 100 events, before the wrap */
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 10100);
	hw.reg[0] = ((uint64_t)-256 + 300) & mask48;	/* 300 events: wrapped to 44 */
	assert_int_equal(hw.reg[0], 44);
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 10300);
	/* an implementation returning bits above pmc_width changes nothing */
	hw.reg[0] |= 0xffff000000000000ULL;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 10300);
}

/*
 * arm64 32-bit counter: pmc_width 32, the upper 32 bits read are UNKNOWN
 * (perf.rst) and must be discarded; the value still crosses 2^32.
 */
static void test_width32_wrap(void **state)
{
	struct pk_userpage_value v;

	(void)state;
	page.index = 32;		/* arm64: hw idx 31 is the cycle counter */
	page.pmc_width = 32;
	page.offset = 5000 + 1000;	/* count 5000, prev_count -1000 */
	hw.reg[31] = 0xdeadbeef00000000ULL | ((uint64_t)-1000 & 0xffffffffULL);
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(hw.last_hwidx, 31);
	assert_int_equal(v.count, 5000);
	hw.reg[31] = 0x1234567800000000ULL | (((uint64_t)-1000 + 990) & 0xffffffffULL);
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 5990);
	hw.reg[31] = 0x0badf00d00000005ULL;	/* 1005 events: past 2^32 */
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 6005);
	/* 64-bit counter (config1 `long`): everything is value */
	page.pmc_width = 64;
	page.offset = 0;
	hw.reg[31] = 0x100000005ULL;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 0x100000005ULL);
}

/* enabled/running extended by the clock: both, since index != 0 */
static void test_time_extension(void **state)
{
	struct pk_userpage_value v;

	(void)state;
	page.index = 1;
	page.offset = 7;
	hw.reg[0] = 3;
	page.cap_user_time = 1;
	page.time_mult = 2863311531u;
	page.time_shift = 31;
	page.time_offset = (uint64_t)-987654321LL;
	hw.clock = 123456789012345ULL;
	page.time_enabled = 2000;
	page.time_running = 1000;	/* multiplexed: scaling needs current times */
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 10);
	assert_int_equal(v.enabled, 2000 + 164608064381302ULL);
	assert_int_equal(v.running, 1000 + 164608064381302ULL);

	/* arm64-style short counter */
	page.cap_user_time_short = 1;
	page.time_mult = 0x155555;
	page.time_shift = 20;
	page.time_offset = (uint64_t)-1234567LL;
	page.time_cycles = 0x00fffffffffff000ULL;
	page.time_mask = (1ULL << 56) - 1;
	hw.clock = 0x100;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.enabled, 2000 + 96076769142844110ULL);
	assert_int_equal(v.running, 1000 + 96076769142844110ULL);

	/* a clock-less ops cannot extend: multiplexed times -> read(2) */
	ops.read_clock = NULL;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_NO_TIME);
	ops.read_clock = stub_clock;
}

static void test_fallback_reasons(void **state)
{
	struct pk_userpage_value v = { .count = 12345 };

	(void)state;
	page.offset = 10;
	page.time_enabled = page.time_running = 50;

	page.index = 0;			/* not on a counter now */
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_INDEX0);
	assert_int_equal(hw.counter_calls, 0);	/* no rdpmc with index 0 */
	assert_int_equal(v.count, 12345);	/* out untouched */

	page.index = 1;
	page.cap_user_rdpmc = 0;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_NO_RDPMC);
	page.cap_user_rdpmc = 1;

	page.time_running = 40;		/* multiplexed, no cap_user_time */
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_NO_TIME);
	page.time_running = 50;

	page.pmc_width = 0;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_BAD_WIDTH);
	page.pmc_width = 65;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_BAD_WIDTH);
	page.pmc_width = 48;

	hw.fail = 1;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_INSN);
	hw.fail = 0;

	assert_int_equal(pk_userpage__read(&page, NULL, 0, &v), PK_USERPAGE_NO_RDPMC);
	assert_int_equal(pk_userpage__read(NULL, &ops, 0, &v), PK_USERPAGE_NO_RDPMC);
	assert_int_equal(v.count, 12345);

	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.count, 10);
}

/* a kernel update (lock += 2, new offset and counter) lands mid-read */
static void update_offset(struct stub *s)
{
	s->pc->lock += 2;
	s->pc->offset = 2000;
	s->reg[0] = 1;
}

static void test_seqlock_retry(void **state)
{
	struct pk_userpage_value v;

	(void)state;
	page.index = 1;
	page.offset = 1000;
	hw.reg[0] = 500;
	hw.during = update_offset;
	hw.during_left = 1;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_OK);
	assert_int_equal(v.retries, 1);
	assert_int_equal(v.count, 2001);	/* the new version, not 1500 nor 2500 */
	assert_int_equal(v.seq, 4);
	assert_int_equal(hw.counter_calls, 2);
}

/* the event is scheduled out mid-read: the retry sees index 0, not a stale value */
static void sched_out(struct stub *s)
{
	s->pc->lock += 2;
	s->pc->index = 0;
	s->pc->offset = 777;
}

static void test_index0_mid_read(void **state)
{
	struct pk_userpage_value v;

	(void)state;
	page.index = 1;
	page.offset = 1000;
	hw.reg[0] = 500;
	hw.during = sched_out;
	hw.during_left = 1;
	assert_int_equal(pk_userpage__read(&page, &ops, 0, &v), PK_USERPAGE_INDEX0);
	assert_int_equal(hw.counter_calls, 1);
}

/* an odd lock is an update in flight: wait; one that never settles: give up */
static void always_update(struct stub *s)
{
	s->pc->lock += 2;
	s->during_left = 1;
}

static void test_seqlock_busy(void **state)
{
	struct pk_userpage_value v;

	(void)state;
	page.index = 1;
	page.lock = 7;
	assert_int_equal(pk_userpage__read(&page, &ops, 5, &v), PK_USERPAGE_BUSY);
	assert_int_equal(hw.counter_calls, 0);
	page.lock = 8;
	assert_int_equal(pk_userpage__read(&page, &ops, 5, &v), PK_USERPAGE_OK);

	hw.during = always_update;
	hw.during_left = 1;
	assert_int_equal(pk_userpage__read(&page, &ops, 10, &v), PK_USERPAGE_BUSY);
	assert_int_equal(hw.counter_calls, 1 + 11);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_sign_extend, setup),
		cmocka_unit_test_setup(test_time_delta, setup),
		cmocka_unit_test_setup(test_plain_read, setup),
		cmocka_unit_test_setup(test_width48_wrap, setup),
		cmocka_unit_test_setup(test_width32_wrap, setup),
		cmocka_unit_test_setup(test_time_extension, setup),
		cmocka_unit_test_setup(test_fallback_reasons, setup),
		cmocka_unit_test_setup(test_seqlock_retry, setup),
		cmocka_unit_test_setup(test_index0_mid_read, setup),
		cmocka_unit_test_setup(test_seqlock_busy, setup),
	};
	return cmocka_run_group_tests_name("selfmon_page", tests, NULL, NULL);
}
