/* SPDX-License-Identifier: MIT */
/*
 * insn.c — the counter-read and clock instructions behind struct
 * pk_selfmon_ops, one set per architecture:
 *
 *   x86    counter: `lfence; rdpmc` with ECX = page index - 1 (fixed counters
 *          and PERF_METRICS carry the RDPMC flags in that index already)
 *          clock:   `rdtsc` (the page's time_mult/shift convert TSC cycles)
 *   arm64  counter: `isb; mrs` of PMEVCNTR<n>_EL0 for n = 0..30, PMCCNTR_EL0
 *          (the cycle counter) for 31
 *          clock:   `mrs cntvct_el0`
 *
 * Serialization: rdpmc and mrs of a PMU register are not ordered with the
 * instructions around them; without a barrier the read may execute before
 * the end of the measured code. A region boundary wants "everything before
 * has executed", so the read is preceded by LFENCE (x86: waits for earlier
 * instructions to complete locally, far cheaper than CPUID) or ISB (arm64).
 * Nothing after the read is fenced: code after a region's end may start
 * early, which only makes the next interval slightly longer, never the
 * measured one shorter. The clock read is not fenced: it only extends times.
 *
 * Elsewhere both functions are NULL and groups read with read(2).
 */
#include <pmukit/selfmon.h>

#if defined(__x86_64__) || defined(__i386__)

static int x86_read_counter(void *ctx, uint32_t hwidx, uint64_t *value)
{
	uint32_t lo, hi;

	(void)ctx;
	__asm__ __volatile__("lfence\n\trdpmc" : "=a"(lo), "=d"(hi) : "c"(hwidx) : "memory");
	*value = (uint64_t)hi << 32 | lo;
	return 0;
}

static uint64_t x86_read_clock(void *ctx)
{
	uint32_t lo, hi;

	(void)ctx;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static const struct pk_selfmon_ops native_ops = {
	.read_counter = x86_read_counter,
	.read_clock = x86_read_clock,
};

#elif defined(__aarch64__)

#define MRS_EVCNTR(n)                                                              \
	case n:                                                                    \
		__asm__ __volatile__("isb\n\tmrs %0, pmevcntr" #n "_el0" : "=r"(v) \
				     :                                             \
				     : "memory");                                  \
		break;

static int arm64_read_counter(void *ctx, uint32_t hwidx, uint64_t *value)
{
	uint64_t v;

	(void)ctx;
	switch (hwidx) {
	MRS_EVCNTR(0) MRS_EVCNTR(1) MRS_EVCNTR(2) MRS_EVCNTR(3)
	MRS_EVCNTR(4) MRS_EVCNTR(5) MRS_EVCNTR(6) MRS_EVCNTR(7)
	MRS_EVCNTR(8) MRS_EVCNTR(9) MRS_EVCNTR(10) MRS_EVCNTR(11)
	MRS_EVCNTR(12) MRS_EVCNTR(13) MRS_EVCNTR(14) MRS_EVCNTR(15)
	MRS_EVCNTR(16) MRS_EVCNTR(17) MRS_EVCNTR(18) MRS_EVCNTR(19)
	MRS_EVCNTR(20) MRS_EVCNTR(21) MRS_EVCNTR(22) MRS_EVCNTR(23)
	MRS_EVCNTR(24) MRS_EVCNTR(25) MRS_EVCNTR(26) MRS_EVCNTR(27)
	MRS_EVCNTR(28) MRS_EVCNTR(29) MRS_EVCNTR(30)
	case 31:	/* ARMV8_PMU_CYCLE_IDX: the cycle counter */
		__asm__ __volatile__("isb\n\tmrs %0, pmccntr_el0" : "=r"(v) : : "memory");
		break;
	default:	/* 32 is the instruction counter, never given to userspace */
		return -1;
	}
	*value = v;
	return 0;
}

static uint64_t arm64_read_clock(void *ctx)
{
	uint64_t v;

	(void)ctx;
	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

static const struct pk_selfmon_ops native_ops = {
	.read_counter = arm64_read_counter,
	.read_clock = arm64_read_clock,
};

#else

static const struct pk_selfmon_ops native_ops = { 0 };

#endif

const struct pk_selfmon_ops *pk_selfmon_ops__native(void)
{
	return &native_ops;
}
