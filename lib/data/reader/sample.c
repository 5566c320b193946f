/* SPDX-License-Identifier: MIT */
/*
 * data/reader/sample.c — decoding kernel records: PERF_RECORD_SAMPLE with every
 * sample_type bit perf 6.12 writes, the sample_id_all trailer of the other
 * kernel records, their timestamps for ordering, and the side-band records'
 * own fields. Every length is checked against the record before it is used;
 * arrays and strings are handed out as pointers into the record.
 */
#include "data/reader/reader_int.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#define FAIL(...) dr_fail((struct pk_data_reader *)r, -EINVAL, pos, __VA_ARGS__)

static inline uint32_t lo32(uint64_t v)
{
	uint32_t w[2];
	memcpy(w, &v, 8);
	return w[0];
}
static inline uint32_t hi32(uint64_t v)
{
	uint32_t w[2];
	memcpy(w, &v, 8);
	return w[1];
}

void dr_sample_defaults(const struct dr_attr *a, const struct perf_event_header *h,
			struct pk_sample *s)
{
	(void)h;
	memset(s, 0, sizeof(*s));
	s->sample_type = a ? a->sample_type : 0;
	s->id = s->time = s->stream_id = ~(uint64_t)0;
	s->pid = s->tid = s->cpu = -1;
	s->period = a ? a->pub.attr.sample_period : 0;
	s->read.read_format = a ? a->read_format : 0;
}

/* The read_format layout at p (u64s up to end): words used, or -1 when it runs past end. */
int dr_decode_read_values(const struct dr_attr *a, const uint64_t *p, const uint64_t *end,
			  struct pk_sample_read *rd)
{
	const uint64_t *start = p;
	uint64_t rf = a->read_format;
	size_t left = (size_t)(end - p);
	rd->read_format = rf;
	if (left < 1)
		return -1;
	uint64_t first = *p++;
	left--;
	size_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (left < times)
		return -1;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		rd->time_enabled = *p++;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		rd->time_running = *p++;
	left -= times;
	unsigned extra = !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	if (rf & PERF_FORMAT_GROUP) {
		rd->nr = first;
		rd->stride = 1 + extra;
		if (first > left / rd->stride)
			return -1;
		rd->group = p;
		p += first * rd->stride;
	} else {
		rd->nr = 1;
		rd->stride = 1 + extra;
		rd->one.value = first;
		if (left < extra)
			return -1;
		if (rf & PERF_FORMAT_ID)
			rd->one.id = *p++;
		if (rf & PERF_FORMAT_LOST)
			rd->one.lost = *p++;
	}
	return (int)(p - start);
}

#define NEED(words)                                                                           \
	do {                                                                                  \
		if ((size_t)(end - p) < (size_t)(words))                                      \
			goto overrun;                                                         \
	} while (0)

#define RARE_BITS                                                                              \
	(PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |                 \
	 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT |             \
	 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |              \
	 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |             \
	 PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)
#define TAIL_BYTES (offsetof(struct pk_sample, aux) + sizeof(((struct pk_sample *)0)->aux) - \
		    offsetof(struct pk_sample, raw))

/* RAW: a u32 size, then the data, padded with the size to 8 bytes. */
static int parse_raw(const struct pk_data_reader *r, const struct perf_event_header *h,
		     struct pk_sample *s, const uint64_t **pp, const uint64_t *end, uint64_t pos)
{
	uint32_t sz = data_rd32(*pp);
	const uint8_t *b = (const uint8_t *)*pp + 4;
	if (sz > (uint64_t)((const uint8_t *)end - b))
		return FAIL("sample of %u bytes: raw data of %u bytes runs past its end", h->size,
			    sz);
	if ((4 + (uint64_t)sz) % 8)
		return FAIL("sample of %u bytes: raw data of %u bytes is not padded to 8 bytes",
			    h->size, sz);
	s->raw.size = sz;
	s->raw.data = b;
	*pp = (const uint64_t *)(b + sz);
	return 0;
}

/* BRANCH_STACK: nr, hw_idx (when the attr says), nr entries, then their counters (likewise). */
static int parse_branch_stack(const struct pk_data_reader *r, const struct dr_attr *a,
			      const struct perf_event_header *h, struct pk_sample *s,
			      const uint64_t **pp, const uint64_t *end, uint64_t pos)
{
	const uint64_t *p = *pp;
	NEED(1);
	uint64_t nr = *p++;
	if (a->hw_idx) {
		NEED(1);
		s->branch.has_hw_idx = true;
		s->branch.hw_idx = *p++;
	}
	if (nr > (uint64_t)(end - p) / 3)
		return FAIL("sample of %u bytes: %llu branch entries run past its end", h->size,
			    (unsigned long long)nr);
	s->branch.nr = nr;
	s->branch.entries = (const struct perf_branch_entry *)p;
	p += 3 * nr;
	if (a->br_counters) {
		NEED(nr);
		s->branch.counters = p;
		p += nr;
	}
	*pp = p;
	return 0;
overrun:
	return FAIL("sample of %u bytes: its fields run past its end", h->size);
}

/* REGS_USER or REGS_INTR: the abi, then (abi not 0) one u64 per bit of mask: false when they
 * run past end. */
static bool parse_regs(struct pk_sample_regs *regs, uint64_t mask, unsigned nr,
		       const uint64_t **pp, const uint64_t *end)
{
	const uint64_t *p = *pp;
	NEED(1);
	regs->abi = *p++;
	regs->mask = mask;
	if (regs->abi) {
		NEED(nr);
		regs->regs = p;
		regs->nr = nr;
		p += nr;
	}
	*pp = p;
	return true;
overrun:
	return false;
}

/* STACK_USER: the size, and when it is not 0, that many bytes then the dynamic size. */
static int parse_user_stack(const struct pk_data_reader *r, const struct perf_event_header *h,
			    struct pk_sample *s, const uint64_t **pp, const uint64_t *end,
			    uint64_t pos)
{
	const uint64_t *p = *pp;
	NEED(1);
	uint64_t sz = *p++;
	if (sz) {
		if (sz % 8 || sz / 8 > (uint64_t)(end - p))
			return FAIL("sample of %u bytes: user stack of %llu bytes does not fit",
				    h->size, (unsigned long long)sz);
		s->user_stack.size = sz;
		s->user_stack.data = (const uint8_t *)p;
		p += sz / 8;
		NEED(1);
		s->user_stack.dyn_size = *p++;
		if (s->user_stack.dyn_size > sz)
			return FAIL("sample: user stack dyn_size %llu > size %llu",
				    (unsigned long long)s->user_stack.dyn_size,
				    (unsigned long long)sz);
	}
	*pp = p;
	return 0;
overrun:
	return FAIL("sample of %u bytes: its fields run past its end", h->size);
}

/* The fields after the callchain, when any of them is recorded. */
static int parse_rare(const struct pk_data_reader *r, const struct dr_attr *a,
		      const struct perf_event_header *h, struct pk_sample *s, const uint64_t *p,
		      const uint64_t *end, uint64_t pos)
{
	uint64_t t = a->sample_type;
	int rc;
	memset(&s->raw, 0, TAIL_BYTES);
	if (t & PERF_SAMPLE_RAW) {
		NEED(1);
		if ((rc = parse_raw(r, h, s, &p, end, pos)))
			return rc;
	}
	if ((t & PERF_SAMPLE_BRANCH_STACK) &&
	    (rc = parse_branch_stack(r, a, h, s, &p, end, pos)))
		return rc;
	if ((t & PERF_SAMPLE_REGS_USER) &&
	    !parse_regs(&s->user_regs, a->pub.attr.sample_regs_user, a->nr_regs_user, &p, end))
		goto overrun;
	if ((t & PERF_SAMPLE_STACK_USER) && (rc = parse_user_stack(r, h, s, &p, end, pos)))
		return rc;
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		NEED(1);
		uint64_t w = *p++;
		if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = w & 0xffffffffu;
			s->weight_var2 = (uint16_t)(w >> 32);
			s->weight_var3 = (uint16_t)(w >> 48);
		} else {
			s->weight = w;
		}
	}
	if (t & PERF_SAMPLE_DATA_SRC) {
		NEED(1);
		s->data_src = *p++;
	}
	if (t & PERF_SAMPLE_TRANSACTION) {
		NEED(1);
		s->transaction = *p++;
	}
	if ((t & PERF_SAMPLE_REGS_INTR) &&
	    !parse_regs(&s->intr_regs, a->pub.attr.sample_regs_intr, a->nr_regs_intr, &p, end))
		goto overrun;
	if (t & PERF_SAMPLE_PHYS_ADDR) {
		NEED(1);
		s->phys_addr = *p++;
	}
	if (t & PERF_SAMPLE_CGROUP) {
		NEED(1);
		s->cgroup = *p++;
	}
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE) {
		NEED(1);
		s->data_page_size = *p++;
	}
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE) {
		NEED(1);
		s->code_page_size = *p++;
	}
	if (t & PERF_SAMPLE_AUX) {
		NEED(1);
		uint64_t sz = *p++;
		if (sz % 8 || sz / 8 > (uint64_t)(end - p))
			return FAIL("sample of %u bytes: aux data of %llu bytes does not fit",
				    h->size, (unsigned long long)sz);
		s->aux.size = sz;
		s->aux.data = p;	/* the last field: p is not advanced past it */
	}
	return 0;
overrun:
	return FAIL("sample of %u bytes: its fields run past its end", h->size);
}

int dr_parse_sample(const struct pk_data_reader *r, const struct dr_attr *a,
		    const struct perf_event_header *h, struct pk_sample *s, uint64_t pos,
		    bool *zeroed)
{
	bool was_zeroed = *zeroed;
	*zeroed = false;	/* until the end of the common path */
	const uint64_t *p = (const uint64_t *)(h + 1);
	const uint64_t *end = p + (h->size - sizeof(*h)) / 8;
	uint64_t t = a->sample_type;
	/* every field is written once, parsed or perf's default: no memset per sample */
	s->sample_type = t;
	if ((size_t)(h->size - sizeof(*h)) < a->fixed_size)
		return FAIL("sample of %u bytes is shorter than its fixed fields (%u bytes)",
			    h->size, a->fixed_size + 8);
	s->id = (t & PERF_SAMPLE_IDENTIFIER) ? *p++ : ~(uint64_t)0;
	s->ip = (t & PERF_SAMPLE_IP) ? *p++ : 0;
	if (t & PERF_SAMPLE_TID) {
		s->pid = (int32_t)lo32(*p);
		s->tid = (int32_t)hi32(*p);
		p++;
	} else {
		s->pid = s->tid = -1;
	}
	s->time = (t & PERF_SAMPLE_TIME) ? *p++ : ~(uint64_t)0;
	s->addr = (t & PERF_SAMPLE_ADDR) ? *p++ : 0;
	if (t & PERF_SAMPLE_ID)
		s->id = *p++;
	s->stream_id = (t & PERF_SAMPLE_STREAM_ID) ? *p++ : ~(uint64_t)0;
	if (t & PERF_SAMPLE_CPU) {
		s->cpu = (int32_t)lo32(*p);
		s->cpu_res = hi32(*p);
		p++;
	} else {
		s->cpu = -1;
		s->cpu_res = 0;
	}
	s->period = (t & PERF_SAMPLE_PERIOD) ? *p++ : a->pub.attr.sample_period;
	if (t & PERF_SAMPLE_READ) {
		memset(&s->read, 0, sizeof(s->read));
		int n = dr_decode_read_values(a, p, end, &s->read);
		if (n < 0)
			return FAIL("sample of %u bytes: its read values run past its end",
				    h->size);
		p += n;
	} else {
		if (!was_zeroed)
			memset(&s->read, 0, sizeof(s->read));
		s->read.read_format = a->read_format;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (p == end)
			goto overrun;
		uint64_t nr = *p++;
		if (nr > (uint64_t)(end - p))
			return FAIL("sample of %u bytes: callchain of %llu entries runs past its "
				    "end",
				    h->size, (unsigned long long)nr);
		s->callchain.nr = nr;
		s->callchain.ips = p;
		p += nr;
	} else {
		s->callchain.nr = 0;
		s->callchain.ips = NULL;
	}
	if (t & RARE_BITS)
		return parse_rare(r, a, h, s, p, end, pos);
	/* the tail of a sample without those fields is zero: cleared unless it is */
	if (!was_zeroed || (t & PERF_SAMPLE_READ))
		memset(&s->raw, 0, TAIL_BYTES);
	*zeroed = !(t & PERF_SAMPLE_READ);
	return 0;
overrun:
	return FAIL("sample of %u bytes: its fields run past its end", h->size);
}

int dr_parse_id_trailer(const struct dr_attr *a, const struct perf_event_header *h,
			struct pk_sample *s)
{
	dr_sample_defaults(a, h, s);
	if (!a || !a->pub.attr.sample_id_all)
		return 0;
	if (h->size < sizeof(*h) + a->pub.id_hdr_size)
		return -1;
	const uint64_t *p = (const uint64_t *)((const uint8_t *)h + h->size - a->pub.id_hdr_size);
	uint64_t t = a->sample_type;
	if (t & PERF_SAMPLE_TID) {
		s->pid = (int32_t)lo32(*p);
		s->tid = (int32_t)hi32(*p);
		p++;
	}
	if (t & PERF_SAMPLE_TIME)
		s->time = *p++;
	if (t & PERF_SAMPLE_ID)
		s->id = *p++;
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = *p++;
	if (t & PERF_SAMPLE_CPU) {
		s->cpu = (int32_t)lo32(*p);
		s->cpu_res = hi32(*p);
		p++;
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		s->id = *p;
	return 1;
}

int dr_record_time(const struct pk_data_reader *r, const struct perf_event_header *h, int attr,
		   uint64_t *ts, uint64_t pos)
{
	*ts = 0;
	if (attr < 0)
		return 0;
	const struct dr_attr *a = r->attrs[attr];
	uint64_t t = a->sample_type;
	if (!(t & PERF_SAMPLE_TIME))
		return 0;
	const uint64_t *w = (const uint64_t *)(h + 1);
	if (h->type == PERF_RECORD_SAMPLE) {
		if ((size_t)(h->size - sizeof(*h)) < a->fixed_size)
			return FAIL("sample of %u bytes is shorter than its fixed fields (%u "
				    "bytes)",
				    h->size, a->fixed_size + 8);
		*ts = w[a->time_pos];
		return 0;
	}
	if (!a->pub.attr.sample_id_all)
		return 0;
	if (h->size < sizeof(*h) + a->pub.id_hdr_size)
		return FAIL("record type %u of %u bytes is too short for its sample_id_all "
			    "trailer (%u bytes)",
			    h->type, h->size, a->pub.id_hdr_size);
	w = (const uint64_t *)((const uint8_t *)h + h->size - a->pub.id_hdr_size);
	*ts = w[(t & PERF_SAMPLE_TID) ? 1 : 0];
	return 0;
}

/* The body of a side-band record (after its header, before its sample_id_all trailer) holds n
 * bytes at least: b, end, len and h in scope. */
#define BODY(n, name)                                                                         \
	do {                                                                                  \
		if (len < (size_t)(n))                                                        \
			return FAIL("%s record of %u bytes is too short", name, h->size);     \
	} while (0)

/* MMAP and MMAP2: the range, its file name, and MMAP2's device and inode or build-id. */
static int decode_mmap(const struct pk_data_reader *r, struct pk_data_event *ev,
		       const uint8_t *b, const uint8_t *end, uint64_t pos)
{
	const struct perf_event_header *h = ev->raw;
	size_t len = (size_t)(end - b);
	bool m2 = h->type == PERF_RECORD_MMAP2;
	BODY(m2 ? 65 : 33, m2 ? "MMAP2" : "MMAP");
	__typeof__(ev->u.mmap) *m = &ev->u.mmap;
	m->pid = (int32_t)data_rd32(b);
	m->tid = (int32_t)data_rd32(b + 4);
	m->start = data_rd64(b + 8);
	m->len = data_rd64(b + 16);
	m->pgoff = data_rd64(b + 24);
	m->mmap2 = m2;
	m->data = h->misc & PERF_RECORD_MISC_MMAP_DATA;
	const uint8_t *fn = b + 32;
	if (m2) {
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m->has_build_id = true;
			m->build_id_size = b[32];
			if (m->build_id_size > 20)
				return FAIL("MMAP2: build-id size %u", m->build_id_size);
			m->build_id = b + 36;
		}
		/* with a build id, its bytes (as perf 6.1 takes them for the dso's id) */
		m->maj = data_rd32(b + 32);
		m->min = data_rd32(b + 36);
		m->ino = data_rd64(b + 40);
		m->ino_generation = data_rd64(b + 48);
		m->prot = data_rd32(b + 56);
		m->flags = data_rd32(b + 60);
		fn = b + 64;
	}
	if (!(m->filename = data_str_at(fn, end)))
		return FAIL("%s: file name not terminated", m2 ? "MMAP2" : "MMAP");
	return 0;
}

/* The records of kernel text and BPF changes, cgroups, namespaces, READ and AUX tracing. */
static int decode_other(const struct pk_data_reader *r, struct pk_data_event *ev,
			const struct dr_attr *a, const uint8_t *b, const uint8_t *end,
			uint64_t pos)
{
	const struct perf_event_header *h = ev->raw;
	size_t len = (size_t)(end - b);
	switch (h->type) {
	case PERF_RECORD_KSYMBOL:
		BODY(17, "KSYMBOL");
		ev->u.ksymbol.addr = data_rd64(b);
		ev->u.ksymbol.len = data_rd32(b + 8);
		ev->u.ksymbol.ksym_type = data_rd16(b + 12);
		ev->u.ksymbol.flags = data_rd16(b + 14);
		if (!(ev->u.ksymbol.name = data_str_at(b + 16, end)))
			return FAIL("KSYMBOL: name not terminated");
		return 0;
	case PERF_RECORD_BPF_EVENT:
		BODY(16, "BPF_EVENT");
		ev->u.bpf.type = data_rd16(b);
		ev->u.bpf.flags = data_rd16(b + 2);
		ev->u.bpf.id = data_rd32(b + 4);
		ev->u.bpf.tag = b + 8;
		return 0;
	case PERF_RECORD_TEXT_POKE:
		BODY(12, "TEXT_POKE");
		ev->u.text_poke.addr = data_rd64(b);
		ev->u.text_poke.old_len = data_rd16(b + 8);
		ev->u.text_poke.new_len = data_rd16(b + 10);
		if ((size_t)ev->u.text_poke.old_len + ev->u.text_poke.new_len > len - 12)
			return FAIL("TEXT_POKE: %u + %u bytes do not fit its record",
				    ev->u.text_poke.old_len, ev->u.text_poke.new_len);
		ev->u.text_poke.bytes = b + 12;
		return 0;
	case PERF_RECORD_CGROUP:
		BODY(9, "CGROUP");
		ev->u.cgroup.id = data_rd64(b);
		if (!(ev->u.cgroup.path = data_str_at(b + 8, end)))
			return FAIL("CGROUP: path not terminated");
		return 0;
	case PERF_RECORD_NAMESPACES: {
		BODY(16, "NAMESPACES");
		ev->u.namespaces.pid = (int32_t)data_rd32(b);
		ev->u.namespaces.tid = (int32_t)data_rd32(b + 4);
		uint64_t nr = data_rd64(b + 8);
		if (nr > (len - 16) / 16)
			return FAIL("NAMESPACES: %llu entries do not fit its record",
				    (unsigned long long)nr);
		ev->u.namespaces.nr = nr;
		ev->u.namespaces.link = (const uint64_t *)(b + 16);
		return 0;
	}
	case PERF_RECORD_READ:
		BODY(16, "READ");
		ev->u.read.pid = (int32_t)data_rd32(b);
		ev->u.read.tid = (int32_t)data_rd32(b + 4);
		if (a && dr_decode_read_values(a, (const uint64_t *)(b + 8), (const uint64_t *)end,
					       &ev->u.read.values) < 0)
			return FAIL("READ: values run past its end");
		return 0;
	case PERF_RECORD_AUX:
		BODY(24, "AUX");
		ev->u.aux.aux_offset = data_rd64(b);
		ev->u.aux.aux_size = data_rd64(b + 8);
		ev->u.aux.flags = data_rd64(b + 16);
		return 0;
	case PERF_RECORD_ITRACE_START:
		BODY(8, "ITRACE_START");
		ev->u.itrace_start.pid = (int32_t)data_rd32(b);
		ev->u.itrace_start.tid = (int32_t)data_rd32(b + 4);
		return 0;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		BODY(8, "AUX_OUTPUT_HW_ID");
		ev->u.aux_output_hw_id.hw_id = data_rd64(b);
		return 0;
	default:
		return 0;
	}
}

/* A sample, or a side-band record's fields and its sample_id_all trailer; the task and
 * mapping records (the common ones) here, the others in decode_other. */
int dr_decode_kernel(struct pk_data_reader *r, struct pk_data_event *ev, uint64_t pos)
{
	const struct perf_event_header *h = ev->raw;
	const struct dr_attr *a = ev->attr >= 0 ? r->attrs[ev->attr] : NULL;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (!a)
			return FAIL("a sample before any attr");
		bool *zeroed = ev == &r->ev ? &r->ev_zeroed : &(bool){ false };
		int rc = dr_parse_sample(r, a, h, &ev->sample, pos, zeroed);
		if (rc)
			return rc;
		ev->has_sample = true;
		return 0;
	}
	if (ev == &r->ev)
		r->ev_zeroed = true;	/* dr_sample_defaults clears it all */
	int tr = dr_parse_id_trailer(a, h, &ev->sample);
	if (tr < 0)
		return FAIL("record type %u of %u bytes is too short for its sample_id_all "
			    "trailer",
			    h->type, h->size);
	ev->has_sample = tr > 0;
	const uint8_t *b = (const uint8_t *)(h + 1);
	const uint8_t *end = (const uint8_t *)h + h->size - (tr > 0 ? a->pub.id_hdr_size : 0);
	size_t len = (size_t)(end - b);
	switch (h->type) {
	case PERF_RECORD_COMM:
		BODY(9, "COMM");
		ev->u.comm.pid = (int32_t)data_rd32(b);
		ev->u.comm.tid = (int32_t)data_rd32(b + 4);
		ev->u.comm.exec = h->misc & PERF_RECORD_MISC_COMM_EXEC;
		if (!(ev->u.comm.comm = data_str_at(b + 8, end)))
			return FAIL("COMM: name not terminated");
		return 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decode_mmap(r, ev, b, end, pos);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		BODY(24, h->type == PERF_RECORD_FORK ? "FORK" : "EXIT");
		ev->u.task.pid = (int32_t)data_rd32(b);
		ev->u.task.ppid = (int32_t)data_rd32(b + 4);
		ev->u.task.tid = (int32_t)data_rd32(b + 8);
		ev->u.task.ptid = (int32_t)data_rd32(b + 12);
		ev->u.task.time = data_rd64(b + 16);
		return 0;
	case PERF_RECORD_LOST:
		BODY(16, "LOST");
		ev->u.lost.id = data_rd64(b);
		ev->u.lost.lost = data_rd64(b + 8);
		r->stats.total_lost += ev->u.lost.lost;
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		BODY(8, "LOST_SAMPLES");
		ev->u.lost_samples.lost = data_rd64(b);
		r->stats.total_lost_samples += ev->u.lost_samples.lost;
		return 0;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		BODY(24, "THROTTLE");
		ev->u.throttle.time = data_rd64(b);
		ev->u.throttle.id = data_rd64(b + 8);
		ev->u.throttle.stream_id = data_rd64(b + 16);
		return 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		ev->u.context_switch.out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;
		ev->u.context_switch.preempt = h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
		ev->u.context_switch.next_prev_pid = -1;
		ev->u.context_switch.next_prev_tid = -1;
		if (h->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			BODY(8, "SWITCH_CPU_WIDE");
			ev->u.context_switch.next_prev_pid = (int32_t)data_rd32(b);
			ev->u.context_switch.next_prev_tid = (int32_t)data_rd32(b + 4);
		}
		return 0;
	default:
		return decode_other(r, ev, a, b, end, pos);
	}
}
#undef BODY
