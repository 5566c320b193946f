/* SPDX-License-Identifier: MIT */
/*
 * data/reader/read_ahead.c — opts.read_ahead: one thread of the reader fetches the
 * file's records, expands compressed ones, orders them (dr_step, the same
 * steps as without it) and copies each into a batch; the caller's thread
 * takes the batches in turn and only decodes. A few batches circulate
 * between the two, so the thread stays at most that far ahead.
 *
 * A tool record that changes the reader (attrs, ids, features, build-ids,
 * payloads) stops the thread: it is left in r->pending, the caller's thread
 * applies it once it has taken every batch before it, and the thread starts
 * again. The thread's reading errors go to its own error slot and become the
 * deferred error, as without it; decoding errors are the caller's.
 */
#include "data/reader/reader_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NR_BATCHES	4
#define BATCH_BYTES	(1u << 19)

/* A record in a batch: this, then the record padded to 8 bytes. */
struct item {
	uint64_t off, pos;
	int32_t attr;
	uint8_t user, decompressed;
	uint16_t pad;
};

struct batch {
	size_t len;
	/* the thread's counts when it handed this batch over */
	uint64_t nr_records[128];
	uint64_t nr_unordered, nr_half_flushes, bytes_decompressed;
	uint8_t *data;
};

struct dr_ahead {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	pthread_t tid;
	bool running;		/* the thread exists (set and cleared by the caller's thread) */
	bool started;		/* tid is set: the thread may read (pthread_create may return after it ran) */
	bool finished;		/* the thread has handed over its last batch */
	bool stop;		/* the caller wants the thread to end */
	struct batch batches[NR_BATCHES];
	/* full batches, in order: full[fhead .. fhead + nfull) mod NR_BATCHES */
	unsigned full[NR_BATCHES], fhead, nfull;
	unsigned freeb[NR_BATCHES], nfree;
	/* the thread's */
	struct batch *fill;
	struct pk_data_event ev;	/* tool records are checked on this */
	struct pk_error err;
	int err_code;
	/* the caller's */
	struct batch *take;
	size_t take_pos;
	struct pk_data_stats seen;
	bool live;		/* seen is what pk_data_reader__stats gives */
};

struct pk_error *dr_err_slot(struct pk_data_reader *r, int **code)
{
	struct dr_ahead *a = r->ahead;
	if (a && a->running && pthread_equal(pthread_self(), a->tid)) {
		*code = &a->err_code;
		return &a->err;
	}
	*code = &r->err_code;
	return &r->err;
}

void dr_defer_error(struct pk_data_reader *r)
{
	int *code;
	struct pk_error *e = dr_err_slot(r, &code);
	r->deferred_code = *code ? *code : -EINVAL;
	r->deferred_err = *e;
	*code = 0;
}

const struct pk_data_stats *dr_ahead_stats(const struct pk_data_reader *r)
{
	return r->ahead && r->ahead->live ? &r->ahead->seen : NULL;
}

/* ---- the thread ------------------------------------------------------------------------ */

static void snapshot(const struct pk_data_reader *r, struct batch *b)
{
	memcpy(b->nr_records, r->stats.nr_records, sizeof(b->nr_records));
	b->nr_unordered = r->stats.nr_unordered;
	b->nr_half_flushes = r->stats.nr_half_flushes;
	b->bytes_decompressed = r->stats.bytes_decompressed;
}

/* Hand the batch being filled over (if any) and take a free one (unless last); false: stop. */
static bool hand_over(struct pk_data_reader *r, struct dr_ahead *a, bool last)
{
	if (a->fill)
		snapshot(r, a->fill);
	pthread_mutex_lock(&a->lock);
	if (a->fill) {
		a->full[(a->fhead + a->nfull) % NR_BATCHES] = (unsigned)(a->fill - a->batches);
		a->nfull++;
		a->fill = NULL;
	}
	if (last)
		a->finished = true;
	pthread_cond_broadcast(&a->cv);
	while (!last && !a->nfree && !a->stop)
		pthread_cond_wait(&a->cv, &a->lock);
	bool go = !a->stop && !last;
	if (go) {
		a->fill = &a->batches[a->freeb[--a->nfree]];
		a->fill->len = 0;
	}
	pthread_mutex_unlock(&a->lock);
	return go;
}

static void *run(void *p)
{
	struct pk_data_reader *r = p;
	struct dr_ahead *a = r->ahead;
	pthread_mutex_lock(&a->lock);
	while (!a->started)
		pthread_cond_wait(&a->cv, &a->lock);
	pthread_mutex_unlock(&a->lock);
	if (!hand_over(r, a, false))
		return NULL;
	for (;;) {
		struct dr_step st;
		int rc = dr_step(r, &st, &a->ev);
		if (rc != 1) {	/* the end, or a record for the caller */
			hand_over(r, a, true);
			return NULL;
		}
		size_t need = sizeof(struct item) + dr_align8(st.h->size);
		if (a->fill->len + need > BATCH_BYTES && !hand_over(r, a, false))
			return NULL;
		struct batch *b = a->fill;
		struct item *it = (struct item *)(b->data + b->len);
		*it = (struct item){ .off = st.off, .pos = st.pos, .attr = st.attr,
				     .user = st.user, .decompressed = st.decompressed };
		memcpy(it + 1, st.h, st.h->size);
		b->len += need;
		if (!st.user)
			dr_queue_release(&r->q);
	}
}

/* ---- the caller's side ------------------------------------------------------------------ */

static int start(struct pk_data_reader *r)
{
	struct dr_ahead *a = r->ahead;
	if (!a) {
		a = calloc(1, sizeof(*a));
		if (!a)
			return -ENOMEM;
		for (unsigned i = 0; i < NR_BATCHES; i++) {
			a->batches[i].data = malloc(BATCH_BYTES);
			if (!a->batches[i].data) {
				for (unsigned j = 0; j < i; j++)
					free(a->batches[j].data);
				free(a);
				return -ENOMEM;
			}
		}
		pthread_mutex_init(&a->lock, NULL);
		pthread_cond_init(&a->cv, NULL);
		r->ahead = a;
	}
	a->nfree = NR_BATCHES;
	for (unsigned i = 0; i < NR_BATCHES; i++)
		a->freeb[i] = i;
	a->fhead = a->nfull = 0;
	a->fill = a->take = NULL;
	a->finished = a->stop = a->started = false;
	a->err_code = 0;
	a->seen = r->stats;
	a->live = true;
	dr_queue_release(&r->q);	/* the caller's last record is copied: done with it */
	a->running = true;
	if (pthread_create(&a->tid, NULL, run, r)) {
		a->running = false;
		a->live = false;
		return -EAGAIN;
	}
	pthread_mutex_lock(&a->lock);
	a->started = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->lock);
	return 0;
}

static void join(struct dr_ahead *a)
{
	pthread_join(a->tid, NULL);
	a->running = false;
	a->live = false;
}

/* The next item's batch; NULL when the thread has handed over everything. */
static struct batch *take_batch(struct dr_ahead *a)
{
	pthread_mutex_lock(&a->lock);
	if (a->take) {	/* done with it: free for the thread */
		a->freeb[a->nfree++] = (unsigned)(a->take - a->batches);
		a->take = NULL;
		pthread_cond_broadcast(&a->cv);
	}
	while (!a->nfull && !a->finished)
		pthread_cond_wait(&a->cv, &a->lock);
	if (a->nfull) {
		a->take = &a->batches[a->full[a->fhead]];
		a->fhead = (a->fhead + 1) % NR_BATCHES;
		a->nfull--;
		a->take_pos = 0;
	}
	pthread_mutex_unlock(&a->lock);
	return a->take;
}

int dr_ahead_next(struct pk_data_reader *r)
{
	struct dr_ahead *a = r->ahead;
	if (!a || !a->running) {
		/* start (again) where reading in this thread would go on */
		if (!r->ahead_wanted || !r->file_size || r->pending || r->eof ||
		    r->deferred_code)
			return 0;
		if (start(r))
			return 0;	/* no thread: read here */
		a = r->ahead;
	}
	while (!a->take || a->take_pos >= a->take->len) {
		if (!take_batch(a)) {
			join(a);	/* everything it read is delivered: go on here */
			return 0;
		}
		struct batch *b = a->take;
		memcpy(a->seen.nr_records, b->nr_records, sizeof(b->nr_records));
		a->seen.nr_unordered = b->nr_unordered;
		a->seen.nr_half_flushes = b->nr_half_flushes;
		a->seen.bytes_decompressed = b->bytes_decompressed;
	}
	struct batch *b = a->take;
	const struct item *it = (const struct item *)(b->data + a->take_pos);
	const struct perf_event_header *h = (const struct perf_event_header *)(it + 1);
	a->take_pos += sizeof(*it) + dr_align8(h->size);
	if (it->user) {
		dr_event_start(&r->ev, h, it->off, it->decompressed, -1);
		return dr_decode_user(r, &r->ev, it->pos) ? -1 : 1;	/* checked by the thread */
	}
	if (dr_emit_kernel(r, h, it->off, it->attr, it->decompressed))
		return -1;
	if (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_LOST_SAMPLES) {
		a->seen.total_lost = r->stats.total_lost;
		a->seen.total_lost_samples = r->stats.total_lost_samples;
	}
	return 1;
}

void dr_ahead_free(struct pk_data_reader *r)
{
	struct dr_ahead *a = r->ahead;
	if (!a)
		return;
	if (a->running) {
		pthread_mutex_lock(&a->lock);
		a->stop = true;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->lock);
		join(a);
	}
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->cv);
	for (unsigned i = 0; i < NR_BATCHES; i++)
		free(a->batches[i].data);
	free(a);
	r->ahead = NULL;
}
