/* SPDX-License-Identifier: MIT */
/*
 * report/hierarchy.c — perf report --hierarchy --stdio: the entries as a
 * tree with one level per sort key (comm, then dso within it, then symbol
 * within both, ...), each node's values the sum of its entries', siblings
 * by their value (ties in the flat output's order), each level indented by
 * perf's HIERARCHY_INDENT (3) with the values, the key's text left-aligned
 * after them; the header names the keys joined by " / ". A leaf is one
 * entry of the flat view: its callchain follows it (caller order unless -g
 * or --no-children says otherwise, as perf decides the order before
 * --hierarchy turns children off). With -x, a node sums its excluded
 * entries too and is hidden when its first entry in perf's order is one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"

#define INDENT 3

struct node {
	uint32_t first;		/* index in hs->out of its first entry (the representative) */
	uint8_t hide;		/* perf's filter bits of the node (filter_nodes): not shown */
	uint32_t maker;		/* the entry perf's node copies (r->entries index; filter_nodes) */
	struct rp_entry sum;	/* its maker entry with the periods of all its entries */
	size_t parent;		/* node index + 1, 0: top level */
	int depth;
};

struct tree {
	struct node *n;
	size_t nr;
	/* group view: each node's member sums, nm a node (mem[node * nm + m], m >= 1) */
	struct rp_entry *mem;
	int nm;
};

static int levels(const struct pk_report *r, int *keys)
{
	int nk = 0;
	for (int i = 0; i < r->nr_sorts; i++)
		if (rp_col__is_key(r->sorts[i]))
			keys[nk++] = r->sorts[i];
	return nk;
}

/* entries equal on keys[0..d] */
static bool same_prefix(const struct pk_report *r, const int *keys, int d, const struct rp_entry *a,
			const struct rp_entry *b)
{
	for (int k = 0; k <= d; k++)
		if (rp_key_collapse(r, keys[k], a, b))
			return false;
	return true;
}

/* a before b in perf's input tree (hist_entry__cmp over the levels' keys, greater first) */
static bool perf_before(const struct pk_report *r, const int *keys, int nk, const struct rp_entry *a,
			const struct rp_entry *b)
{
	for (int k = 0; k < nk; k++) {
		int64_t c = rp_key_cmp(r, keys[k], a, b);
		if (c)
			return c > 0;
	}
	return false;
}

/*
 * Every entry in the tree, -x's and the filters' hidden ones too: perf's nodes
 * sum them (filter_nodes says which nodes perf hides). path[i * nk + d]: entry
 * i's node at depth d.
 */
static int build(const struct pk_report *r, const struct rp_hists *hs, const int *keys, int nk,
		 struct tree *t, uint32_t *path)
{
	t->n = calloc(hs->nr_out * (size_t)nk + 1, sizeof(*t->n));
	if (!t->n)
		return -ENOMEM;
	t->nm = r->group && hs->nr_members > 1 ? hs->nr_members : 0;
	if (t->nm) {
		t->mem = calloc((hs->nr_out * (size_t)nk + 1) * (size_t)t->nm, sizeof(*t->mem));
		if (!t->mem)
			return -ENOMEM;
	}
	for (size_t i = 0; i < hs->nr_out; i++) {
		const struct rp_entry *e = rp_entry(r, hs->out[i]);
		size_t parent = 0;
		for (int d = 0; d < nk; d++) {
			/* the sibling under parent equal on keys[0..d] (nodes are few per parent) */
			size_t found = 0;
			for (size_t j = t->nr; j-- > 0;)
				if (t->n[j].depth == d && t->n[j].parent == parent &&
				    same_prefix(r, keys, d, &t->n[j].sum, e)) {
					found = j + 1;
					break;
				}
			if (!found) {
				struct node *n = &t->n[t->nr++];
				n->first = (uint32_t)i;
				n->sum = *e;
				n->sum.stat = (struct rp_stat){ 0 };
				n->parent = parent;
				n->depth = d;
				found = t->nr;
			}
			rp_stat_merge(&t->n[found - 1].sum.stat, &e->stat);
			/* perf matches the members' nodes level by level: their sums */
			for (int m = 1; m < t->nm && e->pairs; m++)
				if (e->pairs[m] != UINT32_MAX)
					rp_stat_merge(&t->mem[(found - 1) * (size_t)t->nm + (size_t)m].stat,
						      &rp_entry(r, e->pairs[m])->stat);
			path[i * (size_t)nk + (size_t)d] = (uint32_t)(found - 1);
			parent = found;
		}
	}
	return 0;
}

/* the filter (PK_FILTER_*) whose key a level is, as perf's hist_entry__apply_hierarchy_filters */
static unsigned level_filter(int key)
{
	switch (key) {
	case RP_KEY_PID: case RP_KEY_TID: case RP_KEY_COMM: return PK_FILTER_THREAD;
	case RP_KEY_DSO: return PK_FILTER_DSO;
	case RP_KEY_SYM: return PK_FILTER_SYMBOL;
	default: return 0;
	}
}

#define HIDE_PARENT 0x80u	/* -x: no parent (perf's HIST_FILTER__PARENT) */

struct order_arg {
	const struct pk_report *r;
	const struct rp_hists *hs;
	const int *keys;
	int nk;
};

static int by_input(const void *pa, const void *pb, void *varg)
{
	const struct order_arg *o = varg;
	const struct rp_entry *a = rp_entry(o->r, o->hs->out[*(const uint32_t *)pa]);
	const struct rp_entry *b = rp_entry(o->r, o->hs->out[*(const uint32_t *)pb]);
	return perf_before(o->r, o->keys, o->nk, a, b) ? -1 : perf_before(o->r, o->keys, o->nk, b, a);
}

/*
 * The nodes perf hides (node.hide), made as perf makes them: the entries in
 * its input order, a new node the copy of the entry that makes it (filter
 * bits and -x's missing parent too); then for --comms/--pid/--tid, --dsos and
 * -S: a node of that filter's key keeps its bit and, when shown, shows its
 * ancestors; a node of another key takes the bit (the top level) or its
 * parent's, so that a level without the key hides everything.
 */
static int filter_nodes(const struct pk_report *r, const struct rp_hists *hs, const int *keys,
			int nk, struct tree *t, const uint32_t *path)
{
	uint32_t *order = malloc((hs->nr_out ? hs->nr_out : 1) * sizeof(*order));
	bool *made = calloc(t->nr + 1, sizeof(*made));
	if (!order || !made) {
		free(order);
		free(made);
		return -ENOMEM;
	}
	for (size_t i = 0; i < hs->nr_out; i++)
		order[i] = (uint32_t)i;
	struct order_arg oa = { r, hs, keys, nk };
	qsort_r(order, hs->nr_out, sizeof(*order), by_input, &oa);
	unsigned active = pk_sample_filter__hides(r->opts.filter) &
			  (PK_FILTER_THREAD | PK_FILTER_DSO | PK_FILTER_SYMBOL);
	for (size_t k = 0; k < hs->nr_out; k++) {
		const struct rp_entry *e = rp_entry(r, hs->out[order[k]]);
		for (int d = 0; d < nk; d++) {
			uint32_t ni = path[order[k] * (size_t)nk + (size_t)d];
			struct node *n = &t->n[ni];
			if (made[ni])
				continue;
			made[ni] = true;
			n->maker = hs->out[order[k]];
			struct rp_stat st = n->sum.stat;	/* its text is the maker's (-v: its ip) */
			n->sum = *e;
			n->sum.stat = st;
			n->hide = e->hidden;
			if (r->opts.exclude_other && !rp_ctx(r, e->ctx)->parent)
				n->hide |= HIDE_PARENT;
			for (unsigned bit = 1; bit <= PK_FILTER_SYMBOL; bit <<= 1) {
				if (!(active & bit))
					continue;
				if (level_filter(keys[d]) == bit) {
					for (size_t p = n->parent; p && !(n->hide & bit); p = t->n[p - 1].parent)
						t->n[p - 1].hide &= (uint8_t)~bit;
				} else {
					n->hide |= (uint8_t)(n->parent ? t->n[n->parent - 1].hide & bit : bit);
				}
			}
		}
	}
	free(order);
	free(made);
	return 0;
}

struct sort_arg {
	const struct pk_report *r;
	const struct tree *t;
	const int *keys;
};

/* by value (a group's members' too), then by the level's key as perf's hist_entry__sort, then in the flat order */
static int by_value(const void *pa, const void *pb, void *varg)
{
	const struct sort_arg *arg = varg;
	const struct node *a = &arg->t->n[*(const size_t *)pa], *b = &arg->t->n[*(const size_t *)pb];
	if (a->sum.stat.period != b->sum.stat.period)
		return a->sum.stat.period > b->sum.stat.period ? -1 : 1;
	/* group view: then each member's (perf's __hpp__sort) */
	const struct tree *t = arg->t;
	for (int m = 1; m < t->nm; m++) {
		uint64_t va = t->mem[(size_t)(a - t->n) * (size_t)t->nm + (size_t)m].stat.period;
		uint64_t vb = t->mem[(size_t)(b - t->n) * (size_t)t->nm + (size_t)m].stat.period;
		if (va != vb)
			return va > vb ? -1 : 1;
	}
	int64_t c = rp_col_sort(arg->r, arg->keys[a->depth], &a->sum, &b->sum);
	if (c)
		return c > 0 ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

static void print_node(struct pk_report *r, int h, const struct tree *t, size_t ni, const int *keys,
		       int nk, const unsigned *w, char *line, size_t size, FILE *fp)
{
	const struct node *n = &t->n[ni];
	size_t off = (size_t)snprintf(line, size, "  %*s", n->depth * INDENT, "");
	bool first = true;
	for (int i = 0; i < r->nr_fields && off < size; i++) {
		int c = r->fields[i];
		if (rp_col__is_key(c))
			continue;
		if (!first)
			off += (size_t)snprintf(line + off, size - off, "  ");
		first = false;
		int k = t->nm ? rp_col_snprintf_members(r, c, &n->sum, &t->mem[ni * (size_t)t->nm], h,
							line + off, size - off, w[c]) :
				rp_col_snprintf(r, c, &n->sum, h, line + off, size - off, w[c]);
		off += k > 0 ? (size_t)k : 0;
	}
	if (off < size)
		off += (size_t)snprintf(line + off, size - off, "%*s", (nk - 1) * INDENT, "");
	char *kb = line + (off < size ? off : size - 1);
	int k = rp_col_snprintf(r, keys[n->depth], &n->sum, h, kb, size - (size_t)(kb - line),
				w[keys[n->depth]]);
	(void)k;
	const char *ks = kb;
	while (*ks == ' ')
		ks++;
	fwrite(line, 1, (size_t)(kb - line), fp);
	fprintf(fp, "  %s\n", ks);
}

static bool under_limit(const struct pk_report *r, int h, uint64_t v)
{
	uint64_t total = r->hists[h].total_period;
	return r->opts.percent_limit > 0 &&
	       (total ? (float)(v * 100.0 / total) : 0.0f) < (float)r->opts.percent_limit;
}

/* perf's "no entry >= N%" under a node none of whose children is shown */
static void no_entry(const struct pk_report *r, const struct tree *t, size_t ni, int nk,
		     const unsigned *w, FILE *fp)
{
	int h = rp_ctx(r, t->n[ni].sum.ctx)->hists;
	for (size_t j = 0; j < t->nr; j++)
		if (t->n[j].parent == ni + 1 && !under_limit(r, h, t->n[j].sum.stat.period))
			return;
	unsigned ow = 0;
	bool first = true;
	for (int i = 0; i < r->nr_fields; i++)
		if (!rp_col__is_key(r->fields[i])) {
			ow += w[r->fields[i]] + (first ? 0 : 2);
			first = false;
		}
	fprintf(fp, "%*sno entry >= %.2f%%\n", (nk + t->n[ni].depth) * INDENT + (int)ow + 4, "",
		r->opts.percent_limit);
}

/* the children of parent (node index + 1, 0: the top), by value, depth first */
static int print_level(struct pk_report *r, int h, const struct tree *t, size_t parent,
		       const int *keys, int nk, const unsigned *w, char *line, size_t size, FILE *fp)
{
	size_t k = 0;
	for (size_t j = 0; j < t->nr; j++)
		k += t->n[j].parent == parent;
	size_t *idx = malloc((k ? k : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	k = 0;
	for (size_t j = 0; j < t->nr; j++)
		if (t->n[j].parent == parent)
			idx[k++] = j;
	struct sort_arg sa = { r, t, keys };
	qsort_r(idx, k, sizeof(*idx), by_value, &sa);
	int rc = 0;
	for (size_t j = 0; j < k && !rc; j++) {
		/* --percent-limit: a node under it hidden with its subtree */
		if (under_limit(r, h, t->n[idx[j]].sum.stat.period))
			continue;
		/* a node perf hides (filter_nodes): its children may show */
		if (t->n[idx[j]].hide) {
			if (t->n[idx[j]].depth + 1 < nk)
				rc = print_level(r, h, t, idx[j] + 1, keys, nk, w, line, size, fp);
			continue;
		}
		print_node(r, h, t, idx[j], keys, nk, w, line, size, fp);
		if (t->n[idx[j]].depth + 1 < nk) {
			if (r->opts.percent_limit > 0)
				no_entry(r, t, idx[j], nk, w, fp);
			rc = print_level(r, h, t, idx[j] + 1, keys, nk, w, line, size, fp);
		}
		else if (r->hists[h].has_callchain && r->cg.enabled)	/* a leaf: one entry */
			rc = rp_chain_fprintf(r, rp_entry(r, r->hists[h].out[t->n[idx[j]].first]), h,
					      fp);
	}
	free(idx);
	return rc;
}

/* the values' header right-aligned over their width and the levels' indent, then the keys' */
static void print_header(const struct pk_report *r, const int *keys, int nk, const unsigned *w,
			 FILE *fp)
{
	/* the values' header right-aligned over their width and the levels' indent */
	fputs("# ", fp);
	bool first = true;
	for (int i = 0; i < r->nr_fields; i++) {
		int c = r->fields[i];
		if (rp_col__is_key(c))
			continue;
		unsigned cw = w[c] + (first ? (unsigned)(nk - 1) * INDENT : 0);
		fprintf(fp, "%s%*s", first ? "" : "  ", (int)cw, rp_col__header(c));
		first = false;
	}
	fputs("  ", fp);
	unsigned dots = 0;
	int tl = 0;
	for (int d = 0; d < nk; d++) {
		const char *hd = rp_col__header(keys[d]);
		while (*hd == ' ')
			hd++;
		int n = fprintf(fp, "%s%s", d ? " / " : "", hd);
		tl += n > 0 ? n : 0;
		if (d * INDENT + w[keys[d]] > dots)
			dots = (unsigned)(d * INDENT) + w[keys[d]];
	}
	if ((unsigned)tl > dots)
		dots = (unsigned)tl;
	fputs("\n# ", fp);
	first = true;
	for (int i = 0; i < r->nr_fields; i++) {
		int c = r->fields[i];
		if (rp_col__is_key(c))
			continue;
		/* one run of dots over the value columns and their separators */
		unsigned cw = w[c] + (first ? (unsigned)(nk - 1) * INDENT : 2);
		for (unsigned k = 0; k < cw; k++)
			fputc('.', fp);
		first = false;
	}
	fputs("  ", fp);
	for (unsigned k = 0; k < dots; k++)
		fputc('.', fp);
	fputs("\n#\n", fp);
}

int rp_fprintf_hierarchy(struct pk_report *r, int h, const unsigned *w, bool quiet, FILE *fp)
{
	const struct rp_hists *hs = &r->hists[h];
	int keys[RP_COL_NR], nk = levels(r, keys);
	if (!nk)
		return 0;
	struct tree t = { 0 };
	uint32_t *path = malloc((hs->nr_out ? hs->nr_out : 1) * (size_t)nk * sizeof(*path));
	int rc = path ? build(r, hs, keys, nk, &t, path) : -ENOMEM;
	if (!rc)
		rc = filter_nodes(r, hs, keys, nk, &t, path);
	free(path);
	/* perf's widths: over the nodes shown, each its maker's copy */
	unsigned wh[RP_COL_NR];
	uint32_t *shown = rc ? NULL : malloc((t.nr ? t.nr : 1) * sizeof(*shown));
	if (!rc && !shown)
		rc = -ENOMEM;
	if (!rc) {
		size_t ns = 0;
		for (size_t i = 0; i < t.nr; i++)
			if (!t.n[i].hide)
				shown[ns++] = t.n[i].maker;
		rp_calc_widths_of(r, h, shown, ns, wh);
		(void)w;	/* the flat view's */
		if (!quiet)
			print_header(r, keys, nk, wh, fp);
	}
	free(shown);
	size_t size = 8192;
	char *line = rc ? NULL : malloc(size);
	if (!rc && !line)
		rc = -ENOMEM;
	if (!rc)
		rc = print_level(r, h, &t, 0, keys, nk, wh, line, size, fp);
	free(line);
	free(t.n);
	free(t.mem);
	return rc;
}
