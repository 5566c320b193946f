/* SPDX-License-Identifier: MIT */
/*
 * annotate.c — perf annotate's collection: every sample of a session added
 * to its event's totals and, when it has a symbol, to that symbol's
 * histogram (the rip and period of each sample); the symbols of an event in
 * perf annotate's order (period, then the DSO's short name and the symbol's
 * name, as its "dso,symbol" sort keys break ties).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/annotate.h>

#include "annotate_int.h"
#include "annotate_priv.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"
#include "session/session_lib.h"

int pk_annotate__new(struct pk_annotate **out, struct pk_session *s,
		     const struct pk_annotate_opts *opts, struct pk_error *err)
{
	*out = NULL;
	struct pk_annotate *a = calloc(1, sizeof(*a));
	if (!a)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	a->opts.sz = sizeof(a->opts);
	if (pk_opts__load(&a->opts, sizeof(a->opts), opts)) {
		free(a);
		return pk_opts__error(err, "pk_annotate_opts", opts ? opts->sz : 0);
	}
	a->s = s;
	*out = a;
	return 0;
}

void pk_annotate__free(struct pk_annotate *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr_entries; i++) {
		free(a->entries[i].hits);
		pk_u64map__free(&a->entries[i].by_addr);
		free(a->entries[i].at);
		free(a->entries[i].ev);
	}
	free(a->entries);
	free(a->totals);
	free(a->order);
	pk_u64map__free(&a->by_sym);
	pk_u64map__free(&a->read_prev);
	free(a->kwait);
	free(a->agg.v);
	free(a->agg.used);
	for (size_t i = 0; i < a->nr_objs; i++) {
		ann_objfile__free(a->objs[i].obj);
		free(a->objs[i].path);
	}
	free(a);
}

static int grow_attrs(struct pk_annotate *a, size_t nr)
{
	if (nr <= a->nr_attrs)
		return 0;
	struct ann_counts *t = realloc(a->totals, nr * sizeof(*t));
	if (!t)
		return -ENOMEM;
	memset(t + a->nr_attrs, 0, (nr - a->nr_attrs) * sizeof(*t));
	a->totals = t;
	for (size_t i = 0; i < a->nr_entries; i++) {
		struct ann_counts *e = realloc(a->entries[i].ev, nr * sizeof(*e));
		if (!e)
			return -ENOMEM;
		memset(e + a->nr_attrs, 0, (nr - a->nr_attrs) * sizeof(*e));
		a->entries[i].ev = e;
	}
	a->nr_attrs = nr;
	return 0;
}

static bool dso_listed(const char *list, struct pk_dso *d)
{
	const char *sn = pk_dso__short_name(d), *ln = pk_dso__name(d);
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if ((strlen(sn) == n && !strncmp(p, sn, n)) || (strlen(ln) == n && !strncmp(p, ln, n)))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static struct ann_entry *entry_of(struct pk_annotate *a, struct pk_dso *dso, const struct pk_sym *sym)
{
	if (a->nr_entries && a->last_sym == sym)	/* samples come in runs */
		return &a->entries[a->last_entry];
	uint64_t *v = pk_u64map__find(&a->by_sym, (uint64_t)(uintptr_t)sym);
	if (v) {
		a->last_sym = sym;
		a->last_entry = (size_t)*v;
		return &a->entries[*v];
	}
	if (PK_GROW(a->entries, a->cap_entries, a->nr_entries + 1))
		return NULL;
	struct ann_entry *e = &a->entries[a->nr_entries];
	memset(e, 0, sizeof(*e));
	e->dso = dso;
	e->sym = sym;
	if (!(e->ev = calloc(a->nr_attrs ? a->nr_attrs : 1, sizeof(*e->ev))))
		return NULL;
	if (pk_u64map__set(&a->by_sym, (uint64_t)(uintptr_t)sym, a->nr_entries)) {
		free(e->ev);
		return NULL;
	}
	a->last_sym = sym;
	a->last_entry = a->nr_entries++;
	a->sorted_for = -1;
	/* its source lines are read on a worker while the samples still are */
	if (!(a->opts.flags & PK_ANNOTATE_NO_SOURCE))
		pk_session__prefetch_srcline(a->s, dso, sym->start);
	return e;
}

/* an address's offset in its symbol, when the symbol is small enough to index directly; else -1 */
static int64_t hit_off(const struct ann_entry *e, uint64_t addr)
{
	uint64_t size = e->sym->end - e->sym->start;
	return e->sym->end > e->sym->start && size <= ANN_DIRECT_MAX && addr >= e->sym->start &&
	       addr < e->sym->end ? (int64_t)(addr - e->sym->start) : -1;
}

/* one entry's addresses share their top byte: the event goes there */
static uint64_t hit_key(uint64_t addr, int attr)
{
	return addr ^ ((uint64_t)attr << 56);
}

static struct ann_hit *find_hit(struct ann_entry *e, uint64_t addr, int64_t off, int attr)
{
	if (off >= 0 && e->at && e->at[off] && e->hits[e->at[off] - 1].attr == attr)
		return &e->hits[e->at[off] - 1];	/* the common case: no hashing */
	uint64_t *ix = pk_u64map__find(&e->by_addr, hit_key(addr, attr));
	struct ann_hit *h = ix ? &e->hits[*ix] : NULL;
	return h && h->rip == addr && h->attr == attr ? h : NULL;
}

static struct ann_hit *new_hit(struct ann_entry *e, uint64_t addr, int64_t off, int attr)
{
	if (off >= 0 && !e->at &&
	    !(e->at = calloc((size_t)(e->sym->end - e->sym->start), sizeof(*e->at))))
		return NULL;
	if (PK_GROW(e->hits, e->cap_hits, e->nr_hits + 1))
		return NULL;
	if (off >= 0 && !e->at[off]) {
		e->at[off] = (uint32_t)e->nr_hits + 1;
	} else {
		uint64_t key = hit_key(addr, attr);
		if (!pk_u64map__find(&e->by_addr, key) && pk_u64map__set(&e->by_addr, key, e->nr_hits))
			return NULL;
	}
	struct ann_hit *h = &e->hits[e->nr_hits++];
	*h = (struct ann_hit){ .rip = addr, .attr = attr };
	return h;
}

/*
 * nr samples of event attr at l: their period, and the sum of the weights of
 * the nr_weighted of them that have one
 */
static int add_counts(struct pk_annotate *a, const struct pk_loc *l, int attr, uint64_t nr,
		      uint64_t period, uint64_t weight, uint64_t nr_weighted)
{
	if (grow_attrs(a, (size_t)attr + 1))
		return -ENOMEM;
	/* perf 6.1 drops the samples of other symbols (and those without one) with a filter */
	if (a->opts.symbol && (!l->sym || strcmp(l->sym->name, a->opts.symbol)))
		return 0;
	if (a->opts.dsos && (!l->dso || !dso_listed(a->opts.dsos, l->dso)))
		return 0;
	struct ann_counts *t = &a->totals[attr];
	t->nr_samples += nr;
	t->period += period;
	if (!l->sym || !l->dso || l->sym->inlined)
		return 0;
	struct ann_entry *e = entry_of(a, l->dso, l->sym);
	if (!e)
		return -ENOMEM;
	int64_t off = hit_off(e, l->addr);
	struct ann_hit *h = find_hit(e, l->addr, off, attr);
	if (!h && !(h = new_hit(e, l->addr, off, attr)))
		return -ENOMEM;
	h->period += period;
	h->nr_samples += nr;
	h->weight += weight;
	h->nr_weighted += nr_weighted;
	e->ev[attr].nr_samples += nr;
	e->ev[attr].period += period;
	return 0;
}

static bool has_weight(uint64_t sample_type)
{
	return sample_type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT);
}

static int add_one(struct pk_annotate *a, const struct pk_resolved *rs, int attr, uint64_t period)
{
	const struct pk_sample *smp = rs->sample;
	/* a weight counts on the sample's own event */
	bool weighted = attr == rs->attr && has_weight(smp->sample_type);
	return add_counts(a, rs->loc, attr, 1, period, weighted ? smp->weight : 0, weighted);
}

int pk_annotate__add(struct pk_annotate *a, const struct pk_resolved *rs)
{
	const struct pk_sample *smp = rs->sample;
	if (rs->attr < 0)
		return 0;
	if (!(smp->sample_type & PERF_SAMPLE_READ))
		return add_one(a, rs, rs->attr, smp->period);
	/* perf's deliver_sample_value: each value's delta since its id's last sample */
	const struct pk_sample_read *rd = &smp->read;
	size_t nr = (rd->read_format & PERF_FORMAT_GROUP) ? rd->nr : 1;
	for (size_t i = 0; i < nr; i++) {
		struct pk_sample_read_value v = pk_sample_read__value(rd, i);
		int attr = pk_session__attr_of_id(a->s, v.id);
		if (attr < 0)
			continue;
		uint64_t *prev = pk_u64map__find(&a->read_prev, v.id);
		uint64_t delta = v.value - (prev ? *prev : 0);
		if (pk_u64map__set(&a->read_prev, v.id, v.value))
			return -ENOMEM;
		int rc = delta ? add_one(a, rs, attr, delta) : 0;
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Kernel samples whose map's symbols are still loading are kept for later
 * (with their map as it is now: the maps may change after them), so that a
 * flush need not wait for /proc/kallsyms. Not those whose address is in no
 * map yet (the kernel map's end is fixed up from the symbols).
 */
static int kwait_keep(struct pk_annotate *a, const struct ann_agg_slot *sl, bool *kept)
{
	*kept = false;
	if (sl->cpumode != PERF_RECORD_MISC_KERNEL || pk_dso__loaded(pk_session__kernel_dso(a->s)))
		return 0;	/* the kernel's symbols are there: no map lookup on this path */
	const struct pk_map *m = pk_session__find_map(a->s, NULL, PERF_RECORD_MISC_KERNEL, sl->ip);
	if (!m || !m->dso || pk_dso__loaded(m->dso))
		return 0;
	if (PK_GROW(a->kwait, a->cap_kwait, a->nr_kwait + 1))
		return -ENOMEM;
	a->kwait[a->nr_kwait++] = (struct ann_kwait){ .map = m, .ip = sl->ip, .nr_samples = sl->nr_samples,
						      .period = sl->period, .weight = sl->weight,
						      .sample_type = sl->sample_type, .attr = sl->attr };
	*kept = true;
	return 0;
}

/* The kept kernel samples, each as its resolution would have been when it came. */
static int kwait_flush(struct pk_annotate *a)
{
	for (size_t i = 0; i < a->nr_kwait; i++) {
		const struct ann_kwait *k = &a->kwait[i];
		struct pk_loc l = { .ip = k->ip, .addr = pk_map__map_ip(k->map, k->ip), .map = k->map,
				    .dso = k->map->dso, .cpumode = PERF_RECORD_MISC_KERNEL,
				    .level = 'k' };
		l.sym = pk_dso__find(l.dso, l.addr);
		int rc = add_counts(a, &l, k->attr, k->nr_samples, k->period, k->weight,
				    has_weight(k->sample_type) ? k->nr_samples : 0);
		if (rc)
			return rc;
	}
	a->nr_kwait = 0;
	return 0;
}

#define AGG_MIN_SLOTS	(1u << 12)
#define AGG_MAX_SLOTS	(1u << 16)	/* a table this full is flushed, not grown (3.5 MiB) */

static size_t agg_hash(uint64_t ip, int32_t tid, int attr, uint8_t cpumode)
{
	uint64_t x = ip ^ ((uint64_t)(uint32_t)tid << 40) ^ ((uint64_t)(uint32_t)attr << 20) ^ cpumode;
	x *= UINT64_C(0x9e3779b97f4a7c15);
	return (size_t)(x ^ (x >> 31));
}

/* The slot of a key (taken when new); the table has room (agg_room). */
static struct ann_agg_slot *agg_slot(struct ann_agg *g, uint64_t ip, int32_t pid, int32_t tid, int attr,
				     uint8_t cpumode)
{
	size_t mask = g->cap - 1;
	for (size_t i = agg_hash(ip, tid, attr, cpumode) & mask;; i = (i + 1) & mask) {
		struct ann_agg_slot *sl = &g->v[i];
		if (!sl->used) {
			*sl = (struct ann_agg_slot){ .ip = ip, .pid = pid, .tid = tid, .attr = attr,
						     .cpumode = cpumode, .used = 1 };
			g->used[g->nr++] = (uint32_t)i;
			return sl;
		}
		if (sl->ip == ip && sl->tid == tid && sl->pid == pid && sl->attr == attr && sl->cpumode == cpumode)
			return sl;
	}
}

/* Room for one more key (at most half the slots taken): 0, 1 when the table must be flushed, or -ENOMEM. */
static int agg_room(struct ann_agg *g)
{
	if (g->cap && g->nr < g->cap / 2)
		return 0;
	if (g->cap >= AGG_MAX_SLOTS)
		return 1;
	struct ann_agg old = *g;
	size_t cap = g->cap ? g->cap * 2 : AGG_MIN_SLOTS;
	struct ann_agg n = { .v = calloc(cap, sizeof(*n.v)), .used = malloc(cap / 2 * sizeof(*n.used)),
			     .cap = cap };
	if (!n.v || !n.used) {
		free(n.v);
		free(n.used);
		return -ENOMEM;
	}
	for (size_t i = 0; i < old.nr; i++) {
		const struct ann_agg_slot *o = &old.v[old.used[i]];
		struct ann_agg_slot *sl = agg_slot(&n, o->ip, o->pid, o->tid, o->attr, o->cpumode);
		*sl = *o;
	}
	free(old.v);
	free(old.used);
	*g = n;
	return 0;
}

/* One summed key: its thread and location now, its counts added (or kept: kwait_keep). */
static int agg_resolve(struct pk_annotate *a, const struct ann_agg_slot *sl, bool final)
{
	bool kept = false;
	if (!final && kwait_keep(a, sl, &kept))
		return -ENOMEM;
	if (kept)
		return 0;
	const struct pk_thread *t = pk_session__thread(a->s, sl->pid, sl->tid);
	const struct pk_loc *l = t ? pk_session__loc(a->s, t, sl->cpumode, sl->ip) : NULL;
	if (!l)
		return -ENOMEM;
	return add_counts(a, l, sl->attr, sl->nr_samples, sl->period, sl->weight,
			  has_weight(sl->sample_type) ? sl->nr_samples : 0);
}

/*
 * Every summed key resolved (before the session's threads or maps change,
 * or at the end: final), and the kept kernel samples once their symbols are
 * there (at the end, waiting for them).
 */
static int agg_flush(struct pk_annotate *a, bool final)
{
	struct ann_agg *g = &a->agg;
	int rc = 0;
	if (a->nr_kwait && (final || pk_dso__loaded(a->kwait[0].map->dso)))
		rc = kwait_flush(a);
	for (size_t i = 0; i < g->nr; i++) {
		struct ann_agg_slot *sl = &g->v[g->used[i]];
		if (!rc)
			rc = agg_resolve(a, sl, final);
		sl->used = 0;
	}
	g->nr = 0;
	if (!rc && final && a->nr_kwait)
		rc = kwait_flush(a);
	return rc;
}

/*
 * A sample: summed with those of its key; one with PERF_SAMPLE_READ values
 * (deltas per id: not summed by key) or none decoded is resolved now.
 */
static int add_sample(struct pk_annotate *a, const struct pk_data_event *ev, struct pk_resolved *rs,
		      struct pk_error *err)
{
	const struct pk_sample *smp = &ev->sample;
	if (ev->attr < 0 || !ev->has_sample || (smp->sample_type & PERF_SAMPLE_READ)) {
		int rc = pk_session__resolve(a->s, ev, 0, rs, err);
		if (!rc && (rc = pk_annotate__add(a, rs)))
			return pk_error__set(err, rc, "", 0, 0, "out of memory");
		return rc;
	}
	int rc = agg_room(&a->agg);
	if (rc > 0 && !(rc = agg_flush(a, false)))
		rc = agg_room(&a->agg);
	if (rc)
		return rc == -ENOMEM ? pk_error__set(err, rc, "", 0, 0, "out of memory") : rc;
	struct ann_agg_slot *sl = agg_slot(&a->agg, smp->ip, smp->pid, smp->tid, ev->attr,
					   ev->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	sl->sample_type = smp->sample_type;
	sl->nr_samples++;
	sl->period += smp->period;
	sl->weight += has_weight(smp->sample_type) ? smp->weight : 0;
	return 0;
}

int pk_annotate__process(struct pk_annotate *a, struct pk_error *err)
{
	const struct pk_data_event *ev;
	struct pk_resolved rs = { .sz = sizeof(rs) };	/* resolve sets every field */
	int rc;
	while ((rc = session__read(a->s, &ev, err)) > 0) {
		rc = 0;
		if (ev->type == PERF_RECORD_SAMPLE)
			rc = add_sample(a, ev, &rs, err);
		else if (session__changes_maps(ev->type) && agg_flush(a, false))
			rc = pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
		if (rc || (rc = session__apply(a->s, ev, err)))
			return rc;
	}
	if (!rc && agg_flush(a, true))
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	return rc;
}

uint64_t pk_annotate__total_samples(const struct pk_annotate *a, int attr)
{
	return attr >= 0 && (size_t)attr < a->nr_attrs ? a->totals[attr].nr_samples : 0;
}

uint64_t pk_annotate__total_period(const struct pk_annotate *a, int attr)
{
	return attr >= 0 && (size_t)attr < a->nr_attrs ? a->totals[attr].period : 0;
}

static int cmp_order(const void *x, const void *y, void *ctx)
{
	const struct pk_annotate *a = ctx;
	const struct ann_entry *l = &a->entries[*(const size_t *)x], *r = &a->entries[*(const size_t *)y];
	/* the leader's period (perf annotate does not sort by the members' too) */
	uint64_t pl = l->ev[a->sorted_for].period, pr = r->ev[a->sorted_for].period;
	if (pl != pr)
		return pl > pr ? -1 : 1;
	if (l->dso != r->dso) {
		/* perf -v's dso sort key compares the long names */
		int c = a->opts.flags & PK_ANNOTATE_LONG_DSO_ORDER
			? strcmp(pk_dso__name(l->dso), pk_dso__name(r->dso))
			: strcmp(pk_dso__short_name(l->dso), pk_dso__short_name(r->dso));
		if (c)
			return c;
	}
	/* perf's symbol sort key orders by name (sort__sym_sort) */
	int c = strcmp(l->sym->name, r->sym->name);
	if (c)
		return c;
	return l->sym->start < r->sym->start ? -1 : l->sym->start > r->sym->start;
}

static int sort_for(struct pk_annotate *a, int attr, int nr)
{
	if (a->sorted_for == attr && a->sorted_nr == nr)
		return 0;
	size_t *o = realloc(a->order, (a->nr_entries ? a->nr_entries : 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	a->order = o;
	a->nr_order = 0;
	/* perf annotates the leader's symbols: a symbol only members sampled is left out */
	for (size_t i = 0; i < a->nr_entries; i++)
		if (a->entries[i].ev[attr].nr_samples)
			o[a->nr_order++] = i;
	a->sorted_for = attr;
	a->sorted_nr = nr;
	qsort_r(o, a->nr_order, sizeof(*o), cmp_order, a);
	return 0;
}

size_t pk_annotate__nr_group_entries(struct pk_annotate *a, int leader, int nr)
{
	if (leader < 0 || nr < 1 || (size_t)leader + (size_t)nr > a->nr_attrs || sort_for(a, leader, nr))
		return 0;
	return a->nr_order;
}

size_t pk_annotate__nr_entries(struct pk_annotate *a, int attr)
{
	return pk_annotate__nr_group_entries(a, attr, 1);
}

int pk_annotate__group_entry(struct pk_annotate *a, int leader, int nr, size_t i,
			     struct pk_annotate_entry *out)
{
	if (i >= pk_annotate__nr_group_entries(a, leader, nr) || !out || out->sz < sizeof(size_t))
		return -EINVAL;
	int attr = leader;
	const struct ann_entry *e = &a->entries[a->order[i]];
	struct pk_annotate_entry r = {
		.sz = sizeof(r), .dso = e->dso, .sym = e->sym,
		.nr_samples = e->ev[attr].nr_samples, .period = e->ev[attr].period,
	};
	return pk_opts__fill(out, &r, sizeof(r));
}

int pk_annotate__entry(struct pk_annotate *a, int attr, size_t i, struct pk_annotate_entry *out)
{
	return pk_annotate__group_entry(a, attr, 1, i, out);
}
