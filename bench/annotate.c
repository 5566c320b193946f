/* SPDX-License-Identifier: MIT */
/*
 * bench/annotate.c — `pmukit annotate --stdio` against perf 6.1's `perf
 * annotate --stdio` (which runs objdump once per symbol) on a cpu-clock
 * recording of tests/workloads/report_many made by perf (cached as
 * BUILD/bench/annotate.data): the hottest symbol alone (-s, found through
 * pmukit/annotate.h), and every symbol of the workload (-d), with --stdio
 * and with --stdio2. For each: the best wall time of a few runs, the ratio
 * pmukit/perf (< 1: faster), and whether the outputs are the same. Then a
 * large program with full debug info (annotate_big_*: bench/gen-bigbin.sh)
 * and its hottest symbol: the speed-up perf/pmukit (wall, and CPU with
 * objdump's), the peak RSS of each and their ratio pmukit/perf. Prints `name value` lines; nothing
 * when perf or the workload is missing.
 *
 *   annotate BUILD [ARCH]
 *   PMUKIT_ANNOTATE_BENCH_RUNS   runs of each command (default 5)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/annotate.h>

#include "support/profile.h"

/* run argv, stdout into out (NULL: /dev/null), stderr discarded; the wall time, < 0 on failure */
static double spawn(char *const argv[], const char *out)
{
	struct bench_run r;
	if (bench_spawn(argv, out, 0, &r) || r.status)
		return -1;
	return r.wall;
}

static double best_ms(char *const argv[], int runs)
{
	double best = -1;
	for (int i = 0; i < runs; i++) {
		double t = spawn(argv, NULL);
		if (t < 0)
			return -1;
		if (best < 0 || t < best)
			best = t;
	}
	return best * 1000.0;
}

static int same_files(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	int same = fa && fb;
	while (same) {
		int ca = fgetc(fa), cb = fgetc(fb);
		same = ca == cb;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* the hottest symbol of the first event, through the library */
static char *hottest(const char *path)
{
	struct pk_session *s;
	struct pk_annotate *a = NULL;
	struct pk_error err = { 0 };
	struct pk_session_opts so = { .sz = sizeof(so) };
	char *name = NULL;
	if (pk_session__open(&s, path, &so, &err))
		return NULL;
	struct pk_annotate_entry e = { .sz = sizeof(e) };
	if (!pk_annotate__new(&a, s, NULL, &err) && !pk_annotate__process(a, &err) &&
	    !pk_annotate__entry(a, 0, 0, &e))
		name = strdup(e.sym->name);
	pk_annotate__free(a);
	pk_session__free(s);
	return name;
}

static void compare(const char *tag, char **perf, char **pmukit, const char *dir, int runs)
{
	char po[4200], ko[4200];
	snprintf(po, sizeof(po), "%s/annotate-perf.out", dir);
	snprintf(ko, sizeof(ko), "%s/annotate-pmukit.out", dir);
	if (spawn(perf, po) < 0 || spawn(pmukit, ko) < 0) {
		printf("%s_failed 1\n", tag);
		return;
	}
	double p = best_ms(perf, runs), k = best_ms(pmukit, runs);
	printf("%s_ms %.3f\n", tag, k);
	printf("perf_%s_ms %.3f\n", tag, p);
	printf("%s_ratio %.4f\n", tag, p > 0 ? k / p : 0.0);
	printf("%s_same_output %d\n", tag, same_files(po, ko));
}

/* the best wall and CPU times (ms) and the largest peak RSS (KiB) of runs (the command and its children) */
static int measure(char *const argv[], int runs, double *ms, double *cpu_ms, long *rss_kb)
{
	*ms = -1, *cpu_ms = -1, *rss_kb = 0;
	for (int i = 0; i < runs; i++) {
		struct bench_run r;
		if (bench_spawn(argv, NULL, 0, &r) || r.status)
			return -1;
		if (*ms < 0 || r.wall * 1000.0 < *ms)
			*ms = r.wall * 1000.0;
		if (*cpu_ms < 0 || r.cpu * 1000.0 < *cpu_ms)
			*cpu_ms = r.cpu * 1000.0;
		if (r.rss_kb > *rss_kb)
			*rss_kb = r.rss_kb;
	}
	return 0;
}

/*
 * A large program with full debug info (bench/gen-bigbin.sh: 4000 functions, -O2
 * -g, generated and compiled into DIR/bigbin once), recorded by perf (user samples:
 * the comparison is about the binary, not the kernel's symbols): its hottest
 * symbol annotated by both, the time and the peak memory of each, as ratios.
 */
static void annotate_big(const char *dir, const char *pmukit, int runs)
{
	const char *src = getenv("PMUKIT_SRC") ? getenv("PMUKIT_SRC") : ".";
	char gen[4096], big[2100], bin[2200], data[2200];
	snprintf(gen, sizeof(gen), "%s/bench/gen-bigbin.sh", src);
	snprintf(big, sizeof(big), "%s/bigbin", dir);
	snprintf(bin, sizeof(bin), "%s/bigbin", big);
	snprintf(data, sizeof(data), "%s/big.data", big);
	char *g[] = { "sh", gen, big, NULL };
	struct stat st;
	if (spawn(g, NULL) < 0 || stat(bin, &st)) {
		printf("annotate_big_failed 1\n");
		return;
	}
	printf("annotate_big_binary_mb %.1f\n", (double)st.st_size / 1048576.0);
	if (stat(data, &st)) {
		char *rec[] = { "perf", "record", "-q", "-e", "cpu-clock:u", "-c", "100000", "-o", data,
				bin, "0.5", NULL };
		if (spawn(rec, NULL) < 0) {
			printf("annotate_big_failed 1\n");
			return;
		}
	}
	char *sym = hottest(data);
	if (!sym) {
		printf("annotate_big_failed 1\n");
		return;
	}
	char po[2200], ko[2200];
	snprintf(po, sizeof(po), "%s/annotate-big-perf.out", dir);
	snprintf(ko, sizeof(ko), "%s/annotate-big-pmukit.out", dir);
	char *p[] = { "perf", "annotate", "--stdio", "-i", data, "-s", sym, NULL };
	char *k[] = { (char *)pmukit, "annotate", "--stdio", "-i", data, "-s", sym, NULL };
	double pms, kms, pcpu, kcpu;
	long prss, krss;
	if (spawn(p, po) < 0 || spawn(k, ko) < 0 || measure(p, runs, &pms, &pcpu, &prss) ||
	    measure(k, runs, &kms, &kcpu, &krss)) {
		printf("annotate_big_failed 1\n");
		free(sym);
		return;
	}
	printf("annotate_big_ms %.3f\n", kms);
	printf("perf_annotate_big_ms %.3f\n", pms);
	printf("annotate_big_speedup %.2f\n", kms > 0 ? pms / kms : 0.0);
	printf("annotate_big_cpu_ms %.3f\n", kcpu);
	printf("perf_annotate_big_cpu_ms %.3f\n", pcpu);
	printf("annotate_big_cpu_speedup %.2f\n", kcpu > 0 ? pcpu / kcpu : 0.0);
	printf("annotate_big_rss_kb %ld\n", krss);
	printf("perf_annotate_big_rss_kb %ld\n", prss);
	printf("annotate_big_rss_ratio %.4f\n", prss > 0 ? (double)krss / (double)prss : 0.0);
	printf("annotate_big_same_output %d\n", same_files(po, ko));
	free(sym);
}

/*
 * Issue 20's own case: every symbol with samples of bench/report's shared
 * profile (bench/support/profile.h), the tools alternating, the medians of
 * their wall and CPU times and peak RSS; killed runs (PMUKIT_BENCH_TIMEOUT)
 * give lower bounds. Goal: at least 10 times faster, same output.
 */
static void annotate_profile(const char *build, const char *dir, const char *pmukit)
{
	char data[1200], po[2200], ko[2200];
	long long bytes;
	if (bench_profile(build, data, sizeof(data), &bytes)) {
		printf("annotate_profile_failed 1\n");
		return;
	}
	snprintf(po, sizeof(po), "%s/annotate-profile-perf.out", dir);
	snprintf(ko, sizeof(ko), "%s/annotate-profile-pmukit.out", dir);
	char *p[] = { "perf", "annotate", "--stdio", "-i", data, NULL };
	char *k[] = { (char *)pmukit, "annotate", "--stdio", "-i", data, NULL };
	double limit = (double)bench_env("PMUKIT_BENCH_TIMEOUT", 600);
	struct bench_runs rs[2] = { 0 };
	int runs = bench_nr_runs();
	for (int i = 0; i < runs; i++) {
		if (!bench_measure(&rs[0], p, i ? NULL : po, limit) ||
		    !bench_measure(&rs[1], k, i ? NULL : ko, limit)) {
			printf("annotate_profile_failed 1\n");
			return;
		}
		if (rs[0].timed_out)
			break;	/* once is enough for a lower bound */
	}
	double pw = bench_median(&rs[0], 0), kw = bench_median(&rs[1], 0);
	double pc = bench_median(&rs[0], 1), kc = bench_median(&rs[1], 1);
	printf("annotate_profile_mb %.1f\n", (double)bytes / 1048576.0);
	printf("annotate_profile_samples %llu\n", (unsigned long long)bench_count_samples(data));
	printf("annotate_profile_ms %.1f\n", kw * 1000.0);
	printf("perf_annotate_profile_ms %.1f\n", pw * 1000.0);
	printf("annotate_profile_perf_timeout %d\n", rs[0].timed_out ? 1 : 0);
	printf("annotate_profile_speedup %.2f\n", kw > 0 ? pw / kw : 0.0);
	printf("annotate_profile_cpu_speedup %.2f\n", kc > 0 ? pc / kc : 0.0);
	printf("annotate_profile_rss_ratio %.4f\n",
	       bench_median(&rs[0], 2) > 0 ? bench_median(&rs[1], 2) / bench_median(&rs[0], 2) : 0.0);
	printf("annotate_profile_goal_speedup 10\n");
	printf("annotate_profile_same_output %d\n", rs[0].timed_out ? 0 : bench_same_output(po, ko));
}

int main(int argc, char **argv)
{
	const char *build = argc > 1 ? argv[1] : "build";
	const char *env = getenv("PMUKIT_ANNOTATE_BENCH_RUNS");
	int runs = env ? atoi(env) : 5;
	char dir[2048], data[4096], wl[4096], pmukit[4096];
	snprintf(dir, sizeof(dir), "%s/bench", build);
	snprintf(data, sizeof(data), "%s/annotate.data", dir);
	snprintf(wl, sizeof(wl), "%s/tests/workloads/report_many", build);
	snprintf(pmukit, sizeof(pmukit), "%s/pmukit", build);
	if (system("perf --version >/dev/null 2>&1") || access(wl, X_OK) || access(pmukit, X_OK))
		return 0;	/* nothing to compare with */
	mkdir(dir, 0755);
	struct stat st;
	if (stat(data, &st)) {
		char *rec[] = { "perf", "record", "-q", "-e", "cpu-clock", "-c", "100000", "-o", data,
				wl, "3000", NULL };
		if (spawn(rec, NULL) < 0)
			return 0;
	}
	char *sym = hottest(data);
	if (!sym)
		return 1;
	char *p1[] = { "perf", "annotate", "--stdio", "-i", data, "-s", sym, NULL };
	char *k1[] = { pmukit, "annotate", "--stdio", "-i", data, "-s", sym, NULL };
	compare("annotate", p1, k1, dir, runs);
	char *p2[] = { "perf", "annotate", "--stdio", "-i", data, "-d", "report_many", NULL };
	char *k2[] = { pmukit, "annotate", "--stdio", "-i", data, "-d", "report_many", NULL };
	compare("annotate_all", p2, k2, dir, runs);
	char *p3[] = { "perf", "annotate", "--stdio2", "-i", data, "-d", "report_many", NULL };
	char *k3[] = { pmukit, "annotate", "--stdio2", "-i", data, "-d", "report_many", NULL };
	compare("annotate_stdio2_all", p3, k3, dir, runs);
	free(sym);
	annotate_big(dir, pmukit, runs);
	annotate_profile(build, dir, pmukit);
	return 0;
}
