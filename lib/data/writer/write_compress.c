/* SPDX-License-Identifier: MIT */
/*
 * data/writer/write_compress.c — zstd compression of the data as perf 6.1 writes
 * it: one ZSTD_CStream for the whole recording; whole records are staged up
 * to a chunk (perf compresses one ring-buffer read at a time), each chunk is
 * compressed and flushed into PERF_RECORD_COMPRESSED records of at most
 * 64 KiB (the header and the zstd bytes, no padding). A chunk never holds
 * more than HEADER_COMPRESSED's mmap_len bytes: perf decompresses each
 * record into a buffer of that size. FINISHED_ROUND records stay
 * uncompressed between them, as perf writes them.
 */
#include <errno.h>
#include <string.h>

#include <zstd.h>

#include "data/writer/write_int.h"
#include "util/error.h"

/* perf's limit: PERF_SAMPLE_MAX_SIZE - sizeof(struct perf_record_compressed) - 1 */
#define MAX_PAYLOAD (65536u - sizeof(struct perf_event_header) - 1u)

int pkw_comp_init(struct pk_data_writer *w, struct pk_error *err)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	if (!cs)
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory (zstd stream)");
	size_t r = ZSTD_initCStream(cs, w->comp_level);
	if (ZSTD_isError(r)) {
		ZSTD_freeCStream(cs);
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "zstd: %s", ZSTD_getErrorName(r));
	}
	w->zcs = cs;
	return 0;
}

void pkw_comp_free(struct pk_data_writer *w)
{
	if (w->zcs)
		ZSTD_freeCStream(w->zcs);
	w->zcs = NULL;
	pk_buf__free(&w->zin);
	pk_buf__free(&w->zout);
}

int pkw_comp_flush(struct pk_data_writer *w, struct pk_error *err)
{
	ZSTD_inBuffer in = { w->zin.data, w->zin.len, 0 };
	size_t left;

	if (!w->zin.len)
		return 0;
	w->zout.len = 0;
	do {
		struct perf_event_header h = { .type = PK_RECORD_COMPRESSED };
		if (pk_buf__reserve(&w->zout, sizeof(h) + MAX_PAYLOAD))
			return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		size_t at = w->zout.len;
		ZSTD_outBuffer out = { w->zout.data + at + sizeof(h), MAX_PAYLOAD, 0 };
		left = ZSTD_compressStream2(w->zcs, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return pkw_fail(w, err, -EIO, "zstd: %s", ZSTD_getErrorName(left));
		if (!out.pos)
			continue;
		h.size = (uint16_t)(sizeof(h) + out.pos);
		memcpy(w->zout.data + at, &h, sizeof(h));
		w->zout.len = at + h.size;
	} while (left || in.pos < in.size);
	w->zin.len = 0;
	return pkw_emit(w, w->zout.data, w->zout.len, err);
}

int pkw_comp_write(struct pk_data_writer *w, const void *recs, size_t len, struct pk_error *err)
{
	const unsigned char *p = recs;
	int r;

	while (len) {
		/* the whole records that fit the chunk */
		size_t take = 0;
		while (take < len) {
			/* an AUXTRACE record with its trace; one larger than a chunk alone */
			size_t rec = pkw_record_bytes(p + take, len - take);
			if (w->zin.len + take + rec > PKW_COMP_CHUNK && (take || w->zin.len))
				break;
			take += rec;
		}
		if (!take) {	/* the chunk is full */
			if ((r = pkw_comp_flush(w, err)))
				return r;
			continue;
		}
		if (pk_buf__append(&w->zin, p, take) < 0)
			return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
		p += take;
		len -= take;
	}
	return 0;
}
