/* SPDX-License-Identifier: MIT */
/*
 * bench/stat.c — `pmukit stat` against `perf stat` (perf 6.1) on this machine,
 * each pair interleaved run by run so that noise hits both alike:
 *
 *   stat_startup_pmukit_ms MS   `pmukit stat -e task-clock true`, start to exit (median)
 *   stat_startup_perf_ms MS     `perf stat -e task-clock true`
 *   stat_startup_ratio R        pmukit / perf (goal <= 0.125)
 *   stat_startup_floor_ms MS    BUILD/bench/stat_floor true: the least any such tool does
 *                               (start the command held, one counter, wait, read, print)
 *   stat_startup_floor_ratio R  floor / perf: where the floor already exceeds the goal,
 *                               process start-up on this machine is what is measured
 *   stat_startup_over_floor_ms MS  pmukit - floor: pmukit's own share
 *   stat_maxrss_pmukit_kib KIB  peak resident memory of the pmukit run
 *   stat_maxrss_perf_kib KIB
 *   stat_workload_alone_ms MS   a workload touching 16384 pages, uncounted
 *   stat_workload_pmukit_ms MS  the same under `pmukit stat -e task-clock,page-faults,
 *                               context-switches`
 *   stat_workload_perf_ms MS    the same under perf stat
 *   stat_overhead_ratio R       (pmukit - alone) / (perf - alone): counting overhead
 *                               relative to perf's (goal <= 1)
 *
 * The workload is the unit test binary's --touch mode (BUILD/tests/test_count).
 * Without perf the perf lines are left out. Usage: stat BUILD_DIR [ARCH_DIR].
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUNS 31

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Run argv with stdout/stderr to /dev/null; wall ms, peak RSS KiB. 0 or -1. */
static int run(char *const *argv, double *ms, long *rss)
{
	double t0 = now_ns();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	int st;
	struct rusage ru;
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	*ms = (now_ns() - t0) / 1e6;
	*rss = ru.ru_maxrss;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

struct series {
	double ms[RUNS];
	long rss;
	int n;
};

static double median(struct series *s)
{
	qsort(s->ms, (size_t)s->n, sizeof(s->ms[0]), cmp);
	return s->n ? s->ms[s->n / 2] : 0;
}

/* Interleave the commands run by run; false when one of them fails. */
static bool compare(char *const *cmds[], struct series *out, int nr)
{
	for (int r = 0; r < RUNS; r++)
		for (int c = 0; c < nr; c++) {
			double ms;
			long rss;
			if (run(cmds[c], &ms, &rss))
				return false;
			out[c].ms[out[c].n++] = ms;
			if (rss > out[c].rss)
				out[c].rss = rss;
		}
	return true;
}

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "build";
	char pmukit[4096], tc[4096], floor[4096];
	bool perf = !system("perf --version >/dev/null 2>&1");

	snprintf(pmukit, sizeof(pmukit), "%s/pmukit", b);
	snprintf(tc, sizeof(tc), "%s/tests/test_count", b);
	snprintf(floor, sizeof(floor), "%s/bench/stat_floor", b);
	bool have_floor = !access(floor, X_OK);

	char *p_start[] = { pmukit, "stat", "-e", "task-clock", "true", NULL };
	char *f_start[] = { "perf", "stat", "-e", "task-clock", "true", NULL };
	char *l_start[] = { floor, "true", NULL };
	/* the floor last, so that without perf or without it the indices hold */
	char *const *start[] = { p_start, perf ? f_start : l_start, l_start };
	int nr = 1 + perf + have_floor;
	struct series s[3] = { 0 };
	if (!compare(start, s, nr)) {
		printf("stat_startup failed\n");
		return 1;
	}
	double pm = median(&s[0]);
	printf("stat_startup_pmukit_ms %.3f\n", pm);
	printf("stat_maxrss_pmukit_kib %ld\n", s[0].rss);
	if (perf) {
		double pf = median(&s[1]);
		printf("stat_startup_perf_ms %.3f\n", pf);
		printf("stat_startup_ratio %.3f\n", pm / pf);
		printf("stat_maxrss_perf_kib %ld\n", s[1].rss);
	}
	if (have_floor) {
		double fl = median(&s[nr - 1]);
		printf("stat_startup_floor_ms %.3f\n", fl);
		if (perf)
			printf("stat_startup_floor_ratio %.3f\n", fl / median(&s[1]));
		printf("stat_startup_over_floor_ms %.3f\n", pm - fl);
	}

	if (access(tc, X_OK))
		return 0;
	char *w_alone[] = { tc, "--touch", "16384", NULL };
	char *w_pmukit[] = { pmukit, "stat", "-e", "task-clock,page-faults,context-switches",
			     tc, "--touch", "16384", NULL };
	char *w_perf[] = { "perf", "stat", "-e", "task-clock,page-faults,context-switches",
			   tc, "--touch", "16384", NULL };
	char *const *work[] = { w_alone, w_pmukit, w_perf };
	memset(s, 0, sizeof(s));
	if (!compare(work, s, perf ? 3 : 2)) {
		printf("stat_workload failed\n");
		return 1;
	}
	double a = median(&s[0]), wp = median(&s[1]);
	printf("stat_workload_alone_ms %.3f\n", a);
	printf("stat_workload_pmukit_ms %.3f\n", wp);
	if (perf) {
		double wf = median(&s[2]);
		printf("stat_workload_perf_ms %.3f\n", wf);
		if (wf > a)
			printf("stat_overhead_ratio %.3f\n", (wp - a) / (wf - a));
	}
	return 0;
}
