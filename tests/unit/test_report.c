/* SPDX-License-Identifier: MIT */
/*
 * test_report.c — the report library (pmukit/report.h) on perf.data files
 * this test writes with samples in its own functions: self periods and
 * sample counts, cumulative values counted once per sample along recursive
 * callchains, callers above callees at equal values, group members' values
 * as deltas of PERF_SAMPLE_READ (zero deltas left out), TopDown shares,
 * --percent-limit, the callchain graph's percentages, and the option
 * errors. Every expected value is computed from the samples written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmukit/report.h>

#include "test_data_write_util.h"

#define PID 24680

__attribute__((noinline)) int rt_leaf(int x);
__attribute__((noinline)) int rt_mid(int x);
__attribute__((noinline)) int rt_rec(int x);
__attribute__((noinline)) int rt_top(int x);
__attribute__((noinline)) int rt_leaf(int x)
{
	return x * 7 + 3;
}
__attribute__((noinline)) int rt_mid(int x)
{
	return rt_leaf(x) * 2 + 1;
}
__attribute__((noinline)) int rt_rec(int x)
{
	return x > 0 ? rt_rec(x - 1) + rt_leaf(x) : 0;
}
__attribute__((noinline)) int rt_top(int x)
{
	return rt_mid(x) + rt_rec(x);
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

static void tf_open_mode(struct tfile *t, const char *name, bool pipe)
{
	memset(t, 0, sizeof(*t));
	assert_non_null(tmp_path(t->path, sizeof(t->path), name));
	t->fd = open(t->path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(t->fd >= 0);
	struct pk_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe };
	CHECK_OK(pk_data_writer__new(&t->w, t->fd, &o, &t->err), &t->err);
	assert_int_equal(own_text((const void *)&rt_leaf, &t->text), 0);
}

static void tf_open(struct tfile *t, const char *name)
{
	tf_open_mode(t, name, false);
}

static void tf_sideband(struct tfile *t, uint64_t st, uint64_t id)
{
	put_comm(&t->recs, st, PID, "rtest", 1000, id);
	put_mmap2(&t->recs, st, PID, t->text.start, t->text.len, t->text.pgoff, t->text.path, 1001,
		  id);
}

static void tf_close(struct tfile *t)
{
	CHECK_OK(pk_data_writer__write(t->w, t->recs.data, t->recs.len, &t->err), &t->err);
	CHECK_OK(pk_data_writer__finish(t->w, &t->err), &t->err);
	pk_data_writer__free(t->w);
	close(t->fd);
	pk_buf__free(&t->recs);
}

/* a report over path with opts */
struct rep {
	struct pk_session *s;
	struct pk_report *r;
	struct pk_error err;
};

static void rep_open(struct rep *p, const char *path, struct pk_report_opts *o)
{
	memset(p, 0, sizeof(*p));
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	CHECK_OK(pk_session__open(&p->s, path, &so, &p->err), &p->err);
	CHECK_OK(pk_report__new(&p->r, p->s, o, &p->err), &p->err);
	CHECK_OK(pk_report__process(p->r, &p->err), &p->err);
	CHECK_OK(pk_report__finish(p->r, &p->err), &p->err);
}

static void rep_close(struct rep *p)
{
	pk_report__free(p->r);
	pk_session__free(p->s);
}

static const struct pk_report_entry *find(struct rep *p, size_t sec, const char *sym, size_t *at)
{
	for (size_t i = 0; i < pk_report__nr_entries(p->r, sec); i++) {
		const struct pk_report_entry *e = pk_report__entry(p->r, sec, i);
		if (e->sym && !strcmp(e->sym->name, sym)) {
			if (at)
				*at = i;
			return e;
		}
	}
	return NULL;
}

/* ---- callchains: self, children once per sample, order ---------------------------- */

/*
 * Samples (callee first), with periods:
 *   3 x leaf <- mid <- top           100
 *   1 x leaf <- rec <- rec <- top    200   (rec twice: counted once)
 *   1 x mid <- top                    50
 */
/* the callchains' samples; pipe: in pipe mode (what pmukit top reads) */
static void write_chains_mode(struct tfile *t, bool pipe)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100, .sample_type = st, .sample_id_all = 1,
	};
	uint64_t id = 9;
	tf_open_mode(t, pipe ? "chains-pipe.data" : "chains.data", pipe);
	CHECK_OK(pk_data_writer__add_attr(t->w, &a, "cpu-clock", &id, 1, &t->err), &t->err);
	CHECK_OK(pk_data_writer__begin(t->w, &t->err), &t->err);
	tf_sideband(t, st, id);
	uint64_t c1[] = { PERF_CONTEXT_USER, FN(rt_leaf, 1), FN(rt_mid, 5), FN(rt_top, 5) };
	uint64_t c2[] = { PERF_CONTEXT_USER, FN(rt_leaf, 2), FN(rt_rec, 9), FN(rt_rec, 9),
			  FN(rt_top, 9) };
	uint64_t c3[] = { PERF_CONTEXT_USER, FN(rt_mid, 3), FN(rt_top, 5) };
	uint64_t time = 2000;
	for (int i = 0; i < 3; i++) {
		struct tsample s = { .ip = FN(rt_leaf, 1), .pid = PID, .tid = PID, .time = time,
				     .id = id, .period = 100, .callchain = c1, .nr_callchain = 4 };
		put_sample(&t->recs, st, PERF_RECORD_MISC_USER, &s);
		time++;
	}
	struct tsample s2 = { .ip = FN(rt_leaf, 2), .pid = PID, .tid = PID, .time = time,
			      .id = id, .period = 200, .callchain = c2, .nr_callchain = 5 };
	put_sample(&t->recs, st, PERF_RECORD_MISC_USER, &s2);
	struct tsample s3 = { .ip = FN(rt_mid, 3), .pid = PID, .tid = PID, .time = time + 1,
			      .id = id, .period = 50, .callchain = c3, .nr_callchain = 3 };
	put_sample(&t->recs, st, PERF_RECORD_MISC_USER, &s3);
	tf_close(t);
}

static void write_chains(struct tfile *t)
{
	write_chains_mode(t, false);
}

/* a pipe: no children (perf report's rule), unless the top option asks (perf top's) */
static void test_children_top(void **state)
{
	(void)state;
	struct tfile t;
	write_chains_mode(&t, true);
	struct pk_report_opts o = { .sz = sizeof(o) };
	struct rep p;
	rep_open(&p, t.path, &o);
	const struct pk_report_entry *leaf = find(&p, 0, "rt_leaf", NULL);
	assert_non_null(leaf);
	assert_int_equal(leaf->period_children, leaf->period);
	assert_null(find(&p, 0, "rt_top", NULL));	/* no self samples: no entry */
	rep_close(&p);
	o.top = true;
	rep_open(&p, t.path, &o);
	const struct pk_report_entry *top = find(&p, 0, "rt_top", NULL);
	assert_non_null(top);
	assert_int_equal(top->period, 0);
	assert_int_equal(top->period_children, 550);
	rep_close(&p);
	o.children = PK_REPORT_OFF;	/* --no-children still wins */
	rep_open(&p, t.path, &o);
	assert_null(find(&p, 0, "rt_top", NULL));
	rep_close(&p);
}

static void test_children(void **state)
{
	(void)state;
	struct tfile t;
	write_chains(&t);
	struct pk_report_opts o = { .sz = sizeof(o) };
	struct rep p;
	rep_open(&p, t.path, &o);
	assert_int_equal(pk_report__nr_sections(p.r), 1);
	const struct pk_report_section *sec = pk_report__section(p.r, 0);
	assert_int_equal(sec->nr_samples, 5);
	assert_int_equal(sec->total_period, 3 * 100 + 200 + 50);
	size_t at_top, at_mid, at_rec, at_leaf;
	const struct pk_report_entry *top = find(&p, 0, "rt_top", &at_top);
	const struct pk_report_entry *mid = find(&p, 0, "rt_mid", &at_mid);
	const struct pk_report_entry *rec = find(&p, 0, "rt_rec", &at_rec);
	const struct pk_report_entry *leaf = find(&p, 0, "rt_leaf", &at_leaf);
	assert_non_null(top);
	assert_non_null(mid);
	assert_non_null(rec);
	assert_non_null(leaf);
	/* self */
	assert_int_equal(leaf->period, 500);
	assert_int_equal(leaf->nr_samples, 4);
	assert_int_equal(mid->period, 50);
	assert_int_equal(top->period, 0);
	assert_int_equal(rec->period, 0);
	/* children: once per sample, rec's recursion included once */
	assert_int_equal(top->period_children, 550);
	assert_int_equal(mid->period_children, 350);
	assert_int_equal(rec->period_children, 200);
	assert_int_equal(rec->nr_samples_children, 1);
	assert_int_equal(leaf->period_children, 500);
	/* by children: top, leaf, mid, rec */
	assert_true(at_top < at_leaf && at_leaf < at_mid && at_mid < at_rec);
	rep_close(&p);

	/* --no-children: self only, by self period */
	o.children = PK_REPORT_OFF;
	rep_open(&p, t.path, &o);
	leaf = find(&p, 0, "rt_leaf", &at_leaf);
	mid = find(&p, 0, "rt_mid", &at_mid);
	assert_non_null(leaf);
	assert_int_equal(leaf->period_children, leaf->period);
	assert_null(find(&p, 0, "rt_top", NULL));	/* no self samples: no entry */
	assert_true(at_leaf < at_mid);
	rep_close(&p);
}

/* callers above callees when their cumulative values are equal (perf's max_depth) */
static void test_callers_first(void **state)
{
	(void)state;
	struct tfile t;
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100, .sample_type = st, .sample_id_all = 1,
	};
	uint64_t id = 9;
	tf_open(&t, "order.data");
	CHECK_OK(pk_data_writer__add_attr(t.w, &a, "cpu-clock", &id, 1, &t.err), &t.err);
	CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
	tf_sideband(&t, st, id);
	/* one path leaf <- mid <- top: all three have the same children value */
	uint64_t c[] = { PERF_CONTEXT_USER, FN(rt_leaf, 1), FN(rt_mid, 5), FN(rt_top, 5) };
	struct tsample s = { .ip = FN(rt_leaf, 1), .pid = PID, .tid = PID, .time = 2000, .id = id,
			     .period = 100, .callchain = c, .nr_callchain = 4 };
	put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
	tf_close(&t);
	struct pk_report_opts o = { .sz = sizeof(o), 
				    .call_graph = "none" };
	struct rep p;
	rep_open(&p, t.path, &o);
	/* without callchains shown, perf's tie-break is off: self period, then names */
	assert_string_equal(pk_report__entry(p.r, 0, 0)->sym->name, "rt_leaf");
	assert_string_equal(pk_report__entry(p.r, 0, 1)->sym->name, "rt_mid");
	assert_string_equal(pk_report__entry(p.r, 0, 2)->sym->name, "rt_top");
	rep_close(&p);
	/*
	 * with callchains, the longer callchain first: leaf's own (the whole
	 * path, 3 frames) and top's (from top on, 3) before mid's (2); leaf
	 * and top are then ordered by self period (perf 6.1 agrees)
	 */
	o.call_graph = NULL;
	rep_open(&p, t.path, &o);
	assert_string_equal(pk_report__entry(p.r, 0, 0)->sym->name, "rt_leaf");
	assert_string_equal(pk_report__entry(p.r, 0, 1)->sym->name, "rt_top");
	assert_string_equal(pk_report__entry(p.r, 0, 2)->sym->name, "rt_mid");
	rep_close(&p);
}

/* the graph's text: percentages of the total, the "---" head of a single root */
static void test_graph_text(void **state)
{
	(void)state;
	struct tfile t;
	write_chains(&t);
	struct pk_report_opts o = { .sz = sizeof(o), .children = PK_REPORT_OFF };
	struct rep p;
	rep_open(&p, t.path, &o);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(pk_report__fprintf(p.r, f, PK_REPORT_PRINT_NO_TIP), 0);
	fclose(f);
	/* leaf: 500 of 550 self; its callers mid (300) and rec (200) of the total */
	char want[128];
	snprintf(want, sizeof(want), "%8.2f%%  rtest    test_report", 100.0 * 500 / 550);
	if (!strstr(text, want))
		fail_msg("missing '%s' in\n%s", want, text);
	snprintf(want, sizeof(want), "|--%.2f%%--rt_mid", 100.0 * 300 / 550);
	if (!strstr(text, want))
		fail_msg("missing '%s' in\n%s", want, text);
	snprintf(want, sizeof(want), " --%.2f%%--rt_rec", 100.0 * 200 / 550);
	if (!strstr(text, want))
		fail_msg("missing '%s' in\n%s", want, text);
	assert_non_null(strstr(text, "---rt_leaf\n"));
	assert_non_null(strstr(text, "# Samples: 5  of event 'cpu-clock'\n"));
	assert_non_null(strstr(text, "# Event count (approx.): 550\n"));
	free(text);
	rep_close(&p);
}

/* A zeroed options struct is perf's defaults (children, groups, TopDown on), as NULL is. */
static char *report_text(const char *path, const struct pk_report_opts *o)
{
	struct rep p;
	char *text = NULL;
	size_t len = 0;
	memset(&p, 0, sizeof(p));
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	CHECK_OK(pk_session__open(&p.s, path, &so, &p.err), &p.err);
	CHECK_OK(pk_report__new(&p.r, p.s, o, &p.err), &p.err);
	CHECK_OK(pk_report__process(p.r, &p.err), &p.err);
	CHECK_OK(pk_report__finish(p.r, &p.err), &p.err);
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(pk_report__fprintf(p.r, f, PK_REPORT_PRINT_NO_TIP), 0);
	fclose(f);
	rep_close(&p);
	return text;
}

static void test_zeroed_opts(void **state)
{
	(void)state;
	struct tfile t;
	write_chains(&t);
	struct pk_report_opts zero = { .sz = sizeof(zero) };
	char *a = report_text(t.path, NULL), *b = report_text(t.path, &zero);
	assert_string_equal(a, b);
	assert_non_null(strstr(b, "Children"));	/* children on, as perf */
	zero.children = PK_REPORT_OFF;
	char *c = report_text(t.path, &zero);
	assert_null(strstr(c, "Children"));
	free(a);
	free(b);
	free(c);
	/* a value outside the enum (the old -1 for "default") is refused */
	struct pk_session *s = NULL;
	struct pk_report *r = NULL;
	struct pk_error err = { 0 };
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	CHECK_OK(pk_session__open(&s, t.path, &so, &err), &err);
	struct pk_report_opts bad = { .sz = sizeof(bad), .group = (enum pk_report_switch)-1 };
	assert_int_equal(pk_report__new(&r, s, &bad, &err), -EINVAL);
	assert_null(r);
	pk_session__free(s);
}

/* --percent-limit: entries under it are flagged and not printed */
static void test_percent_limit(void **state)
{
	(void)state;
	struct tfile t;
	write_chains(&t);
	struct pk_report_opts o = { .sz = sizeof(o), .children = PK_REPORT_OFF,
				    .percent_limit = 10.0 };
	struct rep p;
	rep_open(&p, t.path, &o);
	const struct pk_report_entry *leaf = find(&p, 0, "rt_leaf", NULL);
	const struct pk_report_entry *mid = find(&p, 0, "rt_mid", NULL);
	assert_false(leaf->filtered);	/* 90.9% */
	assert_true(mid->filtered);	/* 50 of 550: 9.09% */
	rep_close(&p);
}

/* ---- group reads: each member's delta since the last sample of its id ------------------ */

static void test_group_read(void **state)
{
	(void)state;
	struct tfile t;
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	const char *names[] = { "slots", "inst_retired.any", "topdown-retiring",
				"topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound" };
	tf_open(&t, "group.data");
	for (int i = 0; i < 6; i++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_RAW, .size = sizeof(a), .config = 0x400 + (uint64_t)i,
			.sample_type = st, .read_format = rf, .sample_id_all = 1,
			.sample_period = i == 1 ? 1000 : 0,
		};
		uint64_t id = 700 + (uint64_t)i;
		CHECK_OK(pk_data_writer__add_attr(t.w, &a, names[i], &id, 1, &t.err), &t.err);
	}
	CHECK_OK(pk_data_writer__add_group(t.w, 0, 6, NULL, &t.err), &t.err);
	CHECK_OK(pk_data_writer__begin(t.w, &t.err), &t.err);
	tf_sideband(&t, st, 701);
	/*
	 * Cumulative values at three samples (leaf, leaf, mid). Deltas:
	 * leaf: slots 1000+3000, ret 250+1500, bad 0+0 (no delta: left out), fe 100+300
	 * mid: slots 2000, ret 1000, bad 200, fe 300
	 */
	const uint64_t vals[3][6] = {
		{ 1000, 1000, 250, 0, 100, 650 },
		{ 4000, 2000, 1750, 0, 400, 1850 },
		{ 6000, 3000, 2750, 200, 700, 2350 },
	};
	const uint64_t ips[3] = { FN(rt_leaf, 1), FN(rt_leaf, 2), FN(rt_mid, 3) };
	for (int k = 0; k < 3; k++) {
		uint64_t read[1 + 12];
		read[0] = 6;
		for (int i = 0; i < 6; i++) {
			read[1 + 2 * i] = vals[k][i];
			read[2 + 2 * i] = 700 + (uint64_t)i;
		}
		struct tsample s = { .ip = ips[k], .pid = PID, .tid = PID, .time = 2000 + (uint64_t)k,
				     .id = 701, .period = 1000, .read = read, .nr_read = 13 };
		put_sample(&t.recs, st, PERF_RECORD_MISC_USER, &s);
	}
	tf_close(&t);
	struct pk_report_opts o = { .sz = sizeof(o), 
				    .sort = "sym" };
	struct rep p;
	rep_open(&p, t.path, &o);
	assert_int_equal(pk_report__nr_sections(p.r), 1);	/* the group, together */
	const struct pk_report_section *sec = pk_report__section(p.r, 0);
	/* samples of every member with a delta: 3 + 3 + 3 + 1 + 3 + 3 */
	assert_int_equal(sec->nr_samples, 16);
	const struct pk_report_entry *leaf = find(&p, 0, "rt_leaf", NULL);
	const struct pk_report_entry *mid = find(&p, 0, "rt_mid", NULL);
	assert_non_null(leaf);
	assert_int_equal(leaf->nr_group, 6);
	assert_int_equal(leaf->group_period[0], 4000);
	assert_int_equal(leaf->group_period[1], 2000);
	assert_int_equal(leaf->group_period[2], 1750);
	assert_int_equal(leaf->group_period[3], 0);
	assert_int_equal(leaf->group_samples[3], 0);	/* zero deltas are not samples */
	assert_int_equal(leaf->group_period[4], 400);
	assert_int_equal(mid->group_period[3], 200);
	assert_int_equal(mid->group_samples[3], 1);
	/* TopDown columns: retiring = 1750 / 4000 of leaf's slots */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(pk_report__fprintf(p.r, f, PK_REPORT_PRINT_QUIET), 0);
	fclose(f);
	char want[64];
	snprintf(want, sizeof(want), "%.2f%%", 100.0 * 1750 / 4000);
	const char *line = strstr(text, "rt_leaf");
	assert_non_null(line);
	const char *bol = line;
	while (bol > text && bol[-1] != '\n')
		bol--;
	if (!strstr(bol, want) || strstr(bol, want) > line)
		fail_msg("leaf's line lacks retiring %s:\n%s", want, text);
	free(text);
	rep_close(&p);
	/* --no-group: one section per member */
	o.group = PK_REPORT_OFF;
	rep_open(&p, t.path, &o);
	assert_int_equal(pk_report__nr_sections(p.r), 6);
	rep_close(&p);
}

/* ---- views: --ignore-callees, the parent key, -x, the time key ---------------------------- */

static void test_views(void **state)
{
	(void)state;
	struct tfile t;
	write_chains(&t);
	struct pk_report_opts o = { .sz = sizeof(o), .children = PK_REPORT_OFF,
				    .sort = "sym", .ignore_callees = "^rt_mid$" };
	struct rep p;
	/* --ignore-callees: the samples under rt_mid count at rt_mid */
	rep_open(&p, t.path, &o);
	const struct pk_report_entry *mid = find(&p, 0, "rt_mid", NULL);
	const struct pk_report_entry *leaf = find(&p, 0, "rt_leaf", NULL);
	assert_non_null(mid);
	assert_non_null(leaf);
	assert_int_equal(mid->period, 3 * 100 + 50);
	assert_int_equal(leaf->period, 200);
	rep_close(&p);

	/* the parent key: sample 2 (under rt_rec) apart; -x leaves the others out */
	o.ignore_callees = NULL;
	o.sort = "parent,sym";
	o.parent = "^rt_rec$";
	rep_open(&p, t.path, &o);
	assert_int_equal(pk_report__nr_entries(p.r, 0), 3);	/* leaf twice, mid */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(pk_report__fprintf(p.r, f, PK_REPORT_PRINT_QUIET), 0);
	fclose(f);
	assert_non_null(strstr(text, "rt_rec         [.] rt_leaf"));
	assert_non_null(strstr(text, "[other]        [.] rt_leaf"));
	free(text);
	rep_close(&p);
	o.exclude_other = true;
	rep_open(&p, t.path, &o);
	size_t shown = 0;
	for (size_t i = 0; i < pk_report__nr_entries(p.r, 0); i++)
		shown += !pk_report__entry(p.r, 0, i)->filtered;
	assert_int_equal(shown, 1);
	rep_close(&p);

	/* the time key: 2 ns buckets split the five samples (times 2000..2004) 2+2+1 */
	o.parent = NULL;
	o.exclude_other = false;
	o.sort = "time";
	o.time_quantum = 2;
	rep_open(&p, t.path, &o);
	assert_int_equal(pk_report__nr_entries(p.r, 0), 3);
	rep_close(&p);

	/* a bad regex: perf's message */
	struct pk_session *s = NULL;
	struct pk_report *r = NULL;
	struct pk_error err = { 0 };
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	CHECK_OK(pk_session__open(&s, t.path, &so, &err), &err);
	o.sort = NULL;
	o.parent = "(";
	assert_int_not_equal(pk_report__new(&r, s, &o, &err), 0);
	assert_non_null(strstr(err.msg, "Invalid regex: ("));
	pk_session__free(s);
}

/* ---- options ------------------------------------------------------------------------------- */

static void test_bad_options(void **state)
{
	(void)state;
	struct pk_report *r = NULL;
	struct pk_error err = { 0 };
	struct pk_report_opts o = { .sz = sizeof(o), 
				    .sort = "comm,nosuchkey" };
	assert_int_not_equal(pk_report__new(&r, NULL, &o, &err), 0);
	assert_null(r);
	assert_string_equal(err.msg, "Unknown --sort key: `nosuchkey'");
	o.sort = "socket";
	assert_int_not_equal(pk_report__new(&r, NULL, &o, &err), 0);
	assert_non_null(strstr(err.msg, "not supported"));
	o.sort = NULL;
	o.fields = "+";
	assert_int_not_equal(pk_report__new(&r, NULL, &o, &err), 0);
	assert_string_equal(err.msg, "Invalid --fields key: `+'");
	o.fields = NULL;
	o.call_graph = "graph,abc";
	assert_int_not_equal(pk_report__new(&r, NULL, &o, &err), 0);
	/* perf's prefixes: "s" is symbol, "o" overhead, "f" flat */
	o.call_graph = "f,0.3,2,calle,addr,cou";
	o.sort = "s";
	o.fields = "o";
	assert_int_equal(pk_report__new(&r, NULL, &o, &err), 0);
	pk_report__free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_children_top),
		cmocka_unit_test(test_callers_first),
		cmocka_unit_test(test_graph_text),
		cmocka_unit_test(test_percent_limit),
		cmocka_unit_test(test_zeroed_opts),
		cmocka_unit_test(test_group_read),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_views),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
