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
	uint32_t pfirst;	/* its first entry in perf's input order (-x shows the node by it) */
	struct rp_entry sum;	/* the first entry with the periods of all its entries */
	size_t parent;		/* node index + 1, 0: top level */
	int depth;
};

struct tree {
	struct node *n;
	size_t nr;
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
 * Every entry in the tree, -x's excluded ones too: perf's nodes sum them, and
 * show a node by the entry that made it (the first of its entries in perf's
 * input order), hiding it when that one has no parent (print_level).
 */
static int build(const struct pk_report *r, const struct rp_hists *hs, const int *keys, int nk,
		 struct tree *t)
{
	t->n = calloc(hs->nr_out * (size_t)nk + 1, sizeof(*t->n));
	if (!t->n)
		return -ENOMEM;
	size_t *cur = calloc((size_t)nk, sizeof(*cur));	/* node + 1 per depth, for this entry */
	if (!cur)
		return -ENOMEM;
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
				n->first = n->pfirst = (uint32_t)i;
				n->sum = *e;
				n->sum.stat = (struct rp_stat){ 0 };
				n->parent = parent;
				n->depth = d;
				found = t->nr;
			}
			rp_stat_merge(&t->n[found - 1].sum.stat, &e->stat);
			struct node *n = &t->n[found - 1];
			if (perf_before(r, keys, nk, e, rp_entry(r, hs->out[n->pfirst])))
				n->pfirst = (uint32_t)i;
			parent = found;
			cur[d] = found;
		}
	}
	free(cur);
	return 0;
}

struct sort_arg {
	const struct pk_report *r;
	const struct tree *t;
	const int *keys;
};

/* by value, then by the level's key as perf's hist_entry__sort, then in the flat order */
static int by_value(const void *pa, const void *pb, void *varg)
{
	const struct sort_arg *arg = varg;
	const struct node *a = &arg->t->n[*(const size_t *)pa], *b = &arg->t->n[*(const size_t *)pb];
	if (a->sum.stat.period != b->sum.stat.period)
		return a->sum.stat.period > b->sum.stat.period ? -1 : 1;
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
		int k = rp_col_snprintf(r, c, &n->sum, h, line + off, size - off, w[c]);
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
		/* -x: a node whose first entry has no parent hidden, its children not */
		if (r->opts.exclude_other &&
		    !rp_ctx(r, rp_entry(r, r->hists[h].out[t->n[idx[j]].pfirst])->ctx)->parent) {
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

int rp_fprintf_hierarchy(struct pk_report *r, int h, const unsigned *w, bool quiet, FILE *fp)
{
	const struct rp_hists *hs = &r->hists[h];
	int keys[RP_COL_NR], nk = levels(r, keys);
	if (!nk)
		return 0;
	if (!quiet) {
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
	struct tree t = { 0 };
	int rc = build(r, hs, keys, nk, &t);
	size_t size = 8192;
	char *line = rc ? NULL : malloc(size);
	if (!rc && !line)
		rc = -ENOMEM;
	if (!rc)
		rc = print_level(r, h, &t, 0, keys, nk, w, line, size, fp);
	free(line);
	free(t.n);
	return rc;
}
