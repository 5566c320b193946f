/* SPDX-License-Identifier: MIT */
/*
 * examples/region.c — measure two regions of a program with libpmukit's
 * self-monitoring API: a counter group of this thread opened from a spec
 * string, regions around a loop body, and the totals printed at the end.
 *
 *   build/examples/region ["SPEC"]     (default "{task-clock,page-faults}")
 *
 * The group reads through the perf user page (rdpmc / mrs, no system call)
 * when the kernel allows it for every event, through read(2) otherwise; the
 * example says which and why.
 */
#define _DEFAULT_SOURCE	/* MAP_ANONYMOUS under -std=c11 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <pmukit/selfmon.h>

static double work(size_t n)
{
	double s = 0.0;

	for (size_t i = 1; i <= n; i++)
		s += 1.0 / ((double)i * (double)i);
	return s;
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "{task-clock,page-faults}";
	struct pk_selfmon *g;
	struct pk_selfmon_value v[16];
	struct pk_error err;
	double sum = 0.0;
	int touch, compute;

	if (pk_selfmon__open(&g, spec, NULL, &err)) {
		fprintf(stderr, "region: cannot open %s:\n%s\n", spec, err.msg);
		return 1;
	}
	printf("group %s: %zu events, read path: %s%s%s\n", spec, pk_selfmon__nr(g),
	       pk_selfmon__path(g) == PK_SELFMON_PATH_USER ? "user page" : "read(2)",
	       pk_selfmon__path(g) == PK_SELFMON_PATH_USER ? "" : " — ",
	       pk_selfmon__path_reason(g));

	/* ids: no name lookup in the loop */
	touch = pk_selfmon__region_id(g, "touch-memory");
	compute = pk_selfmon__region_id(g, "compute");
	if (touch < 0 || compute < 0 || pk_selfmon__enable(g)) {
		fprintf(stderr, "region: cannot set up the regions\n");
		pk_selfmon__free(g);
		return 1;
	}
	for (int round = 0; round < 20; round++) {
		size_t len = 256 * 1024;
		char *p;

		pk_selfmon__region_begin_id(g, touch);
		/* fresh anonymous pages: one page fault each on first touch */
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			memset(p, round + 1, len);
			sum += p[len / 2];	/* used, so the compiler keeps it */
		}
		pk_selfmon__region_end_id(g, touch);
		if (p != MAP_FAILED)
			munmap(p, len);

		pk_selfmon__region_begin_id(g, compute);
		sum += work(200000);
		pk_selfmon__region_end_id(g, compute);
	}
	pk_selfmon__disable(g);

	pk_selfmon__region_print(g, stdout);
	if (pk_selfmon__read(g, v, pk_selfmon__nr(g) < 16 ? pk_selfmon__nr(g) : 16) == 0)
		printf("whole run: %s = %llu (enabled %.3f ms)\n", pk_selfmon__name(g, 0),
		       (unsigned long long)v[0].raw, (double)v[0].enabled / 1e6);
	printf("(checksum %.6f)\n", sum);
	pk_selfmon__free(g);
	return 0;
}
