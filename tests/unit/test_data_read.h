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
	if (nr_ids)
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

#endif
