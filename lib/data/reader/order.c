/* SPDX-License-Identifier: MIT */
/*
 * data/reader/order.c — perf's ordered-events queue (tools/perf/util/ordered-events.c
 * semantics, our own code): records are queued with their timestamp and
 * delivered sorted by it, equal times in arrival order.
 *   ROUND (at each FINISHED_ROUND): deliver what is not newer than the flush
 *     limit, then the limit becomes the newest timestamp queued so far (the
 *     "max timestamp": the time of a record that went to the tail of the
 *     queue, or of the first record queued into an empty one); an empty
 *     queue changes nothing.
 *   FINAL (at the end): deliver everything.
 *   HALF (the queue reached its memory limit): the limit becomes the first
 *     queued time plus half the span to the last queued record's time, and
 *     that much is delivered.
 * Instead of perf's linked list, entries are appended to an array and
 * sorted when a flush starts (a natural merge sort: a round holds one
 * sorted run per CPU buffer). Queued records stay where they were read
 * (the mapped window, the pipe buffer, the decompression buffer) until
 * those bytes are about to move; then they are copied into chunks that are
 * freed when their last record has been delivered.
 */
#include "data/reader/reader_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define CHUNK_SIZE	((size_t)1 << 20)
#define CHUNK_HDR	64

struct dr_chunk {
	struct dr_chunk *prev, *next;	/* every chunk, for freeing */
	uint32_t live;			/* records in it not yet released */
	uint32_t used;
};

static struct dr_chunk *chunk_of(const void *p)
{
	return (struct dr_chunk *)((uintptr_t)p & ~(uintptr_t)(CHUNK_SIZE - 1));
}

int dr_queue_init(struct dr_queue *q, size_t limit)
{
	memset(q, 0, sizeof(*q));
	q->limit = limit;
	return 0;
}

static void chunk_unlink_free(struct dr_queue *q, struct dr_chunk *c, struct dr_chunk **list)
{
	(void)q;
	if (c->prev)
		c->prev->next = c->next;
	else
		*list = c->next;
	if (c->next)
		c->next->prev = c->prev;
	free(c);
}

static struct dr_chunk **chunk_list(struct dr_queue *q)
{
	return &q->chunks;
}

void dr_queue_fini(struct dr_queue *q)
{
	for (struct dr_chunk *c = q->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(q->ents);
	free(q->tmp);
	memset(q, 0, sizeof(*q));
}

static struct dr_chunk *chunk_new(struct dr_queue *q)
{
	struct dr_chunk *c = q->spare;
	if (c) {
		q->spare = NULL;
	} else {
		c = aligned_alloc(CHUNK_SIZE, CHUNK_SIZE);
		if (!c)
			return NULL;
		struct dr_chunk **list = chunk_list(q);
		c->prev = NULL;
		c->next = *list;
		if (*list)
			(*list)->prev = c;
		*list = c;
	}
	c->live = 0;
	c->used = CHUNK_HDR;
	return c;
}

/* A chunk lost its last record: reuse it, keep it spare, or free it. */
static void chunk_idle(struct dr_queue *q, struct dr_chunk *c)
{
	if (c == q->chunk) {
		c->used = CHUNK_HDR;
	} else if (!q->spare) {
		q->spare = c;
	} else {
		chunk_unlink_free(q, c, chunk_list(q));
	}
}

static void *copy_record(struct dr_queue *q, const struct perf_event_header *h)
{
	size_t sz = dr_align8(h->size);
	struct dr_chunk *c = q->chunk;
	if (!c || c->used + sz > CHUNK_SIZE) {
		struct dr_chunk *n = chunk_new(q);
		if (!n)
			return NULL;
		q->chunk = n;
		if (c && !c->live)
			chunk_idle(q, c);
		c = n;
	}
	void *p = (uint8_t *)c + c->used;
	memcpy(p, h, h->size);
	c->used += (uint32_t)sz;
	c->live++;
	q->copy_bytes += sz;
	return p;
}

void dr_queue_release(struct dr_queue *q)
{
	if (!q->release)
		return;
	struct dr_chunk *c = q->release;
	q->release = NULL;
	q->copy_bytes -= q->release_size;
	if (!--c->live)
		chunk_idle(q, c);
}

int dr_queue_evacuate(struct pk_data_reader *r, enum dr_region region)
{
	struct dr_queue *q = &r->q;
	for (size_t i = q->head; i < q->n; i++) {
		struct dr_ent *e = &q->ents[i];
		if (e->region != region)
			continue;
		void *p = copy_record(q, e->rec);
		if (!p)
			return dr_fail(r, -ENOMEM, e->off + r->off_bias, "out of memory");
		e->rec = p;
		e->region = DR_REG_COPY;
	}
	if (region == DR_REG_SRC)
		q->nr_src = 0;
	else
		q->nr_decomp = 0;
	return 0;
}

/* ---- sorting ----------------------------------------------------------------------------- */

static void merge(const struct dr_ent *a, size_t na, const struct dr_ent *b, size_t nb,
		  struct dr_ent *out)
{
	size_t i = 0, j = 0;
	while (i < na && j < nb)
		*out++ = b[j].ts < a[i].ts ? b[j++] : a[i++];
	memcpy(out, a + i, (na - i) * sizeof(*a));
	out += na - i;
	memcpy(out, b + j, (nb - j) * sizeof(*b));
}

/* Stable sort of q->ents[head..n) by ts; may swap q->ents and q->tmp. */
static void sort_queue(struct dr_queue *q)
{
	for (;;) {
		struct dr_ent *src = q->ents, *dst = q->tmp;
		size_t i = q->head, n = q->n, runs = 0;
		while (i < n) {
			size_t j = i + 1;
			while (j < n && src[j - 1].ts <= src[j].ts)
				j++;
			runs++;
			if (j == n) {
				if (runs == 1)
					return;	/* one run: sorted */
				memcpy(dst + i, src + i, (n - i) * sizeof(*src));
				break;
			}
			size_t k = j + 1;
			while (k < n && src[k - 1].ts <= src[k].ts)
				k++;
			merge(src + i, j - i, src + j, k - j, dst + i);
			i = k;
		}
		q->ents = dst;
		q->tmp = src;
	}
}

/* ---- flushing ------------------------------------------------------------------------------ */

static void start_flush(struct dr_queue *q, uint64_t limit)
{
	if (!limit || q->head == q->n)
		return;
	sort_queue(q);
	size_t e = q->head;
	while (e < q->n && q->ents[e].ts <= limit)
		e++;
	q->flush_end = e;
	q->flushing = e > q->head;
	/* perf's "last" moves to the tail when the last queued record gets delivered */
	if (q->last_ts <= limit && e < q->n)
		q->last_ts = q->ents[q->n - 1].ts;
}

void dr_queue_round(struct dr_queue *q)
{
	if (q->head == q->n)
		return;
	start_flush(q, q->next_flush);
	q->next_flush = q->max_timestamp;
}

void dr_queue_final(struct dr_queue *q)
{
	if (q->head == q->n)
		return;
	q->next_flush = UINT64_MAX;
	start_flush(q, UINT64_MAX);
}

const struct dr_ent *dr_queue_pop(struct dr_queue *q)
{
	if (!q->flushing)
		return NULL;
	if (q->head >= q->flush_end) {
		q->flushing = false;
		return NULL;
	}
	struct dr_ent *e = &q->ents[q->head++];
	if (e->region == DR_REG_SRC)
		q->nr_src--;
	else if (e->region == DR_REG_DECOMP)
		q->nr_decomp--;
	else {
		q->release = chunk_of(e->rec);
		q->release_size = dr_align8(e->rec->size);
	}
	q->last_flush = e->ts;
	if (q->head == q->n)
		q->head = q->n = q->flush_end = 0;
	return e;
}

static int grow(struct dr_queue *q)
{
	if (q->head && q->head >= q->n / 2) {
		memmove(q->ents, q->ents + q->head, (q->n - q->head) * sizeof(*q->ents));
		q->n -= q->head;
		q->flush_end -= q->head < q->flush_end ? q->head : q->flush_end;
		q->head = 0;
		if (q->n < q->cap)
			return 0;
	}
	/* ents and tmp trade places when sorted: one capacity, the same policy for both */
	size_t cap_ents = q->cap, cap_tmp = q->cap;
	if (PK_GROW(q->ents, cap_ents, q->cap + 1) || PK_GROW(q->tmp, cap_tmp, q->cap + 1))
		return -ENOMEM;
	q->cap = cap_ents < cap_tmp ? cap_ents : cap_tmp;
	return 0;
}

int dr_queue_add(struct pk_data_reader *r, const struct dr_raw *raw, uint64_t ts, int attr)
{
	struct dr_queue *q = &r->q;
	if (q->n == q->cap && grow(q))
		return dr_fail(r, -ENOMEM, raw->pos, "out of memory");
	bool empty = q->head == q->n;
	if (ts < q->last_flush)
		r->stats.nr_unordered++;
	if (empty || ts >= q->tail_ts) {
		q->max_timestamp = ts;
		q->tail_ts = ts;
	}
	q->last_ts = ts;
	const struct perf_event_header *rec = raw->hdr;
	uint8_t region = raw->region;
	if (region == DR_REG_SCRATCH) {
		rec = copy_record(q, rec);
		if (!rec)
			return dr_fail(r, -ENOMEM, raw->pos, "out of memory");
		region = DR_REG_COPY;
	}
	q->ents[q->n++] = (struct dr_ent){ .ts = ts,
					   .rec = rec,
					   .off = raw->off,
					   .attr = attr,
					   .region = region,
					   .decompressed = raw->decompressed };
	if (region == DR_REG_SRC)
		q->nr_src++;
	else if (region == DR_REG_DECOMP)
		q->nr_decomp++;
	size_t bytes = (q->n - q->head) * sizeof(struct dr_ent) * 2 + q->copy_bytes;
	if (bytes <= q->limit)
		return 0;
	/* perf's HALF flush */
	sort_queue(q);
	uint64_t first = q->ents[q->head].ts;
	uint64_t last = q->last_ts > first ? q->last_ts : first;
	q->next_flush = first + (last - first) / 2;
	start_flush(q, q->next_flush);
	r->stats.nr_half_flushes++;
	return 1;
}
