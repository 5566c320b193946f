/* SPDX-License-Identifier: MIT */
/*
 * bench/record.c — `pmukit record` against `perf record` (perf 6.1) and a
 * floor program, measured in one run, runs interleaved so noise hits all
 * alike:
 *
 *   record_startup_pmukit_ms MS      `pmukit record -q -e cpu-clock true` (median)
 *   record_startup_floor_ms MS       BUILD/bench/record_floor FILE true: open per CPU, mmap,
 *                                    clone/exec, drain, write a header (median)
 *   record_startup_floor_ratio R     pmukit / floor (goal <= 1.10)
 *   record_startup_perf_ms MS        `perf record -q -e cpu-clock true` (median of fewer runs)
 *   record_workload_alone_ms MS      tests/workloads/callchain's own wall time, unrecorded
 *   record_workload_pmukit_ms MS     the same under `pmukit record -e cpu-clock -c 10000 -g`
 *   record_workload_perf_ms MS       the same under `perf record` with those options
 *   record_workload_ratio R          pmukit / perf (goal <= 1)
 *   record_overhead_ratio R          (pmukit - alone) / (perf - alone)
 *   record_samples_pmukit N          samples written, summed over the runs
 *   record_samples_perf N
 *   record_lost_pmukit N             samples lost (PERF_RECORD_LOST), summed over the runs
 *   record_lost_perf N
 *   record_lost_ratio R              lost / (written + lost) of pmukit over perf's (goal <= 1)
 *   record_bytes_per_sample_pmukit B file size / samples of `record -e cpu-clock -c 100000`
 *   record_bytes_per_sample_perf B   (no call chains: every sample the same size, so the
 *   record_size_ratio R              difference is the format's; pmukit / perf, goal <= 1)
 *   record_z_bytes_per_sample_pmukit B   the same with -z (zstd level 1), totals of 5 runs of
 *                                    1000 rounds each
 *   record_z_bytes_per_sample_perf B
 *   record_z_size_ratio R
 *
 * Sampling every 10 us of CPU in a VM costs about as much as the hrtimer
 * period itself: the workload crawls and both recorders lose samples (the
 * faster a recorder empties its buffers, the more samples it keeps and the
 * more the workload is interrupted), so the call-graph runs measure time and
 * losses, not file sizes.
 *
 * The workload writes its own wall time (callchain ROUNDS TIMEFILE): a
 * recorder's start-up and wind-down are not the workload's. 40 rounds (about
 * 20 ms alone): sampling every 10 us of CPU slows it many times over in a VM. Without perf
 * the perf lines are left out. Usage: record BUILD_DIR [ARCH_DIR].
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#define RUNS 21
#define PERF_RUNS 5
#define WORK_RUNS 5
#define Z_RUNS 5

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

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n ? v[n / 2] : 0;
}

/* Run argv, output to /dev/null; wall ms. 0 or -1 (a non-zero exit). */
static int run(char *const *argv, double *ms)
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
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	*ms = (now_ns() - t0) / 1e6;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static double read_ms(const char *path)
{
	double v = -1;
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Samples and lost samples of an uncompressed perf.data file (its data section walked). */
static int walk(const char *path, uint64_t *samples, uint64_t *lost)
{
	uint64_t h[13];
	int fd = open(path, O_RDONLY);
	*samples = *lost = 0;
	if (fd < 0 || pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) || h[0] != 0x32454c4946524550ULL) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	uint64_t off = h[5], size = h[6];
	unsigned char *d = malloc(size ? size : 1);
	if (!d || pread(fd, d, size, (off_t)off) != (ssize_t)size) {
		free(d);
		close(fd);
		return -1;
	}
	close(fd);
	for (uint64_t p = 0; p + 8 <= size;) {
		struct perf_event_header eh;
		memcpy(&eh, d + p, 8);
		if (eh.size < 8)
			break;
		if (eh.type == PERF_RECORD_SAMPLE)
			(*samples)++;
		if (eh.type == PERF_RECORD_LOST && eh.size >= 24) {
			uint64_t n;
			memcpy(&n, d + p + 16, 8);
			*lost += n;
		}
		p += eh.size;
	}
	free(d);
	return 0;
}

/* SAMPLE events of any perf.data (compressed too), from perf report --stats. */
static uint64_t perf_samples(const char *path)
{
	char cmd[4200], line[256];
	uint64_t n = 0;
	snprintf(cmd, sizeof(cmd), "perf report --stats -i '%s' 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " SAMPLE events: %" SCNu64, &n) == 1)
			break;
	while (fgets(line, sizeof(line), p))
		;
	pclose(p);
	return n;
}

static double file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : (double)st.st_size;
}

int main(int argc, char **argv)
{
	const char *b = argc > 1 ? argv[1] : "build";
	char pmukit[4096], floor[4096], work[4096], dir[] = "/tmp/pmukit-bench-record-XXXXXX";
	bool perf = !system("perf --version >/dev/null 2>&1");

	if (!mkdtemp(dir))
		return 1;
	snprintf(pmukit, sizeof(pmukit), "%s/pmukit", b);
	snprintf(floor, sizeof(floor), "%s/bench/record_floor", b);
	snprintf(work, sizeof(work), "%s/workloads/callchain", b);
	char f_pk[4200], f_fl[4200], f_pf[4200], t_file[4200];
	snprintf(f_pk, sizeof(f_pk), "%s/pk.data", dir);
	snprintf(f_fl, sizeof(f_fl), "%s/fl.data", dir);
	snprintf(f_pf, sizeof(f_pf), "%s/pf.data", dir);
	snprintf(t_file, sizeof(t_file), "%s/time", dir);

	/* ---- start-up ---- */
	char *p_start[] = { pmukit, "record", "-q", "-o", f_pk, "-e", "cpu-clock", "true", NULL };
	char *l_start[] = { floor, f_fl, "true", NULL };
	char *f_start[] = { "perf", "record", "-q", "-o", f_pf, "-e", "cpu-clock", "true", NULL };
	double sp[RUNS], sl[RUNS], sf[PERF_RUNS];
	bool have_floor = !access(floor, X_OK);
	int n = 0, nf = 0;
	for (int r = 0; r < RUNS; r++) {
		/* every run creates its file: a new inode for each tool, none reused */
		unlink(f_pk);
		unlink(f_fl);
		unlink(f_pf);
		if (run(p_start, &sp[n]) || (have_floor && run(l_start, &sl[n]))) {
			printf("record_startup failed\n");
			return 1;
		}
		n++;
		if (perf && r < PERF_RUNS && !run(f_start, &sf[nf]))
			nf++;
	}
	double pm = median(sp, n);
	printf("record_startup_pmukit_ms %.3f\n", pm);
	if (have_floor) {
		double fl = median(sl, n);
		printf("record_startup_floor_ms %.3f\n", fl);
		printf("record_startup_floor_ratio %.3f\n", pm / fl);
	}
	if (nf)
		printf("record_startup_perf_ms %.3f\n", median(sf, nf));

	/* ---- a workload under record -e cpu-clock -c 10000 -g ---- */
	if (access(work, X_OK))
		goto out;
	char *w_alone[] = { work, "40", t_file, NULL };
	char *w_pk[] = { pmukit, "record", "-q", "-o", f_pk, "-e", "cpu-clock", "-c", "10000", "-g",
			 work, "40", t_file, NULL };
	char *w_pf[] = { "perf", "record", "-q", "-o", f_pf, "-e", "cpu-clock", "-c", "10000", "-g",
			 work, "40", t_file, NULL };
	double wa[WORK_RUNS], wk[WORK_RUNS], wf[WORK_RUNS], ms;
	uint64_t lost_pk = 0, lost_pf = 0, s_pk = 0, s_pf = 0, l, sn;
	int na = 0, nk = 0, np = 0;
	for (int r = 0; r < WORK_RUNS; r++) {
		unlink(f_pk);	/* no FILE.old left behind */
		unlink(f_pf);
		if (!run(w_alone, &ms) && (wa[na] = read_ms(t_file)) >= 0)
			na++;
		if (!run(w_pk, &ms) && (wk[nk] = read_ms(t_file)) >= 0) {
			nk++;
			if (!walk(f_pk, &sn, &l)) {
				lost_pk += l;
				s_pk += sn;
			}
		}
		if (perf && !run(w_pf, &ms) && (wf[np] = read_ms(t_file)) >= 0) {
			np++;
			if (!walk(f_pf, &sn, &l)) {
				lost_pf += l;
				s_pf += sn;
			}
		}
	}
	if (!na || !nk) {
		printf("record_workload failed\n");
		goto out;
	}
	double a = median(wa, na), k = median(wk, nk);
	printf("record_workload_alone_ms %.3f\n", a);
	printf("record_workload_pmukit_ms %.3f\n", k);
	printf("record_samples_pmukit %" PRIu64 "\n", s_pk);
	printf("record_lost_pmukit %" PRIu64 "\n", lost_pk);
	if (np) {
		double f = median(wf, np);
		printf("record_workload_perf_ms %.3f\n", f);
		printf("record_workload_ratio %.3f\n", k / f);
		if (f > a)
			printf("record_overhead_ratio %.3f\n", (k - a) / (f - a));
		printf("record_samples_perf %" PRIu64 "\n", s_pf);
		printf("record_lost_perf %" PRIu64 "\n", lost_pf);
		if (lost_pf && s_pk + lost_pk)
			printf("record_lost_ratio %.3f\n",
			       ((double)lost_pk / (double)(s_pk + lost_pk)) /
			       ((double)lost_pf / (double)(s_pf + lost_pf)));
	}

	/* ---- file size per sample: fixed-size samples, plain and -z ---- */
	char *c_pk[] = { pmukit, "record", "-q", "-o", f_pk, "-e", "cpu-clock", "-c", "100000",
			 work, "200", NULL };
	char *c_pf[] = { "perf", "record", "-q", "-o", f_pf, "-e", "cpu-clock", "-c", "100000",
			 work, "200", NULL };
	unlink(f_pk);
	unlink(f_pf);
	if (!run(c_pk, &ms) && !walk(f_pk, &sn, &l) && sn) {
		double bk = file_size(f_pk) / (double)sn;
		printf("record_bytes_per_sample_pmukit %.1f\n", bk);
		if (perf && !run(c_pf, &ms) && !walk(f_pf, &sn, &l) && sn) {
			double bf = file_size(f_pf) / (double)sn;
			printf("record_bytes_per_sample_perf %.1f\n", bf);
			printf("record_size_ratio %.3f\n", bk / bf);
		}
	}

	/* ---- -z: what zstd makes of samples varies with their addresses and times (a few
	 * per cent run to run): totals over Z_RUNS pairs of longer recordings ---- */
	char *z_pk[] = { pmukit, "record", "-q", "-z", "-o", f_pk, "-e", "cpu-clock", "-c", "100000",
			 work, "1000", NULL };
	char *z_pf[] = { "perf", "record", "-q", "-z", "-o", f_pf, "-e", "cpu-clock", "-c", "100000",
			 work, "1000", NULL };
	double zb_pk = 0, zb_pf = 0;
	uint64_t zn_pk = 0, zn_pf = 0;
	for (int i = 0; i < Z_RUNS; i++) {
		unlink(f_pk);
		unlink(f_pf);
		if (!run(z_pk, &ms)) {
			uint64_t zs = perf ? perf_samples(f_pk) : 0;
			if (zs) {
				zn_pk += zs;
				zb_pk += file_size(f_pk);
			}
		}
		if (perf && !run(z_pf, &ms)) {
			uint64_t zs = perf_samples(f_pf);
			if (zs) {
				zn_pf += zs;
				zb_pf += file_size(f_pf);
			}
		}
	}
	if (zn_pk)
		printf("record_z_bytes_per_sample_pmukit %.1f\n", zb_pk / (double)zn_pk);
	if (zn_pf)
		printf("record_z_bytes_per_sample_perf %.1f\n", zb_pf / (double)zn_pf);
	if (zn_pk && zn_pf)
		printf("record_z_size_ratio %.3f\n", (zb_pk / (double)zn_pk) / (zb_pf / (double)zn_pf));
out:;
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return 0;
}
