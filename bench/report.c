/* SPDX-License-Identifier: MIT */
/*
 * bench/report.c — pmukit report against perf 6.1's report in one run, on
 * the shared recording (bench/support/profile.h: a cpu-clock profile with
 * frame-pointer callchains, about 2.4 M samples by default):
 *
 *   flat      report --stdio --no-children -g none
 *   default   report --stdio               (children, caller graph)
 *   srcline   report --stdio --sort srcline
 *
 * For each, the tools alternate for a few runs; the medians of the wall
 * time, the CPU time (user + sys) and the peak RSS of each, their ratios
 * (speedup: perf's time over pmukit's; rss_ratio: pmukit's peak over
 * perf's), issue 19's goals, and whether the outputs are the same (perf's
 * random closing tip left out). Prints `name value` lines.
 *
 *   report BUILD [ARCH]
 *   PMUKIT_BENCH_SAMPLES  the recording's size (default 2400000)
 *   PMUKIT_BENCH_RUNS     runs of each tool and case (default 3)
 *   PMUKIT_BENCH_TIMEOUT  seconds a run may take (default 60): perf's srcline
 *                         sort runs addr2line per address and takes more than
 *                         ten minutes on the full recording; a run killed at the
 *                         limit gives lower bounds (report_*_perf_timeout 1, the
 *                         speedup a lower bound) and is run once
 */
#include "support/profile.h"

static const struct {
	const char *name;
	const char *args[4];
	double goal_speedup, goal_rss_ratio;	/* issue 19's (0: none) */
} cases[] = {
	{ "flat", { "--no-children", "-g", "none", NULL }, 5, 0.125 },
	{ "default", { NULL }, 12, 0.125 },
	{ "srcline", { "--sort", "srcline", NULL }, 0, 0 },
};

static void print_case(const char *nm, struct bench_runs rs[2], double goal_speedup,
		       double goal_rss_ratio, char out[2][1200])
{
	double pw = bench_wall_ms(&rs[0]), kw = bench_wall_ms(&rs[1]);
	double pc = bench_cpu_ms(&rs[0]), kc = bench_cpu_ms(&rs[1]);
	long pr = bench_rss_kb(&rs[0]), kr = bench_rss_kb(&rs[1]);
	if (rs[0].timed_out || rs[1].timed_out) {
		/* killed at the limit: its time a lower bound, its CPU time and peak meaningless */
		printf("report_%s_%s_timeout 1\n", nm, rs[0].timed_out ? "perf" : "pmukit");
		printf("report_%s_perf_ms%s %.0f\n", nm, rs[0].timed_out ? "_min" : "", pw);
		printf("report_%s_pmukit_ms%s %.0f\n", nm, rs[1].timed_out ? "_min" : "", kw);
		printf("report_%s_speedup%s %.2f\n", nm, rs[0].timed_out ? "_min" : "_max", pw / kw);
		return;
	}
	printf("report_%s_perf_ms %.0f\n", nm, pw);
	printf("report_%s_pmukit_ms %.0f\n", nm, kw);
	printf("report_%s_speedup %.2f\n", nm, pw / kw);
	if (goal_speedup)
		printf("report_%s_goal_speedup %.0f\n", nm, goal_speedup);
	printf("report_%s_perf_cpu_ms %.0f\n", nm, pc);
	printf("report_%s_pmukit_cpu_ms %.0f\n", nm, kc);
	printf("report_%s_cpu_speedup %.2f\n", nm, pc / kc);
	printf("report_%s_perf_rss_kb %ld\n", nm, pr);
	printf("report_%s_pmukit_rss_kb %ld\n", nm, kr);
	printf("report_%s_rss_ratio %.3f\n", nm, (double)kr / (double)pr);
	if (goal_rss_ratio)
		printf("report_%s_goal_rss_ratio %.3f\n", nm, goal_rss_ratio);
	printf("report_%s_same_output %d\n", nm, bench_same_output(out[0], out[1]));
}

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "build";
	double limit = (double)bench_env("PMUKIT_BENCH_TIMEOUT", 60);
	int runs = bench_nr_runs();
	if (system("perf --version >/dev/null 2>&1")) {
		printf("report_bench_skipped no_perf\n");
		return 0;
	}
	char data[1200], dir[1100], pmukit[1100];
	long long bytes;
	if (bench_profile(b, data, sizeof(data), &bytes)) {
		printf("report_bench_skipped record_failed\n");
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/bench", b);
	snprintf(pmukit, sizeof(pmukit), "%s/pmukit", b);
	printf("report_bench_samples %llu\n", (unsigned long long)bench_count_samples(data));
	printf("report_bench_file_bytes %lld\n", bytes);
	fflush(stdout);

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct bench_runs rs[2] = { { .n = 0 }, { .n = 0 } };
		char out[2][1200];
		for (int t = 0; t < 2; t++)
			snprintf(out[t], sizeof(out[t]), "%s/report-%s.%s.out", dir, cases[c].name,
				 t ? "pmukit" : "perf");
		/* alternate the tools, so that both see the same machine */
		for (int i = 0; i < runs; i++) {
			for (int t = 0; t < 2; t++) {
				if (t == 0 && i > 0 && rs[0].timed_out)
					continue;	/* a lower bound is all perf will give */
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
				bench_measure(&rs[t], av, out[t], limit);
			}
		}
		const char *nm = cases[c].name;
		if (rs[0].failed || rs[1].failed || !rs[0].n || !rs[1].n) {
			printf("report_%s_failed 1\n", nm);
			continue;
		}
		print_case(nm, rs, cases[c].goal_speedup, cases[c].goal_rss_ratio, out);
		unlink(out[0]);
		unlink(out[1]);
		fflush(stdout);
	}
	return 0;
}
