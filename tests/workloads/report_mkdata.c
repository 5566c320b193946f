/* SPDX-License-Identifier: MIT */
/*
 * report_mkdata.c — writes perf.data files that this machine cannot record
 * (no hardware PMU), for tests/integration/report_values.sh: samples in this
 * program's own functions (its text mapping is recorded, so perf and pmukit
 * name them), with
 *
 *   weights   PERF_SAMPLE_WEIGHT_STRUCT (weight, ins_lat, p_stage_cyc) that
 *             differ per function and per sample;
 *   topdown   a {slots,inst_retired.any,topdown-retiring,topdown-bad-spec,
 *             topdown-fe-bound,topdown-be-bound}:S sampling read group, as
 *             topdown.txt describes it (the second event samples; the kernel
 *             reads each topdown-* member as its share of slots);
 *   topdown2  the same with the Level 2 members (heavy-ops, br-mispredict,
 *             fetch-lat, mem-bound).
 *   a2l_after cpu-clock samples for perf 6.1's addr2line failure limit: one
 *             in td_func1 (it has a line), 130 at distinct addresses of
 *             nodebug_pad (no line rows: a section of its own; addr2line
 *             still answers "??:?", which perf takes as an answer), 130 past
 *             the end of the text segment (the MMAP2 says it is one page
 *             longer; no section there: addr2line's "??:0", perf's failure),
 *             then one in td_func2: perf 6.1 gives its line (after a
 *             success it never counts failures again);
 *   a2l_fresh only the samples past the end, then td_func2: the DSO's
 *             first 123 lookups fail, so perf gives up: td_func2 gets no line.
 *   late      cpu-clock samples for perf 6.1's lazy srclines: first one in
 *             td_func1, then 2, 3 and 4 in three libc functions (a second
 *             DSO): under --sort dso,srcline --no-children td_func1's entry
 *             never meets another of its DSO, nor one of its period, so perf
 *             computes its srcline only to print it, after sizing the column
 *             over the libc ones: it comes out cut to their width.
 *
 *   modules   samples in two kernel modules this machine has not loaded (a
 *             module map named by its .ko path, one by "[name]"), in the
 *             kernel and in this program (foreign_files.sh);
 *   aux       an Arm SPE recording's AUX records (AUXTRACE_INFO, AUX,
 *             AUXTRACE) beside cpu-clock samples (foreign_files.sh).
 *   brstack   a cycles:u event with PERF_SAMPLE_BRANCH_STACK (LBR-like): samples whose
 *             branch entries jump between td_func1..3 and to an address outside
 *             every map, with every flag (mispred, predicted, in_tx, abort),
 *             cycles and branch types, for script -F brstack,brstacksym and -D.
 *   mem       a `perf mem record`-like mem-loads event (-W -d --phys-data:
 *             ADDR, WEIGHT, DATA_SRC, PHYS_ADDR) whose samples' data sources
 *             cover every field of perf_mem_data_src (op, lvl, snoop, lock,
 *             dtlb, lvl_num, remote, snoopx, blk, hops), one value a sample
 *             (none whose text is longer than perf's 100-byte buffer: perf
 *             writes past it; no hops above 4: perf reads past its names).
 *   lbr       a --call-graph lbr recording (cycles:u, CALLCHAIN and BRANCH_STACK
 *             with PERF_SAMPLE_BRANCH_CALL_STACK|HW_INDEX): user samples whose
 *             chain is PERF_CONTEXT_USER and their ip, kernel samples with a
 *             kernel part, one chain without a user part (perf walks it as an
 *             fp chain); the call stacks go through td_func1..3 and nodebug_pad.
 *   old       a perf 3.x-like file: one event, a 64-byte attr (VER0) without
 *             sample_id_all (side-band records without the sample's id
 *             fields), PERF_RECORD_MMAP (not MMAP2) of this program's text,
 *             samples IP|TID|TIME|PERIOD (no ID), a second thread, an EXIT.
 *   topo_old  the attr128 file with its CPU_TOPOLOGY section cut after the
 *             sibling lists, as perf before 4.x wrote it (no core and socket
 *             ids); topo_nodie: cut before the die lists (perf before 5.2).
 *   elf32     samples in a 32-bit program (an i386 ELF32 executable, its path
 *             in $MK_ELF32): an MMAP2 of its executable PT_LOAD at its
 *             address, a sample every 4 bytes of it and one past its end.
 *   mmap2bid  cpu-clock samples in this program, its MMAP2 in the build-id
 *             layout (PERF_RECORD_MISC_MMAP_BUILD_ID: build_id_size and the
 *             build id where maj/min/ino/ino_generation were, perf 5.12+
 *             --buildid-mmap); mmap2bad: the same with a wrong build id.
 *   attrSIZE  cpu-clock and task-clock samples whose perf_event_attr is SIZE bytes
 *             (attr64 .. attr136: PERF_ATTR_SIZE_VER0 .. VER8), as older perf
 *             versions wrote them: the file's attr_size is SIZE.
 *
 *   report_mkdata weights|topdown|topdown2|a2l_after|a2l_fresh|late|modules|aux|brstack|mem|lbr|old|topo_old|topo_nodie|elf32|mmap2bid|mmap2bad|attrSIZE OUT.data
 *
 * For topdown files it prints, per function, the TopDown shares the samples
 * it wrote add up to ("td_func1 retiring=12.34 bad_spec=... [heavy_ops=...]"),
 * computed with topdown.txt's formulas from its own deltas.
 *
 * It needs the library (its perf.data writer): the Makefile's rule for it
 * defines PMUKIT_MKDATA. Built as a plain workload (by the rule for every
 * tests/workloads source, without the library), it only says so.
 */
#ifndef PMUKIT_MKDATA
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "report_mkdata: built without pmukit's library; use build/tests/workloads/report_mkdata\n");
	return 2;
}
#else
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <pmukit/data_write.h>

#include "util/buf.h"

#define PID 4242
#define NOINL __attribute__((noinline, used))

NOINL int td_func1(int x) { return x * 3 + 1; }
NOINL int td_func2(int x) { return x * 5 + 2; }
NOINL int td_func3(int x) { return x * 7 + 3; }

/* 256 bytes of code without line rows: a section of its own, so no row covers it */
__asm__(".pushsection .text.nodebug,\"ax\",@progbits\n"
	".globl nodebug_pad\n.type nodebug_pad,@function\n"
	"nodebug_pad:\n.fill 255,1,0x90\nret\n"
	".size nodebug_pad,.-nodebug_pad\n.popsection\n");
extern char nodebug_pad[];

static const void *const funcs[] = { (const void *)td_func1, (const void *)td_func2,
				     (const void *)td_func3 };
static const char *const func_names[] = { "td_func1", "td_func2", "td_func3" };

static void put64(struct pk_buf *b, uint64_t v) { pk_buf__append(b, &v, 8); }
static void put32(struct pk_buf *b, uint32_t v) { pk_buf__append(b, &v, 4); }

static size_t begin_rec(struct pk_buf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	return (size_t)pk_buf__append(b, &h, sizeof(h));
}

static void end_rec(struct pk_buf *b, size_t at)
{
	uint16_t size = (uint16_t)(b->len - at);
	memcpy(b->data + at + 6, &size, 2);
}

static void put_str(struct pk_buf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 7) / 8 * 8;
	static const char zeros[8];
	pk_buf__append(b, s, n);
	pk_buf__append(b, zeros, padded - n);
}

/* side-band trailer for sample_type IDENTIFIER|IP|TID|TIME|... (TID, TIME, IDENTIFIER) */
static void put_trailer(struct pk_buf *b, uint64_t st, uint64_t time, uint64_t id)
{
	if (st & PERF_SAMPLE_TID)
		put32(b, PID), put32(b, PID);
	if (st & PERF_SAMPLE_TIME)
		put64(b, time);
	if (st & PERF_SAMPLE_ID)
		put64(b, id);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(b, id);
}

/* MMAP2 of the mapping that holds a, EXTRA bytes longer than it is (*end: where it ends) */
static int put_mmap_of(struct pk_buf *b, uint64_t st, uint64_t id, uintptr_t a, uint64_t extra,
		       uint64_t *end)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4352];
	size_t at;
	int rc = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		int n = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s%n", &s, &e, &off, &n) != 3 ||
		    a < s || a >= e)
			continue;
		char *p = line + n;
		while (*p == ' ')
			p++;
		p[strcspn(p, "\n")] = 0;
		at = begin_rec(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
		put32(b, PID), put32(b, PID);
		put64(b, s), put64(b, e - s + extra), put64(b, off);
		if (end)
			*end = e;
		put64(b, 0), put64(b, 0), put64(b, 0);
		put32(b, 5), put32(b, 2);
		put_str(b, p);
		put_trailer(b, st, 1001, id);
		end_rec(b, at);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}

/* COMM and MMAP2 of this program's text, EXTRA bytes longer than it is (*end: where it ends) */
static int put_sideband_ext(struct pk_buf *b, uint64_t st, uint64_t id, uint64_t extra, uint64_t *end)
{
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, PID), put32(b, PID);
	put_str(b, "mkdata");
	put_trailer(b, st, 1000, id);
	end_rec(b, at);
	return put_mmap_of(b, st, id, (uintptr_t)funcs[0], extra, end);
}

static int put_sideband(struct pk_buf *b, uint64_t st, uint64_t id)
{
	return put_sideband_ext(b, st, id, 0, NULL);
}

static int die(const char *what, const struct pk_error *err)
{
	fprintf(stderr, "report_mkdata: %s: %s\n", what, err ? err->msg : strerror(errno));
	return 1;
}

static int weights(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT_STRUCT;
	struct perf_event_attr a = {
		.type = PERF_TYPE_RAW, .size = sizeof(a), .config = 0x1cd, .config1 = 3,
		.sample_period = 4000, .sample_type = st, .sample_id_all = 1, .precise_ip = 3,
	};
	uint64_t id = 77;
	if (pk_data_writer__add_attr(w, &a, "mem-loads", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("weights", &err);
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	/* function k: 3 + 2k samples, weights 10k + (j % 3) * 5, ins_lat k + j, p_stage 2j */
	uint64_t time = 2000;
	for (int k = 0; k < 3; k++) {
		for (int j = 0; j < 3 + 2 * k; j++) {
			uint64_t weight = (uint64_t)(10 * k + (j % 3) * 5 + 1) |
					  (uint64_t)(k + j) << 32 | (uint64_t)(2 * j) << 48;
			size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
			put64(b, (uint64_t)(uintptr_t)funcs[k] + 1);
			put32(b, PID), put32(b, PID);
			put64(b, time++);
			put64(b, id);
			put64(b, 4000);
			put64(b, weight);
			end_rec(b, at);
		}
	}
	return 0;
}

static void put_ip_sample(struct pk_buf *b, uint64_t ip, uint64_t time, uint64_t id)
{
	size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(b, ip);
	put32(b, PID), put32(b, PID);
	put64(b, time);
	put64(b, id);
	put64(b, 250000);
	end_rec(b, at);
}

/* the sample_type of cpu_clock_file()'s samples (put_ip_sample's layout) */
#define IP_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			PERF_SAMPLE_PERIOD)

/* one cpu-clock event with id, sampling every 250 us; the writer begun */
static int cpu_clock_file(struct pk_data_writer *w, uint64_t id, const char *what)
{
	struct pk_error err = { 0 };
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 250000, .sample_type = IP_SAMPLE_TYPE, .sample_id_all = 1,
	};
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die(what, &err);
	return 0;
}

static int a2l(struct pk_data_writer *w, struct pk_buf *b, bool after_success)
{
	const uint64_t st = IP_SAMPLE_TYPE;
	uint64_t id = 91, time = 2000, end = 0;
	if (cpu_clock_file(w, id, "a2l"))
		return 1;
	if (put_sideband_ext(b, st, id, 4096, &end))
		return die("maps", NULL);
	if (after_success)
		put_ip_sample(b, (uint64_t)(uintptr_t)funcs[0] + 1, time++, id);
	for (int i = 0; after_success && i < 130; i++)
		put_ip_sample(b, (uint64_t)(uintptr_t)nodebug_pad + (uint64_t)i, time++, id);
	for (int i = 0; i < 130; i++)
		put_ip_sample(b, end + 64 + (uint64_t)i, time++, id);
	put_ip_sample(b, (uint64_t)(uintptr_t)funcs[1] + 1, time++, id);
	return 0;
}

static int late(struct pk_data_writer *w, struct pk_buf *b)
{
	const uint64_t st = IP_SAMPLE_TYPE;
	/* libc's own functions, asked of libc itself (a sanitizer's runtime intercepts them) */
	void *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	const uintptr_t libc[] = { (uintptr_t)(h ? dlsym(h, "fopen") : NULL),
				   (uintptr_t)(h ? dlsym(h, "fclose") : NULL),
				   (uintptr_t)(h ? dlsym(h, "fflush") : NULL) };
	if (!libc[0] || !libc[1] || !libc[2])
		return die("late: libc.so.6's fopen, fclose, fflush", NULL);
	uint64_t id = 93, time = 2000;
	if (cpu_clock_file(w, id, "late"))
		return 1;
	if (put_sideband(b, st, id) || put_mmap_of(b, st, id, libc[0], 0, NULL))
		return die("maps", NULL);
	put_ip_sample(b, (uint64_t)(uintptr_t)funcs[0] + 1, time++, id);
	for (int k = 0; k < 3; k++)
		for (int j = 0; j < k + 2; j++)
			put_ip_sample(b, (uint64_t)libc[k] + 1, time++, id);
	return 0;
}

/* a kernel MMAP (pid -1), as perf synthesizes the kernel's and its modules' maps */
static void put_kernel_mmap(struct pk_buf *b, uint64_t st, uint64_t id, uint64_t start,
			    uint64_t len, uint64_t pgoff, const char *name)
{
	size_t at = begin_rec(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	put32(b, UINT32_MAX), put32(b, 0);
	put64(b, start), put64(b, len), put64(b, pgoff);
	put_str(b, name);
	put_trailer(b, st, 999, id);
	end_rec(b, at);
}

static void put_kernel_sample(struct pk_buf *b, uint64_t ip, uint64_t time, uint64_t id)
{
	size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	put64(b, ip);
	put32(b, PID), put32(b, PID);
	put64(b, time);
	put64(b, id);
	put64(b, 250000);
	end_rec(b, at);
}

/* this machine's _text (the kernel map's start, as perf records it) */
static uint64_t kernel_text(void)
{
	uint64_t text = 0xffffffff81000000ULL;
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char name[256];
		if (sscanf(line, "%llx %*s %255s", &a, name) == 2 && !strcmp(name, "_text") && a) {
			text = a;
			break;
		}
	}
	if (f)
		fclose(f);
	return text;
}

/*
 * Samples in kernel modules that this machine has not loaded: the kernel's
 * map ("[kernel.kallsyms]_text" at _text, as perf records it), two module
 * maps (one named by its path, as perf names a module it found under
 * /lib/modules, one by "[name]"), samples in both modules, in the kernel
 * (at _text) and in this program.
 */
static int modules(struct pk_data_writer *w, struct pk_buf *b)
{
	const uint64_t st = IP_SAMPLE_TYPE;
	uint64_t id = 95, time = 2000, text = kernel_text();
	if (cpu_clock_file(w, id, "modules"))
		return 1;
	put_kernel_mmap(b, st, id, text, 0x1000000, text, "[kernel.kallsyms]_text");
	const uint64_t m1 = 0xffffffffc0a00000ULL, m2 = 0xffffffffc0b00000ULL;
	put_kernel_mmap(b, st, id, m1, 0x20000, 0,
			"/lib/modules/6.1.0-99-amd64/kernel/fs/pkfakefs/pkfakefs.ko");
	put_kernel_mmap(b, st, id, m2, 0x8000, 0, "[pknet]");
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (int i = 0; i < 5; i++)
		put_kernel_sample(b, m1 + 0x100 + 0x10 * (uint64_t)i, time++, id);
	for (int i = 0; i < 3; i++)
		put_kernel_sample(b, m2 + 0x40 * (uint64_t)i, time++, id);
	put_kernel_sample(b, text, time++, id);
	put_ip_sample(b, (uint64_t)(uintptr_t)funcs[0] + 1, time++, id);
	return 0;
}

/*
 * An Arm SPE recording as perf makes one on arm64, beside cpu-clock: the SPE
 * event (PMU type 10), AUXTRACE_INFO naming it, an AUX record and an
 * AUXTRACE record with 64 bytes of trace (PAD packets: nothing to
 * decode), and cpu-clock samples in this program.
 */
static int aux(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = IP_SAMPLE_TYPE;
	uint64_t id = 97, spe_id = 98, time = 2000;
	struct perf_event_attr spe = {
		.type = 10, .size = sizeof(spe), .sample_period = 1, .sample_type = st,
		.sample_id_all = 1, .exclude_guest = 1,
	};
	if (pk_data_writer__add_attr(w, &spe, "arm_spe_0//", &spe_id, 1, &err))
		return die("aux", &err);
	if (cpu_clock_file(w, id, "aux"))
		return 1;
	size_t at = begin_rec(b, PK_RECORD_TIME_CONV, 0);	/* the counter's clock as perf time */
	put64(b, 0), put64(b, 1), put64(b, 0);		/* time_shift, time_mult, time_zero */
	end_rec(b, at);
	at = begin_rec(b, PK_RECORD_AUXTRACE_INFO, 0);
	put32(b, 4), put32(b, 0);	/* PERF_AUXTRACE_ARM_SPE */
	put64(b, 10);			/* priv[ARM_SPE_PMU_TYPE] */
	put64(b, 1);			/* priv[ARM_SPE_PER_CPU_MMAPS] */
	end_rec(b, at);
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (int i = 0; i < 3; i++)
		put_ip_sample(b, (uint64_t)(uintptr_t)funcs[i] + 1, time++, id);
	at = begin_rec(b, PERF_RECORD_AUX, 0);
	put64(b, 0), put64(b, 64), put64(b, 0);	/* aux_offset, aux_size, flags */
	put_trailer(b, st, time++, spe_id);
	end_rec(b, at);
	at = begin_rec(b, PK_RECORD_AUXTRACE, 0);
	put64(b, 64), put64(b, 0), put64(b, 0x1234);	/* size, offset, reference */
	put32(b, 0), put32(b, PID), put32(b, 0), put32(b, 0);	/* idx, tid, cpu */
	end_rec(b, at);
	static const uint8_t pad[64];
	pk_buf__append(b, pad, sizeof(pad));
	for (int i = 0; i < 3; i++)
		put_ip_sample(b, (uint64_t)(uintptr_t)funcs[i] + 1, time++, id);
	return 0;
}

enum { SLOTS, EV, RET, BAD, FE, BE, HEAVY, BRMIS, FETCHLAT, MEM, NR };

static int topdown(struct pk_data_writer *w, struct pk_buf *b, bool l2)
{
	struct pk_error err = { 0 };
	static const char *const names[NR] = {
		"slots", "inst_retired.any", "topdown-retiring", "topdown-bad-spec",
		"topdown-fe-bound", "topdown-be-bound", "topdown-heavy-ops",
		"topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
	};
	static const uint64_t configs[NR] = { 0x400, 0xc0, 0x8000, 0x8100, 0x8200, 0x8300,
					      0x8400, 0x8500, 0x8600, 0x8700 };
	const int n = l2 ? NR : HEAVY;
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	for (int i = 0; i < n; i++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_RAW, .size = sizeof(a), .config = configs[i],
			.sample_type = st, .read_format = rf, .sample_id_all = 1,
			.sample_period = i == EV ? 100003 : 0, .disabled = i == 0,
		};
		uint64_t id = 500 + (uint64_t)i;
		if (pk_data_writer__add_attr(w, &a, names[i], &id, 1, &err))
			return die("topdown", &err);
	}
	char gname[256] = "{";
	for (int i = 0; i < n; i++)
		snprintf(gname + strlen(gname), sizeof(gname) - strlen(gname), "%s%s", i ? "," : "",
			 names[i]);
	strcat(gname, "}");
	if (pk_data_writer__add_group(w, 0, (size_t)n, gname, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("topdown", &err);
	if (put_sideband(b, st, 501))
		return die("maps", NULL);
	uint64_t value[NR] = { 0 }, sum[3][NR] = { { 0 } };
	uint64_t time = 3000;
	/* function k: 4 + 3k samples; its shares move with the sample number */
	for (int k = 0; k < 3; k++) {
		for (int j = 0; j < 4 + 3 * k; j++) {
			uint64_t d[NR] = { 0 };
			d[SLOTS] = 10000 + 1000 * (uint64_t)j;
			d[EV] = 100003;
			d[RET] = d[SLOTS] * (uint64_t)(20 + 10 * k + j) / 100;
			d[BAD] = d[SLOTS] * (uint64_t)(5 + k) / 100;
			d[FE] = d[SLOTS] * (uint64_t)(15 + 2 * j) / 100;
			d[BE] = d[SLOTS] - d[RET] - d[BAD] - d[FE];
			d[HEAVY] = d[RET] / (uint64_t)(2 + k);
			d[BRMIS] = d[BAD] * 2 / 3;
			d[FETCHLAT] = d[FE] / 4;
			d[MEM] = d[BE] * (uint64_t)(1 + k) / 5;
			size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
			put64(b, 501);					/* IDENTIFIER: the sampling member */
			put64(b, (uint64_t)(uintptr_t)funcs[k] + 2);	/* IP */
			put32(b, PID), put32(b, PID);
			put64(b, time++);
			put64(b, 100003);
			put64(b, (uint64_t)n);				/* READ: nr, then value, id */
			for (int i = 0; i < n; i++) {
				value[i] += d[i];
				sum[k][i] += d[i];
				put64(b, value[i]);
				put64(b, 500 + (uint64_t)i);
			}
			end_rec(b, at);
		}
	}
	/* what topdown.txt's formulas give for each function's samples */
	for (int k = 0; k < 3; k++) {
		double s = (double)sum[k][SLOTS];
		printf("%s retiring=%.2f bad_spec=%.2f fe_bound=%.2f be_bound=%.2f", func_names[k],
		       100.0 * sum[k][RET] / s, 100.0 * sum[k][BAD] / s, 100.0 * sum[k][FE] / s,
		       100.0 * sum[k][BE] / s);
		if (l2)
			printf(" heavy_ops=%.2f light_ops=%.2f br_mispredict=%.2f machine_clears=%.2f"
			       " fetch_lat=%.2f fetch_bw=%.2f mem_bound=%.2f core_bound=%.2f",
			       100.0 * sum[k][HEAVY] / s, 100.0 * sum[k][RET] / s - 100.0 * sum[k][HEAVY] / s,
			       100.0 * sum[k][BRMIS] / s, 100.0 * sum[k][BAD] / s - 100.0 * sum[k][BRMIS] / s,
			       100.0 * sum[k][FETCHLAT] / s, 100.0 * sum[k][FE] / s - 100.0 * sum[k][FETCHLAT] / s,
			       100.0 * sum[k][MEM] / s, 100.0 * sum[k][BE] / s - 100.0 * sum[k][MEM] / s);
		printf("\n");
	}
	return 0;
}

static int brstack(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = IP_SAMPLE_TYPE | PERF_SAMPLE_BRANCH_STACK;
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(a), .config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 100003, .sample_type = st, .sample_id_all = 1, .exclude_kernel = 1,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
	};
	uint64_t id = 55, time = 2000;
	if (pk_data_writer__add_attr(w, &a, "cycles:u", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("brstack", &err);
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (int s = 0; s < 6; s++) {
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, (uint64_t)(uintptr_t)funcs[s % 3] + 2);
		put32(b, PID), put32(b, PID);
		put64(b, time++);
		put64(b, id);
		put64(b, 100003);
		uint64_t nr = (uint64_t)(s % 4);	/* 0 to 3 entries */
		put64(b, nr);
		for (uint64_t e = 0; e < nr; e++) {
			uint64_t from = (uint64_t)(uintptr_t)funcs[(s + e) % 3] + 4 + e;
			uint64_t to = s == 3 && e == 1 ? 0x1234 : (uint64_t)(uintptr_t)funcs[(s + e + 1) % 3];
			/* mispred, predicted, in_tx, abort, cycles:16, type:4 */
			uint64_t flags = (uint64_t)((s + e) & 1) | (uint64_t)(!((s + e) & 1)) << 1 |
					 (uint64_t)(s == 3) << 2 | (uint64_t)(s == 2 && e == 1) << 3 |
					 (uint64_t)(17 * s + (int)e) << 4 | (uint64_t)((3 * s + 5 * e) % 15) << 20;
			put64(b, from), put64(b, to), put64(b, flags);
		}
		end_rec(b, at);
	}
	return 0;
}

/* a perf_mem_data_src value from its fields (the uapi bit layout) */
#define DSRC(op, lvl, snoop, lock, dtlb, lvlnum, remote, snoopx, blk, hops)                      \
	((uint64_t)(op) | (uint64_t)(lvl) << 5 | (uint64_t)(snoop) << 19 | (uint64_t)(lock) << 24 | \
	 (uint64_t)(dtlb) << 26 | (uint64_t)(lvlnum) << 33 | (uint64_t)(remote) << 37 |            \
	 (uint64_t)(snoopx) << 38 | (uint64_t)(blk) << 40 | (uint64_t)(hops) << 43)

static const uint64_t mem_srcs[] = {
	0,						/* all zero: no field set */
	DSRC(1, 1, 1, 1, 1, 0, 0, 0, 1, 0),		/* every field N/A */
	DSRC(2, 0x0a, 2, 2, 0x0a, 0, 0, 0, 0, 0),	/* load, L1 hit, no snoop, L1 TLB hit */
	DSRC(2, 0x0a, 2, 1, 0x1a, 0, 0, 0, 0, 0),	/* TLB L1 or L2 hit, lock N/A */
	DSRC(4, 0x14, 4, 3, 0x0c, 0, 0, 0, 2, 0),	/* store, L2 miss, HitM, locked, blk data */
	DSRC(8, 0x42, 8, 0, 0x44, 0, 0, 0, 4, 0),	/* pfetch, L3 hit, miss, walker miss, blk addr */
	DSRC(16, 0x82, 0, 0, 0x40, 0, 0, 0, 6, 0),	/* exec, local RAM, fault, blk data+addr */
	DSRC(0, 0x102, 0x10, 0, 0x06, 0, 0, 1, 0, 0),	/* op 0, remote RAM 1 hop, HitM, Fwd */
	DSRC(2, 0x202, 2, 0, 0, 0, 0, 2, 0, 0),		/* remote RAM 2 hops, snoopx bit 2 */
	DSRC(2, 0x402, 6, 0, 2, 0, 0, 3, 0, 0),		/* remote cache 1 hop, None or Hit */
	DSRC(2, 0x802, 0, 0, 4, 0, 0, 0, 0, 0),		/* remote cache 2 hops, TLB miss */
	DSRC(2, 0x1002, 0, 0, 0, 0, 0, 0, 0, 0),	/* I/O */
	DSRC(2, 0x2002, 0, 0, 0, 0, 0, 0, 0, 0),	/* uncached */
	DSRC(2, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0),		/* L1 or LFB, hit */
	DSRC(2, 0x02c, 0x06, 0, 0x7e, 0, 0, 0, 0, 0),	/* 2 levels, every TLB: cut */
	DSRC(2, 0x02, 0, 0, 0, 1, 0, 0, 0, 0),		/* lvl_num L1, hit */
	DSRC(2, 0x02, 0, 0, 0, 2, 0, 0, 0, 0),		/* lvl_num L2 */
	DSRC(2, 0x04, 0, 0, 0, 3, 0, 0, 0, 0),		/* lvl_num L3, miss */
	DSRC(2, 0, 0, 0, 0, 4, 0, 0, 0, 0),		/* lvl_num L4, no hit/miss */
	DSRC(2, 0x02, 0, 0, 0, 9, 0, 0, 0, 0),		/* lvl_num 9 (CXL in later kernels) */
	DSRC(2, 0x02, 0, 0, 0, 0xa, 0, 0, 0, 0),	/* lvl_num 10 (I/O in later kernels) */
	DSRC(2, 0x02, 0, 0, 0, 0xb, 0, 0, 0, 0),	/* any cache */
	DSRC(2, 0x02, 0, 0, 0, 0xc, 0, 0, 0, 0),	/* LFB */
	DSRC(2, 0x02, 0, 0, 0, 0xd, 0, 0, 0, 0),	/* RAM */
	DSRC(2, 0x02, 0, 0, 0, 0xe, 0, 0, 0, 0),	/* PMEM */
	DSRC(2, 0x02, 0, 0, 0, 0xf, 0, 0, 0, 0),	/* lvl_num N/A */
	DSRC(2, 0x02, 0, 0, 0, 5, 0, 0, 0, 0),		/* lvl_num 5 (unnamed in 6.1) */
	DSRC(2, 0x42, 0, 0, 0, 3, 1, 0, 0, 0),		/* remote L3 */
	DSRC(2, 0x02, 0, 0, 0, 3, 1, 0, 0, 1),		/* remote, hops 1 */
	DSRC(2, 0x82, 0, 0, 0, 0xd, 1, 0, 0, 2),	/* remote RAM, hops 2 */
	DSRC(2, 0x02, 0, 0, 0, 0xd, 1, 0, 0, 3),	/* hops 3 */
	DSRC(2, 0x02, 0, 0, 0, 0xd, 1, 0, 0, 4),	/* hops 4 */
	DSRC(2, 0x02, 0, 0, 0, 0xd, 0, 0, 0, 1),	/* hops without remote */
	DSRC(2, 0x02, 0, 0, 0, 0, 1, 0, 0, 0),		/* remote without lvl_num */
	DSRC(3, 0x03, 3, 3, 3, 0xf, 0, 0, 7, 0),	/* N/A plus more in every field */
	DSRC(0x1f, 0x3, 0x7, 3, 3, 0xf, 1, 3, 7, 4),	/* most bits */
	DSRC(0x1f, 0x3, 3, 3, 3, 0xf, 1, 3, 7, 4) | 0xffffull << 48,	/* reserved bits too */
};

static int mem(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = IP_SAMPLE_TYPE | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT |
			    PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
	struct perf_event_attr a = {
		.type = PERF_TYPE_RAW, .size = sizeof(a), .config = 0x1cd, .config1 = 3,
		.sample_period = 4000, .sample_type = st, .sample_id_all = 1, .precise_ip = 3,
		.exclude_kernel = 1,
	};
	uint64_t id = 66, time = 2000;
	if (pk_data_writer__add_attr(w, &a, "cpu/mem-loads,ldlat=30/P", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("mem", &err);
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (size_t s = 0; s < sizeof(mem_srcs) / sizeof(mem_srcs[0]); s++) {
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, (uint64_t)(uintptr_t)funcs[s % 3] + 3);
		put32(b, PID), put32(b, PID);
		put64(b, time++);
		put64(b, 0x7ffd1000 + 64 * s);		/* ADDR */
		put64(b, id);
		put64(b, 4000);
		put64(b, 30 + 7 * s);			/* WEIGHT */
		put64(b, mem_srcs[s]);			/* DATA_SRC */
		put64(b, 0x1234000 + 8 * s);		/* PHYS_ADDR */
		end_rec(b, at);
	}
	return 0;
}

static int lbr(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = IP_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(a), .config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 100003, .sample_type = st, .sample_id_all = 1, .exclude_kernel = 1,
		.exclude_callchain_user = 1,
		.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
				      PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
				      PERF_SAMPLE_BRANCH_HW_INDEX,
	};
	uint64_t id = 44, time = 2000;
	const uint64_t pad = (uint64_t)(uintptr_t)nodebug_pad, k = kernel_text();
	if (pk_data_writer__add_attr(w, &a, "cycles:u", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("lbr", &err);
	put_kernel_mmap(b, st, id, k, 0x1000000, k, "[kernel.kallsyms]_text");
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (int s = 0; s < 8; s++) {
		uint64_t f0 = (uint64_t)(uintptr_t)funcs[s % 3], f1 = (uint64_t)(uintptr_t)funcs[(s + 1) % 3];
		bool kernel = s % 4 == 3, no_user = s == 7;
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE,
				      kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
		put64(b, kernel ? k + 0x100 + (uint64_t)s : f0 + 2);
		put32(b, PID), put32(b, PID);
		put64(b, time++);
		put64(b, id);
		put64(b, 100003);
		if (no_user) {		/* a kernel chain only */
			put64(b, 3), put64(b, PERF_CONTEXT_KERNEL);
			put64(b, k + 0x107), put64(b, k + 0x200);
		} else if (kernel) {
			put64(b, 5), put64(b, PERF_CONTEXT_KERNEL);
			put64(b, k + 0x103), put64(b, k + 0x300);
			put64(b, PERF_CONTEXT_USER), put64(b, f0 + 6);
		} else {
			put64(b, 2), put64(b, PERF_CONTEXT_USER), put64(b, f0 + 2);
		}
		uint64_t nr = 1 + (uint64_t)(s % 3);	/* 1 to 3 calls */
		put64(b, nr);
		put64(b, (uint64_t)s);			/* hw_idx */
		for (uint64_t e = 0; e < nr; e++) {
			uint64_t from = e == 0 ? f1 + 5 : e == 1 ? pad + 17 * (uint64_t)s : f0 + 9;
			uint64_t to = e == 0 ? f0 + (uint64_t)s % 2 : e == 1 ? f1 : pad;
			put64(b, from), put64(b, to), put64(b, 0);
		}
		end_rec(b, at);
	}
	return 0;
}

static int old_layout(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = PERF_ATTR_SIZE_VER0,
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 250000, .sample_type = st,
		.disabled = 1, .inherit = 1, .mmap = 1, .comm = 1, .task = 1,
	};
	uint64_t id = 21, time = 2000;
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("old", &err);
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, PID), put32(b, PID);
	put_str(b, "mkdata");
	end_rec(b, at);
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4352];
	uintptr_t fa = (uintptr_t)funcs[0];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		int n = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s%n", &s, &e, &off, &n) != 3 || fa < s ||
		    fa >= e)
			continue;
		char *p = line + n;
		while (*p == ' ')
			p++;
		p[strcspn(p, "\n")] = 0;
		at = begin_rec(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
		put32(b, PID), put32(b, PID);
		put64(b, s), put64(b, e - s), put64(b, off);
		put_str(b, p);
		end_rec(b, at);
		break;
	}
	if (f)
		fclose(f);
	at = begin_rec(b, PERF_RECORD_FORK, 0);
	put32(b, PID), put32(b, PID), put32(b, PID + 1), put32(b, PID), put64(b, 1500);
	end_rec(b, at);
	for (int i = 0; i < 7; i++) {
		at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, (uint64_t)(uintptr_t)funcs[i % 3] + 1 + (uint64_t)i);
		put32(b, PID), put32(b, PID + (uint32_t)(i % 2));
		put64(b, time++);
		put64(b, 250000);
		end_rec(b, at);
	}
	at = begin_rec(b, PERF_RECORD_EXIT, 0);
	put32(b, PID), put32(b, PID), put32(b, PID + 1), put32(b, PID), put64(b, time);
	end_rec(b, at);
	return 0;
}

static int elf32(struct pk_data_writer *w, struct pk_buf *b, const char *path)
{
	Elf32_Ehdr eh;
	Elf32_Phdr ph;
	uint64_t id = 37, time = 2000;
	int fd = path ? open(path, O_RDONLY) : -1;
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS32)
		return die("MK_ELF32: not an ELF32 file", NULL);
	bool found = false;
	for (int i = 0; i < eh.e_phnum && !found; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * eh.e_phentsize) !=
		    (ssize_t)sizeof(ph))
			break;
		found = ph.p_type == PT_LOAD && (ph.p_flags & PF_X);
	}
	close(fd);
	if (!found)
		return die("MK_ELF32: no executable PT_LOAD", NULL);
	if (cpu_clock_file(w, id, "elf32"))
		return 1;
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, PID), put32(b, PID);
	put_str(b, "prog32");
	put_trailer(b, IP_SAMPLE_TYPE, 1000, id);
	end_rec(b, at);
	uint64_t start = ph.p_vaddr & ~0xfffu, len = (ph.p_vaddr + ph.p_memsz - start + 0xfff) & ~0xfffu;
	at = begin_rec(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(b, PID), put32(b, PID);
	put64(b, start), put64(b, len), put64(b, ph.p_offset & ~0xfffu);
	put64(b, 0), put64(b, 0), put64(b, 0);
	put32(b, 5), put32(b, 2);
	put_str(b, path);
	put_trailer(b, IP_SAMPLE_TYPE, 1001, id);
	end_rec(b, at);
	for (uint64_t a = ph.p_vaddr; a < ph.p_vaddr + ph.p_memsz; a += 4)
		put_ip_sample(b, a, time++, id);
	put_ip_sample(b, start + len + 0x10, time++, id);
	return 0;
}

/* this program's GNU build id (its PT_NOTE segments read from /proc/self/exe); size or 0 */
static size_t self_build_id(uint8_t id[20])
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	size_t got = 0;
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
		goto out;
	for (int i = 0; i < eh.e_phnum && !got; i++) {
		uint8_t note[1024];
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) !=
			    (ssize_t)sizeof(ph) || ph.p_type != PT_NOTE || ph.p_filesz > sizeof(note) ||
		    pread(fd, note, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
			continue;
		for (size_t at = 0; at + sizeof(Elf64_Nhdr) <= ph.p_filesz;) {
			Elf64_Nhdr nh;
			memcpy(&nh, note + at, sizeof(nh));
			size_t name = at + sizeof(nh), desc = name + ((nh.n_namesz + 3) & ~3u);
			if (desc + nh.n_descsz > ph.p_filesz)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz <= 20 &&
			    !memcmp(note + name, "GNU", 4)) {
				memcpy(id, note + desc, nh.n_descsz);
				got = nh.n_descsz;
				break;
			}
			at = desc + ((nh.n_descsz + 3) & ~3u);
		}
	}
out:
	if (fd >= 0)
		close(fd);
	return got;
}

static int mmap2_build_id(struct pk_data_writer *w, struct pk_buf *b, bool wrong)
{
	uint64_t id = 38, time = 2000;
	uint8_t bid[20] = { 0 };
	size_t n = self_build_id(bid);
	if (!n)
		return die("no build id in this program", NULL);
	if (wrong)
		bid[0] ^= 0xff;
	if (cpu_clock_file(w, id, "mmap2bid"))
		return 1;
	size_t at = begin_rec(b, PERF_RECORD_COMM, 0);
	put32(b, PID), put32(b, PID);
	put_str(b, "mkdata");
	put_trailer(b, IP_SAMPLE_TYPE, 1000, id);
	end_rec(b, at);
	/* put_mmap_of's record, then its maj..ino_generation replaced by the build id */
	size_t mm = b->len;
	if (put_mmap_of(b, IP_SAMPLE_TYPE, id, (uintptr_t)funcs[0], 0, NULL))
		return die("maps", NULL);
	uint16_t misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID;
	memcpy(b->data + mm + 4, &misc, 2);
	uint8_t f[24] = { (uint8_t)n };
	memcpy(f + 4, bid, n);
	memcpy(b->data + mm + 8 + 8 + 24, f, sizeof(f));
	for (int i = 0; i < 6; i++)
		put_ip_sample(b, (uint64_t)(uintptr_t)funcs[i % 3] + 1 + (uint64_t)i, time++, id);
	return 0;
}

static int attr_sized(struct pk_data_writer *w, struct pk_buf *b, uint32_t size)
{
	struct pk_error err = { 0 };
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = size, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 250000, .sample_type = IP_SAMPLE_TYPE, .sample_id_all = 1,
		.disabled = 1, .inherit = 1, .exclude_hv = 1, .mmap = 1, .comm = 1,
	};
	uint64_t id = 31, id2 = 32, time = 2000;
	if (pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err))
		return die("attr", &err);
	a.config = PERF_COUNT_SW_TASK_CLOCK, a.mmap = 0, a.comm = 0;
	if (pk_data_writer__add_attr(w, &a, "task-clock", &id2, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("attr", &err);
	if (put_sideband(b, IP_SAMPLE_TYPE, id))
		return die("maps", NULL);
	for (int i = 0; i < 9; i++)
		put_ip_sample(b, (uint64_t)(uintptr_t)funcs[i % 3] + 1 + (uint64_t)i, time++,
			      i % 2 ? id2 : id);
	return 0;
}

/* bytes of a string list (u32 nr, then u32 len + string each) at p, or 0 */
static size_t str_list_len(const uint8_t *p, size_t left)
{
	uint32_t nr, len;
	size_t at = 4;
	if (left < 4)
		return 0;
	memcpy(&nr, p, 4);
	for (uint32_t i = 0; i < nr; i++) {
		if (left - at < 4)
			return 0;
		memcpy(&len, p + at, 4);
		at += 4 + len;
		if (at > left)
			return 0;
	}
	return at;
}

/*
 * The finished file's CPU_TOPOLOGY section (feature bit 13) made shorter in
 * the feature table: to the sibling lists (before_ids) or to the core and
 * socket ids (no die lists), as older perf versions wrote it.
 */
static int topo_cut(int fd, bool before_ids)
{
	uint64_t h[13], sec[2];
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) || !(h[9] >> 13 & 1))
		return -1;
	uint64_t at = h[5] + h[6];		/* data offset + size: the feature table */
	for (int bit = 0; bit < 13; bit++)
		at += (h[9] >> bit & 1) * 16;
	if (pread(fd, sec, 16, (off_t)at) != 16)
		return -1;
	uint8_t *p = malloc(sec[1]);
	if (!p || pread(fd, p, sec[1], (off_t)sec[0]) != (ssize_t)sec[1]) {
		free(p);
		return -1;
	}
	size_t n = str_list_len(p, sec[1]), m = n ? str_list_len(p + n, sec[1] - n) : 0;
	free(p);
	if (!m)
		return -1;
	/* the ids: one u32 core id and one u32 socket id per available cpu */
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	sec[1] = before_ids ? n + m : n + m + 8 * (uint64_t)cpus;
	return pwrite(fd, sec, 16, (off_t)at) == 16 ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: report_mkdata weights|topdown|topdown2|a2l_after|a2l_fresh|late|modules|aux|brstack|mem|lbr|old|topo_old|topo_nodie|elf32|mmap2bid|mmap2bad|attrSIZE OUT.data\n");
		return 2;
	}
	int fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return die(argv[2], NULL);
	struct pk_error err = { 0 };
	struct pk_data_writer *w;
	struct pk_data_writer_opts o = { .sz = sizeof(o), .argc = argc, .argv = (const char *const *)argv };
	if (pk_data_writer__new(&w, fd, &o, &err))
		return die("writer", &err);
	struct pk_buf b = { 0 };
	int rc;
	if (!strcmp(argv[1], "weights"))
		rc = weights(w, &b);
	else if (!strcmp(argv[1], "topdown") || !strcmp(argv[1], "topdown2"))
		rc = topdown(w, &b, !strcmp(argv[1], "topdown2"));
	else if (!strcmp(argv[1], "a2l_after") || !strcmp(argv[1], "a2l_fresh"))
		rc = a2l(w, &b, !strcmp(argv[1], "a2l_after"));
	else if (!strcmp(argv[1], "late"))
		rc = late(w, &b);
	else if (!strcmp(argv[1], "modules"))
		rc = modules(w, &b);
	else if (!strcmp(argv[1], "aux"))
		rc = aux(w, &b);
	else if (!strcmp(argv[1], "brstack"))
		rc = brstack(w, &b);
	else if (!strcmp(argv[1], "mem"))
		rc = mem(w, &b);
	else if (!strcmp(argv[1], "old"))
		rc = old_layout(w, &b);
	else if (!strcmp(argv[1], "lbr"))
		rc = lbr(w, &b);
	else if (!strncmp(argv[1], "mmap2b", 6))
		rc = mmap2_build_id(w, &b, !strcmp(argv[1], "mmap2bad"));
	else if (!strcmp(argv[1], "elf32"))
		rc = elf32(w, &b, getenv("MK_ELF32"));
	else if (!strncmp(argv[1], "topo_", 5))
		rc = attr_sized(w, &b, 128);
	else if (!strncmp(argv[1], "attr", 4))
		rc = attr_sized(w, &b, (uint32_t)atoi(argv[1] + 4));
	else
		rc = die("unknown kind", NULL);
	if (!rc && (pk_data_writer__write(w, b.data, b.len, &err) || pk_data_writer__finish(w, &err)))
		rc = die("write", &err);
	if (!rc && !strncmp(argv[1], "topo_", 5) && topo_cut(fd, !strcmp(argv[1], "topo_old")))
		rc = die("CPU_TOPOLOGY", NULL);
	pk_data_writer__free(w);
	pk_buf__free(&b);
	close(fd);
	return rc;
}
#endif
