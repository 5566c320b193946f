/* SPDX-License-Identifier: MIT */
/*
 * report/chain_rb.c — an entry's callchain tree as perf 6.1's red-black
 * trees build it, for the trees where perf's match_chain is not an order.
 * Siblings are compared by name where either is an inlined function, by
 * DSO and symbol start between two other symbols, and by DSO and ip where
 * either has no symbol: with an inlined function beside other frames, or
 * an unresolved address beside a symbol of its DSO, the in-order of perf's
 * rb_root_in depends on the tree's shape, and a frame can miss the node of
 * its own function and make another one (perf prints both, each with its
 * share). chain.c builds trees with a hash and sorts the siblings; where a
 * node of that tree has such siblings (rp_chain_mixed), the entry's appends
 * are replayed here in sample order through pk_rbtree's copy of perf's
 * tree: each distinct path once, at its first sample (the samples of one
 * path walk alike unless the tree turned in between).
 *
 * perf's trees are compressed (a node holds a run of frames); a run split
 * by a new branch makes the two halves siblings ordered by one comparison,
 * which is what an uncompressed tree's insertion into a one-node tree does,
 * so the tree here has a node per frame, as chain.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/chain_int.h"
#include "util/idmap.h"
#include "util/rbtree.h"

/* ---- perf's match_chain --------------------------------------------------------------- */

enum { M_LT = -1, M_EQ = 0, M_GT = 1, M_ERR = 2 };

static int m_strings(const char *left, const char *right)
{
	int cmp;
	if (left && right)
		cmp = strcmp(left, right);
	else if (!left && right)
		cmp = 1;
	else if (left)
		cmp = -1;
	else
		return M_ERR;
	return cmp ? (cmp < 0 ? M_LT : M_GT) : M_EQ;
}

/* perf compares the DSOs' addresses: their creation order in its reading, NULL first */
static int m_dso_addr(const struct pk_dso *ld, uint64_t lip, const struct pk_dso *rd, uint64_t rip)
{
	if (ld != rd) {
		if (!ld || !rd)
			return ld ? M_GT : M_LT;
		return pk_dso__order(ld) < pk_dso__order(rd) ? M_LT : M_GT;
	}
	if (lip != rip)
		return lip < rip ? M_LT : M_GT;
	return M_EQ;
}

/* match_chain(node = the frame being added, cnode = a tree node's frame) */
static int match(struct pk_report *r, const struct pk_loc *node, const struct pk_loc *cnode)
{
	if (r->cg.key == RP_CCKEY_SRCLINE) {
		char b1[64], b2[64];
		int m = m_strings(rp_chain_srcline(r, cnode, b1, sizeof(b1)),
				  rp_chain_srcline(r, node, b2, sizeof(b2)));
		if (m != M_ERR)
			return m;
	}
	if (r->cg.key != RP_CCKEY_ADDRESS && node->sym && cnode->sym) {
		if (cnode->sym->inlined || node->sym->inlined)
			return m_strings(cnode->sym->name, node->sym->name);
		return m_dso_addr(cnode->dso, cnode->sym->start, node->dso, node->sym->start);
	}
	return m_dso_addr(cnode->dso, cnode->ip, node->dso, node->ip);
}

/* ---- which trees need it ------------------------------------------------------------------ */

/* an unresolved address among node n's children beside a symbol of its DSO */
static bool ip_beside_sym(const struct rp_chains *c, const struct cnode *n)
{
	struct pk_idmap dsos = { 0 };
	bool mixed = false;
	for (uint32_t k = 0; k < n->nr_children && !mixed; k++) {
		const struct fkey *a = fk(c, cn(c, c->kids[n->first_child + k])->fkey);
		int added;
		if (a->by_sym && pk_idmap__get_or_put(&dsos, (uint64_t)(uintptr_t)a->dso, 0, &added) < 0)
			mixed = true;	/* no memory to tell: replaying is right either way */
	}
	for (uint32_t k = 0; k < n->nr_children && !mixed; k++) {
		const struct fkey *a = fk(c, cn(c, c->kids[n->first_child + k])->fkey);
		if (!a->by_sym && pk_idmap__get(&dsos, (uint64_t)(uintptr_t)a->dso) >= 0)
			mixed = true;
	}
	pk_idmap__free(&dsos);
	return mixed;
}

bool rp_chain_mixed(const struct pk_report *r, const struct rp_chains *c)
{
	if (r->cg.key != RP_CCKEY_FUNCTION)
		return false;	/* srclines, or addresses: an order */
	size_t nn = c->nodes.len / sizeof(struct cnode);
	for (size_t i = 1; i < nn; i++) {
		const struct cnode *n = cn(c, (uint32_t)i);
		if (n->nr_children < 2)
			continue;
		uint32_t inl = 0, sym = 0, ip = 0;
		for (uint32_t k = 0; k < n->nr_children; k++) {
			const struct fkey *a = fk(c, cn(c, c->kids[n->first_child + k])->fkey);
			if (a->inl)
				inl++;
			else if (a->by_sym)
				sym++;
			else
				ip++;
		}
		if ((inl && (sym || ip)) || (sym && ip && ip_beside_sym(c, n)))
			return true;
	}
	return false;
}

/* ---- the appends of an entry, in sample order -------------------------------------------- */

struct app {
	uint64_t seq, hit, count;
	uint32_t off, n;		/* frames[off..off+n), print order */
};

struct build {
	struct pk_report *r;
	struct rp_chains *c;
	struct pk_buf apps;		/* struct app[] */
	struct pk_buf frames;		/* uint32_t[] */
	struct pk_buf path;
	/* the tree */
	struct pk_buf xn;		/* struct xnode[] */
	struct pk_buf rb;		/* struct pk_rbnode[], parallel */
};

struct xnode {
	uint32_t loc, parent, root;	/* root: its children's rb tree */
	uint64_t hit, children_hit, count, children_count;
};

static int add_app(struct build *b, uint64_t seq, const uint32_t *fr, size_t n, bool reverse,
		   uint64_t hit, uint64_t count)
{
	if (!n)
		return 0;	/* an empty callchain adds nothing */
	struct app a = { .seq = seq, .hit = hit, .count = count,
			 .off = (uint32_t)(b->frames.len / sizeof(uint32_t)), .n = (uint32_t)n };
	for (size_t k = 0; k < n; k++)
		if (pk_buf__append(&b->frames, &fr[reverse ? n - 1 - k : k], sizeof(uint32_t)) < 0)
			return -ENOMEM;
	return pk_buf__append(&b->apps, &a, sizeof(a)) < 0 ? -ENOMEM : 0;
}

/* a JOB_SUBTREE: each self node below jb->node (not of class excl), its frames from jb->node */
static int subtree_apps(struct build *b, const struct job *jb)
{
	struct pk_report *r = b->r;
	struct rp_chains *c = b->c;
	struct frame {
		uint32_t node, next;
	} *stk = malloc((c->tdepth + 2) * sizeof(*stk));
	uint32_t *fr = malloc((c->tdepth + 2) * sizeof(uint32_t));
	int sp = 0, rc = 0;
	if (!stk || !fr) {
		free(stk);
		free(fr);
		return -ENOMEM;
	}
	stk[0].node = jb->node;
	stk[0].next = c->tfirst[jb->node];
	fr[0] = rp_tnode(r, jb->node)->loc;
	while (sp >= 0 && !rc) {
		uint32_t n = stk[sp].node;
		if (stk[sp].next == c->tfirst[n + 1]) {
			sp--;
			continue;
		}
		uint32_t x = c->tkids[stk[sp].next++];
		const struct rp_tnode *t = rp_tnode(r, x);
		if (t->loc & RP_SELF) {
			const struct pk_loc *self = pk_session__loc_at(r->s, t->loc & ~RP_SELF);
			if (rp_lclass_cclass(r, rp_loc_lclass(r, self)) != jb->aux)
				rc = add_app(b, t->seq, fr, (size_t)sp + 1, false, t->hit, t->count);
			continue;
		}
		sp++;
		stk[sp].node = x;
		stk[sp].next = c->tfirst[x];
		fr[sp] = t->loc;
	}
	free(stk);
	free(fr);
	return rc;
}

/* the other jobs: one sample path (its self node's), whole or from a frame */
static int path_apps(struct build *b, const struct job *jb)
{
	struct pk_report *r = b->r;
	size_t n = rp_chain_path_of(r, jb->node, &b->path);
	if (n == SIZE_MAX)
		return -ENOMEM;
	const uint32_t *fr = (const uint32_t *)b->path.data;	/* callee first */
	uint64_t seq = rp_tnode(r, jb->node)->seq;
	if (jb->kind == JOB_PATH)
		return add_app(b, seq, fr, n, r->cg.caller, jb->hit, jb->count);
	if (jb->kind == JOB_CALLER) {
		size_t k = jb->aux < n ? jb->aux + 1 : 0;
		return add_app(b, seq, fr, k, true, jb->hit, jb->count);
	}
	return jb->aux < n ? add_app(b, seq, fr + jb->aux, n - jb->aux, false, jb->hit, jb->count) : 0;
}

static int app_cmp(const void *pa, const void *pb)
{
	const struct app *a = pa, *b = pb;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* ---- perf's callchain_append over the tree -------------------------------------------------- */

static struct xnode *xn(struct build *b, uint32_t i)
{
	return &((struct xnode *)b->xn.data)[i];
}

static int64_t new_node(struct build *b, uint32_t loc, uint32_t parent)
{
	uint32_t i = (uint32_t)(b->xn.len / sizeof(struct xnode));
	struct xnode n = { .loc = loc, .parent = parent, .root = PK_RB_NIL };
	struct pk_rbnode z = { PK_RB_NIL, PK_RB_NIL, PK_RB_NIL, false };
	if (pk_buf__append(&b->xn, &n, sizeof(n)) < 0 || pk_buf__append(&b->rb, &z, sizeof(z)) < 0)
		return -ENOMEM;
	return i;
}

struct probe {
	struct build *b;
	const struct pk_loc *l;		/* the frame being added */
};

static int64_t probe_cmp(void *ctx, uint32_t node)
{
	const struct probe *p = ctx;
	int m = match(p->b->r, p->l, pk_session__loc_at(p->b->r->s, xn(p->b, node)->loc));
	return m == M_LT ? -1 : m != M_EQ;
}

/* perf's append_chain_children: the child matching loc, made where the walk ends */
static int64_t child(struct build *b, uint32_t node, uint32_t loc)
{
	struct probe p = { b, pk_session__loc_at(b->r->s, loc) };
	uint32_t parent;
	bool left;
	uint32_t x = pk_rbtree__find((const struct pk_rbnode *)b->rb.data, xn(b, node)->root,
				     probe_cmp, &p, &parent, &left);
	if (x != PK_RB_NIL)
		return x;
	int64_t i = new_node(b, loc, node);
	if (i < 0)
		return i;
	pk_rbtree__link((struct pk_rbnode *)b->rb.data, &xn(b, node)->root, (uint32_t)i, parent,
			left);
	return i;
}

static int replay_app(struct build *b, const struct app *a)
{
	const uint32_t *fr = (const uint32_t *)b->frames.data + a->off;
	uint32_t node = 1;
	for (uint32_t i = 0; i < a->n; i++) {
		xn(b, node)->children_hit += a->hit;
		xn(b, node)->children_count += a->count;
		int64_t ch = child(b, node, fr[i]);
		if (ch < 0)
			return -ENOMEM;
		node = (uint32_t)ch;
	}
	xn(b, node)->hit += a->hit;
	xn(b, node)->count += a->count;
	return 0;
}

/* ---- into chain.c's form: nodes, and children by hits (ties in rb order) --------------- */

struct kid {
	uint64_t cumul;
	uint32_t pos, node;
};

static int kid_cmp(const void *pa, const void *pb)
{
	const struct kid *a = pa, *b = pb;
	if (a->cumul != b->cumul)
		return a->cumul > b->cumul ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int publish(struct build *b)
{
	struct rp_chains *c = b->c;
	size_t nn = b->xn.len / sizeof(struct xnode);
	const struct pk_rbnode *rb = (const struct pk_rbnode *)b->rb.data;
	c->nodes.len = 0;
	free(c->kids);
	c->kids = malloc((nn ? nn : 1) * sizeof(uint32_t));
	struct kid *tmp = malloc((nn ? nn : 1) * sizeof(*tmp));
	if (!c->kids || !tmp || pk_buf__reserve(&c->nodes, nn * sizeof(struct cnode))) {
		free(tmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nn; i++) {
		const struct xnode *x = xn(b, (uint32_t)i);
		struct cnode n = { .loc = x->loc, .parent = x->parent, .hit = x->hit,
				   .children_hit = x->children_hit, .count = x->count,
				   .children_count = x->children_count };
		pk_buf__append(&c->nodes, &n, sizeof(n));	/* reserved */
	}
	uint32_t pos = 0;
	for (size_t i = 1; i < nn; i++) {
		struct cnode *n = cn(c, (uint32_t)i);
		size_t k = 0;
		for (uint32_t ch = pk_rbtree__first(rb, xn(b, (uint32_t)i)->root); ch != PK_RB_NIL;
		     ch = pk_rbtree__next(rb, ch), k++) {
			tmp[k].cumul = xn(b, ch)->hit + xn(b, ch)->children_hit;
			tmp[k].pos = (uint32_t)k;
			tmp[k].node = ch;
		}
		for (size_t q = 0; q < k; q++)
			cn(c, tmp[q].node)->rbpos = (uint32_t)q;
		qsort(tmp, k, sizeof(*tmp), kid_cmp);
		n->first_child = pos;
		n->nr_children = (uint32_t)k;
		for (size_t q = 0; q < k; q++)
			c->kids[pos++] = tmp[q].node;
	}
	free(tmp);
	c->replayed = true;
	return 0;
}

int rp_chain_replay(struct pk_report *r, struct rp_chains *c, size_t ei)
{
	struct build b = { .r = r, .c = c };
	int rc = 0;
	for (uint32_t j = c->job_start[ei]; j < c->job_start[ei + 1] && !rc; j++)
		rc = c->jobs[j].kind == JOB_SUBTREE ? subtree_apps(&b, &c->jobs[j])
						    : path_apps(&b, &c->jobs[j]);
	size_t na = b.apps.len / sizeof(struct app);
	if (!rc && na > 1)
		qsort(b.apps.data, na, sizeof(struct app), app_cmp);
	/* node 0 unused, node 1 the root */
	if (!rc && (new_node(&b, 0, 0) < 0 || new_node(&b, 0, 0) < 0))
		rc = -ENOMEM;
	for (size_t i = 0; i < na && !rc; i++)
		rc = replay_app(&b, &((const struct app *)b.apps.data)[i]);
	if (!rc)
		rc = publish(&b);
	pk_buf__free(&b.apps);
	pk_buf__free(&b.frames);
	pk_buf__free(&b.path);
	pk_buf__free(&b.xn);
	pk_buf__free(&b.rb);
	return rc;
}
