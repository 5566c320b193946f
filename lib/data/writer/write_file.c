/* SPDX-License-Identifier: MIT */
/*
 * data/writer/write_file.c — file mode of the perf.data writer. The layout, as perf
 * writes it:
 *
 *   header | ids of attr 0 | ids of attr 1 | ... | attr entries (attr + its
 *   ids section) | data | feature section table | feature sections
 *
 * The header is on disk from begin() and describes a readable file at every
 * moment after it: its data size follows each complete write (perf 6.1
 * processes no events at all when the data size is 0), and a write that
 * fails keeps the records that reached the disk whole and drops the torn
 * one. finish() writes the feature sections after the data, then the final
 * header.
 *
 * Compressed data can not be read without HEADER_COMPRESSED (perf sizes its
 * decompression buffer from it), so when compressing, a provisional tail —
 * the features known at begin() — follows the data at all times, written
 * with each chunk in the same pwritev(), before the header's data size moves
 * to the new end.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "data/bytes.h"
#include "data/writer/write_int.h"
#include "util/error.h"

/* pwrite all of the iov's bytes at off; *done: how many reached the file. */
static int pwritev_all(int fd, const struct iovec *iov, int n, uint64_t off, size_t *done)
{
	size_t total = 0, left;
	struct iovec v[2];

	if (n > 2)
		return -EINVAL;
	memcpy(v, iov, (size_t)n * sizeof(*v));
	*done = 0;
	for (int i = 0; i < n; i++)
		total += v[i].iov_len;
	left = total;
	while (left) {
		int first = 0;
		while (first < n && !v[first].iov_len)
			first++;
		ssize_t r = pwritev(fd, v + first, n - first, (off_t)(off + *done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;	/* no progress: a short write */
		*done += (size_t)r;
		left -= (size_t)r;
		for (int i = first; i < n && r; i++) {
			size_t k = (size_t)r < v[i].iov_len ? (size_t)r : v[i].iov_len;
			v[i].iov_base = (char *)v[i].iov_base + k;
			v[i].iov_len -= k;
			r -= (ssize_t)k;
		}
	}
	return 0;
}

static int pwrite_all(int fd, const void *p, size_t len, uint64_t off, size_t *done)
{
	struct iovec v = { (void *)p, len };
	return pwritev_all(fd, &v, 1, off, done);
}

/* An AUXTRACE record's bytes: its header's size, then the trace (its u64 size, padded). */
size_t pkw_record_bytes(const unsigned char *p, size_t left)
{
	struct perf_event_header h;
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h) || h.size > left)
		return 0;
	if (h.type != PK_RECORD_AUXTRACE || h.size < 16)
		return h.size;
	uint64_t trace = data_rd64(p + 8);
	return trace > left - h.size ? 0 : h.size + (size_t)trace;
}

size_t pkw_whole_records(const void *recs, size_t n)
{
	const unsigned char *p = recs;
	size_t off = 0;

	while (off + sizeof(struct perf_event_header) <= n) {
		size_t len = pkw_record_bytes(p + off, n - off);
		if (!len)
			break;
		off += len;
	}
	return off;
}

/* The header's data size and feature bits on disk. */
static int put_header(struct pk_data_writer *w, const uint64_t *feats)
{
	size_t done;
	int r = pwrite_all(w->fd, &w->data_size, 8, offsetof(struct pk_perf_file_header, data.size),
			   &done);
	if (!r && feats)
		r = pwrite_all(w->fd, feats, PK_FEAT_BITS / 8,
			       offsetof(struct pk_perf_file_header, features), &done);
	return r;
}

/*
 * The feature sections into out: a table entry per feature written, in
 * feature order, then their bytes; offsets relative to the table's start.
 * provisional: only what is known before the data (no build-ids, no sample
 * times). feats gets the bits; *nr the entries.
 */
static int features_block(struct pk_data_writer *w, bool provisional, struct pk_buf *out,
			  uint64_t *feats, size_t *nr)
{
	struct pk_buf body = { 0 };
	size_t n = 0;
	int r = -ENOMEM;

	memset(feats, 0, PK_FEAT_BITS / 8);
	out->len = 0;
	for (int f = 1; f < PK_FEAT_LAST; f++) {
		if (!pkw_feature_wanted(w, f, false))
			continue;
		if (provisional && (f == PK_FEAT_BUILD_ID || f == PK_FEAT_SAMPLE_TIME))
			continue;
		size_t start = body.len;
		int k = pkw_feature_get(w, f, &body);
		if (k < 0)
			goto out;
		if (!k) {
			body.len = start;	/* its facts are missing: left out, as perf does */
			continue;
		}
		struct pk_perf_file_section s = { start, body.len - start };
		if (pk_buf__append(out, &s, sizeof(s)) < 0)
			goto out;
		feats[f / 64] |= UINT64_C(1) << (f % 64);
		n++;
	}
	for (size_t i = 0; i < n; i++) {	/* the sections follow the table */
		struct pk_perf_file_section s;
		memcpy(&s, out->data + i * sizeof(s), sizeof(s));
		s.offset += n * sizeof(s);
		memcpy(out->data + i * sizeof(s), &s, sizeof(s));
	}
	if (pk_buf__append(out, body.data, body.len) < 0)
		goto out;
	*nr = n;
	r = 0;
out:
	pk_buf__free(&body);
	return r;
}

/* The block's table entries moved to a block starting at base. */
static void relocate(unsigned char *block, size_t nr, int64_t delta)
{
	for (size_t i = 0; i < nr; i++) {
		struct pk_perf_file_section s;
		memcpy(&s, block + i * sizeof(s), sizeof(s));
		s.offset += (uint64_t)delta;
		memcpy(block + i * sizeof(s), &s, sizeof(s));
	}
}

int pkw_file_begin(struct pk_data_writer *w, struct pk_error *err)
{
	struct pk_buf b = { 0 };
	struct pk_perf_file_header h = {
		.magic = PK_PERF_MAGIC2,
		.size = sizeof(h),
		.attr_size = w->attr_size + sizeof(struct pk_perf_file_section),
	};
	uint64_t *id_off = calloc(w->nr_attrs + 1, sizeof(*id_off));
	int r = -ENOMEM;

	if (!id_off || pk_buf__append(&b, &h, sizeof(h)) < 0)
		goto out;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		id_off[i] = b.len;
		if (pk_buf__append(&b, w->attrs[i].ids, w->attrs[i].nr_ids * 8) < 0)
			goto out;
	}
	h.attrs.offset = b.len;
	h.attrs.size = w->nr_attrs * h.attr_size;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct pk_perf_file_section ids = { id_off[i], w->attrs[i].nr_ids * 8 };
		if (pk_buf__append(&b, w->attrs[i].attr, w->attr_size) < 0 ||
		    pk_buf__append(&b, &ids, sizeof(ids)) < 0)
			goto out;
	}
	h.data.offset = b.len;
	w->data_offset = b.len;
	if (w->comp_level) {	/* the provisional tail, right after the (empty) data */
		if (features_block(w, true, &w->tail, w->tail_feats, &w->tail_nr))
			goto out;
		relocate(w->tail.data, w->tail_nr, (int64_t)b.len);
		w->tail_at = b.len;
		memcpy(h.features, w->tail_feats, sizeof(h.features));
		if (pk_buf__append(&b, w->tail.data, w->tail.len) < 0)
			goto out;
	}
	memcpy(b.data, &h, sizeof(h));

	size_t done;
	r = pwrite_all(w->fd, b.data, b.len, 0, &done);
	if (r)
		r = pkw_fail(w, err, r, "writing the perf.data header: %s", strerror(-r));
	else if (ftruncate(w->fd, (off_t)b.len) < 0 && errno != EINVAL)
		r = pkw_fail(w, err, -errno, "truncating perf.data: %s", strerror(errno));
out:
	if (r == -ENOMEM)
		r = pk_error__set(err, r, NULL, 0, 0, "out of memory");
	free(id_off);
	pk_buf__free(&b);
	return r;
}

int pkw_file_emit(struct pk_data_writer *w, const void *p, size_t len, struct pk_error *err)
{
	uint64_t end = w->data_offset + w->data_size;
	struct iovec v[2] = { { (void *)p, len }, { w->tail.data, w->tail.len } };
	size_t done;
	int r;

	if (w->tail.len)
		relocate(w->tail.data, w->tail_nr, (int64_t)(end + len - w->tail_at));
	w->tail_at = end + len;
	r = pwritev_all(w->fd, v, w->tail.len ? 2 : 1, end, &done);
	if (r) {
		/* keep the records that reached the file whole, drop the torn one */
		size_t kept = pkw_whole_records(p, done < len ? done : len);
		const uint64_t *feats = NULL;
		static const uint64_t none[PK_FEAT_BITS / 64];
		if (w->tail.len) {
			/*
			 * Compressed data is read only with its tail: after what
			 * is kept, else where it was (the chunk dropped), else
			 * no features at all.
			 */
			feats = none;
			for (int at_old = 0; at_old < 2 && feats == none; at_old++) {
				size_t k = at_old ? 0 : kept, wd;
				relocate(w->tail.data, w->tail_nr, (int64_t)(end + k - w->tail_at));
				w->tail_at = end + k;
				if (pwrite_all(w->fd, w->tail.data, w->tail.len, end + k, &wd) == 0) {
					feats = w->tail_feats;
					kept = k;
				}
			}
		}
		w->data_size += kept;
		end += kept + (feats && feats != none ? w->tail.len : 0);
		if (put_header(w, feats) == 0)
			(void)!ftruncate(w->fd, (off_t)end);
		return pkw_fail(w, err, r,
				"writing perf.data: %s (%zu of %zu bytes written; the file keeps "
				"%llu bytes of whole records)", strerror(-r), done,
				len + w->tail.len, (unsigned long long)w->data_size);
	}
	w->data_size += len;
	if ((r = put_header(w, NULL)))
		return pkw_fail(w, err, r, "updating the perf.data header: %s", strerror(-r));
	return 0;
}

/* Feature sections after the data, then the final header. */
int pkw_file_finish(struct pk_data_writer *w, struct pk_error *err)
{
	struct pk_buf blk = { 0 };
	uint64_t feats[PK_FEAT_BITS / 64];
	uint64_t base = w->data_offset + w->data_size;
	size_t nr, done;
	int r = 0, wr;

	if (features_block(w, false, &blk, feats, &nr)) {
		pk_buf__free(&blk);
		return pk_error__set(err, -ENOMEM, NULL, 0, 0, "out of memory");
	}
	relocate(blk.data, nr, (int64_t)base);
	wr = pwrite_all(w->fd, blk.data, blk.len, base, &done);
	if (wr && w->tail.len) {	/* the provisional tail fits where it was */
		int first = wr;
		memcpy(feats, w->tail_feats, sizeof(feats));
		relocate(w->tail.data, w->tail_nr, (int64_t)(base - w->tail_at));
		w->tail_at = base;
		wr = pwrite_all(w->fd, w->tail.data, w->tail.len, base, &done);
		blk.len = w->tail.len;
		if (!wr)
			r = pkw_fail(w, err, first, "writing the perf.data feature sections: %s "
				     "(the file keeps those known at begin)", strerror(-first));
	}
	if (wr) {
		memset(feats, 0, sizeof(feats));	/* a header without features: still read */
		r = pkw_fail(w, err, wr, "writing the perf.data feature sections: %s",
			     strerror(-wr));
	}
	(void)!ftruncate(w->fd, (off_t)(base + (wr ? 0 : blk.len)));
	if ((wr = put_header(w, feats)))
		r = pkw_fail(w, err, wr, "rewriting the perf.data header: %s", strerror(-wr));
	pk_buf__free(&blk);
	return r;
}
