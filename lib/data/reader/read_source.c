/* SPDX-License-Identifier: MIT */
/*
 * data/reader/read_source.c — where the reader's records come from: a window of
 * the mapped file (moved forward as the reading goes, so that a huge file
 * never costs more than a window of address space and resident pages), a
 * buffer filled by read() for pipes, and the zstd stream of COMPRESSED /
 * COMPRESSED2 records (one decompression context across all of them; a
 * record may start in one and end in the next). Before bytes that queued
 * records point at are unmapped or overwritten, the queue copies them.
 */
#include "data/reader/reader_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zstd.h>

#define STREAM_BUF	(1u << 20)
#define DECOMP_BUF	(1u << 20)
#define MAX_RECORD	65536u

int dr_src_init(struct pk_data_reader *r, int fd, bool mapped, uint64_t start, uint64_t end,
		size_t window)
{
	struct dr_src *s = &r->src;
	long page = sysconf(_SC_PAGESIZE);
	s->fd = fd;
	s->mapped = mapped;
	s->writable = r->swap;
	s->pos = start;
	s->end = end;
	if (mapped) {
		s->win_cap = (window + (size_t)page - 1) & ~((size_t)page - 1);
		return 0;
	}
	if (!s->buf) {
		s->buf = malloc(STREAM_BUF);
		if (!s->buf)
			return -ENOMEM;
		s->buf_cap = STREAM_BUF;
		s->buf_off = start;
		s->buf_len = 0;
	}
	return 0;
}

void dr_src_fini(struct pk_data_reader *r)
{
	struct dr_src *s = &r->src;
	if (s->win)
		munmap(s->win, s->win_len);
	s->win = NULL;
	free(s->buf);
	s->buf = NULL;
	if (r->dc.zs)
		ZSTD_freeDStream(r->dc.zs);
	r->dc.zs = NULL;
	free(r->dc.buf);
	r->dc.buf = NULL;
	free(r->scratch);
	r->scratch = NULL;
}

int dr_src_read_at(struct pk_data_reader *r, uint64_t off, void *dst, size_t len)
{
	if (off > r->file_size || len > r->file_size - off)
		return dr_fail(r, -EINVAL, off, "%zu bytes needed, the file ends at %#llx", len,
			       (unsigned long long)r->file_size);
	uint8_t *d = dst;
	while (len) {
		ssize_t n = pread(r->src.fd, d, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return dr_fail(r, n < 0 ? -errno : -EIO, off, "read: %s",
				       n < 0 ? strerror(errno) : "unexpected end of file");
		d += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---- mapped windows -------------------------------------------------------------------- */

static int remap(struct pk_data_reader *r, uint64_t pos)
{
	struct dr_src *s = &r->src;
	if (r->q.nr_src) {
		int rc = dr_queue_evacuate(r, DR_REG_SRC);
		if (rc)
			return rc;
	}
	if (s->win)
		munmap(s->win, s->win_len);
	s->win = NULL;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t off = pos & ~((uint64_t)page - 1);
	uint64_t len = s->end - off;
	if (len > s->win_cap)
		len = s->win_cap;
	int prot = PROT_READ | (s->writable ? PROT_WRITE : 0);
	int flags = s->writable ? MAP_PRIVATE : MAP_SHARED;
	void *p = mmap(NULL, (size_t)len, prot, flags, s->fd, (off_t)off);
	if (p == MAP_FAILED)
		return dr_fail(r, -errno, pos, "mmap: %s", strerror(errno));
	madvise(p, (size_t)len, MADV_SEQUENTIAL);
	s->win = p;
	s->win_off = off;
	s->win_len = (size_t)len;
	return 0;
}

static inline bool in_window(const struct dr_src *s, uint64_t pos, uint64_t len)
{
	return s->win && pos >= s->win_off && pos + len <= s->win_off + s->win_len;
}

/* ---- the stream buffer ------------------------------------------------------------------ */

/* Have at least n bytes of the stream at s->pos in the buffer: 0, 1 at the end, or < 0. */
static int stream_need(struct pk_data_reader *r, size_t n)
{
	struct dr_src *s = &r->src;
	for (;;) {
		uint64_t have = s->buf_off + s->buf_len - s->pos;
		if (have >= n)
			return 0;
		if (s->eof)
			return 1;
		if (s->buf_len + (n - have) > s->buf_cap || s->buf_len == s->buf_cap) {
			if (r->q.nr_src) {
				int rc = dr_queue_evacuate(r, DR_REG_SRC);
				if (rc)
					return rc;
			}
			size_t keep = (size_t)have;
			memmove(s->buf, s->buf + (s->pos - s->buf_off), keep);
			s->buf_off = s->pos;
			s->buf_len = keep;
		}
		ssize_t got = read(s->fd, s->buf + s->buf_len, s->buf_cap - s->buf_len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return dr_fail(r, -errno, s->pos, "read: %s", strerror(errno));
		if (got == 0)
			s->eof = true;
		s->buf_len += (size_t)got;
	}
}

int dr_payload(struct pk_data_reader *r, const struct dr_raw *raw, void *dst, uint64_t len)
{
	struct dr_src *s = &r->src;
	uint64_t at = s->pos;
	if (raw && raw->decompressed) {
		struct dr_decomp *d = &r->dc;
		if (len > d->tail - d->head)
			return dr_fail(r, -EINVAL, raw->pos,
				       "%llu bytes of record data past the decompressed data",
				       (unsigned long long)len);
		if (dst)
			memcpy(dst, d->buf + d->head, (size_t)len);
		d->head += (size_t)len;
		return 0;
	}
	if (s->mapped) {
		if (len > s->end - s->pos)
			return dr_fail(r, -EINVAL, raw ? raw->pos : at,
				       "%llu bytes of record data run past the end of the data "
				       "(%#llx)",
				       (unsigned long long)len, (unsigned long long)s->end);
		if (dst) {
			int rc = dr_src_read_at(r, s->pos, dst, (size_t)len);
			if (rc)
				return rc;
		}
		s->pos += len;
		return 0;
	}
	uint8_t *d = dst;
	while (len) {
		size_t step = len > MAX_RECORD ? MAX_RECORD : (size_t)len;
		int rc = stream_need(r, step);
		if (rc < 0)
			return rc;
		if (rc > 0)
			return dr_fail(r, -EINVAL, raw ? raw->pos : at,
				       "the stream ends %llu bytes short of its data",
				       (unsigned long long)len);
		if (d) {
			memcpy(d, s->buf + (s->pos - s->buf_off), step);
			d += step;
		}
		s->pos += step;
		len -= step;
	}
	return 0;
}

/* ---- records from the source --------------------------------------------------------------- */

static void read_header(const struct pk_data_reader *r, const void *p,
			struct perf_event_header *h)
{
	memcpy(h, p, sizeof(*h));
	if (r->swap) {
		h->type = dr_bswap32(h->type);
		h->misc = dr_bswap16(h->misc);
		h->size = dr_bswap16(h->size);
	}
}

/*
 * Records perf writes with sizes that are not multiples of 8: realigning the
 * pipe buffer after each would move it all; they are copied (unalign()).
 */
static inline bool byte_record(uint32_t type)
{
	return type == PK_RECORD_COMPRESSED || type == PK_RECORD_COMPRESSED2 ||
	       type == PK_RECORD_FINISHED_ROUND || type == PK_RECORD_FINISHED_INIT;
}

/*
 * A pipe cut short (a full disk, a killed perf) or the end of a killed
 * perf's file: the records before are read, as perf reads them; one warning
 * names the offset. 0: the end of the records.
 */
static int cut_short(struct pk_data_reader *r, uint64_t pos, const char *what, uint64_t left)
{
	struct dr_src *s = &r->src;
	char lost[96] = "";
	if (left)
		snprintf(lost, sizeof(lost), "; %llu bytes of %s after it are lost",
			 (unsigned long long)left, what);
	if (r->recovering == DR_RECOVER_KILLED)
		dr_warn(r, pos, "the header's data size is 0 (was perf record killed?): the records "
			"up to here are read%s", lost);
	else if (r->recovering == DR_RECOVER_CUT)
		dr_warn(r, pos, "the file ends inside its data section [%#llx, +%llu): the records "
			"up to here are read%s", (unsigned long long)r->hdr.data.offset,
			(unsigned long long)r->hdr.data.size, lost);
	else
		dr_warn(r, pos, "the data ends inside %s (%llu bytes left): the records before it "
			"are read, the rest is lost", what, (unsigned long long)left);
	r->recovering = DR_RECOVER_NONE;	/* said once */
	if (s->mapped) {
		s->pos = s->end;
	} else {	/* all consumed: a later call finds the plain end */
		s->pos = s->buf_off + s->buf_len;
		s->eof = true;
	}
	return 0;
}

static int src_next(struct pk_data_reader *r, struct perf_event_header **out, uint64_t *pos)
{
	struct dr_src *s = &r->src;
	struct perf_event_header h;
	uint8_t *p;
	*pos = s->pos;
	if (s->mapped) {
		if (s->pos >= s->end)
			return r->recovering ? cut_short(r, s->pos, "", 0) : 0;
		bool cut_ok = r->pipe || r->recovering;	/* a cut pipe, a killed perf's file */
		if (s->end - s->pos < sizeof(h)) {
			if (cut_ok)
				return cut_short(r, s->pos, "a record header", s->end - s->pos);
			return dr_fail(r, -EINVAL, s->pos,
				       "%llu bytes left in the data: a truncated record header",
				       (unsigned long long)(s->end - s->pos));
		}
		if (!in_window(s, s->pos, sizeof(h))) {
			int rc = remap(r, s->pos);
			if (rc)
				return rc;
		}
		read_header(r, s->win + (s->pos - s->win_off), &h);
		if (h.size < sizeof(h) && r->recovering)	/* unwritten bytes of a killed perf */
			return cut_short(r, s->pos, "a record", s->end - s->pos);
		if (h.size < sizeof(h))
			return dr_fail(r, -EINVAL, s->pos,
				       "record type %u: size %u is smaller than its header", h.type,
				       h.size);
		if (h.size > s->end - s->pos && cut_ok)
			return cut_short(r, s->pos, "a record", s->end - s->pos);
		if (h.size > s->end - s->pos)
			return dr_fail(r, -EINVAL, s->pos,
				       "record type %u of %u bytes runs past the end of the data "
				       "(%#llx): truncated?",
				       h.type, h.size, (unsigned long long)s->end);
		if (!in_window(s, s->pos, h.size)) {
			int rc = remap(r, s->pos);
			if (rc)
				return rc;
		}
		p = s->win + (s->pos - s->win_off);
	} else {
		int rc = stream_need(r, sizeof(h));
		if (rc < 0)
			return rc;
		if (rc > 0) {
			uint64_t left = s->buf_off + s->buf_len - s->pos;
			if (!left)
				return 0;
			return cut_short(r, s->pos, "a record header", left);
		}
		read_header(r, s->buf + (s->pos - s->buf_off), &h);
		if (h.size < sizeof(h))
			return dr_fail(r, -EINVAL, s->pos,
				       "record type %u: size %u is smaller than its header", h.type,
				       h.size);
		rc = stream_need(r, h.size);
		if (rc < 0)
			return rc;
		if (rc > 0)
			return cut_short(r, s->pos, "a record",
					 s->buf_off + s->buf_len - s->pos);
		p = s->buf + (s->pos - s->buf_off);
		if (((uintptr_t)p & 7) && !byte_record(h.type)) {
			/* a record of unaligned size went before (pipe features, COMPRESSED):
			 * move the rest of the buffer so that this one is aligned */
			if (r->q.nr_src) {
				rc = dr_queue_evacuate(r, DR_REG_SRC);
				if (rc)
					return rc;
			}
			size_t have = (size_t)(s->buf_off + s->buf_len - s->pos);
			memmove(s->buf, p, have);
			s->buf_off = s->pos;
			s->buf_len = have;
			p = s->buf;
		}
	}
	s->pos += h.size;
	*out = (struct perf_event_header *)p;
	return 1;
}

/* ---- decompression --------------------------------------------------------------------------- */

int dr_decomp_feed(struct pk_data_reader *r, const struct dr_raw *raw)
{
	struct dr_decomp *d = &r->dc;
	const struct perf_event_header *h = raw->hdr;
	if (raw->decompressed)
		return dr_fail(r, -EINVAL, raw->pos, "a compressed record inside compressed data");
	const uint8_t *data = (const uint8_t *)(h + 1);
	size_t len = h->size - sizeof(*h);
	if (h->type == PK_RECORD_COMPRESSED2) {
		uint64_t dsz;
		if (len < 8)
			return dr_fail(r, -EINVAL, raw->pos, "COMPRESSED2 record of %u bytes",
				       h->size);
		dsz = data_rd64(data);	/* swapped by dr_swap_record */
		if (dsz > len - 8)
			return dr_fail(r, -EINVAL, raw->pos,
				       "COMPRESSED2 data size %llu exceeds its record (%zu bytes)",
				       (unsigned long long)dsz, len - 8);
		data += 8;
		len = (size_t)dsz;
	}
	if (!d->zs) {
		d->zs = ZSTD_createDStream();
		d->buf = malloc(DECOMP_BUF);
		if (!d->zs || !d->buf)
			return dr_fail(r, -ENOMEM, raw->pos, "out of memory");
		ZSTD_initDStream(d->zs);
		d->cap = DECOMP_BUF;
	}
	d->in = data;
	d->in_len = len;
	d->in_pos = 0;
	d->rec_off = raw->off;
	d->rec_pos = raw->pos;
	d->more = len > 0;
	return 0;
}

/* 1: a record from the decompressed data; 0: none complete (more input needed). */
static int decomp_next(struct pk_data_reader *r, struct perf_event_header **out)
{
	struct dr_decomp *d = &r->dc;
	for (;;) {
		size_t avail = d->tail - d->head;
		if (avail >= sizeof(struct perf_event_header)) {
			struct perf_event_header h;
			read_header(r, d->buf + d->head, &h);
			if (h.size < sizeof(h))
				return dr_fail(r, -EINVAL, d->rec_pos,
					       "decompressed record type %u: size %u is smaller "
					       "than its header",
					       h.type, h.size);
			uint64_t need = h.size;
			if ((h.type == PK_RECORD_AUXTRACE && h.size >= 16) ||
			    (h.type == PK_RECORD_HEADER_TRACING_DATA && h.size >= 12)) {
				/* its data follows it: have that decompressed too */
				uint64_t v = 0;
				if (h.type == PK_RECORD_AUXTRACE) {
					v = data_rd64(d->buf + d->head + 8);
					v = r->swap ? dr_bswap64(v) : v;
				} else {
					uint32_t v32 = data_rd32(d->buf + d->head + 8);
					v = r->swap ? dr_bswap32(v32) : v32;
				}
				if (v > d->cap - MAX_RECORD - h.size)
					return dr_fail(r, -EINVAL, d->rec_pos,
						       "record type %u in compressed data with %llu "
						       "bytes of data",
						       h.type, (unsigned long long)v);
				need += v;
			}
			if (avail >= need) {
				*out = (struct perf_event_header *)(d->buf + d->head);
				d->head += h.size;
				return 1;
			}
		}
		if (!d->more)
			return 0;
		if (d->cap - d->tail < MAX_RECORD) {
			if (r->q.nr_decomp) {
				int rc = dr_queue_evacuate(r, DR_REG_DECOMP);
				if (rc)
					return rc;
			}
			memmove(d->buf, d->buf + d->head, avail);
			d->head = 0;
			d->tail = avail;
		}
		ZSTD_outBuffer o = { d->buf, d->cap, d->tail };
		ZSTD_inBuffer i = { d->in, d->in_len, d->in_pos };
		size_t ret = ZSTD_decompressStream(d->zs, &o, &i);
		if (ZSTD_isError(ret))
			return dr_fail(r, -EINVAL, d->rec_pos, "zstd: %s", ZSTD_getErrorName(ret));
		r->stats.bytes_decompressed += o.pos - d->tail;
		bool progress = o.pos > d->tail || i.pos > d->in_pos;
		d->tail = o.pos;
		d->in_pos = i.pos;
		d->more = d->in_pos < d->in_len || o.pos == o.size;
		if (!progress)
			d->more = false;
	}
}

/* A record at an address not aligned for its u64 fields: use an aligned copy. */
static int unalign(struct pk_data_reader *r, struct dr_raw *raw, struct perf_event_header **h)
{
	if (!((uintptr_t)*h & 7))
		return 0;
	if (!r->scratch) {
		r->scratch = malloc(MAX_RECORD);
		if (!r->scratch)
			return dr_fail(r, -ENOMEM, raw->pos, "out of memory");
	}
	uint16_t size = data_rd16((const uint8_t *)*h + 6);
	if (r->swap)
		size = dr_bswap16(size);
	memcpy(r->scratch, *h, size);
	*h = (struct perf_event_header *)r->scratch;
	raw->region = DR_REG_SCRATCH;
	return 0;
}

int dr_fetch(struct pk_data_reader *r, struct dr_raw *raw)
{
	struct perf_event_header *h = NULL;
	int rc;
	if (r->dc.buf) {
		rc = decomp_next(r, &h);
		if (rc < 0)
			return rc;
		if (rc > 0) {
			raw->hdr = h;
			raw->off = r->dc.rec_off;
			raw->pos = r->dc.rec_pos;
			raw->region = DR_REG_DECOMP;
			raw->decompressed = true;
			if ((rc = unalign(r, raw, &h)))
				return rc;
			raw->hdr = h;
			if (r->swap && (rc = dr_swap_record(r, h, raw->pos)))
				return rc < 0 ? rc : -EINVAL;
			return 1;
		}
	}
	uint64_t pos = 0;
	rc = src_next(r, &h, &pos);
	if (rc <= 0) {
		if (!rc && r->dc.buf && r->dc.tail > r->dc.head)
			return dr_fail(r, -EINVAL, r->dc.rec_pos,
				       "the compressed data ends inside a record (%zu bytes left)",
				       r->dc.tail - r->dc.head);
		return rc;
	}
	raw->hdr = h;
	raw->pos = pos;
	raw->off = pos - r->off_bias;
	raw->region = DR_REG_SRC;
	raw->decompressed = false;
	if ((rc = unalign(r, raw, &h)))
		return rc;
	raw->hdr = h;
	if (r->swap && (rc = dr_swap_record(r, h, pos)))
		return rc < 0 ? rc : -EINVAL;
	return 1;
}
