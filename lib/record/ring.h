/* SPDX-License-Identifier: MIT */
/*
 * record/ring.h — the reader's side of one perf ring buffer (the kernel's
 * struct perf_event_mmap_page, then 2^n data pages): data_head loaded with
 * acquire (the kernel wrote the records before it moved head), records
 * between our tail and head handed out whole, in runs as they lie in the
 * buffer (a record that wraps the end copied into a bounce buffer), then
 * data_tail stored with release (we are done reading before the kernel may
 * overwrite). Not public: the session (session.c) owns the rings; the unit
 * test and the fuzz target drive it over synthetic buffers.
 */
#ifndef PMUKIT_RECORD_RING_H
#define PMUKIT_RECORD_RING_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

struct rec_ring {
	struct perf_event_mmap_page *page;	/* control page */
	unsigned char *data;			/* data_size bytes after it (page->data_offset) */
	uint64_t size, mask;
	unsigned char *bounce;			/* a wrapped record, copied whole */
	size_t bounce_cap;
	uint64_t corrupt;			/* bytes skipped over bad headers */
};

/* The sink of pmukit/record.h: whole records, len bytes; 0 or -errno to stop. */
typedef int (*rec_ring_fn)(void *ctx, const void *recs, size_t len);

/*
 * A ring over base (the mmap'd control page) whose data is data_size bytes
 * (a power of two) at data (NULL: base + page->data_offset, or + page size).
 * 0 or -EINVAL.
 */
int ring_init(struct rec_ring *r, void *base, void *data, uint64_t data_size);
void ring_fini(struct rec_ring *r);

/* data_head, acquire: records up to it are complete in the buffer. */
static inline uint64_t ring_head(const struct rec_ring *r)
{
	return __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
}

/* data_tail, release: the bytes before it may be overwritten. */
static inline void ring_set_tail(struct rec_ring *r, uint64_t tail)
{
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
}

/* Our position (the last tail stored: we are the only writer of it). */
static inline uint64_t ring_tail(const struct rec_ring *r)
{
	return __atomic_load_n(&r->page->data_tail, __ATOMIC_RELAXED);
}

/*
 * Hand every record between tail and the head read at entry to fn, in runs
 * of whole records, storing the tail after each run fn accepted. A header of
 * size < 8 or larger than what is left up to head (a corrupt buffer) ends the
 * pass: the rest up to head is skipped (counted in r->corrupt). Returns the
 * bytes handed over, or fn's negative errno (the run it refused stays
 * unconsumed), or -ENOMEM.
 */
long long ring_drain(struct rec_ring *r, rec_ring_fn fn, void *ctx);

#endif
