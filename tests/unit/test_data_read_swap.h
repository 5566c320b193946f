/* SPDX-License-Identifier: MIT */
/*
 * test_data_read_swap.h — the tests' own byte-swapper: turns a perf.data
 * written on this (little-endian) machine into what a big-endian machine
 * would have written: every u16/u32/u64 field of the header, attrs, ids,
 * records and feature sections in the other order, u32 pairs as two u32s,
 * the attr flags and branch-entry flags as a big-endian compiler lays its
 * bitfields out (from the most significant bit, field by field). Bytes the
 * kernel copies as they are (RAW, AUX, user stack, strings) and the
 * self-describing tracing data stay. Written apart from lib/data/reader/read_swap.c
 * (it walks the file itself, from native values), so that a reading of the
 * copy that equals the reading of the original checks the reader's swapping.
 * Also: recompress_file(), replacing a file's records by COMPRESSED chunks.
 */
#ifndef TEST_DATA_READ_SWAP_H
#define TEST_DATA_READ_SWAP_H

#include "test_data_read_rich.h"

struct sw_attr {
	uint64_t type, rf, bst, ru, ri;
	bool id_all;
	uint64_t ids[256];
	size_t nids;
};

struct sw {
	uint8_t *b;
	size_t len;
	bool pipe;
	struct sw_attr attrs[64];
	size_t nattrs;
	uint32_t nr_cpus;
	bool bad;	/* something the swapper does not understand */
};

static inline uint64_t sw_g64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}
static inline uint32_t sw_g32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static inline uint16_t sw_g16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}
static inline void sw_s64(uint8_t *p)
{
	uint64_t v = __builtin_bswap64(sw_g64(p));
	memcpy(p, &v, 8);
}
static inline void sw_s32(uint8_t *p)
{
	uint32_t v = __builtin_bswap32(sw_g32(p));
	memcpy(p, &v, 4);
}
static inline void sw_s16(uint8_t *p)
{
	uint16_t v = __builtin_bswap16(sw_g16(p));
	memcpy(p, &v, 2);
}

/* A u64 of bitfields (widths in declaration order) laid out by a big-endian compiler. */
static inline uint64_t sw_bitfields_be(uint64_t le, const uint8_t *widths, size_t n)
{
	uint64_t be = 0;
	unsigned at = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned w = widths[i];
		uint64_t mask = w == 64 ? ~0ULL : (1ULL << w) - 1;
		uint64_t v = (le >> at) & mask;
		be |= v << (64 - at - w);
		at += w;
	}
	return be;
}

/* perf_event_attr's flags: 15 one-bit fields, precise_ip:2, 21 one-bit fields, 26 reserved */
static inline void sw_attr_flags(uint8_t *p)
{
	uint8_t w[64];
	size_t n = 0;
	for (int i = 0; i < 15; i++)
		w[n++] = 1;
	w[n++] = 2;
	for (int i = 0; i < 21; i++)
		w[n++] = 1;
	w[n++] = 26;
	uint64_t be = sw_bitfields_be(sw_g64(p), w, n);
	be = __builtin_bswap64(be);	/* stored big-endian */
	memcpy(p, &be, 8);
}

static inline void sw_branch_flags(uint8_t *p)
{
	static const uint8_t w[] = { 1, 1, 1, 1, 16, 4, 2, 4, 3, 31 };
	uint64_t be = __builtin_bswap64(sw_bitfields_be(sw_g64(p), w, sizeof(w)));
	memcpy(p, &be, 8);
}

/* An attr of size bytes, native → big-endian. */
static inline void sw_attr_bytes(uint8_t *a, size_t size)
{
	static const uint8_t layout[][2] = { { 0, 4 },	 { 4, 4 },   { 8, 8 },	 { 16, 8 },
					     { 24, 8 },	 { 32, 8 },  { 40, 1 },	 { 48, 4 },
					     { 52, 4 },	 { 56, 8 },  { 64, 8 },	 { 72, 8 },
					     { 80, 8 },	 { 88, 4 },  { 92, 4 },	 { 96, 8 },
					     { 104, 4 }, { 108, 2 }, { 110, 2 }, { 112, 4 },
					     { 116, 4 }, { 120, 8 } };
	for (size_t i = 0; i < sizeof(layout) / sizeof(layout[0]); i++) {
		size_t off = layout[i][0], w = layout[i][1];
		if (off + (w == 1 ? 8 : w) > size)
			return;
		if (w == 8)
			sw_s64(a + off);
		else if (w == 4)
			sw_s32(a + off);
		else if (w == 2)
			sw_s16(a + off);
		else
			sw_attr_flags(a + off);
	}
	for (size_t off = 128; off + 8 <= size; off += 8)
		sw_s64(a + off);
}

static inline void sw_note_attr(struct sw *s, const uint8_t *a, const uint64_t *ids, size_t nids)
{
	struct sw_attr *x = &s->attrs[s->nattrs++];
	struct perf_event_attr pa;
	memcpy(&pa, a, sizeof(pa));
	x->type = pa.sample_type;
	x->rf = pa.read_format;
	x->bst = pa.branch_sample_type;
	x->ru = pa.sample_regs_user;
	x->ri = pa.sample_regs_intr;
	x->id_all = pa.sample_id_all;
	x->nids = nids < 256 ? nids : 256;
	memcpy(x->ids, ids, x->nids * 8);
}

/* which attr a native record belongs to (perf's rule) */
static inline const struct sw_attr *sw_attr_of(const struct sw *s, const uint8_t *rec)
{
	if (!s->nattrs)
		return NULL;
	if (s->nattrs == 1)
		return &s->attrs[0];
	const struct sw_attr *a0 = &s->attrs[0];
	size_t nids = 0;
	for (size_t i = 0; i < s->nattrs; i++)
		nids += s->attrs[i].nids;
	uint32_t type = sw_g32(rec);
	if ((type != PERF_RECORD_SAMPLE && !a0->id_all) || !nids)
		return a0;
	uint16_t size = sw_g16(rec + 6);
	uint64_t t = a0->type, id;
	if (type == PERF_RECORD_SAMPLE) {
		unsigned pos = 0;
		if (!(t & PERF_SAMPLE_IDENTIFIER)) {
			if (!(t & PERF_SAMPLE_ID))
				return a0;
			pos = (unsigned)__builtin_popcountll(t & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
								 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
		}
		id = sw_g64(rec + 8 + 8 * pos);
	} else {
		unsigned back = 1;
		if (!(t & PERF_SAMPLE_IDENTIFIER)) {
			if (!(t & PERF_SAMPLE_ID))
				return a0;
			back += (unsigned)__builtin_popcountll(t & (PERF_SAMPLE_CPU |
								  PERF_SAMPLE_STREAM_ID));
		}
		id = sw_g64(rec + size - 8 * back);
	}
	if (!id)
		return a0;
	for (size_t i = 0; i < s->nattrs; i++)
		for (size_t k = 0; k < s->attrs[i].nids; k++)
			if (s->attrs[i].ids[k] == id)
				return &s->attrs[i];
	return NULL;
}

static inline void sw_sample(struct sw *s, const struct sw_attr *a, uint8_t *p)
{
	uint64_t t = a->type;
	(void)s;
	p += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_IP)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_TID)
		sw_s32(p), sw_s32(p + 4), p += 8;
	if (t & PERF_SAMPLE_TIME)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_ADDR)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_ID)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_CPU)
		sw_s32(p), sw_s32(p + 4), p += 8;
	if (t & PERF_SAMPLE_PERIOD)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_READ) {
		uint64_t nr = sw_g64(p), words = 1;
		words += !!(a->rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(a->rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		uint64_t per = 1 + !!(a->rf & PERF_FORMAT_ID) + !!(a->rf & PERF_FORMAT_LOST);
		words += (a->rf & PERF_FORMAT_GROUP) ? nr * per : per - 1;
		for (uint64_t i = 0; i < words; i++)
			sw_s64(p), p += 8;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = sw_g64(p);
		for (uint64_t i = 0; i <= nr; i++)
			sw_s64(p), p += 8;
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t n = sw_g32(p);
		sw_s32(p);
		p += 4 + n;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = sw_g64(p);
		sw_s64(p), p += 8;
		if (a->bst & PERF_SAMPLE_BRANCH_HW_INDEX)
			sw_s64(p), p += 8;
		for (uint64_t i = 0; i < nr; i++, p += 24) {
			sw_s64(p);
			sw_s64(p + 8);
			sw_branch_flags(p + 16);
		}
		if (a->bst & (1ULL << 19))
			for (uint64_t i = 0; i < nr; i++)
				sw_s64(p), p += 8;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		uint64_t abi = sw_g64(p);
		sw_s64(p), p += 8;
		if (abi)
			for (int i = 0; i < __builtin_popcountll(a->ru); i++)
				sw_s64(p), p += 8;
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		uint64_t n = sw_g64(p);
		sw_s64(p), p += 8;
		if (n) {
			p += n;
			sw_s64(p), p += 8;
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_DATA_SRC)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_TRANSACTION)
		sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_REGS_INTR) {
		uint64_t abi = sw_g64(p);
		sw_s64(p), p += 8;
		if (abi)
			for (int i = 0; i < __builtin_popcountll(a->ri); i++)
				sw_s64(p), p += 8;
	}
	static const uint64_t tail[] = { PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_CGROUP,
					 PERF_SAMPLE_DATA_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE };
	for (int i = 0; i < 4; i++)
		if (t & tail[i])
			sw_s64(p), p += 8;
	if (t & PERF_SAMPLE_AUX)
		sw_s64(p);
}

/* the sample_id_all trailer; returns its start */
static inline uint8_t *sw_trailer(const struct sw_attr *a, uint8_t *rec)
{
	uint16_t size = sw_g16(rec + 6);
	if (!a || !a->id_all)
		return rec + size;
	uint64_t t = a->type;
	unsigned n = (unsigned)__builtin_popcountll(t & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
							 PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
							 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER));
	uint8_t *p = rec + size - 8 * n, *q = p;
	if (t & PERF_SAMPLE_TID)
		sw_s32(q), sw_s32(q + 4), q += 8;
	if (t & PERF_SAMPLE_TIME)
		sw_s64(q), q += 8;
	if (t & PERF_SAMPLE_ID)
		sw_s64(q), q += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		sw_s64(q), q += 8;
	if (t & PERF_SAMPLE_CPU)
		sw_s32(q), sw_s32(q + 4), q += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		sw_s64(q);
	return p;
}

/* fields by width ('8', '4', '2', or '-N' to skip N bytes... kept simple: digits only) */
static inline void sw_fields(uint8_t *p, const char *w)
{
	for (; *w; w++) {
		if (*w == '8')
			sw_s64(p);
		else if (*w == '4')
			sw_s32(p);
		else if (*w == '2')
			sw_s16(p);
		p += *w - '0';
	}
}

static inline void sw_cpu_map(uint8_t *p)
{
	uint16_t type = sw_g16(p);
	sw_s16(p);
	uint8_t *u = p + 2;
	if (type == 0) {
		uint16_t nr = sw_g16(u);
		for (unsigned i = 0; i <= nr; i++)
			sw_s16(u + 2 * i);
	} else if (type == 1) {
		uint16_t nr = sw_g16(u), ls = sw_g16(u + 2);
		sw_s16(u);
		sw_s16(u + 2);
		for (unsigned i = 0; i < nr; i++) {
			if (ls == 4)
				sw_s32(u + 4 + 4 * i);
			else
				sw_s64(u + 8 + 8 * i);
		}
	} else if (type == 2) {
		sw_s16(u + 2);
		sw_s16(u + 4);
	}
}

/* Returns the bytes of payload that follow the record (AUXTRACE, TRACING_DATA). */
static inline uint64_t sw_record(struct sw *s, uint8_t *rec)
{
	uint32_t type = sw_g32(rec);
	uint16_t size = sw_g16(rec + 6);
	uint8_t *b = rec + 8;
	uint64_t payload = 0;
	if (type < 64) {
		const struct sw_attr *a = sw_attr_of(s, rec);
		if (!a) {
			s->bad = true;
			return 0;
		}
		if (type == PERF_RECORD_SAMPLE)
			sw_sample(s, a, rec);
		else {
			uint8_t *end = sw_trailer(a, rec);
			switch (type) {
			case PERF_RECORD_MMAP:
				sw_fields(b, "44888");
				break;
			case PERF_RECORD_MMAP2:
				sw_fields(b, "44888");
				if (!(sw_g16(rec + 4) & PERF_RECORD_MISC_MMAP_BUILD_ID))
					sw_fields(b + 32, "4488");
				sw_fields(b + 56, "44");
				break;
			case PERF_RECORD_COMM:
			case PERF_RECORD_ITRACE_START:
			case PERF_RECORD_SWITCH_CPU_WIDE:
				sw_fields(b, "44");
				break;
			case PERF_RECORD_FORK:
			case PERF_RECORD_EXIT:
				sw_fields(b, "44448");
				break;
			case PERF_RECORD_LOST:
				sw_fields(b, "88");
				break;
			case PERF_RECORD_THROTTLE:
			case PERF_RECORD_UNTHROTTLE:
			case PERF_RECORD_AUX:
				sw_fields(b, "888");
				break;
			case PERF_RECORD_LOST_SAMPLES:
			case PERF_RECORD_CGROUP:
			case PERF_RECORD_AUX_OUTPUT_HW_ID:
				sw_fields(b, "8");
				break;
			case PERF_RECORD_READ:
				sw_fields(b, "44");
				for (uint8_t *q = b + 8; q + 8 <= end; q += 8)
					sw_s64(q);
				break;
			case PERF_RECORD_NAMESPACES: {
				uint64_t nr = sw_g64(b + 8);
				sw_fields(b, "448");
				for (uint64_t i = 0; i < 2 * nr; i++)
					sw_s64(b + 16 + 8 * i);
				break;
			}
			case PERF_RECORD_KSYMBOL:
				sw_fields(b, "8422");
				break;
			case PERF_RECORD_BPF_EVENT:
				sw_fields(b, "224");
				break;
			case PERF_RECORD_TEXT_POKE:
				sw_fields(b, "822");
				break;
			}
		}
	} else {
		switch (type) {
		case PK_RECORD_HEADER_ATTR: {
			uint32_t asz = sw_g32(b + 4);
			size_t nid = (size - 8 - asz) / 8;
			sw_note_attr(s, b, (const uint64_t *)(b + asz), nid);
			sw_attr_bytes(b, asz);
			for (size_t i = 0; i < nid; i++)
				sw_s64(b + asz + 8 * i);
			break;
		}
		case PK_RECORD_HEADER_FEATURE:
			/* the feature's own layout: by sw_feature, set up by the caller */
			break;
		case PK_RECORD_HEADER_TRACING_DATA:
			payload = sw_g32(b);
			sw_s32(b);
			break;
		case PK_RECORD_HEADER_BUILD_ID:
			sw_s32(b);
			break;
		case PK_RECORD_ID_INDEX:
		case PK_RECORD_STAT_ROUND:
		case PK_RECORD_STAT_CONFIG:
			for (uint8_t *q = b; q + 8 <= rec + size; q += 8)
				sw_s64(q);
			break;
		case PK_RECORD_TIME_CONV:
			for (uint8_t *q = b; q + 8 <= rec + size && q < b + 40; q += 8)
				sw_s64(q);
			break;
		case PK_RECORD_THREAD_MAP: {
			uint64_t nr = sw_g64(b);
			sw_s64(b);
			for (uint64_t i = 0; i < nr; i++)
				sw_s64(b + 8 + 24 * i);
			break;
		}
		case PK_RECORD_CPU_MAP:
			sw_cpu_map(b);
			break;
		case PK_RECORD_EVENT_UPDATE: {
			uint64_t t = sw_g64(b);
			sw_s64(b);
			sw_s64(b + 8);
			if (t == 1)
				sw_s64(b + 16);
			else if (t == 3)
				sw_cpu_map(b + 16);
			break;
		}
		case PK_RECORD_AUXTRACE_INFO:
			sw_fields(b, "44");
			for (uint8_t *q = b + 8; q + 8 <= rec + size; q += 8)
				sw_s64(q);
			break;
		case PK_RECORD_AUXTRACE:
			payload = sw_g64(b);
			sw_fields(b, "8884444");
			break;
		case PK_RECORD_STAT:
			sw_fields(b, "844888");
			break;
		case PK_RECORD_COMPRESSED:
		case PK_RECORD_COMPRESSED2:
			s->bad = true;	/* recompress after swapping instead */
			break;
		}
	}
	sw_s32(rec);
	sw_s16(rec + 4);
	sw_s16(rec + 6);
	return payload;
}

/* feature strings etc.: a cursor over native bytes, swapping as it goes */
struct swc {
	uint8_t *p, *end;
};
static inline uint32_t swc_u32(struct swc *c)
{
	if (c->end - c->p < 4) {
		c->p = c->end;
		return 0;
	}
	uint32_t v = sw_g32(c->p);
	sw_s32(c->p);
	c->p += 4;
	return v;
}
static inline uint64_t swc_u64(struct swc *c)
{
	if (c->end - c->p < 8) {
		c->p = c->end;
		return 0;
	}
	uint64_t v = sw_g64(c->p);
	sw_s64(c->p);
	c->p += 8;
	return v;
}
static inline void swc_str(struct swc *c)
{
	uint32_t n = swc_u32(c);
	c->p += n <= (size_t)(c->end - c->p) ? n : (size_t)(c->end - c->p);
}
static inline void swc_strs(struct swc *c, uint32_t n)
{
	for (uint32_t i = 0; i < n && c->p < c->end; i++)
		swc_str(c);
}

static inline void sw_feature(struct sw *s, unsigned feat, uint8_t *p, size_t size)
{
	struct swc c = { p, p + size };
	switch (feat) {
	case PK_FEAT_HOSTNAME:
	case PK_FEAT_OSRELEASE:
	case PK_FEAT_VERSION:
	case PK_FEAT_ARCH:
	case PK_FEAT_CPUDESC:
	case PK_FEAT_CPUID:
		swc_str(&c);
		break;
	case PK_FEAT_NRCPUS:
		s->nr_cpus = swc_u32(&c);
		swc_u32(&c);
		break;
	case PK_FEAT_TOTAL_MEM:
	case PK_FEAT_CLOCKID:
		swc_u64(&c);
		break;
	case PK_FEAT_CMDLINE:
		swc_strs(&c, swc_u32(&c));
		break;
	case PK_FEAT_EVENT_DESC: {
		uint32_t n = swc_u32(&c), sz = swc_u32(&c);
		for (uint32_t i = 0; i < n && c.p + sz <= c.end; i++) {
			sw_attr_bytes(c.p, sz);
			c.p += sz;
			uint32_t nid = swc_u32(&c);
			swc_str(&c);
			for (uint32_t k = 0; k < nid; k++)
				swc_u64(&c);
		}
		break;
	}
	case PK_FEAT_CPU_TOPOLOGY:
		swc_strs(&c, swc_u32(&c));
		swc_strs(&c, swc_u32(&c));
		if (c.p < c.end)
			for (uint32_t i = 0; i < 2 * s->nr_cpus; i++)
				swc_u32(&c);
		if (c.p < c.end) {
			swc_strs(&c, swc_u32(&c));
			for (uint32_t i = 0; i < s->nr_cpus; i++)
				swc_u32(&c);
		}
		break;
	case PK_FEAT_NUMA_TOPOLOGY: {
		uint32_t n = swc_u32(&c);
		for (uint32_t i = 0; i < n; i++) {
			swc_u32(&c);
			swc_u64(&c);
			swc_u64(&c);
			swc_str(&c);
		}
		break;
	}
	case PK_FEAT_PMU_MAPPINGS: {
		uint32_t n = swc_u32(&c);
		for (uint32_t i = 0; i < n; i++) {
			swc_u32(&c);
			swc_str(&c);
		}
		break;
	}
	case PK_FEAT_GROUP_DESC: {
		uint32_t n = swc_u32(&c);
		for (uint32_t i = 0; i < n; i++) {
			swc_str(&c);
			swc_u32(&c);
			swc_u32(&c);
		}
		break;
	}
	case PK_FEAT_CACHE: {
		swc_u32(&c);
		uint32_t n = swc_u32(&c);
		for (uint32_t i = 0; i < n; i++) {
			for (int k = 0; k < 4; k++)
				swc_u32(&c);
			swc_strs(&c, 3);
		}
		break;
	}
	case PK_FEAT_SAMPLE_TIME:
		swc_u64(&c);
		swc_u64(&c);
		break;
	case PK_FEAT_MEM_TOPOLOGY: {
		swc_u64(&c);
		swc_u64(&c);
		uint64_t n = swc_u64(&c);
		for (uint64_t i = 0; i < n && c.p < c.end; i++) {
			swc_u64(&c);
			swc_u64(&c);
			uint64_t bits = swc_u64(&c);
			for (uint64_t k = 0; k < (bits + 63) / 64; k++)
				swc_u64(&c);
		}
		break;
	}
	case PK_FEAT_CLOCK_DATA:
		swc_u32(&c);
		swc_u32(&c);
		swc_u64(&c);
		swc_u64(&c);
		break;
	case PK_FEAT_COMPRESSED:
		for (int i = 0; i < 5; i++)
			swc_u32(&c);
		break;
	case PK_FEAT_BUILD_ID:
		while (c.end - c.p >= 12) {
			uint16_t sz = sw_g16(c.p + 6);
			sw_s32(c.p);
			sw_s16(c.p + 4);
			sw_s16(c.p + 6);
			sw_s32(c.p + 8);
			if (!sz)
				break;
			c.p += sz;
		}
		break;
	default:
		break;	/* TRACING_DATA describes its own byte order; others not decoded */
	}
}

/* Walk records at b[0..len) (native), swapping them; 0, or -1 when lost. */
static inline int sw_records(struct sw *s, uint8_t *b, size_t len)
{
	size_t at = 0;
	while (at + 8 <= len) {
		uint32_t type = sw_g32(b + at);
		uint16_t size = sw_g16(b + at + 6);
		if (size < 8 || size > len - at)
			return -1;
		if (type == PK_RECORD_HEADER_FEATURE) {
			uint64_t feat = sw_g64(b + at + 8);
			sw_feature(s, (unsigned)feat, b + at + 16, size - 16u);
			sw_s64(b + at + 8);
		}
		uint64_t payload = sw_record(s, b + at);
		if (s->bad)
			return -1;
		at += size + payload;
	}
	return at == len ? 0 : -1;
}

/* A big-endian copy of a native perf.data (file or pipe mode); NULL when it can not. */
static inline uint8_t *swap_file(const uint8_t *in, size_t len)
{
	struct sw *s = calloc(1, sizeof(*s));
	uint8_t *b = malloc(len);
	memcpy(b, in, len);
	s->b = b;
	s->len = len;
	int rc = 0;
	if (sw_g64(b + 8) == 16) {	/* pipe */
		sw_s64(b);
		sw_s64(b + 8);
		rc = sw_records(s, b + 16, len - 16);
	} else {
		struct pk_perf_file_header h;
		memcpy(&h, b, sizeof(h));
		for (size_t i = 0; i < sizeof(h) / 8; i++)
			sw_s64(b + 8 * i);
		size_t esz = h.attr_size, asz = esz - 16;
		for (uint64_t off = h.attrs.offset; off < h.attrs.offset + h.attrs.size; off += esz) {
			uint8_t *a = b + off;
			struct pk_perf_file_section ids;
			memcpy(&ids, a + asz, 16);
			sw_note_attr(s, a, (const uint64_t *)(b + ids.offset), ids.size / 8);
			for (uint64_t k = 0; k < ids.size / 8; k++)
				sw_s64(b + ids.offset + 8 * k);
			sw_attr_bytes(a, asz);
			sw_s64(a + asz);
			sw_s64(a + asz + 8);
		}
		rc = sw_records(s, b + h.data.offset, h.data.size);
		uint64_t tab = h.data.offset + h.data.size;
		size_t n = 0;
		for (unsigned f = 0; f < 256; f++) {
			if (!(h.features[f / 64] >> (f % 64) & 1))
				continue;
			struct pk_perf_file_section sec;
			memcpy(&sec, b + tab + 16 * n, 16);
			sw_feature(s, f, b + sec.offset, sec.size);
			sw_s64(b + tab + 16 * n);
			sw_s64(b + tab + 16 * n + 8);
			n++;
		}
	}
	free(s);
	if (rc) {
		free(b);
		return NULL;
	}
	return b;
}

/*
 * The same file with its records (file: the data section; pipe: what follows
 * the attrs and features) as one zstd stream in chunks (cuts as in
 * syn_compressed). big: the file is big-endian (from swap_file).
 */
static inline void recompress_file(const uint8_t *in, size_t len, bool big, const size_t *cuts,
				   size_t nr_cuts, uint32_t type, struct pk_buf *out)
{
#define RD64(p) (big ? __builtin_bswap64(sw_g64(p)) : sw_g64(p))
#define RD16(p) (big ? __builtin_bswap16(sw_g16(p)) : sw_g16(p))
	struct syn tmp = { 0 };
	memset(out, 0, sizeof(*out));
	bool pipe = RD64(in + 8) == 16;
	size_t start, end;
	if (pipe) {
		start = 16;
		while (start + 8 <= len) {
			uint32_t t = big ? __builtin_bswap32(sw_g32(in + start)) : sw_g32(in + start);
			if (t != PK_RECORD_HEADER_ATTR && t != PK_RECORD_HEADER_FEATURE)
				break;
			start += RD16(in + start + 6);
		}
		end = len;
	} else {
		start = RD64(in + 40);
		end = start + RD64(in + 48);
	}
	syn_compressed(&tmp, in + start, end - start, cuts, nr_cuts, type);
	if (big) {	/* the chunks' headers (and COMPRESSED2 sizes) in big-endian too */
		for (size_t at = 0; at < tmp.data.len;) {
			uint8_t *r = tmp.data.data + at;
			uint16_t sz = sw_g16(r + 6);
			if (type == PK_RECORD_COMPRESSED2)
				sw_s64(r + 8);
			sw_s32(r);
			sw_s16(r + 4);
			sw_s16(r + 6);
			at += sz;
		}
	}
	pk_buf__append(out, in, start);
	pk_buf__append(out, tmp.data.data, tmp.data.len);
	if (!pipe) {
		/* move the features after the new data and fix the offsets */
		int64_t delta = (int64_t)tmp.data.len - (int64_t)(end - start);
		size_t tab_at = out->len;
		pk_buf__append(out, in + end, len - end);
		uint64_t v = tmp.data.len;
		v = big ? __builtin_bswap64(v) : v;
		memcpy(out->data + 48, &v, 8);
		size_t nfeat = 0;
		for (int w = 0; w < 4; w++)
			nfeat += (size_t)__builtin_popcountll(RD64(in + 72 + 8 * w));
		for (size_t k = 0; k < nfeat; k++) {
			uint64_t o = RD64(out->data + tab_at + 16 * k) + (uint64_t)delta;
			o = big ? __builtin_bswap64(o) : o;
			memcpy(out->data + tab_at + 16 * k, &o, 8);
		}
	}
	syn_free(&tmp);
#undef RD64
#undef RD16
}

#endif
