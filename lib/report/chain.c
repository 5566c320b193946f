/* SPDX-License-Identifier: MIT */
/*
 * report/chain.c — each printed entry's callchain tree, as perf's
 * callchain_append builds it (frames matched by function: DSO and symbol
 * start, or DSO and address without a symbol; by address with -g address),
 * derived from the per-context prefix trees at print time; and perf's three
 * ways of printing it (graph with its percentages, dotted pipes and "---"
 * head; flat; folded), with the threshold, print limit and order of -g.
 *
 * Trees are kept uncompressed (one node per frame); perf's compressed nodes
 * are the runs of nodes with no hits of their own and a single child, so
 * the text is the same.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"

struct cnode {
	uint32_t loc;			/* the first location added here (its name is printed) */
	uint32_t fkey;
	uint64_t hit, children_hit;
	uint64_t count, children_count;
	uint32_t first_child, nr_children;	/* in rp_chains.kids, after sorting */
	uint32_t parent;
};

struct fkey {
	const struct pk_dso *dso;
	uint64_t addr;
};

struct rp_chains {
	struct pk_buf nodes;		/* struct cnode[]; 0 unused */
	struct pk_idmap map;		/* node << 32 | fkey -> child */
	struct pk_buf fkeys;		/* struct fkey[] */
	struct pk_idmap fkey_map;	/* hash -> fkey (collisions chained) */
	struct pk_buf fkey_next;
	struct pk_buf loc_fkey;		/* uint32_t[] by loc id: fkey + 1 */
	uint32_t *kids;			/* children of each node, sorted */
	uint64_t min_hit;		/* per hists, graph (absolute) threshold */
	bool sorted;
};

static struct cnode *cn(const struct rp_chains *c, uint32_t i)
{
	return &((struct cnode *)c->nodes.data)[i];
}

static const struct fkey *fk(const struct rp_chains *c, uint32_t i)
{
	return &((const struct fkey *)c->fkeys.data)[i];
}

void rp_chains_free(struct pk_report *r)
{
	struct rp_chains *c = r->chains;
	if (!c)
		return;
	pk_buf__free(&c->nodes);
	pk_idmap__free(&c->map);
	pk_buf__free(&c->fkeys);
	pk_idmap__free(&c->fkey_map);
	pk_buf__free(&c->fkey_next);
	pk_buf__free(&c->loc_fkey);
	free(c->kids);
	free(c);
	r->chains = NULL;
}

static const char *chain_srcline(struct pk_report *r, const struct pk_loc *loc, char *buf,
				 size_t size);

/* perf's match_chain key of a location */
static int64_t loc_fkey(struct pk_report *r, struct rp_chains *c, const struct pk_loc *loc)
{
	size_t have = c->loc_fkey.len / sizeof(uint32_t);
	if (loc->id < have) {
		uint32_t v = ((uint32_t *)c->loc_fkey.data)[loc->id];
		if (v)
			return v - 1;
	} else {
		size_t want = (size_t)loc->id + 1024;
		if (pk_buf__reserve(&c->loc_fkey, (want - have) * sizeof(uint32_t)))
			return -1;
		memset(c->loc_fkey.data + c->loc_fkey.len, 0, (want - have) * sizeof(uint32_t));
		c->loc_fkey.len = want * sizeof(uint32_t);
	}
	struct fkey k = { .dso = loc->dso, .addr = loc->ip };
	if (r->cg.key == RP_CCKEY_FUNCTION && loc->sym)
		k.addr = loc->sym->start;
	char tmp[64];
	const char *sl = r->cg.key == RP_CCKEY_SRCLINE ? chain_srcline(r, loc, tmp, sizeof(tmp)) : NULL;
	if (sl) {
		/* perf's match_chain_strings: equal srclines are one node */
		long id = pk_intern__add(&r->cclasses, sl, strlen(sl), 0);
		if (id < 0)
			return -1;
		k.dso = NULL;
		k.addr = ~(uint64_t)id;
	}
	uint64_t h = pk_idmap__hash((uint64_t)(uintptr_t)k.dso * 31 + k.addr + (loc->sym ? 1 : 0));
	h = h * 2 + (r->cg.key == RP_CCKEY_FUNCTION && loc->sym);
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
	((uint32_t *)c->loc_fkey.data)[loc->id] = (uint32_t)id + 1;
	return id;
}

static int64_t new_node(struct rp_chains *c, uint32_t parent, uint32_t loc, uint32_t fkey)
{
	uint32_t nr = (uint32_t)(c->nodes.len / sizeof(struct cnode));
	struct cnode n = { .loc = loc, .fkey = fkey, .parent = parent };
	if (pk_buf__append(&c->nodes, &n, sizeof(n)) < 0)
		return -1;
	return nr;
}

/* perf's callchain_append of frames[0..n) (print order) with hit and count */
static int append(struct pk_report *r, struct rp_entry *e, const uint32_t *frames, size_t n,
		  uint64_t hit, uint64_t count)
{
	struct rp_chains *c = r->chains;
	if (!n)
		return 0;	/* an empty callchain adds nothing */
	if (!e->chain) {
		int64_t root = new_node(c, 0, 0, 0);
		if (root < 0)
			return -ENOMEM;
		e->chain = (uint32_t)root;
	}
	uint32_t node = e->chain;
	for (size_t i = 0; i < n; i++) {
		const struct pk_loc *loc = pk_session__loc_at(r->s, frames[i]);
		int64_t f = loc_fkey(r, c, loc);
		if (f < 0)
			return -ENOMEM;
		cn(c, node)->children_hit += hit;
		cn(c, node)->children_count += count;
		uint32_t nr = (uint32_t)(c->nodes.len / sizeof(struct cnode));
		int added;
		int64_t child = pk_idmap__get_or_put(&c->map, (uint64_t)node << 32 | (uint32_t)f, nr,
						      &added);
		if (child < 0)
			return -ENOMEM;
		if (added && new_node(c, node, frames[i], (uint32_t)f) < 0)
			return -ENOMEM;
		node = (uint32_t)child;
	}
	cn(c, node)->hit += hit;
	cn(c, node)->count += count;
	return 0;
}

static struct rp_entry *target(struct pk_report *r, uint32_t ctx, uint32_t lc)
{
	int64_t i = pk_idmap__get(&r->entry_map, (uint64_t)ctx << 32 | lc);
	if (i < 0)
		return NULL;
	struct rp_entry *e = rp_entry(r, (uint32_t)i);
	while (e->merged)
		e = rp_entry(r, e->merged - 1);
	return e->chain || !e->filtered ? e : NULL;
}

static const struct rp_ctx *ctx_printed(struct pk_report *r, uint32_t ctx)
{
	const struct rp_ctx *c = rp_ctx(r, ctx);
	const struct rp_hists *h = &r->hists[c->hists];
	if (r->group && !h->is_leader)
		return NULL;
	return c;
}

/* sibling order: cumulative hits, then perf's match order (DSO, then address, descending) */
static const struct rp_chains *sort_chains;

static int kid_cmp(const void *pa, const void *pb)
{
	const struct rp_chains *c = sort_chains;
	const struct cnode *a = cn(c, *(const uint32_t *)pa), *b = cn(c, *(const uint32_t *)pb);
	uint64_t ca = a->hit + a->children_hit, cb = b->hit + b->children_hit;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	const struct fkey *ka = fk(c, a->fkey), *kb = fk(c, b->fkey);
	if (ka->dso != kb->dso)
		return (uintptr_t)ka->dso > (uintptr_t)kb->dso ? -1 : 1;
	if (ka->addr != kb->addr)
		return ka->addr > kb->addr ? -1 : 1;
	return 0;
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
	/* roots (parent 0) are the entries' trees */
	for (size_t i = 1; i < nn; i++) {
		uint32_t p = cn(c, (uint32_t)i)->parent;
		if (p)
			cn(c, p)->nr_children++;
	}
	uint32_t pos = 0;
	for (size_t i = 0; i < nn; i++) {
		cn(c, (uint32_t)i)->first_child = pos;
		pos += cn(c, (uint32_t)i)->nr_children;
		cn(c, (uint32_t)i)->nr_children = 0;
	}
	for (size_t i = 1; i < nn; i++) {
		struct cnode *n = cn(c, (uint32_t)i);
		if (!n->parent)
			continue;
		struct cnode *p = cn(c, n->parent);
		c->kids[p->first_child + p->nr_children++] = (uint32_t)i;
	}
	sort_chains = c;
	for (size_t i = 0; i < nn; i++) {
		struct cnode *n = cn(c, (uint32_t)i);
		if (n->nr_children > 1)
			qsort(c->kids + n->first_child, n->nr_children, sizeof(uint32_t), kid_cmp);
	}
	sort_chains = NULL;
	c->sorted = true;
	return 0;
}

int rp_chains_build(struct pk_report *r, bool all)
{
	(void)all;
	if (r->chains)
		return 0;
	if (!r->need_chain || !r->cg.enabled || r->cg.mode == RP_CG_NONE)
		return 0;
	struct rp_chains *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	r->chains = c;
	struct cnode zero = { 0 };
	if (pk_buf__append(&c->nodes, &zero, sizeof(zero)) < 0)
		return -ENOMEM;
	size_t nn = r->tnodes.len / sizeof(struct rp_tnode);
	struct pk_buf frames = { 0 }, path = { 0 }, cache = { 0 };
	int rc = 0;
	for (uint32_t ni = 1; ni < nn && !rc; ni++) {
		const struct rp_tnode *t = rp_tnode(r, ni);
		if (!t->parent || !(t->loc & RP_SELF))
			continue;
		frames.len = 0;
		uint32_t p = t->parent, ctx;
		for (;;) {
			const struct rp_tnode *pn = rp_tnode(r, p);
			if (!pn->parent) {
				ctx = pn->loc & ~RP_SELF;
				break;
			}
			if (pk_buf__append(&frames, &pn->loc, sizeof(uint32_t)) < 0) {
				rc = -ENOMEM;
				break;
			}
			p = pn->parent;
		}
		if (rc || !ctx_printed(r, ctx))
			continue;
		const uint32_t *fr = (const uint32_t *)frames.data;
		size_t n = frames.len / sizeof(uint32_t);
		/* the frames in print order: callers first (caller) or callees first */
		path.len = 0;
		for (size_t k = 0; k < n; k++) {
			uint32_t v = fr[r->cg.caller ? n - 1 - k : k];
			if (pk_buf__append(&path, &v, sizeof(v)) < 0) {
				rc = -ENOMEM;
				break;
			}
		}
		if (rc)
			break;
		const uint32_t *pa = (const uint32_t *)path.data;
		const struct pk_loc *self = pk_session__loc_at(r->s, t->loc & ~RP_SELF);
		uint32_t lc0 = rp_loc_lclass(r, self);
		struct rp_entry *e0 = target(r, ctx, lc0);
		if (e0 && (rc = append(r, e0, pa, n, t->hit, t->count)))
			break;
		if (!r->children)
			continue;
		/* cumulative entries: the callchain from their frame on, once per sample */
		cache.len = 0;
		uint32_t cc0 = rp_lclass_cclass(r, lc0);
		if (pk_buf__append(&cache, &cc0, sizeof(cc0)) < 0) {
			rc = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < n; k++) {
			const struct pk_loc *loc = pk_session__loc_at(r->s, pa[k]);
			uint32_t lc = rp_loc_lclass_chain(r, loc);
			uint32_t ccl = rp_lclass_cclass(r, lc);
			const uint32_t *cc = (const uint32_t *)cache.data;
			size_t nc = cache.len / sizeof(uint32_t), j;
			for (j = 0; j < nc && cc[j] != ccl; j++)
				;
			if (j < nc)
				continue;
			if (pk_buf__append(&cache, &ccl, sizeof(ccl)) < 0) {
				rc = -ENOMEM;
				break;
			}
			struct rp_entry *e = target(r, ctx, lc);
			if (e && (rc = append(r, e, pa + k, n - k, t->hit, t->count)))
				break;
		}
	}
	pk_buf__free(&frames);
	pk_buf__free(&path);
	pk_buf__free(&cache);
	if (!rc)
		rc = sort_kids(c);
	return rc;
}

/* ---- printing ------------------------------------------------------------------------------ */

void rp_chain_sym_name(const struct pk_loc *loc, char *buf, size_t size)
{
	if (loc->sym)
		snprintf(buf, size, "%s", loc->sym->name);
	else
		snprintf(buf, size, "%#" PRIx64, loc->ip);
}

struct pctx {
	struct pk_report *r;
	struct rp_chains *c;
	FILE *fp;
	uint64_t min_hit;		/* graph (absolute) and flat threshold */
	size_t printed;
};

static uint64_t cumul(const struct cnode *n)
{
	return n->hit + n->children_hit;
}

/*
 * perf's callchain_srcline (get_srcline without the symbol): the file:line,
 * else "+offset" (address key) or "??:0" (srcline key); NULL without a map.
 */
static const char *chain_srcline(struct pk_report *r, const struct pk_loc *loc, char *buf,
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

static void name_of(struct pctx *p, const struct cnode *n, char *buf, size_t size)
{
	const struct pk_loc *loc = pk_session__loc_at(p->r->s, n->loc);
	rp_chain_sym_name(loc, buf, size);
	if (p->r->cg.key == RP_CCKEY_ADDRESS || p->r->cg.key == RP_CCKEY_SRCLINE) {
		char tmp[64];
		const char *sl = chain_srcline(p->r, loc, tmp, sizeof(tmp));
		if (sl && loc->sym) {
			size_t len = strlen(buf);
			snprintf(buf + len, size - len, " %s", sl);
		}
	}
}

static void value(struct pctx *p, uint64_t period, uint64_t count, uint64_t total)
{
	switch (p->r->cg.value) {
	case RP_CCVAL_PERIOD:
		p->printed += (size_t)fprintf(p->fp, "%" PRIu64, period);
		break;
	case RP_CCVAL_COUNT:
		p->printed += (size_t)fprintf(p->fp, "%u", (unsigned)count);
		break;
	default:
		p->printed += (size_t)fprintf(p->fp, "%.2f%%", total ? period * 100.0 / total : 0.0);
		break;
	}
}

static void margin(struct pctx *p, int left)
{
	p->printed += (size_t)fprintf(p->fp, "            %*s", left, "");
}

/* perf's depth_mask is an int shifted by depth: x86 takes the count modulo 32 */
static bool bit(uint32_t mask, int i)
{
	return mask & (1u << (i & 31));
}

static void graph_line(struct pctx *p, int depth, uint32_t mask, int left)
{
	margin(p, left);
	for (int i = 0; i < depth; i++)
		fputs(bit(mask, i) ? "|          " : "           ", p->fp);
	fputc('\n', p->fp);
	p->printed++;
}

static void graph_entry(struct pctx *p, const char *name, uint64_t period, uint64_t count,
			int depth, uint32_t mask, int idx, uint64_t total, int left)
{
	margin(p, left);
	for (int i = 0; i < depth; i++) {
		fputc(bit(mask, i) ? '|' : ' ', p->fp);
		if (!idx && i == depth - 1) {
			fputs("--", p->fp);
			value(p, period, count, total);
			fputs("--", p->fp);
		} else {
			fputs("          ", p->fp);
		}
	}
	fputs(name, p->fp);
	fputc('\n', p->fp);
	p->printed++;
}

/* the visible children of node (graph modes) */
static size_t visible(struct pctx *p, const struct cnode *node, uint32_t *out)
{
	struct rp_chains *c = p->c;
	uint64_t min_hit = p->min_hit;
	if (p->r->cg.mode == RP_CG_GRAPH_REL)
		min_hit = (uint64_t)ceil(node->children_hit * (p->r->cg.min_percent / 100.0));
	size_t k = 0;
	for (uint32_t i = 0; i < node->nr_children; i++) {
		uint32_t ch = c->kids[node->first_child + i];
		if (cumul(cn(c, ch)) >= min_hit)
			out[k++] = ch;
	}
	return k;
}

/* the last node of the compressed node that starts at n */
static uint32_t run_end(struct pctx *p, uint32_t n)
{
	struct rp_chains *c = p->c;
	while (!cn(c, n)->hit && cn(c, n)->nr_children == 1)
		n = c->kids[cn(c, n)->first_child];
	return n;
}

static int graph(struct pctx *p, uint32_t parent, uint64_t total, int depth, uint32_t mask,
		 int left)
{
	struct rp_chains *c = p->c;
	const struct cnode *pn = cn(c, parent);
	uint32_t *kids = malloc((pn->nr_children ? pn->nr_children : 1) * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	size_t nk = visible(p, pn, kids);
	uint64_t remaining = total, cumul_count = 0;
	uint32_t new_mask = mask;
	uint32_t printed = 0;
	bool rel = p->r->cg.mode == RP_CG_GRAPH_REL;
	char name[1024];
	int rc = 0;
	size_t i;
	for (i = 0; i < nk && !rc; i++) {
		const struct cnode *ch = cn(c, kids[i]);
		remaining -= cumul(ch);
		cumul_count += ch->count + ch->children_count;
		if (i + 1 == nk && (!rel || !remaining))
			new_mask &= ~(1u << ((depth - 1) & 31));
		graph_line(p, depth, mask, left);
		uint32_t n = kids[i], idx = 0;
		for (;;) {
			const struct cnode *x = cn(c, n);
			name_of(p, x, name, sizeof(name));
			graph_entry(p, name, cumul(ch), ch->count + ch->children_count, depth, new_mask,
				    (int)idx++, total, left);
			if (x->hit || x->nr_children != 1)
				break;
			n = c->kids[x->first_child];
		}
		uint64_t new_total = rel ? cn(c, n)->children_hit : total;
		rc = graph(p, n, new_total, depth + 1, new_mask | (1u << (depth & 31)), left);
		if (++printed == p->r->cg.print_limit)
			break;
	}
	if (!rc && rel && remaining && remaining != total) {
		uint64_t rem_count = 0;
		bool skip = false;
		if (p->r->cg.value == RP_CCVAL_COUNT && nk) {
			rem_count = pn->children_count - cumul_count;
			skip = (int64_t)rem_count <= 0;
		}
		if (!skip) {
			new_mask &= ~(1u << ((depth - 1) & 31));
			graph_entry(p, "[...]", remaining, rem_count, depth, new_mask, 0, total, left);
		}
	}
	free(kids);
	return rc;
}

static int print_graph(struct pctx *p, uint32_t root, uint64_t total, uint64_t parent_samples)
{
	struct rp_chains *c = p->c;
	const struct cnode *rn = cn(c, root);
	uint32_t *kids = malloc((rn->nr_children ? rn->nr_children : 1) * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	size_t nk = visible(p, rn, kids), before = p->printed;
	int left = 0;
	uint32_t start = root;
	if (nk && !(nk > 1 || cumul(cn(c, kids[0])) != parent_samples)) {
		/* a single callchain root: its frames without a percentage */
		bool printed = false;
		uint32_t n = kids[0], i = 0, entries = 0;
		char name[1024];
		for (;;) {
			const struct cnode *x = cn(c, n);
			if (!(i++ == 0 && p->r->sort_starts_with_sym)) {
				if (!printed) {
					margin(p, left);
					fputs("|\n", p->fp);
					margin(p, left);
					fputs("---", p->fp);
					left += 3;
					printed = true;
				} else {
					margin(p, left);
				}
				name_of(p, x, name, sizeof(name));
				fprintf(p->fp, "%s\n", name);
				p->printed++;
				if (++entries == p->r->cg.print_limit)
					break;
			}
			if (x->hit || x->nr_children != 1)
				break;
			n = c->kids[x->first_child];
		}
		start = run_end(p, kids[0]);
	}
	free(kids);
	if (p->r->cg.mode == RP_CG_GRAPH_REL)
		total = parent_samples;
	int rc = graph(p, start, total, 1, 1, left);
	if (!rc && p->printed != before)
		fputc('\n', p->fp);	/* perf: a blank line after a callchain that printed something */
	return rc;
}

/* perf's rb_root_in order of siblings: its match key (DSO, then address), descending */
static const struct rp_chains *key_chains;

static int key_cmp(const void *pa, const void *pb)
{
	const struct rp_chains *c = key_chains;
	const struct fkey *ka = fk(c, cn(c, *(const uint32_t *)pa)->fkey);
	const struct fkey *kb = fk(c, cn(c, *(const uint32_t *)pb)->fkey);
	if (ka->dso != kb->dso)
		return (uintptr_t)ka->dso > (uintptr_t)kb->dso ? -1 : 1;
	if (ka->addr != kb->addr)
		return ka->addr > kb->addr ? -1 : 1;
	return 0;
}

/* flat and folded: nodes with hits, by hits (perf's sort_chain_flat: post-order) */
static int collect_flat(struct pctx *p, uint32_t n, struct pk_buf *out)
{
	struct rp_chains *c = p->c;
	const struct cnode *x = cn(c, n);
	uint32_t nk = x->nr_children;
	uint32_t *kids = malloc((nk ? nk : 1) * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	memcpy(kids, c->kids + x->first_child, nk * sizeof(*kids));
	key_chains = c;
	qsort(kids, nk, sizeof(*kids), key_cmp);
	key_chains = NULL;
	for (uint32_t i = 0; i < nk; i++) {
		int rc = collect_flat(p, kids[i], out);
		if (rc) {
			free(kids);
			return rc;
		}
	}
	free(kids);
	x = cn(c, n);
	if (x->hit && x->hit >= p->min_hit && pk_buf__append(out, &n, sizeof(n)) < 0)
		return -ENOMEM;
	return 0;
}

static void path_print(struct pctx *p, uint32_t n, bool folded, bool *first)
{
	struct rp_chains *c = p->c;
	const struct cnode *x = cn(c, n);
	if (!x->parent)
		return;	/* the entry's root */
	path_print(p, x->parent, folded, first);
	char name[1024];
	name_of(p, x, name, sizeof(name));
	if (folded)
		fprintf(p->fp, "%s%s", *first ? "" : ";", name);
	else
		fprintf(p->fp, "                %s\n", name);
	*first = false;
}

static int print_flat(struct pctx *p, uint32_t root, uint64_t total, bool folded)
{
	struct pk_buf list = { 0 };
	int rc = collect_flat(p, root, &list);
	if (rc) {
		pk_buf__free(&list);
		return rc;
	}
	size_t n = list.len / sizeof(uint32_t);
	uint32_t *ids = (uint32_t *)list.data;
	/* by hits, equal ones in post-order (perf inserts them in that order, ties after) */
	for (size_t i = 1; i < n; i++) {
		uint32_t v = ids[i];
		size_t j = i;
		while (j > 0 && cn(p->c, ids[j - 1])->hit < cn(p->c, v)->hit) {
			ids[j] = ids[j - 1];
			j--;
		}
		ids[j] = v;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cnode *x = cn(p->c, ids[i]);
		bool first = true;
		if (folded) {
			value(p, x->hit, x->count, total);
			fputc(' ', p->fp);
			path_print(p, ids[i], true, &first);
			fputc('\n', p->fp);
		} else {
			fputs("           ", p->fp);
			value(p, cumul(x), x->count + x->children_count, total);
			fputc('\n', p->fp);
			path_print(p, ids[i], false, &first);
			fputc('\n', p->fp);
		}
		p->printed++;
		if (i + 1 == p->r->cg.print_limit)
			break;
	}
	pk_buf__free(&list);
	return 0;
}

int rp_chain_fprintf(struct pk_report *r, const struct rp_entry *e, int h, FILE *fp)
{
	struct rp_chains *c = r->chains;
	if (!c || !e->chain)
		return 0;
	const struct rp_hists *hs = &r->hists[h];
	struct pctx p = { .r = r, .c = c, .fp = fp };
	p.min_hit = (uint64_t)(hs->callchain_period * (r->cg.min_percent / 100));
	uint64_t total = hs->total_period;
	uint64_t parent = r->children ? e->acc.period : e->stat.period;
	switch (r->cg.mode) {
	case RP_CG_GRAPH_ABS:
	case RP_CG_GRAPH_REL:
		return print_graph(&p, e->chain, total, parent);
	case RP_CG_FLAT:
		return print_flat(&p, e->chain, total, false);
	case RP_CG_FOLDED:
		return print_flat(&p, e->chain, total, true);
	default:
		return 0;
	}
}
