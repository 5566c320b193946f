/* SPDX-License-Identifier: MIT */
/*
 * bench/support/profile.h — what the benches of the reading commands share
 * (bench/report.c, bench/script.c, bench/export_cli.c): the one recording
 * they all read, and running a command as those benches measure it.
 *
 * The recording: perf 6.1 records a cpu-clock profile with frame-pointer
 * callchains (`perf record -e cpu-clock -c 10000 -g`) of
 * tests/workloads/report_many (two threads, many functions), of about
 * PMUKIT_BENCH_SAMPLES samples (default 2400000, the size issue 19's goals
 * are stated for: about 240 MB), cached as BUILD/bench/report-N.data so
 * that later runs, and the other benches of the same run, read the same
 * file. A short calibration recording first gives the workload's samples
 * per round on this machine.
 *
 * A measurement: a command's wall time, CPU time (user + sys) and peak RSS
 * (wait4's rusage), stdout into a file or /dev/null, killed at a time limit
 * (then a lower bound). Tools alternate run after run so that each sees the
 * same machine, and the median of the runs is reported: on a shared,
 * noisy machine a median moves less than a best or a mean.
 *
 * Header-only (static functions), so that each bench stays one source file.
 */
#ifndef PMUKIT_BENCH_PROFILE_H
#define PMUKIT_BENCH_PROFILE_H

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
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

#define BENCH_DEFAULT_SAMPLES	2400000ul
#define BENCH_MAX_RUNS		15

/* One run of a command. */
struct bench_run {
	double wall, cpu;	/* seconds */
	long rss_kb;		/* peak resident set */
	int status;		/* exit status, 128 + signal */
	bool timed_out;		/* killed at the limit: wall and cpu are lower bounds */
};

/* The runs of one command, and their medians. */
struct bench_runs {
	struct bench_run v[BENCH_MAX_RUNS];
	int n;
	bool failed, timed_out;
};

static inline double bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* An unsigned number from the environment, or def. */
static inline unsigned long bench_env(const char *name, unsigned long def)
{
	const char *e = getenv(name);
	return e && *e ? strtoul(e, NULL, 0) : def;
}

/* The runs of each command (PMUKIT_BENCH_RUNS, default 3, at most BENCH_MAX_RUNS). */
static inline int bench_nr_runs(void)
{
	unsigned long n = bench_env("PMUKIT_BENCH_RUNS", 3);
	return n < 1 ? 1 : n > BENCH_MAX_RUNS ? BENCH_MAX_RUNS : (int)n;
}

/*
 * Run argv with stdout into out (NULL: /dev/null), stderr discarded, killed
 * after limit seconds (0: none). 0, or -1 when it could not be run.
 */
static inline int bench_spawn(char *const argv[], const char *out, double limit, struct bench_run *r)
{
	double t0 = bench_now();
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
		pid_t w = wait4(pid, &st, limit > 0 ? WNOHANG : 0, &ru);
		if (w < 0)
			return -1;
		if (w == pid)
			break;
		if (bench_now() - t0 > limit && !r->timed_out) {
			kill(pid, SIGKILL);
			r->timed_out = true;
		}
		usleep(5000);
	}
	r->wall = bench_now() - t0;
	r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	r->rss_kb = ru.ru_maxrss;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

/* One more run of argv into rs (a failure marks rs failed); the run, or NULL. */
static inline const struct bench_run *bench_measure(struct bench_runs *rs, char *const argv[],
						    const char *out, double limit)
{
	struct bench_run r;
	if (rs->n >= BENCH_MAX_RUNS || bench_spawn(argv, out, limit, &r) ||
	    (r.status && !r.timed_out)) {
		rs->failed = true;
		return NULL;
	}
	rs->timed_out |= r.timed_out;
	rs->v[rs->n++] = r;
	return &rs->v[rs->n - 1];
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of field (0 wall, 1 cpu, 2 rss_kb) over the runs; the upper one of an even count. */
static inline double bench_median(const struct bench_runs *rs, int field)
{
	double v[BENCH_MAX_RUNS] = { 0 };
	for (int i = 0; i < rs->n; i++)
		v[i] = field == 0 ? rs->v[i].wall : field == 1 ? rs->v[i].cpu : (double)rs->v[i].rss_kb;
	qsort(v, (size_t)rs->n, sizeof(v[0]), bench_cmp_double);
	return rs->n ? v[rs->n / 2] : 0;
}

#define bench_wall_ms(rs)	(bench_median((rs), 0) * 1e3)
#define bench_cpu_ms(rs)	(bench_median((rs), 1) * 1e3)
#define bench_rss_kb(rs)	((long)bench_median((rs), 2))

static inline uint64_t bench_count_samples(const char *path)
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

/* Two outputs equal, perf's random "# (Tip: ...)" lines (and pmukit's in their place) left out. */
static inline bool bench_same_output(const char *a, const char *b)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "cmp -s <(grep -v '^# (Tip:' '%s') <(grep -v '^# (Tip:' '%s')", a, b);
	char *argv[] = { "bash", "-c", cmd, NULL };
	struct bench_run r;
	return !bench_spawn(argv, NULL, 0, &r) && r.status == 0;
}

static inline int bench_record_once(const char *build, const char *path, unsigned long rounds)
{
	char work[2048], n[32];
	snprintf(work, sizeof(work), "%s/tests/workloads/report_many", build);
	snprintf(n, sizeof(n), "%lu", rounds);
	char *argv[] = { "perf", "record", "-q", "-e", "cpu-clock", "-c", "10000", "-g",
			 "-o", (char *)path, work, "-t", "2", n, NULL };
	struct bench_run r;
	return bench_spawn(argv, NULL, 0, &r) || r.status ? -1 : 0;
}

/*
 * The shared recording: its path into path (BUILD/bench/report-N.data),
 * recorded now unless cached; its size into *bytes. 0, or -1 (perf missing
 * or failing: the caller prints its skip line).
 */
static inline int bench_profile(const char *build, char *path, size_t size, long long *bytes)
{
	unsigned long samples = bench_env("PMUKIT_BENCH_SAMPLES", BENCH_DEFAULT_SAMPLES);
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/bench", build);
	mkdir(dir, 0755);
	snprintf(path, size, "%s/report-%lu.data", dir, samples);
	struct stat st;
	if (stat(path, &st)) {
		if (system("perf --version >/dev/null 2>&1"))
			return -1;
		char tmp[1300];
		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		unsigned long cal = 2000;
		if (bench_record_once(build, tmp, cal))
			return -1;
		uint64_t got = bench_count_samples(tmp);
		unlink(tmp);	/* else perf keeps it as .tmp.old */
		if (!got)
			return -1;
		unsigned long rounds = (unsigned long)((double)samples * (double)cal / (double)got) + 1;
		fprintf(stderr, "bench: recording %s (%lu samples: %lu rounds, about a minute at "
			"full size)\n", path, samples, rounds);
		if (bench_record_once(build, tmp, rounds) || rename(tmp, path) || stat(path, &st))
			return -1;
	}
	*bytes = (long long)st.st_size;
	return 0;
}

#endif
