/* SPDX-License-Identifier: MIT */
/*
 * bench/serve.c — the cost of `pmukit stat --serve`: the exposition alone
 * (pmukit/expose.h) for 8 events on 2 CPUs and on a synthetic 256-CPU
 * machine, both formats; then the exporter itself, 8 software events x every
 * CPU (-A -a), scraped 500 times over one connection: its CPU time per scrape
 * and RSS, beside node_exporter's perf collector serving its software
 * counters for the same CPUs (the anchor), when it is installed.
 * Usage: serve [BUILD_DIR [ARCH_DIR]]  (prints `name value` lines)
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <netinet/in.h>

#include <pmukit/expose.h>

#define EVENTS "task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults," \
	       "cpu-clock,alignment-faults"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* microseconds per pk_expose__write of 8 events x ncpu */
static double expose_us(int ncpu, enum pk_expose_format f, size_t *bytes)
{
	static const char *const ev[8] = { "task-clock", "context-switches", "cpu-migrations",
					   "page-faults", "minor-faults", "major-faults", "cpu-clock",
					   "alignment-faults" };
	struct pk_expose_count *c = calloc((size_t)ncpu * 8, sizeof(*c));
	struct pk_expose_label *l = calloc((size_t)ncpu, sizeof(*l));
	char (*v)[12] = calloc((size_t)ncpu, sizeof(*v));
	struct pk_expose_opts o = { .sz = sizeof(o), .format = f };
	int iters = ncpu > 16 ? 200 : 5000;

	for (int cpu = 0; cpu < ncpu; cpu++) {
		snprintf(v[cpu], sizeof(v[cpu]), "%d", cpu);
		l[cpu] = (struct pk_expose_label){ "cpu", v[cpu] };
		for (int e = 0; e < 8; e++)
			c[cpu * 8 + e] = (struct pk_expose_count){
				.event = ev[e], .pmu = "software", .labels = &l[cpu], .nr_labels = 1,
				.value = { .status = PK_COUNT_OK, .raw = 123456789ull * (unsigned)(e + 1),
					   .enabled = 98765432100ull, .running = 98765432100ull } };
	}
	struct pk_expose_set s = { .counts = c, .nr_counts = (size_t)ncpu * 8, .version = "0.1.0" };
	double t0 = now_s();
	for (int i = 0; i < iters; i++) {
		char *out;
		if (pk_expose__write(&s, &o, &out, bytes, NULL))
			return -1;
		free(out);
	}
	double us = (now_s() - t0) / iters * 1e6;
	free(c);
	free(l);
	free(v);
	return us;
}

static long cpu_ticks(pid_t pid)
{
	char path[64];
	unsigned long ut = 0, st = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	/* the comm field may hold spaces: skip past its ')' */
	char buf[1024];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (long)(ut + st);
}

static long rss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &l))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static pid_t spawn(char *const argv[])
{
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Scrape port n times over one connection (curl's URL globbing); CPU us per scrape of pid. */
static double scrape_us(pid_t pid, int port, int n)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "curl -sf -o /dev/null http://127.0.0.1:%d/metrics", port);
	for (int i = 0; i < 50 && system(cmd); i++)	/* up, and a first scrape */
		usleep(100000);
	long a = cpu_ticks(pid);
	snprintf(cmd, sizeof(cmd), "curl -sf -o /dev/null 'http://127.0.0.1:%d/metrics?[1-%d]'", port, n);
	if (system(cmd))
		return -1;
	long b = cpu_ticks(pid);
	return a < 0 || b < 0 ? -1 : (double)(b - a) / (double)sysconf(_SC_CLK_TCK) / n * 1e6;
}

static void stop(pid_t pid)
{
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	const char *build = argc > 1 ? argv[1] : "build";
	size_t bytes = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	printf("expose_8ev_2cpu_text_us %.2f\n", expose_us(2, PK_EXPOSE_PROMETHEUS, &bytes));
	printf("expose_8ev_2cpu_openmetrics_us %.2f\n", expose_us(2, PK_EXPOSE_OPENMETRICS, &bytes));
	printf("expose_8ev_256cpu_text_us %.2f\n", expose_us(256, PK_EXPOSE_PROMETHEUS, &bytes));
	printf("expose_8ev_256cpu_text_bytes %zu\n", bytes);

	char exe[512], addr[64], cpus[64], listen[64];
	int port = free_port();
	snprintf(exe, sizeof(exe), "%s/pmukit", build);
	snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
	char *pk[] = { exe, "stat", "--serve", addr, "-A", "-a", "-e", EVENTS, NULL };
	pid_t p = spawn(pk);
	double us = scrape_us(p, port, 500);
	printf("serve_scrape_8ev_%ldcpu_cpu_us %.1f\n", ncpu, us);
	printf("serve_rss_kb %ld\n", rss_kb(p));
	stop(p);

	if (system("command -v prometheus-node-exporter >/dev/null") == 0) {
		port = free_port();
		snprintf(cpus, sizeof(cpus), "--collector.perf.cpus=0-%ld", ncpu - 1);
		snprintf(listen, sizeof(listen), "--web.listen-address=127.0.0.1:%d", port);
		char *ne[] = { "prometheus-node-exporter", "--collector.disable-defaults",
			       "--collector.perf", cpus, listen, NULL };
		p = spawn(ne);
		double nus = scrape_us(p, port, 500);
		printf("node_exporter_perf_scrape_5ev_%ldcpu_cpu_us %.1f\n", ncpu, nus);
		printf("node_exporter_perf_rss_kb %ld\n", rss_kb(p));
		stop(p);
	}
	return 0;
}
