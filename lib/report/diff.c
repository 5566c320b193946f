/* SPDX-License-Identifier: MIT */
/*
 * report/diff.c — perf diff over finished reports (made with perf diff's sort
 * keys, no children or callchains): for each event of the baseline, each
 * compared file's event of the same type and config (evsel_match); entries
 * merged and paired by perf diff's collapse comparison of the sort keys (DSO
 * names; symbols by name, as perf diff compares them across binaries, the
 * unresolved addresses of a DSO as one), file after file (hists__match);
 * a compared file's unpaired entries added as dummies with no baseline
 * (hists__link), or the baseline's unpaired ones dropped (-b); the computed
 * values (delta, ratio, wdiff), and perf's output order: the -o file's value
 * (paired rows first), the baseline, each file's value, then the keys.
 * Rows of entries a sample filter hid stay in the pairing and in the totals
 * (of the shown rows only with --percentage relative) but are not printed.
 * The columns are printed by diff_print.c.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/diff_int.h"
#include "report/report_int.h"
#include "util/error.h"
#include "util/rbtree.h"
#include "util/opts.h"

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
		if (ra->opts.verbose > 0)	/* perf's _sort__dso_cmp: long names with -v */
			return sgn(strcmp(pk_dso__name(db), pk_dso__name(da)));
		return sgn(strcmp(pk_dso__short_name(db), pk_dso__short_name(da)));
	case RP_KEY_SYM:
		/* perf diff's collapse of symbols: sort__sym_sort, names (no symbol: equal) */
		(void)has_dso;
		if (!la->sym || !lb->sym)
			return cmp_null(la->sym, lb->sym);
		return sgn(strcmp(lb->sym->name, la->sym->name));
	case RP_KEY_SRCLINE:
		return sgn(strcmp(lb->srcline ? lb->srcline : "", la->srcline ? la->srcline : ""));
	case RP_KEY_TRACE: {
		/* sort__trace_cmp: the tracepoints' text (other events: equal) */
		const char *ta = rp_ctx_trace(ra, rp_ctx(ra, a->ctx));
		const char *tb = rp_ctx_trace(rb, rp_ctx(rb, b->ctx));
		return ta && tb ? sgn(strcmp(tb, ta)) : 0;
	}
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


static void side_free(struct side *s)
{
	free(s->e);
	free(s->period);
	s->e = NULL;
	s->period = NULL;
}

/* ---- pairing ---------------------------------------------------------------------- */

/*
 * Merge file i's entries (b, in collapse order) into the rows (in collapse
 * order): equal ones pair (hists__match), the others become dummy rows
 * (hists__link) unless -b. next_slot: the next free pair slot.
 */
static int rows_merge(struct rd_diff *d, size_t i, const struct side *b, struct rd_pair *pairs,
		      size_t *next_slot)
{
	struct pk_report *ri = d->r[i];
	struct rd_row *out = malloc((d->nr_rows + b->n + 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	size_t x = 0, y = 0, m = 0;
	while (x < d->nr_rows || y < b->n) {
		int64_t c = x < d->nr_rows && y < b->n ?
				    xcollapse_all(d->rows[x].r, d->rows[x].e, ri, b->e[y]) :
			    x < d->nr_rows ? 1 : -1;
		if (c >= 0) {
			if (!c) {
				d->rows[x].p[i] = (struct rd_pair){ .e = b->e[y], .period = b->period[y] };
				y++;
			}
			out[m++] = d->rows[x++];
			continue;
		}
		if (!d->o.baseline_only) {
			struct rd_row *row = &out[m++];
			*row = (struct rd_row){ .r = ri, .e = b->e[y], .dummy = true,
						.hidden = b->e[y]->hidden != 0,
						.p = pairs + (*next_slot)++ * d->n };
			row->p[i] = (struct rd_pair){ .e = b->e[y], .period = b->period[y] };
		}
		y++;
	}
	free(d->rows);
	d->rows = out;
	d->nr_rows = m;
	return 0;
}

static bool row_has_pairs(const struct rd_diff *d, const struct rd_row *row)
{
	for (size_t i = 1; i < d->n; i++)
		if (row->p[i].e)
			return true;
	return false;
}

/* the rows of d's event: the baseline's entries, their pairs and the dummies; *pairs malloc'd */
static int rows_build(struct rd_diff *d, struct rd_pair **pairs)
{
	struct side *sides = calloc(d->n, sizeof(*sides));
	if (!sides)
		return -ENOMEM;
	int rc = 0;
	size_t cap = 0;
	for (size_t i = 0; i < d->n && !rc; i++) {
		if (d->h[i] >= 0)
			rc = side_of(d->r[i], d->h[i], &sides[i]);
		cap += sides[i].n;
	}
	*pairs = rc ? NULL : calloc((cap + 1) * d->n, sizeof(**pairs));
	d->rows = rc ? NULL : calloc(sides[0].n + 1, sizeof(*d->rows));
	if (!rc && (!*pairs || !d->rows))
		rc = -ENOMEM;
	size_t slot = 0;
	for (size_t k = 0; !rc && k < sides[0].n; k++)
		d->rows[d->nr_rows++] = (struct rd_row){ .r = d->r[0], .e = sides[0].e[k],
							 .period = sides[0].period[k],
							 .hidden = sides[0].e[k]->hidden != 0,
							 .p = *pairs + slot++ * d->n };
	for (size_t i = 1; i < d->n && !rc; i++)
		if (d->h[i] >= 0)
			rc = rows_merge(d, i, &sides[i], *pairs, &slot);
	for (size_t i = 0; i < d->n; i++)
		side_free(&sides[i]);
	free(sides);
	if (rc || !d->o.baseline_only)
		return rc;
	/* -b: perf's hists__baseline_only, the baseline's entries with no pair dropped */
	size_t m = 0;
	for (size_t k = 0; k < d->nr_rows; k++)
		if (row_has_pairs(d, &d->rows[k]))
			d->rows[m++] = d->rows[k];
	d->nr_rows = m;
	return 0;
}

/* whether a and b are equal by the sort keys before srcline */
static bool equal_before_srcline(const struct pk_report *ra, const struct rp_entry *a,
				 const struct pk_report *rb, const struct rp_entry *b)
{
	for (int i = 0; i < ra->nr_sorts && ra->sorts[i] != RP_KEY_SRCLINE; i++)
		if (xcollapse(ra->sorts[i], false, ra, a, rb, b))
			return false;
	return true;
}

/*
 * Which rows' srclines perf has read before measuring the widths: those its
 * own report read (not srcline_late), and those compared by srcline while
 * pairing, with an entry of another file equal by the keys before it (a
 * search of a tree passes by the neighbours of what it looks for).
 */
static void rows_srcline_known(struct rd_diff *d)
{
	for (size_t k = 0; k < d->nr_rows; k++) {
		struct rd_row *x = &d->rows[k];
		x->srcline_known = !x->e || !x->e->srcline_late || (!x->dummy && row_has_pairs(d, x));
		for (size_t q = 0; q < d->nr_rows && !x->srcline_known; q++) {
			const struct rd_row *y = &d->rows[q];
			for (size_t i = 0; i < d->n && !x->srcline_known; i++) {
				struct pk_report *ry = i ? d->r[i] : y->r;
				const struct rp_entry *ey = i ? y->p[i].e : y->e;
				if (ey && ry != x->r && equal_before_srcline(x->r, x->e, ry, ey))
					x->srcline_known = true;
			}
		}
	}
}

/* perf's hists__total_period: of all samples, or with --percentage relative of those shown */
static uint64_t hists_total(const struct pk_report *r, int h)
{
	const struct rp_hists *hs = &r->hists[h];
	return r->opts.filter_relative ? hs->total_nf_period : hs->total_period;
}

/* perf's hists__precompute: each pair's values, against each file's hists__total_period */
static void rows_compute(struct rd_diff *d)
{
	uint64_t btotal = d->total[0];
	for (size_t k = 0; k < d->nr_rows; k++) {
		struct rd_row *row = &d->rows[k];
		for (size_t i = 1; i < d->n; i++) {
			struct rd_pair *p = &row->p[i];
			if (!p->e)
				continue;
			double oldp = row->period * 100.0 / (double)btotal;
			double newp = p->period * 100.0 / (double)d->total[i];
			p->delta = newp - oldp;
			p->ratio = (double)p->period / (double)(row->period ? row->period : 1);
			p->wdiff = (int64_t)(p->period * (uint64_t)d->o.wdiff_w2 -
					     row->period * (uint64_t)d->o.wdiff_w1);
		}
	}
}

/* ---- output order ----------------------------------------------------------------- */

static int64_t cmp_value(const struct rd_diff *d, const struct rd_pair *a, const struct rd_pair *b)
{
	double l, r;
	switch (d->o.compute) {
	case PK_DIFF_DELTA:
		l = a->delta, r = b->delta;
		break;
	case PK_DIFF_RATIO:
		l = a->ratio, r = b->ratio;
		break;
	case PK_DIFF_WDIFF:
		return a->wdiff - b->wdiff;
	default:
		l = fabs(a->delta), r = fabs(b->delta);
		break;
	}
	return l > r ? 1 : l < r ? -1 : 0;
}

/* whether exactly one of two things is there: 1 when a's, -1 when b's, 0 otherwise */
static int64_t cmp_present(bool a, bool b)
{
	return a == b ? 0 : a ? 1 : -1;
}

/* perf's hist_entry__cmp_compute_idx (the -o file), >0: a before b */
static int64_t cmp_compute_idx(const struct rd_diff *d, const struct rd_row *a,
			       const struct rd_row *b)
{
	size_t i = d->o.order;
	const struct rd_pair *pa = &a->p[i], *pb = &b->p[i];
	if (!pa->e || !pb->e)
		return cmp_present(pa->e, pb->e);
	if (d->o.compute != PK_DIFF_DELTA && d->o.compute != PK_DIFF_DELTA_ABS &&
	    (a->dummy || b->dummy))
		return cmp_present(!a->dummy, !b->dummy);
	return cmp_value(d, pa, pb);
}

/* perf's hist_entry__cmp_compute for file i's column, >0: a before b */
static int64_t cmp_compute(const struct rd_diff *d, size_t i, const struct rd_row *a,
			   const struct rd_row *b)
{
	bool ha = row_has_pairs(d, a), hb = row_has_pairs(d, b);
	if (!ha || !hb)
		return cmp_present(ha, hb);
	const struct rd_pair *pa = &a->p[i], *pb = &b->p[i];
	if (!pa->e || !pb->e)
		return cmp_present(pa->e, pb->e);
	return cmp_value(d, pa, pb);
}

/* the sort keys' order (perf's se_sort, else se_cmp), >0: a before b */
static int64_t cmp_keys(const struct rd_row *a, const struct rd_row *b)
{
	const struct pk_report *r = a->r;	/* (every row's keys are the same) */
	for (int i = 0; i < r->nr_sorts; i++) {
		int k = r->sorts[i];
		if (!rp_col__is_key(k) || r->elide[k])
			continue;	/* (perf_hpp__should_skip: elided columns do not sort) */
		int64_t c;
		if (k == RP_KEY_SYM) {
			const struct pk_sym *sa = lc_of(a->r, a->e)->sym, *sb = lc_of(b->r, b->e)->sym;
			c = !sa || !sb ? cmp_null(sa, sb) : sgn(strcmp(sb->name, sa->name));
		} else {
			c = xcollapse(k, r->has_key[RP_KEY_DSO], a->r, a->e, b->r, b->e);
		}
		if (c)
			return c;
	}
	return 0;
}

/* perf diff's sort list: the -o file's value, the baseline, each file's value, the keys */
static int64_t row_sort(const struct rd_diff *d, const struct rd_row *a, const struct rd_row *b)
{
	int64_t c = d->o.order ? cmp_compute_idx(d, a, b) : 0;
	if (c)
		return c;
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	for (size_t i = 1; i < d->n; i++)
		if ((c = cmp_compute(d, i, a, b)))
			return c;
	return cmp_keys(a, b);
}

static bool row_left(void *vctx, uint32_t node, uint32_t other)
{
	const struct rd_diff *d = vctx;
	return row_sort(d, &d->rows[node], &d->rows[other]) > 0;
}

/* the rows in output order: perf's red-black tree over them in collapse order */
static int rows_order(const struct rd_diff *d, uint32_t **out)
{
	struct pk_rbnode *nodes = malloc((d->nr_rows + 1) * sizeof(*nodes));
	*out = malloc((d->nr_rows + 1) * sizeof(**out));
	if (!nodes || !*out) {
		free(nodes);
		return -ENOMEM;
	}
	uint32_t root = PK_RB_NIL;
	for (size_t k = 0; k < d->nr_rows; k++)
		pk_rbtree__insert(nodes, &root, (uint32_t)k, row_left, (void *)d);
	size_t m = 0;
	for (uint32_t q = pk_rbtree__first(nodes, root); q != PK_RB_NIL;
	     q = pk_rbtree__next(nodes, q))
		(*out)[m++] = q;
	free(nodes);
	return 0;
}

/* ---- events ----------------------------------------------------------------------- */

/* perf's evsel_match: the first event of r with a's type and config, -1 none */
static int match_event(struct pk_report *r, const struct pk_data_attr *a)
{
	for (size_t k = 0; k < r->nr_hists && a; k++) {
		const struct pk_data_attr *b = pk_session__attr(r->s, (int)k);
		if (b && b->attr.type == a->attr.type && b->attr.config == a->attr.config)
			return (int)k;
	}
	return -1;
}

static void print_event_header(const struct rd_diff *d, bool first, FILE *fp)
{
	if (!d->o.quiet)
		fprintf(fp, "%s# Event '%s'\n#\n", first ? "" : "\n", d->r[0]->hists[d->h[0]].name);
	/* perf: the list with -v (-q or not), or past two files unless -q */
	if (d->o.verbose <= 0 && (d->n <= 2 || d->o.quiet))
		return;
	fputs("# Data files:\n", fp);
	for (size_t i = 0; i < d->n; i++)
		fprintf(fp, "#  [%zu] %s %s\n", i, d->names[i], i ? "" : "(Baseline)");
	fputs("#\n", fp);
}

static int diff_event(struct rd_diff *d, bool first, FILE *fp)
{
	const struct pk_data_attr *a = pk_session__attr(d->r[0]->s, d->h[0]);
	for (size_t i = 1; i < d->n; i++) {
		d->h[i] = match_event(d->r[i], a);
		d->total[i] = d->h[i] >= 0 ? hists_total(d->r[i], d->h[i]) : 0;
	}
	d->total[0] = hists_total(d->r[0], d->h[0]);
	struct rd_pair *pairs = NULL;
	uint32_t *order = NULL;
	d->rows = NULL;
	d->nr_rows = 0;
	int rc = rows_build(d, &pairs);
	if (!rc) {
		rows_compute(d);
		if (d->r[0]->has_key[RP_KEY_SRCLINE])
			rows_srcline_known(d);
		/* perf's output resort counts the baseline's total again, over the rows kept */
		d->total[0] = 0;
		for (size_t k = 0; k < d->nr_rows; k++)
			if (!d->rows[k].hidden || !d->r[0]->opts.filter_relative)
				d->total[0] += d->rows[k].period;
		rc = rows_order(d, &order);
	}
	if (!rc) {
		print_event_header(d, first, fp);
		rc = rd_print(d, order, d->nr_rows, fp);
	}
	free(order);
	free(pairs);
	free(d->rows);
	d->rows = NULL;
	return rc;
}

int pk_report__fprintf_diffs(struct pk_report *const *reports, const char *const *names, size_t nr,
			     FILE *fp, const struct pk_diff_opts *opts, struct pk_error *err)
{
	struct rd_diff d = { .r = reports, .names = names, .n = nr };
	d.o.order = 1;
	if (PK_OPTS_LOAD(&d.o, opts))
		return pk_opts__error(err, "pk_diff_opts", opts->sz);
	if (!PK_OPTS_HAS(opts, order_set) || !d.o.order_set)
		d.o.order = 1;
	if (nr < 2 || !reports || !names)
		return pk_error__set(err, -EINVAL, "", 0, 0, "diff: needs two reports or more");
	if (d.o.order >= nr)
		return pk_error__set(err, -EINVAL, "", 0, 0, "Order option out of limit.");
	if (d.o.compute < PK_DIFF_DELTA_ABS || d.o.compute > PK_DIFF_WDIFF)
		return pk_error__set(err, -EINVAL, "", 0, 0, "diff: unknown compute %d", d.o.compute);
	if (d.o.compute == PK_DIFF_WDIFF && (!d.o.wdiff_w1 || !d.o.wdiff_w2))
		return pk_error__set(err, -EINVAL, "", 0, 0,
				     "Failed: wrong weight data, use 'wdiff:w1,w2'");
	for (size_t i = 0; i < nr; i++)
		if (!reports[i] || !reports[i]->finished)
			return pk_error__set(err, -EINVAL, "", 0, 0, "diff: reports not finished");
	d.h = calloc(nr, sizeof(*d.h));
	d.total = calloc(nr, sizeof(*d.total));
	int rc = d.h && d.total ? 0 : -ENOMEM;
	for (size_t h = 0; h < reports[0]->nr_hists && !rc; h++) {
		d.h[0] = (int)h;
		rc = diff_event(&d, !h, fp);
	}
	free(d.h);
	free(d.total);
	if (rc)
		return pk_error__set(err, rc, "", 0, 0, "out of memory");
	if (ferror(fp))
		return pk_error__set(err, -EIO, "", 0, 0, "write error");
	return 0;
}

int pk_report__fprintf_diff(struct pk_report *old, struct pk_report *new_, const char *old_name,
			    const char *new_name, FILE *fp, const struct pk_diff_opts *opts,
			    struct pk_error *err)
{
	struct pk_report *r[2] = { old, new_ };
	const char *names[2] = { old_name ? old_name : "", new_name ? new_name : "" };
	return pk_report__fprintf_diffs(r, names, 2, fp, opts, err);
}
