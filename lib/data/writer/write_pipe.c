/* SPDX-License-Identifier: MIT */
/*
 * data/writer/write_pipe.c — pipe mode (perf record -o -): a 16-byte header, a
 * PERF_RECORD_HEADER_ATTR per attr (the attr, then its ids), a
 * PERF_RECORD_HEADER_FEATURE per feature perf sends down a pipe and the
 * end-of-features mark (feature id HEADER_LAST_FEATURE), the tracing data
 * when there are tracepoints, then the data; at
 * finish the build-ids as PERF_RECORD_HEADER_BUILD_ID records. Nothing is
 * ever rewritten, so the fd may be a pipe, a socket or a file.
 */
#include <errno.h>
#include <string.h>

#include "data/writer/write_int.h"
#include "util/error.h"

static int put_attr_record(struct pk_data_writer *w, const struct pkw_attr *a, struct pk_buf *b,
			   struct pk_error *err)
{
	size_t size = sizeof(struct perf_event_header) + w->attr_size + a->nr_ids * 8;
	struct perf_event_header h = { .type = PK_RECORD_HEADER_ATTR, .size = (uint16_t)size };

	if (size > PKW_MAX_RECORD)
		return pkw_fail(w, err, -E2BIG, "attr '%s' has too many ids (%zu) for a pipe record",
				a->name, a->nr_ids);
	if (pk_buf__append(b, &h, sizeof(h)) < 0 || pk_buf__append(b, a->attr, w->attr_size) < 0 ||
	    pk_buf__append(b, a->ids, a->nr_ids * 8) < 0)
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	return 0;
}

/* A feature as a record; one too large for a record (64 KiB) is left out, as a missing fact. */
static int put_feature_record(struct pk_data_writer *w, int feat, struct pk_buf *b)
{
	struct pk_perf_feature_record fr = {
		.header = { .type = PK_RECORD_HEADER_FEATURE, .size = sizeof(fr) },
		.feat_id = (uint64_t)feat,
	};
	size_t start = b->len;

	if (pk_buf__append(b, &fr, sizeof(fr)) < 0)
		return -ENOMEM;
	if (feat == PK_FEAT_LAST)
		return 0;
	int k = pkw_feature_get(w, feat, b);
	if (k < 0)
		return k;
	size_t size = b->len - start;
	if (!k || size > PKW_MAX_RECORD) {
		b->len = start;
		return 0;
	}
	fr.header.size = (uint16_t)size;
	memcpy(b->data + start, &fr, sizeof(fr));
	return 0;
}

/*
 * Tracepoints: PERF_RECORD_HEADER_TRACING_DATA (16 bytes: the data's size
 * padded to 8), then the data itself and its padding, outside the record.
 */
static int put_tracing_data(struct pk_data_writer *w, struct pk_buf *b)
{
	struct pk_buf td = { 0 };
	int k = pkw_feat_tracing_data(w, &td);

	if (k > 0) {
		uint32_t padded = (uint32_t)((td.len + 7) & ~(size_t)7);
		struct perf_event_header h = { .type = PK_RECORD_HEADER_TRACING_DATA, .size = 16 };
		static const char zeros[8];
		if (pk_buf__append(b, &h, sizeof(h)) < 0 || pkw_put_u32(b, padded) ||
		    pkw_put_u32(b, 0) || pk_buf__append(b, td.data, td.len) < 0 ||
		    pk_buf__append(b, zeros, padded - td.len) < 0)
			k = -ENOMEM;
	}
	pk_buf__free(&td);
	return k;
}

int pkw_pipe_begin(struct pk_data_writer *w, struct pk_error *err)
{
	struct pk_perf_pipe_header ph = { .magic = PK_PERF_MAGIC2, .size = sizeof(ph) };
	struct pk_buf b = { 0 };
	size_t done;
	int r = -ENOMEM;

	if (pk_buf__append(&b, &ph, sizeof(ph)) < 0)
		goto nomem;
	for (size_t i = 0; i < w->nr_attrs; i++)
		if ((r = put_attr_record(w, &w->attrs[i], &b, err)))
			goto out;
	for (int f = 1; f < PK_FEAT_LAST; f++)
		if (pkw_feature_wanted(w, f, true) && put_feature_record(w, f, &b))
			goto nomem;
	if (put_feature_record(w, PK_FEAT_LAST, &b))
		goto nomem;
	if (put_tracing_data(w, &b) < 0)
		goto nomem;
	r = pkw_write_all(w, b.data, b.len, &done, err);
	w->pipe_bytes += done;
	goto out;
nomem:
	r = pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
out:
	pk_buf__free(&b);
	return r;
}

int pkw_pipe_finish(struct pk_data_writer *w, struct pk_error *err)
{
	struct pk_buf b = { 0 };
	size_t done;
	int r;

	if (pkw_build_ids(w, &b, true) < 0) {
		pk_buf__free(&b);
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	}
	r = b.len ? pkw_write_all(w, b.data, b.len, &done, err) : 0;
	if (b.len)
		w->pipe_bytes += done;
	pk_buf__free(&b);
	return r;
}
