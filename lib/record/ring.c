/* SPDX-License-Identifier: MIT */
/*
 * record/ring.c — draining one perf ring buffer (see ring.h): the
 * data_head/data_tail protocol and whole records out of a circular buffer.
 *
 * The kernel's side: it writes records at head, then publishes head with a
 * store that orders the record bytes before it (smp_store_release); it
 * reads data_tail (a full barrier before it writes over old data) to know
 * how much room it has. Ours: head loaded with acquire (x86: a plain load,
 * ordered by TSO, and a compiler barrier; arm64: LDAR), so the record bytes
 * read after it are those the kernel wrote; tail stored with release (x86:
 * a plain store; arm64: STLR), so our reads of a record complete before the
 * kernel can see the space as free.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/ring.h"
#include "util/grow.h"

int ring_init(struct rec_ring *r, void *base, void *data, uint64_t data_size)
{
	memset(r, 0, sizeof(*r));
	if (!base || !data_size || (data_size & (data_size - 1)) || data_size < 8)
		return -EINVAL;
	r->page = base;
	if (!data) {
		uint64_t off = r->page->data_offset;
		if (!off)
			off = (uint64_t)sysconf(_SC_PAGESIZE);
		data = (unsigned char *)base + off;
	}
	r->data = data;
	r->size = data_size;
	r->mask = data_size - 1;
	return 0;
}

void ring_fini(struct rec_ring *r)
{
	free(r->bounce);
	r->bounce = NULL;
	r->bounce_cap = 0;
}

/* Copy len bytes from ring position pos (wrapping) to dst. */
static void ring_copy(const struct rec_ring *r, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos & r->mask;
	size_t first = (size_t)(r->size - off) < len ? (size_t)(r->size - off) : len;
	memcpy(dst, r->data + off, first);
	if (len > first)
		memcpy((unsigned char *)dst + first, r->data, len - first);
}

static int bounce_fit(struct rec_ring *r, size_t len)
{
	return PK_GROW(r->bounce, r->bounce_cap, len);
}

long long ring_drain(struct rec_ring *r, rec_ring_fn fn, void *ctx)
{
	uint64_t head = ring_head(r);
	uint64_t pos = ring_tail(r);
	long long total = 0;

	if (head - pos > r->size) {
		/* more than a buffer: not a ring the kernel wrote; drop it all */
		r->corrupt += head - pos;
		ring_set_tail(r, head);
		return 0;
	}
	while (pos != head) {
		uint64_t start = pos;
		uint16_t wrapped = 0;	/* size of a record that wraps the end, after the run */
		bool bad = false;
		/* a run of records lying contiguously from start */
		for (;;) {
			struct perf_event_header h;
			uint64_t left = head - pos, off = pos & r->mask;
			if (!left || (pos != start && !off))
				break;	/* the end, or at the buffer's start again: a new run */
			if (left < sizeof(h)) {
				bad = true;
				break;
			}
			ring_copy(r, pos, &h, sizeof(h));	/* a header may straddle the end too */
			if (h.size < sizeof(h) || h.size > left) {
				bad = true;
				break;
			}
			if (off + h.size > r->size) {
				wrapped = h.size;
				break;
			}
			pos += h.size;
		}
		if (pos != start) {
			int e = fn(ctx, r->data + (start & r->mask), (size_t)(pos - start));
			if (e)
				return e < 0 ? e : -EIO;
			total += (long long)(pos - start);
			ring_set_tail(r, pos);
		}
		if (bad) {
			r->corrupt += head - pos;
			ring_set_tail(r, head);
			break;
		}
		if (wrapped) {
			if (bounce_fit(r, wrapped))
				return -ENOMEM;
			ring_copy(r, pos, r->bounce, wrapped);
			int e = fn(ctx, r->bounce, wrapped);
			if (e)
				return e < 0 ? e : -EIO;
			pos += wrapped;
			total += wrapped;
			ring_set_tail(r, pos);
		}
	}
	return total;
}
