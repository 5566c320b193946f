/* SPDX-License-Identifier: MIT */
/*
 * report/diff.c — perf diff's default output over two finished reports
 * (made with perf diff's sort keys, dso,sym, no children or callchains):
 * each event of the baseline matched with the new file's event of the same
 * type and config; entries merged and paired by perf diff's collapse
 * comparison of the sort keys (DSO names; symbols by name, as perf diff
 * compares them across binaries, the unresolved addresses of a DSO as one);
 * the new file's unpaired entries added with no baseline (hists__link);
 * "Baseline" (the old share) and "Delta Abs" (new share minus old share)
 * columns, rows ordered by the size of the delta (paired ones first), then
 * the baseline, then the keys' names, as perf's sort does.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/error.h"
#include "util/rbtree.h"
#include "util/opts.h"

/* a row: the baseline's entry (NULL: only in the new file) and its pair */
struct drow {
	struct pk_report *br, *pr;	/* the reports of be and pe */
	const struct rp_entry *be, *pe;
	uint64_t bp, pp;		/* their (collapsed) periods */
	double delta;
};

/* The entry that shows a row: its baseline one, else its new one (a row has one or both). */
static const struct rp_entry *row_entry(const struct drow *d)
{
	assert(d->be || d->pe);
	return d->be ? d->be : d->pe;
}

static const struct rp_lclass *lc_of(const struct pk_report *r, const struct rp_entry *e)
{
	return rp_lclass(r, e->lclass);
}

static int64_t cmp_null(const void *a, const void *b)
{
	if (!a && !b)
		return 0;
	return !a ? -1 : 1;
}

static int64_t sgn(int c)
{
	return c < 0 ? -1 : c > 0;
}

/* perf's collapse comparison of (ra, a) and (rb, b) by one key, across two sessions */
static int64_t xcollapse(int key, bool has_dso, const struct pk_report *ra, const struct rp_entry *a,
			 const struct pk_report *rb, const struct rp_entry *b)
{
	const struct rp_lclass *la = lc_of(ra, a), *lb = lc_of(rb, b);
	struct pk_dso *da = la->loc->dso, *db = lb->loc->dso;
	switch (key) {
	case RP_KEY_COMM:
		return sgn(strcmp(b->comm, a->comm));
	case RP_KEY_PID:
	case RP_KEY_TID:
		return (int64_t)(b->thread ? b->thread->tid : -1) - (a->thread ? a->thread->tid : -1);
	case RP_KEY_CPU:
		return (int64_t)b->cpu - a->cpu;
	case RP_KEY_DSO:
		if (!da || !db)
			return cmp_null(da, db);
		return sgn(strcmp(pk_dso__short_name(db), pk_dso__short_name(da)));
	case RP_KEY_SYM:
		/* perf diff's collapse of symbols: sort__sym_sort, names (no symbol: equal) */
		(void)has_dso;
		if (!la->sym || !lb->sym)
			return cmp_null(la->sym, lb->sym);
		return sgn(strcmp(lb->sym->name, la->sym->name));
	case RP_KEY_SRCLINE:
		return sgn(strcmp(lb->srcline ? lb->srcline : "", la->srcline ? la->srcline : ""));
	default:
		return 0;
	}
}

static int64_t xcollapse_all(const struct pk_report *ra, const struct rp_entry *a,
			     const struct pk_report *rb, const struct rp_entry *b)
{
	const struct pk_report *r = ra;
	for (int i = 0; i < r->nr_sorts; i++) {
		int64_t c = xcollapse(r->sorts[i], r->has_key[RP_KEY_DSO], ra, a, rb, b);
		if (c)
			return c;
	}
	return 0;
}

struct side {
	struct pk_report *r;
	const struct rp_entry **e;	/* the first entry of each collapsed group */
	uint64_t *period;		/* the group's period */
	size_t n;
};

static int side_cmp_r(const void *pa, const void *pb, void *arg)
{
	const struct pk_report *r = arg;
	const struct rp_entry *a = *(const struct rp_entry *const *)pa;
	const struct rp_entry *b = *(const struct rp_entry *const *)pb;
	int64_t c = xcollapse_all(r, a, r, b);
	if (!c) {
		/* equal for perf diff: the first one perf adds (its report's order) stands for all */
		for (int i = 0; i < r->nr_sorts && !c; i++)
			c = rp_key_collapse(r, r->sorts[i], a, b);
	}
	return c > 0 ? -1 : c < 0;	/* in-order: x before y when collapse(x, y) > 0 */
}

/* one hists' entries in perf's collapse order */
static int side_of(struct pk_report *r, int h, struct side *s)
{
	const struct rp_hists *hs = &r->hists[h];
	s->r = r;
	s->n = hs->nr_out;
	s->e = malloc((s->n ? s->n : 1) * sizeof(*s->e));
	if (!s->e)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		s->e[i] = rp_entry(r, hs->out[i]);
	qsort_r(s->e, s->n, sizeof(*s->e), side_cmp_r, r);
	/* perf diff collapses its entries with its own comparison: merge the equal ones */
	s->period = malloc((s->n ? s->n : 1) * sizeof(*s->period));
	if (!s->period)
		return -ENOMEM;
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (m && !xcollapse_all(r, s->e[m - 1], r, s->e[i])) {
			s->period[m - 1] += s->e[i]->stat.period;
			continue;
		}
		s->e[m] = s->e[i];
		s->period[m++] = s->e[i]->stat.period;
	}
	s->n = m;
	return 0;
}

static int64_t base_period(const struct drow *d)
{
	return d->be ? (int64_t)d->bp : 0;
}

/* perf diff's sort list: compute (paired first, |delta|), baseline, delta, then the keys */
static int64_t row_sort(const struct drow *a, const struct drow *b)
{
	if (!a->pe != !b->pe)
		return a->pe ? 1 : -1;
	if (a->pe && b->pe) {
		double l = fabs(a->delta), r = fabs(b->delta);
		if (l != r)
			return l > r ? 1 : -1;
	}
	if (base_period(a) != base_period(b))
		return base_period(a) > base_period(b) ? 1 : -1;
	const struct pk_report *r = a->br;	/* (every row's) */
	for (int i = 0; i < r->nr_sorts; i++) {
		int k = r->sorts[i];
		if (!rp_col__is_key(k))
			continue;
		struct pk_report *ra = a->be ? a->br : a->pr, *rb = b->be ? b->br : b->pr;
		const struct rp_entry *ea = row_entry(a), *eb = row_entry(b);
		int64_t c;
		if (k == RP_KEY_SYM) {
			const struct pk_sym *sa = lc_of(ra, ea)->sym, *sb = lc_of(rb, eb)->sym;
			c = !sa || !sb ? cmp_null(sa, sb) : sgn(strcmp(sb->name, sa->name));
		} else {
			c = xcollapse(k, r->has_key[RP_KEY_DSO], ra, ea, rb, eb);
		}
		if (c)
			return c;
	}
	return 0;
}

struct sort_ctx {
	const struct drow *rows;
};

static bool row_left(void *vctx, uint32_t node, uint32_t other)
{
	const struct sort_ctx *c = vctx;
	return row_sort(&c->rows[node], &c->rows[other]) > 0;
}

static unsigned umax(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

static int print_event(struct pk_report *old, int ho, struct pk_report *new_, int hn, FILE *fp)
{
	struct side a = { 0 }, b = { 0 };
	int rc = side_of(old, ho, &a);
	if (!rc && hn >= 0)
		rc = side_of(new_, hn, &b);
	struct drow *rows = calloc(a.n + b.n + 1, sizeof(*rows));
	if (rc || !rows) {
		free(a.e);
		free(b.e);
		free(a.period);
		free(b.period);
		free(rows);
		return -ENOMEM;
	}
	uint64_t btotal = old->hists[ho].total_period;
	uint64_t ntotal = hn >= 0 ? new_->hists[hn].total_period : 0;
	/* merge the two collapse-ordered lists: pairs, baseline-only and new-only rows */
	size_t i = 0, j = 0, n = 0;
	while (i < a.n || j < b.n) {
		int64_t c = i < a.n && j < b.n ? xcollapse_all(old, a.e[i], new_, b.e[j]) :
			    i < a.n ? 1 : -1;
		struct drow d = { .br = old, .pr = new_ };
		if (c >= 0) {
			d.bp = a.period[i];
			d.be = a.e[i++];
		}
		if (c <= 0) {
			d.pp = b.period[j];
			d.pe = b.e[j++];
		}
		if (d.pe) {
			double oldp = d.be && btotal ? d.bp * 100.0 / btotal : 0;
			double newp = ntotal ? d.pp * 100.0 / ntotal : 0;
			d.delta = newp - oldp;
		}
		rows[n++] = d;
	}
	/* output order: perf's red-black tree over the rows in collapse order */
	struct pk_rbnode *nodes = malloc((n ? n : 1) * sizeof(*nodes));
	if (!nodes) {
		free(a.e);
		free(b.e);
		free(a.period);
		free(b.period);
		free(rows);
		return -ENOMEM;
	}
	struct sort_ctx sc = { rows };
	uint32_t root = PK_RB_NIL;
	for (size_t k = 0; k < n; k++)
		pk_rbtree__insert(nodes, &root, (uint32_t)k, row_left, &sc);
	/* widths of the key columns over every row */
	unsigned w[RP_COL_NR], wa[RP_COL_NR];
	rp_calc_widths(old, ho, w);
	if (hn >= 0) {
		rp_calc_widths(new_, hn, wa);
		for (int c = 0; c < RP_COL_NR; c++)
			w[c] = umax(w[c], wa[c]);
	}
	fputs("# Baseline  Delta Abs", fp);
	for (int k = 0; k < old->nr_fields; k++) {
		int c = old->fields[k];
		if (rp_col__is_key(c))
			fprintf(fp, "  %-*.*s", (int)w[c], (int)w[c], rp_col__header(c));
	}
	fputs("\n# ........  .........", fp);
	for (int k = 0; k < old->nr_fields; k++) {
		int c = old->fields[k];
		if (!rp_col__is_key(c))
			continue;
		fputs("  ", fp);
		for (unsigned q = 0; q < w[c]; q++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
	int last = -1;
	for (int k = 0; k < old->nr_fields; k++)
		if (rp_col__is_key(old->fields[k]))
			last = k;
	char buf[4096];
	for (uint32_t q = pk_rbtree__first(nodes, root); q != PK_RB_NIL;
	     q = pk_rbtree__next(nodes, q)) {
		const struct drow *d = &rows[q];
		char base[32] = " ", delta[32] = " ";
		if (d->be)
			snprintf(base, sizeof(base), "%6.2f%%", btotal ? 100.0 * d->bp / btotal : 0.0);
		if (d->pe)
			snprintf(delta, sizeof(delta), "%+4.2F%%", d->delta);
		fprintf(fp, "  %8s  %9s", base, delta);
		struct pk_report *r = d->be ? old : new_;
		const struct rp_entry *e = row_entry(d);
		int h = rp_ctx(r, e->ctx)->hists;
		for (int k = 0; k < old->nr_fields; k++) {
			int c = old->fields[k];
			if (!rp_col__is_key(c))
				continue;
			int len = rp_col_snprintf(r, c, e, h, buf, sizeof(buf), w[c]);
			if (len < 0)
				len = 0;
			if (k != last && (unsigned)len < w[c])
				fprintf(fp, "  %s%*s", buf, (int)(w[c] - (unsigned)len), "");
			else
				fprintf(fp, "  %s", buf);
		}
		fputc('\n', fp);
	}
	free(nodes);
	free(rows);
	free(a.e);
	free(b.e);
	free(a.period);
	free(b.period);
	return 0;
}

int pk_report__fprintf_diff(struct pk_report *old, struct pk_report *new_, const char *old_name,
			    const char *new_name, FILE *fp, const struct pk_diff_opts *opts,
			    struct pk_error *err)
{
	(void)old_name;
	(void)new_name;
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_diff_opts", opts->sz);
	if (!old->finished || !new_->finished)
		return pk_error__set(err, -EINVAL, "", 0, 0, "diff: reports not finished");
	struct pk_data_reader *ro = pk_session__reader(old->s), *rn = pk_session__reader(new_->s);
	bool first = true;
	for (size_t h = 0; h < old->nr_hists; h++) {
		const struct pk_data_attr *a = pk_data_reader__attr(ro, h);
		int hn = -1;
		for (size_t k = 0; k < new_->nr_hists && a; k++) {
			const struct pk_data_attr *b = pk_data_reader__attr(rn, k);
			if (b && b->attr.type == a->attr.type && b->attr.config == a->attr.config) {
				hn = (int)k;	/* perf's evsel_match: type and config */
				break;
			}
		}
		fprintf(fp, "%s# Event '%s'\n#\n", first ? "" : "\n", old->hists[h].name);
		first = false;
		int rc = print_event(old, (int)h, new_, hn, fp);
		if (rc)
			return pk_error__set(err, rc, "", 0, 0, "out of memory");
	}
	if (ferror(fp))
		return pk_error__set(err, -EIO, "", 0, 0, "write error");
	return 0;
}
