/* SPDX-License-Identifier: MIT */
/*
 * report/resort.c — what perf does after the last sample: cumulative
 * ("children") values from the callchain prefix trees, srclines of the
 * entries' addresses (in parallel, through the session), the collapse of
 * entries equal by perf's collapse functions, group members paired with
 * their leader's entries (hists__match/link), and the output order
 * (hists__output_resort: perf's sort list, ties in collapse order) with
 * --percent-limit applied.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "report/report_int.h"
#include "util/error.h"
#include "util/rbtree.h"

/* ---- hists metadata ------------------------------------------------------------------ */

static void setup_hists(struct pk_report *r)
{
	for (size_t i = 0; i < r->nr_hists; i++) {
		struct rp_hists *h = &r->hists[i];
		const struct pk_data_attr *a = r->s ? pk_session__attr(r->s, (int)i) : NULL;
		h->name = r->s ? pk_session__event_name(r->s, (int)i) : "";
		if (!h->name)
			h->name = "";
		h->leader = (int)i;
		h->is_leader = true;
		h->nr_members = 1;
		h->member_idx = 0;
		h->group_name = NULL;
		if (a && a->leader >= 0 && (size_t)a->leader < r->nr_hists && a->leader != (int)i) {
			h->leader = a->leader;
			h->is_leader = false;
			h->member_idx = (int)i - a->leader;
		} else if (a && a->nr_members > 1) {
			h->nr_members = a->nr_members;
			h->group_name = a->group_name;
		}
	}
	/*
	 * --group or --no-group on a file without groups: one group of every
	 * event (perf's evlist__force_leader when either option is given)
	 */
	if (r->opts.group != PK_REPORT_DEFAULT && r->nr_hists > 1) {
		bool any = false;
		for (size_t i = 0; i < r->nr_hists; i++)
			any |= r->hists[i].nr_members > 1;
		if (!any) {
			for (size_t i = 0; i < r->nr_hists; i++) {
				r->hists[i].leader = 0;
				r->hists[i].is_leader = i == 0;
				r->hists[i].member_idx = (int)i;
			}
			r->hists[0].nr_members = (int)r->nr_hists;
		}
	}
}

/* ---- cumulative values ----------------------------------------------------------------- */

/* The callchain of self node t, callee first, into frames; the context at its root into *ctx. */
static int node_path(struct pk_report *r, const struct rp_tnode *t, struct pk_buf *frames,
		     uint32_t *ctx)
{
	frames->len = 0;
	uint32_t p = t->parent;
	for (;;) {
		const struct rp_tnode *pn = rp_tnode(r, p);
		if (!pn->parent) {
			*ctx = pn->loc & ~RP_SELF;
			return 0;
		}
		if (pk_buf__append(frames, &pn->loc, sizeof(uint32_t)) < 0)
			return -ENOMEM;
		p = pn->parent;
	}
}

/* What the callers' entries of one self node take from its first sample. */
struct cum_first {
	const struct rp_tnode *t;
	uint32_t ctx;
	const struct pk_thread *thread;
	const char *comm;
	int32_t cpu;
	char level;
};

/*
 * The children values of self node f->t's callers fr[0 .. n) (callee first):
 * each caller's entry, once per sample (cache: the classes seen so far).
 */
static int cumulate_callers(struct pk_report *r, struct cum_first *f, const uint32_t *fr,
			    size_t n, struct pk_buf *cache)
{
	const struct rp_tnode *t = f->t;
	for (size_t k = 0; k < n; k++) {
		size_t i = r->cg.caller ? n - 1 - k : k;
		const struct pk_loc *loc = pk_session__loc_at(r->s, fr[i]);
		uint32_t lc = rp_loc_lclass_chain(r, loc);
		char lv = rp_chain_level(loc);
		if (lv)
			f->level = lv;
		if (lc == UINT32_MAX)
			return -ENOMEM;
		uint32_t cc = rp_lclass_cclass(r, lc);
		if (cc == UINT32_MAX)
			return -ENOMEM;
		const uint32_t *c = (const uint32_t *)cache->data;
		size_t nc = cache->len / sizeof(uint32_t), j;
		for (j = 0; j < nc && c[j] != cc; j++)
			;
		/* recursion (or an equal entry): once per sample; never with the time key,
		 * which perf 6.1's he_cache comparison leaves out (a zero time) */
		if (j < nc && !r->has_key[RP_KEY_TIME])
			continue;
		if (pk_buf__append(cache, &cc, sizeof(cc)) < 0)
			return -ENOMEM;
		uint32_t ei;
		struct rp_entry *e = rp_entry_findnew(r, f->ctx, lc, &ei);
		if (!e)
			return -ENOMEM;
		if (t->seq < e->first_seq) {
			/* perf creates the entry at its first sample, self or not */
			e->first_seq = t->seq;
			e->first_pos = (uint32_t)k + 1;	/* after the sample's own, in cursor order */
			e->thread = f->thread;
			if (!e->has_self) {
				e->comm = f->comm;
				e->cpu = f->cpu;
			}
			e->level = f->level;
			e->hidden = t->hidden;
			e->first_loc = loc->id + 1;
			e->first_raw = true;	/* perf's fill_callchain_info: the frame's ip */
		}
		e->acc.period += t->hit;
		e->acc.nr_events += t->count;
		uint32_t depth = (uint32_t)(r->cg.caller ? i + 1 : n - i);
		if (r->cg.enabled && depth > e->max_depth)
			e->max_depth = depth;
	}
	return 0;
}

/* One self node: its own entry's accumulated values, then (children) its callers'. */
static int cumulate_node(struct pk_report *r, const struct rp_tnode *t, struct pk_buf *frames,
			 struct pk_buf *cache)
{
	struct cum_first f = { .t = t };
	if (node_path(r, t, frames, &f.ctx))
		return -ENOMEM;
	const uint32_t *fr = (const uint32_t *)frames->data;
	size_t n = frames->len / sizeof(uint32_t);
	const struct pk_loc *self = pk_session__loc_at(r->s, t->loc & ~RP_SELF);
	uint32_t lc0 = rp_loc_lclass(r, self), e0i;
	struct rp_entry *e0 = lc0 == UINT32_MAX ? NULL : rp_entry_findnew(r, f.ctx, lc0, &e0i);
	if (!e0)
		return -ENOMEM;
	/* cumulative entries get the thread of the first sample with this path */
	f.thread = t->thread ? pk_session__thread_at(r->s, t->thread - 1) : e0->thread;
	f.comm = e0->comm;
	f.cpu = e0->cpu;
	f.level = e0->level;
	e0->acc.period += t->hit;
	e0->acc.nr_events += t->count;
	if (r->cg.enabled && n > e0->max_depth)
		e0->max_depth = (uint32_t)n;
	if (!r->children)
		return 0;
	cache->len = 0;
	uint32_t cc0 = rp_lclass_cclass(r, lc0);
	if (cc0 == UINT32_MAX || pk_buf__append(cache, &cc0, sizeof(cc0)) < 0)
		return -ENOMEM;
	return cumulate_callers(r, &f, fr, n, cache);
}

static int cumulate(struct pk_report *r)
{
	size_t nn = r->tnodes.len / sizeof(struct rp_tnode);
	struct pk_buf frames = { 0 }, cache = { 0 };
	int rc = 0;
	for (uint32_t ni = 1; ni < nn && !rc; ni++) {
		const struct rp_tnode *t = rp_tnode(r, ni);
		if (t->parent && (t->loc & RP_SELF))
			rc = cumulate_node(r, t, &frames, &cache);
	}
	pk_buf__free(&frames);
	pk_buf__free(&cache);
	return rc;
}

/* ---- entry classes ---------------------------------------------------------------------- */

uint32_t rp_lclass_cclass(struct pk_report *r, uint32_t lci)
{
	size_t have = r->lc_cclass.len / sizeof(uint32_t);
	if (lci >= have) {
		size_t want = (size_t)lci + 1024;
		if (pk_buf__reserve(&r->lc_cclass, (want - have) * sizeof(uint32_t)))
			return UINT32_MAX;
		memset(r->lc_cclass.data + r->lc_cclass.len, 0, (want - have) * sizeof(uint32_t));
		r->lc_cclass.len = want * sizeof(uint32_t);
	}
	uint32_t *slot = &((uint32_t *)r->lc_cclass.data)[lci];
	if (*slot)
		return *slot - 1;
	/* the values perf 6.1's cmp functions compare, as bytes */
	const struct rp_lclass *lc = rp_lclass(r, lci);
	char key[1024];
	int n = 0;
	const char *dname = lc->dso ? pk_dso__short_name(lc->dso) : NULL;
	if (r->lc_dso || (r->lc_sym && lc->sym && !r->lc_dso))
		n += snprintf(key + n, sizeof(key) - (size_t)n, "d%c%s", dname ? '+' : '-',
			      dname ? dname : "");
	if (r->lc_sym && (size_t)n < sizeof(key)) {
		if (lc->sym && lc->sym->inlined)
			/* perf's _sort__sym_cmp: an inlined function by name (and range) */
			n += snprintf(key + n, sizeof(key) - (size_t)n, "|i%" PRIx64 ",%" PRIx64 ",%s",
				      lc->sym->start, lc->sym->end, lc->sym->name);
		else if (lc->sym)
			n += snprintf(key + n, sizeof(key) - (size_t)n, "|s%" PRIx64 ",%" PRIx64,
				      lc->sym->start, lc->sym->end);
		else
			n += snprintf(key + n, sizeof(key) - (size_t)n, "|a%" PRIx64, lc->addr);
	}
	if (r->has_key[RP_KEY_SRCLINE] && (size_t)n < sizeof(key))
		n += snprintf(key + n, sizeof(key) - (size_t)n, "|l%s", rp_lclass_srcline(r, lci));
	if (r->has_key[RP_KEY_SRCFILE] && (size_t)n < sizeof(key))
		n += snprintf(key + n, sizeof(key) - (size_t)n, "|f%s", rp_lclass_srcfile(r, lci));
	if (n < 0 || (size_t)n >= sizeof(key))
		n = (int)sizeof(key) - 1;
	long off = pk_intern__add(&r->cclasses, key, (size_t)n, 0);
	int added;
	int64_t id = off < 0 ? -1 : pk_idmap__get_or_put(&r->cclass_ids, (uint64_t)off,
							    r->nr_cclasses, &added);
	if (id < 0)
		return UINT32_MAX;
	if (added)
		r->nr_cclasses++;
	*slot = (uint32_t)id + 1;
	return (uint32_t)id;
}

/* ---- collapse and output order --------------------------------------------------------- */

struct sort_ctx {
	const struct pk_report *r;
	bool collapse;
};

/* collapse order: x before y iff perf's collapse(x, y) > 0 (its rbtree's in-order) */
int64_t rp_collapse_all(const struct pk_report *r, const struct rp_entry *a,
			const struct rp_entry *b)
{
	for (int i = 0; i < r->nr_sorts; i++) {
		int64_t c = rp_key_collapse(r, r->sorts[i], a, b);
		if (c)
			return c;
	}
	return 0;
}

/* stable merge sort of idx[] by "a before b iff cmp(a, b) > 0" */
static void msort(const struct pk_report *r, uint32_t *idx, uint32_t *tmp, size_t n,
		  int64_t (*cmp)(const struct pk_report *, const struct rp_entry *,
				 const struct rp_entry *))
{
	if (n < 2)
		return;
	size_t m = n / 2;
	msort(r, idx, tmp, m, cmp);
	msort(r, idx + m, tmp, n - m, cmp);
	size_t i = 0, j = m, k = 0;
	while (i < m && j < n) {
		/* the right one goes first only when it must precede the left one */
		if (cmp(r, rp_entry(r, idx[j]), rp_entry(r, idx[i])) > 0)
			tmp[k++] = idx[j++];
		else
			tmp[k++] = idx[i++];
	}
	while (i < m)
		tmp[k++] = idx[i++];
	while (j < n)
		tmp[k++] = idx[j++];
	memcpy(idx, tmp, n * sizeof(*idx));
}

void rp_stat_merge(struct rp_stat *d, const struct rp_stat *s)
{
	d->period += s->period;
	d->nr_events += s->nr_events;
	d->period_sys += s->period_sys;
	d->period_us += s->period_us;
	d->period_guest_sys += s->period_guest_sys;
	d->period_guest_us += s->period_guest_us;
	for (int i = 0; i < 3; i++)
		d->weight[i] += s->weight[i];
}

void rp_entry_merge(struct pk_report *r, uint32_t di, uint32_t si)
{
	struct rp_entry *d = rp_entry(r, di), *e = rp_entry(r, si);
	rp_stat_merge(&d->stat, &e->stat);
	rp_stat_merge(&d->acc, &e->acc);
	if (e->max_depth > d->max_depth)
		d->max_depth = e->max_depth;
	d->has_self |= e->has_self;
	if (e->first_seq < d->first_seq) {
		d->hidden = e->hidden;	/* perf's entry: the first sample's */
		d->first_loc = e->first_loc;
		d->first_raw = e->first_raw;
	}
	e->merged = di + 1;
}

/* Entries of hists h in collapse order, equal ones merged; *out malloc'd. */
static int collapse_hists(struct pk_report *r, int h, uint32_t **out, size_t *nr_out)
{
	size_t n = rp_nr_entries(r), k = 0;
	for (size_t i = 0; i < n; i++)
		if (rp_ctx(r, rp_entry(r, (uint32_t)i)->ctx)->hists == h)
			k++;
	uint32_t *idx = malloc((k ? k : 1) * sizeof(*idx)), *tmp = malloc((k ? k : 1) * sizeof(*tmp));
	if (!idx || !tmp) {
		free(idx);
		free(tmp);
		return -ENOMEM;
	}
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (rp_ctx(r, rp_entry(r, (uint32_t)i)->ctx)->hists == h)
			idx[k++] = (uint32_t)i;
	if (rp_collapse_mixed(r, idx, k)) {
		/*
		 * perf's comparison is no order here: its trees, walked at every sample
		 * where the samples were kept (replay.c), else made in the order of the
		 * entries' first samples (collapse_rb.c)
		 */
		free(tmp);
		if (r->replay_sym && !r->group) {
			free(idx);
			return rp_replay(r, h, out, nr_out);
		}
		int rc = rp_collapse_trees(r, idx, &k);
		if (rc) {
			free(idx);
			return rc;
		}
		*out = idx;
		*nr_out = k;
		return 0;
	}
	msort(r, idx, tmp, k, rp_collapse_all);
	size_t m = 0;
	for (size_t i = 0; i < k; i++) {
		struct rp_entry *e = rp_entry(r, idx[i]);
		if (m) {
			struct rp_entry *p = rp_entry(r, idx[m - 1]);
			if (!rp_collapse_all(r, p, e)) {
				rp_entry_merge(r, idx[m - 1], idx[i]);
				continue;
			}
		}
		e->order = (uint32_t)m;
		idx[m++] = idx[i];
	}
	free(tmp);
	*out = idx;
	*nr_out = m;
	return 0;
}

/* Group view: pair each member's entries with the leader's (dummies for the rest). */
static int pair_group(struct pk_report *r, int lh, uint32_t **lists, size_t *nrs)
{
	int nm = r->hists[lh].nr_members;
	size_t total = 0;
	for (int m = 0; m < nm; m++)
		total += nrs[lh + m];
	uint32_t *all = malloc((total ? total : 1) * sizeof(*all));
	uint32_t *tmp = malloc((total ? total : 1) * sizeof(*tmp));
	uint32_t *row = malloc((total ? total : 1) * sizeof(*row));
	if (!all || !tmp || !row) {
		free(all);
		free(tmp);
		free(row);
		return -ENOMEM;
	}
	size_t k = 0;
	for (int m = 0; m < nm; m++)
		for (size_t i = 0; i < nrs[lh + m]; i++)
			all[k++] = lists[lh + m][i];
	msort(r, all, tmp, total, rp_collapse_all);
	size_t nrow = 0;
	int rc = 0;
	for (size_t i = 0; i < total && !rc;) {
		size_t j = i + 1;
		while (j < total && !rp_collapse_all(r, rp_entry(r, all[i]), rp_entry(r, all[j])))
			j++;
		uint32_t *pairs = malloc((size_t)nm * sizeof(*pairs));
		if (!pairs) {
			rc = -ENOMEM;
			break;
		}
		for (int m = 0; m < nm; m++)
			pairs[m] = UINT32_MAX;
		for (size_t q = i; q < j; q++) {
			int hq = rp_ctx(r, rp_entry(r, all[q])->ctx)->hists;
			pairs[r->hists[hq].member_idx] = all[q];
		}
		if (pairs[0] == UINT32_MAX) {
			/* perf's hists__add_dummy_entry: the member's keys, no values */
			struct rp_entry d = *rp_entry(r, all[i]);
			memset(&d.stat, 0, sizeof(d.stat));
			memset(&d.acc, 0, sizeof(d.acc));
			d.is_dummy = true;
			d.has_self = false;
			d.pairs = NULL;
			/* a context of the leader's hists */
			struct rp_ctx c = *rp_ctx(r, d.ctx);
			c.hists = lh;
			uint32_t cid = (uint32_t)(r->ctxs.len / sizeof(c));
			uint32_t zero = 0;
			if (pk_buf__append(&r->ctxs, &c, sizeof(c)) < 0 ||
			    pk_buf__append(&r->ctx_next, &zero, sizeof(zero)) < 0 ||
			    pk_buf__append(&r->ctx_root, &zero, sizeof(zero)) < 0) {
				free(pairs);
				rc = -ENOMEM;
				break;
			}
			d.ctx = cid;
			uint32_t di = (uint32_t)rp_nr_entries(r);
			if (pk_buf__append(&r->entries, &d, sizeof(d)) < 0) {
				free(pairs);
				rc = -ENOMEM;
				break;
			}
			pairs[0] = di;
		}
		rp_entry(r, pairs[0])->pairs = pairs;
		rp_entry(r, pairs[0])->order = (uint32_t)nrow;
		row[nrow++] = pairs[0];
		i = j;
	}
	free(all);
	free(tmp);
	if (rc) {
		free(row);
		return rc;
	}
	free(lists[lh]);
	lists[lh] = row;
	nrs[lh] = nrow;
	return 0;
}

uint64_t rp_hists_total(const struct pk_report *r, int h)
{
	return r->hists[h].total_period;
}

uint64_t rp_hists_pct_total(const struct pk_report *r, int h)
{
	return r->opts.filter_relative ? r->hists[h].total_nf_period : r->hists[h].total_period;
}

/*
 * --symbol-filter as perf 6.1 applies it: at collapse (only with the one
 * sort key that collapses there: comm), to the first event's entries.
 */
static void symbol_filter(struct pk_report *r, uint32_t *idx, size_t n)
{
	const char *f = r->opts.symbol_filter;
	if (!f || !idx || !r->has_key[RP_KEY_COMM])
		return;
	for (size_t i = 0; i < n; i++) {
		struct rp_entry *e = rp_entry(r, idx[i]);
		const struct rp_lclass *lc = rp_lclass(r, e->lclass);
		const struct pk_sym *sym = lc->sym ? lc->sym : lc->loc->sym;
		if (!sym || !strstr(sym->name, f))
			e->hidden |= PK_FILTER_SYMBOL;
	}
}

static float percent_of(uint64_t v, uint64_t total)
{
	return total ? (float)(v * 100.0 / total) : 0.0f;
}

struct out_ctx {
	const struct pk_report *r;
	const uint32_t *idx;
	uint8_t *known;		/* srclines perf has computed (srcline_width.c), or NULL */
};

/* perf's __hists__insert_output_entry: left when hist_entry__sort(he, iter) > 0 */
static bool out_left(void *vctx, uint32_t node, uint32_t other)
{
	const struct out_ctx *c = vctx;
	return rp_sort_mark(c->r, c->idx[node], c->idx[other], c->known) > 0;
}

static int output_sort(struct pk_report *r, int h, uint32_t *idx, size_t n)
{
	/*
	 * A red-black tree as perf's: its "callers first" tie-break holds only
	 * within a thread, so the order depends on the tree's shape.
	 */
	struct pk_rbnode *nodes = malloc((n ? n : 1) * sizeof(*nodes));
	uint32_t *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!nodes || !tmp) {
		free(nodes);
		free(tmp);
		return -ENOMEM;
	}
	/* which srclines perf has when it takes each entry's width */
	uint8_t *known = NULL;
	if (r->has_key[RP_KEY_SRCLINE]) {
		size_t ne = rp_nr_entries(r);
		known = calloc(ne ? ne : 1, 1);
		int k = known ? rp_srcline_known(r, h, idx, n, known) : -ENOMEM;
		if (!k && known && r->hists[h].replayed) {
			/* replayed: what perf's trees compared (replay.c), then the output's */
			for (size_t i = 0; i < n; i++)
				known[idx[i]] = rp_entry(r, idx[i])->srcline_cmp;
			k = 1;
		}
		if (k <= 0) {
			free(known);
			known = NULL;
		}
		if (k < 0) {
			free(tmp);
			free(nodes);
			return -ENOMEM;
		}
	}
	struct out_ctx oc = { r, idx, known };
	uint32_t root = PK_RB_NIL;
	for (size_t i = 0; i < n; i++) {
		pk_rbtree__insert(nodes, &root, (uint32_t)i, out_left, &oc);
		if (known)	/* perf's hists__calc_col_len, right after the insertion */
			rp_entry(r, idx[i])->srcline_late = !known[idx[i]];
	}
	free(known);
	size_t k = 0;
	for (uint32_t i = pk_rbtree__first(nodes, root); i != PK_RB_NIL; i = pk_rbtree__next(nodes, i))
		tmp[k++] = idx[i];
	memcpy(idx, tmp, n * sizeof(*idx));
	free(tmp);
	free(nodes);
	struct rp_hists *hs = &r->hists[h];
	hs->out = idx;
	hs->nr_out = n;
	hs->total_period = 0;
	hs->total_nf_period = 0;
	for (size_t i = 0; i < n; i++) {
		const struct rp_entry *e = rp_entry(r, idx[i]);
		hs->total_period += e->stat.period;
		if (!e->hidden)
			hs->total_nf_period += e->stat.period;
	}
	/* --percent-limit: perf's hist_entry__get_percent_limit (a float) */
	float limit = (float)r->opts.percent_limit;
	uint64_t total = rp_hists_pct_total(r, h);
	for (size_t i = 0; i < n; i++) {
		struct rp_entry *e = rp_entry(r, idx[i]);
		uint64_t v = r->children ? e->acc.period : e->stat.period;
		e->filtered = percent_of(v, total) < limit;
		/* -x: perf's HIST_FILTER__PARENT */
		if (r->opts.exclude_other && !rp_ctx(r, e->ctx)->parent)
			e->filtered = true;
	}
	return 0;
}

/* ---- public view ---------------------------------------------------------------------------- */

static int build_public(struct pk_report *r)
{
	free(r->sections);
	r->sections = malloc((r->nr_hists ? r->nr_hists : 1) * sizeof(int));
	if (!r->sections)
		return -ENOMEM;
	r->nr_sections = 0;
	for (size_t h = 0; h < r->nr_hists; h++) {
		struct rp_hists *hs = &r->hists[h];
		if (r->group && !hs->is_leader)
			continue;
		r->sections[r->nr_sections++] = (int)h;
		int nm = r->group ? hs->nr_members : 1;
		hs->pub = calloc(hs->nr_out ? hs->nr_out : 1, sizeof(*hs->pub));
		hs->pub_group = calloc((hs->nr_out ? hs->nr_out : 1) * (size_t)nm * 2, sizeof(uint64_t));
		if (!hs->pub || !hs->pub_group)
			return -ENOMEM;
		hs->section.attr = (int)h;
		hs->section.name = hs->name;
		hs->section.nr_samples = hs->nr_samples;
		hs->section.total_period = hs->total_period;
		if (r->group && nm > 1) {
			for (int m = 1; m < nm; m++) {
				hs->section.nr_samples += r->hists[h + m].nr_samples;
				hs->section.total_period += r->hists[h + m].total_period;
			}
		}
		hs->section.nr_entries = hs->nr_out;
		for (size_t i = 0; i < hs->nr_out; i++) {
			const struct rp_entry *e = rp_entry(r, hs->out[i]);
			const struct rp_lclass *lc = rp_lclass(r, e->lclass);
			struct pk_report_entry *p = &hs->pub[i];
			p->thread = e->thread;
			p->comm = e->comm;
			p->cpu = e->cpu;
			p->map = lc->loc->map;
			p->dso = lc->loc->dso;
			p->sym = lc->loc->sym;
			p->ip = lc->loc->addr;
			p->addr = lc->loc->addr;
			p->level = lc->loc->level;
			p->srcline = r->has_key[RP_KEY_SRCLINE] ? lc->srcline : NULL;
			p->weight = e->weight[0];
			p->period = e->stat.period;
			p->nr_samples = e->stat.nr_events;
			p->period_children = r->children ? e->acc.period : e->stat.period;
			p->nr_samples_children = r->children ? e->acc.nr_events : e->stat.nr_events;
			memcpy(p->weight_sum, e->stat.weight, sizeof(p->weight_sum));
			p->filtered = e->filtered;
			p->hidden = e->hidden != 0;
			if (r->group && nm > 1 && e->pairs) {
				uint64_t *gp = hs->pub_group + i * (size_t)nm * 2;
				for (int m = 0; m < nm; m++) {
					const struct rp_entry *pe = e->pairs[m] != UINT32_MAX ?
						rp_entry(r, e->pairs[m]) : NULL;
					gp[m] = pe ? pe->stat.period : 0;
					gp[nm + m] = pe ? pe->stat.nr_events : 0;
				}
				p->group_period = gp;
				p->group_samples = gp + nm;
				p->nr_group = (uint32_t)nm;
			}
		}
	}
	return 0;
}

size_t pk_report__nr_sections(const struct pk_report *r)
{
	return r->nr_sections;
}

const struct pk_report_section *pk_report__section(const struct pk_report *r, size_t i)
{
	return i < r->nr_sections ? &r->hists[r->sections[i]].section : NULL;
}

size_t pk_report__nr_entries(const struct pk_report *r, size_t section)
{
	return section < r->nr_sections ? r->hists[r->sections[section]].nr_out : 0;
}

const struct pk_report_entry *pk_report__entry(const struct pk_report *r, size_t section, size_t i)
{
	if (section >= r->nr_sections)
		return NULL;
	const struct rp_hists *hs = &r->hists[r->sections[section]];
	return i < hs->nr_out ? &hs->pub[i] : NULL;
}

/* ---- finish ---------------------------------------------------------------------------------- */

/*
 * perf's nr_non_filtered_samples and callchain_non_filtered_period: each
 * sample counts by its entry's filter bits, which are those of the entry's
 * first sample, self or cumulative (known once cumulated; replay.c counts
 * its hists itself).
 */
static void count_non_filtered(struct pk_report *r)
{
	size_t n = rp_nr_entries(r);
	for (size_t i = 0; i < n; i++) {
		const struct rp_entry *e = rp_entry(r, (uint32_t)i);
		struct rp_hists *hs = &r->hists[rp_ctx(r, e->ctx)->hists];
		if (e->hidden)
			continue;
		hs->nr_nf_samples += e->stat.nr_events;
		if (r->need_chain && hs->has_callchain && r->cg.enabled)
			hs->callchain_nf_period += e->stat.period;
	}
}

int rp_finish(struct pk_report *r, struct pk_error *err)
{
	setup_hists(r);
	bool any_group = false;
	for (size_t i = 0; i < r->nr_hists; i++)
		any_group |= r->hists[i].nr_members > 1;
	r->group = r->opts.group != PK_REPORT_OFF && any_group;
	rp_topdown_setup(r);
	int rc = 0;
	/* cumulative values (and callchain depths) from the prefix trees */
	size_t n = rp_nr_entries(r);
	for (size_t i = 0; i < n; i++) {
		struct rp_entry *e = rp_entry(r, (uint32_t)i);
		int h = rp_ctx(r, e->ctx)->hists;
		if (!r->need_chain || !r->hists[h].has_callchain)
			e->acc = e->stat;
	}
	if (r->lc_addr && (rc = rp_prepare_srclines(r, err)))
		return rc;
	if (r->need_chain && (rc = cumulate(r)))
		return pk_error__set(err, rc, "", 0, 0, "out of memory");
	count_non_filtered(r);
	rp_setup_elide(r, NULL);	/* elided keys leave the output sort (perf_hpp__should_skip) */
	uint32_t **lists = calloc(r->nr_hists ? r->nr_hists : 1, sizeof(*lists));
	size_t *nrs = calloc(r->nr_hists ? r->nr_hists : 1, sizeof(*nrs));
	if (!lists || !nrs) {
		free(lists);
		free(nrs);
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	}
	for (size_t h = 0; h < r->nr_hists && !rc; h++) {
		if (rp_replay_wanted(r, (int)h))
			rc = rp_replay(r, (int)h, &lists[h], &nrs[h]);
		else
			rc = collapse_hists(r, (int)h, &lists[h], &nrs[h]);
	}
	if (!rc && r->nr_hists)
		symbol_filter(r, lists[0], nrs[0]);
	if (!rc && r->group)
		for (size_t h = 0; h < r->nr_hists && !rc; h++)
			if (r->hists[h].is_leader && r->hists[h].nr_members > 1)
				rc = pair_group(r, (int)h, lists, nrs);
	/* members first (the leader's group view reads their totals), then the rest */
	for (size_t h = 0; h < r->nr_hists && !rc; h++) {
		rc = output_sort(r, (int)h, lists[h], nrs[h]);
		if (!rc)
			lists[h] = NULL;
	}
	for (size_t h = 0; h < r->nr_hists; h++)
		free(lists[h]);
	free(lists);
	free(nrs);
	if (!rc)
		rc = build_public(r);
	if (rc)
		return pk_error__set(err, rc, "", 0, 0, "out of memory");
	return 0;
}
