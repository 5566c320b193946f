/* SPDX-License-Identifier: MIT */
/*
 * test_filter.c — the sample filters (pmukit/session.h, pk_sample_filter)
 * on a perf.data file this test writes: two threads (comms "fa" and "fb")
 * sampling this program's own functions on CPUs 0 and 1 at known times.
 * perf's --time forms (absolute ranges, the percent forms over the file's
 * sample time range, reltime) and their errors, -C and its errors, the
 * comm/pid/tid/symbol bits of resolved samples, one-entry lists, the
 * options' size check; and a report over the filter: hidden entries kept
 * in the totals, --percentage relative's header, --symbol-filter, the
 * elided column. Expected values come from the samples written here.
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
#include <pmukit/session.h>

#include "test_data_write_util.h"

#define PID 13570
#define TID2 13571
#define T0 1000000000ull	/* the first sample's time: 1 s */
#define STEP 10000000ull	/* 10 ms between samples */
#define NR 20			/* samples: 0..19, even ones thread 1 on CPU 0, odd thread 2 on CPU 1 */

__attribute__((noinline)) int ft_one(int x);
__attribute__((noinline)) int ft_two(int x);
__attribute__((noinline)) int ft_one(int x)
{
	return x * 3 + 1;
}
__attribute__((noinline)) int ft_two(int x)
{
	return ft_one(x) * 5;
}

#define FN(f, off) ((uint64_t)(uintptr_t)&(f) + (off))

static char path[256];

/* sample i: thread 1 (fa) on CPU 0 in ft_one when i is even, thread 2 (fb) on CPU 1 in ft_two */
static void write_file(uint64_t st)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100, .sample_type = st, .sample_id_all = 1,
	};
	struct pk_error err = { 0 };
	struct pk_data_writer *w;
	struct pk_buf recs = { 0 };
	struct text_map text;
	uint64_t id = 7;
	assert_non_null(tmp_path(path, sizeof(path), st & PERF_SAMPLE_CPU ? "f.data" : "nocpu.data"));
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(own_text((const void *)&ft_one, &text), 0);
	struct pk_data_writer_opts o = { .sz = sizeof(o) };
	CHECK_OK(pk_data_writer__new(&w, fd, &o, &err), &err);
	CHECK_OK(pk_data_writer__add_attr(w, &a, "cpu-clock", &id, 1, &err), &err);
	CHECK_OK(pk_data_writer__begin(w, &err), &err);
	put_comm(&recs, st, PID, "fa", 100, id);
	/* the second thread's COMM */
	size_t at = begin_rec(&recs, PERF_RECORD_COMM, 0);
	put32(&recs, PID), put32(&recs, TID2);
	put_str_padded(&recs, "fb");
	put_id_trailer(&recs, st, PID, 101, id);
	end_rec(&recs, at);
	put_mmap2(&recs, st, PID, text.start, text.len, text.pgoff, text.path, 102, id);
	for (int i = 0; i < NR; i++) {
		bool one = !(i & 1);
		struct tsample s = { .ip = one ? FN(ft_one, 1) : FN(ft_two, 1), .pid = PID,
				     .tid = one ? PID : TID2, .time = T0 + (uint64_t)i * STEP,
				     .cpu = one ? 0 : 1, .id = id, .period = one ? 100 : 300 };
		put_sample(&recs, st, PERF_RECORD_MISC_USER, &s);
	}
	CHECK_OK(pk_data_writer__write(w, recs.data, recs.len, &err), &err);
	CHECK_OK(pk_data_writer__finish(w, &err), &err);
	pk_data_writer__free(w);
	close(fd);
	pk_buf__free(&recs);
}

static const uint64_t ST = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;

static struct pk_session *open_session(void)
{
	struct pk_session *s;
	struct pk_error err = { 0 };
	struct pk_session_opts so = { .sz = sizeof(so), .nr_threads = 1 };
	CHECK_OK(pk_session__open(&s, path, &so, &err), &err);
	return s;
}

static int new_filter(struct pk_session *s, struct pk_sample_filter **f,
		      struct pk_sample_filter_opts *o, struct pk_error *err)
{
	memset(err, 0, sizeof(*err));
	o->sz = sizeof(*o);
	return pk_sample_filter__new(f, s, o, err);
}

/* --time's ranges for str (reltime too), checked against want[] (start, end pairs) */
static void check_ranges(struct pk_session *s, const char *str, bool rel, size_t n,
			 const uint64_t *want)
{
	struct pk_sample_filter *f;
	struct pk_error err;
	struct pk_sample_filter_opts o = { .time = str, .reltime = rel };
	CHECK_OK(new_filter(s, &f, &o, &err), &err);
	assert_int_equal(pk_sample_filter__nr_ranges(f), n);
	for (size_t i = 0; i < n; i++) {
		uint64_t a, b;
		pk_sample_filter__range(f, i, &a, &b);
		if (a != want[2 * i] || b != want[2 * i + 1])
			print_message("%s: range %zu is %llu,%llu\n", str, i, (unsigned long long)a,
				      (unsigned long long)b);
		assert_true(a == want[2 * i] && b == want[2 * i + 1]);
	}
	pk_sample_filter__free(f);
}

static void test_time_forms(void **state)
{
	(void)state;
	write_file(ST);
	struct pk_session *s = open_session();
	const uint64_t first = T0, last = T0 + (NR - 1) * STEP, total = last - first;
	/* seconds with up to 9 decimals; either side open */
	check_ranges(s, "1.5,2", false, 1, (uint64_t[]){ 1500000000ull, 2000000000ull });
	check_ranges(s, "1.000000001,", false, 1, (uint64_t[]){ 1000000001ull, 0 });
	check_ranges(s, ",3", false, 1, (uint64_t[]){ 0, 3000000000ull });
	check_ranges(s, "1,2 3,4", false, 2,
		     (uint64_t[]){ 1000000000ull, 2000000000ull, 3000000000ull, 4000000000ull });
	/* reltime: from the first sample */
	check_ranges(s, "0.05,0.1", true, 1, (uint64_t[]){ first + 50000000ull, first + 100000000ull });
	/* percent forms: slices of first..last, each end one ns short unless it is last */
	check_ranges(s, "10%/2", false, 1,
		     (uint64_t[]){ first + total / 10, first + 2 * total / 10 - 1 });
	check_ranges(s, "10%/1,10%/3", false, 2,
		     (uint64_t[]){ first, first + total / 10 - 1, first + 2 * total / 10,
				   first + 3 * total / 10 - 1 });
	check_ranges(s, "0%-10%,30%-40%", false, 2,
		     (uint64_t[]){ first, first + total / 10 - 1, first + 3 * total / 10,
				   first + 4 * total / 10 - 1 });
	check_ranges(s, "50%", false, 1, (uint64_t[]){ first, first + total / 2 - 1 });
	check_ranges(s, "90%-100%", false, 1, (uint64_t[]){ first + 9 * total / 10, last });
	/* perf's "Invalid time string" */
	static const char *const bad[] = { "abc", "1.5", "2,1", "1,3 2,4", "1.0000000001,2", "1,2,3",
					   "0%", "x%/1", "10%/1x", "10%-x", "150%", "-5%/1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pk_sample_filter *f = NULL;
		struct pk_error err;
		struct pk_sample_filter_opts o = { .time = bad[i] };
		int rc = new_filter(s, &f, &o, &err);
		if (rc != -EINVAL)
			print_message("--time %s: %d\n", bad[i], rc);
		assert_int_equal(rc, -EINVAL);
		assert_null(f);
		assert_string_equal(err.msg, "Invalid time string");
	}
	pk_session__free(s);
}

/* the samples a filter keeps, as a bit mask of sample numbers (dropped or hidden) */
static uint32_t kept(const char *what, struct pk_sample_filter_opts *o, unsigned *hide_bits)
{
	struct pk_session *s = open_session();
	struct pk_sample_filter *f;
	struct pk_error err;
	CHECK_OK(new_filter(s, &f, o, &err), &err);
	const struct pk_data_event *ev;
	struct pk_resolved rs = { .sz = sizeof(rs) };
	uint32_t mask = 0;
	int rc;
	if (hide_bits)
		*hide_bits = 0;
	while ((rc = pk_session__next(s, &ev, &err)) > 0) {
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		unsigned i = (unsigned)((ev->sample.time - T0) / STEP);
		if (pk_sample_filter__drop(f, ev))
			continue;
		CHECK_OK(pk_session__resolve(s, ev, 0, &rs, &err), &err);
		unsigned bits = pk_sample_filter__hide(f, &rs);
		if (hide_bits)
			*hide_bits |= bits;
		if (!bits)
			mask |= 1u << i;
	}
	assert_int_equal(rc, 0);
	(void)what;
	pk_sample_filter__free(f);
	pk_session__free(s);
	return mask;
}

#define EVEN 0x55555u
#define ODD 0xaaaaau

static void test_drop_and_hide(void **state)
{
	(void)state;
	write_file(ST);
	unsigned bits;
	char buf[320];
	/* -C */
	assert_int_equal(kept("cpu 0", &(struct pk_sample_filter_opts){ .cpus = "0" }, NULL), EVEN);
	assert_int_equal(kept("cpu 1", &(struct pk_sample_filter_opts){ .cpus = "1" }, NULL), ODD);
	assert_int_equal(kept("cpu 0-1", &(struct pk_sample_filter_opts){ .cpus = "0-1" }, NULL),
			 EVEN | ODD);
	/* --time: samples 5..9 (their times in seconds), then the first 10% slice */
	assert_int_equal(kept("time", &(struct pk_sample_filter_opts){ .time = "1.05,1.09" }, NULL),
			 0x3e0u);
	assert_int_equal(kept("10%", &(struct pk_sample_filter_opts){ .time = "10%/1" }, NULL), 0x3u);
	assert_int_equal(kept("rel", &(struct pk_sample_filter_opts){ .time = ",0.05",
								  .reltime = true }, NULL), 0x3fu);
	/* perf moves an open end by the first sample's time too: nothing is left */
	assert_int_equal(kept("rel", &(struct pk_sample_filter_opts){ .time = "0.18,",
								  .reltime = true }, NULL), 0);
	/* comms, pids, tids: thread bits */
	assert_int_equal(kept("fa", &(struct pk_sample_filter_opts){ .comms = "fa" }, &bits), EVEN);
	assert_int_equal(bits, PK_FILTER_THREAD);
	assert_int_equal(kept("fa,fb", &(struct pk_sample_filter_opts){ .comms = "fb,fa" }, NULL),
			 EVEN | ODD);
	assert_int_equal(kept("none", &(struct pk_sample_filter_opts){ .comms = "" }, NULL), 0);
	/* "file://PATH": one entry a line */
	char list[256];
	assert_non_null(tmp_path(list, sizeof(list), "comms.txt"));
	FILE *lf = fopen(list, "w");
	assert_non_null(lf);
	fputs("fb\nnone\n", lf);
	fclose(lf);
	snprintf(buf, sizeof(buf), "file://%s", list);
	assert_int_equal(kept("file", &(struct pk_sample_filter_opts){ .comms = buf }, NULL), ODD);
	snprintf(buf, sizeof(buf), "%d", TID2);
	assert_int_equal(kept("tid", &(struct pk_sample_filter_opts){ .tids = buf }, NULL), ODD);
	snprintf(buf, sizeof(buf), "1,%d", PID);
	assert_int_equal(kept("pid", &(struct pk_sample_filter_opts){ .pids = buf }, NULL),
			 EVEN | ODD);
	/* symbols by name, or by start address */
	assert_int_equal(kept("sym", &(struct pk_sample_filter_opts){ .symbols = "ft_two" }, &bits),
			 ODD);
	assert_int_equal(bits, PK_FILTER_SYMBOL);
	/* dsos: this program by its short name; another DSO hides everything */
	struct text_map text;
	assert_int_equal(own_text((const void *)&ft_one, &text), 0);
	const char *base = strrchr(text.path, '/');
	assert_int_equal(kept("dso", &(struct pk_sample_filter_opts){ .dsos = base ? base + 1
											: text.path },
			      NULL), EVEN | ODD);
	assert_int_equal(kept("dso", &(struct pk_sample_filter_opts){ .dsos = "libc.so.6" }, &bits),
			 0);
	assert_int_equal(bits, PK_FILTER_DSO);
}

static void test_errors(void **state)
{
	(void)state;
	write_file(ST);
	struct pk_session *s = open_session();
	struct pk_sample_filter *f = NULL;
	struct pk_error err;
	struct pk_sample_filter_opts o = { .pids = "1,1" };
	assert_int_equal(new_filter(s, &f, &o, &err), -EINVAL);	/* perf's intlist: no duplicate */
	assert_string_equal(err.msg, "problems parsing pid list");
	o = (struct pk_sample_filter_opts){ .tids = "12x" };
	assert_int_equal(new_filter(s, &f, &o, &err), -EINVAL);
	assert_string_equal(err.msg, "problems parsing tid list");
	o = (struct pk_sample_filter_opts){ .comms = "fa,fb,fa" };	/* perf's strlist: no duplicate */
	assert_int_equal(new_filter(s, &f, &o, &err), -EINVAL);
	assert_string_equal(err.msg, "problems parsing comm list");
	o = (struct pk_sample_filter_opts){ .symbols = "file:///nonexistent/list" };
	assert_int_equal(new_filter(s, &f, &o, &err), -EINVAL);
	assert_string_equal(err.msg, "problems parsing symbol list");
	o = (struct pk_sample_filter_opts){ .cpus = "1-0" };
	assert_int_equal(new_filter(s, &f, &o, &err), -EINVAL);
	assert_string_equal(err.msg, "Invalid cpu_list");
	o = (struct pk_sample_filter_opts){ .cpus = "100000" };
	assert_int_equal(new_filter(s, &f, &o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too large"));
	assert_null(f);
	/* a newer caller's struct: accepted with a zero tail, refused otherwise */
	struct {
		struct pk_sample_filter_opts o;
		uint64_t more;
	} big = { .o = { .comms = "fa" } };
	big.o.sz = sizeof(big);
	assert_int_equal(pk_sample_filter__new(&f, s, &big.o, &err), 0);
	assert_string_equal(pk_sample_filter__only(f, PK_FILTER_LIST_COMM), "fa");
	assert_null(pk_sample_filter__only(f, PK_FILTER_LIST_DSO));
	assert_int_equal(pk_sample_filter__hides(f), PK_FILTER_THREAD);
	pk_sample_filter__free(f);
	big.more = 1;
	assert_int_equal(pk_sample_filter__new(&f, s, &big.o, &err), -EINVAL);
	pk_session__free(s);
	/* -C needs PERF_SAMPLE_CPU */
	write_file(ST & ~PERF_SAMPLE_CPU);
	s = open_session();
	o = (struct pk_sample_filter_opts){ .cpus = "0" };
	assert_int_equal(new_filter(s, &f, &o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "File does not contain CPU events"));
	pk_session__free(s);
}

/* the report's text with a filter and options */
static void report_text(struct pk_sample_filter_opts *fo, struct pk_report_opts *ro,
			struct pk_buf *out)
{
	struct pk_session *s = open_session();
	struct pk_sample_filter *f;
	struct pk_report *r;
	struct pk_error err;
	CHECK_OK(new_filter(s, &f, fo, &err), &err);
	ro->sz = sizeof(*ro);
	ro->filter = f;
	CHECK_OK(pk_report__new(&r, s, ro, &err), &err);
	CHECK_OK(pk_report__process(r, &err), &err);
	CHECK_OK(pk_report__finish(r, &err), &err);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_non_null(m);
	assert_int_equal(pk_report__fprintf(r, m, PK_REPORT_PRINT_NO_TIP), 0);
	fclose(m);
	out->len = 0;
	pk_buf__append(out, text, len + 1);
	free(text);
	/* the public view: every entry kept, the hidden ones marked */
	size_t nr_hidden = 0;
	for (size_t i = 0; i < pk_report__nr_entries(r, 0); i++) {
		const struct pk_report_entry *e = pk_report__entry(r, 0, i);
		nr_hidden += e->hidden;
		if (fo->comms && !strcmp(fo->comms, "fa"))
			assert_int_equal(e->hidden, strcmp(e->comm, "fa") != 0);
	}
	if (fo->comms && !strcmp(fo->comms, "fa"))
		assert_int_equal(nr_hidden, 1);	/* fb's ft_two */
	pk_report__free(r);
	pk_sample_filter__free(f);
	pk_session__free(s);
}

static void test_report(void **state)
{
	(void)state;
	write_file(ST);
	struct pk_buf out = { 0 };
	/* --comms fa: fb's entry hidden, the totals kept (absolute, perf's default) */
	report_text(&(struct pk_sample_filter_opts){ .comms = "fa" }, &(struct pk_report_opts){ 0 },
		    &out);
	assert_output_has(&out, "# comm: fa\n");
	assert_output_has(&out, "# Samples: 20  of event 'cpu-clock'\n# Event count (approx.): 4000\n");
	assert_output_has(&out, "    25.00%  ");	/* fa: 10 x 100 of 4000 */
	assert_output_has(&out, "[.] ft_one");
	assert_output_lacks(&out, "ft_two");
	assert_output_lacks(&out, "Command");	/* the comm column is elided */
	/* --percentage relative: of the shown samples */
	report_text(&(struct pk_sample_filter_opts){ .comms = "fa" },
		    &(struct pk_report_opts){ .filter_relative = true }, &out);
	assert_output_has(&out, "# Samples: 10  of event 'cpu-clock'\n# Event count (approx.): 1000\n");
	assert_output_has(&out, "   100.00%  ");
	/* dropped samples are not counted: -C 1; --time shows its slices */
	report_text(&(struct pk_sample_filter_opts){ .cpus = "1", .time = "0%-50%" },
		    &(struct pk_report_opts){ .time_str = "0%-50%" }, &out);
	assert_output_has(&out, "# Samples: 5  of event 'cpu-clock' (time slices: 0%-50%)\n"
				"# Event count (approx.): 1500\n");
	/* --symbol-filter hides the first event's entries whose symbol lacks the string */
	report_text(&(struct pk_sample_filter_opts){ 0 },
		    &(struct pk_report_opts){ .symbol_filter = "two" }, &out);
	assert_output_lacks(&out, "ft_one");
	assert_output_has(&out, "    75.00%  fb");
	/* ... only when perf collapses: not with --sort sym */
	report_text(&(struct pk_sample_filter_opts){ 0 },
		    &(struct pk_report_opts){ .symbol_filter = "two", .sort = "sym" }, &out);
	assert_output_has(&out, "ft_one");
	pk_buf__free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_forms),
		cmocka_unit_test(test_drop_and_hide),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
