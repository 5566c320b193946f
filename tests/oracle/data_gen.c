/* SPDX-License-Identifier: MIT */
/*
 * tests/oracle/data_gen.c — write a synthetic perf.data through the writer
 * (pmukit/data_write.h) for the integration tests that hand it to perf 6.1:
 * pipe mode, compression, a full disk, a writer killed in the middle.
 *
 *   data_gen [--pipe] [-z LEVEL] [--sysroot DIR] [--samples N] [--round N]
 *            [--kill-after N] [--comm NAME] OUT|-
 *
 * One cpu-clock event (ids 101, 102), a COMM and an MMAP2 of this program's
 * own text for pid/tid 4242, then N samples (default 1000) alternating
 * between the functions gen_alpha and gen_beta of this program, with period
 * 1000 + i % 7 and time 1000000 + 1000 * i; a FINISHED_ROUND every --round
 * samples (default 100). --kill-after N: _exit(0) after N samples without
 * finish(), as a recorder that died. Prints "data_bytes N file_bytes N" on
 * stderr; when the writer fails, its error, "samples written N" (the
 * samples whose write succeeded) and finish()'s error, and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmukit/data_write.h>

#define PID 4242
#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		     PERF_SAMPLE_PERIOD)

__attribute__((noinline)) int gen_alpha(int x);
__attribute__((noinline)) int gen_beta(int x);
__attribute__((noinline)) int gen_alpha(int x)
{
	return x * 3 + 1;
}
__attribute__((noinline)) int gen_beta(int x)
{
	return x * 5 + 2;
}

/* where this program's text is mapped: start, length, file offset */
static int own_text(char *path, size_t plen, uint64_t *start, uint64_t *len, uint64_t *pgoff)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	uintptr_t fn = (uintptr_t)&gen_alpha;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8];
		int n = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &s, &e, perms, &off, &n) != 4)
			continue;
		if (fn < s || fn >= e)
			continue;
		char *p = line + n;
		while (*p == ' ')
			p++;
		p[strcspn(p, "\n")] = '\0';
		snprintf(path, plen, "%s", p);
		*start = s, *len = e - s, *pgoff = off;
		fclose(f);
		return 0;
	}
	fclose(f);
	return -1;
}

static struct pk_data_writer *writer;
static long written;	/* samples whose write() succeeded */

/* the error, then finish() as a recorder does after a failed write (its error too) */
static void die(const char *what, const struct pk_error *err)
{
	struct pk_error e2 = { 0 };

	fprintf(stderr, "data_gen: %s: %s\n", what, err->msg);
	fprintf(stderr, "data_gen: samples written %ld\n", written);
	if (writer && pk_data_writer__finish(writer, &e2))
		fprintf(stderr, "data_gen: finish: %s\n", e2.msg);
	pk_data_writer__free(writer);
	exit(1);
}

int main(int argc, char **argv)
{
	struct pk_data_writer_opts o = { .sz = sizeof(o), .argc = argc,
					 .argv = (const char *const *)argv };
	long samples = 1000, round = 100, kill_after = -1;
	const char *comm = "datagen";
	static const struct option lo[] = {
		{ "pipe", no_argument, NULL, 'p' }, { "sysroot", required_argument, NULL, 'r' },
		{ "samples", required_argument, NULL, 'n' }, { "round", required_argument, NULL, 'R' },
		{ "kill-after", required_argument, NULL, 'k' }, { "comm", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "z:", lo, NULL)) != -1) {
		switch (c) {
		case 'p': o.pipe = true; break;
		case 'z': o.compress_level = atoi(optarg); break;
		case 'r': o.sysroot = optarg; break;
		case 'n': samples = atol(optarg); break;
		case 'R': round = atol(optarg); break;
		case 'k': kill_after = atol(optarg); break;
		case 'c': comm = optarg; break;
		default: return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: data_gen [--pipe] [-z N] [--sysroot DIR] [--samples N] "
				"[--round N] [--kill-after N] OUT|-\n");
		return 2;
	}
	const char *out = argv[optind];
	int fd = strcmp(out, "-") ? open(out, O_RDWR | O_CREAT | O_TRUNC, 0644) : 1;
	if (fd < 0) {
		perror(out);
		return 1;
	}

	char exe[4096];
	uint64_t start, len, pgoff;
	if (own_text(exe, sizeof(exe), &start, &len, &pgoff)) {
		fprintf(stderr, "data_gen: can not find its own text mapping\n");
		return 1;
	}

	struct pk_error err = { 0 };
	struct pk_data_writer *w;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 4000, .freq = 1, .sample_type = SAMPLE_TYPE,
		.read_format = PERF_FORMAT_ID, .disabled = 1, .inherit = 1, .mmap = 1, .comm = 1,
		.sample_id_all = 1, .mmap2 = 1, .comm_exec = 1, .exclude_guest = 1,
	};
	uint64_t ids[] = { 101, 102 };
	if (pk_data_writer__new(&w, fd, &o, &err))
		die("new", &err);
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", ids, 2, &err))
		die("add_attr", &err);
	if (pk_data_writer__begin(w, &err))
		die("begin", &err);
	writer = w;

	/* COMM and MMAP2 with the sample_id_all trailer: tid, time, id */
	uint64_t buf[1024];
	memset(buf, 0, sizeof(buf));
	struct perf_event_header *h = (void *)buf;
	size_t cl = (strlen(comm) + 1 + 7) / 8 * 8;
	h->type = PERF_RECORD_COMM;
	h->size = (uint16_t)(8 + 8 + cl + 24);
	uint32_t *u32 = (uint32_t *)(h + 1);
	u32[0] = u32[1] = PID;
	memcpy(u32 + 2, comm, strlen(comm));
	uint64_t *tr = (uint64_t *)((char *)(h + 1) + 8 + cl);
	tr[0] = (uint64_t)PID << 32 | PID;
	tr[1] = 999000;
	tr[2] = 101;
	if (pk_data_writer__write(w, buf, h->size, &err))
		die("write comm", &err);

	memset(buf, 0, sizeof(buf));
	size_t fl = (strlen(exe) + 1 + 7) / 8 * 8;
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)(8 + 64 + fl + 24);
	u32 = (uint32_t *)(h + 1);
	u32[0] = u32[1] = PID;
	uint64_t *u64 = (uint64_t *)(u32 + 2);
	u64[0] = start, u64[1] = len, u64[2] = pgoff;
	/* maj, min, ino, ino_generation: zero; prot, flags */
	uint32_t *pf = (uint32_t *)(u64 + 6);
	pf[0] = 5;	/* PROT_READ | PROT_EXEC */
	pf[1] = 2;	/* MAP_PRIVATE */
	memcpy(pf + 2, exe, strlen(exe));
	tr = (uint64_t *)((char *)(pf + 2) + fl);
	tr[0] = (uint64_t)PID << 32 | PID;
	tr[1] = 999500;
	tr[2] = 101;
	if (pk_data_writer__write(w, buf, h->size, &err))
		die("write mmap2", &err);
	pk_data_writer__add_dso(w, -1, PERF_RECORD_MISC_USER, exe);

	for (long i = 0; i < samples; i++) {
		uint64_t s[6];
		struct perf_event_header sh = { .type = PERF_RECORD_SAMPLE,
						.misc = PERF_RECORD_MISC_USER, .size = 8 + sizeof(s) };
		s[0] = (i % 2 ? (uintptr_t)&gen_beta : (uintptr_t)&gen_alpha) + 4;
		s[1] = (uint64_t)PID << 32 | PID;
		s[2] = 1000000 + 1000 * (uint64_t)i;
		s[3] = i % 3 ? 101 : 102;
		s[4] = 1000 + (uint64_t)(i % 7);
		memcpy(buf, &sh, 8);
		memcpy((char *)buf + 8, s, sizeof(s));
		if (pk_data_writer__write(w, buf, sh.size, &err))
			die("write sample", &err);
		written++;
		if (round > 0 && (i + 1) % round == 0 && pk_data_writer__finished_round(w, &err))
			die("finished_round", &err);
		if (kill_after >= 0 && i + 1 == kill_after)
			_exit(0);
	}
	if (pk_data_writer__finish(w, &err))
		die("finish", &err);
	fprintf(stderr, "data_bytes %llu file_bytes %llu\n",
		(unsigned long long)pk_data_writer__data_bytes(w),
		(unsigned long long)pk_data_writer__file_bytes(w));
	pk_data_writer__free(w);
	return gen_alpha(0) + gen_beta(0) == 3 ? 0 : 1;
}
