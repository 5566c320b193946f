/* SPDX-License-Identifier: MIT */
/*
 * fuzz_record_ring.c — libFuzzer target for the ring-buffer record splitter
 * (lib/record/ring.c) and the recorded-stream decoder (pk_record_stats):
 * the input's first bytes choose the ring's size (8 B to 4 KiB), its tail,
 * and how far head is ahead; the rest fills the data pages. Whatever the
 * bytes, a drain must hand out only whole records (each header's size fits
 * in the run it came in, the runs add up to what was consumed), never read
 * past head, leave tail at head, and be repeatable (a second drain gives
 * nothing). Each run is then fed to the decoder (samples with callchains,
 * group reads, MMAP/MMAP2/FORK/COMM/LOST), with both an identifier-sampled
 * and a plain sample layout. No seeds needed:
 *   build/fuzz/bin/fuzz_record_ring -max_total_time=300 CORPUS
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/record.h>

#include "record/ring.h"

static void check(int ok)
{
	if (!ok)
		abort();
}

struct ctx {
	uint64_t bytes;
	struct pk_record_stats *a, *b;
};

static int sink(void *p, const void *recs, size_t len)
{
	struct ctx *c = p;
	const unsigned char *q = recs, *end = q + len;
	check(len > 0);
	while (q < end) {
		struct perf_event_header h;
		check((size_t)(end - q) >= sizeof(h));
		memcpy(&h, q, sizeof(h));
		check(h.size >= sizeof(h) && h.size <= (size_t)(end - q));
		q += h.size;
	}
	c->bytes += len;
	/* the decoder reads records in place: give it an aligned copy, as a ring's runs are */
	uint64_t *copy = malloc(len + 8);
	check(copy != NULL);
	memcpy(copy, recs, len);
	check(pk_record_stats__feed(c->a, copy, len) == 0 || 1);
	check(pk_record_stats__feed(c->b, copy, len) == 0 || 1);
	free(copy);
	return 0;
}

static int count_dso(void *ctx, int32_t pid, uint16_t misc, const char *filename)
{
	(void)pid;
	(void)misc;
	check(filename && *filename);
	(*(size_t *)ctx)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	uint64_t ring_size = 8ull << (data[0] % 10);	/* 8 .. 4096 */
	uint64_t tail = (uint64_t)data[1] * 8 + ((uint64_t)data[2] << 40);
	uint64_t ahead = ((uint64_t)data[3] * 8) % (ring_size + 8);	/* up to a full buffer */
	data += 4;
	size -= 4;
	struct perf_event_mmap_page page;
	memset(&page, 0, sizeof(page));
	unsigned char *buf = calloc(1, ring_size);
	check(buf != NULL);
	memcpy(buf, data, size < ring_size ? size : ring_size);
	page.data_tail = tail;
	page.data_head = tail + ahead;
	struct rec_ring r;
	check(ring_init(&r, &page, buf, ring_size) == 0);
	struct ctx c = { 0 };
	check(pk_record_stats__new(&c.a, NULL, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
					       PERF_SAMPLE_TID | PERF_SAMPLE_READ |
					       PERF_SAMPLE_CALLCHAIN) == 0);
	check(pk_record_stats__new(&c.b, NULL, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					       PERF_SAMPLE_CALLCHAIN) == 0);
	long long n = ring_drain(&r, sink, &c);
	check(n >= 0);
	check((uint64_t)n == c.bytes);
	check((uint64_t)n + r.corrupt == ahead);
	check(page.data_tail == page.data_head);
	check(ring_drain(&r, sink, &c) == 0);
	size_t nd = 0;
	pk_record_stats__for_each_dso(c.a, count_dso, &nd);
	pk_record_stats__for_each_dso(c.b, count_dso, &nd);
	check(pk_record_stats__samples(c.a) == pk_record_stats__samples(c.b));
	pk_record_stats__free(c.a);
	pk_record_stats__free(c.b);
	ring_fini(&r);
	free(buf);
	return 0;
}
