/* SPDX-License-Identifier: MIT */
/*
 * test_report_threads.c — two reports finishing at once on two threads give
 * the text one report gives alone: the report library keeps its sort context
 * in its objects, not in file-scope state (make check-threads runs this
 * under ThreadSanitizer, which reports any shared write). The file has many
 * callchain shapes with equal hit counts, so that sibling sorts compare
 * often and ties go to the secondary keys.
 */
#include <pthread.h>
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
#define ROUNDS 40

__attribute__((noinline)) int tt_a(int x);
__attribute__((noinline)) int tt_b(int x);
__attribute__((noinline)) int tt_c(int x);
__attribute__((noinline)) int tt_d(int x);
__attribute__((noinline)) int tt_a(int x) { return x + 1; }
__attribute__((noinline)) int tt_b(int x) { return tt_a(x) * 3; }
__attribute__((noinline)) int tt_c(int x) { return tt_b(x) + tt_a(x); }
__attribute__((noinline)) int tt_d(int x) { return tt_c(x) - tt_b(x); }

#define FN(f, off) ((uint64_t)(uintptr_t)&(f) + (off))

/* every chain of length 2..4 over the four functions, each with the same period */
static void write_file(char *path, size_t len)
{
	struct pk_error err;
	struct text_map text;
	struct pk_data_writer *w;
	struct pk_buf recs = { 0 };
	assert_non_null(tmp_path(path, len, "threads.data"));
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	struct pk_data_writer_opts wo = { .sz = sizeof(wo) };
	CHECK_OK(pk_data_writer__new(&w, fd, &wo, &err), &err);
	assert_int_equal(own_text((const void *)&tt_a, &text), 0);
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100, .sample_type = st, .sample_id_all = 1,
	};
	uint64_t id = 5;
	CHECK_OK(pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err), &err);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	put_comm(&recs, st, PID, "tthreads", 1000, id);
	put_mmap2(&recs, st, PID, text.start, text.len, text.pgoff, text.path, 1001, id);
	const uint64_t fns[] = { FN(tt_a, 1), FN(tt_b, 2), FN(tt_c, 3), FN(tt_d, 4) };
	uint64_t time = 2000;
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t chain[5] = { PERF_CONTEXT_USER };
		int depth = 2 + r % 3;
		for (int i = 0; i < depth; i++)
			chain[1 + i] = fns[(r / 3 + i * (1 + r % 2)) % 4];
		struct tsample s = { .ip = chain[1], .pid = PID, .tid = PID, .time = time, .id = id,
				     .period = 100, .callchain = chain, .nr_callchain = depth + 1 };
		time++;
		put_sample(&recs, st, PERF_RECORD_MISC_USER, &s);
	}
	CHECK_OK(pk_data_writer__write(w, recs.data, recs.len, &err), &err);
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	pk_data_writer__free(w);
	close(fd);
	pk_buf__free(&recs);
}

struct job {
	const char *path;
	const char *call_graph;	/* graph (sibling sort) or flat (the flat printer's sort) */
	char *text;
	int rc;
};

/* one report, children on (the defaults), printed with its callchains */
static void *report_text(void *arg)
{
	struct job *j = arg;
	struct pk_error err;
	struct pk_session *s = NULL;
	struct pk_report *r = NULL;
	size_t len = 0;
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	struct pk_report_opts ro = { .sz = sizeof(ro), 
				     .call_graph = j->call_graph };
	FILE *f = open_memstream(&j->text, &len);
	j->rc = !f || pk_session__open(&s, j->path, &so, &err) || pk_report__new(&r, s, &ro, &err) ||
		pk_report__process(r, &err) || pk_report__finish(r, &err) ||
		pk_report__fprintf(r, f, PK_REPORT_PRINT_NO_TIP);
	if (f)
		fclose(f);
	pk_report__free(r);
	pk_session__free(s);
	return NULL;
}

static void two_at_once(const char *call_graph)
{
	char path[256];
	write_file(path, sizeof(path));
	struct job alone = { .path = path, .call_graph = call_graph };
	report_text(&alone);
	assert_int_equal(alone.rc, 0);
	assert_non_null(strstr(alone.text, "tt_a"));
	for (int round = 0; round < 4; round++) {
		struct job j[2] = { { .path = path, .call_graph = call_graph },
				    { .path = path, .call_graph = call_graph } };
		pthread_t t[2];
		for (int i = 0; i < 2; i++)
			assert_int_equal(pthread_create(&t[i], NULL, report_text, &j[i]), 0);
		for (int i = 0; i < 2; i++) {
			pthread_join(t[i], NULL);
			assert_int_equal(j[i].rc, 0);
			assert_string_equal(j[i].text, alone.text);
			free(j[i].text);
		}
	}
	free(alone.text);
}

static void test_two_reports_graph(void **state)
{
	(void)state;
	two_at_once("graph,0,caller");
}

static void test_two_reports_flat(void **state)
{
	(void)state;
	two_at_once("flat,0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_reports_graph),
		cmocka_unit_test(test_two_reports_flat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
