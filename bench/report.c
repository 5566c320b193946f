/* SPDX-License-Identifier: MIT */
/*
 * bench/report.c — pmukit report against perf 6.1's report in one run, on a
 * cpu-clock profile with frame-pointer callchains of
 * tests/workloads/report_many (two threads, many functions), recorded once
 * with perf and cached in BUILD/bench/report-N.data:
 *
 *   nochildren  report --stdio --no-children -g none
 *   callchains  report --stdio               (children, caller graph)
 *   srcline     report --stdio --sort srcline
 *
 * For each, the best wall time of a few runs, the CPU time (user + sys) and
 * the peak RSS of each tool (wait4's rusage), their ratios, and whether the
 * outputs are the same (perf's random closing tip left out). Prints
 * `name value` lines.
 *
 *   report BUILD [ARCH]
 *   PMUKIT_REPORT_BENCH_SAMPLES  profile size (default 300000; the issue's
 *                                 profile is 2400000)
 *   PMUKIT_REPORT_BENCH_RUNS     runs of each tool and case (default 3)
 *   PMUKIT_REPORT_BENCH_TIMEOUT  seconds a run may take (default 300): perf's
 *                                 srcline sort runs addr2line per lookup and can
 *                                 take very long; a run killed at the limit
 *                                 gives lower bounds (report_*_perf_timeout 1)
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <pmukit/data_read.h>

struct run {
	double wall, cpu;
	long rss_kb;
	int status;
	bool timed_out;
};

static double timeout_s = 300;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* run argv with stdout into out (NULL: /dev/null), stderr discarded */
static int spawn(char *const argv[], const char *out, struct run *r)
{
	double t0 = now();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_WRONLY);
		if (fd < 0 || nul < 0)
			_exit(127);
		dup2(fd, 1);
		dup2(nul, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	int st;
	struct rusage ru;
	r->timed_out = false;
	for (;;) {
		pid_t w = wait4(pid, &st, WNOHANG, &ru);
		if (w < 0)
			return -1;
		if (w == pid)
			break;
		if (now() - t0 > timeout_s && !r->timed_out) {
			kill(pid, SIGKILL);
			r->timed_out = true;
		}
		usleep(20000);
	}
	r->wall = now() - t0;
	r->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->rss_kb = ru.ru_maxrss;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

static uint64_t count_samples(const char *path, struct pk_error *err)
{
	struct pk_data_reader *r;
	struct pk_data_reader_opts o = { .sz = sizeof(o), .order = PK_DATA_ORDER_FILE };
	if (pk_data_reader__open(&r, path, &o, err))
		return 0;
	const struct pk_data_event *ev;
	uint64_t n = 0;
	while (pk_data_reader__next(r, &ev, err) > 0)
		n += ev->type == PERF_RECORD_SAMPLE;
	pk_data_reader__free(r);
	return n;
}

/* the two outputs equal, without perf's "# (Tip: ...)" lines */
static int same_output(const char *a, const char *b)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "cmp -s <(grep -v '^# (Tip:' '%s') <(grep -v '^# (Tip:' '%s')", a, b);
	char *argv[] = { "bash", "-c", cmd, NULL };
	struct run r;
	return !spawn(argv, NULL, &r) && r.status == 0;
}

static int record_once(const char *b, const char *path, unsigned long iterations)
{
	char work[2048], iters[32];
	snprintf(work, sizeof(work), "%s/tests/workloads/report_many", b);
	snprintf(iters, sizeof(iters), "%lu", iterations);
	char *argv[] = { "perf", "record", "-q", "-e", "cpu-clock", "-c", "10000", "-g", "-o", (char *)path,
			 work, "-t", "2", iters, NULL };
	struct run r;
	return spawn(argv, NULL, &r) || r.status ? -1 : 0;
}

/*
 * A profile of about `samples` samples: a short calibration recording gives
 * the samples per round of the workload on this machine (it changes with
 * the machine and the compiler), then the full one is recorded.
 */
static int record(const char *b, const char *path, unsigned long samples)
{
	char tmp[2200];
	struct pk_error err = { 0 };
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unsigned long cal = 2000;
	if (record_once(b, tmp, cal))
		return -1;
	uint64_t got = count_samples(tmp, &err);
	unlink(tmp);	/* else perf keeps it as .tmp.old */
	if (!got)
		return -1;
	unsigned long iters = (unsigned long)((double)samples * cal / (double)got) + 1;
	fprintf(stderr, "bench/report: recording %s (%lu samples: %lu rounds, a few minutes at full size)\n",
		path, samples, iters);
	if (record_once(b, tmp, iters) || rename(tmp, path))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "build";
	const char *e = getenv("PMUKIT_REPORT_BENCH_SAMPLES");
	unsigned long samples = e ? strtoul(e, NULL, 0) : 300000;
	e = getenv("PMUKIT_REPORT_BENCH_TIMEOUT");
	if (e && atof(e) > 0)
		timeout_s = atof(e);
	e = getenv("PMUKIT_REPORT_BENCH_RUNS");
	int runs = e ? atoi(e) : 3;
	if (runs < 1)
		runs = 1;
	if (system("perf --version >/dev/null 2>&1")) {
		printf("report_bench_skipped no_perf\n");
		return 0;
	}
	char dir[1024], data[1200], pmukit[1100];
	snprintf(dir, sizeof(dir), "%s/bench", b);
	mkdir(dir, 0755);
	snprintf(data, sizeof(data), "%s/report-%lu.data", dir, samples);
	snprintf(pmukit, sizeof(pmukit), "%s/pmukit", b);
	struct stat st;
	if (stat(data, &st) && (record(b, data, samples) || stat(data, &st))) {
		printf("report_bench_skipped record_failed\n");
		return 0;
	}
	struct pk_error err = { 0 };
	printf("report_bench_samples %llu\n", (unsigned long long)count_samples(data, &err));
	printf("report_bench_file_bytes %lld\n", (long long)st.st_size);
	fflush(stdout);

	static const struct {
		const char *name;
		const char *args[4];
		double target_speedup;
	} cases[] = {
		{ "nochildren", { "--no-children", "-g", "none", NULL }, 3 },
		{ "callchains", { NULL }, 5 },
		{ "srcline", { "--sort", "srcline", NULL }, 50 },
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct run best[2] = { { 1e30, 0, 0, 0, false }, { 1e30, 0, 0, 0, false } };
		char out[2][1200];
		bool failed = false;
		for (int t = 0; t < 2; t++)
			snprintf(out[t], sizeof(out[t]), "%s/report-%s.%s.out", dir, cases[c].name,
				 t ? "pmukit" : "perf");
		/* alternate the tools, so that both see the same machine */
		int nruns = runs;
		for (int i = 0; i < nruns; i++) {
			for (int t = 0; t < 2; t++) {
				char *av[16];
				int n = 0;
				av[n++] = t ? pmukit : "perf";
				av[n++] = "report";
				av[n++] = "--stdio";
				av[n++] = "-i";
				av[n++] = data;
				for (int k = 0; cases[c].args[k]; k++)
					av[n++] = (char *)cases[c].args[k];
				av[n] = NULL;
				struct run r;
				if (spawn(av, out[t], &r) || (r.status && !r.timed_out)) {
					failed = true;
					continue;
				}
				if (r.wall < best[t].wall)
					best[t] = r;
				if (r.timed_out && !t)
					nruns = i + 1;	/* a lower bound is all perf will give */
			}
			/* perf on the larger cases takes minutes: one run of each then */
			if (best[0].wall > 20)
				nruns = i + 1;
		}
		const char *nm = cases[c].name;
		if (failed || best[0].wall > 1e29 || best[1].wall > 1e29) {
			printf("report_%s_failed 1\n", nm);
			continue;
		}
		if (best[0].timed_out)
			printf("report_%s_perf_timeout 1\n", nm);
		printf("report_%s_perf_wall_s %.3f\n", nm, best[0].wall);
		printf("report_%s_pmukit_wall_s %.3f\n", nm, best[1].wall);
		printf("report_%s_speedup %.2f\n", nm, best[0].wall / best[1].wall);
		printf("report_%s_target_speedup %.0f\n", nm, cases[c].target_speedup);
		printf("report_%s_perf_cpu_s %.3f\n", nm, best[0].cpu);
		printf("report_%s_pmukit_cpu_s %.3f\n", nm, best[1].cpu);
		printf("report_%s_cpu_speedup %.2f\n", nm, best[0].cpu / best[1].cpu);
		printf("report_%s_perf_rss_kb %ld\n", nm, best[0].rss_kb);
		printf("report_%s_pmukit_rss_kb %ld\n", nm, best[1].rss_kb);
		printf("report_%s_rss_ratio %.3f\n", nm, (double)best[1].rss_kb / (double)best[0].rss_kb);
		if (best[0].timed_out || best[1].timed_out)
			printf("report_%s_same_output unknown_timeout\n", nm);
		else
			printf("report_%s_same_output %d\n", nm, same_output(out[0], out[1]));
		fflush(stdout);
	}
	return 0;
}
