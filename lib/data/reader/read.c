/* SPDX-License-Identifier: MIT */
/*
 * data/reader/read.c — opening a perf.data for reading: the file or pipe header
 * (byte order, v1 refused, sections checked against the file size), the
 * attrs section and their ids, the id → attr index, and the accessors of
 * pmukit/data_read.h that are not about records or features.
 */
#include "data/reader/reader_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/grow.h"
#include "util/opts.h"

#define DEFAULT_QUEUE	(64u << 20)
#define DEFAULT_WINDOW	(8u << 20)
#define MIN_WINDOW	(256u << 10)

int dr_fail(struct pk_data_reader *r, int code, uint64_t pos, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	int *slot_code;
	struct pk_error *slot = dr_err_slot(r, &slot_code);
	pk_error__set(slot, code, r->name, 0, 0, "offset %#llx: %s", (unsigned long long)pos, msg);
	*slot_code = code;
	return code;
}

void dr_warn(struct pk_data_reader *r, uint64_t pos, const char *fmt, ...)
{
	if (r->nr_warn >= DR_MAX_WARN)
		return;
	char msg[200], line[sizeof(r->warn[0])];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%.255s: offset %#llx: %s", r->name, (unsigned long long)pos,
		 msg);
	memcpy(r->warn[r->nr_warn++], line, sizeof(line));
}

const char *pk_data_reader__warning(const struct pk_data_reader *r, size_t i)
{
	return i < r->nr_warn ? r->warn[i] : NULL;
}

static int fail_open(struct pk_data_reader *r, struct pk_error *err, int code, uint64_t pos,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail_open(struct pk_data_reader *r, struct pk_error *err, int code, uint64_t pos,
		     const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dr_fail(r, code, pos, "%s", msg);
	if (err)
		*err = r->err;
	return code;
}

/* ---- attrs and ids ------------------------------------------------------------------ */

static unsigned popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

static int calc_id_pos(uint64_t t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return (int)popcount64(t & (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				    PERF_SAMPLE_ADDR));
}

static int calc_is_pos(uint64_t t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return 1 + (int)popcount64(t & (PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID));
}

#define KNOWN_SAMPLE_BITS ((uint64_t)PERF_SAMPLE_MAX - 1)
#define KNOWN_READ_BITS                                                                        \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |    \
	 PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

int dr_add_attr(struct pk_data_reader *r, const void *attr, size_t size, const uint64_t *ids,
		size_t nr_ids, uint64_t pos)
{
	if (r->nr_attrs >= DR_MAX_ATTRS)
		return dr_fail(r, -EINVAL, pos, "more than %d attrs", DR_MAX_ATTRS);
	if (size < DR_ATTR_SIZE_VER0 || size > DR_ATTR_SIZE_MAX)
		return dr_fail(r, -EINVAL, pos, "attr size %zu out of range (%d..%d)", size,
			       DR_ATTR_SIZE_VER0, DR_ATTR_SIZE_MAX);
	struct dr_attr *a = calloc(1, sizeof(*a));
	if (!a)
		return dr_fail(r, -ENOMEM, pos, "out of memory");
	a->raw = malloc(size);
	if (!a->raw) {
		free(a);
		return dr_fail(r, -ENOMEM, pos, "out of memory");
	}
	memcpy(a->raw, attr, size);
	a->raw_size = (uint32_t)size;
	size_t known = size < sizeof(a->pub.attr) ? size : sizeof(a->pub.attr);
	memcpy(&a->pub.attr, attr, known);
	if (size >= DR_ATTR_SIZE_VER8)
		a->pub.config3 = data_rd64((const uint8_t *)attr + 128);
	size_t past = sizeof(a->pub.attr) > DR_ATTR_SIZE_VER8 ? sizeof(a->pub.attr)
							       : DR_ATTR_SIZE_VER8;
	if (size > past) {
		a->pub.extra = a->raw + past;
		a->pub.nr_extra = (uint32_t)(size - past);
		for (size_t i = 0; i < a->pub.nr_extra; i++)
			a->pub.extra_nonzero |= a->pub.extra[i] != 0;
	}
	const struct perf_event_attr *pa = &a->pub.attr;
	uint64_t t = pa->sample_type;
	size_t idx = r->nr_attrs;
	uint64_t rf = pa->read_format;
	if (t & ~KNOWN_SAMPLE_BITS || rf & ~(uint64_t)KNOWN_READ_BITS) {
		free(a->raw);
		free(a);
		return dr_fail(r, -EINVAL, pos,
			       "attr %zu: sample_type %#llx / read_format %#llx has bits this "
			       "reader does not know",
			       idx, (unsigned long long)t, (unsigned long long)rf);
	}
	a->sample_type = t;
	a->read_format = pa->read_format;
	a->fixed_size = 8 * popcount64(t & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
					    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
					    PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
					    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD));
	a->id_pos = calc_id_pos(t);
	a->time_pos = popcount64(t & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID));
	a->is_pos = calc_is_pos(t);
	if (pa->sample_id_all)
		a->pub.id_hdr_size = (uint16_t)(8 * popcount64(t & (PERF_SAMPLE_TID |
								  PERF_SAMPLE_TIME |
								  PERF_SAMPLE_ID |
								  PERF_SAMPLE_STREAM_ID |
								  PERF_SAMPLE_CPU |
								  PERF_SAMPLE_IDENTIFIER)));
	a->nr_regs_user = popcount64(pa->sample_regs_user);
	a->nr_regs_intr = popcount64(pa->sample_regs_intr);
	a->hw_idx = pa->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;
	a->br_counters = pa->branch_sample_type & DR_SAMPLE_BRANCH_COUNTERS;
	a->pub.leader = (int)idx;
	if (PK_GROW(r->attrs, r->cap_attrs, r->nr_attrs + 1)) {
		free(a->raw);
		free(a);
		return dr_fail(r, -ENOMEM, pos, "out of memory");
	}
	r->attrs[r->nr_attrs++] = a;
	if (idx < r->nr_evdesc)
		a->pub.name = r->evdesc_names[idx];
	for (size_t i = 0; i < nr_ids; i++) {
		int rc = dr_add_id(r, ids[i], (int)idx, -1, -1);
		if (rc)
			return dr_fail(r, rc, pos, "out of memory");
	}
	return 0;
}

static size_t id_slot(uint64_t id, size_t mask)
{
	id ^= id >> 33;
	id *= UINT64_C(0xff51afd7ed558ccd);
	id ^= id >> 33;
	return (size_t)id & mask;
}

static int id_grow(struct pk_data_reader *r)
{
	size_t n = r->nr_id_slots ? r->nr_id_slots * 2 : 64;
	struct dr_id *t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		t[i].attr = -1;
	for (size_t i = 0; i < r->nr_id_slots; i++) {
		if (r->ids[i].attr < 0)
			continue;
		size_t s = id_slot(r->ids[i].id, n - 1);
		while (t[s].attr >= 0)
			s = (s + 1) & (n - 1);
		t[s] = r->ids[i];
	}
	free(r->ids);
	r->ids = t;
	r->nr_id_slots = n;
	return 0;
}

static struct dr_id *id_lookup(const struct pk_data_reader *r, uint64_t id)
{
	if (!r->nr_id_slots)
		return NULL;
	size_t mask = r->nr_id_slots - 1;
	for (size_t s = id_slot(id, mask);; s = (s + 1) & mask) {
		if (r->ids[s].attr < 0)
			return NULL;
		if (r->ids[s].id == id)
			return &r->ids[s];
	}
}

/* Map id to attr (attr < 0: only annotate a known id with cpu/tid). */
int dr_add_id(struct pk_data_reader *r, uint64_t id, int attr, int32_t cpu, int32_t tid)
{
	r->last_id_attr = -1;
	struct dr_id *e = id_lookup(r, id);
	if (e) {
		if (attr >= 0)
			e->attr = attr;
		if (cpu != -1 || tid != -1) {
			e->cpu = cpu;
			e->tid = tid;
		}
		return 0;
	}
	if (attr < 0)
		return 0;
	if ((r->nr_ids_used + 1) * 4 > r->nr_id_slots * 3 && id_grow(r))
		return -ENOMEM;
	size_t mask = r->nr_id_slots - 1;
	size_t s = id_slot(id, mask);
	while (r->ids[s].attr >= 0)
		s = (s + 1) & mask;
	r->ids[s] = (struct dr_id){ .id = id, .attr = attr, .cpu = cpu, .tid = tid };
	r->nr_ids_used++;
	struct dr_attr *a = r->attrs[attr];
	if (PK_GROW(a->ids, a->cap_ids, a->nr_ids + 1))
		return -ENOMEM;
	a->ids[a->nr_ids++] = id;
	a->pub.ids = a->ids;
	a->pub.nr_ids = a->nr_ids;
	r->nr_ids_total++;
	return 0;
}

int dr_find_id(const struct pk_data_reader *r, uint64_t id)
{
	const struct dr_id *e = id_lookup(r, id);
	return e ? e->attr : -1;
}

/* The attr of a kernel record, as perf's evlist__event2evsel picks it. */
int dr_attr_index(const struct pk_data_reader *r, const struct perf_event_header *h,
		  uint64_t pos)
{
	if (!r->nr_attrs)
		return -1;
	if (r->nr_attrs == 1)
		return 0;
	const struct dr_attr *a0 = r->attrs[0];
	bool sample = h->type == PERF_RECORD_SAMPLE;
	if (!sample && !a0->pub.attr.sample_id_all)
		return 0;
	if (!r->nr_ids_total)
		return 0;
	const uint64_t *w = (const uint64_t *)(h + 1);
	size_t n = (h->size - sizeof(*h)) / 8;
	uint64_t id;
	if (sample) {
		if (a0->id_pos < 0)
			return 0;
		if ((size_t)a0->id_pos >= n)
			return dr_fail((struct pk_data_reader *)r, -EINVAL, pos,
				       "sample of %u bytes too short for its id", h->size);
		id = w[a0->id_pos];
	} else {
		if (a0->is_pos < 0)
			return 0;
		if ((size_t)a0->is_pos > n)
			return dr_fail((struct pk_data_reader *)r, -EINVAL, pos,
				       "record type %u of %u bytes too short for its id trailer",
				       h->type, h->size);
		id = w[n - a0->is_pos];
	}
	if (!id)
		return 0;	/* synthesized records carry id 0 */
	if (id == r->last_id && r->last_id_attr >= 0)
		return r->last_id_attr;
	int idx = dr_find_id(r, id);
	if (idx < 0)
		return dr_fail((struct pk_data_reader *)r, -EINVAL, pos,
			       "record type %u: id %llu belongs to no attr", h->type,
			       (unsigned long long)id);
	((struct pk_data_reader *)r)->last_id = id;
	((struct pk_data_reader *)r)->last_id_attr = idx;
	return idx;
}

void dr_apply_event_desc_name(struct pk_data_reader *r, size_t idx, const char *name)
{
	if (idx < r->nr_attrs && !r->attrs[idx]->pub.name)
		r->attrs[idx]->pub.name = name;
}

/* GROUP_DESC: leaders and members, as perf rebuilds them. */
void dr_apply_groups(struct pk_data_reader *r)
{
	for (uint32_t g = 0; g < r->env.nr_groups; g++) {
		const struct pk_data_group_desc *d = &r->env.groups[g];
		if (d->leader_idx >= r->nr_attrs || !d->nr_members ||
		    d->nr_members > r->nr_attrs - d->leader_idx)
			continue;
		struct dr_attr *l = r->attrs[d->leader_idx];
		l->pub.nr_members = (int)d->nr_members;
		l->pub.group_name = d->name && strcmp(d->name, "{anon_group}") ? d->name : NULL;
		for (uint32_t m = 0; m < d->nr_members; m++)
			r->attrs[d->leader_idx + m]->pub.leader = (int)d->leader_idx;
	}
}

/* ---- the header ---------------------------------------------------------------------- */

static void swap_u64s(void *p, size_t n)
{
	uint64_t *w = p;
	for (size_t i = 0; i < n; i++)
		w[i] = dr_bswap64(w[i]);
}

static bool section_ok(const struct pk_perf_file_section *s, uint64_t file_size)
{
	return s->offset <= file_size && s->size <= file_size - s->offset;
}

static int read_file_attrs(struct pk_data_reader *r, struct pk_error *err)
{
	const struct pk_perf_file_header *h = &r->hdr;
	uint64_t esz = h->attr_size;
	if (esz < 16 + DR_ATTR_SIZE_VER0 || esz > 16 + DR_ATTR_SIZE_MAX)
		return fail_open(r, err, -EINVAL, 16, "attr entry size %llu out of range",
				 (unsigned long long)esz);
	if (h->attrs.size % esz)
		return fail_open(r, err, -EINVAL, 24,
				 "attrs section size %llu is not a multiple of the entry size %llu",
				 (unsigned long long)h->attrs.size, (unsigned long long)esz);
	uint64_t nr = h->attrs.size / esz;
	if (nr > DR_MAX_ATTRS)
		return fail_open(r, err, -EINVAL, 24, "%llu attrs", (unsigned long long)nr);
	uint8_t *buf = malloc(esz);
	if (!buf)
		return fail_open(r, err, -ENOMEM, 0, "out of memory");
	int rc = 0;
	for (uint64_t i = 0; i < nr && !rc; i++) {
		uint64_t off = h->attrs.offset + i * esz;
		rc = dr_src_read_at(r, off, buf, esz);
		if (rc)
			break;
		size_t asz = esz - 16;
		if (r->swap)
			dr_swap_attr(buf, asz);
		struct pk_perf_file_section ids;
		memcpy(&ids, buf + asz, sizeof(ids));
		if (r->swap)
			swap_u64s(&ids, 2);
		if (!section_ok(&ids, r->file_size) || ids.size % 8) {
			rc = dr_fail(r, -EINVAL, off + asz,
				     "attr %llu: ids section [%#llx, +%llu) is outside the file",
				     (unsigned long long)i, (unsigned long long)ids.offset,
				     (unsigned long long)ids.size);
			break;
		}
		uint64_t *idv = NULL;
		size_t nid = ids.size / 8;
		if (nid) {
			idv = malloc(ids.size);
			if (!idv) {
				rc = dr_fail(r, -ENOMEM, off, "out of memory");
				break;
			}
			rc = dr_src_read_at(r, ids.offset, idv, ids.size);
			if (!rc && r->swap)
				swap_u64s(idv, nid);
		}
		if (!rc)
			rc = dr_add_attr(r, buf, asz, idv, nid, off);
		free(idv);
	}
	free(buf);
	if (rc && err)
		*err = r->err;
	return rc;
}

/*
 * Features bitmap of a swapped file: u64 words from a 64-bit writer, or u32
 * words from a 32-bit one (told apart, as perf does, by the HOSTNAME bit
 * every perf since 2.6.38 sets; without it, u64 words).
 */
static void swap_features(uint64_t *f)
{
	uint64_t w64[PK_FEAT_BITS / 64], w32[PK_FEAT_BITS / 64];
	memcpy(w64, f, sizeof(w64));
	memcpy(w32, f, sizeof(w32));
	swap_u64s(w64, PK_FEAT_BITS / 64);
	uint32_t *w = (uint32_t *)w32;
	for (size_t i = 0; i < PK_FEAT_BITS / 32; i++)
		w[i] = dr_bswap32(w[i]);
	bool h64 = w64[0] & (1ULL << PK_FEAT_HOSTNAME), h32 = w32[0] & (1ULL << PK_FEAT_HOSTNAME);
	memcpy(f, !h64 && h32 ? w32 : w64, sizeof(w64));
}

/* A version 1 file ("PERFFILE"): as perf's try_all_file_abis, the attr entry size (one of
 * VER0..VER4 plus 16) says the byte order. */
static int read_magic_v1(struct pk_data_reader *r, int fd, bool mapped, uint64_t *size,
			 struct pk_error *err)
{
	uint64_t asz = 0;
	if (!mapped || pread(fd, &asz, 8, 16) != 8)
		return fail_open(r, err, -EPROTONOSUPPORT, 0,
				 "a version 1 perf.data (\"PERFFILE\") is read from a file only");
	static const uint64_t abi[] = { 64, 72, 80, 96, 104 };
	bool swapped = false, known = false;
	for (size_t i = 0; i < sizeof(abi) / sizeof(abi[0]) && !known; i++) {
		known = asz == abi[i] + 16 || dr_bswap64(asz) == abi[i] + 16;
		swapped = known && asz != abi[i] + 16;
	}
	if (!known)
		return fail_open(r, err, -EINVAL, 16,
				 "a version 1 perf.data whose attr entry size %llu is no known "
				 "one (byte order unknown)", (unsigned long long)asz);
	r->legacy = true;
	r->swap = swapped;
	if (swapped)
		*size = dr_bswap64(*size);
	return 0;
}

/* The first 16 bytes: the magic (which says the byte order) and the header's size, in *size. */
static int read_magic(struct pk_data_reader *r, int fd, bool mapped, size_t window,
		      uint64_t *size, struct pk_error *err)
{
	uint8_t first[16];
	int rc;
	if (mapped) {
		if (r->file_size < 16)
			return fail_open(r, err, -EINVAL, 0,
					 "%llu bytes: too short for a perf.data header",
					 (unsigned long long)r->file_size);
		if (pread(fd, first, 16, 0) != 16)
			return fail_open(r, err, -errno ? -errno : -EIO, 0, "read: %s",
					 strerror(errno));
	} else {
		rc = dr_src_init(r, fd, false, 0, UINT64_MAX, window);
		if (rc)
			return fail_open(r, err, rc, 0, "out of memory");
		rc = dr_payload(r, NULL, first, 16);
		if (rc) {
			if (err)
				*err = r->err;
			return rc;
		}
	}
	uint64_t magic = data_rd64(first);
	*size = data_rd64(first + 8);
	if (!memcmp(first, PK_PERF_MAGIC1, 8))
		return read_magic_v1(r, fd, mapped, size, err);
	if (magic == PK_PERF_MAGIC2_SWAPPED) {
		r->swap = true;
		*size = dr_bswap64(*size);
	} else if (magic != PK_PERF_MAGIC2) {
		return fail_open(r, err, -EINVAL, 0, "not a perf.data file (magic %016llx)",
				 (unsigned long long)magic);
	}
	return 0;
}

/* A file-mode header of size bytes: its sections checked against the file (a killed perf's
 * or a cut file's data read up to the file's end), then the attrs and the features. */
static int read_file_header(struct pk_data_reader *r, int fd, uint64_t size, size_t window,
			    struct pk_error *err)
{
	const size_t old_size = offsetof(struct pk_perf_file_header, features);
	if (size != sizeof(r->hdr) && size != old_size)
		return fail_open(r, err, -EINVAL, 8, "header size %llu is neither %zu nor %zu",
				 (unsigned long long)size, sizeof(r->hdr), old_size);
	if (r->file_size < size)
		return fail_open(r, err, -EINVAL, 0, "file of %llu bytes is shorter than its header",
				 (unsigned long long)r->file_size);
	memset(&r->hdr, 0, sizeof(r->hdr));
	if (pread(fd, &r->hdr, size, 0) != (ssize_t)size)
		return fail_open(r, err, -EIO, 0, "read: %s", strerror(errno));
	if (r->swap) {
		swap_u64s(&r->hdr, old_size / 8);
		if (size == sizeof(r->hdr))
			swap_features(r->hdr.features);
	}
	struct pk_perf_file_header *h = &r->hdr;
	if (!section_ok(&h->attrs, r->file_size))
		return fail_open(r, err, -EINVAL, 24,
				 "attrs section [%#llx, +%llu) is outside the file (%llu bytes)",
				 (unsigned long long)h->attrs.offset,
				 (unsigned long long)h->attrs.size,
				 (unsigned long long)r->file_size);
	if (h->data.offset > r->file_size)
		return fail_open(r, err, -EINVAL, 40,
				 "data section [%#llx, +%llu) starts past the end of the file (%llu "
				 "bytes): truncated?",
				 (unsigned long long)h->data.offset, (unsigned long long)h->data.size,
				 (unsigned long long)r->file_size);
	bool killed = !h->data.size;
	uint64_t dsize = h->data.size;
	if (killed || !section_ok(&h->data, r->file_size)) {
		/* a perf killed before it wrote the header's sizes, or a cut file: the
		 * records up to the end of the file (the last whole one) are read */
		dsize = r->file_size - h->data.offset;
		r->recovering = killed ? DR_RECOVER_KILLED : DR_RECOVER_CUT;
	}
	if (h->attrs.offset < size || h->data.offset < size)
		return fail_open(r, err, -EINVAL, 24, "sections overlap the header");
	if (h->attrs.size && dsize && h->attrs.offset < h->data.offset + dsize &&
	    h->data.offset < h->attrs.offset + h->attrs.size)
		return fail_open(r, err, -EINVAL, 24, "attrs and data sections overlap");
	int rc = dr_src_init(r, fd, true, h->data.offset, h->data.offset + dsize, window);
	if (rc)
		return fail_open(r, err, rc, 0, "out of memory");
	rc = read_file_attrs(r, err);
	if (rc)
		return rc;
	rc = r->recovering ? 0 : dr_feat_load_file(r);	/* recovering: never written, or cut */
	if (rc) {
		if (err)
			*err = r->err;
		return rc;
	}
	return 0;
}

static int read_header(struct pk_data_reader *r, int fd, const struct pk_data_reader_opts *o,
		       struct pk_error *err)
{
	size_t window = o && o->window_bytes ? o->window_bytes : DEFAULT_WINDOW;
	if (window < MIN_WINDOW)
		window = MIN_WINDOW;
	bool mapped = r->file_size > 0;
	uint64_t size = 0;
	int rc = read_magic(r, fd, mapped, window, &size, err);
	if (rc)
		return rc;
	if (size == sizeof(struct pk_perf_pipe_header)) {
		r->pipe = true;
		r->off_bias = 16;
		if (mapped) {
			rc = dr_src_init(r, fd, true, 16, r->file_size, window);
			if (rc)
				return fail_open(r, err, rc, 0, "out of memory");
		}
		return 0;
	}
	if (!mapped)
		return fail_open(r, err, -ESPIPE, 0,
				 "a file-mode perf.data can not be read from a pipe (its "
				 "sections need seeking): give the file itself");
	return read_file_header(r, fd, size, window, err);
}

int pk_data_reader__open_fd(struct pk_data_reader **rp, int fd, const char *name,
			    const struct pk_data_reader_opts *opts, struct pk_error *err)
{
	*rp = NULL;
	struct pk_data_reader_opts o = { .sz = sizeof(o) };
	if (PK_OPTS_LOAD(&o, opts))
		return pk_opts__error(err, "pk_data_reader_opts", opts->sz);
	struct pk_data_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return pk_error__set(err, -ENOMEM, name, 0, 0, "out of memory");
	snprintf(r->name, sizeof(r->name), "%s", name ? name : "");
	r->src.fd = -1;
	r->last_id_attr = -1;
	r->order = o.order;
	r->ahead_wanted = o.read_ahead;
	size_t qlimit = o.queue_bytes ? o.queue_bytes : DEFAULT_QUEUE;
	struct stat st;
	if (fstat(fd, &st)) {
		int e = -errno;
		e = e < 0 ? e : -EIO;	/* < 0 after a failure: said so for scan-build */
		free(r);
		return pk_error__set(err, e, name, 0, 0, "%s", strerror(-e));
	}
	if (S_ISREG(st.st_mode))
		r->file_size = (uint64_t)st.st_size;
	if (S_ISREG(st.st_mode) && !st.st_size) {
		free(r);
		return pk_error__set(err, -EINVAL, name, 0, 0, "offset 0: empty file");
	}
	int rc = dr_queue_init(&r->q, qlimit);
	if (!rc)
		rc = read_header(r, fd, &o, err);
	else
		pk_error__set(err, rc, name, 0, 0, "out of memory");
	if (rc) {
		pk_data_reader__free(r);
		return rc;
	}
	/*
	 * perf_session__new: without sample_id_all (perf before 2.6.38) the
	 * side-band records have no time, so perf gives every record as stored
	 * ("No sample_id_all support, falling back to unordered processing").
	 */
	if (r->order == PK_DATA_ORDER_PERF && r->nr_attrs && !r->attrs[0]->pub.attr.sample_id_all)
		r->order = PK_DATA_ORDER_FILE;
	*rp = r;
	return 0;
}

int pk_data_reader__open(struct pk_data_reader **rp, const char *path,
			 const struct pk_data_reader_opts *opts, struct pk_error *err)
{
	*rp = NULL;
	if (!strcmp(path, "-"))
		return pk_data_reader__open_fd(rp, STDIN_FILENO, "stdin", opts, err);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pk_error__set(err, -errno, path, 0, 0, "%s", strerror(errno));
	int rc = pk_data_reader__open_fd(rp, fd, path, opts, err);
	if (rc || !*rp) {	/* (0 always comes with a reader: said so for scan-build) */
		close(fd);
		return rc ? rc : -ENOMEM;
	}
	(*rp)->own_fd = true;
	return 0;
}

void pk_data_reader__free(struct pk_data_reader *r)
{
	if (!r)
		return;
	dr_ahead_free(r);
	int fd = r->src.fd;
	dr_src_fini(r);
	dr_queue_fini(&r->q);
	if (r->own_fd && fd >= 0)
		close(fd);
	for (size_t i = 0; i < r->nr_attrs; i++) {
		free(r->attrs[i]->raw);
		free(r->attrs[i]->ids);
		free(r->attrs[i]);
	}
	free(r->attrs);
	free(r->ids);
	free(r->feat_buf);
	free(r->build_ids);
	dr_tracing_free(r->tracing);
	pk_buf__free(&r->tracing_buf);
	pk_arena__free(&r->arena);
	free(r);
}

/* ---- accessors -------------------------------------------------------------------------- */

bool pk_data_reader__is_pipe(const struct pk_data_reader *r)
{
	return r->pipe;
}

bool pk_data_reader__needs_swap(const struct pk_data_reader *r)
{
	return r->swap;
}

unsigned pk_data_reader__header_version(const struct pk_data_reader *r)
{
	return r->legacy ? 0 : 1;
}

uint64_t pk_data_reader__data_offset(const struct pk_data_reader *r)
{
	return r->pipe ? 0 : r->hdr.data.offset;
}

uint64_t pk_data_reader__data_size(const struct pk_data_reader *r)
{
	return r->pipe ? 0 : r->hdr.data.size;
}

size_t pk_data_reader__nr_attrs(const struct pk_data_reader *r)
{
	return r->nr_attrs;
}

const struct pk_data_attr *pk_data_reader__attr(const struct pk_data_reader *r, size_t idx)
{
	return idx < r->nr_attrs ? &r->attrs[idx]->pub : NULL;
}

int pk_data_reader__attr_of_id(const struct pk_data_reader *r, uint64_t id)
{
	return dr_find_id(r, id);
}

int pk_data_reader__id_info(const struct pk_data_reader *r, uint64_t id, int32_t *cpu,
			    int32_t *tid)
{
	const struct dr_id *e = id_lookup(r, id);
	if (!e)
		return -ENOENT;
	if (cpu)
		*cpu = e->cpu;
	if (tid)
		*tid = e->tid;
	return 0;
}

const struct pk_data_stats *pk_data_reader__stats(const struct pk_data_reader *r)
{
	const struct pk_data_stats *st = dr_ahead_stats(r);
	return st ? st : &r->stats;
}
