/* SPDX-License-Identifier: MIT */
/*
 * test_record_ring.c — the ring-buffer reader (lib/record/ring.c) over a
 * synthetic perf ring: a writer thread plays the kernel (waits for room
 * below data_tail, writes variable-size records that often wrap the end,
 * publishes data_head with release) while the reader drains; every record
 * must arrive whole, in order, exactly once, with its bytes intact. Also:
 * records that wrap handed out whole from a fixed buffer, a sink that
 * refuses a run leaves it for the next pass, a corrupt header ends a pass
 * without reading past head.
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

#include "record/ring.h"

#define SEQ_TYPE 0x4242

struct shared {
	struct perf_event_mmap_page page;
	unsigned char *data;
	uint64_t size;
	uint64_t nr;		/* records the writer writes */
	int done;
};

/* The payload word k of record seq. */
static uint64_t word(uint64_t seq, size_t k)
{
	return seq * 0x9e3779b97f4a7c15ULL ^ (k + 1) * 0xc2b2ae3d27d4eb4fULL;
}

static uint16_t rec_size(uint64_t seq)
{
	return (uint16_t)(16 + 8 * ((seq * 7919) % 61));	/* 16..496 bytes */
}

static void put(struct shared *sh, uint64_t pos, const void *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		sh->data[(pos + i) & (sh->size - 1)] = ((const unsigned char *)src)[i];
}

/* The kernel's side: room from data_tail (acquire), records, then data_head (release). */
static void *writer(void *arg)
{
	struct shared *sh = arg;
	uint64_t head = 0;
	uint64_t buf[64];
	for (uint64_t seq = 0; seq < sh->nr; seq++) {
		uint16_t sz = rec_size(seq);
		if (head + sz - __atomic_load_n(&sh->page.data_tail, __ATOMIC_ACQUIRE) > sh->size) {
			/* full: publish what is written, wait for the reader */
			__atomic_store_n(&sh->page.data_head, head, __ATOMIC_RELEASE);
			while (head + sz - __atomic_load_n(&sh->page.data_tail, __ATOMIC_ACQUIRE) > sh->size)
				;
		}
		struct perf_event_header *h = (void *)buf;
		h->type = SEQ_TYPE;
		h->misc = (uint16_t)(seq & 0xffff);
		h->size = sz;
		buf[1] = seq;
		for (size_t k = 2; k < sz / 8u; k++)
			buf[k] = word(seq, k);
		put(sh, head, buf, sz);
		head += sz;
		/* publish now and then, as the kernel does per record or per batch */
		if (seq % 3 == 0 || seq + 1 == sh->nr)
			__atomic_store_n(&sh->page.data_head, head, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&sh->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

struct check {
	uint64_t next;		/* the seq expected */
	uint64_t bad;
	uint64_t runs;
};

static int check_sink(void *ctx, const void *recs, size_t len)
{
	struct check *c = ctx;
	const unsigned char *p = recs, *end = p + len;
	c->runs++;
	while (p < end) {
		const struct perf_event_header *h = (const void *)p;
		uint64_t w[64];
		if ((size_t)(end - p) < sizeof(*h) || h->size > end - p || h->size < 16) {
			c->bad++;	/* a torn record */
			return 0;
		}
		memcpy(w, p, h->size);
		if (h->type != SEQ_TYPE || w[1] != c->next || h->size != rec_size(c->next) ||
		    h->misc != (uint16_t)(c->next & 0xffff))
			c->bad++;
		for (size_t k = 2; k < h->size / 8u; k++)
			if (w[k] != word(w[1], k))
				c->bad++;
		c->next = w[1] + 1;
		p += h->size;
	}
	return 0;
}

static void run_concurrent(uint64_t size, uint64_t nr)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	struct rec_ring ring;
	struct check c = { 0 };
	pthread_t th;
	assert_non_null(sh);
	sh->size = size;
	sh->nr = nr;
	sh->data = calloc(1, size);
	assert_non_null(sh->data);
	assert_int_equal(ring_init(&ring, &sh->page, sh->data, size), 0);
	assert_int_equal(pthread_create(&th, NULL, writer, sh), 0);
	long long total = 0;
	for (;;) {
		int done = __atomic_load_n(&sh->done, __ATOMIC_ACQUIRE);
		long long n = ring_drain(&ring, check_sink, &c);
		assert_true(n >= 0);
		total += n;
		if (done && ring_head(&ring) == ring_tail(&ring))
			break;
	}
	pthread_join(th, NULL);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.next, nr);	/* none lost, none twice (seqs strictly consecutive) */
	assert_int_equal(ring.corrupt, 0);
	assert_true(c.runs > 1);
	uint64_t expect = 0;
	for (uint64_t s = 0; s < nr; s++)
		expect += rec_size(s);
	assert_int_equal((uint64_t)total, expect);
	ring_fini(&ring);
	free(sh->data);
	free(sh);
}

static void test_concurrent_small(void **state)
{
	(void)state;
	run_concurrent(1024, 200000);	/* most records wrap or wait for room */
}

static void test_concurrent_large(void **state)
{
	(void)state;
	run_concurrent(64 * 1024, 400000);
}

/* ---- deterministic cases ---- */

struct collect {
	unsigned char buf[8192];
	size_t len, calls;
	int refuse_at;		/* refuse call number N (1-based), 0 never */
};

static int collect_sink(void *ctx, const void *recs, size_t len)
{
	struct collect *c = ctx;
	c->calls++;
	if (c->refuse_at && (int)c->calls == c->refuse_at)
		return -28;
	assert_true(c->len + len <= sizeof(c->buf));
	memcpy(c->buf + c->len, recs, len);
	c->len += len;
	return 0;
}

/* A ring of 256 bytes whose tail sits at 200: a 96-byte record wraps the end. */
static void setup_wrapped(struct shared *sh, struct rec_ring *r, uint64_t *expect, size_t *elen)
{
	static unsigned char data[256];
	memset(sh, 0, sizeof(*sh));
	memset(data, 0xee, sizeof(data));
	sh->data = data;
	sh->size = sizeof(data);
	uint64_t pos = 200;
	sh->page.data_tail = pos;
	uint16_t sizes[] = { 24, 96, 40, 16 };	/* 200..224, 224..320 wraps, 320..360, 360..376 */
	size_t off = 0;
	for (size_t i = 0; i < 4; i++) {
		uint64_t rec[12] = { 0 };
		struct perf_event_header *h = (void *)rec;
		h->type = 9;
		h->size = sizes[i];
		for (size_t k = 1; k < sizes[i] / 8u; k++)
			rec[k] = i * 100 + k;
		put(sh, pos, rec, sizes[i]);
		memcpy((unsigned char *)expect + off, rec, sizes[i]);
		off += sizes[i];
		pos += sizes[i];
	}
	*elen = off;
	sh->page.data_head = pos;
	assert_int_equal(ring_init(r, &sh->page, sh->data, sh->size), 0);
}

static void test_wrap_whole(void **state)
{
	struct shared sh;
	struct rec_ring r;
	uint64_t expect[32];
	size_t elen;
	struct collect c = { .len = 0 };
	(void)state;
	setup_wrapped(&sh, &r, expect, &elen);
	assert_int_equal(ring_drain(&r, collect_sink, &c), (long long)elen);
	assert_int_equal(c.len, elen);
	assert_memory_equal(c.buf, expect, elen);
	/* runs: [24] up to the wrap, [96] bounced whole, [40, 16] from the start */
	assert_int_equal(c.calls, 3);
	assert_int_equal(ring_tail(&r), sh.page.data_head);
	assert_int_equal(ring_drain(&r, collect_sink, &c), 0);	/* nothing new */
	ring_fini(&r);
}

static void test_refused_stays(void **state)
{
	struct shared sh;
	struct rec_ring r;
	uint64_t expect[32];
	size_t elen;
	struct collect c = { .refuse_at = 2 };
	(void)state;
	setup_wrapped(&sh, &r, expect, &elen);
	assert_int_equal(ring_drain(&r, collect_sink, &c), -28);
	assert_int_equal(ring_tail(&r), 224);	/* the first run consumed, the refused one not */
	c.refuse_at = 0;
	assert_int_equal(ring_drain(&r, collect_sink, &c), (long long)elen - 24);
	assert_int_equal(c.len, elen);
	assert_memory_equal(c.buf, expect, elen);
	ring_fini(&r);
}

static void test_corrupt_header(void **state)
{
	struct shared sh;
	struct rec_ring r;
	uint64_t expect[32];
	size_t elen;
	struct collect c = { 0 };
	(void)state;
	setup_wrapped(&sh, &r, expect, &elen);
	/* the third record claims more than is left up to head */
	struct perf_event_header bad = { .type = 9, .size = 4000 };
	put(&sh, 320, &bad, sizeof(bad));
	assert_int_equal(ring_drain(&r, collect_sink, &c), 24 + 96);
	assert_int_equal(c.len, 24 + 96);
	assert_int_equal(r.corrupt, 56);
	assert_int_equal(ring_tail(&r), sh.page.data_head);	/* skipped, never read past head */
	/* a zero size would loop forever: it ends the pass too */
	sh.page.data_tail = 200;
	put(&sh, 200, &(struct perf_event_header){ .type = 1, .size = 0 }, 8);
	c.len = 0;
	assert_int_equal(ring_drain(&r, collect_sink, &c), 0);
	assert_int_equal(ring_tail(&r), sh.page.data_head);
	ring_fini(&r);
}

static void test_init_checks(void **state)
{
	struct perf_event_mmap_page pg = { 0 };
	unsigned char d[64];
	struct rec_ring r;
	(void)state;
	assert_int_equal(ring_init(&r, &pg, d, 48), -22);	/* not a power of two */
	assert_int_equal(ring_init(&r, &pg, d, 0), -22);
	assert_int_equal(ring_init(&r, &pg, d, 64), 0);
	/* head more than a buffer ahead of tail: not a kernel's ring */
	pg.data_head = 1000;
	struct collect c = { 0 };
	assert_int_equal(ring_drain(&r, collect_sink, &c), 0);
	assert_int_equal(c.calls, 0);
	assert_int_equal(pg.data_tail, 1000);
	ring_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_checks),
		cmocka_unit_test(test_wrap_whole),
		cmocka_unit_test(test_refused_stays),
		cmocka_unit_test(test_corrupt_header),
		cmocka_unit_test(test_concurrent_small),
		cmocka_unit_test(test_concurrent_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
