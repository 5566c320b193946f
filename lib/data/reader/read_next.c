/* SPDX-License-Identifier: MIT */
/*
 * data/reader/read_next.c — the reader's iterator: records in file order from the
 * source (compressed ones expanded), tool records (type >= 64) applied as
 * they are read (attrs, features, ids, build-ids, tracing data) and handed
 * out at once, kernel records queued by time or handed out at once as perf
 * decides, FINISHED_ROUND starting a flush of the queue (dr_step, run by the
 * caller or by the read-ahead thread of read_ahead.c); plus the decoding of
 * the tool records' fields.
 */
#include "data/reader/reader_int.h"
#include "util/buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TRACING_DATA	(256u << 20)

void dr_event_start(struct pk_data_event *ev, const struct perf_event_header *h, uint64_t off,
		    bool decompressed, int attr)
{
	ev->type = h->type;
	ev->misc = h->misc;
	ev->size = h->size;
	ev->offset = off;
	ev->decompressed = decompressed;
	ev->raw = h;
	ev->attr = attr;
	ev->has_sample = false;
	if (h->type != PERF_RECORD_SAMPLE)
		memset(&ev->u, 0, sizeof(ev->u));
}

bool dr_changes_reader(uint32_t type)
{
	switch (type) {
	case PK_RECORD_HEADER_ATTR:
	case PK_RECORD_HEADER_FEATURE:
	case PK_RECORD_HEADER_BUILD_ID:
	case PK_RECORD_HEADER_TRACING_DATA:
	case PK_RECORD_ID_INDEX:
	case PK_RECORD_EVENT_UPDATE:
	case PK_RECORD_AUXTRACE:
		return true;
	default:
		return false;
	}
}

static int apply_event_update(struct pk_data_reader *r, struct pk_data_event *ev)
{
	int idx = dr_find_id(r, ev->u.event_update.id);
	if (idx < 0)
		return 0;
	struct pk_data_attr *a = &r->attrs[idx]->pub;
	switch (ev->u.event_update.type) {
	case 0:
		a->unit = pk_arena__strdup(&r->arena, ev->u.event_update.str);
		return a->unit ? 0 : -ENOMEM;
	case 1:
		a->scale = ev->u.event_update.scale;
		return 0;
	case 2:
		a->name = pk_arena__strdup(&r->arena, ev->u.event_update.str);
		return a->name ? 0 : -ENOMEM;
	default:
		return 0;
	}
}

/* The body of a tool record holds n bytes at least: b, len, h, r and pos in scope. */
#define BODY(n, name)                                                                         \
	do {                                                                                  \
		if (len < (size_t)(n))                                                        \
			return dr_fail(r, -EINVAL, pos, "%s record of %u bytes is too short",  \
				       name, h->size);                                        \
	} while (0)

/* HEADER_ATTR (pipe mode): an attr of its own size, then the ids of its events. */
static int decode_header_attr(struct pk_data_reader *r, struct pk_data_event *ev,
			      const uint8_t *b, size_t len, uint64_t pos)
{
	const struct perf_event_header *h = ev->raw;
	BODY(DR_ATTR_SIZE_VER0, "HEADER_ATTR");
	uint32_t asz = data_rd32(b + 4);
	if (!asz)
		asz = DR_ATTR_SIZE_VER0;
	if (asz > len || asz % 8)
		return dr_fail(r, -EINVAL, pos,
			       "HEADER_ATTR: attr size %u does not fit its %u-byte record", asz,
			       h->size);
	size_t nid = (len - asz) / 8;
	uint64_t *ids = NULL;
	if (nid) {
		ids = malloc(nid * 8);
		if (!ids)
			return dr_fail(r, -ENOMEM, pos, "out of memory");
		memcpy(ids, b + asz, nid * 8);
	}
	int rc = dr_add_attr(r, b, asz, ids, nid, pos);
	free(ids);
	if (rc)
		return rc;
	ev->u.attr.idx = (int)r->nr_attrs - 1;
	dr_apply_groups(r);
	return 0;
}

/* HEADER_BUILD_ID: pid, the id (20 bytes, its size in byte 24 when misc says), file name. */
static int decode_header_build_id(struct pk_data_reader *r, struct pk_data_event *ev,
				  const uint8_t *b, const uint8_t *end, uint64_t pos)
{
	const struct perf_event_header *h = ev->raw;
	size_t len = (size_t)(end - b);
	BODY(28, "HEADER_BUILD_ID");
	ev->u.build_id.pid = (int32_t)data_rd32(b);
	ev->u.build_id.id = b + 4;
	ev->u.build_id.size = (h->misc & PK_RECORD_MISC_BUILD_ID_SIZE) ? b[24] : 20;
	if (ev->u.build_id.size > 20)
		return dr_fail(r, -EINVAL, pos, "HEADER_BUILD_ID: build-id size %u",
			       ev->u.build_id.size);
	const char *fn = data_str_at(b + 28, end);
	if (!fn)
		return dr_fail(r, -EINVAL, pos, "HEADER_BUILD_ID: file name not terminated");
	ev->u.build_id.filename = fn;
	return dr_add_build_id(r, ev->u.build_id.pid, h->misc & ~PK_RECORD_MISC_BUILD_ID_SIZE,
			       b + 4, ev->u.build_id.size, fn, strlen(fn));
}

/* ID_INDEX: nr entries of id, idx, cpu, tid; newer perf appends nr (machine pid, vcpu) pairs. */
static int decode_id_index(struct pk_data_reader *r, struct pk_data_event *ev, const uint8_t *b,
			   size_t len, uint64_t pos)
{
	const struct perf_event_header *h = ev->raw;
	BODY(8, "ID_INDEX");
	uint64_t nr = data_rd64(b);
	if (nr > (len - 8) / 32)
		return dr_fail(r, -EINVAL, pos, "ID_INDEX: %llu entries do not fit",
			       (unsigned long long)nr);
	ev->u.id_index.nr = nr;
	ev->u.id_index.entries = (const uint64_t *)(b + 8);
	if ((len - 8) / 48 >= nr && nr)
		ev->u.id_index.entries2 = (const uint64_t *)(b + 8 + nr * 32);
	/* idx is the id's position in its event's CPU map, not the event */
	for (uint64_t i = 0; i < nr; i++) {
		const uint64_t *e = ev->u.id_index.entries + 4 * i;
		dr_add_id(r, e[0], -1, (int32_t)e[2], (int32_t)e[3]);
	}
	return 0;
}

/* EVENT_UPDATE: type and id, then a unit or name (0, 2), a scale (1) or a CPU map (3). */
static int decode_event_update(struct pk_data_reader *r, struct pk_data_event *ev,
			       const uint8_t *b, const uint8_t *end, uint64_t pos)
{
	const struct perf_event_header *h = ev->raw;
	size_t len = (size_t)(end - b);
	BODY(16, "EVENT_UPDATE");
	ev->u.event_update.type = data_rd64(b);
	ev->u.event_update.id = data_rd64(b + 8);
	switch (ev->u.event_update.type) {
	case 0:
	case 2:
		if (!(ev->u.event_update.str = data_str_at(b + 16, end)))
			return dr_fail(r, -EINVAL, pos, "EVENT_UPDATE: string not terminated");
		break;
	case 1:
		BODY(24, "EVENT_UPDATE");
		memcpy(&ev->u.event_update.scale, b + 16, 8);
		break;
	case 3:
		ev->u.event_update.cpus = b + 16;
		ev->u.event_update.cpus_size = len - 16;
		break;
	}
	if (apply_event_update(r, ev))
		return dr_fail(r, -ENOMEM, pos, "out of memory");
	return 0;
}

/* A case that changes the reader (not only ev) must be listed in dr_changes_reader. */
int dr_decode_user(struct pk_data_reader *r, struct pk_data_event *ev, uint64_t pos)
{
	const struct perf_event_header *h = ev->raw;
	const uint8_t *b = (const uint8_t *)(h + 1), *end = (const uint8_t *)h + h->size;
	size_t len = (size_t)(end - b);
	switch (h->type) {
	case PK_RECORD_HEADER_ATTR:
		return decode_header_attr(r, ev, b, len, pos);
	case PK_RECORD_HEADER_FEATURE:
		BODY(8, "HEADER_FEATURE");
		ev->u.feature.feat = data_rd64(b);
		ev->u.feature.data = b + 8;
		ev->u.feature.size = len - 8;
		if (ev->u.feature.feat >= PK_FEAT_BITS)
			return 0;
		return dr_feat_add(r, (unsigned)ev->u.feature.feat, b + 8, len - 8, pos);
	case PK_RECORD_HEADER_BUILD_ID:
		return decode_header_build_id(r, ev, b, end, pos);
	case PK_RECORD_ID_INDEX:
		return decode_id_index(r, ev, b, len, pos);
	case PK_RECORD_EVENT_UPDATE:
		return decode_event_update(r, ev, b, end, pos);
	case PK_RECORD_TIME_CONV:
		BODY(24, "TIME_CONV");
		ev->u.time_conv.time_shift = data_rd64(b);
		ev->u.time_conv.time_mult = data_rd64(b + 8);
		ev->u.time_conv.time_zero = data_rd64(b + 16);
		if (len >= 42) {
			ev->u.time_conv.has_cycles = true;
			ev->u.time_conv.time_cycles = data_rd64(b + 24);
			ev->u.time_conv.time_mask = data_rd64(b + 32);
			ev->u.time_conv.cap_user_time_zero = b[40];
			ev->u.time_conv.cap_user_time_short = b[41];
		}
		return 0;
	case PK_RECORD_THREAD_MAP: {
		BODY(8, "THREAD_MAP");
		uint64_t nr = data_rd64(b);
		if (nr > (len - 8) / 24)
			return dr_fail(r, -EINVAL, pos, "THREAD_MAP: %llu entries do not fit",
				       (unsigned long long)nr);
		ev->u.thread_map.nr = nr;
		ev->u.thread_map.entries = b + 8;
		return 0;
	}
	case PK_RECORD_CPU_MAP:
		ev->u.cpu_map.data = b;
		ev->u.cpu_map.size = len;
		return 0;
	default:
		return 0;
	}
}
#undef BODY

/* Records whose data follows them in the stream. */
static int read_payloads(struct pk_data_reader *r, const struct dr_raw *raw)
{
	struct pk_data_event *ev = &r->ev;
	const struct perf_event_header *h = raw->hdr;
	const uint8_t *b = (const uint8_t *)(h + 1);
	size_t len = h->size - sizeof(*h);
	if (h->type == PK_RECORD_HEADER_TRACING_DATA) {
		if (len < 4)
			return dr_fail(r, -EINVAL, raw->pos, "HEADER_TRACING_DATA record of %u bytes",
				       h->size);
		uint32_t size = data_rd32(b);
		ev->u.tracing_data.size = size;
		if (size > MAX_TRACING_DATA)
			return dr_fail(r, -EINVAL, raw->pos, "tracing data of %u bytes", size);
		/* read in steps: a corrupt size costs no more memory than the data there is */
		struct pk_buf *tb = &r->tracing_buf;
		dr_tracing_free(r->tracing);	/* it points into tb */
		r->tracing = NULL;
		tb->len = 0;
		for (uint32_t done = 0; done < size;) {
			uint32_t step = size - done < (1u << 20) ? size - done : (1u << 20);
			if (pk_buf__reserve(tb, step))
				return dr_fail(r, -ENOMEM, raw->pos, "out of memory");
			int rc = dr_payload(r, raw, tb->data + tb->len, step);
			if (rc)
				return rc;
			tb->len += step;
			done += step;
		}
		return dr_tracing_parse(r, tb->data, tb->len, raw->pos);
	}
	if (h->type == PK_RECORD_AUXTRACE) {
		if (len < 40)
			return dr_fail(r, -EINVAL, raw->pos, "AUXTRACE record of %u bytes", h->size);
		ev->u.auxtrace.size = data_rd64(b);
		ev->u.auxtrace.offset = data_rd64(b + 8);
		ev->u.auxtrace.reference = data_rd64(b + 16);
		ev->u.auxtrace.idx = data_rd32(b + 24);
		ev->u.auxtrace.tid = data_rd32(b + 28);
		ev->u.auxtrace.cpu = data_rd32(b + 32);
		return dr_payload(r, raw, NULL, ev->u.auxtrace.size);
	}
	return 0;
}

int dr_emit_kernel(struct pk_data_reader *r, const struct perf_event_header *h, uint64_t off,
		   int attr, bool decompressed)
{
	dr_event_start(&r->ev, h, off, decompressed, attr);
	return dr_decode_kernel(r, &r->ev, off + r->off_bias);
}

static int failed(struct pk_data_reader *r, struct pk_error *err)
{
	if (!r->err_code)
		r->err_code = -EINVAL;
	if (err)
		*err = r->err;
	return r->err_code;
}

/*
 * The next record in delivery order (1, in *st), or 0 at the end of the
 * records (the caller then looks at deferred_code). A tool record is applied
 * to the reader here; without `ahead` it is also decoded into r->ev with its
 * payload read. With `ahead` (the read-ahead thread), a tool record is only
 * checked, on the thread's own event, and one that changes the reader is left
 * in r->pending for the caller's thread (DR_STEP_PENDING).
 */
int dr_step(struct pk_data_reader *r, struct dr_step *st, struct pk_data_event *ahead)
{
	bool ordered = r->order == PK_DATA_ORDER_PERF;
	for (;;) {
		const struct dr_ent *e = dr_queue_pop(&r->q);
		if (e) {
			st->h = e->rec;
			st->off = e->off;
			st->pos = e->off + r->off_bias;
			st->attr = e->attr;
			st->decompressed = e->decompressed;
			st->user = false;
			return 1;
		}
		if (r->eof) {
			if (r->final_flush)
				return 0;
			r->final_flush = true;
			dr_queue_final(&r->q);
			continue;
		}
		struct dr_raw raw;
		int rc = 1;
		if (r->pending) {
			raw = r->pending_raw;
			r->pending = false;
		} else {
			rc = dr_fetch(r, &raw);
		}
		if (rc < 0)
			goto damaged;
		if (!rc) {
			r->eof = true;
			continue;
		}
		const struct perf_event_header *h = raw.hdr;
		if (ahead && dr_changes_reader(h->type)) {
			r->pending_raw = raw;
			r->pending = true;
			return DR_STEP_PENDING;
		}
		r->stats.nr_records[h->type < 128 ? h->type : 127]++;
		if (h->type >= PK_RECORD_HEADER_ATTR) {
			if (h->type == PK_RECORD_COMPRESSED || h->type == PK_RECORD_COMPRESSED2) {
				if (dr_decomp_feed(r, &raw))
					goto damaged;
				continue;
			}
			struct pk_data_event *ev = ahead ? ahead : &r->ev;
			dr_event_start(ev, h, raw.off, raw.decompressed, -1);
			if (dr_decode_user(r, ev, raw.pos) || (!ahead && read_payloads(r, &raw)))
				goto damaged;
			if (h->type == PK_RECORD_FINISHED_ROUND && ordered)
				dr_queue_round(&r->q);
			st->h = h;
			st->off = raw.off;
			st->pos = raw.pos;
			st->attr = -1;
			st->decompressed = raw.decompressed;
			st->user = true;
			return 1;
		}
		if (h->size % 8) {
			dr_fail(r, -EINVAL, raw.pos,
				"record type %u: size %u is not a multiple of 8", h->type, h->size);
			goto damaged;
		}
		int attr = dr_attr_index(r, h, raw.pos);
		if (attr < -1)
			goto damaged;
		if (ordered) {
			uint64_t ts;
			if (dr_record_time(r, h, attr, &ts, raw.pos))
				goto damaged;
			if (ts && ts != UINT64_MAX) {
				rc = dr_queue_add(r, &raw, ts, attr);
				if (rc < 0)
					goto damaged;
				continue;
			}
		}
		st->h = h;
		st->off = raw.off;
		st->pos = raw.pos;
		st->attr = attr;
		st->decompressed = raw.decompressed;
		st->user = false;
		return 1;
damaged:
		/* what was queued before the damage is still handed out, then the error */
		dr_defer_error(r);
		r->eof = true;
	}
}

int pk_data_reader__next(struct pk_data_reader *r, const struct pk_data_event **ev,
			 struct pk_error *err)
{
	*ev = NULL;
	if (r->err_code)
		return failed(r, err);
	if (r->ahead_wanted) {
		int rc = dr_ahead_next(r);
		if (rc < 0)
			return failed(r, err);
		if (rc > 0) {
			*ev = &r->ev;
			return 1;
		}
		/* the thread is stopped: a record it left, or the end, is read here */
	}
	dr_queue_release(&r->q);
	struct dr_step st;
	int rc = dr_step(r, &st, NULL);
	if (!rc) {
		if (!r->deferred_code)
			return 0;
		r->err_code = r->deferred_code;
		r->err = r->deferred_err;
		return failed(r, err);
	}
	if (!st.user && dr_emit_kernel(r, st.h, st.off, st.attr, st.decompressed))
		return failed(r, err);
	*ev = &r->ev;
	return 1;
}

/* ---- cpu maps ---------------------------------------------------------------------------------- */

static long put_cpu(int32_t *cpus, size_t max, long n, int32_t cpu)
{
	if ((size_t)n < max)
		cpus[n] = cpu;
	return n + 1;
}

long pk_data__cpu_map(const void *data, size_t size, int32_t *cpus, size_t max)
{
	const uint8_t *p = data;
	uint16_t type, nr, lsz;
	long n = 0;
	if (size < 2)
		return -EINVAL;
	type = data_rd16(p);
	const uint8_t *u = p + 2;
	size_t ulen = size - 2;
	switch (type) {
	case 0:
		if (ulen < 2)
			return -EINVAL;
		nr = data_rd16(u);
		if ((size_t)nr * 2 > ulen - 2)
			return -EINVAL;
		for (size_t i = 0; i < nr; i++) {
			uint16_t c = data_rd16(u + 2 + 2 * i);
			n = put_cpu(cpus, max, n, c == 0xffff ? -1 : (int32_t)c);
		}
		return n;
	case 1:
		if (ulen < 4)
			return -EINVAL;
		nr = data_rd16(u);
		lsz = data_rd16(u + 2);
		if (lsz != 4 && lsz != 8)
			return -EINVAL;
		{
			size_t base = lsz == 4 ? 4 : 8;
			if (ulen < base || (size_t)nr * lsz > ulen - base)
				return -EINVAL;
			for (size_t i = 0; i < nr; i++) {
				uint64_t m = 0;
				if (lsz == 4) {
					uint32_t m32 = data_rd32(u + base + 4 * i);
					m = m32;
				} else {
					m = data_rd64(u + base + 8 * i);
				}
				for (unsigned b = 0; b < lsz * 8u; b++)
					if (m & (1ULL << b))
						n = put_cpu(cpus, max, n, (int32_t)(i * lsz * 8 + b));
			}
		}
		return n;
	case 2: {
		if (ulen < 6)
			return -EINVAL;
		uint16_t start = data_rd16(u + 2), stop = data_rd16(u + 4);
		if (stop < start)
			return -EINVAL;
		if (u[0])
			n = put_cpu(cpus, max, n, -1);
		for (uint32_t c = start; c <= stop; c++)
			n = put_cpu(cpus, max, n, (int32_t)c);
		return n;
	}
	default:
		return -EINVAL;
	}
}
