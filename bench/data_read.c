/* SPDX-License-Identifier: MIT */
/*
 * bench/data_read.c — decoding speed of the perf.data reader
 * (pmukit/data_read.h): every record of a file read in perf's order, each
 * sample fully decoded (the reader decodes them all) and its callchain
 * walked; best of 3 passes. The file is $PMUKIT_BENCH_DATA, or one recorded
 * here with perf (-a -g cpu-clock at 20 kHz for $PMUKIT_BENCH_SECS seconds,
 * default 4, of two busy shell loops); without perf the bench says so.
 * Prints `name value` lines: records/s, samples/s, MB/s, and the same for
 * the file read as a pipe and for the pipe through the queue limit.
 * Usage: data_read [BUILD_DIR [ARCH_DIR]]
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/data_read.h>

/* CPU time of this process: the machine may be busy with other work */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct pass {
	double secs;
	uint64_t records, samples, ips;
};

/* One reading; fd < 0: open path. */
static int one_pass(const char *path, int fd, const struct pk_data_reader_opts *o, struct pass *p)
{
	struct pk_data_reader *r;
	struct pk_error err;
	char buf[512];
	double t0 = now_s();
	int rc = fd < 0 ? pk_data_reader__open(&r, path, o, &err)
			: pk_data_reader__open_fd(&r, fd, path, o, &err);
	if (rc) {
		fprintf(stderr, "data_read: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return -1;
	}
	const struct pk_data_event *ev;
	memset(p, 0, sizeof(*p));
	uint64_t sum = 0;
	while ((rc = pk_data_reader__next(r, &ev, &err)) > 0) {
		p->records++;
		if (ev->type == PERF_RECORD_SAMPLE) {
			p->samples++;
			for (uint64_t i = 0; i < ev->sample.callchain.nr; i++)
				sum += ev->sample.callchain.ips[i];
			p->ips += ev->sample.callchain.nr;
			sum += ev->sample.ip + ev->sample.period;
		}
	}
	p->secs = now_s() - t0;
	pk_data_reader__free(r);
	if (rc < 0) {
		fprintf(stderr, "data_read: %s\n", pk_error__format(&err, buf, sizeof(buf)));
		return -1;
	}
	if (sum == 42)	/* keep the loop */
		fprintf(stderr, " ");
	return 0;
}

static int best_of(const char *path, bool pipe, const struct pk_data_reader_opts *o,
		   struct pass *best)
{
	for (int i = 0; i < 3; i++) {
		struct pass p;
		int rc;
		if (pipe) {
			int fds[2];
			if (pipe2(fds, O_CLOEXEC))
				return -1;
			pid_t pid = fork();
			if (pid == 0) {
				close(fds[0]);
				int in = open(path, O_RDONLY);
				char b[1 << 16];
				ssize_t n;
				while (in >= 0 && (n = read(in, b, sizeof(b))) > 0)
					if (write(fds[1], b, (size_t)n) != n)
						break;
				_exit(0);
			}
			close(fds[1]);
			rc = one_pass("pipe", fds[0], o, &p);
			close(fds[0]);
			waitpid(pid, NULL, 0);
		} else {
			rc = one_pass(path, -1, o, &p);
		}
		if (rc)
			return rc;
		if (!i || p.secs < best->secs)
			*best = p;
	}
	return 0;
}

static void report(const char *name, const struct pass *p, double bytes)
{
	printf("%s_records_per_s %.0f\n", name, (double)p->records / p->secs);
	printf("%s_samples_per_s %.0f\n", name, (double)p->samples / p->secs);
	printf("%s_mb_per_s %.1f\n", name, bytes / 1e6 / p->secs);
	printf("%s_ms %.1f\n", name, p->secs * 1e3);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	char path[256];
	const char *env = getenv("PMUKIT_BENCH_DATA");
	bool recorded = false;
	if (env && *env) {
		snprintf(path, sizeof(path), "%s", env);
	} else {
		const char *secs = getenv("PMUKIT_BENCH_SECS");
		snprintf(path, sizeof(path), "/tmp/pmukit-bench-data-%d.data", (int)getpid());
		char cmd[1024];
		snprintf(cmd, sizeof(cmd),
			 "perf record -q -a -g -e cpu-clock -F 20000 -o %s -- sh -c "
			 "'L=\"i=0; while [ \\$i -lt 100000000 ]; do i=\\$((i+1)); done\"; "
			 "(eval \"$L\") & (eval \"$L\") & sleep %s; kill %%1 %%2; wait' "
			 ">/dev/null 2>&1",
			 path, secs && *secs ? secs : "4");
		if (system(cmd) || access(path, R_OK)) {
			printf("data_read_skipped 1\n");
			fprintf(stderr, "data_read: no perf to record a file (set PMUKIT_BENCH_DATA)\n");
			unlink(path);
			return 0;
		}
		recorded = true;
	}
	struct stat st;
	if (stat(path, &st))
		return 1;
	struct pk_data_reader_opts o = { .sz = sizeof(o) };
	struct pass p;
	int rc = best_of(path, false, &o, &p);
	if (!rc) {
		printf("data_read_file_bytes %lld\n", (long long)st.st_size);
		printf("data_read_records %" PRIu64 "\n", p.records);
		printf("data_read_samples %" PRIu64 "\n", p.samples);
		printf("data_read_callchain_ips %" PRIu64 "\n", p.ips);
		report("data_read_file", &p, (double)st.st_size);
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("data_read_file_maxrss_kb %ld\n", ru.ru_maxrss);
		o.order = PK_DATA_ORDER_FILE;
		rc = best_of(path, false, &o, &p);
		if (!rc)
			report("data_read_file_order", &p, (double)st.st_size);
		o.order = PK_DATA_ORDER_PERF;
	}
	if (!rc) {
		rc = best_of(path, true, &o, &p);
		if (!rc)
			report("data_read_pipe", &p, (double)st.st_size);
	}
	if (recorded)
		unlink(path);
	return rc ? 1 : 0;
}
