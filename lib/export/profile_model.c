/* SPDX-License-Identifier: MIT */
/*
 * export/profile_model.c — the in-memory profile (pmukit/profile.h). Strings are
 * interned through util/intern; frames, stack nodes and threads through
 * util/recset, as fixed-size records with dense ids in the order first seen.
 * Samples are kept small: shared records, time steps, columns made when needed.
 */
#include "export/profile_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

#define NO_ID UINT32_MAX

/* Offset + 1 of s in the string store (0 = NULL); -1 on ENOMEM. */
static int64_t str_ref(struct pk_profile *p, const char *s)
{
	if (!s)
		return 0;
	uintptr_t k = (uintptr_t)s;
	struct pk_str_hint *hint = &p->hints[(k ^ (k >> 12) ^ (k >> 24)) & 4095];
	if (hint->ptr == s && !strcmp((const char *)p->strs.buf.data + hint->ref - 1, s))
		return hint->ref;
	long off = pk_intern__add(&p->strs, s, strlen(s), 1);
	if (off < 0)
		return -1;
	*hint = (struct pk_str_hint){ s, (uint32_t)off + 1 };
	return (int64_t)off + 1;
}

const char *pk_profile__str(const struct pk_profile *p, uint32_t ref)
{
	return ref ? (const char *)p->strs.buf.data + ref - 1 : NULL;
}

int pk_profile__new(struct pk_profile **out)
{
	struct pk_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	pk_recset__init(&p->frames, sizeof(struct pk_frame_rec));
	pk_recset__init(&p->nodes, sizeof(struct pk_stack_node));
	pk_recset__init(&p->threads, sizeof(struct pk_thread_rec));
	pk_recset__init(&p->srecs, sizeof(struct pk_sample_rec));
	/* node 0: the empty stack */
	struct pk_stack_node root = { .frame = NO_ID, .parent = NO_ID, .depth = 0 };
	if (pk_recset__add(&p->nodes, &root) != 0) {
		pk_profile__free(p);
		return -ENOMEM;
	}
	*out = p;
	return 0;
}

void pk_profile__free(struct pk_profile *p)
{
	if (!p)
		return;
	pk_intern__free(&p->strs);
	pk_recset__free(&p->frames);
	pk_recset__free(&p->nodes);
	pk_recset__free(&p->threads);
	free(p->stack_slots);
	pk_buf__free(&p->stack_lists);
	free(p->events);
	pk_recset__free(&p->srecs);
	for (size_t c = 0; c < p->nr_chunks; c++) {
		free(p->s_rec16[c]);
		free(p->s_rec32[c]);
		free(p->t_d16[c]);
	}
	free(p->s_rec16);
	free(p->s_rec32);
	free(p->t_d16);
	free(p->t_base);
	free(p->t_c32);
	free(p->t_c64);
	free(p->t_o32);
	free(p->t_full);
	free(p->s_period);
	free(p->s_values);
	free(p->scratch);
	free(p);
}

int pk_profile__add_event(struct pk_profile *p, const struct pk_profile_event *ev)
{
	if (!p || !ev || !ev->name || !*ev->name)
		return -EINVAL;
	if (p->nr_samples)
		return -EBUSY;
	if (p->nr_events >= 0x10000)
		return -E2BIG;
	if (PK_GROW(p->events, p->cap_events, p->nr_events + 1))
		return -ENOMEM;
	struct pk_event_rec *e = p->events;
	int64_t name = str_ref(p, ev->name), unit = str_ref(p, ev->unit ? ev->unit : "count");
	int64_t wunit = str_ref(p, ev->weight_unit);
	if (name < 0 || unit < 0 || wunit < 0)
		return -ENOMEM;
	e[p->nr_events] = (struct pk_event_rec){ .name = (uint32_t)name, .unit = (uint32_t)unit,
		.weight_unit = (uint32_t)wunit, .period = ev->period, .freq = ev->freq };
	return (int)p->nr_events++;
}

static int intern_rec(struct pk_recset *set, const void *rec, uint32_t *id)
{
	int64_t i = pk_recset__add(set, rec);
	if (i < 0)
		return pk_recset__nr(set) >= NO_ID - 2 ? -E2BIG : -ENOMEM;
	*id = (uint32_t)i;
	return 0;
}

int pk_profile__intern_frame(struct pk_profile *p, const struct pk_profile_frame *f, uint32_t *id)
{
	if (!p || !f || !id || f->kind > PK_FRAME_JIT)
		return -EINVAL;
	int64_t name = str_ref(p, f->name && *f->name ? f->name : NULL);
	int64_t dso = str_ref(p, f->dso && *f->dso ? f->dso : NULL);
	int64_t file = str_ref(p, f->file && *f->file ? f->file : NULL);
	if (name < 0 || dso < 0 || file < 0)
		return -ENOMEM;
	struct pk_frame_rec r;
	memset(&r, 0, sizeof(r));	/* padding takes part in the hash */
	r.addr = f->addr;
	r.name = (uint32_t)name;
	r.dso = (uint32_t)dso;
	r.file = (uint32_t)file;
	r.line = f->line;
	r.flags = (uint32_t)f->kind | (f->inlined ? PK_FREC_INLINED : 0);
	return intern_rec(&p->frames, &r, id);
}

static inline const struct pk_stack_node *node(const struct pk_profile *p, uint32_t id)
{
	return pk_profile__node(p, id);
}

int pk_profile__stack_push(struct pk_profile *p, uint32_t parent, uint32_t frame, uint32_t *id)
{
	if (!p || !id || parent >= pk_profile__nr_stacks(p) || frame >= pk_profile__nr_frames(p))
		return -EINVAL;
	struct pk_stack_node n = { .frame = frame, .parent = parent,
		.depth = node(p, parent)->depth + 1 };
	return intern_rec(&p->nodes, &n, id);
}

static uint32_t hash_frames(const uint32_t *f, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	for (size_t i = 0; i < n; i++) {
		h = (h ^ f[i]) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	return (uint32_t)(h ^ (h >> 32));
}

static struct pk_stack_slot *stack_slot(const struct pk_profile *p, const uint32_t *frames,
					size_t n, uint32_t h)
{
	size_t mask = p->nr_stack_slots - 1;
	for (size_t j = h & mask;; j = (j + 1) & mask) {
		struct pk_stack_slot *s = &p->stack_slots[j];
		if (!s->stack || (s->hash == h && s->len == n &&
				  !memcmp((const uint32_t *)p->stack_lists.data + s->off, frames, n * 4)))
			return s;
	}
}

/* Remember a stack; a full or failing cache only costs speed. */
static void stack_remember(struct pk_profile *p, const uint32_t *frames, size_t n, uint32_t h,
			   uint32_t stack)
{
	if (p->stack_lists.len / 4 + n > UINT32_MAX / 2)
		return;
	if ((p->used_stack_slots + 1) * 2 > p->nr_stack_slots) {
		size_t nn = p->nr_stack_slots ? p->nr_stack_slots * 2 : 4096;
		struct pk_stack_slot *ns = calloc(nn, sizeof(*ns));
		if (!ns)
			return;
		for (size_t i = 0; i < p->nr_stack_slots; i++) {
			struct pk_stack_slot *o = &p->stack_slots[i];
			if (!o->stack)
				continue;
			size_t j = o->hash & (nn - 1);
			while (ns[j].stack)
				j = (j + 1) & (nn - 1);
			ns[j] = *o;
		}
		free(p->stack_slots);
		p->stack_slots = ns;
		p->nr_stack_slots = nn;
	}
	long off = pk_buf__append(&p->stack_lists, frames, n * 4);
	if (off < 0)
		return;
	struct pk_stack_slot *s = stack_slot(p, frames, n, h);
	*s = (struct pk_stack_slot){ .hash = h, .stack = stack, .off = (uint32_t)(off / 4),
				     .len = (uint32_t)n };
	p->used_stack_slots++;
}

int pk_profile__intern_stack(struct pk_profile *p, const uint32_t *frames, size_t n, uint32_t *id)
{
	if (!p || !id || (n && !frames))
		return -EINVAL;
	if (!n) {
		*id = 0;
		return 0;
	}
	uint32_t h = hash_frames(frames, n);
	if (p->nr_stack_slots) {
		const struct pk_stack_slot *s = stack_slot(p, frames, n, h);
		if (s->stack) {
			*id = s->stack;
			return 0;
		}
	}
	uint32_t s = 0;
	for (size_t i = n; i-- > 0;) {
		int r = pk_profile__stack_push(p, s, frames[i], &s);
		if (r)
			return r;
	}
	stack_remember(p, frames, n, h, s);
	*id = s;
	return 0;
}

int pk_profile__intern_thread(struct pk_profile *p, int32_t pid, int32_t tid, const char *comm,
			      uint32_t *id)
{
	if (!p || !id)
		return -EINVAL;
	int64_t c = str_ref(p, comm ? comm : "");
	if (c < 0)
		return -ENOMEM;
	struct pk_thread_rec t = { .pid = pid, .tid = tid, .comm = (uint32_t)c };
	return intern_rec(&p->threads, &t, id);
}

/*
 * Sample i's time: the step from the one before in its block while steps fit 16
 * bits; else the block's times become 32-bit offsets from its first, or, when
 * one does not fit (or precedes the first), full times.
 */
static int put_time(struct pk_profile *p, size_t i, uint64_t t)
{
	size_t b = i >> PK_TBLOCK_SHIFT, k = i & (PK_TBLOCK - 1), blk = b << PK_TBLOCK_SHIFT;
	uint16_t *d16 = &p->t_d16[i >> PK_SCHUNK_SHIFT][i & (PK_SCHUNK - 1)];
	*d16 = 0;
	if (!k) {
		if (PK_GROW(p->t_base, p->cap_tbase, b + 1) || PK_GROW(p->t_c32, p->cap_tc32, b + 1) ||
		    PK_GROW(p->t_c64, p->cap_tc64, b + 1))
			return -ENOMEM;
		p->t_base[b] = t;
		p->t_c32[b] = p->t_c64[b] = 0;
	}
	uint64_t base = p->t_base[b];
	if (!p->t_c32[b] && !p->t_c64[b] && k) {
		if (t - p->t_last <= UINT16_MAX) {
			*d16 = (uint16_t)(t - p->t_last);
			goto out;
		}
		size_t c = p->nr_c32;	/* the steps so far add up to less than 2^22 */
		if (c >= UINT32_MAX - 1 || PK_GROW(p->t_o32, p->cap_to32, (c + 1) * PK_TBLOCK))
			return -ENOMEM;
		for (size_t j = 0; j < k; j++)
			p->t_o32[c * PK_TBLOCK + j] = (uint32_t)(pk_profile__s_time(p, blk + j) - base);
		p->t_c32[b] = (uint32_t)(c + 1);
		p->nr_c32 = c + 1;
	}
	if (!p->t_c64[b] && (t - base > UINT32_MAX || (!p->t_c32[b] && k))) {
		size_t c = p->nr_c64;
		if (c >= UINT32_MAX - 1 || PK_GROW(p->t_full, p->cap_tfull, (c + 1) * PK_TBLOCK))
			return -ENOMEM;
		for (size_t j = 0; j < k; j++)
			p->t_full[c * PK_TBLOCK + j] = pk_profile__s_time(p, blk + j);
		p->t_c64[b] = (uint32_t)(c + 1);
		p->nr_c64 = c + 1;
	}
	if (p->t_c64[b])
		p->t_full[(size_t)(p->t_c64[b] - 1) * PK_TBLOCK + k] = t;
	else if (p->t_c32[b])
		p->t_o32[(size_t)(p->t_c32[b] - 1) * PK_TBLOCK + k] = (uint32_t)(t - base);
out:
	p->t_last = t;
	return 0;
}

/* A new chunk of the per-sample columns for sample i (the first of it). */
static int new_chunk(struct pk_profile *p, size_t i)
{
	size_t c = i >> PK_SCHUNK_SHIFT;
	if (c < p->nr_chunks)
		return 0;	/* made for a sample that then failed */
	if (PK_GROW(p->s_rec16, p->cap_rec16, c + 1) || PK_GROW(p->s_rec32, p->cap_rec32, c + 1) ||
	    PK_GROW(p->t_d16, p->cap_td16, c + 1))
		return -ENOMEM;
	p->s_rec16[c] = NULL;
	p->s_rec32[c] = NULL;
	if (pk_recset__nr(&p->srecs) > UINT16_MAX)
		p->s_rec32[c] = malloc(PK_SCHUNK * sizeof(uint32_t));
	else
		p->s_rec16[c] = malloc(PK_SCHUNK * sizeof(uint16_t));
	p->t_d16[c] = malloc(PK_SCHUNK * sizeof(uint16_t));
	if ((!p->s_rec16[c] && !p->s_rec32[c]) || !p->t_d16[c]) {
		free(p->s_rec16[c]);
		free(p->s_rec32[c]);
		free(p->t_d16[c]);
		return -ENOMEM;
	}
	p->nr_chunks = c + 1;
	return 0;
}

/* Sample i's record id: 16 bits while they fit, then its chunk's ids become 32. */
static int put_rec(struct pk_profile *p, size_t i, uint32_t rec)
{
	size_t c = i >> PK_SCHUNK_SHIFT, k = i & (PK_SCHUNK - 1);
	if (!p->s_rec32[c] && rec > UINT16_MAX) {
		uint32_t *r = malloc(PK_SCHUNK * sizeof(*r));
		if (!r)
			return -ENOMEM;
		for (size_t j = 0; j < k; j++)
			r[j] = p->s_rec16[c][j];
		free(p->s_rec16[c]);
		p->s_rec16[c] = NULL;
		p->s_rec32[c] = r;
	}
	if (p->s_rec32[c])
		p->s_rec32[c][k] = rec;
	else
		p->s_rec16[c][k] = (uint16_t)rec;
	return 0;
}

/* The columns a sample needs that the ones before did not: periods, values. */
static int widen(struct pk_profile *p, const struct pk_profile_sample *s, uint32_t ev)
{
	size_t n = p->nr_samples, nev = p->nr_events;
	uint64_t period = s->values ? s->values[ev].count : s->period;
	bool values = s->weight || (s->values && (s->values[ev].weight || nev > 1));
	if (!p->s_values && values) {
		struct pk_profile_value *v = NULL;	/* filled from the columns before it replaces them */
		size_t cap = 0;
		if (pk_grow(&v, &cap, (n + 1) * nev, sizeof(*v)) || !v)
			return -ENOMEM;	/* (nev >= 1: the sample's event is one) */
		for (size_t i = 0; i < n; i++)
			for (uint32_t e = 0; e < nev; e++)
				v[i * nev + e] = pk_profile__s_value(p, i, e);
		p->s_values = v;
		p->cap_values = cap;
	}
	if (!p->s_values && !p->s_period && n && period != p->period0) {
		if (PK_GROW(p->s_period, p->cap_period, n + 1) || !p->s_period)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			p->s_period[i] = p->period0;
	}
	return 0;
}

int pk_profile__add_sample(struct pk_profile *p, const struct pk_profile_sample *s)
{
	if (!p || !s || s->stack >= pk_profile__nr_stacks(p) ||
	    s->thread >= pk_profile__nr_threads(p) || s->event >= p->nr_events)
		return -EINVAL;
	size_t i = p->nr_samples, nev = p->nr_events;
	if (!p->scratch && !(p->scratch = calloc(nev, sizeof(*p->scratch))))
		return -ENOMEM;
	struct pk_sample_rec sr = { .stack = s->stack, .thread = s->thread, .cpu = s->cpu,
				    .event = s->event };
	uint32_t rec;
	int r = intern_rec(&p->srecs, &sr, &rec);
	if (r || (!(i & (PK_SCHUNK - 1)) && new_chunk(p, i)) || put_rec(p, i, rec) || widen(p, s, s->event) || put_time(p, i, s->time))
		return r ? r : -ENOMEM;
	if (!i)
		p->period0 = s->values ? s->values[s->event].count : s->period;
	if (p->s_values) {
		if (pk_grow(&p->s_values, &p->cap_values, (i + 1) * nev, sizeof(*p->s_values)))
			return -ENOMEM;
		struct pk_profile_value *v = p->s_values + i * nev;
		if (s->values) {
			memcpy(v, s->values, nev * sizeof(*v));
		} else {
			memset(v, 0, nev * sizeof(*v));
			v[s->event].count = s->period;
			v[s->event].weight = s->weight;
		}
	} else if (p->s_period) {
		if (PK_GROW(p->s_period, p->cap_period, i + 1))
			return -ENOMEM;
		p->s_period[i] = s->values ? s->values[s->event].count : s->period;
	}
	p->nr_samples = i + 1;
	return 0;
}

void pk_profile__set_clock(struct pk_profile *p, uint64_t perf_ns, uint64_t wall_ns)
{
	p->clock_perf = perf_ns;
	p->clock_wall = wall_ns;
	p->has_clock = true;
}

uint64_t pk_profile__wall_time(const struct pk_profile *p, uint64_t t)
{
	if (!p->has_clock)
		return 0;
	return p->clock_wall + (t - p->clock_perf);	/* modular: t may precede the reference */
}

size_t pk_profile__nr_events(const struct pk_profile *p) { return p->nr_events; }
size_t pk_profile__nr_frames(const struct pk_profile *p) { return pk_recset__nr(&p->frames); }
size_t pk_profile__nr_stacks(const struct pk_profile *p) { return pk_recset__nr(&p->nodes); }
size_t pk_profile__nr_threads(const struct pk_profile *p) { return pk_recset__nr(&p->threads); }
size_t pk_profile__nr_samples(const struct pk_profile *p) { return p->nr_samples; }

int pk_profile__event(const struct pk_profile *p, size_t idx, struct pk_profile_event *ev)
{
	if (!p || !ev || idx >= p->nr_events)
		return -EINVAL;
	const struct pk_event_rec *e = &p->events[idx];
	*ev = (struct pk_profile_event){ .name = pk_profile__str(p, e->name),
		.unit = pk_profile__str(p, e->unit), .period = e->period, .freq = e->freq,
		.weight_unit = pk_profile__str(p, e->weight_unit) };
	return 0;
}

int pk_profile__find_event(const struct pk_profile *p, const char *name)
{
	for (size_t i = 0; p && name && i < p->nr_events; i++)
		if (!strcmp(pk_profile__str(p, p->events[i].name), name))
			return (int)i;
	return -1;
}

const struct pk_frame_rec *pk_profile__frame_rec(const struct pk_profile *p, uint32_t id)
{
	return (const struct pk_frame_rec *)pk_recset__get(&p->frames, id);
}

int pk_profile__frame(const struct pk_profile *p, uint32_t id, struct pk_profile_frame *f)
{
	if (!p || !f || id >= pk_profile__nr_frames(p))
		return -EINVAL;
	const struct pk_frame_rec *r = pk_profile__frame_rec(p, id);
	*f = (struct pk_profile_frame){ .name = pk_profile__str(p, r->name),
		.dso = pk_profile__str(p, r->dso), .file = pk_profile__str(p, r->file),
		.line = r->line, .inlined = !!(r->flags & PK_FREC_INLINED),
		.kind = (enum pk_frame_kind)(r->flags & PK_FREC_KIND), .addr = r->addr };
	return 0;
}

const struct pk_thread_rec *pk_profile__thread_rec(const struct pk_profile *p, uint32_t id)
{
	return (const struct pk_thread_rec *)pk_recset__get(&p->threads, id);
}

int pk_profile__thread(const struct pk_profile *p, uint32_t id, struct pk_profile_thread *t)
{
	if (!p || !t || id >= pk_profile__nr_threads(p))
		return -EINVAL;
	const struct pk_thread_rec *r = pk_profile__thread_rec(p, id);
	*t = (struct pk_profile_thread){ .pid = r->pid, .tid = r->tid,
		.comm = pk_profile__str(p, r->comm) };
	return 0;
}

uint32_t pk_profile__stack_frame(const struct pk_profile *p, uint32_t stack)
{
	return stack && stack < pk_profile__nr_stacks(p) ? node(p, stack)->frame : NO_ID;
}

uint32_t pk_profile__stack_parent(const struct pk_profile *p, uint32_t stack)
{
	return stack && stack < pk_profile__nr_stacks(p) ? node(p, stack)->parent : 0;
}

uint32_t pk_profile__stack_depth(const struct pk_profile *p, uint32_t stack)
{
	return stack < pk_profile__nr_stacks(p) ? node(p, stack)->depth : 0;
}

size_t pk_profile__stack_frames(const struct pk_profile *p, uint32_t stack, uint32_t *buf, size_t n)
{
	if (stack >= pk_profile__nr_stacks(p))
		return 0;
	size_t i = 0;
	for (; stack; stack = node(p, stack)->parent, i++)
		if (i < n)
			buf[i] = node(p, stack)->frame;
	return i;
}

int pk_profile__sample(const struct pk_profile *p, size_t idx, struct pk_profile_sample *s)
{
	if (!p || !s || idx >= p->nr_samples)
		return -EINVAL;
	const struct pk_sample_rec *r = pk_profile__srec(p, idx);
	const struct pk_profile_value *v = p->s_values ? p->s_values + idx * p->nr_events : p->scratch;
	if (!p->s_values) {
		memset(p->scratch, 0, p->nr_events * sizeof(*p->scratch));
		p->scratch[r->event].count = p->s_period ? p->s_period[idx] : p->period0;
	}
	*s = (struct pk_profile_sample){ .stack = r->stack, .thread = r->thread, .cpu = r->cpu,
		.event = r->event, .time = pk_profile__s_time(p, idx),
		.period = v[r->event].count, .weight = v[r->event].weight, .values = v };
	return 0;
}

int pk_profile__total(const struct pk_profile *p, size_t event, struct pk_profile_total *t)
{
	if (!p || !t || event >= p->nr_events)
		return -EINVAL;
	*t = (struct pk_profile_total){ 0 };
	for (size_t i = 0; i < p->nr_samples; i++) {
		struct pk_profile_value v = pk_profile__s_value(p, i, (uint32_t)event);
		t->samples += pk_profile__srec(p, i)->event == event;
		t->count += v.count;
		t->weight += v.weight;
	}
	return 0;
}
