/* SPDX-License-Identifier: MIT */
/*
 * report/replay.c — a hists' entries as perf 6.1's red-black trees make
 * them, where perf's comparison is not an order. Two cases: the symbol key
 * without the DSO key (sort__sym_cmp compares two unresolved addresses by
 * address alone, a symbol and anything else by DSO first: with unresolved
 * addresses of two DSOs beside a symbol, collapse_rb.c tells, every sample
 * is replayed, with or without children, and a later sample can miss its
 * entry and make a second one, as perf's does); and the inline frames of
 * unwound callchains (--call-graph dwarf). perf's _sort__sym_cmp takes an
 * inlined function as equal to another of its name whose range meets its
 * own (so one inlined into two adjacent functions is one entry or two, as
 * the tree's paths go, and one key can find another entry than before after
 * the tree turned), and compares names where either symbol is inlined but
 * addresses between two that are not. The hash aggregation (hists.c)
 * assumes that equal keys make one entry; for these hists, with children,
 * the samples are replayed in order through perf's hists__findnew_entry
 * (the sample's entry, then each callchain frame's cumulative entry unless
 * one already taken for the sample compares equal: perf's he_cache) and
 * hists__collapse_insert_entry, over pk_rbtree's copy of perf's tree. The
 * entries, their values and their callchain jobs (chain.c) come from it.
 * With the srcline key the entries tree compares the srcline strings, as
 * perf 6.1's sort__srcline_cmp does (the collapse function). The samples are
 * kept by hists.c (replay_seq) in runs of alike ones: a run is replayed one
 * sample at a time until a walk changes nothing (no entry made, none moved to
 * another DSO), then the rest at once, as they would all walk alike.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "report/chain_int.h"
#include "util/grow.h"
#include "util/rbtree.h"

/* What a replayed sample added to an entry through one frame (0: its own entry). */
struct trip {
	uint32_t tnode, frame, entry;	/* entry: index among the replay's */
	uint64_t hit, count;
};

struct replay {
	struct pk_report *r;
	struct pk_buf ents;		/* struct rp_entry[]: perf's entries, in creation order */
	struct pk_rbnode *rb;
	size_t cap_rb;
	uint32_t root;
	const struct rp_entry *key;	/* the entry being looked up */
	/* trips, interned by (tnode, frame, entry) */
	struct pk_buf trips;
	struct pk_idmap trip_map;
	struct pk_buf trip_next;
	bool collapse;			/* the collapse tree's comparison */
	bool changed;			/* findnew made an entry or moved one to another DSO */
};

static struct rp_entry *ent(const struct replay *p, uint32_t i)
{
	return &((struct rp_entry *)p->ents.data)[i];
}

bool rp_replay_wanted(const struct pk_report *r, int h)
{
	/* where perf's entries are the hash's anyway, or what the replay does not keep */
	if (!r->children || !r->need_chain || !r->hists[h].dwarf || r->group ||
	    r->has_key[RP_KEY_SRCFILE] || r->ctx_trace || r->ctx_weight[0] || r->ctx_weight[1] ||
	    r->ctx_weight[2])
		return false;
	/* an inlined function among the frames' classes */
	size_t n = r->lclasses.len / sizeof(struct rp_lclass);
	for (size_t i = 0; i < n; i++) {
		const struct rp_lclass *lc = rp_lclass(r, (uint32_t)i);
		if (lc->sym && lc->sym->inlined)
			return true;
	}
	return false;
}

/* perf's hist_entry__cmp (or __collapse) of an entry and the one looked up */
static int64_t cmp_all(const struct replay *p, const struct rp_entry *a, const struct rp_entry *b)
{
	const struct pk_report *r = p->r;
	for (int i = 0; i < r->nr_sorts; i++) {
		int k = r->sorts[i];
		int64_t c;
		if (k == RP_KEY_SRCLINE) {
			/*
			 * perf computes both srclines here (their width counts: srcline_width.c);
			 * its collapse tree exists only with a key that has a collapse function
			 */
			if (!p->collapse || r->has_key[RP_KEY_COMM])
				((struct rp_entry *)a)->srcline_cmp =
					((struct rp_entry *)b)->srcline_cmp = true;
			c = rp_key_collapse(r, k, a, b);
		} else {
			c = p->collapse ? rp_key_collapse(r, k, a, b) : rp_key_cmp(r, k, a, b);
		}
		if (c)
			return c;
	}
	return 0;
}

/* perf's search of its tree: cmp(existing, the entry looked up): < 0 goes left */
static int64_t probe_cmp(void *vp, uint32_t node)
{
	const struct replay *p = vp;
	return cmp_all(p, ent(p, node), p->key);
}

/* the entry equal to key on the key's path, else PK_RB_NIL and where key's node goes */
static uint32_t find(struct replay *p, const struct rp_entry *key, uint32_t *parent, bool *left)
{
	p->key = key;
	return pk_rbtree__find(p->rb, p->root, probe_cmp, p, parent, left);
}

/* perf's hists__findnew_entry: the entry the key finds, or a new one; -1 on ENOMEM */
static int64_t findnew(struct replay *p, const struct rp_entry *key)
{
	uint32_t parent;
	bool left;
	uint32_t x = find(p, key, &parent, &left);
	if (x != PK_RB_NIL) {
		/*
		 * perf gives a found entry the sample's map ("out-of-date due to an
		 * exec()") where sym is a sort key (not only -F's): an address
		 * without a symbol takes the new DSO, which the symbol key compares
		 * after it without the DSO key
		 */
		struct rp_entry *e = ent(p, x);
		const struct pk_report *r = p->r;
		if (r->sym_sorted && !r->has_key[RP_KEY_DSO] && !rp_lclass(r, e->lclass)->sym &&
		    rp_lclass(r, e->lclass)->dso != rp_lclass(r, key->lclass)->dso) {
			e->lclass = key->lclass;
			p->changed = true;
		}
		return x;
	}
	uint32_t i = (uint32_t)(p->ents.len / sizeof(*key));
	if (pk_buf__append(&p->ents, key, sizeof(*key)) < 0 || PK_GROW(p->rb, p->cap_rb, (size_t)i + 1))
		return -1;
	pk_rbtree__link(p->rb, &p->root, i, parent, left);
	p->changed = true;
	return i;
}

static bool trip_eq(const void *a, const void *b)
{
	const struct trip *x = a, *y = b;
	return x->tnode == y->tnode && x->frame == y->frame && x->entry == y->entry;
}

static int trip_add(struct replay *p, uint32_t tnode, uint32_t frame, uint32_t entry,
		    uint64_t period, uint32_t reps)
{
	struct trip t = { .tnode = tnode, .frame = frame, .entry = entry };
	uint64_t h = pk_idmap__hash(((uint64_t)tnode << 32 | frame) ^ ((uint64_t)entry << 20));
	int64_t i = rp_intern(&p->trip_map, &p->trips, &p->trip_next, sizeof(t), h, &t, trip_eq);
	if (i < 0)
		return -ENOMEM;
	struct trip *tp = &((struct trip *)p->trips.data)[i];
	tp->hit += period;
	tp->count += reps;
	return 0;
}

static void stat_self(struct rp_stat *st, uint8_t cpumode, uint64_t period, uint32_t reps)
{
	st->period += period;
	st->nr_events += reps;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		st->period_sys += period;
	else if (cpumode == PERF_RECORD_MISC_USER)
		st->period_us += period;
	else if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		st->period_guest_sys += period;
	else if (cpumode == PERF_RECORD_MISC_GUEST_USER)
		st->period_guest_us += period;
}

/* the callchain of self node s, callee first, into buf; its length (SIZE_MAX: ENOMEM) */
static size_t path_of(struct pk_report *r, uint32_t s, struct pk_buf *buf)
{
	buf->len = 0;
	if (!s)
		return 0;	/* a sample without a callchain */
	uint32_t p = rp_tnode(r, s)->parent;
	for (; rp_tnode(r, p)->parent; p = rp_tnode(r, p)->parent)
		if (pk_buf__append(buf, &rp_tnode(r, p)->loc, sizeof(uint32_t)) < 0)
			return SIZE_MAX;
	return buf->len / sizeof(uint32_t);
}

/*
 * One sample: perf's hist_entry_iter__add, with the cumulative iterator
 * (children) or the normal one; fr[0..n): its callchain, callee first.
 * reps > 1: that many alike samples whose walks change nothing (the tree
 * unchanged, each walks as the one before).
 */
static int replay_sample(struct replay *p, const struct rp_replay_sample *smp, uint64_t period1,
			 const uint32_t *fr, size_t n, struct pk_buf *cache, uint32_t reps)
{
	struct pk_report *r = p->r;
	uint64_t period = period1 * reps;
	uint32_t ctx = smp->ctx, tnode = smp->node & RP_SELF ? 0 : smp->node;
	const struct pk_loc *self = pk_session__loc_at(r->s, tnode ? rp_tnode(r, tnode)->loc & ~RP_SELF
								    : smp->node & ~RP_SELF);
	struct rp_entry key = { .ctx = ctx, .first_seq = UINT64_MAX, .cpu = rp_ctx(r, ctx)->cpu,
				.level = self->level, .hidden = smp->hidden };
	key.lclass = rp_loc_lclass(r, self);
	key.first_loc = self->id + 1;	/* (-v's address: a new entry's) */
	if (key.lclass == UINT32_MAX)
		return -ENOMEM;
	key.thread = smp->thread ? pk_session__thread_at(r->s, smp->thread - 1) : NULL;
	/* the comm of the hash's entry (its first sample's), or the context's with the key */
	int64_t hi = r->ctx_comm ? -1 : pk_idmap__get(&r->entry_map, (uint64_t)ctx << 32 | key.lclass);
	key.comm = hi >= 0 ? rp_entry(r, (uint32_t)hi)->comm : rp_ctx(r, ctx)->comm;
	int64_t e0 = findnew(p, &key);
	if (e0 < 0 || (tnode && trip_add(p, tnode, 0, (uint32_t)e0, period, reps)))
		return -ENOMEM;
	struct rp_entry *e = ent(p, (uint32_t)e0);
	struct rp_hists *hs = &r->hists[rp_ctx(r, ctx)->hists];
	if (!e->hidden) {	/* perf's hists__inc_nr_samples(he->filtered) */
		hs->nr_nf_samples += reps;
		if (r->cg.enabled && tnode)
			hs->callchain_nf_period += period;
	}
	stat_self(&e->stat, smp->cpumode, period, reps);
	e->acc.period += period;
	e->acc.nr_events += reps;
	e->has_self = true;
	if (r->cg.enabled && n > e->max_depth)
		e->max_depth = (uint32_t)n;
	if (!r->children)
		return 0;
	cache->len = 0;
	uint32_t c0 = (uint32_t)e0;
	if (pk_buf__append(cache, &c0, sizeof(c0)) < 0)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		size_t i = r->cg.caller ? n - 1 - k : k;
		const struct pk_loc *loc = pk_session__loc_at(r->s, fr[i]);
		key.lclass = rp_loc_lclass_chain(r, loc);
		key.first_loc = loc->id + 1;
		key.first_raw = true;
		if (key.lclass == UINT32_MAX)
			return -ENOMEM;
		/* perf's fill_callchain_info: the level of a frame in a map, else the last one */
		char lv = rp_chain_level(loc);
		if (lv)
			key.level = lv;
		const uint32_t *cv = (const uint32_t *)cache->data;
		size_t nc = cache->len / sizeof(uint32_t), q;
		key.srcline_cmp = false;
		for (q = 0; q < nc && cmp_all(p, ent(p, cv[q]), &key); q++)
			;
		if (q < nc)
			continue;	/* an entry of this sample already: once per sample */
		/*
		 * perf's he_tmp (what the cache compared) is not the template findnew gets;
		 * that one has the frame's callchain srcline (fill_callchain_info), which a
		 * new entry keeps: every frame's in a map with the address or srcline key
		 * (callchain_srcline), an inline chain's frames' always (append_inlines)
		 */
		key.srcline_cmp = (r->cg.key != RP_CCKEY_FUNCTION && loc->map) || loc->inline_frame;
		int64_t ei = findnew(p, &key);
		uint32_t u = (uint32_t)ei;
		if (ei < 0 || pk_buf__append(cache, &u, sizeof(u)) < 0 ||
		    trip_add(p, tnode, (uint32_t)i + 1, u, period, reps))
			return -ENOMEM;
		e = ent(p, u);
		e->acc.period += period;
		e->acc.nr_events += reps;
		uint32_t depth = (uint32_t)(r->cg.caller ? i + 1 : n - i);
		if (r->cg.enabled && depth > e->max_depth)
			e->max_depth = depth;
	}
	return 0;
}

/*
 * perf's hists__collapse_resort when a key has a collapse function (comm):
 * the entries in the tree's order into a second tree, one that finds an
 * equal there merged into it (its callchain too, its depth not). into[i]:
 * the replay entry entry i ended in. The result in order into out.
 */
static int collapse(struct replay *p, uint32_t *into, uint32_t *out, size_t *nout)
{
	size_t n = p->ents.len / sizeof(struct rp_entry), m = 0;
	for (uint32_t i = pk_rbtree__first(p->rb, p->root); i != PK_RB_NIL;
	     i = pk_rbtree__next(p->rb, i))
		out[m++] = i;
	for (size_t i = 0; i < n; i++)
		into[i] = (uint32_t)i;
	if (!p->r->has_key[RP_KEY_COMM]) {
		*nout = m;	/* perf's output takes the entries tree as it is */
		return 0;
	}
	struct pk_rbnode *cb = malloc((n ? n : 1) * sizeof(*cb));
	if (!cb)
		return -ENOMEM;
	uint32_t root = PK_RB_NIL;
	p->collapse = true;
	for (size_t k = 0; k < m; k++) {
		uint32_t e = out[k];
		p->key = ent(p, e);
		uint32_t x = pk_rbtree__find_or_link(cb, &root, e, probe_cmp, p);
		if (x == e)
			continue;
		struct rp_entry *d = ent(p, x), *s = ent(p, e);
		rp_stat_merge(&d->stat, &s->stat);
		rp_stat_merge(&d->acc, &s->acc);
		d->has_self |= s->has_self;
		into[e] = x;
	}
	m = 0;
	for (uint32_t i = pk_rbtree__first(cb, root); i != PK_RB_NIL; i = pk_rbtree__next(cb, i))
		out[m++] = i;
	p->collapse = false;
	free(cb);
	*nout = m;
	return 0;
}

/* The trips as callchain jobs of the entries they ended in (r's indexes, base + replay's). */
static int make_jobs(struct replay *p, const uint32_t *into, uint32_t base)
{
	struct pk_report *r = p->r;
	size_t nt = p->trips.len / sizeof(struct trip);
	for (size_t i = 0; i < nt; i++) {
		const struct trip *t = &((const struct trip *)p->trips.data)[i];
		struct rp_replay_job j = { .entry = base + into[t->entry], .node = t->tnode,
					   .hit = t->hit, .count = t->count, .kind = JOB_PATH };
		if (t->frame) {
			j.kind = r->cg.caller ? JOB_CALLER : JOB_CALLEE;
			j.aux = t->frame - 1;
		}
		if (pk_buf__append(&r->replay_jobs, &j, sizeof(j)) < 0)
			return -ENOMEM;
	}
	return 0;
}

int rp_replay(struct pk_report *r, int h, uint32_t **out, size_t *nr_out)
{
	struct replay p = { .r = r, .root = PK_RB_NIL };
	struct pk_buf path = { 0 }, cache = { 0 };
	uint32_t *into = NULL, *order = NULL;
	int rc = 0;
	size_t ns = r->replay_seq.len / sizeof(struct rp_replay_sample);
	const struct rp_replay_period *bigs = (const struct rp_replay_period *)r->replay_periods.data;
	size_t nbig = r->replay_periods.len / sizeof(*bigs), big = 0;
	r->hists[h].nr_nf_samples = r->hists[h].callchain_nf_period = 0;
	for (size_t i = 0; i < ns && !rc; i++) {
		const struct rp_replay_sample *smp = &((const struct rp_replay_sample *)r->replay_seq.data)[i];
		if (rp_ctx(r, smp->ctx)->hists != h)
			continue;
		uint64_t period = smp->period;
		if (period == UINT32_MAX) {	/* its own in replay_periods */
			while (big < nbig && bigs[big].rec < i)
				big++;
			period = big < nbig ? bigs[big].period : 0;
		}
		size_t n = path_of(r, smp->node & RP_SELF ? 0 : smp->node, &path);
		if (n == SIZE_MAX) {
			rc = -ENOMEM;
			break;
		}
		/* a run of alike samples: one by one until a walk changes nothing */
		for (uint32_t left = smp->reps; left && !rc;) {
			p.changed = false;
			rc = replay_sample(&p, smp, period, (const uint32_t *)path.data, n, &cache, 1);
			left--;
			if (!rc && !p.changed && left) {
				rc = replay_sample(&p, smp, period, (const uint32_t *)path.data, n, &cache,
						   left);
				left = 0;
			}
		}
	}
	size_t ne = p.ents.len / sizeof(struct rp_entry), m = 0;
	for (size_t i = 0; i < ne && !r->children; i++)
		ent(&p, (uint32_t)i)->acc = ent(&p, (uint32_t)i)->stat;
	if (!rc) {
		into = malloc((ne ? ne : 1) * sizeof(*into));
		order = malloc((ne ? ne : 1) * sizeof(*order));
		if (!into || !order)
			rc = -ENOMEM;
	}
	if (!rc)
		rc = collapse(&p, into, order, &m);
	/* perf's entries join the report's (the hash's of this hists are left out) */
	uint32_t base = (uint32_t)rp_nr_entries(r);
	if (!rc && pk_buf__append(&r->entries, p.ents.data, p.ents.len) < 0)
		rc = -ENOMEM;
	if (!rc) {
		for (size_t i = 0; i < ne; i++)
			if (into[i] != i)
				rp_entry(r, base + (uint32_t)i)->merged = base + into[i] + 1;
		for (size_t k = 0; k < m; k++) {
			order[k] += base;
			rp_entry(r, order[k])->order = (uint32_t)k;
		}
		rc = make_jobs(&p, into, base);
	}
	if (!rc) {
		r->hists[h].replayed = true;
		*out = order;
		*nr_out = m;
		order = NULL;
	}
	free(order);
	free(into);
	free(p.rb);
	pk_buf__free(&p.ents);
	pk_buf__free(&p.trips);
	pk_idmap__free(&p.trip_map);
	pk_buf__free(&p.trip_next);
	pk_buf__free(&path);
	pk_buf__free(&cache);
	return rc;
}
