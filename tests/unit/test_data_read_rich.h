/* SPDX-License-Identifier: MIT */
/*
 * test_data_read_rich.h — a perf.data built for the reader's tests with
 * every sample_type bit perf 6.12 writes (attr 0), a smaller attr (1), every
 * kernel side-band record with a sample_id_all trailer, the tool records,
 * feature sections with known contents; samples out of time order between
 * two FINISHED_ROUNDs. Values derive from the record number, so that tests
 * check each decoded field against what was written.
 */
#ifndef TEST_DATA_READ_RICH_H
#define TEST_DATA_READ_RICH_H

#include "test_data_read.h"

/* ---- a file with every sample bit and record type -------------------------------------- */

#define RICH_T0                                                                                \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |         \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |          \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |      \
	 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |            \
	 PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |           \
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_AUX | PERF_SAMPLE_CGROUP |  \
	 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)
#define RICH_T1                                                                                \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |         \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_WEIGHT)
#define RICH_RF0                                                                               \
	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	 PERF_FORMAT_TOTAL_TIME_RUNNING)
#define RICH_RF1 (PERF_FORMAT_ID | PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define RICH_ID0 1001
#define RICH_ID1 2002
#define RICH_BR_COUNTERS (1ULL << 19)

/* the sample_id_all trailer of rich attrs (IDENTIFIER|TID|TIME|ID|STREAM_ID|CPU of attr 0) */
TDR void rich_trailer(struct rb *r, uint64_t time)
{
	rb_u32x2(r, 77, 78);	/* TID */
	rb_u64(r, time);	/* TIME */
	rb_u64(r, RICH_ID0);	/* ID */
	rb_u64(r, 5555);	/* STREAM_ID */
	rb_u32x2(r, 1, 0);	/* CPU */
	rb_u64(r, RICH_ID0);	/* IDENTIFIER */
}

/* Sample number i of attr 0: every field derived from i. */
TDR const void *rich_sample0(struct rb *r, uint64_t i, uint64_t time)
{
	rb_start(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(r, RICH_ID0);			/* IDENTIFIER */
	rb_u64(r, 0x400000 + i);		/* IP */
	rb_u32x2(r, 100 + (uint32_t)i, 200 + (uint32_t)i);	/* TID */
	rb_u64(r, time);			/* TIME */
	rb_u64(r, 0xdead0000 + i);		/* ADDR */
	rb_u64(r, RICH_ID0);			/* ID */
	rb_u64(r, 5555);			/* STREAM_ID */
	rb_u32x2(r, (uint32_t)(i % 2), 0);	/* CPU */
	rb_u64(r, 1000 + i);			/* PERIOD */
	/* READ, group of 2: nr, enabled, running, {value, id, lost} x 2 */
	rb_u64(r, 2);
	rb_u64(r, 10 * i + 1);
	rb_u64(r, 10 * i + 2);
	rb_u64(r, 300 + i);
	rb_u64(r, RICH_ID0);
	rb_u64(r, 1);
	rb_u64(r, 400 + i);
	rb_u64(r, RICH_ID1);
	rb_u64(r, 2);
	/* CALLCHAIN: 4 entries */
	rb_u64(r, 4);
	rb_u64(r, (uint64_t)PERF_CONTEXT_USER);
	rb_u64(r, 0x400000 + i);
	rb_u64(r, 0x401000 + i);
	rb_u64(r, 0x402000);
	/* RAW: 12 bytes (4 + 12 = 16) */
	rb_u32(r, 12);
	for (int k = 0; k < 12; k++)
		r->b[r->len++] = (uint8_t)(0xa0 + k + i);
	/* BRANCH_STACK: nr 2, hw_idx, entries, counters */
	rb_u64(r, 2);
	rb_u64(r, 0x77 + i);
	for (uint64_t k = 0; k < 2; k++) {
		struct perf_branch_entry e = { .from = 0x500000 + k, .to = 0x600000 + k + i };
		e.mispred = k & 1;
		e.predicted = !(k & 1);
		e.in_tx = 1;
		e.abort = 0;
		e.cycles = (uint16_t)(1234 + k);
		e.type = 5;
		e.spec = 2;
		e.new_type = 3;
		e.priv = 6;
		rb_put(r, &e, sizeof(e));
	}
	rb_u64(r, 0x11);
	rb_u64(r, 0x22);
	/* REGS_USER: abi 2, 3 regs (mask 0x7) */
	rb_u64(r, PERF_SAMPLE_REGS_ABI_64);
	rb_u64(r, 0x1110 + i);
	rb_u64(r, 0x2220);
	rb_u64(r, 0x3330);
	/* STACK_USER: 16 bytes, dyn 12 */
	rb_u64(r, 16);
	for (int k = 0; k < 16; k++)
		r->b[r->len++] = (uint8_t)(k * 7 + i);
	rb_u64(r, 12);
	/* WEIGHT_STRUCT: var1 0x12345, var2 0x66, var3 0x77 */
	rb_u64(r, 0x12345ULL | (0x66ULL << 32) | (0x77ULL << 48));
	rb_u64(r, 0x1e05080021ULL);		/* DATA_SRC */
	rb_u64(r, 0x3);				/* TRANSACTION */
	rb_u64(r, PERF_SAMPLE_REGS_ABI_64);	/* REGS_INTR: 2 regs */
	rb_u64(r, 0xaaa0);
	rb_u64(r, 0xbbb0 + i);
	rb_u64(r, 0xfeed000 + i);		/* PHYS_ADDR */
	rb_u64(r, 42);				/* CGROUP */
	rb_u64(r, 4096);			/* DATA_PAGE_SIZE */
	rb_u64(r, 2 << 20);			/* CODE_PAGE_SIZE */
	rb_u64(r, 8);				/* AUX: 8 bytes */
	rb_u64(r, 0x0102030405060708ULL);
	return rb_end(r);
}

TDR const void *rich_sample1(struct rb *r, uint64_t i, uint64_t time)
{
	rb_start(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	rb_u64(r, RICH_ID1);
	rb_u64(r, 0xffffffff81000000ULL + i);
	rb_u32x2(r, 300, 301);
	rb_u64(r, time);
	rb_u32x2(r, 1, 0);
	rb_u64(r, 1);
	/* READ (not group): value, running, id, lost */
	rb_u64(r, 999 + i);
	rb_u64(r, 50);
	rb_u64(r, RICH_ID1);
	rb_u64(r, 3);
	rb_u64(r, 321);				/* WEIGHT */
	return rb_end(r);
}

/* Attrs: 0 with everything, 1 smaller; sample_id_all. */
TDR void rich_attrs(struct syn *s, uint32_t attr_size, const uint8_t *extra)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = 0 };
	a.sample_period = 1000;
	a.sample_type = RICH_T0;
	a.read_format = RICH_RF0;
	a.sample_id_all = 1;
	a.precise_ip = 1;
	a.exclude_kernel = 1;
	a.mmap2 = 1;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX |
			       RICH_BR_COUNTERS;
	a.sample_regs_user = 0x7;
	a.sample_regs_intr = 0x180;
	a.sample_stack_user = 16;
	a.clockid = 1;
	a.use_clockid = 1;
	a.aux_sample_size = 8;
	a.sig_data = 0x5151;
	uint64_t id0 = RICH_ID0, id1 = RICH_ID1;
	syn_attr(s, &a, attr_size, extra, &id0, 1);
	struct perf_event_attr b = { .type = PERF_TYPE_SOFTWARE, .config = 2 };
	b.sample_period = 1;
	b.sample_type = RICH_T1;
	b.read_format = RICH_RF1;
	b.sample_id_all = 1;
	b.precise_ip = 2;
	syn_attr(s, &b, attr_size, extra, &id1, 1);
}

/* Features with known contents. */
TDR void rich_features(struct syn *s)
{
	struct pk_buf f = { 0 };
	const struct {
		unsigned feat;
		const char *str;
	} strs[] = { { PK_FEAT_HOSTNAME, "host-a" },   { PK_FEAT_OSRELEASE, "6.1.0-test" },
		     { PK_FEAT_VERSION, "6.1.187" },  { PK_FEAT_ARCH, "x86_64" },
		     { PK_FEAT_CPUDESC, "Test CPU" }, { PK_FEAT_CPUID, "GenuineIntel,6,85,4" } };
	for (size_t i = 0; i < 6; i++) {
		f.len = 0;
		fs_str(&f, strs[i].str);
		syn_feat(s, strs[i].feat, f.data, f.len);
	}
	f.len = 0;
	pk_buf__append_u32(&f, 4);	/* avail */
	pk_buf__append_u32(&f, 2);	/* online */
	syn_feat(s, PK_FEAT_NRCPUS, f.data, f.len);
	uint64_t mem = 16384000;
	syn_feat(s, PK_FEAT_TOTAL_MEM, &mem, 8);
	f.len = 0;
	pk_buf__append_u32(&f, 3);
	fs_str(&f, "perf");
	fs_str(&f, "record");
	fs_str(&f, "-g");
	syn_feat(s, PK_FEAT_CMDLINE, f.data, f.len);
	/* EVENT_DESC: 2 events, attr size 128 */
	f.len = 0;
	pk_buf__append_u32(&f, 2);
	pk_buf__append_u32(&f, 128);
	const char *names[] = { "cycles:pp", "page-faults" };
	uint64_t ids[] = { RICH_ID0, RICH_ID1 };
	for (int i = 0; i < 2; i++) {
		uint8_t attr[128] = { 0 };
		memcpy(attr, s->attrs[i].bytes, 128);
		pk_buf__append(&f, attr, 128);
		pk_buf__append_u32(&f, 1);
		fs_str(&f, names[i]);
		pk_buf__append(&f, &ids[i], 8);
	}
	syn_feat(s, PK_FEAT_EVENT_DESC, f.data, f.len);
	/* CPU_TOPOLOGY with ids and dies */
	f.len = 0;
	pk_buf__append_u32(&f, 1);
	fs_str(&f, "0-3");
	pk_buf__append_u32(&f, 2);
	fs_str(&f, "0-1");
	fs_str(&f, "2-3");
	for (uint32_t c = 0; c < 4; c++) {
		pk_buf__append_u32(&f, c / 2);	/* core */
		pk_buf__append_u32(&f, 0);	/* socket */
	}
	pk_buf__append_u32(&f, 1);
	fs_str(&f, "0-3");
	for (uint32_t c = 0; c < 4; c++)
		pk_buf__append_u32(&f, 0);
	syn_feat(s, PK_FEAT_CPU_TOPOLOGY, f.data, f.len);
	f.len = 0;
	pk_buf__append_u32(&f, 2);
	pk_buf__append_u32(&f, 4);
	fs_str(&f, "cpu");
	pk_buf__append_u32(&f, 1);
	fs_str(&f, "software");
	syn_feat(s, PK_FEAT_PMU_MAPPINGS, f.data, f.len);
	f.len = 0;
	pk_buf__append_u32(&f, 1);
	fs_str(&f, "{cycles:pp,page-faults}");
	pk_buf__append_u32(&f, 0);
	pk_buf__append_u32(&f, 2);
	syn_feat(s, PK_FEAT_GROUP_DESC, f.data, f.len);
	uint64_t res = 1;
	syn_feat(s, PK_FEAT_CLOCKID, &res, 8);
	f.len = 0;
	pk_buf__append_u32(&f, 1);
	pk_buf__append_u32(&f, 1);	/* CLOCK_MONOTONIC */
	uint64_t tod = 1700000000000000000ULL, cl = 123456789;
	pk_buf__append(&f, &tod, 8);
	pk_buf__append(&f, &cl, 8);
	syn_feat(s, PK_FEAT_CLOCK_DATA, f.data, f.len);
	f.len = 0;
	uint32_t comp[5] = { 0, 1, 3, 4, 528384 };
	pk_buf__append(&f, comp, sizeof(comp));
	syn_feat(s, PK_FEAT_COMPRESSED, f.data, f.len);
	uint64_t st[2] = { 1000, 9000000 };
	syn_feat(s, PK_FEAT_SAMPLE_TIME, st, 16);
	/* BUILD_ID: two records */
	f.len = 0;
	struct rb r;
	rb_start(&r, PK_RECORD_HEADER_BUILD_ID, PERF_RECORD_MISC_KERNEL);
	rb_u32(&r, (uint32_t)-1);
	uint8_t id[24] = { 0 };
	for (int k = 0; k < 20; k++)
		id[k] = (uint8_t)(k + 1);
	rb_put(&r, id, 24);
	rb_str(&r, "[kernel.kallsyms]");
	pk_buf__append(&f, rb_end(&r), r.len);
	rb_start(&r, PK_RECORD_HEADER_BUILD_ID,
		 PERF_RECORD_MISC_USER | PK_RECORD_MISC_BUILD_ID_SIZE);
	rb_u32(&r, 77);
	memset(id, 0xab, 24);
	id[20] = 16;	/* size */
	rb_put(&r, id, 24);
	rb_str(&r, "/usr/lib/libfoo.so");
	pk_buf__append(&f, rb_end(&r), r.len);
	syn_feat(s, PK_FEAT_BUILD_ID, f.data, f.len);
	pk_buf__free(&f);
}

/* Records of every kernel type (attr 0's trailer) and the tool records. */
TDR void rich_records(struct pk_buf *out)
{
	struct rb r;
	uint64_t t = 1000;
#define ADD() pk_buf__append(out, rb_end(&r), r.len)
	rb_start(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rb_u32x2(&r, 77, 78);
	rb_str(&r, "worker");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 0x7000);
	rb_u64(&r, 0x1000);
	rb_u64(&r, 0x200);
	rb_str(&r, "/tmp/data.bin");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 0x400000);
	rb_u64(&r, 0x10000);
	rb_u64(&r, 0);
	rb_u32x2(&r, 0xfe, 1);
	rb_u64(&r, 424242);
	rb_u64(&r, 7);
	rb_u32x2(&r, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	rb_str(&r, "/usr/bin/app");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 0x500000);
	rb_u64(&r, 0x20000);
	rb_u64(&r, 0x1000);
	uint8_t bid[24] = { 20, 0, 0, 0 };
	for (int k = 0; k < 20; k++)
		bid[4 + k] = (uint8_t)(0xc0 + k);
	rb_put(&r, bid, 24);
	rb_u32x2(&r, PROT_READ, MAP_SHARED);
	rb_str(&r, "/usr/lib/libbar.so");
	rich_trailer(&r, t++);
	ADD();
	static const uint32_t tasks[] = { PERF_RECORD_FORK, PERF_RECORD_EXIT };
	for (int k = 0; k < 2; k++) {
		rb_start(&r, tasks[k], 0);
		rb_u32x2(&r, 77, 70);
		rb_u32x2(&r, 79, 71);
		rb_u64(&r, t);
		rich_trailer(&r, t++);
		ADD();
	}
	rb_start(&r, PERF_RECORD_LOST, 0);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 17);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_LOST_SAMPLES, 0);
	rb_u64(&r, 19);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_THROTTLE, 0);
	rb_u64(&r, t);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 5555);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_UNTHROTTLE, 0);
	rb_u64(&r, t);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 5555);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_SWITCH_CPU_WIDE,
		 PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	rb_u32x2(&r, 500, 501);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_KSYMBOL, 0);
	rb_u64(&r, 0xffffffffa0000000ULL);
	rb_u32(&r, 0x80);
	rb_u16(&r, 1);
	rb_u16(&r, 0);
	rb_str(&r, "bpf_prog_x");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_BPF_EVENT, 0);
	rb_u16(&r, 1);
	rb_u16(&r, 0);
	rb_u32(&r, 33);
	rb_u64(&r, 0x0807060504030201ULL);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_TEXT_POKE, 0);
	rb_u64(&r, 0xffffffff81001000ULL);
	rb_u16(&r, 2);
	rb_u16(&r, 3);
	uint8_t poke[5] = { 1, 2, 3, 4, 5 };
	rb_put(&r, poke, 5);
	rb_pad8(&r);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_CGROUP, 0);
	rb_u64(&r, 42);
	rb_str(&r, "/system.slice");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_NAMESPACES, 0);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 2);
	rb_u64(&r, 4);
	rb_u64(&r, 0xf0000001);
	rb_u64(&r, 4);
	rb_u64(&r, 0xf0000002);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_READ, 0);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 2);	/* group read of attr 0: nr, enabled, running, 2 x {value, id, lost} */
	rb_u64(&r, 10);
	rb_u64(&r, 9);
	rb_u64(&r, 111);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 0);
	rb_u64(&r, 222);
	rb_u64(&r, RICH_ID1);
	rb_u64(&r, 0);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_AUX, 0);
	rb_u64(&r, 0x1000);
	rb_u64(&r, 0x2000);
	rb_u64(&r, PERF_AUX_FLAG_TRUNCATED);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_ITRACE_START, 0);
	rb_u32x2(&r, 77, 78);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_AUX_OUTPUT_HW_ID, 0);
	rb_u64(&r, 0x99);
	rich_trailer(&r, t++);
	ADD();
	/* tool records */
	rb_start(&r, PK_RECORD_ID_INDEX, 0);
	rb_u64(&r, 2);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 0);
	rb_u64(&r, 1);
	rb_u64(&r, 78);
	rb_u64(&r, RICH_ID1);
	rb_u64(&r, 0);
	rb_u64(&r, 1);
	rb_u64(&r, 78);
	ADD();
	rb_start(&r, PK_RECORD_TIME_CONV, 0);
	rb_u64(&r, 31);
	rb_u64(&r, 1000);
	rb_u64(&r, 5000);
	rb_u64(&r, 123);
	rb_u64(&r, 0xffff);
	uint8_t caps[8] = { 1, 1 };
	rb_put(&r, caps, 8);
	ADD();
	rb_start(&r, PK_RECORD_THREAD_MAP, 0);
	rb_u64(&r, 2);
	char comm[16] = "main";
	rb_u64(&r, 77);
	rb_put(&r, comm, 16);
	rb_u64(&r, 78);
	strcpy(comm, "worker");
	rb_put(&r, comm, 16);
	ADD();
	/* CPU maps: list {0, 2, 65535 (any)}, mask u64 {1, 3, 64}, range 4-6 with any */
	rb_start(&r, PK_RECORD_CPU_MAP, 0);
	rb_u16(&r, 0);
	rb_u16(&r, 3);
	rb_u16(&r, 0);
	rb_u16(&r, 2);
	rb_u16(&r, 0xffff);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_CPU_MAP, 0);
	rb_u16(&r, 1);
	rb_u16(&r, 2);
	rb_u16(&r, 8);
	rb_u32(&r, 0);
	rb_u64(&r, 0xa);
	rb_u64(&r, 0x1);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_CPU_MAP, 0);
	rb_u16(&r, 2);
	r.b[r.len++] = 1;
	r.b[r.len++] = 0;
	rb_u16(&r, 4);
	rb_u16(&r, 6);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_CPU_MAP, 0);	/* mask of u32s: {0, 33} */
	rb_u16(&r, 1);
	rb_u16(&r, 2);
	rb_u16(&r, 4);
	rb_u32(&r, 0x1);
	rb_u32(&r, 0x2);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&r, 0);
	rb_u64(&r, RICH_ID1);
	rb_str(&r, "faults");
	ADD();
	rb_start(&r, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&r, 1);
	rb_u64(&r, RICH_ID1);
	double sc = 0.5;
	rb_put(&r, &sc, 8);
	ADD();
	rb_start(&r, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&r, 3);
	rb_u64(&r, RICH_ID1);
	rb_u16(&r, 2);
	r.b[r.len++] = 0;
	r.b[r.len++] = 0;
	rb_u16(&r, 0);
	rb_u16(&r, 1);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_HEADER_BUILD_ID, PERF_RECORD_MISC_USER);
	rb_u32(&r, 77);
	uint8_t id[24] = { 0 };
	memset(id, 0x5a, 20);
	rb_put(&r, id, 24);
	rb_str(&r, "/usr/bin/app");
	ADD();
	rb_start(&r, PK_RECORD_AUXTRACE_INFO, 0);
	rb_u32x2(&r, 3, 0);
	rb_u64(&r, 0x1234);
	ADD();
	rb_start(&r, PK_RECORD_AUXTRACE, 0);	/* 16 bytes of trace data follow */
	rb_u64(&r, 16);
	rb_u64(&r, 0x100);
	rb_u64(&r, 0x77);
	rb_u32x2(&r, 0, 78);
	rb_u32x2(&r, 1, 0);
	ADD();
	uint8_t trace[16];
	memset(trace, 0xee, 16);
	pk_buf__append(out, trace, 16);
	rb_start(&r, PK_RECORD_STAT_ROUND, 0);
	rb_u64(&r, 1);
	rb_u64(&r, 12345);
	ADD();
	rb_start(&r, PK_RECORD_FINISHED_INIT, 0);
	ADD();
	rb_start(&r, PK_RECORD_FINISHED_ROUND, 0);
	ADD();
	/* samples: 6 of attr 0 and 4 of attr 1, times out of order, then a round */
	static const uint64_t times0[] = { 2000, 1500, 2500, 1800, 3000, 2200 };
	for (uint64_t i = 0; i < 6; i++) {
		rich_sample0(&r, i, times0[i]);
		ADD();
	}
	for (uint64_t i = 0; i < 4; i++) {
		rich_sample1(&r, i, 1600 + 300 * i);
		ADD();
	}
	rb_start(&r, PK_RECORD_FINISHED_ROUND, 0);
	ADD();
#undef ADD
}

/* The whole rich file: attrs (of attr_size bytes, extra past sizeof), features, records. */
TDR void rich_build(struct pk_buf *out, bool pipe, uint32_t attr_size, const uint8_t *extra)
{
	struct syn s = { .pipe = pipe };
	rich_attrs(&s, attr_size, extra);
	rich_features(&s);
	rich_records(&s.data);
	syn_build(&s, out);
	syn_free(&s);
}

#endif
