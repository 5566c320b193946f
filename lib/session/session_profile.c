/* SPDX-License-Identifier: MIT */
/*
 * session/session_profile.c — a session's samples as a pmukit/profile.h profile,
 * for the exporters: events from the attrs, threads with the comm perf
 * script shows, frames named as perf script names them (symbol, DSO path,
 * kernel/JIT kind), stacks leaf first as perf script prints them. Each
 * location's frames are computed once and kept by location id, so a sample
 * costs a stack walk over ids.
 */
#include "session/session_int.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <pmukit/profile.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

struct thr_cache {
	int32_t pid, tid;
	uint32_t id;
	bool set;
};

struct fill {
	struct pk_session *s;
	struct pk_profile *p;
	unsigned flags;
	/* per loc id: frames in pool[first .. first + nr), first + 1 stored (0: not yet) */
	uint32_t *first, *nr;
	size_t cap_locs;
	uint32_t *pool;
	size_t nr_pool, cap_pool;
	int *event_of_attr;		/* profile event of each attr, -1: none */
	size_t nr_attrs;
	bool events_done;
	uint32_t *stack;
	size_t cap_stack;
	struct thr_cache thr[64];	/* by tid: its last thread */
};

static bool is_dummy(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

/* Every attr known at the first sample becomes an event (the profile wants them first). */
static int add_events(struct fill *f)
{
	struct pk_data_reader *r = f->s->r;
	size_t n = pk_data_reader__nr_attrs(r);
	f->event_of_attr = malloc((n ? n : 1) * sizeof(*f->event_of_attr));
	if (!f->event_of_attr)
		return -ENOMEM;
	f->nr_attrs = n;
	for (size_t i = 0; i < n; i++) {
		const struct perf_event_attr *a = &pk_data_reader__attr(r, i)->attr;
		f->event_of_attr[i] = -1;
		if (is_dummy(a))
			continue;
		bool clock = a->type == PERF_TYPE_SOFTWARE &&
			     (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
		struct pk_profile_event ev = {
			.name = pk_session__event_name(f->s, (int)i),
			.unit = clock ? "nanoseconds" : "count",
			.period = a->freq ? 0 : a->sample_period,
			.freq = a->freq ? a->sample_freq : 0,
			.weight_unit = (a->sample_type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
					       ? "cycles" : NULL,
		};
		int idx = pk_profile__add_event(f->p, &ev);
		if (idx < 0)
			return idx;
		f->event_of_attr[i] = idx;
	}
	const struct pk_data_env *env = pk_data_reader__env(r);
	if (env && env->has_clock_data)
		pk_profile__set_clock(f->p, env->clock_clockid_ns, env->clock_tod_ns);
	f->events_done = true;
	return 0;
}

/* The frames of a loc (innermost first), computed once. */
static int loc_frames(struct fill *f, const struct pk_loc *l, const uint32_t **out, uint32_t *nout)
{
	if (l->id >= f->cap_locs) {	/* two arrays, one capacity: the same policy, the same size */
		size_t cap_first = f->cap_locs, cap_nr = f->cap_locs;
		if (PK_GROW(f->first, cap_first, (size_t)l->id + 1) ||
		    PK_GROW(f->nr, cap_nr, (size_t)l->id + 1))
			return -ENOMEM;
		size_t ncap = cap_first < cap_nr ? cap_first : cap_nr;
		memset(f->first + f->cap_locs, 0, (ncap - f->cap_locs) * sizeof(*f->first));
		f->cap_locs = ncap;
	}
	if (!f->first[l->id]) {
		struct pk_srcline inl = { .sz = sizeof(inl) };
		if ((f->flags & (PK_PROFILE_INLINE | PK_PROFILE_SRCLINE)) && l->sym)
			(void)pk_session__loc_inlines(f->s, l, &inl);
		size_t ninl = (f->flags & PK_PROFILE_INLINE) && inl.nr_frames > 1 ? inl.nr_frames - 1 : 0;
		if (PK_GROW(f->pool, f->cap_pool, f->nr_pool + ninl + 1))
			return -ENOMEM;
		uint32_t first = (uint32_t)f->nr_pool;
		const char *dso = l->map && l->dso ? pk_dso__name(l->dso) : NULL;
		enum pk_frame_kind kind = PK_FRAME_USER;
		if (l->map && l->map->kernel)
			kind = PK_FRAME_KERNEL;
		else if (l->dso && pk_dso__kind(l->dso) == PK_DSO_PERF_MAP)
			kind = PK_FRAME_JIT;
		for (size_t i = 0; i < ninl; i++) {
			const struct pk_srcline_frame *fr = &inl.frames[i];
			struct pk_profile_frame pf = { .name = fr->func, .dso = dso, .file = fr->file,
						       .line = fr->line, .inlined = true, .kind = kind,
						       .addr = l->sym->start };
			if (pk_profile__intern_frame(f->p, &pf, &f->pool[f->nr_pool++]))
				return -ENOMEM;
		}
		/* one frame per symbol; an address without one is its own frame */
		uint64_t shown = l->map && !l->map->kernel ? l->addr : l->ip;
		struct pk_profile_frame pf = { .name = l->sym ? l->sym->name : NULL, .dso = dso,
					       .kind = kind, .addr = l->sym ? l->sym->start : shown,
					       /* an unwound frame's inline frame, as perf script shows it */
					       .inlined = l->sym && l->sym->inlined };
		if ((f->flags & PK_PROFILE_SRCLINE) && inl.nr_frames) {
			const struct pk_srcline_frame *outer = &inl.frames[inl.nr_frames - 1];
			pf.file = outer->file;
			pf.line = outer->line;
		}
		if (pk_profile__intern_frame(f->p, &pf, &f->pool[f->nr_pool++]))
			return -ENOMEM;
		f->first[l->id] = first + 1;
		f->nr[l->id] = (uint32_t)(f->nr_pool - first);
	}
	assert(f->pool);	/* every location's frames are in it */
	*out = f->pool + f->first[l->id] - 1;
	*nout = f->nr[l->id];
	return 0;
}

/* The sample's thread: the one its tid had last when pid and comm are the same. */
static int fill_thread(struct fill *f, const struct pk_resolved *rs, uint32_t *id)
{
	const struct pk_sample *smp = rs->sample;
	const char *comm = rs->comm ? rs->comm : "";
	struct thr_cache *c = &f->thr[(uint32_t)smp->tid & 63];
	struct pk_profile_thread t;
	if (c->set && c->pid == smp->pid && c->tid == smp->tid && !pk_profile__thread(f->p, c->id, &t) &&
	    !strcmp(t.comm, comm)) {
		*id = c->id;
		return 0;
	}
	if (pk_profile__intern_thread(f->p, smp->pid, smp->tid, rs->comm, id))
		return -ENOMEM;
	c->pid = smp->pid;
	c->tid = smp->tid;
	c->id = *id;
	c->set = true;
	return 0;
}

static int add_sample(struct fill *f, const struct pk_resolved *rs)
{
	if (!f->events_done && add_events(f))
		return -ENOMEM;
	if ((size_t)rs->attr >= f->nr_attrs || f->event_of_attr[rs->attr] < 0)
		return 0;	/* an attr that arrived after the samples began, or a dummy */
	const struct pk_sample *smp = rs->sample;
	size_t n = 0;
	const struct pk_loc *one = rs->loc;
	const struct pk_loc *const *chain = rs->nr_chain ? rs->chain : &one;
	size_t nchain = rs->nr_chain ? rs->nr_chain : 1;
	if ((smp->sample_type & PERF_SAMPLE_CALLCHAIN) && !rs->nr_chain)
		nchain = 0;	/* a recorded but empty (or discarded) callchain */
	for (size_t i = 0; i < nchain; i++) {
		const uint32_t *fr;
		uint32_t nfr;
		if (loc_frames(f, chain[i], &fr, &nfr) || PK_GROW(f->stack, f->cap_stack, n + nfr))
			return -ENOMEM;
		if (nfr)	/* fr (and the stack) may be NULL then */
			memcpy(f->stack + n, fr, nfr * sizeof(*fr));
		n += nfr;
	}
	uint32_t stack, thread;
	if (pk_profile__intern_stack(f->p, f->stack, n, &stack) || fill_thread(f, rs, &thread))
		return -ENOMEM;
	struct pk_profile_sample ps = {
		.stack = stack, .thread = thread, .cpu = smp->cpu,
		.event = (uint32_t)f->event_of_attr[rs->attr],
		.time = smp->time == UINT64_MAX ? 0 : smp->time, .period = smp->period,
		.weight = smp->weight,
	};
	return pk_profile__add_sample(f->p, &ps);
}

int pk_session__fill_profile(struct pk_session *s, struct pk_profile *p,
			     const struct pk_session_profile_opts *opts, struct pk_error *err)
{
	struct fill f = { .s = s, .p = p };
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_session_profile_opts", opts->sz);
	f.flags = PK_OPTS_GET(opts, flags, 0u);
	const struct pk_data_event *ev;
	struct pk_resolved rs = { .sz = sizeof(rs) };
	int rc;
	while ((rc = pk_session__next(s, &ev, err)) > 0) {
		if (ev->type != PERF_RECORD_SAMPLE || ev->attr < 0)
			continue;
		uint8_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		if (mode == PERF_RECORD_MISC_GUEST_KERNEL || mode == PERF_RECORD_MISC_GUEST_USER)
			continue;
		if ((rc = pk_session__resolve(s, ev, PK_RESOLVE_CALLCHAIN, &rs, err)))
			break;
		if ((rc = add_sample(&f, &rs))) {
			pk_error__set(err, rc, "", 0, 0, "offset %#llx: %s", (unsigned long long)ev->offset,
				      rc == -ENOMEM ? "out of memory" : "the profile refused a sample");
			break;
		}
	}
	if (!rc && !f.events_done)
		rc = add_events(&f);	/* no samples: the events still describe the file */
	free(f.first);
	free(f.nr);
	free(f.pool);
	free(f.event_of_attr);
	free(f.stack);
	return rc < 0 ? rc : 0;
}
