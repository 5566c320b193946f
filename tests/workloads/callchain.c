/* SPDX-License-Identifier: MIT */
/*
 * callchain.c — a deterministic CPU-bound workload for sampling tests: twelve
 * leaf functions doing fixed, different amounts of integer work (weights
 * 1..12), reached through three levels of callers, built with frame
 * pointers (the Makefile's `tests` target). The same argument always does
 * the same work, so two profilers sampling it should see the same shares:
 * leaf_N gets about N/78 of the time.
 *
 *   callchain [ROUNDS [TIMEFILE]]   (default 2000 rounds: about a second here)
 *
 * With TIMEFILE, its own wall time in ms is written there (what a recorder
 * costs the workload, without the recorder's start-up and wind-down).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

#define LEAF(n)                                                                  \
	__attribute__((noinline)) static uint64_t leaf_##n(uint64_t x)         \
	{                                                                        \
		for (int i = 0; i < (n) * 4000; i++)                            \
			x = x * 6364136223846793005ULL + 1442695040888963407ULL; \
		return x;                                                        \
	}
LEAF(1) LEAF(2) LEAF(3) LEAF(4) LEAF(5) LEAF(6)
LEAF(7) LEAF(8) LEAF(9) LEAF(10) LEAF(11) LEAF(12)

__attribute__((noinline)) static uint64_t mid_a(uint64_t x)
{
	return leaf_1(x) ^ leaf_2(x) ^ leaf_3(x) ^ leaf_4(x);
}

__attribute__((noinline)) static uint64_t mid_b(uint64_t x)
{
	return leaf_5(x) ^ leaf_6(x) ^ leaf_7(x) ^ leaf_8(x);
}

__attribute__((noinline)) static uint64_t mid_c(uint64_t x)
{
	return leaf_9(x) ^ leaf_10(x) ^ leaf_11(x) ^ leaf_12(x);
}

__attribute__((noinline)) static uint64_t top(uint64_t x)
{
	return mid_a(x) + mid_b(x) + mid_c(x);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 2000;
	uint64_t x = 1;
	double t0 = now_ms();
	for (long r = 0; r < rounds; r++)
		x = top(x + (uint64_t)r);
	sink = x;
	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");
		if (!f)
			return 1;
		fprintf(f, "%.3f\n", now_ms() - t0);
		fclose(f);
	}
	return 0;
}
