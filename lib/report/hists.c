/* SPDX-License-Identifier: MIT */
/*
 * report/hists.c — the report object and its per-sample work: contexts and
 * location classes interned, the sample's entry found or created in one
 * hash map, its callchain appended to the context's prefix tree, and
 * PERF_SAMPLE_READ groups split into their members' deltas as perf's
 * deliver_sample_group does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "report/report_int.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

/* ---- interning --------------------------------------------------------------------- */

static uint64_t hash_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t ctx_hash(const struct rp_ctx *c)
{
	uint64_t h = hash_mix(0x1234, (uint64_t)c->hists);
	h = hash_mix(h, (uint64_t)(uint32_t)c->cpu);
	h = hash_mix(h, (uint64_t)(uintptr_t)c->thread);
	h = hash_mix(h, (uint64_t)(uintptr_t)c->comm);
	h = hash_mix(h, (uint64_t)(uintptr_t)c->trace);
	h = hash_mix(h, (uint64_t)(uintptr_t)c->parent);
	h = hash_mix(h, c->time);
	for (int i = 0; i < 3; i++)
		h = hash_mix(h, c->weight[i]);
	return h;
}

static bool ctx_eq(const struct rp_ctx *a, const struct rp_ctx *b)
{
	return a->hists == b->hists && a->cpu == b->cpu && a->thread == b->thread &&
	       a->comm == b->comm && a->trace == b->trace && a->parent == b->parent &&
	       a->time == b->time &&
	       !memcmp(a->weight, b->weight, sizeof(a->weight));
}

/* Intern by a 64-bit hash in map, chained through next (uint32_t[]) on collisions. */
int64_t rp_intern(struct pk_idmap *map, struct pk_buf *store, struct pk_buf *next, size_t recsz,
		  uint64_t h, const void *rec, bool (*eq)(const void *, const void *))
{
	uint32_t nr = (uint32_t)(store->len / recsz);
	int added;
	int64_t first = pk_idmap__get_or_put(map, h, nr, &added);
	if (first < 0)
		return -1;
	if (!added) {
		uint32_t i = (uint32_t)first;
		for (;;) {
			if (eq(store->data + (size_t)i * recsz, rec))
				return i;
			uint32_t n = ((uint32_t *)next->data)[i];
			if (!n)
				break;
			i = n - 1;
		}
		((uint32_t *)next->data)[i] = nr + 1;
	}
	uint32_t zero = 0;
	if (pk_buf__append(store, rec, recsz) < 0 || pk_buf__append(next, &zero, sizeof(zero)) < 0)
		return -1;
	return nr;
}

static bool ctx_eq_v(const void *a, const void *b)
{
	return ctx_eq(a, b);
}

static bool lclass_eq_v(const void *va, const void *vb)
{
	const struct rp_lclass *a = va, *b = vb;
	return a->dso == b->dso && a->sym == b->sym && a->addr == b->addr && a->raw == b->raw &&
	       a->frame == b->frame;
}

static uint32_t *cache_slot(struct pk_buf *cache, uint32_t id)
{
	size_t have = cache->len / sizeof(uint32_t);
	if (id >= have) {
		size_t want = (size_t)id + 1024;
		if (pk_buf__reserve(cache, (want - have) * sizeof(uint32_t)))
			return NULL;
		memset(cache->data + cache->len, 0, (want - have) * sizeof(uint32_t));
		cache->len = want * sizeof(uint32_t);
	}
	return &((uint32_t *)cache->data)[id];
}

static uint32_t lclass_of(struct pk_report *r, const struct pk_loc *loc, bool chain)
{
	uint32_t *slot = cache_slot(chain ? &r->loc_lclass_chain : &r->loc_lclass, loc->id);
	if (!slot)
		return UINT32_MAX;
	if (*slot)
		return *slot - 1;
	struct rp_lclass lc = { .loc = loc };
	if (r->lc_dso || r->lc_sym || r->lc_addr)
		lc.dso = loc->dso;
	if (r->lc_sym)
		lc.sym = loc->sym;
	if ((r->lc_sym && !loc->sym) || r->lc_addr) {
		lc.addr = loc->addr;
		/* (-g address: a frame's entry has its own srcline text: srcline.c) */
		if (chain && (loc->ip != loc->addr ||
			      (r->has_key[RP_KEY_SRCLINE] && r->cg.key == RP_CCKEY_ADDRESS))) {
			lc.addr = loc->ip;
			lc.raw = true;
		}
		if (chain && r->has_key[RP_KEY_SRCLINE] && loc->inline_frame)
			lc.frame = loc->id + 1;
	}
	uint64_t h = hash_mix(hash_mix(hash_mix(hash_mix(7, (uintptr_t)lc.dso), (uintptr_t)lc.sym),
				       lc.addr), lc.raw + ((uint64_t)lc.frame << 1));
	int64_t id = rp_intern(&r->lc_map, &r->lclasses, &r->lc_next, sizeof(lc), h, &lc, lclass_eq_v);
	if (id < 0)
		return UINT32_MAX;
	slot = cache_slot(chain ? &r->loc_lclass_chain : &r->loc_lclass, loc->id);
	*slot = (uint32_t)id + 1;
	return (uint32_t)id;
}

uint32_t rp_loc_lclass(struct pk_report *r, const struct pk_loc *loc)
{
	return lclass_of(r, loc, false);
}

uint32_t rp_loc_lclass_chain(struct pk_report *r, const struct pk_loc *loc)
{
	return lclass_of(r, loc, true);
}

char rp_chain_level(const struct pk_loc *loc)
{
	if (!loc->map)
		return loc->sym ? '.' : 0;
	return loc->dso && pk_dso__kind(loc->dso) == PK_DSO_KERNEL ? 'k' : '.';
}

struct rp_entry *rp_entry_findnew(struct pk_report *r, uint32_t ctx, uint32_t lclass,
				  uint32_t *idx)
{
	uint32_t *fast = NULL;
	if (ctx < sizeof(r->ctx_entries) / sizeof(r->ctx_entries[0])) {
		fast = cache_slot(&r->ctx_entries[ctx], lclass);
		if (fast && *fast) {
			*idx = *fast - 1;
			return rp_entry(r, *idx);
		}
	}
	uint32_t nr = (uint32_t)rp_nr_entries(r);
	int added;
	int64_t i = pk_idmap__get_or_put(&r->entry_map, (uint64_t)ctx << 32 | lclass, nr, &added);
	if (i < 0)
		return NULL;
	if (added) {
		struct rp_entry e = { .ctx = ctx, .lclass = lclass, .first_seq = UINT64_MAX };
		if (pk_buf__append(&r->entries, &e, sizeof(e)) < 0)
			return NULL;
	}
	if (fast)
		*fast = (uint32_t)i + 1;
	*idx = (uint32_t)i;
	return rp_entry(r, (uint32_t)i);
}

/* ---- the object ---------------------------------------------------------------------- */

int pk_report__new(struct pk_report **out, struct pk_session *s, const struct pk_report_opts *opts,
		   struct pk_error *err)
{
	*out = NULL;
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_report_opts", opts->sz);
	struct pk_report *r = calloc(1, sizeof(*r));
	if (!r)
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	r->s = s;
	PK_OPTS_LOAD(&r->opts, opts);	/* checked above */
	if ((unsigned)r->opts.children > PK_REPORT_OFF || (unsigned)r->opts.group > PK_REPORT_OFF ||
	    (unsigned)r->opts.topdown > PK_REPORT_OFF) {
		pk_report__free(r);
		return pk_error__set(err, -EINVAL, "", 0, 0,
				     "pk_report_opts: children, group and topdown take enum pk_report_switch");
	}
	/* perf's --hierarchy: no children unless asked for (then refused below) */
	r->children_off = r->opts.children == PK_REPORT_OFF;
	if (r->opts.hierarchy && r->opts.children == PK_REPORT_DEFAULT)
		r->opts.children = PK_REPORT_OFF;
	int rc = rp_parse_callchain(&r->cg, r->opts.call_graph, err);
	/* perf's --percent-limit is the callchain threshold too */
	if (!rc && !r->cg.min_set && r->opts.percent_limit > 0)
		r->cg.min_percent = (float)r->opts.percent_limit;
	if (!rc) {
		/* check the keys now; rp_decide sets them up again once the attrs are known */
		r->children = r->opts.children != PK_REPORT_OFF;
		rc = rp_setup_columns(r, err);
	}
	if (!rc && r->s && pk_session__nr_attrs(r->s))
		rc = rp_decide(r, err);
	if (rc) {
		pk_report__free(r);
		return rc;
	}
	/* node 0 of the prefix tree is unused (parent 0 means a root) */
	struct rp_tnode zero = { 0 };
	if (pk_buf__append(&r->tnodes, &zero, sizeof(zero)) < 0) {
		pk_report__free(r);
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	}
	*out = r;
	return 0;
}

void pk_report__free(struct pk_report *r)
{
	if (!r)
		return;
	rp_chains_free(r);
	rp_parent_free(r);
	for (size_t i = 0; i < r->nr_hists; i++) {
		free(r->hists[i].out);
		free(r->hists[i].pub);
		free(r->hists[i].pub_group);
	}
	free(r->hists);
	size_t n = rp_nr_entries(r);
	for (size_t i = 0; i < n; i++)
		free(rp_entry(r, (uint32_t)i)->pairs);
	pk_buf__free(&r->ctxs);
	pk_idmap__free(&r->ctx_map);
	pk_buf__free(&r->ctx_next);
	pk_buf__free(&r->lclasses);
	pk_idmap__free(&r->lc_map);
	pk_buf__free(&r->lc_next);
	pk_buf__free(&r->loc_lclass);
	pk_buf__free(&r->loc_lclass_chain);
	for (size_t i = 0; i < sizeof(r->ctx_entries) / sizeof(r->ctx_entries[0]); i++)
		pk_buf__free(&r->ctx_entries[i]);
	pk_buf__free(&r->lc_cclass);
	pk_intern__free(&r->cclasses);
	pk_idmap__free(&r->cclass_ids);
	pk_intern__free(&r->traces);
	pk_buf__free(&r->replay_seq);
	pk_buf__free(&r->replay_periods);
	pk_buf__free(&r->replay_jobs);
	pk_buf__free(&r->entries);
	pk_idmap__free(&r->entry_map);
	pk_buf__free(&r->tnodes);
	pk_idmap__free(&r->tmap);
	pk_buf__free(&r->ctx_root);
	for (size_t i = 0; i < r->path_cache.len / sizeof(struct rp_pathcache); i++) {
		free(((struct rp_pathcache *)r->path_cache.data)[i].locs);
		free(((struct rp_pathcache *)r->path_cache.data)[i].nodes);
	}
	pk_buf__free(&r->path_cache);
	pk_buf__free(&r->srcline_seq);
	pk_buf__free(&r->entry_seq);
	pk_idmap__free(&r->read_ids);
	pk_buf__free(&r->read_prev);
	pk_arena__free(&r->arena);
	free(r->sections);
	free(r);
}

static int ensure_hists(struct pk_report *r, int attr)
{
	if ((size_t)attr < r->nr_hists)
		return 0;
	size_t n = (size_t)attr + 1;
	if (PK_GROW(r->hists, r->cap_hists, n))
		return -ENOMEM;
	struct rp_hists *h = r->hists;
	memset(h + r->nr_hists, 0, (n - r->nr_hists) * sizeof(*h));
	for (size_t i = r->nr_hists; i < n; i++) {
		h[i].attr = (int)i;
		h[i].leader = (int)i;
		h[i].is_leader = true;
		h[i].nr_members = 1;
		for (int k = 0; k < 9; k++)
			h[i].td[k] = -1;
		const struct pk_data_attr *a = r->s ? pk_session__attr(r->s, (int)i) : NULL;
		h[i].has_callchain = a && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
		uint64_t dw = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		h[i].dwarf = h[i].has_callchain && (a->attr.sample_type & dw) == dw;
	}
	r->nr_hists = n;
	return 0;
}

int rp_decide(struct pk_report *r, struct pk_error *err)
{
	if (r->decided)
		return 0;
	bool callchains = false, dwarf = false;
	r->all_tracepoints = false;
	if (r->s) {
		size_t n = pk_session__nr_attrs(r->s);
		r->all_tracepoints = n > 0;
		for (size_t i = 0; i < n; i++) {
			const struct pk_data_attr *a = pk_session__attr(r->s, (int)i);
			if (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
				callchains = true;
			uint64_t dw = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			if ((a->attr.sample_type & dw) == dw)
				dwarf = true;
			if (a->attr.type != PERF_TYPE_TRACEPOINT)
				r->all_tracepoints = false;
		}
	}
	/*
	 * perf: cumulation is silently off without callchains; caller order
	 * with it. perf decides before a pipe's attrs arrive: no children, and
	 * the default sort keys, for pipes.
	 */
	bool pipe = r->s && pk_session__is_pipe(r->s);
	if (pipe)
		r->all_tracepoints = false;
	r->children = r->opts.children != PK_REPORT_OFF && callchains && (!pipe || r->opts.top);
	/* (perf sets the order before it turns cumulation off) */
	if ((r->opts.children != PK_REPORT_OFF || (r->opts.hierarchy && !r->children_off)) &&
	    !r->cg.order_set)
		r->cg.caller = true;
	int rc = rp_setup_columns(r, err);
	/*
	 * The symbol key without the DSO key: perf's sort__sym_cmp can be no order
	 * (collapse_rb.c tells at finish), and its entries then come from its
	 * trees walked at every sample (replay.c): the samples are kept in order
	 */
	r->replay_sym = r->has_key[RP_KEY_SYM] && !r->has_key[RP_KEY_DSO] && !r->lc_addr &&
			!r->ctx_trace && !r->ctx_weight[0] && !r->ctx_weight[1] && !r->ctx_weight[2] &&
			!r->has_key[RP_KEY_TIME] && !r->opts.hierarchy;
	r->need_chain = callchains && (r->children || r->cg.enabled || r->has_key[RP_KEY_PARENT]);
	if (!rc)
		rc = rp_parent_setup(r, err);
	if (!rc && r->opts.hierarchy && r->children)
		rc = pk_error__set(err, -EINVAL, "", 0, 0, "--hierarchy takes no children");
	/*
	 * the time key with children: perf adds every frame again (chain.c); on
	 * unwound stacks its inlined frames and its trees' orders are not replayed
	 */
	if (!rc && r->has_key[RP_KEY_TIME] && r->children && dwarf)
		rc = pk_error__set(err, -EINVAL, "", 0, 0,
				   "The --sort key `time' with children on a --call-graph dwarf "
				   "recording is not supported by pmukit (perf 6.1 adds each frame, "
				   "inlined ones too, to the entries again); use --no-children");
	if (!rc)
		r->decided = true;
	return rc;
}

/* ---- adding samples ------------------------------------------------------------------ */

static int64_t sample_ctx(struct pk_report *r, int hists, const struct pk_resolved *rs)
{
	const struct pk_sample *smp = rs->sample;
	if (r->last_valid && r->last_hists == hists && r->last_thread == rs->thread &&
	    r->last_comm == rs->comm && r->last_cpu == smp->cpu && !r->ctx_weight[0] &&
	    !r->ctx_weight[1] && !r->ctx_weight[2] && !r->ctx_trace && !r->parent_re &&
	    !r->has_key[RP_KEY_TIME])
		return r->last_ctx;
	struct rp_ctx c = { .hists = hists };
	if (r->ctx_cpu)
		c.cpu = smp->cpu;
	if (r->ctx_thread)
		c.thread = rs->thread;
	if (r->ctx_comm)
		c.comm = rs->comm;
	if (r->ctx_trace) {
		const struct pk_data_attr *a = rs->data_attr;
		if (a && a->attr.type == PERF_TYPE_TRACEPOINT) {
			const char *t = r->opts.trace_output(r->opts.trace_ctx, rs);
			if (!t)
				t = "";
			long off = pk_intern__add(&r->traces, t, strlen(t), 1);
			if (off < 0)
				return -1;
			c.trace = (const char *)(uintptr_t)(off + 1);	/* resolved at finish */
		}
	}
	c.parent = r->cur_parent;
	if (r->has_key[RP_KEY_TIME]) {
		/* perf's hist_time */
		uint64_t q = r->opts.time_quantum ? r->opts.time_quantum : 100000000;
		c.time = smp->time / q * q;
	}
	if (r->ctx_weight[0])
		c.weight[0] = smp->weight;
	if (r->ctx_weight[1])
		c.weight[1] = smp->weight_var2;
	if (r->ctx_weight[2])
		c.weight[2] = smp->weight_var3;
	int64_t id = rp_intern(&r->ctx_map, &r->ctxs, &r->ctx_next, sizeof(c), ctx_hash(&c), &c,
			    ctx_eq_v);
	if (id < 0)
		return -1;
	size_t have = r->ctx_root.len / sizeof(uint32_t);
	if ((size_t)id >= have) {
		uint32_t zero = 0;
		if (pk_buf__append(&r->ctx_root, &zero, sizeof(zero)) < 0)
			return -1;
	}
	r->last_valid = true;
	r->last_hists = hists;
	r->last_thread = rs->thread;
	r->last_comm = rs->comm;
	r->last_cpu = smp->cpu;
	r->last_ctx = (uint32_t)id;
	return id;
}

static int64_t tnode_child(struct pk_report *r, uint32_t parent, uint32_t loc)
{
	uint32_t nr = (uint32_t)(r->tnodes.len / sizeof(struct rp_tnode));
	int added;
	int64_t i = pk_idmap__get_or_put(&r->tmap, (uint64_t)parent << 32 | loc, nr, &added);
	if (i < 0)
		return -1;
	if (added) {
		struct rp_tnode n = { .parent = parent, .loc = loc };
		if (pk_buf__append(&r->tnodes, &n, sizeof(n)) < 0)
			return -1;
	}
	return i;
}

static void stat_add(struct rp_stat *st, uint8_t cpumode, uint64_t period,
		     const struct pk_sample *smp)
{
	st->period += period;
	st->nr_events++;
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		st->period_sys += period;
		break;
	case PERF_RECORD_MISC_USER:
		st->period_us += period;
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		st->period_guest_sys += period;
		break;
	case PERF_RECORD_MISC_GUEST_USER:
		st->period_guest_us += period;
		break;
	default:
		break;
	}
	st->weight[0] += smp->weight;
	st->weight[1] += smp->weight_var2;
	st->weight[2] += smp->weight_var3;
}

/* id appended to a run-length sequence */
static int run_add(struct pk_buf *seq, uint32_t id)
{
	size_t n = seq->len / sizeof(struct rp_run);
	struct rp_run *last = n ? &((struct rp_run *)seq->data)[n - 1] : NULL;
	if (last && last->id == id) {
		last->reps++;
		return 0;
	}
	struct rp_run run = { id, 1 };
	return pk_buf__append(seq, &run, sizeof(run)) < 0 ? -ENOMEM : 0;
}

/* with the srcline key, the order of the samples' self nodes (or lclasses | RP_SELF) */
static int seq_add(struct pk_report *r, uint32_t id)
{
	return r->lc_addr ? run_add(&r->srcline_seq, id) : 0;
}

/*
 * The node of context ctx's prefix tree under which rs's callchain goes on
 * (consecutive samples of a context share their callers: the common part of
 * the last path is skipped), into *node; *k: the callers already there.
 */
static int chain_start(struct pk_report *r, uint32_t ctx, const struct pk_resolved *rs,
		       uint32_t *node, size_t *k, struct rp_pathcache **out)
{
	uint32_t *root = &((uint32_t *)r->ctx_root.data)[ctx];
	if (!*root) {
		int64_t n = tnode_child(r, 0, ctx | RP_SELF);
		if (n < 0)
			return -ENOMEM;
		root = &((uint32_t *)r->ctx_root.data)[ctx];
		*root = (uint32_t)n;
	}
	*node = *root;
	size_t have = r->path_cache.len / sizeof(struct rp_pathcache);
	if ((size_t)ctx >= have) {
		size_t add = ((size_t)ctx + 16 - have) * sizeof(struct rp_pathcache);
		if (pk_buf__reserve(&r->path_cache, add))
			return -ENOMEM;
		memset(r->path_cache.data + r->path_cache.len, 0, add);
		r->path_cache.len += add;
	}
	struct rp_pathcache *pc = &((struct rp_pathcache *)r->path_cache.data)[ctx];
	size_t nr = rs->nr_chain, i = 0;
	while (i < pc->n && i < nr && pc->locs[i] == rs->chain[nr - 1 - i]->id)
		i++;
	if (i)
		*node = pc->nodes[i - 1];
	if (nr > pc->cap) {	/* two arrays, one capacity: the same policy gives both the same */
		size_t cap_locs = pc->cap, cap_nodes = pc->cap;
		if (PK_GROW(pc->locs, cap_locs, nr) || PK_GROW(pc->nodes, cap_nodes, nr))
			return -ENOMEM;
		pc->cap = cap_locs < cap_nodes ? cap_locs : cap_nodes;
	}
	*k = i;
	*out = pc;
	return 0;
}

/*
 * The sample's callchain into context ctx's prefix tree: callers first, its
 * own loc last (that self node into *self).
 */
static int chain_add(struct pk_report *r, uint32_t ctx, const struct pk_resolved *rs,
		     uint64_t period, uint8_t hidden, uint64_t seq, uint32_t *self)
{
	uint32_t node;
	size_t k, nr = rs->nr_chain;
	struct rp_pathcache *pc;
	if (chain_start(r, ctx, rs, &node, &k, &pc))
		return -ENOMEM;
	for (size_t i = k; i < nr; i++) {
		uint32_t loc = rs->chain[nr - 1 - i]->id;
		int64_t n = tnode_child(r, node, loc);
		if (n < 0) {
			pc->n = (uint32_t)i;
			return -ENOMEM;
		}
		node = (uint32_t)n;
		pc->locs[i] = loc;
		pc->nodes[i] = node;
	}
	pc->n = (uint32_t)nr;
	int64_t n = tnode_child(r, node, rs->loc->id | RP_SELF);
	if (n < 0)
		return -ENOMEM;
	if (seq_add(r, (uint32_t)n))
		return -ENOMEM;
	struct rp_tnode *t = rp_tnode(r, (uint32_t)n);
	if (!t->count) {
		t->thread = rs->thread ? rs->thread->id + 1 : 0;
		t->seq = seq;
		t->hidden = hidden;
	}
	t->hit += period;
	t->count++;
	*self = (uint32_t)n;
	return 0;
}

/*
 * perf's trees may not be the hash's: the sample in order, for replay.c (of a
 * dwarf hists with children, or all with replay_sym); tnode its self node, 0
 * without a callchain
 */
static int replay_rec(struct pk_report *r, const struct rp_hists *hs, uint32_t ctx, uint32_t tnode,
		      const struct pk_resolved *rs, uint64_t period, uint8_t hidden)
{
	if (!r->replay_sym && !(r->children && hs->dwarf && tnode))
		return 0;
	struct rp_replay_sample rec = { .node = tnode ? tnode : rs->loc->id | RP_SELF, .ctx = ctx,
					.period = period < UINT32_MAX ? (uint32_t)period : UINT32_MAX,
					.cpumode = rs->cpumode, .hidden = hidden, .reps = 1,
					.thread = rs->thread ? rs->thread->id + 1 : 0 };
	size_t n = r->replay_seq.len / sizeof(rec);
	struct rp_replay_sample *last = n ? &((struct rp_replay_sample *)r->replay_seq.data)[n - 1]
					  : NULL;
	if (last && last->node == rec.node && last->ctx == ctx && last->period == rec.period &&
	    rec.period != UINT32_MAX && last->cpumode == rec.cpumode && last->hidden == hidden &&
	    last->thread == rec.thread && last->reps < UINT16_MAX) {
		last->reps++;
		return 0;
	}
	struct rp_replay_period big = { n, period };
	if (rec.period == UINT32_MAX && pk_buf__append(&r->replay_periods, &big, sizeof(big)) < 0)
		return -ENOMEM;
	return pk_buf__append(&r->replay_seq, &rec, sizeof(rec)) < 0 ? -ENOMEM : 0;
}

/* One sample for hists h with period (perf's hist_entry_iter__add). */
static int add_one(struct pk_report *r, int h, const struct pk_resolved *rs, uint64_t period,
		   uint8_t hidden)
{
	if (ensure_hists(r, h))
		return -ENOMEM;
	int64_t ctx = sample_ctx(r, h, rs);
	if (ctx < 0)
		return -ENOMEM;
	uint32_t lc = rp_loc_lclass(r, rs->loc);
	if (lc == UINT32_MAX)
		return -ENOMEM;
	uint32_t ei;
	struct rp_entry *e = rp_entry_findnew(r, (uint32_t)ctx, lc, &ei);
	if (!e)
		return -ENOMEM;
	uint64_t seq = r->nr_delivered++;
	if (!e->has_self && !e->thread) {
		e->first_seq = seq;
		e->thread = rs->thread;
		e->comm = rs->comm;
		e->cpu = rs->sample->cpu;
		e->weight[0] = rs->sample->weight;
		e->weight[1] = rs->sample->weight_var2;
		e->weight[2] = rs->sample->weight_var3;
		e->level = rs->loc->level;
		e->hidden = hidden;	/* perf's he->filtered: the sample that made it */
		e->first_loc = rs->loc->id + 1;
	}
	e->has_self = true;
	if (r->has_key[RP_KEY_SRCLINE] && !r->children && run_add(&r->entry_seq, ei))
		return -ENOMEM;
	stat_add(&e->stat, rs->cpumode, period, rs->sample);
	struct rp_hists *hs = &r->hists[h];
	hs->nr_samples++;
	if (!r->need_chain || !hs->has_callchain)
		return seq_add(r, lc | RP_SELF) ? -ENOMEM
						: replay_rec(r, hs, (uint32_t)ctx, 0, rs, period, hidden);
	if (r->cg.enabled)
		hs->callchain_period += period;
	uint32_t self;
	int rc = chain_add(r, (uint32_t)ctx, rs, period, hidden, seq, &self);
	return rc ? rc : replay_rec(r, hs, (uint32_t)ctx, self, rs, period, hidden);
}

/*
 * perf's deliver_sample_value over a PERF_SAMPLE_READ sample: each value's
 * delta since the last sample of its id, added when rs is set (a sample
 * dropped by --time or -C still moves the previous values on).
 */
static int add_read(struct pk_report *r, const struct pk_sample *smp, const struct pk_resolved *rs,
		    uint8_t hidden)
{
	const struct pk_sample_read *rdv = &smp->read;
	size_t nr = (rdv->read_format & PERF_FORMAT_GROUP) ? rdv->nr : 1;
	int rc = 0;
	for (size_t i = 0; i < nr && !rc; i++) {
		struct pk_sample_read_value v = pk_sample_read__value(rdv, i);
		int attr = pk_session__attr_of_id(r->s, v.id);
		if (attr < 0)
			continue;
		size_t nprev = r->read_prev.len / sizeof(uint64_t);
		int added;
		int64_t slot = pk_idmap__get_or_put(&r->read_ids, v.id, (uint32_t)nprev, &added);
		if (slot < 0)
			return -ENOMEM;
		if (added) {
			uint64_t z = 0;
			if (pk_buf__append(&r->read_prev, &z, sizeof(z)) < 0)
				return -ENOMEM;
		}
		uint64_t *prev = &((uint64_t *)r->read_prev.data)[slot];
		uint64_t delta = v.value - *prev;
		*prev = v.value;
		if (delta && rs)
			rc = add_one(r, attr, rs, delta, hidden);
	}
	return rc;
}

int pk_report__add(struct pk_report *r, const struct pk_resolved *rs, struct pk_error *err)
{
	if (r->finished)
		return pk_error__set(err, -EINVAL, "", 0, 0, "report: sample added after finish");
	if (!r->decided) {
		int rc = rp_decide(r, err);
		if (rc)
			return rc;
	}
	const struct pk_sample *smp = rs->sample;
	int rc = 0;
	uint8_t hidden = (uint8_t)pk_sample_filter__hide(r->opts.filter, rs);
	struct pk_resolved shown, rooted;
	/* the parent from the whole callchain (perf finds it as it resolves, before a root) */
	if (ensure_hists(r, rs->attr))
		return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	bool dwarf = r->hists[rs->attr].dwarf;
	r->cur_parent = rp_parent_of(r, rs, dwarf);
	if (r->ignore_re) {
		rp_ignore_callees(r, rs, dwarf, &rooted);
		rs = &rooted;
	}
	if (r->opts.hide_unresolved) {
		rc = rp_hide_unresolved(r, rs, &shown);
		if (rc <= 0)
			return rc ? pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory") : 0;
		rs = &shown;
	}
	if (!(smp->sample_type & PERF_SAMPLE_READ)) {
		rc = add_one(r, rs->attr, rs, smp->period, hidden);
	} else {
		rc = add_read(r, smp, rs, hidden);
	}
	if (rc)
		return pk_error__set(err, rc, "", 0, 0, "out of memory");
	return 0;
}

int pk_report__process(struct pk_report *r, struct pk_error *err)
{
	const struct pk_data_event *ev;
	struct pk_resolved rs = { .sz = sizeof(rs) };
	int rc;
	while ((rc = pk_session__next(r->s, &ev, err)) > 0) {
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		if (!r->decided && (rc = rp_decide(r, err)))
			return rc;
		if (pk_sample_filter__drop(r->opts.filter, ev)) {
			/* perf's --time and -C: not counted */
			if ((ev->sample.sample_type & PERF_SAMPLE_READ) &&
			    add_read(r, &ev->sample, NULL, 0))
				return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
			continue;
		}
		unsigned how = !r->need_chain ? 0 : PK_RESOLVE_CALLCHAIN |
						     (r->cg.caller ? PK_RESOLVE_CALLER_ORDER : 0);
		rc = pk_session__resolve(r->s, ev, how, &rs, err);
		if (rc)
			return rc;
		rc = pk_report__add(r, &rs, err);
		if (rc)
			return rc;
	}
	return rc;
}

uint64_t pk_report__total_lost_samples(const struct pk_report *r)
{
	/* the session counts them (perf's "Total Lost Samples") */
	return r->s ? pk_session__lost_samples(r->s, -1) : 0;
}

int pk_report__finish(struct pk_report *r, struct pk_error *err)
{
	if (r->finished)
		return 0;
	if (r->s) {
		size_t n = pk_session__nr_attrs(r->s);
		if (n && ensure_hists(r, (int)n - 1))
			return pk_error__set(err, -ENOMEM, "", 0, 0, "out of memory");
	}
	int rc = rp_decide(r, err);
	if (rc)
		return rc;
	rc = rp_finish(r, err);
	if (!rc)
		r->finished = true;
	return rc;
}
