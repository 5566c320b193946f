/* SPDX-License-Identifier: MIT */
/*
 * test_data_read.h — shared by the perf.data reader's unit tests:
 *  - a builder of perf.data bytes (file or pipe mode, attrs of any size,
 *    features, records, COMPRESSED/COMPRESSED2 chunks cut anywhere in one
 *    zstd stream), in this machine's byte order;
 *  - a record builder;
 *  - opening bytes as a reader (memfd: file mode; a real pipe: stream);
 *  - a digest of everything a reader hands out, to compare two readings.
 * The byte-swapper that turns such files (and perf's) into the other byte
 * order lives in test_data_read_swap.h.
 */
#ifndef TEST_DATA_READ_H
#define TEST_DATA_READ_H

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zstd.h>

#include <pmukit/data_read.h>

#include "util/buf.h"

#define TDR static __attribute__((unused))

/* ---- records ------------------------------------------------------------------------- */

struct rb {
	uint8_t b[65536];
	size_t len;
};

TDR void rb_start(struct rb *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };
	memcpy(r->b, &h, sizeof(h));
	r->len = sizeof(h);
}
TDR void rb_put(struct rb *r, const void *p, size_t n)
{
	memcpy(r->b + r->len, p, n);
	r->len += n;
}
TDR void rb_u64(struct rb *r, uint64_t v)
{
	rb_put(r, &v, 8);
}
TDR void rb_u32(struct rb *r, uint32_t v)
{
	rb_put(r, &v, 4);
}
TDR void rb_u16(struct rb *r, uint16_t v)
{
	rb_put(r, &v, 2);
}
TDR void rb_u32x2(struct rb *r, uint32_t a, uint32_t b)
{
	rb_u32(r, a);
	rb_u32(r, b);
}
TDR void rb_pad8(struct rb *r)
{
	while (r->len % 8)
		r->b[r->len++] = 0;
}
/* a NUL-terminated string padded to 8 */
TDR void rb_str(struct rb *r, const char *s)
{
	rb_put(r, s, strlen(s) + 1);
	rb_pad8(r);
}
TDR const void *rb_end(struct rb *r)
{
	uint16_t sz = (uint16_t)r->len;
	memcpy(r->b + 6, &sz, 2);
	return r->b;
}

/* ---- files --------------------------------------------------------------------------- */

struct syn_attr {
	uint8_t bytes[512];
	uint32_t size;
	uint64_t ids[16];
	size_t nr_ids;
};

struct syn {
	bool pipe;
	struct syn_attr attrs[8];
	size_t nr_attrs;
	struct {
		unsigned feat;
		struct pk_buf data;
	} feats[32];
	size_t nr_feats;
	struct pk_buf data;	/* records */
};

/* attr (its first min(size, sizeof) bytes; extra bytes past that from extra) */
TDR void syn_attr(struct syn *s, const struct perf_event_attr *a, uint32_t size,
		  const uint8_t *extra, const uint64_t *ids, size_t nr_ids)
{
	struct syn_attr *sa = &s->attrs[s->nr_attrs++];
	memset(sa, 0, sizeof(*sa));
	size_t known = size < sizeof(*a) ? size : sizeof(*a);
	memcpy(sa->bytes, a, known);
	if (size > sizeof(*a) && extra)
		memcpy(sa->bytes + sizeof(*a), extra, size - sizeof(*a));
	memcpy(sa->bytes + 4, &size, 4);	/* attr.size */
	sa->size = size;
	memcpy(sa->ids, ids, nr_ids * 8);
	sa->nr_ids = nr_ids;
}

TDR void syn_feat(struct syn *s, unsigned feat, const void *p, size_t n)
{
	s->feats[s->nr_feats].feat = feat;
	memset(&s->feats[s->nr_feats].data, 0, sizeof(struct pk_buf));
	pk_buf__append(&s->feats[s->nr_feats].data, p, n);
	s->nr_feats++;
}

/* A feature string: u32 len (padded to 64 with the NUL), bytes. */
TDR void fs_str(struct pk_buf *b, const char *str)
{
	uint32_t len = (uint32_t)((strlen(str) + 1 + 63) / 64 * 64);
	pk_buf__append_u32(b, len);
	size_t at = b->len;
	pk_buf__reserve(b, len);
	memset(b->data + at, 0, len);
	memcpy(b->data + at, str, strlen(str));
	b->len += len;
}

TDR void syn_rec(struct syn *s, const void *rec)
{
	uint16_t sz;
	memcpy(&sz, (const uint8_t *)rec + 6, 2);
	pk_buf__append(&s->data, rec, sz);
}

TDR void syn_raw(struct syn *s, const void *p, size_t n)
{
	pk_buf__append(&s->data, p, n);
}

/*
 * The records in recs compressed as one zstd stream, cut into chunks of the
 * given sizes (the last chunk takes the rest), as COMPRESSED (81) or
 * COMPRESSED2 (83) records.
 */
TDR void syn_compressed(struct syn *s, const void *recs, size_t len, const size_t *cuts,
			size_t nr_cuts, uint32_t type)
{
	size_t cap = ZSTD_compressBound(len);
	uint8_t *z = malloc(cap);
	size_t zn = ZSTD_compress(z, cap, recs, len, 3);
	if (ZSTD_isError(zn))
		abort();
	size_t at = 0;
	for (size_t i = 0; at < zn; i++) {
		size_t n = i < nr_cuts ? cuts[i] : zn - at;
		if (n > zn - at)
			n = zn - at;
		if (n > 60000)
			n = 60000;
		struct perf_event_header h = { .type = type, .misc = 0 };
		if (type == PK_RECORD_COMPRESSED) {
			h.size = (uint16_t)(8 + n);
			pk_buf__append(&s->data, &h, 8);
			pk_buf__append(&s->data, z + at, n);
		} else {
			h.size = (uint16_t)((16 + n + 7) / 8 * 8);
			uint64_t dsz = n;
			pk_buf__append(&s->data, &h, 8);
			pk_buf__append(&s->data, &dsz, 8);
			pk_buf__append(&s->data, z + at, n);
			static const uint8_t zero[8];
			pk_buf__append(&s->data, zero, h.size - 16 - n);
		}
		at += n;
	}
	free(z);
}

/* The whole file into out (caller frees out->data). */
TDR void syn_build(struct syn *s, struct pk_buf *out)
{
	memset(out, 0, sizeof(*out));
	if (s->pipe) {
		struct pk_perf_pipe_header ph = { PK_PERF_MAGIC2, 16 };
		pk_buf__append(out, &ph, sizeof(ph));
		for (size_t i = 0; i < s->nr_attrs; i++) {
			struct syn_attr *a = &s->attrs[i];
			struct perf_event_header h = { .type = PK_RECORD_HEADER_ATTR,
						       .size = (uint16_t)(8 + a->size + 8 * a->nr_ids) };
			pk_buf__append(out, &h, 8);
			pk_buf__append(out, a->bytes, a->size);
			pk_buf__append(out, a->ids, 8 * a->nr_ids);
		}
		for (size_t i = 0; i < s->nr_feats; i++) {
			struct perf_event_header h = {
				.type = PK_RECORD_HEADER_FEATURE,
				.size = (uint16_t)(16 + s->feats[i].data.len) };
			uint64_t f = s->feats[i].feat;
			pk_buf__append(out, &h, 8);
			pk_buf__append(out, &f, 8);
			pk_buf__append(out, s->feats[i].data.data, s->feats[i].data.len);
		}
		pk_buf__append(out, s->data.data, s->data.len);
		return;
	}
	struct pk_perf_file_header fh = { .magic = PK_PERF_MAGIC2, .size = sizeof(fh) };
	uint32_t asz = 64;
	for (size_t i = 0; i < s->nr_attrs; i++)
		if (s->attrs[i].size > asz)
			asz = s->attrs[i].size;
	fh.attr_size = asz + 16;
	pk_buf__append(out, &fh, sizeof(fh));
	/* ids, then the attrs section, then the data */
	uint64_t id_off[8];
	for (size_t i = 0; i < s->nr_attrs; i++) {
		id_off[i] = out->len;
		pk_buf__append(out, s->attrs[i].ids, 8 * s->attrs[i].nr_ids);
	}
	fh.attrs.offset = out->len;
	fh.attrs.size = s->nr_attrs * fh.attr_size;
	for (size_t i = 0; i < s->nr_attrs; i++) {
		uint8_t e[512 + 16] = { 0 };
		memcpy(e, s->attrs[i].bytes, s->attrs[i].size);
		memcpy(e + 4, &asz, 4);
		struct pk_perf_file_section ids = { id_off[i], 8 * s->attrs[i].nr_ids };
		memcpy(e + asz, &ids, 16);
		pk_buf__append(out, e, asz + 16);
	}
	pk_buf__align(out, 8);
	fh.data.offset = out->len;
	fh.data.size = s->data.len;
	pk_buf__append(out, s->data.data, s->data.len);
	/* feature table, in bit order, then the sections */
	unsigned order[32];
	size_t nf = s->nr_feats;
	for (size_t i = 0; i < nf; i++)
		order[i] = (unsigned)i;
	for (size_t i = 0; i < nf; i++)
		for (size_t j = i + 1; j < nf; j++)
			if (s->feats[order[j]].feat < s->feats[order[i]].feat) {
				unsigned t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
	size_t tab = out->len;
	struct pk_perf_file_section zero[32] = { { 0, 0 } };
	pk_buf__append(out, zero, nf * 16);
	for (size_t i = 0; i < nf; i++) {
		struct pk_perf_file_section sec = { out->len, s->feats[order[i]].data.len };
		pk_buf__append(out, s->feats[order[i]].data.data, sec.size);
		memcpy(out->data + tab + 16 * i, &sec, 16);
		fh.features[s->feats[order[i]].feat / 64] |= 1ULL << (s->feats[order[i]].feat % 64);
	}
	memcpy(out->data, &fh, sizeof(fh));
}

TDR void syn_free(struct syn *s)
{
	for (size_t i = 0; i < s->nr_feats; i++)
		pk_buf__free(&s->feats[i].data);
	pk_buf__free(&s->data);
	memset(s, 0, sizeof(*s));
}

/* ---- opening bytes ----------------------------------------------------------------------- */

TDR int mem_fd(const void *p, size_t n)
{
	int fd = memfd_create("perf.data", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	if (n && write(fd, p, n) != (ssize_t)n)
		abort();
	lseek(fd, 0, SEEK_SET);
	return fd;
}

struct pipe_feed {
	int fd;
	const uint8_t *p;
	size_t n;
};

static void *pipe_feeder(void *arg)
{
	struct pipe_feed *f = arg;
	size_t at = 0;
	while (at < f->n) {
		ssize_t w = write(f->fd, f->p + at, f->n - at > 4093 ? 4093 : f->n - at);
		if (w <= 0)
			break;
		at += (size_t)w;
	}
	close(f->fd);
	return NULL;
}

/* A reading from a real pipe fed by a thread (odd write sizes). */
struct pipe_src {
	pthread_t t;
	struct pipe_feed feed;
	int rfd;
};

TDR int pipe_open(struct pipe_src *ps, const void *p, size_t n)
{
	int fds[2];
	if (pipe(fds))
		abort();
	ps->feed = (struct pipe_feed){ fds[1], p, n };
	ps->rfd = fds[0];
	pthread_create(&ps->t, NULL, pipe_feeder, &ps->feed);
	return fds[0];
}

TDR void pipe_close(struct pipe_src *ps)
{
	close(ps->rfd);
	pthread_join(ps->t, NULL);
}

/* ---- digests ------------------------------------------------------------------------------- */

TDR void dg(struct pk_buf *b, const char *fmt, ...)
{
	char tmp[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	pk_buf__append(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

TDR void dg_hex(struct pk_buf *b, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dg(b, "%02x", ((const uint8_t *)p)[i]);
}

TDR void dg_read(struct pk_buf *b, const struct pk_sample_read *rd)
{
	dg(b, " rd=%" PRIx64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64, rd->read_format, rd->time_enabled,
	   rd->time_running, rd->nr);
	for (uint64_t i = 0; i < rd->nr && i < 64; i++) {
		struct pk_sample_read_value v = pk_sample_read__value(rd, i);
		dg(b, ",%" PRIu64 ":%" PRIu64 ":%" PRIu64, v.value, v.id, v.lost);
	}
}

/* One line per event: every decoded field. with_offsets false: leave offsets out. */
TDR void dg_event(struct pk_buf *b, const struct pk_data_event *ev, bool with_offsets)
{
	const struct pk_sample *s = &ev->sample;
	dg(b, "t=%u m=%x z=%u a=%d", ev->type, ev->misc, ev->size, ev->attr);
	if (with_offsets)
		dg(b, " o=%" PRIx64 " d=%d", ev->offset, ev->decompressed);
	if (ev->has_sample)
		dg(b, " S=%" PRIx64 ":%" PRIx64 ":%d/%d:%" PRIu64 ":%" PRIx64 ":%d:%u", s->sample_type,
		   s->id, s->pid, s->tid, s->time, s->stream_id, s->cpu, s->cpu_res);
	if (ev->type == PERF_RECORD_SAMPLE) {
		dg(b, " ip=%" PRIx64 " ad=%" PRIx64 " p=%" PRIu64, s->ip, s->addr, s->period);
		if (s->sample_type & PERF_SAMPLE_READ)
			dg_read(b, &s->read);
		dg(b, " cc=%" PRIu64, s->callchain.nr);
		for (uint64_t i = 0; i < s->callchain.nr; i++)
			dg(b, ",%" PRIx64, s->callchain.ips[i]);
		if (s->raw.data) {
			dg(b, " raw=%u:", s->raw.size);
			dg_hex(b, s->raw.data, s->raw.size);
		}
		dg(b, " br=%" PRIu64 "/%d/%" PRIx64, s->branch.nr, s->branch.has_hw_idx,
		   s->branch.hw_idx);
		for (uint64_t i = 0; i < s->branch.nr; i++) {
			const struct perf_branch_entry *e = &s->branch.entries[i];
			dg(b, ",%llx>%llx:%u%u%u%u:%u:%u:%u:%u:%u", (unsigned long long)e->from,
			   (unsigned long long)e->to, (unsigned)e->mispred, (unsigned)e->predicted,
			   (unsigned)e->in_tx, (unsigned)e->abort, (unsigned)e->cycles, (unsigned)e->type,
			   (unsigned)e->spec, (unsigned)e->new_type, (unsigned)e->priv);
			if (s->branch.counters)
				dg(b, ":%" PRIx64, s->branch.counters[i]);
		}
		const struct pk_sample_regs *rs[2] = { &s->user_regs, &s->intr_regs };
		for (int k = 0; k < 2; k++) {
			dg(b, " rg=%" PRIu64 "/%" PRIx64 "/%u", rs[k]->abi, rs[k]->mask, rs[k]->nr);
			for (unsigned i = 0; i < rs[k]->nr; i++)
				dg(b, ",%" PRIx64, rs[k]->regs[i]);
		}
		dg(b, " us=%" PRIu64 "/%" PRIu64 ":", s->user_stack.size, s->user_stack.dyn_size);
		dg_hex(b, s->user_stack.data, s->user_stack.size > 64 ? 64 : s->user_stack.size);
		dg(b, " w=%" PRIu64 "/%u/%u ds=%" PRIx64 " tx=%" PRIx64 " ph=%" PRIx64 " cg=%" PRIu64
		      " pg=%" PRIu64 "/%" PRIu64 " aux=%" PRIu64 ":",
		   s->weight, s->weight_var2, s->weight_var3, s->data_src, s->transaction,
		   s->phys_addr, s->cgroup, s->data_page_size, s->code_page_size, s->aux.size);
		dg_hex(b, s->aux.data, s->aux.size);
	}
	switch (ev->type) {
	case PERF_RECORD_COMM:
		dg(b, " comm=%d/%d/%s/%d", ev->u.comm.pid, ev->u.comm.tid, ev->u.comm.comm,
		   ev->u.comm.exec);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const __typeof__(ev->u.mmap) *m = &ev->u.mmap;
		dg(b, " mmap=%d/%d/%" PRIx64 "/%" PRIx64 "/%" PRIx64 "/%d/%d/%u:%u/%" PRIu64
		      "/%" PRIu64 "/%x/%x/%d/%s/",
		   m->pid, m->tid, m->start, m->len, m->pgoff, m->mmap2, m->has_build_id, m->maj,
		   m->min, m->ino, m->ino_generation, m->prot, m->flags, m->data, m->filename);
		if (m->has_build_id)
			dg_hex(b, m->build_id, m->build_id_size);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		dg(b, " task=%d/%d/%d/%d/%" PRIu64, ev->u.task.pid, ev->u.task.ppid, ev->u.task.tid,
		   ev->u.task.ptid, ev->u.task.time);
		break;
	case PERF_RECORD_LOST:
		dg(b, " lost=%" PRIu64 "/%" PRIu64, ev->u.lost.id, ev->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		dg(b, " lostS=%" PRIu64, ev->u.lost_samples.lost);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		dg(b, " thr=%" PRIu64 "/%" PRIu64 "/%" PRIu64, ev->u.throttle.time, ev->u.throttle.id,
		   ev->u.throttle.stream_id);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		dg(b, " sw=%d%d/%d/%d", ev->u.context_switch.out, ev->u.context_switch.preempt,
		   ev->u.context_switch.next_prev_pid, ev->u.context_switch.next_prev_tid);
		break;
	case PERF_RECORD_KSYMBOL:
		dg(b, " ksym=%" PRIx64 "/%u/%u/%u/%s", ev->u.ksymbol.addr, ev->u.ksymbol.len,
		   ev->u.ksymbol.ksym_type, ev->u.ksymbol.flags, ev->u.ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		dg(b, " bpf=%u/%u/%u/", ev->u.bpf.type, ev->u.bpf.flags, ev->u.bpf.id);
		dg_hex(b, ev->u.bpf.tag, 8);
		break;
	case PERF_RECORD_TEXT_POKE:
		dg(b, " poke=%" PRIx64 "/%u/%u/", ev->u.text_poke.addr, ev->u.text_poke.old_len,
		   ev->u.text_poke.new_len);
		dg_hex(b, ev->u.text_poke.bytes, ev->u.text_poke.old_len + ev->u.text_poke.new_len);
		break;
	case PERF_RECORD_CGROUP:
		dg(b, " cg=%" PRIu64 "/%s", ev->u.cgroup.id, ev->u.cgroup.path);
		break;
	case PERF_RECORD_NAMESPACES:
		dg(b, " ns=%d/%d/%" PRIu64, ev->u.namespaces.pid, ev->u.namespaces.tid,
		   ev->u.namespaces.nr);
		for (uint64_t i = 0; i < 2 * ev->u.namespaces.nr; i++)
			dg(b, ",%" PRIx64, ev->u.namespaces.link[i]);
		break;
	case PERF_RECORD_READ:
		dg(b, " read=%d/%d", ev->u.read.pid, ev->u.read.tid);
		dg_read(b, &ev->u.read.values);
		break;
	case PERF_RECORD_AUX:
		dg(b, " aux=%" PRIx64 "/%" PRIx64 "/%" PRIx64, ev->u.aux.aux_offset,
		   ev->u.aux.aux_size, ev->u.aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		dg(b, " its=%d/%d", ev->u.itrace_start.pid, ev->u.itrace_start.tid);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		dg(b, " hwid=%" PRIx64, ev->u.aux_output_hw_id.hw_id);
		break;
	case PK_RECORD_HEADER_ATTR:
		dg(b, " attr=%d", ev->u.attr.idx);
		break;
	case PK_RECORD_HEADER_FEATURE:
		dg(b, " feat=%" PRIu64 "/%zu", ev->u.feature.feat, ev->u.feature.size);
		break;
	case PK_RECORD_HEADER_BUILD_ID:
		dg(b, " bid=%d/%u/%s/", ev->u.build_id.pid, ev->u.build_id.size,
		   ev->u.build_id.filename);
		dg_hex(b, ev->u.build_id.id, ev->u.build_id.size);
		break;
	case PK_RECORD_ID_INDEX:
		dg(b, " idx=%" PRIu64, ev->u.id_index.nr);
		for (uint64_t i = 0; i < 4 * ev->u.id_index.nr; i++)
			dg(b, ",%" PRIx64, ev->u.id_index.entries[i]);
		break;
	case PK_RECORD_TIME_CONV:
		dg(b, " tc=%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%d/%" PRIu64 "/%" PRIx64 "/%d%d",
		   ev->u.time_conv.time_shift, ev->u.time_conv.time_mult, ev->u.time_conv.time_zero,
		   ev->u.time_conv.has_cycles, ev->u.time_conv.time_cycles, ev->u.time_conv.time_mask,
		   ev->u.time_conv.cap_user_time_zero, ev->u.time_conv.cap_user_time_short);
		break;
	case PK_RECORD_THREAD_MAP:
		dg(b, " tm=%" PRIu64, ev->u.thread_map.nr);
		for (uint64_t i = 0; i < ev->u.thread_map.nr; i++) {
			int64_t pid;
			memcpy(&pid, (const uint8_t *)ev->u.thread_map.entries + 24 * i, 8);
			dg(b, ",%" PRId64 ":%.16s", pid,
			   (const char *)ev->u.thread_map.entries + 24 * i + 8);
		}
		break;
	case PK_RECORD_CPU_MAP: {
		int32_t cpus[256];
		long n = pk_data__cpu_map(ev->u.cpu_map.data, ev->u.cpu_map.size, cpus, 256);
		dg(b, " cpus=%ld", n);
		for (long i = 0; i < n && i < 256; i++)
			dg(b, ",%d", cpus[i]);
		break;
	}
	case PK_RECORD_EVENT_UPDATE:
		dg(b, " eu=%" PRIu64 "/%" PRIu64 "/%s/%g", ev->u.event_update.type,
		   ev->u.event_update.id, ev->u.event_update.str ? ev->u.event_update.str : "",
		   ev->u.event_update.scale);
		if (ev->u.event_update.cpus) {
			int32_t cpus[256];
			long n = pk_data__cpu_map(ev->u.event_update.cpus, ev->u.event_update.cpus_size,
						  cpus, 256);
			dg(b, "/cpus=%ld", n);
			for (long i = 0; i < n && i < 256; i++)
				dg(b, ",%d", cpus[i]);
		}
		break;
	case PK_RECORD_AUXTRACE:
		dg(b, " at=%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%u/%u/%u", ev->u.auxtrace.size,
		   ev->u.auxtrace.offset, ev->u.auxtrace.reference, ev->u.auxtrace.idx,
		   ev->u.auxtrace.tid, ev->u.auxtrace.cpu);
		break;
	default:
		break;
	}
	dg(b, "\n");
}

TDR void dg_env(struct pk_buf *b, const struct pk_data_reader *r)
{
	const struct pk_data_env *e = pk_data_reader__env(r);
	dg(b, "env %s|%s|%s|%s|%s|%s|%d:%u/%u|%" PRIu64 "\n", e->hostname ? e->hostname : "-",
	   e->osrelease ? e->osrelease : "-", e->version ? e->version : "-",
	   e->arch ? e->arch : "-", e->cpudesc ? e->cpudesc : "-", e->cpuid ? e->cpuid : "-",
	   e->has_nrcpus, e->nr_cpus_avail, e->nr_cpus_online, e->total_mem);
	for (uint32_t i = 0; i < e->nr_cmdline; i++)
		dg(b, "cmd %s\n", e->cmdline[i]);
	for (uint32_t i = 0; i < e->nr_core_siblings; i++)
		dg(b, "core %s\n", e->core_siblings[i]);
	for (uint32_t i = 0; i < e->nr_thread_siblings; i++)
		dg(b, "thread %s\n", e->thread_siblings[i]);
	for (uint32_t i = 0; i < e->nr_die_siblings; i++)
		dg(b, "die %s\n", e->die_siblings[i]);
	for (uint32_t i = 0; i < e->nr_cpu_topo; i++)
		dg(b, "topo %d %d %d\n", e->cpu_topo[i].core_id, e->cpu_topo[i].socket_id,
		   e->cpu_topo[i].die_id);
	for (uint32_t i = 0; i < e->nr_pmu_mappings; i++)
		dg(b, "pmu %u %s\n", e->pmu_mappings[i].type, e->pmu_mappings[i].name);
	for (uint32_t i = 0; i < e->nr_groups; i++)
		dg(b, "group %s %u %u\n", e->groups[i].name ? e->groups[i].name : "-",
		   e->groups[i].leader_idx, e->groups[i].nr_members);
	dg(b, "clock %" PRIu64 " %d %u %" PRIu64 " %" PRIu64 "\n", e->clockid_res_ns,
	   e->has_clock_data, e->clockid, e->clock_tod_ns, e->clock_clockid_ns);
	dg(b, "comp %d %u %u %u %u %u\n", e->has_compressed, e->comp_version, e->comp_type,
	   e->comp_level, e->comp_ratio, e->comp_mmap_len);
	dg(b, "times %" PRIu64 " %" PRIu64 "\n", e->first_sample_time, e->last_sample_time);
	for (size_t i = 0; i < pk_data_reader__nr_build_ids(r); i++) {
		const struct pk_data_build_id *bi = pk_data_reader__build_id(r, i);
		dg(b, "bid %d %x %s ", bi->pid, bi->misc, bi->filename);
		dg_hex(b, bi->id, bi->size);
		dg(b, "\n");
	}
	for (size_t i = 0; i < pk_data_reader__nr_attrs(r); i++) {
		const struct pk_data_attr *a = pk_data_reader__attr(r, i);
		dg(b, "attr %zu %s u=%s s=%g L=%d n=%d g=%s c3=%" PRIx64 " x=%u/%d ids=%zu:",
		   i, a->name ? a->name : "-", a->unit ? a->unit : "-", a->scale, a->leader,
		   a->nr_members, a->group_name ? a->group_name : "-", a->config3, a->nr_extra,
		   a->extra_nonzero, a->nr_ids);
		for (size_t k = 0; k < a->nr_ids; k++)
			dg(b, ",%" PRIu64, a->ids[k]);
		dg(b, " ");
		const uint8_t *p = (const uint8_t *)&a->attr;
		dg_hex(b, p, 4);	/* type */
		dg_hex(b, p + 8, sizeof(a->attr) - 8);	/* all past the size field */
		dg(b, "\n");
	}
	for (size_t i = 0; i < pk_data_reader__nr_tp_formats(r); i++) {
		const struct pk_tp_format *f = pk_data_reader__tp_format_at(r, i);
		dg(b, "tp %" PRIu64 " %s %s %zu %zu\n", f->id, f->system, f->name, f->nr_common,
		   f->nr_fields);
	}
}

/* Everything a reading hands out; err (if any) appended. */
TDR char *dg_reader(struct pk_data_reader *r, bool with_offsets)
{
	struct pk_buf b = { 0 };
	const struct pk_data_event *ev;
	struct pk_error err = { 0 };
	int rc;
	while ((rc = pk_data_reader__next(r, &ev, &err)) > 0)
		dg_event(&b, ev, with_offsets);
	if (rc < 0)
		dg(&b, "ERROR %s\n", err.msg);
	dg_env(&b, r);
	pk_buf__append(&b, "", 1);
	return (char *)b.data;
}

/* Open bytes (file mode through a memfd, or a real pipe when as_pipe) and digest them. */
TDR char *dg_bytes(const void *p, size_t n, const struct pk_data_reader_opts *o, bool as_pipe,
		   bool with_offsets)
{
	struct pk_data_reader *r;
	struct pk_error err = { 0 };
	struct pipe_src ps;
	int fd = as_pipe ? pipe_open(&ps, p, n) : mem_fd(p, n);
	char *out;
	if (pk_data_reader__open_fd(&r, fd, "mem", o, &err)) {
		size_t len = strlen(err.msg) + 16;
		out = malloc(len);
		snprintf(out, len, "OPEN %s\n", err.msg);
	} else {
		out = dg_reader(r, with_offsets);
		pk_data_reader__free(r);
	}
	if (as_pipe)
		pipe_close(&ps);
	else
		close(fd);
	return out;
}

/* ---- a file with every sample bit and record type -------------------------------------- */

#define RICH_T0                                                                                \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |         \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |          \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |      \
	 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |            \
	 PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |           \
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_AUX | PERF_SAMPLE_CGROUP |  \
	 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)
#define RICH_T1                                                                                \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |         \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_WEIGHT)
#define RICH_RF0                                                                               \
	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	 PERF_FORMAT_TOTAL_TIME_RUNNING)
#define RICH_RF1 (PERF_FORMAT_ID | PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define RICH_ID0 1001
#define RICH_ID1 2002
#define RICH_BR_COUNTERS (1ULL << 19)

/* the sample_id_all trailer of rich attrs (IDENTIFIER|TID|TIME|ID|STREAM_ID|CPU of attr 0) */
TDR void rich_trailer(struct rb *r, uint64_t time)
{
	rb_u32x2(r, 77, 78);	/* TID */
	rb_u64(r, time);	/* TIME */
	rb_u64(r, RICH_ID0);	/* ID */
	rb_u64(r, 5555);	/* STREAM_ID */
	rb_u32x2(r, 1, 0);	/* CPU */
	rb_u64(r, RICH_ID0);	/* IDENTIFIER */
}

/* Sample number i of attr 0: every field derived from i. */
TDR const void *rich_sample0(struct rb *r, uint64_t i, uint64_t time)
{
	rb_start(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(r, RICH_ID0);			/* IDENTIFIER */
	rb_u64(r, 0x400000 + i);		/* IP */
	rb_u32x2(r, 100 + (uint32_t)i, 200 + (uint32_t)i);	/* TID */
	rb_u64(r, time);			/* TIME */
	rb_u64(r, 0xdead0000 + i);		/* ADDR */
	rb_u64(r, RICH_ID0);			/* ID */
	rb_u64(r, 5555);			/* STREAM_ID */
	rb_u32x2(r, (uint32_t)(i % 2), 0);	/* CPU */
	rb_u64(r, 1000 + i);			/* PERIOD */
	/* READ, group of 2: nr, enabled, running, {value, id, lost} x 2 */
	rb_u64(r, 2);
	rb_u64(r, 10 * i + 1);
	rb_u64(r, 10 * i + 2);
	rb_u64(r, 300 + i);
	rb_u64(r, RICH_ID0);
	rb_u64(r, 1);
	rb_u64(r, 400 + i);
	rb_u64(r, RICH_ID1);
	rb_u64(r, 2);
	/* CALLCHAIN: 4 entries */
	rb_u64(r, 4);
	rb_u64(r, (uint64_t)PERF_CONTEXT_USER);
	rb_u64(r, 0x400000 + i);
	rb_u64(r, 0x401000 + i);
	rb_u64(r, 0x402000);
	/* RAW: 12 bytes (4 + 12 = 16) */
	rb_u32(r, 12);
	for (int k = 0; k < 12; k++)
		r->b[r->len++] = (uint8_t)(0xa0 + k + i);
	/* BRANCH_STACK: nr 2, hw_idx, entries, counters */
	rb_u64(r, 2);
	rb_u64(r, 0x77 + i);
	for (uint64_t k = 0; k < 2; k++) {
		struct perf_branch_entry e = { .from = 0x500000 + k, .to = 0x600000 + k + i };
		e.mispred = k & 1;
		e.predicted = !(k & 1);
		e.in_tx = 1;
		e.abort = 0;
		e.cycles = (uint16_t)(1234 + k);
		e.type = 5;
		e.spec = 2;
		e.new_type = 3;
		e.priv = 6;
		rb_put(r, &e, sizeof(e));
	}
	rb_u64(r, 0x11);
	rb_u64(r, 0x22);
	/* REGS_USER: abi 2, 3 regs (mask 0x7) */
	rb_u64(r, PERF_SAMPLE_REGS_ABI_64);
	rb_u64(r, 0x1110 + i);
	rb_u64(r, 0x2220);
	rb_u64(r, 0x3330);
	/* STACK_USER: 16 bytes, dyn 12 */
	rb_u64(r, 16);
	for (int k = 0; k < 16; k++)
		r->b[r->len++] = (uint8_t)(k * 7 + i);
	rb_u64(r, 12);
	/* WEIGHT_STRUCT: var1 0x12345, var2 0x66, var3 0x77 */
	rb_u64(r, 0x12345ULL | (0x66ULL << 32) | (0x77ULL << 48));
	rb_u64(r, 0x1e05080021ULL);		/* DATA_SRC */
	rb_u64(r, 0x3);				/* TRANSACTION */
	rb_u64(r, PERF_SAMPLE_REGS_ABI_64);	/* REGS_INTR: 2 regs */
	rb_u64(r, 0xaaa0);
	rb_u64(r, 0xbbb0 + i);
	rb_u64(r, 0xfeed000 + i);		/* PHYS_ADDR */
	rb_u64(r, 42);				/* CGROUP */
	rb_u64(r, 4096);			/* DATA_PAGE_SIZE */
	rb_u64(r, 2 << 20);			/* CODE_PAGE_SIZE */
	rb_u64(r, 8);				/* AUX: 8 bytes */
	rb_u64(r, 0x0102030405060708ULL);
	return rb_end(r);
}

TDR const void *rich_sample1(struct rb *r, uint64_t i, uint64_t time)
{
	rb_start(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	rb_u64(r, RICH_ID1);
	rb_u64(r, 0xffffffff81000000ULL + i);
	rb_u32x2(r, 300, 301);
	rb_u64(r, time);
	rb_u32x2(r, 1, 0);
	rb_u64(r, 1);
	/* READ (not group): value, running, id, lost */
	rb_u64(r, 999 + i);
	rb_u64(r, 50);
	rb_u64(r, RICH_ID1);
	rb_u64(r, 3);
	rb_u64(r, 321);				/* WEIGHT */
	return rb_end(r);
}

/* Attrs: 0 with everything, 1 smaller; sample_id_all. */
TDR void rich_attrs(struct syn *s, uint32_t attr_size, const uint8_t *extra)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = 0 };
	a.sample_period = 1000;
	a.sample_type = RICH_T0;
	a.read_format = RICH_RF0;
	a.sample_id_all = 1;
	a.precise_ip = 1;
	a.exclude_kernel = 1;
	a.mmap2 = 1;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX |
			       RICH_BR_COUNTERS;
	a.sample_regs_user = 0x7;
	a.sample_regs_intr = 0x180;
	a.sample_stack_user = 16;
	a.clockid = 1;
	a.use_clockid = 1;
	a.aux_sample_size = 8;
	a.sig_data = 0x5151;
	uint64_t id0 = RICH_ID0, id1 = RICH_ID1;
	syn_attr(s, &a, attr_size, extra, &id0, 1);
	struct perf_event_attr b = { .type = PERF_TYPE_SOFTWARE, .config = 2 };
	b.sample_period = 1;
	b.sample_type = RICH_T1;
	b.read_format = RICH_RF1;
	b.sample_id_all = 1;
	b.precise_ip = 2;
	syn_attr(s, &b, attr_size, extra, &id1, 1);
}

/* Features with known contents. */
TDR void rich_features(struct syn *s)
{
	struct pk_buf f = { 0 };
	const struct {
		unsigned feat;
		const char *str;
	} strs[] = { { PK_FEAT_HOSTNAME, "host-a" },   { PK_FEAT_OSRELEASE, "6.1.0-test" },
		     { PK_FEAT_VERSION, "6.1.187" },  { PK_FEAT_ARCH, "x86_64" },
		     { PK_FEAT_CPUDESC, "Test CPU" }, { PK_FEAT_CPUID, "GenuineIntel,6,85,4" } };
	for (size_t i = 0; i < 6; i++) {
		f.len = 0;
		fs_str(&f, strs[i].str);
		syn_feat(s, strs[i].feat, f.data, f.len);
	}
	f.len = 0;
	pk_buf__append_u32(&f, 4);	/* avail */
	pk_buf__append_u32(&f, 2);	/* online */
	syn_feat(s, PK_FEAT_NRCPUS, f.data, f.len);
	uint64_t mem = 16384000;
	syn_feat(s, PK_FEAT_TOTAL_MEM, &mem, 8);
	f.len = 0;
	pk_buf__append_u32(&f, 3);
	fs_str(&f, "perf");
	fs_str(&f, "record");
	fs_str(&f, "-g");
	syn_feat(s, PK_FEAT_CMDLINE, f.data, f.len);
	/* EVENT_DESC: 2 events, attr size 128 */
	f.len = 0;
	pk_buf__append_u32(&f, 2);
	pk_buf__append_u32(&f, 128);
	const char *names[] = { "cycles:pp", "page-faults" };
	uint64_t ids[] = { RICH_ID0, RICH_ID1 };
	for (int i = 0; i < 2; i++) {
		uint8_t attr[128] = { 0 };
		memcpy(attr, s->attrs[i].bytes, 128);
		pk_buf__append(&f, attr, 128);
		pk_buf__append_u32(&f, 1);
		fs_str(&f, names[i]);
		pk_buf__append(&f, &ids[i], 8);
	}
	syn_feat(s, PK_FEAT_EVENT_DESC, f.data, f.len);
	/* CPU_TOPOLOGY with ids and dies */
	f.len = 0;
	pk_buf__append_u32(&f, 1);
	fs_str(&f, "0-3");
	pk_buf__append_u32(&f, 2);
	fs_str(&f, "0-1");
	fs_str(&f, "2-3");
	for (uint32_t c = 0; c < 4; c++) {
		pk_buf__append_u32(&f, c / 2);	/* core */
		pk_buf__append_u32(&f, 0);	/* socket */
	}
	pk_buf__append_u32(&f, 1);
	fs_str(&f, "0-3");
	for (uint32_t c = 0; c < 4; c++)
		pk_buf__append_u32(&f, 0);
	syn_feat(s, PK_FEAT_CPU_TOPOLOGY, f.data, f.len);
	f.len = 0;
	pk_buf__append_u32(&f, 2);
	pk_buf__append_u32(&f, 4);
	fs_str(&f, "cpu");
	pk_buf__append_u32(&f, 1);
	fs_str(&f, "software");
	syn_feat(s, PK_FEAT_PMU_MAPPINGS, f.data, f.len);
	f.len = 0;
	pk_buf__append_u32(&f, 1);
	fs_str(&f, "{cycles:pp,page-faults}");
	pk_buf__append_u32(&f, 0);
	pk_buf__append_u32(&f, 2);
	syn_feat(s, PK_FEAT_GROUP_DESC, f.data, f.len);
	uint64_t res = 1;
	syn_feat(s, PK_FEAT_CLOCKID, &res, 8);
	f.len = 0;
	pk_buf__append_u32(&f, 1);
	pk_buf__append_u32(&f, 1);	/* CLOCK_MONOTONIC */
	uint64_t tod = 1700000000000000000ULL, cl = 123456789;
	pk_buf__append(&f, &tod, 8);
	pk_buf__append(&f, &cl, 8);
	syn_feat(s, PK_FEAT_CLOCK_DATA, f.data, f.len);
	f.len = 0;
	uint32_t comp[5] = { 0, 1, 3, 4, 528384 };
	pk_buf__append(&f, comp, sizeof(comp));
	syn_feat(s, PK_FEAT_COMPRESSED, f.data, f.len);
	uint64_t st[2] = { 1000, 9000000 };
	syn_feat(s, PK_FEAT_SAMPLE_TIME, st, 16);
	/* BUILD_ID: two records */
	f.len = 0;
	struct rb r;
	rb_start(&r, PK_RECORD_HEADER_BUILD_ID, PERF_RECORD_MISC_KERNEL);
	rb_u32(&r, (uint32_t)-1);
	uint8_t id[24] = { 0 };
	for (int k = 0; k < 20; k++)
		id[k] = (uint8_t)(k + 1);
	rb_put(&r, id, 24);
	rb_str(&r, "[kernel.kallsyms]");
	pk_buf__append(&f, rb_end(&r), r.len);
	rb_start(&r, PK_RECORD_HEADER_BUILD_ID,
		 PERF_RECORD_MISC_USER | PK_RECORD_MISC_BUILD_ID_SIZE);
	rb_u32(&r, 77);
	memset(id, 0xab, 24);
	id[20] = 16;	/* size */
	rb_put(&r, id, 24);
	rb_str(&r, "/usr/lib/libfoo.so");
	pk_buf__append(&f, rb_end(&r), r.len);
	syn_feat(s, PK_FEAT_BUILD_ID, f.data, f.len);
	pk_buf__free(&f);
}

/* Records of every kernel type (attr 0's trailer) and the tool records. */
TDR void rich_records(struct pk_buf *out)
{
	struct rb r;
	uint64_t t = 1000;
#define ADD() pk_buf__append(out, rb_end(&r), r.len)
	rb_start(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rb_u32x2(&r, 77, 78);
	rb_str(&r, "worker");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 0x7000);
	rb_u64(&r, 0x1000);
	rb_u64(&r, 0x200);
	rb_str(&r, "/tmp/data.bin");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 0x400000);
	rb_u64(&r, 0x10000);
	rb_u64(&r, 0);
	rb_u32x2(&r, 0xfe, 1);
	rb_u64(&r, 424242);
	rb_u64(&r, 7);
	rb_u32x2(&r, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	rb_str(&r, "/usr/bin/app");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 0x500000);
	rb_u64(&r, 0x20000);
	rb_u64(&r, 0x1000);
	uint8_t bid[24] = { 20, 0, 0, 0 };
	for (int k = 0; k < 20; k++)
		bid[4 + k] = (uint8_t)(0xc0 + k);
	rb_put(&r, bid, 24);
	rb_u32x2(&r, PROT_READ, MAP_SHARED);
	rb_str(&r, "/usr/lib/libbar.so");
	rich_trailer(&r, t++);
	ADD();
	static const uint32_t tasks[] = { PERF_RECORD_FORK, PERF_RECORD_EXIT };
	for (int k = 0; k < 2; k++) {
		rb_start(&r, tasks[k], 0);
		rb_u32x2(&r, 77, 70);
		rb_u32x2(&r, 79, 71);
		rb_u64(&r, t);
		rich_trailer(&r, t++);
		ADD();
	}
	rb_start(&r, PERF_RECORD_LOST, 0);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 17);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_LOST_SAMPLES, 0);
	rb_u64(&r, 19);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_THROTTLE, 0);
	rb_u64(&r, t);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 5555);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_UNTHROTTLE, 0);
	rb_u64(&r, t);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 5555);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_SWITCH_CPU_WIDE,
		 PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	rb_u32x2(&r, 500, 501);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_KSYMBOL, 0);
	rb_u64(&r, 0xffffffffa0000000ULL);
	rb_u32(&r, 0x80);
	rb_u16(&r, 1);
	rb_u16(&r, 0);
	rb_str(&r, "bpf_prog_x");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_BPF_EVENT, 0);
	rb_u16(&r, 1);
	rb_u16(&r, 0);
	rb_u32(&r, 33);
	rb_u64(&r, 0x0807060504030201ULL);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_TEXT_POKE, 0);
	rb_u64(&r, 0xffffffff81001000ULL);
	rb_u16(&r, 2);
	rb_u16(&r, 3);
	uint8_t poke[5] = { 1, 2, 3, 4, 5 };
	rb_put(&r, poke, 5);
	rb_pad8(&r);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_CGROUP, 0);
	rb_u64(&r, 42);
	rb_str(&r, "/system.slice");
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_NAMESPACES, 0);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 2);
	rb_u64(&r, 4);
	rb_u64(&r, 0xf0000001);
	rb_u64(&r, 4);
	rb_u64(&r, 0xf0000002);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_READ, 0);
	rb_u32x2(&r, 77, 78);
	rb_u64(&r, 2);	/* group read of attr 0: nr, enabled, running, 2 x {value, id, lost} */
	rb_u64(&r, 10);
	rb_u64(&r, 9);
	rb_u64(&r, 111);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 0);
	rb_u64(&r, 222);
	rb_u64(&r, RICH_ID1);
	rb_u64(&r, 0);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_AUX, 0);
	rb_u64(&r, 0x1000);
	rb_u64(&r, 0x2000);
	rb_u64(&r, PERF_AUX_FLAG_TRUNCATED);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_ITRACE_START, 0);
	rb_u32x2(&r, 77, 78);
	rich_trailer(&r, t++);
	ADD();
	rb_start(&r, PERF_RECORD_AUX_OUTPUT_HW_ID, 0);
	rb_u64(&r, 0x99);
	rich_trailer(&r, t++);
	ADD();
	/* tool records */
	rb_start(&r, PK_RECORD_ID_INDEX, 0);
	rb_u64(&r, 2);
	rb_u64(&r, RICH_ID0);
	rb_u64(&r, 0);
	rb_u64(&r, 1);
	rb_u64(&r, 78);
	rb_u64(&r, RICH_ID1);
	rb_u64(&r, 0);
	rb_u64(&r, 1);
	rb_u64(&r, 78);
	ADD();
	rb_start(&r, PK_RECORD_TIME_CONV, 0);
	rb_u64(&r, 31);
	rb_u64(&r, 1000);
	rb_u64(&r, 5000);
	rb_u64(&r, 123);
	rb_u64(&r, 0xffff);
	uint8_t caps[8] = { 1, 1 };
	rb_put(&r, caps, 8);
	ADD();
	rb_start(&r, PK_RECORD_THREAD_MAP, 0);
	rb_u64(&r, 2);
	char comm[16] = "main";
	rb_u64(&r, 77);
	rb_put(&r, comm, 16);
	rb_u64(&r, 78);
	strcpy(comm, "worker");
	rb_put(&r, comm, 16);
	ADD();
	/* CPU maps: list {0, 2, 65535 (any)}, mask u64 {1, 3, 64}, range 4-6 with any */
	rb_start(&r, PK_RECORD_CPU_MAP, 0);
	rb_u16(&r, 0);
	rb_u16(&r, 3);
	rb_u16(&r, 0);
	rb_u16(&r, 2);
	rb_u16(&r, 0xffff);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_CPU_MAP, 0);
	rb_u16(&r, 1);
	rb_u16(&r, 2);
	rb_u16(&r, 8);
	rb_u32(&r, 0);
	rb_u64(&r, 0xa);
	rb_u64(&r, 0x1);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_CPU_MAP, 0);
	rb_u16(&r, 2);
	r.b[r.len++] = 1;
	r.b[r.len++] = 0;
	rb_u16(&r, 4);
	rb_u16(&r, 6);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_CPU_MAP, 0);	/* mask of u32s: {0, 33} */
	rb_u16(&r, 1);
	rb_u16(&r, 2);
	rb_u16(&r, 4);
	rb_u32(&r, 0x1);
	rb_u32(&r, 0x2);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&r, 0);
	rb_u64(&r, RICH_ID1);
	rb_str(&r, "faults");
	ADD();
	rb_start(&r, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&r, 1);
	rb_u64(&r, RICH_ID1);
	double sc = 0.5;
	rb_put(&r, &sc, 8);
	ADD();
	rb_start(&r, PK_RECORD_EVENT_UPDATE, 0);
	rb_u64(&r, 3);
	rb_u64(&r, RICH_ID1);
	rb_u16(&r, 2);
	r.b[r.len++] = 0;
	r.b[r.len++] = 0;
	rb_u16(&r, 0);
	rb_u16(&r, 1);
	rb_pad8(&r);
	ADD();
	rb_start(&r, PK_RECORD_HEADER_BUILD_ID, PERF_RECORD_MISC_USER);
	rb_u32(&r, 77);
	uint8_t id[24] = { 0 };
	memset(id, 0x5a, 20);
	rb_put(&r, id, 24);
	rb_str(&r, "/usr/bin/app");
	ADD();
	rb_start(&r, PK_RECORD_AUXTRACE_INFO, 0);
	rb_u32x2(&r, 3, 0);
	rb_u64(&r, 0x1234);
	ADD();
	rb_start(&r, PK_RECORD_AUXTRACE, 0);	/* 16 bytes of trace data follow */
	rb_u64(&r, 16);
	rb_u64(&r, 0x100);
	rb_u64(&r, 0x77);
	rb_u32x2(&r, 0, 78);
	rb_u32x2(&r, 1, 0);
	ADD();
	uint8_t trace[16];
	memset(trace, 0xee, 16);
	pk_buf__append(out, trace, 16);
	rb_start(&r, PK_RECORD_STAT_ROUND, 0);
	rb_u64(&r, 1);
	rb_u64(&r, 12345);
	ADD();
	rb_start(&r, PK_RECORD_FINISHED_INIT, 0);
	ADD();
	rb_start(&r, PK_RECORD_FINISHED_ROUND, 0);
	ADD();
	/* samples: 6 of attr 0 and 4 of attr 1, times out of order, then a round */
	static const uint64_t times0[] = { 2000, 1500, 2500, 1800, 3000, 2200 };
	for (uint64_t i = 0; i < 6; i++) {
		rich_sample0(&r, i, times0[i]);
		ADD();
	}
	for (uint64_t i = 0; i < 4; i++) {
		rich_sample1(&r, i, 1600 + 300 * i);
		ADD();
	}
	rb_start(&r, PK_RECORD_FINISHED_ROUND, 0);
	ADD();
#undef ADD
}

/* The whole rich file: attrs (of attr_size bytes, extra past sizeof), features, records. */
TDR void rich_build(struct pk_buf *out, bool pipe, uint32_t attr_size, const uint8_t *extra)
{
	struct syn s = { .pipe = pipe };
	rich_attrs(&s, attr_size, extra);
	rich_features(&s);
	rich_records(&s.data);
	syn_build(&s, out);
	syn_free(&s);
}

#endif
