/* SPDX-License-Identifier: MIT */
/*
 * test_data_read_order.c — the order records come out in, against a model
 * of perf's ordered-events queue written here as perf has it (a linked list
 * with a "last" insertion hint, max_timestamp, next_flush, ROUND and FINAL
 * flushes): random streams of samples with random times, some with none,
 * side-band records, FINISHED_ROUND anywhere; read from a file with a small
 * mapped window (queued records copied as the window moves), through a pipe
 * (copied as the buffer refills), compressed (copied as the decompression
 * buffer refills), and records of odd sizes that land misaligned. A queue
 * limit delivers every record once and in bounded memory.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_data_read.h"

/* ---- the model ------------------------------------------------------------------------- */

struct node {
	uint64_t ts, id;
	int prev, next;
};

struct model {
	struct node *n;
	int head, tail, last, free_at, nr;
	uint64_t max_ts, next_flush;
	uint64_t *out;
	size_t nout;
};

static void m_deliver(struct model *m, uint64_t id)
{
	m->out[m->nout++] = id;
}

static void m_link_after(struct model *m, int at, int x)	/* at -1: at the head */
{
	int nx = at < 0 ? m->head : m->n[at].next;
	m->n[x].prev = at;
	m->n[x].next = nx;
	if (at < 0)
		m->head = x;
	else
		m->n[at].next = x;
	if (nx < 0)
		m->tail = x;
	else
		m->n[nx].prev = x;
}

static void m_queue(struct model *m, uint64_t ts, uint64_t id)
{
	if (!ts || ts == UINT64_MAX) {
		m_deliver(m, id);
		return;
	}
	int x = m->free_at++;
	m->n[x].ts = ts;
	m->n[x].id = id;
	int last = m->last;
	m->nr++;
	m->last = x;
	if (last < 0) {
		m_link_after(m, -1, x);
		m->max_ts = ts;
		return;
	}
	if (m->n[last].ts <= ts) {
		while (m->n[last].ts <= ts) {
			if (m->n[last].next < 0) {
				m_link_after(m, m->tail, x);
				m->max_ts = ts;
				return;
			}
			last = m->n[last].next;
		}
		m_link_after(m, m->n[last].prev, x);	/* before last */
	} else {
		while (m->n[last].ts > ts) {
			if (m->n[last].prev < 0) {
				m_link_after(m, -1, x);
				return;
			}
			last = m->n[last].prev;
		}
		m_link_after(m, last, x);
	}
}

static void m_flush(struct model *m, uint64_t limit)
{
	uint64_t last_ts = m->last >= 0 ? m->n[m->last].ts : 0;
	if (!limit)
		return;
	while (m->head >= 0 && m->n[m->head].ts <= limit) {
		int x = m->head;
		m_deliver(m, m->n[x].id);
		m->head = m->n[x].next;
		if (m->head >= 0)
			m->n[m->head].prev = -1;
		else
			m->tail = -1;
		m->nr--;
	}
	if (m->head < 0)
		m->last = -1;
	else if (last_ts <= limit)
		m->last = m->tail;
}

static void m_round(struct model *m)
{
	if (!m->nr)
		return;
	m_flush(m, m->next_flush);
	m->next_flush = m->max_ts;
}

static void m_final(struct model *m)
{
	if (m->nr)
		m_flush(m, UINT64_MAX);
}

/* ---- streams ------------------------------------------------------------------------------ */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#define ROUND_ID 0xffffff

/*
 * n records: samples (ip = their number) with times from per-"CPU" clocks that
 * drift apart, a few with time 0; COMMs of odd sizes when odd (misaligned
 * records after them in a pipe... sizes stay 8-aligned, the pipe features do
 * that part); FINISHED_ROUND every so often. The model's delivery goes to
 * m->out (ROUND_ID for a round record).
 */
static void make_stream(struct syn *s, struct model *m, size_t n, uint64_t seed, bool rounds)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE };
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	syn_attr(s, &a, 128, NULL, NULL, 0);
	/* a feature of unaligned size: in a pipe, every record after it is misaligned */
	syn_feat(s, 200, "abcdefghijklm", 13);
	m->n = calloc(n, sizeof(*m->n));
	m->out = calloc(2 * n + 8, sizeof(*m->out));
	m->head = m->tail = m->last = -1;
	uint64_t clock[4] = { 1000, 1000, 1000, 1000 };
	struct rb r;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = rnd(&seed);
		int cpu = (int)(x % 4);
		clock[cpu] += 1 + (x >> 8) % 300;
		uint64_t ts = (x >> 20) % 53 == 0 ? 0 : clock[cpu];
		if ((x >> 30) % 11 == 0) {
			/* a side-band record: a COMM with the trailer (TIME) */
			rb_start(&r, PERF_RECORD_COMM, 0);
			rb_u32x2(&r, 1, 1);
			rb_str(&r, (x >> 40) & 1 ? "a" : "a-longer-name");
			rb_u64(&r, ts);
			syn_rec(s, rb_end(&r));
			m_queue(m, ts, 0x8000000 + i);
		} else {
			rb_start(&r, PERF_RECORD_SAMPLE, 0);
			rb_u64(&r, i);
			rb_u64(&r, ts);
			syn_rec(s, rb_end(&r));
			m_queue(m, ts, i);
		}
		if (rounds && (x >> 44) % 97 == 0) {
			rb_start(&r, PK_RECORD_FINISHED_ROUND, 0);
			syn_rec(s, rb_end(&r));
			m_deliver(m, ROUND_ID);
			m_round(m);
		}
	}
	m_final(m);
}

/* What a reading delivers, as ids. */
static size_t read_ids(const void *p, size_t len, const struct pk_data_reader_opts *o, bool pipe,
		       uint64_t *out, size_t max, struct pk_data_stats *st)
{
	struct pk_data_reader *r;
	struct pk_error err = { 0 };
	struct pipe_src ps;
	int fd = pipe ? pipe_open(&ps, p, len) : mem_fd(p, len);
	if (pk_data_reader__open_fd(&r, fd, "mem", o, &err))
		fail_msg("open: %s", err.msg);
	const struct pk_data_event *ev;
	size_t n = 0;
	int rc;
	while ((rc = pk_data_reader__next(r, &ev, &err)) > 0) {
		if (n == max)
			fail_msg("too many records");
		if (ev->type == PERF_RECORD_SAMPLE)
			out[n++] = ev->sample.ip;
		else if (ev->type == PERF_RECORD_COMM)
			out[n++] = 0x8000000 + ev->offset;	/* mapped to its number later */
		else if (ev->type == PK_RECORD_FINISHED_ROUND)
			out[n++] = ROUND_ID;
	}
	if (rc < 0)
		fail_msg("next: %s", err.msg);
	if (st)
		*st = *pk_data_reader__stats(r);
	pk_data_reader__free(r);
	if (pipe)
		pipe_close(&ps);
	else
		close(fd);
	return n;
}

/* COMMs are identified by their position: map offsets to record numbers. */
static void comm_ids_by_offset(const struct pk_buf *file, size_t data_off, size_t data_len,
			       bool pipe, uint64_t *ids, size_t n)
{
	/* walk the data, numbering records as make_stream did (rounds are not numbered) */
	uint64_t *map = calloc(file->len + 1, sizeof(uint64_t));
	size_t at = data_off, i = 0;
	while (at + 8 <= data_off + data_len) {
		uint32_t type;
		uint16_t size;
		memcpy(&type, file->data + at, 4);
		memcpy(&size, file->data + at + 6, 2);
		assert_true(size >= 8);
		if (type == PERF_RECORD_COMM)
			map[at - (pipe ? 16 : 0)] = 0x8000000 + i;
		if (type == PERF_RECORD_COMM || type == PERF_RECORD_SAMPLE)
			i++;
		at += size;
	}
	for (size_t k = 0; k < n; k++)
		if (ids[k] >= 0x8000000 && ids[k] != ROUND_ID)
			ids[k] = map[ids[k] - 0x8000000];
	free(map);
}

static void check_against_model(size_t nrec, uint64_t seed, bool rounds, bool pipe_fmt,
				bool compress)
{
	struct syn s = { .pipe = pipe_fmt };
	struct model m = { 0 };
	make_stream(&s, &m, nrec, seed, rounds);
	if (compress) {
		struct pk_buf recs = s.data;
		memset(&s.data, 0, sizeof(s.data));
		static const size_t cuts[] = { 10000, 3, 77777, 5, 123 };
		syn_compressed(&s, recs.data, recs.len, cuts, 5, PK_RECORD_COMPRESSED);
		pk_buf__free(&recs);
	}
	struct pk_buf file;
	syn_build(&s, &file);
	size_t data_off = 16;
	if (!pipe_fmt)
		memcpy(&data_off, file.data + 40, 8);
	else	/* past the attr and the odd-sized feature */
		data_off = file.len - s.data.len;
	if (compress) {	/* COMMs carry their chunk's offset: compare samples and rounds */
		size_t j = 0;
		for (size_t k = 0; k < m.nout; k++)
			if (m.out[k] < 0x8000000 || m.out[k] == ROUND_ID)
				m.out[j++] = m.out[k];
		m.nout = j;
	}
	uint64_t *got = calloc(2 * nrec + 8, sizeof(*got));
	/* default, a small window, read ahead, both */
	const struct pk_data_reader_opts opts[4] = {
		{ .sz = sizeof(opts[0]) },
		{ .sz = sizeof(opts[0]), .window_bytes = 1 },
		{ .sz = sizeof(opts[0]), .read_ahead = true },
		{ .sz = sizeof(opts[0]), .window_bytes = 1, .read_ahead = true },
	};
	for (int as_pipe = 0; as_pipe <= (int)pipe_fmt; as_pipe++)
		for (int w = 0; w < 4; w++) {
			size_t n = read_ids(file.data, file.len, &opts[w], as_pipe, got,
					    2 * nrec + 8, NULL);
			if (compress) {
				size_t j = 0;
				for (size_t k = 0; k < n; k++)
					if (got[k] < 0x8000000 || got[k] == ROUND_ID)
						got[j++] = got[k];
				n = j;
			} else {
				comm_ids_by_offset(&file, data_off, s.data.len, pipe_fmt, got, n);
			}
			assert_int_equal(n, m.nout);
			for (size_t k = 0; k < n; k++)
				if (got[k] != m.out[k])
					fail_msg("seed %llu pipe %d window %d: record %zu is %llx, perf "
						 "delivers %llx",
						 (unsigned long long)seed, as_pipe, w, k,
						 (unsigned long long)got[k],
						 (unsigned long long)m.out[k]);
		}
	free(got);
	free(m.n);
	free(m.out);
	pk_buf__free(&file);
	syn_free(&s);
}

static void test_model_small(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 60; seed++)
		check_against_model(40 + seed * 7, seed * 0x9e3779b97f4a7c15ULL, seed % 3 != 0,
				    seed % 2, false);
}

static void test_model_windows(void **state)
{
	(void)state;
	/* ~60k records of 24-40 bytes: several 256 KiB windows and pipe buffers */
	check_against_model(60000, 77, true, false, false);
	check_against_model(60000, 78, true, true, false);
	check_against_model(30000, 79, false, false, false);
}

static void test_model_compressed(void **state)
{
	(void)state;
	check_against_model(60000, 80, true, false, true);
	check_against_model(60000, 81, true, true, true);
}

/* A file without rounds read with a small queue: every record once, in bounded memory. */
static void test_queue_limit(void **state)
{
	(void)state;
	struct syn s = { 0 };
	struct model m = { 0 };
	size_t n = 50000;
	make_stream(&s, &m, n, 99, false);
	struct pk_buf file;
	syn_build(&s, &file);
	uint64_t *got = calloc(2 * n, sizeof(*got));
	struct pk_data_reader_opts o = { .sz = sizeof(o), .queue_bytes = 64 << 10, .window_bytes = 1 };
	struct pk_data_stats st, st_ahead;
	size_t k = read_ids(file.data, file.len, &o, false, got, 2 * n, &st);
	assert_int_equal(k, n);
	assert_true(st.nr_half_flushes > 10);
	/* read ahead: the same records, the same counts at the end */
	o.read_ahead = true;
	uint64_t *got2 = calloc(2 * n, sizeof(*got2));
	assert_int_equal(read_ids(file.data, file.len, &o, false, got2, 2 * n, &st_ahead), n);
	assert_memory_equal(got, got2, n * sizeof(*got));
	assert_memory_equal(&st, &st_ahead, sizeof(st));
	free(got2);
	/* every sample exactly once */
	unsigned char *seen = calloc(n, 1);
	size_t samples = 0;
	for (size_t i = 0; i < k; i++)
		if (got[i] < n) {
			assert_false(seen[got[i]]);
			seen[got[i]] = 1;
			samples++;
		}
	size_t want = 0;
	for (size_t i = 0; i < m.nout; i++)
		want += m.out[i] < n;
	assert_int_equal(samples, want);
	/* the limit holds: at most 64 KiB of 64-byte entries -> ~1k queued; the stream's
	 * clocks drift by less than that, so nothing comes out more than one flush late */
	assert_true(st.nr_unordered < n / 10);
	free(seen);
	free(got);
	free(m.n);
	free(m.out);
	pk_buf__free(&file);
	syn_free(&s);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_small),
		cmocka_unit_test(test_model_windows),
		cmocka_unit_test(test_model_compressed),
		cmocka_unit_test(test_queue_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
