/* SPDX-License-Identifier: MIT */
/*
 * bench/export_cli.c — the reading commands that build a profile (`pmukit
 * export --format folded|pprof`, `pmukit flamegraph`) against `pmukit script`
 * (time) and `pmukit report --stdio` (peak memory) in one run, on the cpu-clock
 * frame-pointer profile bench/report.c records of tests/workloads/report_many
 * (the same cached BUILD/bench/report-N.data). For each command: the best wall
 * time and CPU time of a few runs and the peak RSS (wait4's rusage); for each
 * exporter its ratios to script's time (<= 1 wanted) and to report's RSS
 * (<= 1 wanted). Prints `name value` lines.
 *
 *   export_cli BUILD [ARCH]
 *   PMUKIT_EXPORT_BENCH_SAMPLES  profile size (default 300000)
 *   PMUKIT_EXPORT_BENCH_RUNS     runs of each command (default 3)
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <pmukit/data_read.h>

struct run {
	double wall, cpu;
	long rss_kb;
	int status;
};

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
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	r->wall = now() - t0;
	r->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->rss_kb = ru.ru_maxrss;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

static uint64_t count_samples(const char *path)
{
	struct pk_data_reader *r;
	struct pk_error err = { 0 };
	struct pk_data_reader_opts o = { .sz = sizeof(o), .order = PK_DATA_ORDER_FILE };
	if (pk_data_reader__open(&r, path, &o, &err))
		return 0;
	const struct pk_data_event *ev;
	uint64_t n = 0;
	while (pk_data_reader__next(r, &ev, &err) > 0)
		n += ev->type == PERF_RECORD_SAMPLE;
	pk_data_reader__free(r);
	return n;
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

/* about `samples` samples, calibrated as bench/report.c does (same file name, shared cache) */
static int record(const char *b, const char *path, unsigned long samples)
{
	char tmp[2200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unsigned long cal = 2000;
	if (record_once(b, tmp, cal))
		return -1;
	uint64_t got = count_samples(tmp);
	unlink(tmp);
	if (!got)
		return -1;
	unsigned long iters = (unsigned long)((double)samples * cal / (double)got) + 1;
	fprintf(stderr, "bench/export_cli: recording %s (%lu samples: %lu rounds)\n", path, samples, iters);
	if (record_once(b, tmp, iters) || rename(tmp, path))
		return -1;
	return 0;
}

enum { C_SCRIPT, C_REPORT, C_FOLDED, C_PPROF, C_FLAMEGRAPH, NCASES };

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "build";
	const char *e = getenv("PMUKIT_EXPORT_BENCH_SAMPLES");
	unsigned long samples = e ? strtoul(e, NULL, 0) : 300000;
	e = getenv("PMUKIT_EXPORT_BENCH_RUNS");
	int runs = e ? atoi(e) : 3;
	if (runs < 1)
		runs = 1;
	if (system("perf --version >/dev/null 2>&1")) {
		printf("export_cli_skipped no_perf\n");
		return 0;
	}
	char dir[1024], data[1200], pmukit[1100], svg[1200];
	snprintf(dir, sizeof(dir), "%s/bench", b);
	mkdir(dir, 0755);
	snprintf(data, sizeof(data), "%s/report-%lu.data", dir, samples);
	snprintf(pmukit, sizeof(pmukit), "%s/pmukit", b);
	snprintf(svg, sizeof(svg), "%s/export-cli.svg", dir);
	struct stat st;
	if (stat(data, &st) && (record(b, data, samples) || stat(data, &st))) {
		printf("export_cli_skipped record_failed\n");
		return 0;
	}
	printf("export_cli_samples %llu\n", (unsigned long long)count_samples(data));
	printf("export_cli_file_bytes %lld\n", (long long)st.st_size);
	fflush(stdout);

	static const struct {
		const char *name;
		const char *args[5];
	} cases[NCASES] = {
		[C_SCRIPT] = { "script", { "script", NULL } },
		[C_REPORT] = { "report", { "report", "--stdio", NULL } },
		[C_FOLDED] = { "folded", { "export", "--format", "folded", NULL } },
		[C_PPROF] = { "pprof", { "export", "--format", "pprof", NULL } },
		[C_FLAMEGRAPH] = { "flamegraph", { "flamegraph", "-o", NULL } },
	};
	struct run best[NCASES];
	for (int c = 0; c < NCASES; c++)
		best[c] = (struct run){ 1e30, 0, 0, -1 };
	/* a first pass warms the page cache; then the commands alternate, run after run */
	for (int i = -1; i < runs; i++) {
		for (int c = 0; c < NCASES; c++) {
			char *av[16];
			int n = 0;
			av[n++] = pmukit;
			for (int k = 0; cases[c].args[k]; k++)
				av[n++] = (char *)cases[c].args[k];
			if (c == C_FLAMEGRAPH)
				av[n++] = svg;
			av[n++] = "-i";
			av[n++] = data;
			av[n] = NULL;
			struct run r;
			if (spawn(av, NULL, &r) || r.status) {
				best[c].status = 1;
				continue;
			}
			if (i >= 0 && r.wall < best[c].wall) {
				int failed = best[c].status > 0;
				best[c] = r;
				best[c].status = failed;
			}
			if (i >= 0 && best[c].rss_kb < r.rss_kb)
				best[c].rss_kb = r.rss_kb;	/* the largest peak of the runs */
		}
	}
	unlink(svg);
	for (int c = 0; c < NCASES; c++) {
		const char *nm = cases[c].name;
		if (best[c].status) {
			printf("export_cli_%s_failed 1\n", nm);
			continue;
		}
		printf("export_cli_%s_wall_s %.3f\n", nm, best[c].wall);
		printf("export_cli_%s_cpu_s %.3f\n", nm, best[c].cpu);
		printf("export_cli_%s_rss_kb %ld\n", nm, best[c].rss_kb);
		if (c < C_FOLDED || best[C_SCRIPT].status || best[C_REPORT].status)
			continue;
		printf("export_cli_%s_over_script_wall %.3f\n", nm, best[c].wall / best[C_SCRIPT].wall);
		printf("export_cli_%s_over_script_cpu %.3f\n", nm, best[c].cpu / best[C_SCRIPT].cpu);
		printf("export_cli_%s_over_report_rss %.3f\n", nm,
		       (double)best[c].rss_kb / (double)best[C_REPORT].rss_kb);
	}
	return 0;
}
