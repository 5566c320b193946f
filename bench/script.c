/* SPDX-License-Identifier: MIT */
/*
 * bench/script.c — `pmukit script` against perf 6.1's `perf script` in one
 * run, on the shared recording (bench/support/profile.h: a cpu-clock
 * profile with frame-pointer callchains, about 2.4 M samples and 1.3 GB of
 * script text by default). The tools alternate for a few runs, stdout into
 * /dev/null (into a file, the disk's writeback would be measured); the
 * medians of the wall time, CPU time and peak RSS, their ratios, pmukit's
 * time with one thread (-j 1), and whether the outputs are byte for byte
 * the same (one more run of each, compared through pipes). Prints
 * `name value` lines.
 *
 *   script BUILD [ARCH]
 *   PMUKIT_BENCH_SAMPLES, PMUKIT_BENCH_RUNS  as bench/report.c
 */
#include "support/profile.h"

/* perf script and pmukit script of data: the same bytes? */
static int same_script(const char *pmukit, const char *data)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "cmp -s <(perf script -i '%s' 2>/dev/null) <('%s' script -i '%s' 2>/dev/null)",
		 data, pmukit, data);
	char *argv[] = { "bash", "-c", cmd, NULL };
	struct bench_run r;
	return !bench_spawn(argv, NULL, 0, &r) && r.status == 0;
}

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "build";
	int runs = bench_nr_runs();
	if (system("perf --version >/dev/null 2>&1")) {
		printf("script_skipped no_perf\n");
		return 0;
	}
	char data[1200], pmukit[1100];
	long long bytes;
	if (bench_profile(b, data, sizeof(data), &bytes)) {
		printf("script_skipped record_failed\n");
		return 0;
	}
	snprintf(pmukit, sizeof(pmukit), "%s/pmukit", b);
	char *av[3][8] = {
		{ "perf", "script", "-i", data, NULL },
		{ pmukit, "script", "-i", data, NULL },
		{ pmukit, "script", "-j", "1", "-i", data, NULL },
	};
	struct bench_runs rs[3] = { { .n = 0 }, { .n = 0 }, { .n = 0 } };
	for (int i = 0; i < runs; i++)
		for (int t = 0; t < 3; t++)
			bench_measure(&rs[t], av[t], NULL, 0);
	printf("script_data_bytes %lld\n", bytes);
	if (rs[0].failed || rs[1].failed || rs[2].failed) {
		printf("script_failed 1\n");
		return 0;
	}
	double pw = bench_wall_ms(&rs[0]), kw = bench_wall_ms(&rs[1]);
	double pc = bench_cpu_ms(&rs[0]), kc = bench_cpu_ms(&rs[1]);
	long pr = bench_rss_kb(&rs[0]), kr = bench_rss_kb(&rs[1]);
	printf("script_perf_ms %.0f\n", pw);
	printf("script_pmukit_ms %.0f\n", kw);
	printf("script_speedup %.2f\n", pw / kw);
	printf("script_pmukit_1thread_ms %.0f\n", bench_wall_ms(&rs[2]));
	printf("script_perf_cpu_ms %.0f\n", pc);
	printf("script_pmukit_cpu_ms %.0f\n", kc);
	printf("script_cpu_speedup %.2f\n", pc / kc);
	printf("script_perf_rss_kb %ld\n", pr);
	printf("script_pmukit_rss_kb %ld\n", kr);
	printf("script_rss_ratio %.3f\n", (double)kr / (double)pr);
	printf("script_same_output %d\n", same_script(pmukit, data));
	return 0;
}
