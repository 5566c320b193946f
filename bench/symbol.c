/* SPDX-License-Identifier: MIT */
/*
 * bench/symbol.c — the symbolizer's speed on a large DSO (default: this
 * machine's libc.so.6, with its debug file when libc6-dbg is installed;
 * PMUKIT_BENCH_DSO=FILE for another): loading the symbols, symbol lookups,
 * source lines with inline frames on first sight (DWARF read on the way) and
 * cached, against what binutils' addr2line costs per address, measured here
 * the two ways: one batch through a pipe, and one round trip per address as
 * perf 6.1 drives its long-running `addr2line -i -f` (address, then a ","
 * sentinel, then read up to the sentinel's "??" answer).
 * Prints `name value` lines.
 */
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmukit/symbol.h>

#define NADDR 20000
#define NROUND 2000

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds of this process (the machine is shared: wall time is noisy) */
static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds of the waited-for children */
static double child_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* .text's address range and sh_addr - sh_offset */
static int text_of(const char *path, uint64_t *lo, uint64_t *size, uint64_t *delta)
{
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t shstr;
	int r = -1;
	if (e && !elf_getshdrstrndx(e, &shstr)) {
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *n;
			if (gelf_getshdr(scn, &sh) && (n = elf_strptr(e, shstr, sh.sh_name)) && !strcmp(n, ".text")) {
				*lo = sh.sh_addr;
				*size = sh.sh_size;
				*delta = sh.sh_addr - sh.sh_offset;
				r = 0;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return r;
}

/* addr2line -i -f -e dso, pipes both ways */
static pid_t spawn(const char *dso, int *to, int *from)
{
	int a[2], b[2];
	if (pipe(a) || pipe(b))
		return -1;
	pid_t p = fork();
	if (p == 0) {
		dup2(a[0], 0);
		dup2(b[1], 1);
		close(a[1]);
		close(b[0]);
		int devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, 2);
		execlp("addr2line", "addr2line", "-e", dso, "-i", "-f", (char *)NULL);
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	*to = a[1];
	*from = b[0];
	return p;
}

static int pair_is_unknown(FILE *in, char *l1, char *l2, size_t n)
{
	if (!fgets(l1, (int)n, in) || !fgets(l2, (int)n, in))
		return -1;
	return !strcmp(l1, "??\n") && !strcmp(l2, "??:0\n");
}

int main(void)
{
	const char *dso = getenv("PMUKIT_BENCH_DSO");
	if (!dso || !*dso)
		dso = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	uint64_t lo, size, delta;
	if (text_of(dso, &lo, &size, &delta)) {
		fprintf(stderr, "bench/symbol: cannot read %s\n", dso);
		return 0;
	}
	uint64_t *addr = malloc(NADDR * sizeof(*addr));
	unsigned seed = 1;
	for (int i = 0; i < NADDR; i++) {
		seed = seed * 1103515245u + 12345u;
		addr[i] = lo + (((uint64_t)seed << 16) ^ (seed >> 3)) % size;
	}

	double t0 = cpu();
	struct pk_symbolizer *s;
	struct pk_symbolizer_opts o = { .sz = sizeof(o) };
	if (pk_symbolizer__new(&s, &o, NULL))
		return 1;
	struct pk_dso *d = pk_symbolizer__dso(s, dso, NULL, 0);
	size_t nsyms = pk_dso__nr_syms(d);
	printf("symbol_dso_symbols %zu\n", nsyms);
	printf("symbol_load_cpu_ms %.2f\n", (cpu() - t0) * 1e3);

	/* symbol lookups (rip = file offset: address - delta) */
	volatile size_t found = 0;
	t0 = cpu();
	for (int round = 0; round < 50; round++)
		for (int i = 0; i < NADDR; i++)
			found += pk_dso__find(d, addr[i] - delta) != NULL;
	double t = cpu() - t0;
	printf("symbol_lookups_per_s %.0f\n", 50.0 * NADDR / t);

	/* srcline + inline frames: first sight (reads the DWARF as it goes), then cached */
	size_t frames = 0, with_line = 0;
	t0 = cpu();
	double w0 = now();
	for (int i = 0; i < NADDR; i++) {
		struct pk_srcline sl = { .sz = sizeof(sl) };
		if (!pk_dso__srcline(d, addr[i] - delta, &sl) && sl.nr_frames) {
			frames += sl.nr_frames;
			with_line += sl.frames[0].line != 0;
		}
	}
	double cold = cpu() - t0, cold_wall = now() - w0;
	printf("srcline_first_per_s %.0f\n", NADDR / cold);
	printf("srcline_first_cpu_us_per_addr %.2f\n", cold * 1e6 / NADDR);
	printf("srcline_first_wall_us_per_addr %.2f\n", cold_wall * 1e6 / NADDR);
	printf("srcline_addrs_with_line %zu\n", with_line);
	printf("srcline_frames_per_addr %.2f\n", (double)frames / NADDR);
	t0 = cpu();
	for (int round = 0; round < 20; round++)
		for (int i = 0; i < NADDR; i++)
			found += pk_dso__srcline_str(d, addr[i] - delta) != NULL;
	t = cpu() - t0;
	printf("srcline_cached_per_s %.0f\n", 20.0 * NADDR / t);
	pk_symbolizer__free(s);

	/* addr2line, one batch of the same addresses through a pipe */
	char tmpl[] = "/tmp/pk_bench_symXXXXXX";
	int fd = mkstemp(tmpl);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f)
		return 0;
	for (int i = 0; i < NADDR; i++)
		fprintf(f, "%lx\n", (unsigned long)addr[i]);
	fclose(f);
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "addr2line -i -f -e '%s' < '%s' > /dev/null 2>&1", dso, tmpl);
	t0 = child_cpu();
	int rc = system(cmd);
	double batch = child_cpu() - t0;
	unlink(tmpl);
	if (rc == 0) {
		printf("addr2line_batch_cpu_us_per_addr %.2f\n", batch * 1e6 / NADDR);
		printf("srcline_first_cpu_speedup_vs_addr2line_batch %.1f\n", batch / cold);
	}

	/* addr2line as perf 6.1 drives it: one round trip per address */
	int to, from;
	pid_t p = spawn(dso, &to, &from);
	if (p > 0) {
		FILE *in = fdopen(from, "r");
		char l1[8192], l2[8192], req[64];
		int ok = 1;
		t0 = now();
		for (int i = 0; i < NROUND && ok; i++) {
			int n = snprintf(req, sizeof(req), "%016lx\n,\n", (unsigned long)addr[i]);
			if (write(to, req, (size_t)n) != n) {
				ok = 0;
				break;
			}
			int first = pair_is_unknown(in, l1, l2, sizeof(l1));
			if (first < 0) {
				ok = 0;
				break;
			}
			if (first == 1) {	/* unknown address: the sentinel's pair follows */
				ok = pair_is_unknown(in, l1, l2, sizeof(l1)) == 1;
				continue;
			}
			int r;
			while ((r = pair_is_unknown(in, l1, l2, sizeof(l1))) == 0)
				;
			ok = r == 1;
		}
		double rt = now() - t0;
		close(to);
		fclose(in);
		kill(p, SIGTERM);
		waitpid(p, NULL, 0);
		if (ok) {
			printf("addr2line_roundtrip_wall_us_per_addr %.2f\n", rt * 1e6 / NROUND);
			printf("srcline_first_wall_speedup_vs_addr2line_roundtrip %.1f\n",
			       (rt / NROUND) / (cold_wall / NADDR));
		}
	}
	free(addr);
	return found ? 0 : 0;
}
