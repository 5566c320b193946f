/* SPDX-License-Identifier: MIT */
/*
 * bench/selfmon-read.c — cost of reading a self-monitoring group:
 *
 *   pmukit_read NS         pk_selfmon__read of {task-clock,page-faults}
 *                          (software events: the read(2) path)
 *   raw_read NS            a bare read(2) of the same group fd
 *   pmukit_read_ratio R    pmukit_read / raw_read (goal <= 1.10)
 *   pmukit_region_pair NS  region_begin_id + region_end_id (two group reads)
 *   rdpmc_read NS          pk_selfmon__read of {instructions,cycles}:u on the
 *                          user-page path — only where the fast path exists
 *   rdpmc_bare NS          a bare `lfence; rdpmc` loop on the same counters
 *   rdpmc_read_ratio R     rdpmc_read / rdpmc_bare (goal <= 2)
 *
 * Each figure is the median of 15 rounds, the two contenders of a pair
 * interleaved round by round so that frequency and noise hit both alike.
 * Usage: selfmon-read [BUILD_DIR [ARCH_DIR]] (arguments ignored).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/selfmon.h>

#define ROUNDS 15

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof(*v), cmp);
	return v[ROUNDS / 2];
}

static int bench_syscall_path(void)
{
	struct pk_selfmon *g;
	struct pk_selfmon_value v[2];
	struct pk_error err;
	double lib[ROUNDS], raw[ROUNDS], reg[ROUNDS];
	uint64_t buf[16];
	const int iters = 20000;
	int fd, id;

	if (pk_selfmon__open(&g, "{task-clock,page-faults}", NULL, &err)) {
		fprintf(stderr, "selfmon-read: %s\n", err.msg);
		return 1;
	}
	fd = pk_selfmon__fd(g, 0);
	id = pk_selfmon__region_id(g, "bench");
	pk_selfmon__enable(g);
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();
		for (int i = 0; i < iters; i++)
			pk_selfmon__read(g, v, 2);
		double t1 = now_ns();
		for (int i = 0; i < iters; i++)
			if (read(fd, buf, sizeof(buf)) < 0)
				return 1;
		double t2 = now_ns();
		for (int i = 0; i < iters / 2; i++) {
			pk_selfmon__region_begin_id(g, id);
			pk_selfmon__region_end_id(g, id);
		}
		double t3 = now_ns();
		lib[r] = (t1 - t0) / iters;
		raw[r] = (t2 - t1) / iters;
		reg[r] = (t3 - t2) / (iters / 2);
	}
	double l = median(lib), w = median(raw);
	printf("pmukit_read %.1f\n", l);
	printf("raw_read %.1f\n", w);
	printf("pmukit_read_ratio %.3f\n", l / w);
	printf("pmukit_region_pair %.1f\n", median(reg));
	pk_selfmon__free(g);
	return 0;
}

/* Where the kernel lets this thread use rdpmc / mrs: the library's page read
 * against a bare read-counter loop over the same indexes. */
static void bench_user_path(void)
{
	struct pk_selfmon_opts o = { .sz = sizeof(o), .path = PK_SELFMON_PATH_USER };
	const struct pk_selfmon_ops *ops = pk_selfmon_ops__native();
	struct pk_selfmon *g;
	struct pk_selfmon_value v[2];
	struct pk_error err;
	struct pk_user_access ua;
	double lib[ROUNDS], bare[ROUNDS];
	const int iters = 200000;
	uint32_t idx[2];
	uint64_t sink = 0;
	int found = 0;

	if (pk_selfmon__open(&g, "{instructions,cycles}:u", &o, &err)) {
		pk_user_access__check(NULL, &ua);
		fprintf(stderr, "# no rdpmc_read here: %s (user-access: %s: %s)\n", err.msg,
			ua.code, ua.msg);
		return;
	}
	pk_selfmon__enable(g);
	/* the hardware indexes the pages give (our own mappings of them) */
	for (int i = 0; i < 2; i++) {
		size_t psz = (size_t)sysconf(_SC_PAGESIZE);
		struct pk_userpage_value pv;
		void *m = mmap(NULL, psz, PROT_READ, MAP_SHARED, pk_selfmon__fd(g, (size_t)i), 0);

		idx[i] = 0;
		if (m != MAP_FAILED) {
			if (pk_userpage__read(m, ops, 0, &pv) == PK_USERPAGE_OK) {
				idx[i] = pv.index - 1;
				found++;
			}
			munmap(m, psz);
		}
	}
	if (found != 2) {
		fprintf(stderr, "# no rdpmc_read here: the counters are not on the PMU (index 0)\n");
		pk_selfmon__free(g);
		return;
	}
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();
		for (int i = 0; i < iters; i++)
			pk_selfmon__read(g, v, 2);
		double t1 = now_ns();
		/* the same instruction sequence the library uses (lfence; rdpmc) */
		for (int i = 0; i < iters; i++) {
			uint64_t a, b;
			ops->read_counter(ops->ctx, idx[0], &a);
			ops->read_counter(ops->ctx, idx[1], &b);
			sink += a + b;
		}
		double t2 = now_ns();
		lib[r] = (t1 - t0) / iters;
		bare[r] = (t2 - t1) / iters;
	}
	double l = median(lib), b = median(bare);
	printf("rdpmc_read %.1f\n", l);
	printf("rdpmc_bare %.1f\n", b);
	printf("rdpmc_read_ratio %.3f\n", l / b);
	if (sink == 42)
		fputc('\n', stderr);
	pk_selfmon__free(g);
}

int main(void)
{
	if (bench_syscall_path())
		return 1;
	bench_user_path();
	return 0;
}
