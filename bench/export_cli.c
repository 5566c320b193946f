/* SPDX-License-Identifier: MIT */
/*
 * bench/export_cli.c — the reading commands that build a profile (`pmukit
 * export --format folded|pprof`, `pmukit flamegraph`) against `pmukit script`
 * (time) and `pmukit report --stdio` (peak memory) in one run, on the shared
 * recording (bench/support/profile.h). The commands alternate for a few runs
 * after one pass that warms the page cache; for each, the medians of the wall
 * time, CPU time and peak RSS, and for each exporter its ratios to script's
 * time and to report's peak RSS (issue 19's goal: <= 1 both). Prints
 * `name value` lines (export_cli_*: bench/export.c's export_* are the
 * library's writers alone).
 *
 *   export_cli BUILD [ARCH]
 *   PMUKIT_BENCH_SAMPLES, PMUKIT_BENCH_RUNS  as bench/report.c
 */
#include "support/profile.h"

enum { C_SCRIPT, C_REPORT, C_FOLDED, C_PPROF, C_FLAMEGRAPH, NCASES };

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

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "build";
	int runs = bench_nr_runs();
	char data[1200], pmukit[1100], svg[1200];
	long long bytes;
	if (bench_profile(b, data, sizeof(data), &bytes)) {
		printf("export_cli_skipped record_failed\n");
		return 0;
	}
	snprintf(pmukit, sizeof(pmukit), "%s/pmukit", b);
	snprintf(svg, sizeof(svg), "%s/bench/export-cli.svg", b);
	printf("export_cli_file_bytes %lld\n", bytes);
	fflush(stdout);

	struct bench_runs rs[NCASES];
	memset(rs, 0, sizeof(rs));
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
			if (i >= 0) {
				bench_measure(&rs[c], av, NULL, 0);
			} else {
				struct bench_run warm;
				bench_spawn(av, NULL, 0, &warm);
			}
		}
	}
	unlink(svg);
	for (int c = 0; c < NCASES; c++) {
		const char *nm = cases[c].name;
		if (rs[c].failed || !rs[c].n) {
			printf("export_cli_%s_failed 1\n", nm);
			continue;
		}
		printf("export_cli_%s_ms %.0f\n", nm, bench_wall_ms(&rs[c]));
		printf("export_cli_%s_cpu_ms %.0f\n", nm, bench_cpu_ms(&rs[c]));
		printf("export_cli_%s_rss_kb %ld\n", nm, bench_rss_kb(&rs[c]));
		if (c < C_FOLDED || rs[C_SCRIPT].failed || rs[C_REPORT].failed)
			continue;
		printf("export_cli_%s_over_script %.3f\n", nm,
		       bench_wall_ms(&rs[c]) / bench_wall_ms(&rs[C_SCRIPT]));
		printf("export_cli_%s_over_script_cpu %.3f\n", nm,
		       bench_cpu_ms(&rs[c]) / bench_cpu_ms(&rs[C_SCRIPT]));
		printf("export_cli_%s_over_report_rss %.3f\n", nm,
		       (double)bench_rss_kb(&rs[c]) / (double)bench_rss_kb(&rs[C_REPORT]));
	}
	return 0;
}
