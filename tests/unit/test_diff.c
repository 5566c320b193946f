/* SPDX-License-Identifier: MIT */
/*
 * test_diff.c — perf diff in the library (pk_report__fprintf_diffs) on
 * perf.data files this test writes with samples in its own functions: the
 * computed columns (delta, ratio, wdiff, periods, formulas) and the order
 * perf sorts them in, the dummy rows of functions only a compared file has
 * (N/A ratios, no baseline) and -b dropping the unpaired, three files ("/N"
 * headers, the data files list), and the option errors. Every expected
 * value is computed from the periods written here.
 */
#include <errno.h>
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

#define PID 13579

__attribute__((noinline)) int dt_a(int x);
__attribute__((noinline)) int dt_b(int x);
__attribute__((noinline)) int dt_c(int x);
__attribute__((noinline)) int dt_a(int x)
{
	return x * 3 + 1;
}
__attribute__((noinline)) int dt_b(int x)
{
	return dt_a(x) * 5 + 2;
}
__attribute__((noinline)) int dt_c(int x)
{
	return dt_b(x) + dt_a(x);
}

#define FN(f) ((uint64_t)(uintptr_t)&(f) + 1)

/* a file with n[0] samples in dt_a, n[1] in dt_b, n[2] in dt_c, each of period 100 */
static void write_file(const char *name, const int n[3], char *path, size_t size)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100, .sample_type = st, .sample_id_all = 1,
	};
	struct pk_error err = { 0 };
	struct pk_data_writer *w;
	struct pk_buf recs = { 0 };
	struct text_map text;
	uint64_t id = 5, time = 1000;
	assert_non_null(tmp_path(path, size, name));
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	struct pk_data_writer_opts o = { .sz = sizeof(o) };
	CHECK_OK(pk_data_writer__new(&w, fd, &o, &err), &err);
	assert_int_equal(own_text((const void *)&dt_a, &text), 0);
	CHECK_OK(pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err), &err);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	put_comm(&recs, st, PID, "dtest", 100, id);
	put_mmap2(&recs, st, PID, text.start, text.len, text.pgoff, text.path, 101, id);
	const uint64_t ips[3] = { FN(dt_a), FN(dt_b), FN(dt_c) };
	for (int f = 0; f < 3; f++)
		for (int i = 0; i < n[f]; i++) {
			struct tsample s = { .ip = ips[f], .pid = PID, .tid = PID, .time = time,
					     .id = id, .period = 100 };
			put_sample(&recs, st, PERF_RECORD_MISC_USER, &s);
			time++;
		}
	CHECK_OK(pk_data_writer__write(w, recs.data, recs.len, &err), &err);
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	pk_data_writer__free(w);
	close(fd);
	pk_buf__free(&recs);
}

struct rep {
	struct pk_session *s;
	struct pk_report *r;
	char path[256];
};

static void rep_open(struct rep *p, const char *name, const int n[3])
{
	struct pk_error err = { 0 };
	write_file(name, n, p->path, sizeof(p->path));
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	struct pk_report_opts ro = { .sz = sizeof(ro), .sort = "dso,sym", .children = PK_REPORT_OFF,
				     .group = PK_REPORT_OFF, .topdown = PK_REPORT_OFF, .call_graph = "none" };
	CHECK_OK(pk_session__open(&p->s, p->path, &so, &err), &err);
	CHECK_OK(pk_report__new(&p->r, p->s, &ro, &err), &err);
	CHECK_OK(pk_report__process(p->r, &err), &err);
	CHECK_OK(pk_report__finish(p->r, &err), &err);
}

static void rep_close(struct rep *p)
{
	pk_report__free(p->r);
	pk_session__free(p->s);
}

/* the diff's text of reps[0..n) with opts (NULL on an error, rc in *rc) */
static char *diff_text(struct rep *reps, size_t n, const struct pk_diff_opts *o, int *rc)
{
	struct pk_report *r[4];
	const char *names[4];
	for (size_t i = 0; i < n; i++)
		r[i] = reps[i].r, names[i] = reps[i].path;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	struct pk_error err = { 0 };
	*rc = pk_report__fprintf_diffs(r, names, n, f, o, &err);
	fclose(f);
	if (*rc) {
		free(text);
		return NULL;
	}
	return text;
}

/* the row of symbol sym (its line, NUL-terminated in a static buffer), its index in *at */
static const char *row_of(const char *text, const char *sym, int *at)
{
	static char line[1024];
	int i = 0;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		if (line[0] != '#') {
			const char *s = strstr(line, "[.] ");
			if (s && !strcmp(s + 4, sym)) {
				if (at)
					*at = i;
				return line;
			}
			i++;
		}
		p += n + (p[n] == '\n');
	}
	return NULL;
}

/* A: a 3, b 1 (400); B: a 1, b 2, c 1 (400) */
static const int NA[3] = { 3, 1, 0 }, NB[3] = { 1, 2, 1 };

static void test_ratio_period(void **state)
{
	(void)state;
	struct rep p[2];
	rep_open(&p[0], "a.data", NA);
	rep_open(&p[1], "b.data", NB);
	struct pk_diff_opts o = { .sz = sizeof(o), .compute = PK_DIFF_RATIO, .show_period = true,
				  .quiet = true };
	int rc, ia = -1, ib = -1, ic = -1;
	char *t = diff_text(p, 2, &o, &rc);
	assert_int_equal(rc, 0);
	char want[256];
	/* baseline share, base period, new / old, new period */
	snprintf(want, sizeof(want), "%6.2f%%  %14d  %14.6f  %14d", 75.0, 300, 100.0 / 300, 100);
	assert_non_null(strstr(row_of(t, "dt_a", &ia), want));
	snprintf(want, sizeof(want), "%6.2f%%  %14d  %14.6f  %14d", 25.0, 100, 200.0 / 100, 200);
	assert_non_null(strstr(row_of(t, "dt_b", &ib), want));
	/* only in B: no baseline, a zero base period, N/A */
	snprintf(want, sizeof(want), "%8s  %14d  %14s  %14d", "", 0, "N/A", 100);
	assert_non_null(strstr(row_of(t, "dt_c", &ic), want));
	/* by ratio, the dummy last */
	assert_true(ib < ia && ia < ic);
	free(t);
	/* -b: the rows the baseline and a compared file share */
	o.baseline_only = true;
	t = diff_text(p, 2, &o, &rc);
	assert_null(row_of(t, "dt_c", NULL));
	assert_non_null(row_of(t, "dt_a", NULL));
	free(t);
	rep_close(&p[0]);
	rep_close(&p[1]);
}

static void test_delta_wdiff_formula(void **state)
{
	(void)state;
	struct rep p[2];
	rep_open(&p[0], "a.data", NA);
	rep_open(&p[1], "b.data", NB);
	struct pk_diff_opts o = { .sz = sizeof(o), .compute = PK_DIFF_DELTA, .show_formula = true,
				  .quiet = true };
	int rc, ia = -1, ib = -1;
	char *t = diff_text(p, 2, &o, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(row_of(t, "dt_a", &ia), "-50.00%  "));
	assert_non_null(strstr(row_of(t, "dt_a", NULL), "(100 * 100 / 400) - (300 * 100 / 400)"));
	assert_non_null(strstr(row_of(t, "dt_b", &ib), "+25.00%  "));
	assert_true(ib < ia);	/* signed: +25 before -50 */
	free(t);
	o.compute = PK_DIFF_WDIFF, o.wdiff_w1 = 2, o.wdiff_w2 = 3;
	t = diff_text(p, 2, &o, &rc);
	assert_int_equal(rc, 0);
	/* 100 * 3 - 300 * 2 and 200 * 3 - 100 * 2 */
	char want[64];
	snprintf(want, sizeof(want), "%14d  ", 100 * 3 - 300 * 2);
	assert_non_null(strstr(row_of(t, "dt_a", &ia), want));
	assert_non_null(strstr(row_of(t, "dt_a", NULL), "(100 * 3) - (300 * 2)"));
	snprintf(want, sizeof(want), "%14d  ", 200 * 3 - 100 * 2);
	assert_non_null(strstr(row_of(t, "dt_b", &ib), want));
	assert_true(ib < ia);
	free(t);
	rep_close(&p[0]);
	rep_close(&p[1]);
}

static void test_three_files(void **state)
{
	(void)state;
	static const int NC[3] = { 0, 0, 2 };
	struct rep p[3];
	rep_open(&p[0], "a.data", NA);
	rep_open(&p[1], "b.data", NB);
	rep_open(&p[2], "c.data", NC);
	struct pk_diff_opts o = { .sz = sizeof(o) };
	int rc;
	char *t = diff_text(p, 3, &o, &rc);
	assert_int_equal(rc, 0);
	char want[1024];
	snprintf(want, sizeof(want), "# Data files:\n#  [0] %s (Baseline)\n#  [1] %s \n#  [2] %s \n#\n",
		 p[0].path, p[1].path, p[2].path);
	assert_non_null(strstr(t, want));
	assert_non_null(strstr(t, "# Baseline/0  Delta Abs/1  Delta Abs/2  "));
	/* dt_c: only in B and C (+25%, +100%); dt_a: -50% in B, not in C */
	snprintf(want, sizeof(want), "  %10s  %11s  %11s  ", "", "+25.00%", "+100.00%");
	assert_non_null(strstr(row_of(t, "dt_c", NULL), want));
	snprintf(want, sizeof(want), "  %10s  %11s  %11s  ", "75.00%", "-50.00%", "");
	assert_non_null(strstr(row_of(t, "dt_a", NULL), want));
	free(t);
	/* pk_report__fprintf_diff is the two-file case */
	char *two = diff_text(p, 2, &o, &rc), *old = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&old, &len);
	struct pk_error err = { 0 };
	CHECK_OK(pk_report__fprintf_diff(p[0].r, p[1].r, p[0].path, p[1].path, f, &o, &err), &err);
	fclose(f);
	assert_string_equal(two, old);
	free(two);
	free(old);
	for (int i = 0; i < 3; i++)
		rep_close(&p[i]);
}

static void test_errors(void **state)
{
	(void)state;
	struct rep p[2];
	rep_open(&p[0], "a.data", NA);
	rep_open(&p[1], "b.data", NB);
	int rc;
	struct pk_diff_opts o = { .sz = sizeof(o) };
	assert_null(diff_text(p, 1, &o, &rc));
	assert_int_equal(rc, -EINVAL);
	o.order_set = true, o.order = 2;	/* past the last file */
	assert_null(diff_text(p, 2, &o, &rc));
	assert_int_equal(rc, -EINVAL);
	o.order = 0;
	char *t = diff_text(p, 2, &o, &rc);
	assert_int_equal(rc, 0);
	free(t);
	o.compute = PK_DIFF_WDIFF, o.wdiff_w1 = 1;	/* no w2 */
	assert_null(diff_text(p, 2, &o, &rc));
	assert_int_equal(rc, -EINVAL);
	rep_close(&p[0]);
	rep_close(&p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio_period),
		cmocka_unit_test(test_delta_wdiff_formula),
		cmocka_unit_test(test_three_files),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
