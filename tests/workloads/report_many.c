/* SPDX-License-Identifier: MIT */
/*
 * report_many.c — a deterministic CPU-bound workload with many functions, for
 * the report/diff tests and the report bench: 4 entry points call 16 middle
 * functions that call 64 leaves (each leaf does a different amount of work,
 * some of it in inlined helpers, so srcline and inline frames vary), plus a
 * recursive chain, so that frame-pointer callchains have many shapes.
 *
 *   report_many [-t THREADS] [-v VARIANT] ITERATIONS
 *
 * ITERATIONS rounds of the call tree (each round ~30 us here). THREADS
 * threads (default 1) run it, named rm-0, rm-1, ...; VARIANT (0 or 1)
 * changes which leaves are hot, so that two recordings differ (pmukit diff).
 * Built with -O1 -fno-omit-frame-pointer -fno-inline-functions -g.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int variant;

#define NOINL __attribute__((noinline))

/* Inlined into leaves: their lines show as inline frames in srcline. */
static inline __attribute__((always_inline)) uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static inline __attribute__((always_inline)) uint64_t churn(uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		x = mix(x + i);
	return x;
}

/*
 * leaf##i does (i % 8 + 1) * 40 rounds of churn; variant 1 triples the odd
 * ones. Leaves with i % 8 < 6 keep a value on the stack, so they get a frame
 * (gcc leaves frameless leaves without a frame pointer: their caller is then
 * missing from frame-pointer callchains, as in real programs).
 */
#define LEAF(i)								\
	NOINL uint64_t leaf_##i(uint64_t x)				\
	{								\
		unsigned n = ((i) % 8 + 1) * 40;			\
		if (variant && ((i) & 1))				\
			n *= 3;						\
		if ((i) % 8 < 6) {					\
			volatile uint64_t on_stack = x;			\
			x = on_stack;					\
		}							\
		x = churn(x + (i), n);					\
		__asm__ volatile("" : "+r"(x));				\
		return x;						\
	}

#define L8(b) LEAF(b##0) LEAF(b##1) LEAF(b##2) LEAF(b##3) LEAF(b##4) LEAF(b##5) LEAF(b##6) LEAF(b##7)
/* leaves 10..17, 20..27, ..., 80..87: 64 leaves with two-digit names */
L8(1) L8(2) L8(3) L8(4) L8(5) L8(6) L8(7) L8(8)

/* mid_##m calls four leaves: two from its own row, two from another */
#define MID(m, a, b, c, d)						\
	NOINL uint64_t mid_##m(uint64_t x)				\
	{								\
		x = leaf_##a(x);					\
		x = leaf_##b(x);					\
		x = leaf_##c(x);					\
		x = leaf_##d(x);					\
		__asm__ volatile("" : "+r"(x));				\
		return x;						\
	}

MID(0, 10, 11, 52, 87)
MID(1, 12, 13, 64, 71)
MID(2, 14, 15, 30, 46)
MID(3, 16, 17, 22, 85)
MID(4, 20, 21, 33, 11)
MID(5, 23, 24, 40, 57)
MID(6, 25, 26, 61, 75)
MID(7, 27, 31, 44, 72)
MID(8, 32, 34, 50, 63)
MID(9, 35, 36, 55, 81)
MID(10, 37, 41, 66, 77)
MID(11, 42, 43, 74, 86)
MID(12, 45, 47, 53, 60)
MID(13, 51, 54, 67, 82)
MID(14, 56, 62, 76, 13)
MID(15, 65, 70, 73, 80)

/* A recursive chain: depth-dependent stacks ending in a few leaves. */
NOINL uint64_t recurse(uint64_t x, unsigned depth)
{
	if (!depth)
		return leaf_83(leaf_84(x));
	x = recurse(mix(x), depth - 1);
	__asm__ volatile("" : "+r"(x));
	return x;
}

#define TOP(t, m0, m1, m2, m3)						\
	NOINL uint64_t top_##t(uint64_t x)				\
	{								\
		x = mid_##m0(x);					\
		x = mid_##m1(x);					\
		x = mid_##m2(x);					\
		x = mid_##m3(x);					\
		__asm__ volatile("" : "+r"(x));				\
		return x;						\
	}

TOP(a, 0, 1, 2, 3)
TOP(b, 4, 5, 6, 7)
TOP(c, 8, 9, 10, 11)
TOP(d, 12, 13, 14, 15)

NOINL uint64_t round_all(uint64_t x, unsigned r)
{
	x = top_a(x);
	x = top_b(x);
	if (!variant || (r & 1))
		x = top_c(x);
	x = top_d(x);
	x = recurse(x, r % 12);
	/* variant 1 adds work in top_a alone */
	if (variant)
		x = top_a(x);
	return x;
}

static unsigned long iterations;

static void *run(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	char name[16];
	snprintf(name, sizeof(name), "rm-%u", idx);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	uint64_t x = idx + 1;
	for (unsigned long r = 0; r < iterations; r++)
		x = round_all(x, (unsigned)r);
	return (void *)(uintptr_t)(x & 1);
}

int main(int argc, char **argv)
{
	unsigned threads = 1;
	int opt;
	while ((opt = getopt(argc, argv, "t:v:")) != -1) {
		if (opt == 't')
			threads = (unsigned)strtoul(optarg, NULL, 0);
		else if (opt == 'v')
			variant = atoi(optarg);
		else
			goto usage;
	}
	if (optind + 1 != argc || threads < 1 || threads > 64)
		goto usage;
	iterations = strtoul(argv[optind], NULL, 0);
	if (threads == 1)
		return (int)(uintptr_t)run((void *)0) & 0;
	pthread_t tids[64];
	for (unsigned i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, run, (void *)(uintptr_t)i))
			return 1;
	for (unsigned i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	return 0;
usage:
	fprintf(stderr, "usage: report_many [-t THREADS] [-v 0|1] ITERATIONS\n");
	return 2;
}
