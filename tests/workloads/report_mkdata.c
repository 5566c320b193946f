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
 *   vmlinux   kernel samples at PMUKIT_KSAMPLES' offsets (hex, comma list) in a
 *             kernel map at PMUKIT_KTEXT, for a vmlinux the test makes, and
 *             one in this program (annotate.sh, --vmlinux);
 *   aux       an Arm SPE recording's AUX records (AUXTRACE_INFO, AUX,
 *             AUXTRACE) beside cpu-clock samples (foreign_files.sh).
 *   brstack   a cycles:u event with PERF_SAMPLE_BRANCH_STACK (LBR-like): samples whose
 *             branch entries jump between td_func1..3 and to an address outside
 *             every map, with every flag (mispred, predicted, in_tx, abort),
 *             cycles and branch types, for script -F brstack,brstacksym and -D.
 *   (the kinds below, to attrSIZE, are in report_mkdata_old.h; armv7, armv7nog, perf3
 *   and mmap2old in report_mkdata_foreign.h; ann_td, ann_w and ann_ws,
 *   annotate's, in report_mkdata_annotate.h)
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
 *   mixchain  callchains whose siblings perf does not order (report_mkdata_chain.h).
 *   mixsym    entries perf's --sort sym does not order, a second entry for one address (same).
 *   mmap2bid  cpu-clock samples in this program, its MMAP2 in the build-id
 *             layout (PERF_RECORD_MISC_MMAP_BUILD_ID: build_id_size and the
 *             build id where maj/min/ino/ino_generation were, perf 5.12+
 *             --buildid-mmap); mmap2bad: the same with a wrong build id.
 *   nodesc    the attr128 file without EVENT_DESC (events named from their
 *             attrs), nofeat without any feature but BUILD_ID (perf 2.6.3x).
 *   attrSIZE  cpu-clock and task-clock samples whose perf_event_attr is SIZE bytes
 *             (attr64 .. attr136: PERF_ATTR_SIZE_VER0 .. VER8), as older perf
 *             versions wrote them: the file's attr_size is SIZE.
 *
 *   report_mkdata weights|topdown|ann_td|ann_w|ann_ws|topdown2|a2l_after|a2l_fresh|late|modules|aux|brstack|mem|lbr|old|perf3|perf2|perf1|oldbid|armv7|armv7nog|mmap2old|mmap2v313|topo_old|topo_nodie|elf32|mmap2bid|mmap2bad|nodesc|nofeat|mixchain|mixsym|attrSIZE OUT.data
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
 * Kernel samples for a vmlinux of the test's own making: the kernel's map
 * ("[kernel.kallsyms]_text" at PMUKIT_KTEXT, pgoff the same, as perf records
 * it), a sample at each offset from it of PMUKIT_KSAMPLES (hexadecimal, comma
 * separated), and one in this program.
 */
static int kvmlinux(struct pk_data_writer *w, struct pk_buf *b)
{
	const uint64_t st = IP_SAMPLE_TYPE;
	uint64_t id = 97, time = 2000;
	const char *tx = getenv("PMUKIT_KTEXT"), *list = getenv("PMUKIT_KSAMPLES");
	if (!tx || !list) {
		fprintf(stderr, "report_mkdata: vmlinux: PMUKIT_KTEXT and PMUKIT_KSAMPLES\n");
		return 1;
	}
	uint64_t text = strtoull(tx, NULL, 16);
	if (cpu_clock_file(w, id, "vmlinux"))
		return 1;
	put_kernel_mmap(b, st, id, text, 0x1000000, text, "[kernel.kallsyms]_text");
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (const char *p = list; *p;) {
		char *end;
		uint64_t ip = strtoull(p, &end, 16);
		if (end == p)
			break;
		put_kernel_sample(b, text + ip, time++, id);
		p = *end == ',' ? end + 1 : end;
	}
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

#include "report_mkdata_old.h"
#include "report_mkdata_foreign.h"
#include "report_mkdata_annotate.h"
#include "report_mkdata_chain.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: report_mkdata weights|topdown|ann_td|ann_w|ann_ws|topdown2|a2l_after|a2l_fresh|late|modules|aux|brstack|mem|lbr|old|perf3|perf2|perf1|oldbid|armv7|armv7nog|mmap2old|mmap2v313|topo_old|topo_nodie|elf32|mmap2bid|mmap2bad|nodesc|nofeat|mixchain|mixsym|attrSIZE OUT.data\n");
		return 2;
	}
	int fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return die(argv[2], NULL);
	struct pk_error err = { 0 };
	struct pk_data_writer *w;
	struct pk_data_writer_opts o = { .sz = sizeof(o), .argc = argc, .argv = (const char *const *)argv };
	if (!strncmp(argv[1], "perf", 4))
		o.version = "3.16.7";
	if (pk_data_writer__new(&w, fd, &o, &err))
		return die("writer", &err);
	struct pk_buf b = { 0 };
	int rc;
	if (!strcmp(argv[1], "weights"))
		rc = weights(w, &b);
	else if (!strcmp(argv[1], "ann_td"))
		rc = ann_td(w, &b);
	else if (!strcmp(argv[1], "ann_w") || !strcmp(argv[1], "ann_ws"))
		rc = ann_w(w, &b, !strcmp(argv[1], "ann_ws"));
	else if (!strcmp(argv[1], "topdown") || !strcmp(argv[1], "topdown2"))
		rc = topdown(w, &b, !strcmp(argv[1], "topdown2"));
	else if (!strcmp(argv[1], "a2l_after") || !strcmp(argv[1], "a2l_fresh"))
		rc = a2l(w, &b, !strcmp(argv[1], "a2l_after"));
	else if (!strcmp(argv[1], "late"))
		rc = late(w, &b);
	else if (!strcmp(argv[1], "modules"))
		rc = modules(w, &b);
	else if (!strcmp(argv[1], "vmlinux"))
		rc = kvmlinux(w, &b);
	else if (!strcmp(argv[1], "aux"))
		rc = aux(w, &b);
	else if (!strcmp(argv[1], "brstack"))
		rc = brstack(w, &b);
	else if (!strcmp(argv[1], "mem"))
		rc = mem(w, &b);
	else if (!strcmp(argv[1], "oldbid") || !strcmp(argv[1], "perf1"))
		rc = old_build_ids(w, &b);
	else if (!strcmp(argv[1], "old") || !strncmp(argv[1], "perf", 4))
		rc = old_layout(w, &b);
	else if (!strncmp(argv[1], "armv7", 5))
		rc = armv7(w, &b, !strcmp(argv[1], "armv7"));
	else if (!strcmp(argv[1], "mmap2old") || !strcmp(argv[1], "mmap2v313"))
		rc = mmap2_old(w, &b, !strcmp(argv[1], "mmap2v313"));
	else if (!strcmp(argv[1], "mixchain"))
		rc = mixchain(w, &b);
	else if (!strcmp(argv[1], "mixsym"))
		rc = mixsym(w, &b);
	else if (!strcmp(argv[1], "lbr"))
		rc = lbr(w, &b);
	else if (!strncmp(argv[1], "mmap2b", 6))
		rc = mmap2_build_id(w, &b, !strcmp(argv[1], "mmap2bad"));
	else if (!strcmp(argv[1], "elf32"))
		rc = elf32(w, &b, getenv("MK_ELF32"));
	else if (!strncmp(argv[1], "topo_", 5) || !strcmp(argv[1], "nodesc") ||
		 !strcmp(argv[1], "nofeat"))
		rc = attr_sized(w, &b, 128);
	else if (!strncmp(argv[1], "attr", 4))
		rc = attr_sized(w, &b, (uint32_t)atoi(argv[1] + 4));
	else
		rc = die("unknown kind", NULL);
	if (!rc && (pk_data_writer__write(w, b.data, b.len, &err) || pk_data_writer__finish(w, &err)))
		rc = die("write", &err);
	if (!rc && !strncmp(argv[1], "topo_", 5) && topo_cut(fd, !strcmp(argv[1], "topo_old")))
		rc = die("CPU_TOPOLOGY", NULL);
	if (!rc && !strcmp(argv[1], "nodesc") && feat_drop(fd, UINT64_C(1) << 12))
		rc = die("EVENT_DESC", NULL);
	if (!rc && !strcmp(argv[1], "nofeat") && feat_drop(fd, ~UINT64_C(0) << 3))
		rc = die("features", NULL);
	if (!rc && !strncmp(argv[1], "perf", 4) && (topo_cut(fd, true) || feat_drop(fd, ~UINT64_C(0) << 18)))
		rc = die("perf 3.x features", NULL);
	if (!rc && (!strcmp(argv[1], "oldbid") || !strcmp(argv[1], "perf1")) && build_id_unpid(fd))
		rc = die("BUILD_ID", NULL);
	if (!rc && !strcmp(argv[1], "perf1") && (feat_drop(fd, ~UINT64_C(0) << 3) ||
						 pwrite(fd, "PERFFILE", 8, 0) != 8))
		rc = die("PERFFILE", NULL);
	if (!rc && !strcmp(argv[1], "perf2") && hdr_no_features(fd))
		rc = die("header size", NULL);
	if (!rc && !strncmp(argv[1], "armv7", 5) && feat_string(fd, 6, "armv7l"))
		rc = die("ARCH", NULL);
	pk_data_writer__free(w);
	pk_buf__free(&b);
	close(fd);
	return rc;
}
#endif
