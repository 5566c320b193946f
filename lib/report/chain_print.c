/* SPDX-License-Identifier: MIT */
/*
 * report/chain_print.c — an entry's callchain tree printed as perf 6.1's
 * stdio browser prints it: graph (its percentages, "|" pipes and dashes,
 * the "---" head of a single root, "[...]" remainders in fractal mode),
 * flat and folded; with -g's threshold (absolute or relative), print limit
 * and value (percent, period, count).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chain_int.h"

void rp_chain_sym_name(const struct pk_loc *loc, char *buf, size_t size)
{
	if (loc->sym)
		snprintf(buf, size, "%s%s", loc->sym->name, loc->sym->inlined ? " (inlined)" : "");
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

static void name_of(struct pctx *p, const struct cnode *n, char *buf, size_t size)
{
	const struct pk_loc *loc = pk_session__loc_at(p->r->s, n->loc);
	if (loc->sym && (p->r->cg.key == RP_CCKEY_ADDRESS || p->r->cg.key == RP_CCKEY_SRCLINE)) {
		char tmp[64];
		const char *sl = rp_chain_srcline(p->r, loc, tmp, sizeof(tmp));
		if (sl) {
			/* perf's callchain_list__sym_name: "name srcline (inlined)" */
			snprintf(buf, size, "%s %s%s", loc->sym->name, sl,
				 loc->sym->inlined ? " (inlined)" : "");
			return;
		}
	}
	rp_chain_sym_name(loc, buf, size);
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

/* perf's rb_root_in order of siblings (rp_fkey_cmp); qsort_r's context is the chains */
static int key_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct rp_chains *c = ctx;
	if (c->replayed) {
		uint32_t a = cn(c, *(const uint32_t *)pa)->rbpos, b = cn(c, *(const uint32_t *)pb)->rbpos;
		return a < b ? -1 : a > b;
	}
	return rp_fkey_cmp(fk(c, cn(c, *(const uint32_t *)pa)->fkey),
			   fk(c, cn(c, *(const uint32_t *)pb)->fkey));
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
	qsort_r(kids, nk, sizeof(*kids), key_cmp, c);
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
	if (!c)
		return 0;
	int rc = rp_chain_tree(r, e);
	if (rc)
		return rc < 0 ? rc : 0;
	const struct rp_hists *hs = &r->hists[h];
	struct pctx p = { .r = r, .c = c, .fp = fp };
	/* perf's output_resort: of the shown entries' samples with --percentage relative */
	uint64_t cc_total = r->opts.filter_relative ? hs->callchain_nf_period : hs->callchain_period;
	p.min_hit = (uint64_t)(cc_total * (r->cg.min_percent / 100));
	uint64_t total = hs->total_period;
	uint64_t parent = r->children ? e->acc.period : e->stat.period;
	switch (r->cg.mode) {
	case RP_CG_GRAPH_ABS:
	case RP_CG_GRAPH_REL:
		return print_graph(&p, 1, total, parent);
	case RP_CG_FLAT:
		return print_flat(&p, 1, total, false);
	case RP_CG_FOLDED:
		return print_flat(&p, 1, total, true);
	default:
		return 0;
	}
}
