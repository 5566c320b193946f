/* SPDX-License-Identifier: MIT */
/*
 * report_mkdata_annotate.h — report_mkdata's kinds for annotate's columns
 * beyond perf (tests/integration/annotate_topdown.sh): samples spread over
 * the instructions of nodebug_pad (255 one-byte nops and a ret: each byte
 * an instruction) and of td_func1, each written sample also printed, so
 * that the test computes what each instruction must show on its own:
 *
 *   ann_td    the topdown kind's {slots,inst_retired.any,topdown-retiring,
 *             topdown-bad-spec,topdown-fe-bound,topdown-be-bound}:S group;
 *             prints "SYMBOL OFFSET SLOTS RETIRING BAD_SPEC FE_BOUND BE_BOUND"
 *             (the deltas of the members) per sample;
 *   ann_w     cpu-clock-like samples with PERF_SAMPLE_WEIGHT;
 *   ann_ws    the same with PERF_SAMPLE_WEIGHT_STRUCT (its other fields set:
 *             only var1_dw is the weight); both print "SYMBOL OFFSET WEIGHT".
 */
#include <inttypes.h>

/* sample n's symbol (0: nodebug_pad, 1: td_func1) and offset: a few hot instructions */
static void ann_place(int n, int *sym, uint64_t *off)
{
	static const uint64_t pad_offs[] = { 0, 3, 3, 17, 17, 17, 200, 255 };
	*sym = n % 5 == 4;
	*off = *sym ? (uint64_t)(n % 3) : pad_offs[n % 8];
}

static uint64_t ann_addr(int sym)
{
	return sym ? (uint64_t)(uintptr_t)funcs[0] : (uint64_t)(uintptr_t)nodebug_pad;
}

static const char *ann_name(int sym)
{
	return sym ? "td_func1" : "nodebug_pad";
}

static int ann_td(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_error err = { 0 };
	static const char *const names[] = { "slots", "inst_retired.any", "topdown-retiring",
					     "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound" };
	static const uint64_t configs[] = { 0x400, 0xc0, 0x8000, 0x8100, 0x8200, 0x8300 };
	const int n = 6;
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	for (int i = 0; i < n; i++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_RAW, .size = sizeof(a), .config = configs[i],
			.sample_type = st, .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID,
			.sample_id_all = 1, .sample_period = i == 1 ? 100003 : 0, .disabled = i == 0,
		};
		uint64_t id = 600 + (uint64_t)i;
		if (pk_data_writer__add_attr(w, &a, names[i], &id, 1, &err))
			return die("ann_td", &err);
	}
	if (pk_data_writer__add_group(w, 0, (size_t)n, "{slots,inst_retired.any,topdown-retiring,"
				      "topdown-bad-spec,topdown-fe-bound,topdown-be-bound}", &err) ||
	    pk_data_writer__begin(w, &err))
		return die("ann_td", &err);
	if (put_sideband(b, st, 601))
		return die("maps", NULL);
	uint64_t value[6] = { 0 };
	for (int j = 0; j < 60; j++) {
		int sym;
		uint64_t off, d[6];
		ann_place(j, &sym, &off);
		d[0] = 8000 + 700 * (uint64_t)(j % 7);
		d[1] = 100003;
		d[2] = d[0] * (uint64_t)(10 + (j * 13) % 50) / 100;
		d[3] = d[0] * (uint64_t)(3 + j % 9) / 100;
		d[4] = d[0] * (uint64_t)(5 + (j * 7) % 20) / 100;
		d[5] = d[0] - d[2] - d[3] - d[4];
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, 601);
		put64(b, ann_addr(sym) + off);
		put32(b, PID), put32(b, PID);
		put64(b, 5000 + (uint64_t)j);
		put64(b, 100003);
		put64(b, (uint64_t)n);
		for (int i = 0; i < n; i++) {
			value[i] += d[i];
			put64(b, value[i]);
			put64(b, 600 + (uint64_t)i);
		}
		end_rec(b, at);
		printf("%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		       ann_name(sym), off, d[0], d[2], d[3], d[4], d[5]);
	}
	return 0;
}

static int ann_w(struct pk_data_writer *w, struct pk_buf *b, bool wstruct)
{
	struct pk_error err = { 0 };
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD |
			    (wstruct ? PERF_SAMPLE_WEIGHT_STRUCT : PERF_SAMPLE_WEIGHT);
	struct perf_event_attr a = {
		.type = PERF_TYPE_RAW, .size = sizeof(a), .config = 0x1cd, .config1 = 3,
		.sample_period = 4000, .sample_type = st, .sample_id_all = 1, .precise_ip = 3,
	};
	uint64_t id = 88;
	if (pk_data_writer__add_attr(w, &a, "mem-loads", &id, 1, &err) ||
	    pk_data_writer__begin(w, &err))
		return die("ann_w", &err);
	if (put_sideband(b, st, id))
		return die("maps", NULL);
	for (int j = 0; j < 50; j++) {
		int sym;
		uint64_t off, weight = 7 + (uint64_t)((j * 37) % 300);
		ann_place(j, &sym, &off);
		size_t at = begin_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(b, ann_addr(sym) + off);
		put32(b, PID), put32(b, PID);
		put64(b, 6000 + (uint64_t)j);
		put64(b, id);
		put64(b, 4000);
		put64(b, wstruct ? weight | (uint64_t)(j + 1) << 32 | (uint64_t)(3 * j) << 48 : weight);
		end_rec(b, at);
		printf("%s %" PRIu64 " %" PRIu64 "\n", ann_name(sym), off, weight);
	}
	return 0;
}
