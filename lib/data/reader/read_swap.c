/* SPDX-License-Identifier: MIT */
/*
 * data/reader/read_swap.c — records and attrs written on a machine of the other
 * byte order, converted in place to this machine's: every field of every
 * record type the reader decodes (u32 pairs as two u32s, bitfields moved
 * bit by bit as the compiler of the other order laid them out), while the
 * bytes the kernel copies verbatim (RAW, AUX, user stack, strings) stay.
 * A record whose layout runs past its size is an error here already.
 */
#include "data/reader/reader_int.h"

#include <errno.h>
#include <string.h>

static inline void swap16_at(void *p)
{
	uint16_t v = dr_bswap16(data_rd16(p));
	memcpy(p, &v, 2);
}
static inline void swap32_at(void *p)
{
	uint32_t v = dr_bswap32(data_rd32(p));
	memcpy(p, &v, 4);
}
static inline void swap64_at(void *p)
{
	uint64_t v = dr_bswap64(data_rd64(p));
	memcpy(p, &v, 8);
}
static void swap64_n(void *p, size_t n)
{
	uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		swap64_at(b + 8 * i);
}

/*
 * The attr's flags word: bitfields (15 one-bit fields, precise_ip:2, 21 more
 * one-bit fields, 26 reserved bits) that the other byte order's compiler
 * allocated from the other end of the u64. perf reverses the bits of each
 * byte, which is right for the one-bit fields but turns precise_ip 1 into 2:
 * here each field is moved whole.
 */
static void swap_attr_flags(uint8_t *p)
{
	static const uint8_t widths[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
					  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					  1, 1, 1, 1, 1, 26 };
	uint64_t v = dr_bswap64(data_rd64(p));	/* the value as the writer saw it */
	uint64_t out = 0;
	unsigned at = 0;
	for (size_t i = 0; i < sizeof(widths); i++) {
		unsigned w = widths[i];
		uint64_t mask = (1ULL << w) - 1;
		/* field i starts at bit at from one end, at 64 - at - w from the other */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		out |= ((v >> (64 - at - w)) & mask) << at;
#else
		out |= ((v >> at) & mask) << (64 - at - w);
#endif
		at += w;
	}
	memcpy(p, &out, 8);
}

/* perf_event_attr's fields by offset: width 8/4/2, or 1 for the flags bitfield word. */
static const struct {
	uint16_t off, width;
} attr_fields[] = {
	{ 0, 4 },	/* type */
	{ 4, 4 },	/* size */
	{ 8, 8 },	/* config */
	{ 16, 8 },	/* sample_period / freq */
	{ 24, 8 },	/* sample_type */
	{ 32, 8 },	/* read_format */
	{ 40, 1 },	/* disabled:1, inherit:1, ... (bitfield) */
	{ 48, 4 },	/* wakeup_events / watermark */
	{ 52, 4 },	/* bp_type */
	{ 56, 8 },	/* bp_addr / config1 */
	{ 64, 8 },	/* bp_len / config2 */
	{ 72, 8 },	/* branch_sample_type */
	{ 80, 8 },	/* sample_regs_user */
	{ 88, 4 },	/* sample_stack_user */
	{ 92, 4 },	/* clockid */
	{ 96, 8 },	/* sample_regs_intr */
	{ 104, 4 },	/* aux_watermark */
	{ 108, 2 },	/* sample_max_stack */
	{ 110, 2 },	/* __reserved_2 */
	{ 112, 4 },	/* aux_sample_size */
	{ 116, 4 },	/* __reserved_3 */
	{ 120, 8 },	/* sig_data */
	{ 128, 8 },	/* config3 */
};

/* An attr of size bytes (its own size field is read after swapping it). */
void dr_swap_attr(void *attr, size_t size)
{
	uint8_t *a = attr;
	for (size_t i = 0; i < sizeof(attr_fields) / sizeof(attr_fields[0]); i++) {
		size_t off = attr_fields[i].off, w = attr_fields[i].width;
		if (off + (w == 1 ? 8 : w) > size)
			break;
		if (w == 8)
			swap64_at(a + off);
		else if (w == 4)
			swap32_at(a + off);
		else if (w == 2)
			swap16_at(a + off);
		else
			swap_attr_flags(a + off);
	}
	/* fields newer than config3: u64 words, as every later addition has been */
	for (size_t off = DR_ATTR_SIZE_VER8; off + 8 <= size; off += 8)
		swap64_at(a + off);
}

/*
 * perf_branch_entry's third word: the u64 holding the bitfields, already
 * byte-swapped, with the fields where the other order's compiler put them.
 */
static const struct {
	uint8_t le, be, width;	/* bit positions on a little / big endian machine */
} br_fields[] = {
	{ 0, 63, 1 },	/* mispred */
	{ 1, 62, 1 },	/* predicted */
	{ 2, 61, 1 },	/* in_tx */
	{ 3, 60, 1 },	/* abort */
	{ 4, 44, 16 },	/* cycles */
	{ 20, 40, 4 },	/* type */
	{ 24, 38, 2 },	/* spec */
	{ 26, 34, 4 },	/* new_type */
	{ 30, 31, 3 },	/* priv */
	{ 33, 0, 31 },	/* reserved */
};

static uint64_t branch_flags_to_native(uint64_t v)
{
	uint64_t out = 0;
	for (size_t i = 0; i < sizeof(br_fields) / sizeof(br_fields[0]); i++) {
		uint64_t mask = (1ULL << br_fields[i].width) - 1;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		out |= ((v >> br_fields[i].be) & mask) << br_fields[i].le;
#else
		out |= ((v >> br_fields[i].le) & mask) << br_fields[i].be;
#endif
	}
	return out;
}

/* ---- which attr: as dr_attr_index, reading the other order ------------------------------ */

static int attr_of_swapped(struct pk_data_reader *r, const struct perf_event_header *h,
			   uint64_t pos)
{
	if (!r->nr_attrs)
		return -1;
	if (r->nr_attrs == 1)
		return 0;
	const struct dr_attr *a0 = r->attrs[0];
	bool sample = h->type == PERF_RECORD_SAMPLE;
	if ((!sample && !a0->pub.attr.sample_id_all) || !r->nr_ids_total)
		return 0;
	const uint8_t *w = (const uint8_t *)(h + 1);
	size_t n = (h->size - sizeof(*h)) / 8;
	int p = sample ? a0->id_pos : a0->is_pos;
	if (p < 0)
		return 0;
	if (sample ? (size_t)p >= n : (size_t)p > n)
		return dr_fail(r, -EINVAL, pos, "record type %u of %u bytes too short for its id",
			       h->type, h->size);
	uint64_t id = dr_bswap64(data_rd64(w + 8 * (sample ? (size_t)p : n - (size_t)p)));
	if (!id)
		return 0;
	int idx = dr_find_id(r, id);
	if (idx < 0)
		return dr_fail(r, -EINVAL, pos, "record type %u: id %llu belongs to no attr",
			       h->type, (unsigned long long)id);
	return idx;
}

/* ---- samples ------------------------------------------------------------------------------- */

/* Fewer than n bytes left at p: the sample's fields run past its end. */
#define SHORT(n) ((uint64_t)(end - p) < (uint64_t)(n))

/* The u64 of each bit of t in bits, in its order. */
static inline bool swap_u64s(uint64_t t, const uint64_t *bits, size_t n, uint8_t **pp,
			     const uint8_t *end)
{
	uint8_t *p = *pp;
	for (size_t i = 0; i < n; i++)
		if (t & bits[i]) {
			if (SHORT(8))
				return false;
			swap64_at(p);
			p += 8;
		}
	*pp = p;
	return true;
}

/* Two u32 (pid/tid, cpu/res) when t has bit. */
static inline bool swap_pair(uint64_t t, uint64_t bit, uint8_t **pp, const uint8_t *end)
{
	uint8_t *p = *pp;
	if (!(t & bit))
		return true;
	if (SHORT(8))
		return false;
	swap32_at(p);
	swap32_at(p + 4);
	*pp = p + 8;
	return true;
}

/* READ: the first value (nr with PERF_FORMAT_GROUP), the times, then the values and ids. */
static bool swap_read(uint64_t rf, uint8_t **pp, const uint8_t *end)
{
	uint8_t *p = *pp;
	uint64_t nr = 1;
	if (SHORT(8))
		return false;
	swap64_at(p);
	if (rf & PERF_FORMAT_GROUP)
		nr = data_rd64(p);
	p += 8;
	uint64_t words = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t stride = !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	if (rf & PERF_FORMAT_GROUP) {
		if (nr > (uint64_t)(end - p) / 8)
			return false;
		words += nr * (stride + 1);
	} else {
		words += stride;
	}
	if (words > (uint64_t)(end - p) / 8)
		return false;
	swap64_n(p, words);
	*pp = p + words * 8;
	return true;
}

/* A u64 count, then that many u64s (CALLCHAIN). */
static bool swap_counted(uint8_t **pp, const uint8_t *end)
{
	uint8_t *p = *pp;
	if (SHORT(8))
		return false;
	swap64_at(p);
	uint64_t nr = data_rd64(p);
	p += 8;
	if (nr > (uint64_t)(end - p) / 8)
		return false;
	swap64_n(p, nr);
	*pp = p + nr * 8;
	return true;
}

/* RAW: a u32 size, then bytes the kernel copied as they were. */
static bool skip_raw(uint8_t **pp, const uint8_t *end)
{
	uint8_t *p = *pp;
	if (SHORT(4))
		return false;
	swap32_at(p);
	uint32_t sz = data_rd32(p);
	p += 4;
	if (SHORT(sz))
		return false;
	*pp = p + sz;
	return true;
}

/* BRANCH_STACK: nr, hw_idx, nr entries (from, to, the flags' bitfields), their counters. */
static bool swap_branch_stack(const struct dr_attr *a, uint8_t **pp, const uint8_t *end)
{
	uint8_t *p = *pp;
	if (SHORT(8))
		return false;
	swap64_at(p);
	uint64_t nr = data_rd64(p);
	p += 8;
	if (a->hw_idx) {
		if (SHORT(8))
			return false;
		swap64_at(p);
		p += 8;
	}
	if (nr > (uint64_t)(end - p) / 24)
		return false;
	for (uint64_t i = 0; i < nr; i++, p += 24) {
		swap64_at(p);
		swap64_at(p + 8);
		uint64_t f = branch_flags_to_native(dr_bswap64(data_rd64(p + 16)));
		memcpy(p + 16, &f, 8);
	}
	if (a->br_counters) {
		if (nr > (uint64_t)(end - p) / 8)
			return false;
		swap64_n(p, nr);
		p += nr * 8;
	}
	*pp = p;
	return true;
}

/* REGS_USER, REGS_INTR: the abi, then nr registers when it is not 0. */
static bool swap_regs(uint8_t **pp, const uint8_t *end, unsigned nr)
{
	uint8_t *p = *pp;
	if (SHORT(8))
		return false;
	swap64_at(p);
	uint64_t abi = data_rd64(p);
	p += 8;
	if (abi) {
		if (SHORT(8 * (uint64_t)nr))
			return false;
		swap64_n(p, nr);
		p += 8 * (uint64_t)nr;
	}
	*pp = p;
	return true;
}

/* STACK_USER: the size, the stack's bytes as copied, then (size not 0) the dynamic size. */
static bool swap_user_stack(uint8_t **pp, const uint8_t *end)
{
	uint8_t *p = *pp;
	if (SHORT(8))
		return false;
	swap64_at(p);
	uint64_t sz = data_rd64(p);
	p += 8;
	if (sz) {
		if (SHORT(sz))
			return false;
		p += sz;
		if (SHORT(8))
			return false;
		swap64_at(p);
		p += 8;
	}
	*pp = p;
	return true;
}

/* AUX, the last field: its size, then the data as copied. */
static bool skip_aux(uint8_t *p, const uint8_t *end)
{
	if (SHORT(8))
		return false;
	swap64_at(p);
	uint64_t sz = data_rd64(p);
	p += 8;
	return !SHORT(sz);
}

static int swap_sample(struct pk_data_reader *r, const struct dr_attr *a,
		       struct perf_event_header *h, uint64_t pos)
{
	static const uint64_t first[] = { PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP };
	static const uint64_t ids[] = { PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
					PERF_SAMPLE_STREAM_ID };
	static const uint64_t period[] = { PERF_SAMPLE_PERIOD };
	static const uint64_t mid[] = { PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
					PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_TRANSACTION };
	static const uint64_t late[] = { PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_CGROUP,
					 PERF_SAMPLE_DATA_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE };
	uint8_t *p = (uint8_t *)(h + 1), *end = (uint8_t *)h + h->size;
	uint64_t t = a->sample_type;
	/* the fields in perf_event.h's order, each present when its bit is set */
	if (!swap_u64s(t, first, 2, &p, end) || !swap_pair(t, PERF_SAMPLE_TID, &p, end) ||
	    !swap_u64s(t, ids, 4, &p, end) || !swap_pair(t, PERF_SAMPLE_CPU, &p, end) ||
	    !swap_u64s(t, period, 1, &p, end) ||
	    ((t & PERF_SAMPLE_READ) && !swap_read(a->read_format, &p, end)) ||
	    ((t & PERF_SAMPLE_CALLCHAIN) && !swap_counted(&p, end)) ||
	    ((t & PERF_SAMPLE_RAW) && !skip_raw(&p, end)) ||
	    ((t & PERF_SAMPLE_BRANCH_STACK) && !swap_branch_stack(a, &p, end)) ||
	    ((t & PERF_SAMPLE_REGS_USER) && !swap_regs(&p, end, a->nr_regs_user)) ||
	    ((t & PERF_SAMPLE_STACK_USER) && !swap_user_stack(&p, end)) ||
	    !swap_u64s(t, mid, 3, &p, end) ||
	    ((t & PERF_SAMPLE_REGS_INTR) && !swap_regs(&p, end, a->nr_regs_intr)) ||
	    !swap_u64s(t, late, 4, &p, end) ||
	    ((t & PERF_SAMPLE_AUX) && !skip_aux(p, end)))
		return dr_fail(r, -EINVAL, pos, "sample of %u bytes: its fields run past its end",
			       h->size);
	return 0;
}
#undef SHORT

/* ---- other kernel records -------------------------------------------------------------------- */

/* The sample_id_all trailer: the last id_hdr_size bytes; returns where it starts. */
static uint8_t *swap_trailer(const struct dr_attr *a, struct perf_event_header *h)
{
	uint8_t *end = (uint8_t *)h + h->size;
	if (!a || !a->pub.attr.sample_id_all || h->size < sizeof(*h) + a->pub.id_hdr_size)
		return end;
	uint8_t *p = end - a->pub.id_hdr_size;
	uint8_t *q = p;
	uint64_t t = a->sample_type;
	if (t & PERF_SAMPLE_TID) {
		swap32_at(q);
		swap32_at(q + 4);
		q += 8;
	}
	if (t & PERF_SAMPLE_TIME)
		swap64_at(q), q += 8;
	if (t & PERF_SAMPLE_ID)
		swap64_at(q), q += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		swap64_at(q), q += 8;
	if (t & PERF_SAMPLE_CPU) {
		swap32_at(q);
		swap32_at(q + 4);
		q += 8;
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		swap64_at(q);
	return p;
}

/* Fixed fields: a list of widths from the end of the header (0 ends). */
static void swap_fields(uint8_t *p, const uint8_t *end, const char *widths)
{
	for (; *widths; widths++) {
		size_t w = (size_t)(*widths - '0');
		if ((size_t)(end - p) < w)
			return;
		if (w == 8)
			swap64_at(p);
		else if (w == 4)
			swap32_at(p);
		else if (w == 2)
			swap16_at(p);
		p += w;
	}
}

static int swap_kernel(struct pk_data_reader *r, struct perf_event_header *h, uint64_t pos)
{
	int idx = attr_of_swapped(r, h, pos);
	if (idx < -1)
		return idx;
	const struct dr_attr *a = idx >= 0 ? r->attrs[idx] : NULL;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (!a)
			return dr_fail(r, -EINVAL, pos, "a sample before any attr");
		return swap_sample(r, a, h, pos);
	}
	uint8_t *body = (uint8_t *)(h + 1);
	uint8_t *end = swap_trailer(a, h);
	switch (h->type) {
	case PERF_RECORD_MMAP:
		swap_fields(body, end, "44888");
		break;
	case PERF_RECORD_MMAP2:
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
			swap_fields(body, end, "44888");
		else
			swap_fields(body, end, "448884488");
		if (end - body >= 64) {
			swap32_at(body + 56);
			swap32_at(body + 60);
		}
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
		swap_fields(body, end, "44");
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		swap_fields(body, end, "44448");
		break;
	case PERF_RECORD_LOST:
		swap_fields(body, end, "88");
		break;
	case PERF_RECORD_READ:
		swap_fields(body, end, "44");
		if (end - body > 8)
			swap64_n(body + 8, (size_t)(end - body - 8) / 8);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_AUX:
		swap_fields(body, end, "888");
		break;
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		swap_fields(body, end, "8");
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		swap_fields(body, end, "44");
		break;
	case PERF_RECORD_NAMESPACES: {
		swap_fields(body, end, "448");
		if (end - body >= 16) {
			uint64_t nr = data_rd64(body + 8);
			uint64_t room = (uint64_t)(end - body - 16) / 16;
			swap64_n(body + 16, 2 * (nr < room ? nr : room));
		}
		break;
	}
	case PERF_RECORD_KSYMBOL:
		swap_fields(body, end, "8422");
		break;
	case PERF_RECORD_BPF_EVENT:
		swap_fields(body, end, "224");
		break;
	case PERF_RECORD_CGROUP:
		swap_fields(body, end, "8");
		break;
	case PERF_RECORD_TEXT_POKE:
		swap_fields(body, end, "822");
		break;
	default:
		break;
	}
	return 0;
}

/* ---- tool records ---------------------------------------------------------------------------- */

/* A perf_record_cpu_map_data (packed) of len bytes at p. */
static void swap_cpu_map(uint8_t *p, size_t len)
{
	if (len < 2)
		return;
	swap16_at(p);
	uint16_t type = data_rd16(p);
	uint8_t *u = p + 2;
	size_t ulen = len - 2;
	uint16_t nr, lsz;
	switch (type) {
	case 0:	/* CPUS: nr, cpu[nr] (u16) */
		if (ulen < 2)
			return;
		swap16_at(u);
		nr = data_rd16(u);
		for (size_t i = 0; i < nr && 2 + 2 * i + 2 <= ulen; i++)
			swap16_at(u + 2 + 2 * i);
		break;
	case 1:	/* MASK: nr, long_size, then u32 masks at +4 or u64 masks at +8 */
		if (ulen < 4)
			return;
		swap16_at(u);
		swap16_at(u + 2);
		nr = data_rd16(u);
		lsz = data_rd16(u + 2);
		if (lsz == 4)
			for (size_t i = 0; i < nr && 4 + 4 * i + 4 <= ulen; i++)
				swap32_at(u + 4 + 4 * i);
		else if (lsz == 8)
			for (size_t i = 0; i < nr && 8 + 8 * i + 8 <= ulen; i++)
				swap64_at(u + 8 + 8 * i);
		break;
	case 2:	/* RANGE: any_cpu u8, pad, start u16, end u16 */
		if (ulen >= 6) {
			swap16_at(u + 2);
			swap16_at(u + 4);
		}
		break;
	}
}

static int swap_user(struct pk_data_reader *r, struct perf_event_header *h, uint64_t pos)
{
	uint8_t *body = (uint8_t *)(h + 1), *end = (uint8_t *)h + h->size;
	size_t len = (size_t)(end - body);
	switch (h->type) {
	case PK_RECORD_HEADER_ATTR: {
		if (len < DR_ATTR_SIZE_VER0)
			return dr_fail(r, -EINVAL, pos, "HEADER_ATTR record of %u bytes", h->size);
		uint32_t asz = data_rd32(body + 4);
		asz = dr_bswap32(asz);
		if (!asz)
			asz = DR_ATTR_SIZE_VER0;
		if (asz > len || asz % 8)
			return dr_fail(r, -EINVAL, pos,
				       "HEADER_ATTR: attr size %u does not fit its %u-byte record",
				       asz, h->size);
		dr_swap_attr(body, asz);
		swap64_n(body + asz, (len - asz) / 8);
		break;
	}
	case PK_RECORD_HEADER_EVENT_TYPE:
	case PK_RECORD_HEADER_FEATURE:
	case PK_RECORD_COMPRESSED2:
		swap_fields(body, end, "8");
		break;
	case PK_RECORD_HEADER_TRACING_DATA:
	case PK_RECORD_HEADER_BUILD_ID:
		swap_fields(body, end, "4");
		break;
	case PK_RECORD_ID_INDEX:
	case PK_RECORD_STAT_CONFIG:
	case PK_RECORD_STAT_ROUND:
		swap64_n(body, len / 8);
		break;
	case PK_RECORD_AUXTRACE_INFO:
		swap_fields(body, end, "44");
		if (len > 8)
			swap64_n(body + 8, (len - 8) / 8);
		break;
	case PK_RECORD_AUXTRACE:
		swap_fields(body, end, "8884444");
		break;
	case PK_RECORD_AUXTRACE_ERROR: {
		swap_fields(body, end, "44444488");
		uint32_t fmt = 0;
		if (len >= 24)
			fmt = data_rd32(body + 20);
		if (fmt >= 2 && len >= 48 + 64 + 8) {
			swap32_at(body + 48 + 64);
			swap32_at(body + 48 + 64 + 4);
		}
		break;
	}
	case PK_RECORD_THREAD_MAP: {
		if (len < 8)
			break;
		swap64_at(body);
		uint64_t nr = data_rd64(body);
		for (uint64_t i = 0; i < nr && 8 + 24 * i + 24 <= len; i++)
			swap64_at(body + 8 + 24 * i);
		break;
	}
	case PK_RECORD_CPU_MAP:
		swap_cpu_map(body, len);
		break;
	case PK_RECORD_STAT:
		swap_fields(body, end, "844888");
		break;
	case PK_RECORD_EVENT_UPDATE: {
		if (len < 16)
			break;
		swap64_at(body);
		swap64_at(body + 8);
		uint64_t type = data_rd64(body);
		if (type == 1 && len >= 24)	/* SCALE: a double */
			swap64_at(body + 16);
		else if (type == 3)	/* CPUS */
			swap_cpu_map(body + 16, len - 16);
		break;
	}
	case PK_RECORD_TIME_CONV:
		swap64_n(body, (len < 40 ? len : 40) / 8);
		break;
	default:
		break;
	}
	return 0;
}

int dr_swap_record(struct pk_data_reader *r, struct perf_event_header *h, uint64_t pos)
{
	h->type = dr_bswap32(h->type);
	h->misc = dr_bswap16(h->misc);
	h->size = dr_bswap16(h->size);
	if (h->type >= PK_RECORD_HEADER_ATTR)
		return swap_user(r, h, pos);
	return swap_kernel(r, h, pos);
}
