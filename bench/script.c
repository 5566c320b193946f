/* SPDX-License-Identifier: MIT */
/*
 * bench/script.c — `pmukit script` against perf 6.1's `perf script` in one run:
 * perf records (cpu-clock -c 10000 -g) a generated workload with many
 * functions calling each other, a few hundred thousand samples; both
 * commands print the file to disk; their wall times, peak memory and
 * whether the outputs are byte for byte equal are printed as `name value`
 * lines. Usage: script BUILD_DIR [ARCH_DIR] (run by bench/run.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define NFUNC 96

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Run argv with stdout to out (NULL: /dev/null); wall ms and peak RSS (KiB); -1 on failure. */
static double run(char *const argv[], const char *out, long *maxrss)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	double t0 = now_ms();
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	double t = now_ms() - t0;
	if (maxrss)
		*maxrss = ru.ru_maxrss;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

/* A workload of NFUNC functions: f_i calls two others by the bits of a counter. */
static int write_workload(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "#include <stdlib.h>\nstatic volatile unsigned long sink;\n");
	for (int i = 0; i < NFUNC; i++)
		fprintf(f, "void f%d(unsigned long k, int d);\n", i);
	for (int i = 0; i < NFUNC; i++) {
		fprintf(f, "__attribute__((noinline)) void f%d(unsigned long k, int d)\n{\n"
			   "\tfor (unsigned long i = 0; i < k; i++) sink += i * %d;\n"
			   "\tif (d > 0) { f%d(k, d - 1); if (k & 1) f%d(k + 1, d - 1); }\n}\n",
			i, i + 1, (i * 7 + 3) % NFUNC, (i * 13 + 5) % NFUNC);
	}
	fprintf(f, "int main(int argc, char **argv)\n{\n"
		   "\tunsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 10;\n"
		   "\tfor (unsigned long j = 0; j < n; j++)\n"
		   "\t\tfor (int i = 0; i < %d; i++)\n\t\t\tf%d(200 + i, 6);\n"
		   "\treturn (int)(sink & 1);\n}\n", NFUNC, 0);
	return fclose(f);
}

/* Compare two files; 1 when equal. */
static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb;
	static char ba[1 << 16], bb[1 << 16];
	while (same) {
		size_t na = fread(ba, 1, sizeof(ba), fa), nb = fread(bb, 1, sizeof(bb), fb);
		if (na != nb || memcmp(ba, bb, na))
			same = 0;
		if (!na)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static long count_lines_with(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[4096];
	long n = 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	const char *build = argc > 1 ? argv[1] : "build";
	char dir[] = "/tmp/pmukit-bench-script-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char src[512], exe[512], data[512], pout[512], kout[512], k1out[512], pk[512];
	snprintf(src, sizeof(src), "%s/wl.c", dir);
	snprintf(exe, sizeof(exe), "%s/wl", dir);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(pout, sizeof(pout), "%s/perf.txt", dir);
	snprintf(kout, sizeof(kout), "%s/pmukit.txt", dir);
	snprintf(k1out, sizeof(k1out), "%s/pmukit1.txt", dir);
	snprintf(pk, sizeof(pk), "%s/pmukit", build);
	int rc = 0;
	char *cc[] = { "cc", "-O1", "-fno-omit-frame-pointer", "-fno-inline", "-o", exe, src, NULL };
	if (write_workload(src)) {
		printf("script_skipped cannot_write_workload\n");
		goto out;
	}
	if (run(cc, NULL, NULL) < 0) {
		printf("script_skipped no_compiler\n");
		goto out;
	}
	const char *iters = getenv("PMUKIT_BENCH_SCRIPT_ITERS");
	char *rec[] = { "perf", "record", "-q", "-e", "cpu-clock", "-c", "10000", "-g", "-o", data,
			exe, (char *)(iters ? iters : "400"), NULL };
	double rec_ms = run(rec, NULL, NULL);
	if (rec_ms < 0) {
		printf("script_skipped perf_record_failed\n");
		goto out;
	}
	struct stat st;
	stat(data, &st);
	char *perf_script[] = { "perf", "script", "-i", data, NULL };
	char *pk_script[] = { pk, "script", "-i", data, NULL };
	char *pk_script1[] = { pk, "script", "-j", "1", "-i", data, NULL };
	long prss = 0, krss = 0, k1rss = 0;
	/* a first pass of each warms the page cache for both */
	run(pk_script, NULL, NULL);
	double p_ms = run(perf_script, pout, &prss);
	double k_ms = run(pk_script, kout, &krss);
	double k1_ms = run(pk_script1, k1out, &k1rss);
	long samples = count_lines_with(pout, "cpu-clock:");
	printf("script_record_ms %.0f\n", rec_ms);
	printf("script_data_bytes %lld\n", (long long)st.st_size);
	printf("script_samples %ld\n", samples);
	printf("perf_script_ms %.1f\n", p_ms);
	printf("pmukit_script_ms %.1f\n", k_ms);
	printf("pmukit_script_1thread_ms %.1f\n", k1_ms);
	if (p_ms > 0 && k_ms > 0)
		printf("script_speedup %.2f\n", p_ms / k_ms);
	printf("perf_script_maxrss_kb %ld\n", prss);
	printf("pmukit_script_maxrss_kb %ld\n", krss);
	printf("script_same_output %d\n", same_file(pout, kout) && same_file(pout, k1out));
out:
	unlink(src);
	unlink(exe);
	unlink(data);
	unlink(pout);
	unlink(kout);
	unlink(k1out);
	rmdir(dir);
	return rc;
}
