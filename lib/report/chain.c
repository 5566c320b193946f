/* SPDX-License-Identifier: MIT */
/*
 * report/chain.c — each printed entry's callchain tree, as perf's
 * callchain_append builds it: frames matched by function (DSO and symbol
 * start, or DSO and address without a symbol), by address with -g address,
 * by srcline with -g srcline.
 *
 * The trees are derived from the per-context prefix trees of callchains
 * (callers first), one entry at a time when it is printed. Each entry's
 * jobs are collected once by a walk of the prefix trees: a self entry gets
 * the whole callchain of each of its sample paths; with --children in
 * caller order, the entry of the first frame of its class along a path
 * (perf counts an entry once per sample) gets that frame's subtree, minus
 * the samples whose own entry is of the same class (perf skips them). A
 * subtree is merged in one walk instead of one callchain per sample path,
 * and nodes are created only where samples land below them, as perf's
 * callchain_append would create them. In callee order the cumulative
 * callchains run from the frame to the root, so they are added per path.
 * With the time key every frame's entry gets its callchain (perf's he_cache
 * never matches there).
 * Trees are kept uncompressed (one node per frame); perf's compressed nodes
 * are the runs of nodes without hits of their own and with one child.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/chain_int.h"

/* ---- frame keys ------------------------------------------------------------------- */

const char *rp_chain_srcline(struct pk_report *r, const struct pk_loc *loc, char *buf,
			     size_t size)
{
	if (!loc->map)
		return NULL;
	const char *sl = pk_session__loc_srcline(r->s, loc);
	if (sl)
		return sl;
	if (r->cg.key == RP_CCKEY_SRCLINE)
		return "??:0";
	if (!loc->sym)
		return NULL;
	snprintf(buf, size, "+%" PRIu64, loc->addr - loc->sym->start);
	return buf;
}

static uint32_t *slot_for(struct pk_buf *cache, uint32_t id)
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

/* perf's match_chain key of a location, interned */
static int64_t loc_fkey(struct pk_report *r, struct rp_chains *c, const struct pk_loc *loc)
{
	uint32_t *slot = slot_for(&c->loc_fkey, loc->id);
	if (!slot)
		return -1;
	if (*slot)
		return *slot - 1;
	struct fkey k = { .dso = loc->dso, .addr = loc->ip, .name = loc->sym ? loc->sym->name : NULL };
	k.ip = loc->ip;
	if (r->cg.key == RP_CCKEY_FUNCTION && loc->sym)
		k.addr = loc->sym->start, k.by_sym = true;
	char tmp[64];
	const char *sl = r->cg.key == RP_CCKEY_SRCLINE ? rp_chain_srcline(r, loc, tmp, sizeof(tmp))
						       : NULL;
	/*
	 * perf's match_chain compares an inlined function by its name (its
	 * symbol's start is the function it was inlined into)
	 */
	if (!sl && r->cg.key != RP_CCKEY_ADDRESS && loc->sym && loc->sym->inlined) {
		sl = loc->sym->name;
		k.inl = true;
	}
	if (sl) {
		/* perf's match_chain_strings: equal srclines (or names) are one node */
		long id = pk_intern__add(&r->cclasses, sl, strlen(sl), 0);
		if (id < 0)
			return -1;
		k.dso = NULL;
		k.addr = ~(uint64_t)id;
	}
	uint64_t h = pk_idmap__hash((uint64_t)(uintptr_t)k.dso * 31 + k.addr);
	uint32_t nr = (uint32_t)(c->fkeys.len / sizeof(k));
	int added;
	int64_t first = pk_idmap__get_or_put(&c->fkey_map, h, nr, &added);
	if (first < 0)
		return -1;
	int64_t id = -1;
	if (!added) {
		uint32_t i = (uint32_t)first;
		for (;;) {
			if (fk(c, i)->dso == k.dso && fk(c, i)->addr == k.addr) {
				id = i;
				break;
			}
			uint32_t n = ((uint32_t *)c->fkey_next.data)[i];
			if (!n) {
				((uint32_t *)c->fkey_next.data)[i] = nr + 1;
				break;
			}
			i = n - 1;
		}
	}
	if (id < 0) {
		uint32_t zero = 0;
		if (pk_buf__append(&c->fkeys, &k, sizeof(k)) < 0 ||
		    pk_buf__append(&c->fkey_next, &zero, sizeof(zero)) < 0)
			return -1;
		id = nr;
	}
	slot = slot_for(&c->loc_fkey, loc->id);
	*slot = (uint32_t)id + 1;
	return id;
}

/* ---- the tree of one entry ------------------------------------------------------------- */

static int64_t child(struct pk_report *r, struct rp_chains *c, uint32_t node, uint32_t loc)
{
	int64_t f = loc_fkey(r, c, pk_session__loc_at(r->s, loc));
	if (f < 0)
		return -1;
	uint32_t nr = (uint32_t)(c->nodes.len / sizeof(struct cnode));
	int added;
	int64_t ch = pk_idmap__get_or_put(&c->map, (uint64_t)node << 32 | (uint32_t)f, nr, &added);
	if (ch < 0)
		return -1;
	if (added) {
		struct cnode n = { .loc = loc, .fkey = (uint32_t)f, .parent = node };
		if (pk_buf__append(&c->nodes, &n, sizeof(n)) < 0)
			return -1;
	}
	return ch;
}

/* perf's callchain_append of frames[0..n) (print order) with hit and count */
static int append(struct pk_report *r, struct rp_chains *c, const uint32_t *frames, size_t n,
		  uint64_t hit, uint64_t count)
{
	if (!n)
		return 0;	/* an empty callchain adds nothing */
	uint32_t node = 1;
	for (size_t i = 0; i < n; i++) {
		cn(c, node)->children_hit += hit;
		cn(c, node)->children_count += count;
		int64_t ch = child(r, c, node, frames[i]);
		if (ch < 0)
			return -ENOMEM;
		node = (uint32_t)ch;
	}
	cn(c, node)->hit += hit;
	cn(c, node)->count += count;
	return 0;
}

/* a subtree merge: the prefix-tree nodes from the job's node down, and their images */
struct merge {
	struct pk_report *r;
	struct rp_chains *c;
	uint32_t excl;			/* cclass whose samples are left out */
	struct {
		uint32_t tnode, image;	/* image 0: not created yet */
	} *stk;				/* tdepth + 2 of them */
};

static int materialize(struct merge *m, int d)
{
	int i = d;
	while (i > 0 && !m->stk[i].image)
		i--;
	for (i++; i <= d; i++) {
		int64_t ch = child(m->r, m->c, m->stk[i - 1].image,
				   rp_tnode(m->r, m->stk[i].tnode)->loc);
		if (ch < 0)
			return -ENOMEM;
		m->stk[i].image = (uint32_t)ch;
	}
	return 0;
}

static bool is_self(const struct rp_tnode *t)
{
	return t->parent && (t->loc & RP_SELF);
}

static int merge(struct merge *m, int d, uint64_t *hit, uint64_t *count, bool *added)
{
	struct pk_report *r = m->r;
	struct rp_chains *c = m->c;
	uint32_t n = m->stk[d].tnode;
	*hit = *count = 0;
	*added = false;
	for (uint32_t i = c->tfirst[n]; i < c->tfirst[n + 1]; i++) {
		uint32_t x = c->tkids[i];
		const struct rp_tnode *t = rp_tnode(r, x);
		if (is_self(t)) {
			const struct pk_loc *self = pk_session__loc_at(r->s, t->loc & ~RP_SELF);
			if (rp_lclass_cclass(r, rp_loc_lclass(r, self)) == m->excl)
				continue;	/* its own entry's sample: perf's he_cache skips it */
			if (materialize(m, d))
				return -ENOMEM;
			struct cnode *img = cn(c, m->stk[d].image);
			img->hit += t->hit;
			img->count += t->count;
			*hit += t->hit;
			*count += t->count;
			*added = true;
			continue;
		}
		m->stk[d + 1].tnode = x;
		m->stk[d + 1].image = 0;
		uint64_t h, k;
		bool a;
		int rc = merge(m, d + 1, &h, &k, &a);
		if (rc)
			return rc;
		if (a) {
			struct cnode *img = cn(c, m->stk[d].image);
			img->children_hit += h;
			img->children_count += k;
			*hit += h;
			*count += k;
			*added = true;
		}
	}
	return 0;
}

/* the callchain of self node s, callee first, into buf; its length */
size_t rp_chain_path_of(struct pk_report *r, uint32_t s, struct pk_buf *buf)
{
	buf->len = 0;
	for (uint32_t p = rp_tnode(r, s)->parent; rp_tnode(r, p)->parent; p = rp_tnode(r, p)->parent)
		if (pk_buf__append(buf, &rp_tnode(r, p)->loc, sizeof(uint32_t)) < 0)
			return SIZE_MAX;
	return buf->len / sizeof(uint32_t);
}

/* a created after b (NULL, an unresolved DSO, first of all) */
static bool dso_after(const struct pk_dso *a, const struct pk_dso *b)
{
	if (!a || !b)
		return b == NULL && a != NULL;
	return pk_dso__order(a) > pk_dso__order(b);
}

int rp_fkey_cmp(const struct fkey *ka, const struct fkey *kb)
{
	if ((ka->inl || kb->inl) && ka->name && kb->name) {
		/* perf's match_chain_strings over the symbols' names */
		int cmp = strcmp(ka->name, kb->name);
		if (cmp)
			return cmp > 0 ? -1 : 1;
	}
	/* perf compares the DSOs' addresses: their creation order in its reading */
	if (ka->dso != kb->dso)
		return dso_after(ka->dso, kb->dso) ? -1 : 1;
	/* a symbol against an unresolved address: perf's match_chain falls back to both ips */
	if (ka->by_sym != kb->by_sym && ka->ip != kb->ip)
		return ka->ip > kb->ip ? -1 : 1;
	if (ka->addr != kb->addr)
		return ka->addr > kb->addr ? -1 : 1;
	return 0;
}

/*
 * sibling order: cumulative hits, then perf's match order (DSO, then address, descending).
 * glibc's qsort_r: the same merge sort as its qsort, with the chains as context (no
 * file-scope pointer: two reports may finish on two threads).
 */
static int kid_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct rp_chains *c = ctx;
	const struct cnode *a = cn(c, *(const uint32_t *)pa), *b = cn(c, *(const uint32_t *)pb);
	uint64_t ca = a->hit + a->children_hit, cb = b->hit + b->children_hit;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	return rp_fkey_cmp(fk(c, a->fkey), fk(c, b->fkey));
}

static int sort_kids(struct rp_chains *c)
{
	size_t nn = c->nodes.len / sizeof(struct cnode);
	free(c->kids);
	c->kids = malloc((nn ? nn : 1) * sizeof(uint32_t));
	if (!c->kids)
		return -ENOMEM;
	for (size_t i = 0; i < nn; i++)
		cn(c, (uint32_t)i)->nr_children = 0;
	for (size_t i = 2; i < nn; i++)
		cn(c, cn(c, (uint32_t)i)->parent)->nr_children++;
	uint32_t pos = 0;
	for (size_t i = 0; i < nn; i++) {
		cn(c, (uint32_t)i)->first_child = pos;
		pos += cn(c, (uint32_t)i)->nr_children;
		cn(c, (uint32_t)i)->nr_children = 0;
	}
	for (size_t i = 2; i < nn; i++) {
		struct cnode *p = cn(c, cn(c, (uint32_t)i)->parent);
		c->kids[p->first_child + p->nr_children++] = (uint32_t)i;
	}
	for (size_t i = 0; i < nn; i++) {
		struct cnode *n = cn(c, (uint32_t)i);
		if (n->nr_children > 1)
			qsort_r(c->kids + n->first_child, n->nr_children, sizeof(uint32_t), kid_cmp, c);
	}
	return 0;
}

int rp_chain_tree(struct pk_report *r, const struct rp_entry *e)
{
	struct rp_chains *c = r->chains;
	size_t ei = (size_t)(e - rp_entry(r, 0));
	if (!c || ei >= c->nr_entries || c->job_start[ei] == c->job_start[ei + 1])
		return 1;
	/* a fresh tree: node 0 unused, node 1 the root */
	c->nodes.len = 0;
	c->replayed = false;
	pk_idmap__free(&c->map);
	struct cnode zero = { 0 };
	if (pk_buf__append(&c->nodes, &zero, sizeof(zero)) < 0 ||
	    pk_buf__append(&c->nodes, &zero, sizeof(zero)) < 0)
		return -ENOMEM;
	struct pk_buf path = { 0 }, order = { 0 };
	struct merge *m = NULL;
	int rc = 0;
	for (uint32_t j = c->job_start[ei]; j < c->job_start[ei + 1] && !rc; j++) {
		const struct job *jb = &c->jobs[j];
		if (jb->kind == JOB_SUBTREE) {
			if (!m && (!(m = calloc(1, sizeof(*m))) ||
				   !(m->stk = malloc((c->tdepth + 2) * sizeof(*m->stk))))) {
				rc = -ENOMEM;
				break;
			}
			m->r = r;
			m->c = c;
			m->excl = jb->aux;
			m->stk[0].image = 1;
			m->stk[1].tnode = jb->node;
			m->stk[1].image = 0;
			uint64_t h, k;
			bool a;
			rc = merge(m, 1, &h, &k, &a);
			if (!rc && a) {
				cn(c, 1)->children_hit += h;
				cn(c, 1)->children_count += k;
			}
			continue;
		}
		size_t n = rp_chain_path_of(r, jb->node, &path);
		if (n == SIZE_MAX) {
			rc = -ENOMEM;
			break;
		}
		const uint32_t *fr = (const uint32_t *)path.data;	/* callee first */
		order.len = 0;
		if (jb->kind == JOB_PATH) {
			for (size_t k = 0; k < n && !rc; k++)
				if (pk_buf__append(&order, &fr[r->cg.caller ? n - 1 - k : k],
						   sizeof(uint32_t)) < 0)
					rc = -ENOMEM;
		} else if (jb->kind == JOB_CALLER) {
			for (size_t k = jb->aux < n ? jb->aux + 1 : 0; k-- > 0 && !rc;)
				if (pk_buf__append(&order, &fr[k], sizeof(uint32_t)) < 0)
					rc = -ENOMEM;
		} else {
			for (size_t k = jb->aux; k < n && !rc; k++)
				if (pk_buf__append(&order, &fr[k], sizeof(uint32_t)) < 0)
					rc = -ENOMEM;
		}
		if (!rc)
			rc = append(r, c, (const uint32_t *)order.data, order.len / sizeof(uint32_t),
				    jb->hit, jb->count);
	}
	if (m)
		free(m->stk);
	free(m);
	pk_buf__free(&path);
	pk_buf__free(&order);
	if (!rc)
		rc = sort_kids(c);
	/* siblings perf's match_chain does not order: its trees, replayed (chain_rb.c) */
	if (!rc && rp_chain_mixed(r, c))
		rc = rp_chain_replay(r, c, ei);
	return rc;
}

/* ---- the jobs of the printed entries --------------------------------------------------------- */

static uint32_t target(struct pk_report *r, uint32_t ctx, uint32_t lc)
{
	int64_t i = pk_idmap__get(&r->entry_map, (uint64_t)ctx << 32 | lc);
	if (i < 0)
		return UINT32_MAX;
	uint32_t k = (uint32_t)i;
	while (rp_entry(r, k)->merged)
		k = rp_entry(r, k)->merged - 1;
	const struct rp_entry *e = rp_entry(r, k);
	const struct rp_hists *h = &r->hists[rp_ctx(r, e->ctx)->hists];
	if (e->filtered || e->hidden || (r->group && !h->is_leader))
		return UINT32_MAX;
	return k;
}

static int add_job(struct pk_buf *jobs, struct pk_buf *owners, uint32_t entry, uint32_t node,
		   uint32_t aux, uint32_t kind, const struct rp_tnode *t)
{
	struct job j = { .node = node, .aux = aux, .kind = kind, .hit = t->hit, .count = t->count };
	return pk_buf__append(jobs, &j, sizeof(j)) < 0 ||
	       pk_buf__append(owners, &entry, sizeof(entry)) < 0 ? -ENOMEM : 0;
}

/* the prefix trees' children lists */
static int index_tree(struct pk_report *r, struct rp_chains *c)
{
	size_t nn = r->tnodes.len / sizeof(struct rp_tnode);
	c->tfirst = calloc(nn + 1, sizeof(uint32_t));
	c->tkids = malloc((nn ? nn : 1) * sizeof(uint32_t));
	if (!c->tfirst || !c->tkids)
		return -ENOMEM;
	for (size_t i = 1; i < nn; i++)
		if (rp_tnode(r, (uint32_t)i)->parent)
			c->tfirst[rp_tnode(r, (uint32_t)i)->parent + 1]++;
	for (size_t i = 0; i < nn; i++)
		c->tfirst[i + 1] += c->tfirst[i];
	uint32_t *fill = calloc(nn + 1, sizeof(uint32_t));
	if (!fill)
		return -ENOMEM;
	c->tdepth = 0;
	for (size_t i = 1; i < nn; i++) {
		uint32_t p = rp_tnode(r, (uint32_t)i)->parent;
		if (p)
			c->tkids[c->tfirst[p] + fill[p]++] = (uint32_t)i;
	}
	uint32_t *depth = calloc(nn + 1, sizeof(uint32_t));
	if (!depth) {
		free(fill);
		return -ENOMEM;
	}
	for (size_t i = 1; i < nn; i++) {
		uint32_t p = rp_tnode(r, (uint32_t)i)->parent;
		depth[i] = p ? depth[p] + 1 : 0;
		if (depth[i] > c->tdepth)
			c->tdepth = depth[i];
	}
	free(depth);
	free(fill);
	return 0;
}

/* walk a context's prefix tree; cnt counts each class on the path from the root */
static int collect(struct pk_report *r, struct rp_chains *c, uint32_t root, uint32_t ctx,
		   uint32_t *cnt, struct pk_buf *jobs, struct pk_buf *owners)
{
	struct frame {
		uint32_t node, next, cc;
	} *stk = malloc((c->tdepth + 2) * sizeof(*stk));
	int sp = 0, rc = 0;
	if (!stk)
		return -ENOMEM;
	stk[0].node = root;
	stk[0].next = c->tfirst[root];
	stk[0].cc = UINT32_MAX;
	bool subtrees = r->children && r->cg.caller;
	/*
	 * the time key: perf's he_cache compares each frame's entry with a
	 * template without the time, which never matches: every frame adds its
	 * callchain to its entry, the sample's own frame too
	 */
	bool every = r->has_key[RP_KEY_TIME];
	struct pk_buf path = { 0 }, cache = { 0 };
	while (sp >= 0 && !rc) {
		uint32_t n = stk[sp].node;
		if (stk[sp].next == c->tfirst[n + 1]) {
			if (stk[sp].cc != UINT32_MAX)
				cnt[stk[sp].cc]--;
			sp--;
			continue;
		}
		uint32_t x = c->tkids[stk[sp].next++];
		const struct rp_tnode *t = rp_tnode(r, x);
		if (is_self(t)) {
			const struct pk_loc *self = pk_session__loc_at(r->s, t->loc & ~RP_SELF);
			uint32_t lc0 = rp_loc_lclass(r, self);
			uint32_t e0 = target(r, ctx, lc0);
			if (e0 != UINT32_MAX && (rc = add_job(jobs, owners, e0, x, 0, JOB_PATH, t)))
				break;
			if (!r->children || subtrees)
				continue;
			/* callee order: each class's first frame from the leaf, once per sample */
			size_t np = rp_chain_path_of(r, x, &path);
			if (np == SIZE_MAX) {
				rc = -ENOMEM;
				break;
			}
			const uint32_t *fr = (const uint32_t *)path.data;
			uint32_t cc0 = rp_lclass_cclass(r, lc0);
			cache.len = 0;
			if (pk_buf__append(&cache, &cc0, sizeof(cc0)) < 0) {
				rc = -ENOMEM;
				break;
			}
			for (size_t k = 0; k < np && !rc; k++) {
				uint32_t lc = rp_loc_lclass_chain(r, pk_session__loc_at(r->s, fr[k]));
				uint32_t cc = rp_lclass_cclass(r, lc);
				const uint32_t *cv = (const uint32_t *)cache.data;
				size_t nc = cache.len / sizeof(uint32_t), q;
				for (q = 0; q < nc && cv[q] != cc; q++)
					;
				if (q < nc && !every)
					continue;
				if (pk_buf__append(&cache, &cc, sizeof(cc)) < 0) {
					rc = -ENOMEM;
					break;
				}
				uint32_t e = target(r, ctx, lc);
				if (e != UINT32_MAX)
					rc = add_job(jobs, owners, e, x, (uint32_t)k, JOB_CALLEE, t);
			}
			continue;
		}
		uint32_t cc = UINT32_MAX;
		if (subtrees) {
			uint32_t lc = rp_loc_lclass_chain(r, pk_session__loc_at(r->s, t->loc));
			cc = rp_lclass_cclass(r, lc);
			if (cc == UINT32_MAX) {
				rc = -ENOMEM;
				break;
			}
			if (!cnt[cc] || every) {
				uint32_t e = target(r, ctx, lc);
				/* aux: the class whose own samples are left out (none with the time key) */
				if (e != UINT32_MAX && (rc = add_job(jobs, owners, e, x, every ? UINT32_MAX : cc,
								     JOB_SUBTREE, t)))
					break;
			}
			cnt[cc]++;
		}
		sp++;
		stk[sp].node = x;
		stk[sp].next = c->tfirst[x];
		stk[sp].cc = cc;
	}
	free(stk);
	pk_buf__free(&path);
	pk_buf__free(&cache);
	return rc;
}

int rp_chains_build(struct pk_report *r, bool all)
{
	(void)all;
	if (r->chains || !r->need_chain || !r->cg.enabled || r->cg.mode == RP_CG_NONE)
		return 0;
	struct rp_chains *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	r->chains = c;
	int rc = index_tree(r, c);
	if (rc)
		return rc;
	/* every class met on the way is known before the counts are sized */
	size_t nt = r->tnodes.len / sizeof(struct rp_tnode);
	for (size_t i = 1; i < nt; i++) {
		const struct rp_tnode *t = rp_tnode(r, (uint32_t)i);
		if (!t->parent)
			continue;
		const struct pk_loc *loc = pk_session__loc_at(r->s, t->loc & ~RP_SELF);
		uint32_t lc = is_self(t) ? rp_loc_lclass(r, loc) : rp_loc_lclass_chain(r, loc);
		if (lc == UINT32_MAX || rp_lclass_cclass(r, lc) == UINT32_MAX)
			return -ENOMEM;
	}
	uint32_t *cnt = calloc(r->nr_cclasses + 1, sizeof(uint32_t));
	struct pk_buf jobs = { 0 }, owners = { 0 };
	if (!cnt)
		return -ENOMEM;
	for (size_t i = 1; i < nt && !rc; i++) {
		const struct rp_tnode *t = rp_tnode(r, (uint32_t)i);
		if (t->parent)
			continue;
		uint32_t ctx = t->loc & ~RP_SELF;
		const struct rp_hists *h = &r->hists[rp_ctx(r, ctx)->hists];
		if ((r->group && !h->is_leader) || h->replayed)
			continue;
		rc = collect(r, c, (uint32_t)i, ctx, cnt, &jobs, &owners);
	}
	free(cnt);
	/* the replayed hists' jobs (replay.c), to the entries they ended in */
	size_t nrj = r->replay_jobs.len / sizeof(struct rp_replay_job);
	for (size_t i = 0; i < nrj && !rc; i++) {
		const struct rp_replay_job *rj = &((const struct rp_replay_job *)r->replay_jobs.data)[i];
		uint32_t k = rj->entry;
		while (rp_entry(r, k)->merged)
			k = rp_entry(r, k)->merged - 1;
		if (rp_entry(r, k)->filtered || rp_entry(r, k)->hidden)
			continue;
		struct job j = { .node = rj->node, .aux = rj->aux, .kind = rj->kind, .hit = rj->hit,
				 .count = rj->count };
		if (pk_buf__append(&jobs, &j, sizeof(j)) < 0 || pk_buf__append(&owners, &k, sizeof(k)) < 0)
			rc = -ENOMEM;
	}
	/* group the jobs by entry, in the order found */
	size_t nj = jobs.len / sizeof(struct job);
	c->nr_entries = rp_nr_entries(r);
	c->job_start = calloc(c->nr_entries + 1, sizeof(uint32_t));
	c->jobs = malloc((nj ? nj : 1) * sizeof(struct job));
	if (!rc && (!c->job_start || !c->jobs))
		rc = -ENOMEM;
	if (!rc) {
		const uint32_t *own = (const uint32_t *)owners.data;
		for (size_t j = 0; j < nj; j++)
			c->job_start[own[j] + 1]++;
		for (size_t i = 0; i < c->nr_entries; i++)
			c->job_start[i + 1] += c->job_start[i];
		uint32_t *fill = calloc(c->nr_entries + 1, sizeof(uint32_t));
		if (!fill) {
			rc = -ENOMEM;
		} else {
			for (size_t j = 0; j < nj; j++)
				c->jobs[c->job_start[own[j]] + fill[own[j]]++] =
					((const struct job *)jobs.data)[j];
			free(fill);
		}
	}
	pk_buf__free(&jobs);
	pk_buf__free(&owners);
	return rc;
}

void rp_chains_free(struct pk_report *r)
{
	struct rp_chains *c = r->chains;
	if (!c)
		return;
	pk_buf__free(&c->nodes);
	pk_idmap__free(&c->map);
	free(c->kids);
	pk_buf__free(&c->fkeys);
	pk_idmap__free(&c->fkey_map);
	pk_buf__free(&c->fkey_next);
	pk_buf__free(&c->loc_fkey);
	free(c->tfirst);
	free(c->tkids);
	free(c->job_start);
	free(c->jobs);
	free(c);
	r->chains = NULL;
}
