/* SPDX-License-Identifier: MIT */
/*
 * test_data_write.c — perf.data files built through the writer
 * (pmukit/data_write.h) from synthetic records of each kind of sample, read
 * back by perf 6.1: every value the test wrote must come out of `perf
 * script` / `perf report -D` as written. Group reads (a TopDown-style
 * {slots,ev,topdown-retiring}:S group with PERF_SAMPLE_READ and
 * PERF_FORMAT_GROUP), PERF_SAMPLE_WEIGHT_STRUCT, an auto-counter-reload
 * group (config2 masks), branch stacks, callchains resolved to this
 * program's functions, a tracepoint-like RAW sample, and a real tracepoint
 * (sched:sched_switch) that perf decodes with the TRACING_DATA written, in
 * a file and in a pipe.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_data_write_util.h"

#define PID 31337

/* functions whose addresses the samples carry */
__attribute__((noinline)) int dw_leaf(int x);
__attribute__((noinline)) int dw_middle(int x);
__attribute__((noinline)) int dw_root(int x);
__attribute__((noinline)) int dw_leaf(int x)
{
	return x * 7 + 3;
}
__attribute__((noinline)) int dw_middle(int x)
{
	return dw_leaf(x) * 2 + 1;
}
__attribute__((noinline)) int dw_root(int x)
{
	return dw_middle(x) - 5;
}

#define FN(f, off) ((uint64_t)(uintptr_t)&(f) + (off))

struct tfile {
	char path[256];
	int fd;
	struct pk_data_writer *w;
	struct pk_buf recs;
	struct pk_error err;
	struct text_map text;
};

static void tf_open(struct tfile *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	assert_non_null(tmp_path(t->path, sizeof(t->path), name));
	t->fd = open(t->path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(t->fd >= 0);
	struct pk_data_writer_opts o = { .sz = sizeof(o) };
	CHECK_OK(pk_data_writer__new(&t->w, t->fd, &o, &t->err), &t->err);
	assert_int_equal(own_text((const void *)&dw_leaf, &t->text), 0);
}

/* COMM and MMAP2 of this program for PID, so perf names the samples' functions */
static void tf_sideband(struct tfile *t, uint64_t st, uint64_t id)
{
	put_comm(&t->recs, st, PID, "dwtest", 1000, id);
	put_mmap2(&t->recs, st, PID, t->text.start, t->text.len, t->text.pgoff, t->text.path, 1001,
		  id);
}

/* write the records, finish, run perf's command on the file (%s: the path) */
static void tf_finish_run(struct tfile *t, const char *cmd_fmt, struct pk_buf *out)
{
	char cmd[1024];

	CHECK_OK(pk_data_writer__write(t->w, t->recs.data, t->recs.len, &t->err), &t->err);
	CHECK_OK(pk_data_writer__finish(t->w, &t->err), &t->err);
	pk_data_writer__free(t->w);
	t->w = NULL;
	close(t->fd);
	pk_buf__free(&t->recs);
	snprintf(cmd, sizeof(cmd), cmd_fmt, t->path);
	int st = run_capture(cmd, out);
	if (st)
		print_message("%s: exit %d\n%s\n", cmd, st, (const char *)out->data);
	assert_int_equal(st, 0);
}

static void rerun(const struct tfile *t, const char *cmd_fmt, struct pk_buf *out)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), cmd_fmt, t->path);
	int st = run_capture(cmd, out);
	if (st)
		print_message("%s: exit %d\n%s\n", cmd, st, (const char *)out->data);
	assert_int_equal(st, 0);
}

/* --- group reads: {slots,ev,topdown-retiring}:S ----------------------------------------- */

static void test_group_read(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	struct tfile t;
	struct pk_buf out = { 0 };
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perf_event_attr a = {
		.type = PERF_TYPE_RAW, .size = sizeof(a), .sample_type = st, .read_format = rf,
		.sample_id_all = 1, .disabled = 1, .exclude_guest = 1,
	};
	const char *names[] = { "slots", "inst_retired.any", "topdown-retiring" };
	const uint64_t configs[] = { 0x400, 0xc0, 0x8000 };

	tf_open(&t, "group.data");
	for (int i = 0; i < 3; i++) {
		uint64_t id = 500 + (uint64_t)i;
		a.config = configs[i];
		a.sample_period = i == 0 ? 100003 : 0;	/* :S — the leader samples */
		a.disabled = i == 0;
		CHECK_OK(pk_data_writer__add_attr(t.w, &a, names[i], &id, 1, &t.err), &t.err);
	}
	CHECK_OK(pk_data_writer__add_group(t.w, 0, 3, "{slots,inst_retired.any,topdown-retiring}",
					   &t.err), &t.err);
	CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
	tf_sideband(&t, st, 500);
	/* two samples; their group values grow */
	for (int k = 0; k < 2; k++) {
		uint64_t read[] = { 3, 0x1111 * (uint64_t)(k + 1), 0x1100 * (uint64_t)(k + 1),
				    0xabc00 * (uint64_t)(k + 1), 500, 0x7770 * (uint64_t)(k + 1), 501,
				    0x9990000 * (uint64_t)(k + 1), 502 };
		struct tsample s = { .ip = FN(dw_leaf, 4), .pid = PID, .tid = PID,
				     .time = 2000 + (uint64_t)k, .id = 500, .period = 100003,
				     .read = read, .nr_read = 9 };
		put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
	}
	tf_finish_run(&t, "perf report -D -i %s", &out);
	assert_output_has(&out, ".... group nr 3");
	assert_output_has(&out, "...... time enabled 0000000000001111");
	assert_output_has(&out, "...... time running 0000000000001100");
	assert_output_has(&out, "..... id 00000000000001f4, value 00000000000abc00");
	assert_output_has(&out, "..... id 00000000000001f5, value 0000000000007770");
	assert_output_has(&out, "..... id 00000000000001f6, value 0000000009990000");
	assert_output_has(&out, "..... id 00000000000001f6, value 0000000013320000");
	/* the group as perf rebuilds it from GROUP_DESC, named from EVENT_DESC */
	rerun(&t, "perf report --header-only -i %s", &out);
	assert_output_has(&out, "# group: {slots,inst_retired.any,topdown-retiring}");
	/* each member's period: the growth of its value between the samples */
	rerun(&t, "perf script -F event,period -i %s", &out);
	char want[96];
	snprintf(want, sizeof(want), "%10llu            slots:", 0xabc00ULL);
	assert_output_has(&out, want);
	snprintf(want, sizeof(want), "%10llu inst_retired.any:", 0x7770ULL);
	assert_output_has(&out, want);
	snprintf(want, sizeof(want), "%10llu topdown-retiring:", 0x13320000ULL - 0x9990000ULL);
	assert_output_has(&out, want);
	pk_buf__free(&out);
}

/* --- PERF_SAMPLE_WEIGHT_STRUCT ----------------------------------------------------------- */

static void test_weight_struct(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	struct tfile t;
	struct pk_buf out = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC;
	struct perf_event_attr a = {
		.type = PERF_TYPE_RAW, .size = sizeof(a), .config = 0x1cd, .config1 = 3,
		.sample_period = 4000, .sample_type = st, .sample_id_all = 1, .precise_ip = 3,
	};
	uint64_t id = 77;

	tf_open(&t, "weight.data");
	CHECK_OK(pk_data_writer__add_attr(t.w, &a, "mem-loads", &id, 1, &t.err), &t.err);
	CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
	tf_sideband(&t, st, 77);
	/* var1_dw (weight) 0x12345, var2_w (ins_lat) 0x2a, var3_w (p_stage_cyc) 0x3b */
	uint64_t weight = 0x12345 | (uint64_t)0x2a << 32 | (uint64_t)0x3b << 48;
	struct tsample s = { .ip = FN(dw_middle, 8), .pid = PID, .tid = PID, .time = 3000,
			     .id = 77, .period = 4000, .weight = weight, .data_src = 0x68100142 };
	put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
	tf_finish_run(&t, "perf report -D -i %s", &out);
	/* the struct as written; perf 6.1 on x86 decodes var1_dw and var2_w (ins_lat) */
	assert_output_has(&out, "45 23 01 00 2a 00 3b 00 42 01 10 68 00 00 00 00");
	assert_output_has(&out, "... weight: 74565,0x2a,");	/* 0x12345 = 74565 */
	assert_output_has(&out, "data_src: 0x68100142");
	rerun(&t, "perf script -F ip,sym,weight,ins_lat -i %s", &out);
	assert_output_has(&out, "74565");
	assert_output_has(&out, "42");		/* ins_lat 0x2a */
	assert_output_has(&out, "dw_middle");
	pk_buf__free(&out);
}

/* --- an auto-counter-reload group: config2 masks ----------------------------------------- */

static void test_acr_group(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	struct tfile t;
	struct pk_buf out = { 0 };
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	/* cpu/e1,acr_mask=0x2/ reloads member 1; member 1 reloads both (0x3) */
	const uint64_t masks[] = { 0x2, 0x3 };
	const uint64_t periods[] = { 200000, 100000 };
	const char *names[] = { "cpu/event=0xc0,acr_mask=0x2/", "cpu/event=0x3c,acr_mask=0x3/" };

	tf_open(&t, "acr.data");
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_RAW, .size = sizeof(a), .config = i ? 0x3c : 0xc0,
			.config2 = masks[i], .sample_period = periods[i], .sample_type = st,
			.sample_id_all = 1, .disabled = i == 0, .exclude_kernel = 1,
		};
		uint64_t ids[] = { 900 + (uint64_t)i * 10, 901 + (uint64_t)i * 10 };
		CHECK_OK(pk_data_writer__add_attr(t.w, &a, names[i], ids, 2, &t.err), &t.err);
	}
	CHECK_OK(pk_data_writer__add_group(t.w, 0, 2, NULL, &t.err), &t.err);
	CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
	tf_sideband(&t, st, 900);
	for (int k = 0; k < 6; k++) {
		int ev = k % 3 == 0;	/* 2 samples of the first, 4 of the second */
		struct tsample s = { .ip = FN(dw_root, 4), .pid = PID, .tid = PID,
				     .time = 4000 + (uint64_t)k, .id = ev ? 900 : 911,
				     .period = periods[!ev] };
		put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
	}
	tf_finish_run(&t, "perf report --header-only -I -i %s", &out);
	assert_output_has(&out, "name = cpu/event=0xc0,acr_mask=0x2/, , id = { 900, 901 }");
	assert_output_has(&out, "{ bp_len, config2 } = 0x2");
	assert_output_has(&out, "{ bp_len, config2 } = 0x3");
	assert_output_has(&out, "# group: {cpu/event=0xc0,acr_mask=0x2/,cpu/event=0x3c,acr_mask=0x3/}");
	rerun(&t, "perf report --stdio --group -F overhead,sym -i %s", &out);
	assert_output_has(&out, "Samples: 6");
	rerun(&t, "perf script -F event,period -i %s", &out);
	/* each sample under its own event, with its period: 2 and 4 of them */
	assert_int_equal(count_of(&out, "    200000 cpu/event=0xc0,acr_mask=0x2/:"), 2);
	assert_int_equal(count_of(&out, "    100000 cpu/event=0x3c,acr_mask=0x3/:"), 4);
	pk_buf__free(&out);
}

/* --- branch stacks ----------------------------------------------------------------------- */

static void test_branch_stack(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	struct tfile t;
	struct pk_buf out = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 10000, .sample_type = st, .sample_id_all = 1,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
	};
	uint64_t id = 42;

	tf_open(&t, "branch.data");
	CHECK_OK(pk_data_writer__add_attr(t.w, &a, "cpu-clock", &id, 1, &t.err), &t.err);
	CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
	tf_sideband(&t, st, 42);
	struct perf_branch_entry br[2];
	memset(br, 0, sizeof(br));
	br[0].from = FN(dw_root, 0x10), br[0].to = FN(dw_middle, 0);
	br[0].predicted = 1, br[0].cycles = 17;
	br[1].from = FN(dw_middle, 0x8), br[1].to = FN(dw_leaf, 0);
	br[1].mispred = 1, br[1].cycles = 5;
	struct tsample s = { .ip = FN(dw_leaf, 4), .pid = PID, .tid = PID, .time = 5000, .id = 42,
			     .period = 10000, .branches = br, .nr_branches = 2 };
	put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
	tf_finish_run(&t, "perf script -F brstack -i %s", &out);
	char want[160];
	snprintf(want, sizeof(want), "0x%llx/0x%llx/P/-/-/17", (unsigned long long)br[0].from,
		 (unsigned long long)br[0].to);
	assert_output_has(&out, want);
	snprintf(want, sizeof(want), "0x%llx/0x%llx/M/-/-/5", (unsigned long long)br[1].from,
		 (unsigned long long)br[1].to);
	assert_output_has(&out, want);
	rerun(&t, "perf script -F brstacksym -i %s", &out);
	assert_output_has(&out, "dw_root+0x10/dw_middle+0x0/P/-/-/17");
	assert_output_has(&out, "dw_middle+0x8/dw_leaf+0x0/M/-/-/5");
	/* HEADER_BRANCH_STACK is set: perf report sorts by branch by default */
	rerun(&t, "perf report --header-only -i %s", &out);
	assert_output_has(&out, "# contains samples with branch stack");
	pk_buf__free(&out);
}

/* --- callchains -------------------------------------------------------------------------- */

static void test_callchain(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	struct tfile t;
	struct pk_buf out = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_TASK_CLOCK,
		.sample_period = 10000, .sample_type = st, .sample_id_all = 1,
	};
	uint64_t id = 7;

	tf_open(&t, "callchain.data");
	CHECK_OK(pk_data_writer__add_attr(t.w, &a, "task-clock", &id, 1, &t.err), &t.err);
	CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
	tf_sideband(&t, st, 7);
	uint64_t cc[] = { PERF_CONTEXT_USER, FN(dw_leaf, 4), FN(dw_middle, 9), FN(dw_root, 9) };
	for (int k = 0; k < 3; k++) {
		struct tsample s = { .ip = FN(dw_leaf, 4), .pid = PID, .tid = PID,
				     .time = 6000 + (uint64_t)k, .id = 7, .period = 10000,
				     .callchain = cc, .nr_callchain = 4 };
		put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
	}
	tf_finish_run(&t, "perf script -F ip,sym -i %s", &out);
	/* the frames, leaf first, as written */
	const char *o = (const char *)out.data;
	const char *l = strstr(o, "dw_leaf"), *m = l ? strstr(l, "dw_middle") : NULL;
	const char *r = m ? strstr(m, "dw_root") : NULL;
	if (!r)
		print_message("%s\n", o);
	assert_non_null(r);
	rerun(&t, "perf report --stdio --children --no-demangle -i %s", &out);
	assert_output_has(&out, "dw_root");
	assert_output_has(&out, "Samples: 3");
	pk_buf__free(&out);
}

/* --- a tracepoint-like RAW sample -------------------------------------------------------- */

static void test_raw(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	struct tfile t;
	struct pk_buf out = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1, .sample_type = st, .sample_id_all = 1,
	};
	uint64_t id = 3;
	/* a trace entry: common_type 0x1234, flags, preempt_count, pid, then a payload */
	unsigned char raw[20] = { 0x34, 0x12, 0x01, 0x02, 0x69, 0x7a, 0x00, 0x00,
				  0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe, 0xba, 0xbe,
				  0x01, 0x23, 0x45, 0x67 };

	tf_open(&t, "raw.data");
	CHECK_OK(pk_data_writer__add_attr(t.w, &a, "sched:sched_fake", &id, 1, &t.err), &t.err);
	CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
	tf_sideband(&t, st, 3);
	struct tsample s = { .ip = FN(dw_leaf, 4), .pid = PID, .tid = PID, .time = 7000, .id = 3,
			     .cpu = 1, .period = 1, .raw = raw, .raw_size = sizeof(raw) };
	put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
	tf_finish_run(&t, "perf report -D -i %s", &out);
	/* the record as perf dumps it: the raw size (u32 20: 4 + 20 is 8-aligned) and bytes */
	assert_output_has(&out, "14 00 00 00 34 12 01 02");
	assert_output_has(&out, "69 7a 00 00 de ad be ef ca fe ba be 01 23 45 67");
	rerun(&t, "perf script -F comm,tid,cpu,event -i %s", &out);
	assert_output_has(&out, "dwtest 31337 [001] sched:sched_fake:");
	pk_buf__free(&out);
}

/* --- a real tracepoint: sched:sched_switch decoded with the TRACING_DATA written --------------- */

/* offset of field name in the format text ("field:char prev_comm[16];\toffset:8;") */
static int field_offset(const char *fmt, const char *name)
{
	char key[64];
	snprintf(key, sizeof(key), " %s", name);
	for (const char *p = fmt; (p = strstr(p, key)); p++) {
		char c = p[strlen(key)];
		if (c != ';' && c != '[')
			continue;
		const char *o = strstr(p, "offset:");
		return o ? atoi(o + 7) : -1;
	}
	return -1;
}

static void test_tracepoint(void **state)
{
	(void)state;
	SKIP_WITHOUT_PERF();
	static const char *const dirs[] = { "/sys/kernel/tracing/events/sched/sched_switch",
					    "/sys/kernel/debug/tracing/events/sched/sched_switch" };
	struct pk_buf fmt = { 0 }, out = { 0 };
	char cmd[512];
	int found = 0;
	for (int i = 0; i < 2 && !found; i++) {
		snprintf(cmd, sizeof(cmd), "cat %s/format", dirs[i]);
		found = run_capture(cmd, &fmt) == 0;
	}
	if (!found) {
		print_message("# SKIP no tracefs with sched:sched_switch\n");
		pk_buf__free(&fmt);
		skip();
	}
	const char *f = (const char *)fmt.data;
	const char *idl = strstr(f, "ID: ");
	assert_non_null(idl);
	uint64_t tp_id = strtoull(idl + 4, NULL, 10);
	int o_pc = field_offset(f, "prev_comm"), o_pp = field_offset(f, "prev_pid");
	int o_nc = field_offset(f, "next_comm"), o_np = field_offset(f, "next_pid");
	int o_st = field_offset(f, "prev_state");
	assert_true(o_pc > 0 && o_pp > 0 && o_nc > 0 && o_np > 0 && o_st > 0);

	unsigned char raw[128] = { 0 };
	uint16_t ct = (uint16_t)tp_id;
	int32_t pid = PID, pp = 1234, np = 5678;
	memcpy(raw, &ct, 2);
	memcpy(raw + 4, &pid, 4);
	memcpy(raw + o_pc, "pkprev", 6);
	memcpy(raw + o_pp, &pp, 4);
	memcpy(raw + o_nc, "pknext", 6);
	memcpy(raw + o_np, &np, 4);
	uint32_t raw_size = (uint32_t)(o_np + 8 + 4);	/* through next_prio */

	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT, .size = sizeof(a), .config = tp_id,
		.sample_period = 1, .sample_type = st, .sample_id_all = 1,
	};
	const char *expect = "prev_comm=pkprev prev_pid=1234 prev_prio=0 prev_state=R ==> "
			     "next_comm=pknext next_pid=5678 next_prio=0";
	for (int pipe_mode = 0; pipe_mode < 2; pipe_mode++) {
		struct tfile t;
		uint64_t id = 8;
		tf_open(&t, pipe_mode ? "tp-pipe.data" : "tp.data");
		if (pipe_mode) {	/* again, in pipe mode */
			struct pk_data_writer_opts o = { .sz = sizeof(o), .pipe = true };
			pk_data_writer__free(t.w);
			CHECK_OK(pk_data_writer__new(&t.w, t.fd, &o, &t.err), &t.err);
		}
		CHECK_OK(pk_data_writer__add_attr(t.w, &a, "sched:sched_switch", &id, 1, &t.err),
			 &t.err);
		CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
		tf_sideband(&t, st, 8);
		struct tsample s = { .ip = FN(dw_leaf, 4), .pid = PID, .tid = PID, .time = 8000,
				     .id = 8, .cpu = 1, .period = 1, .raw = raw, .raw_size = raw_size };
		put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
		tf_finish_run(&t, pipe_mode ? "cat %s | perf script -i -" : "perf script -i %s", &out);
		assert_output_has(&out, "sched:sched_switch: ");
		assert_output_has(&out, expect);
	}
	pk_buf__free(&fmt);
	pk_buf__free(&out);
}

static int cleanup(void **state)
{
	(void)state;
	char dir[256], cmd[300];
	tmp_path(dir, sizeof(dir), "");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_read),
		cmocka_unit_test(test_weight_struct),
		cmocka_unit_test(test_acr_group),
		cmocka_unit_test(test_branch_stack),
		cmocka_unit_test(test_callchain),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_tracepoint),
	};
	return cmocka_run_group_tests(tests, NULL, getenv("PK_KEEP") ? NULL : cleanup);
}
