/* SPDX-License-Identifier: MIT */
/*
 * vdso_time.c — a workload that spends its time in the vDSO: clock_gettime
 * in a loop under two callers, so that samples land in [vdso] code and in
 * libc's wrapper (tests/integration/unwind_dwarf.sh: --call-graph dwarf
 * chains through the vDSO, whose file is the build-id cache's copy or, in
 * a pipe, the reading process's own).
 *
 *   vdso_time [CALLS]   (default 1000000)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noinline)) static void tick(long n)
{
	struct timespec t;
	for (long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		sink += (uint64_t)t.tv_nsec;
	}
}

__attribute__((noinline)) static void ticks(long n)
{
	tick(n / 2);
	tick(n - n / 2);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
	ticks(n);
	printf("%llu\n", (unsigned long long)(sink & 1));
	return 0;
}
