/* SPDX-License-Identifier: MIT */
/*
 * test_report_rows.c — pk_report__foreach_row and pk_report__fprintf_callchain
 * and pk_report__snprintf_title (lib/report/rows.c), what pmukit report's
 * browser shows: the title (--stdio's samples and event count), the column header
 * line, then each printed entry's line followed by its callchain are, put
 * together, the section pk_report__fprintf prints (with and without
 * children, with -g none); the entries come in pk_report__entry's order;
 * before pk_report__finish and for --hierarchy the calls refuse (-EINVAL).
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

__attribute__((noinline)) int rr_leaf(int x);
__attribute__((noinline)) int rr_mid(int x);
__attribute__((noinline)) int rr_top(int x);
__attribute__((noinline)) int rr_leaf(int x)
{
	return x * 5 + 1;
}
__attribute__((noinline)) int rr_mid(int x)
{
	return rr_leaf(x) * 3 + 2;
}
__attribute__((noinline)) int rr_top(int x)
{
	return rr_mid(x) + rr_leaf(x);
}

#define FN(f, off) ((uint64_t)(uintptr_t)&(f) + (off))

/* samples leaf <- mid <- top (x3), leaf <- top (x2), mid <- top (x1) */
static void write_file(char *path, size_t size)
{
	struct pk_error err = { 0 };
	struct text_map text;
	assert_non_null(tmp_path(path, size, "rows.data"));
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	struct pk_data_writer *w;
	struct pk_data_writer_opts wo = { .sz = sizeof(wo) };
	CHECK_OK(pk_data_writer__new(&w, fd, &wo, &err), &err);
	assert_int_equal(own_text((const void *)&rr_leaf, &text), 0);
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100, .sample_type = st, .sample_id_all = 1,
	};
	uint64_t id = 7;
	CHECK_OK(pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err), &err);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	struct pk_buf recs = { 0 };
	put_comm(&recs, st, PID, "rrows", 1000, id);
	put_mmap2(&recs, st, PID, text.start, text.len, text.pgoff, text.path, 1001, id);
	uint64_t c1[] = { PERF_CONTEXT_USER, FN(rr_leaf, 1), FN(rr_mid, 5), FN(rr_top, 5) };
	uint64_t c2[] = { PERF_CONTEXT_USER, FN(rr_leaf, 2), FN(rr_top, 9) };
	uint64_t c3[] = { PERF_CONTEXT_USER, FN(rr_mid, 3), FN(rr_top, 5) };
	const struct { uint64_t *chain; uint32_t n; int times; } s[] = {
		{ c1, 4, 3 }, { c2, 3, 2 }, { c3, 3, 1 },
	};
	uint64_t time = 2000;
	for (size_t k = 0; k < 3; k++)
		for (int i = 0; i < s[k].times; i++) {
			struct tsample smp = { .ip = s[k].chain[1], .pid = PID, .tid = PID,
					       .time = time, .id = id, .period = 100,
					       .callchain = s[k].chain, .nr_callchain = s[k].n };
			put_sample(&recs, st, PERF_RECORD_MISC_USER, &smp);
			time++;
		}
	CHECK_OK(pk_data_writer__write(w, recs.data, recs.len, &err), &err);
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	pk_data_writer__free(w);
	close(fd);
	pk_buf__free(&recs);
}

struct rows {
	struct pk_report *r;
	FILE *fp;
	size_t next;		/* entries come in order */
};

static int on_row(void *ctx, size_t entry, const char *line)
{
	struct rows *c = ctx;
	if (entry == (size_t)-1) {
		fprintf(c->fp, "# %s\n", line);
		return 0;
	}
	assert_true(entry >= c->next);
	c->next = entry + 1;
	assert_non_null(pk_report__entry(c->r, 0, entry));
	fprintf(c->fp, "%s\n", line);
	return pk_report__fprintf_callchain(c->r, 0, entry, c->fp);
}

static void check(const char *path, struct pk_report_opts *o)
{
	struct pk_error err = { 0 };
	struct pk_session *s;
	struct pk_report *r;
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	CHECK_OK(pk_session__open(&s, path, &so, &err), &err);
	CHECK_OK(pk_report__new(&r, s, o, &err), &err);
	CHECK_OK(pk_report__process(r, &err), &err);
	struct rows c = { .r = r };
	assert_int_equal(pk_report__foreach_row(r, 0, on_row, &c), -EINVAL);	/* not finished */
	CHECK_OK(pk_report__finish(r, &err), &err);
	char *want = NULL, *got = NULL;
	size_t wl = 0, gl = 0;
	FILE *f = open_memstream(&want, &wl);
	assert_int_equal(pk_report__fprintf(r, f, PK_REPORT_PRINT_NO_TIP), 0);
	fclose(f);
	c.fp = open_memstream(&got, &gl);
	assert_int_equal(pk_report__foreach_row(r, 0, on_row, &c), 0);
	fclose(c.fp);
	assert_true(c.next > 0);
	assert_int_equal(pk_report__foreach_row(r, 1, on_row, &c), -EINVAL);	/* no such section */
	/* the title: --stdio's "# Samples: ..." and "# Event count ..." lines on one line */
	char title[512], expect[512];
	assert_int_equal(pk_report__snprintf_title(r, 0, title, sizeof(title)), 0);
	const char *smp = strstr(want, "# Samples: "), *cnt = strstr(want, "# Event count");
	assert_non_null(smp);
	assert_non_null(cnt);
	snprintf(expect, sizeof(expect), "%.*s, %.*s", (int)(strchr(smp, '\n') - smp - 2), smp + 2,
		 (int)(strchr(cnt, '\n') - cnt - 2), cnt + 2);
	assert_string_equal(title, expect);
	assert_int_equal(pk_report__snprintf_title(r, 1, title, sizeof(title)), -EINVAL);
	/* the section's text from its column header line to its closing blank lines */
	const char *from = strstr(want, "# Overhead");
	if (!from)
		from = strstr(want, "# Children");
	assert_non_null(from);
	const char *dots = strstr(from, "\n#\n");
	assert_non_null(dots);
	size_t blen = (size_t)(strchr(from, '\n') - from + 1), rest = strlen(dots + 3);
	char *body = malloc(blen + rest + 1);
	assert_non_null(body);
	memcpy(body, from, blen);
	memcpy(body + blen, dots + 3, rest + 1);
	size_t n = strlen(body);
	while (n && body[n - 1] == '\n')
		body[--n] = 0;
	n = strlen(got);
	while (n && got[n - 1] == '\n')
		got[--n] = 0;
	assert_string_equal(got, body);
	free(body);
	free(want);
	free(got);
	pk_report__free(r);
	pk_session__free(s);
}

static void test_rows_children(void **state)
{
	(void)state;
	char path[256];
	write_file(path, sizeof(path));
	struct pk_report_opts o = { .sz = sizeof(o) };
	check(path, &o);
}

static void test_rows_no_children(void **state)
{
	(void)state;
	char path[256];
	write_file(path, sizeof(path));
	struct pk_report_opts o = { .sz = sizeof(o), .children = PK_REPORT_OFF,
				    .call_graph = "graph,0,caller" };
	check(path, &o);
	o.call_graph = "none";
	o.sort = "dso,sym";
	check(path, &o);
}

static void test_rows_hierarchy(void **state)
{
	(void)state;
	char path[256];
	write_file(path, sizeof(path));
	struct pk_error err = { 0 };
	struct pk_session *s;
	struct pk_report *r;
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	struct pk_report_opts o = { .sz = sizeof(o), .hierarchy = true };
	CHECK_OK(pk_session__open(&s, path, &so, &err), &err);
	CHECK_OK(pk_report__new(&r, s, &o, &err), &err);
	CHECK_OK(pk_report__process(r, &err), &err);
	CHECK_OK(pk_report__finish(r, &err), &err);
	struct rows c = { .r = r };
	assert_int_equal(pk_report__foreach_row(r, 0, on_row, &c), -EINVAL);
	assert_int_equal(pk_report__fprintf_callchain(r, 0, 0, stdout), -EINVAL);
	pk_report__free(r);
	pk_session__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_children),
		cmocka_unit_test(test_rows_no_children),
		cmocka_unit_test(test_rows_hierarchy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
