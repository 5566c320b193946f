/* SPDX-License-Identifier: MIT */
/*
 * report/diff_print.c — perf diff's --stdio columns for the rows diff.c
 * ordered: the baseline's ("Baseline", with -p "Base period"), then for each
 * compared file its computed value ("Delta Abs", "Delta", "Ratio" or
 * "Weighted diff"), with -F "Formula" and with -p "Period" ("Name/N" past two
 * files), each right-aligned in perf's widths; then the sort keys, in widths
 * measured over the rows shown (perf's hists__calc_col_len at output resort).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/diff_int.h"

enum rd_kind {
	RD_BASELINE,
	RD_PERIOD_BASELINE,
	RD_DELTA,
	RD_DELTA_ABS,
	RD_RATIO,
	RD_WDIFF,
	RD_FORMULA,
	RD_PERIOD,
};

static const struct {
	const char *name;
	int width;
} kinds[] = {
	[RD_BASELINE] = { "Baseline", 0 },
	[RD_PERIOD_BASELINE] = { "Base period", 14 },
	[RD_DELTA] = { "Delta", 7 },
	[RD_DELTA_ABS] = { "Delta Abs", 7 },
	[RD_RATIO] = { "Ratio", 14 },
	[RD_WDIFF] = { "Weighted diff", 14 },
	[RD_FORMULA] = { "Formula", 70 },
	[RD_PERIOD] = { "Period", 14 },
};

/* perf's cells are made in a buffer of this size (MAX_COL_WIDTH) */
#define RD_CELL 70

struct rd_col {
	enum rd_kind kind;
	size_t file;
	int width;
	char header[100];
};

static size_t add_col(const struct rd_diff *d, struct rd_col *cols, size_t n, enum rd_kind kind,
		      size_t file)
{
	struct rd_col *c = &cols[n];
	c->kind = kind;
	c->file = file;
	if (d->n > 2)
		snprintf(c->header, sizeof(c->header), "%s/%zu", kinds[kind].name, file);
	else
		snprintf(c->header, sizeof(c->header), "%s", kinds[kind].name);
	int len = (int)strlen(c->header);
	c->width = kinds[kind].width > len ? kinds[kind].width : len;
	return n + 1;
}

/* perf's ui_init: each file's columns in file order */
static size_t make_cols(const struct rd_diff *d, struct rd_col *cols)
{
	static const enum rd_kind compute_kind[] = {
		[PK_DIFF_DELTA_ABS] = RD_DELTA_ABS,
		[PK_DIFF_DELTA] = RD_DELTA,
		[PK_DIFF_RATIO] = RD_RATIO,
		[PK_DIFF_WDIFF] = RD_WDIFF,
	};
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++) {
		n = add_col(d, cols, n, i ? compute_kind[d->o.compute] : RD_BASELINE, i);
		if (d->o.show_formula && i)
			n = add_col(d, cols, n, RD_FORMULA, i);
		if (d->o.show_period)
			n = add_col(d, cols, n, i ? RD_PERIOD : RD_PERIOD_BASELINE, i);
	}
	return n;
}

static void formula(const struct rd_diff *d, const struct rd_row *row, const struct rd_pair *p,
		    char *buf)
{
	switch (d->o.compute) {
	case PK_DIFF_RATIO:
		snprintf(buf, RD_CELL, "%.0F / %.0F", (double)p->period, (double)row->period);
		break;
	case PK_DIFF_WDIFF:
		snprintf(buf, RD_CELL, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
			 p->period, d->o.wdiff_w2, row->period, d->o.wdiff_w1);
		break;
	default:
		snprintf(buf, RD_CELL, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
			 p->period, d->total[p - row->p], row->period, d->total[0]);
		break;
	}
}

/*
 * One cell's text, padded to the column's width. perf prints the baseline's
 * and the computed columns with their color functions (the ones stdio uses
 * without a field separator), the others with hpp__entry_global: a value
 * or " ", right-aligned.
 */
static void cell(const struct rd_diff *d, const struct rd_col *c, const struct rd_row *row,
		 char *out, size_t size)
{
	char buf[RD_CELL] = " ";
	/* a compared file's cell (the baseline's columns have no pair) */
	static const struct rd_pair none;
	const struct rd_pair *p = c->file ? &row->p[c->file] : &none;
	int w = c->width;
	switch (c->kind) {
	case RD_BASELINE:
		if (!row->dummy)
			snprintf(buf, RD_CELL, "%.2f%%", 100.0 * (double)row->period / (double)d->total[0]);
		break;
	case RD_PERIOD_BASELINE:
		snprintf(buf, RD_CELL, "%" PRIu64, row->period);
		break;
	case RD_DELTA:
	case RD_DELTA_ABS:
		if (p->e)
			snprintf(buf, RD_CELL, "%+.2f%%", p->delta);
		break;
	case RD_RATIO:
		if (p->e)
			snprintf(buf, RD_CELL, row->dummy ? "N/A" : "%.6f", p->ratio);
		break;
	case RD_WDIFF:
		if (p->e && !row->dummy) {
			/* perf's "%14ld" whatever the column's width, then padded on the right */
			snprintf(out, size, "%-*s", w, "");
			char v[32];
			int len = snprintf(v, sizeof(v), "%14" PRId64, p->wdiff);
			memcpy(out, v, (size_t)len < size - 1 ? (size_t)len : size - 1);
			return;
		}
		if (p->e)
			strcpy(buf, "N/A");
		break;
	case RD_FORMULA:
		if (p->e)
			formula(d, row, p, buf);
		break;
	case RD_PERIOD:
		if (p->e)
			snprintf(buf, RD_CELL, "%" PRIu64, p->period);
		break;
	}
	snprintf(out, size, "%*s", w, buf);
}

static unsigned umax(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

/* the key columns' widths over the rows' entries, each file's through its own report */
static int key_widths(const struct rd_diff *d, unsigned *w)
{
	memset(w, 0, RP_COL_NR * sizeof(*w));
	uint32_t *idx = malloc((d->nr_rows + 1) * sizeof(*idx));
	if (!idx)
		return -1;
	for (size_t i = 0; i < d->n; i++) {
		struct pk_report *r = d->r[i];
		if (d->h[i] < 0)
			continue;
		size_t m = 0;
		const struct rp_entry *base = rp_entry(r, 0);
		for (size_t k = 0; k < d->nr_rows; k++)
			if (d->rows[k].r == r && !d->rows[k].hidden)
				idx[m++] = (uint32_t)(d->rows[k].e - base);
		if (!m && i)
			continue;
		/* rp_calc_widths measures a hists' output list: lend it the rows of this file */
		struct rp_hists *hs = &r->hists[d->h[i]];
		uint32_t *out = hs->out;
		size_t nr_out = hs->nr_out;
		hs->out = idx;
		hs->nr_out = m;
		unsigned wf[RP_COL_NR];
		rp_calc_widths(r, d->h[i], wf);
		hs->out = out;
		hs->nr_out = nr_out;
		for (int c = 0; c < RP_COL_NR; c++)
			w[c] = umax(w[c], wf[c]);
	}
	free(idx);
	/* the srclines perf diff read while pairing are in the width too */
	for (size_t k = 0; k < d->nr_rows && d->r[0]->has_key[RP_KEY_SRCLINE]; k++) {
		if (d->rows[k].hidden)
			continue;
		const struct rp_lclass *lc = rp_lclass(d->rows[k].r, d->rows[k].e->lclass);
		if (lc->srcline && d->rows[k].srcline_known)
			w[RP_KEY_SRCLINE] = umax(w[RP_KEY_SRCLINE], (unsigned)strlen(lc->srcline));
	}
	return 0;
}

static void print_headers(const struct rd_diff *d, const struct rd_col *cols, size_t nc,
			  const unsigned *w, FILE *fp)
{
	const struct pk_report *r = d->r[0];
	fputs("# ", fp);
	for (size_t k = 0; k < nc; k++)
		fprintf(fp, "%s%*s", k ? "  " : "", cols[k].width, cols[k].header);
	for (int k = 0; k < r->nr_fields; k++) {
		int c = r->fields[k];
		if (rp_col__is_key(c) && !r->elide[c])
			fprintf(fp, "  %-*.*s", (int)w[c], (int)w[c], rp_col__header(c));
	}
	fputs("\n# ", fp);
	for (size_t k = 0; k < nc; k++)
		fprintf(fp, "%s%.*s", k ? "  " : "", cols[k].width,
			"......................................................................"
			"..............................");
	for (int k = 0; k < r->nr_fields; k++) {
		int c = r->fields[k];
		if (!rp_col__is_key(c) || r->elide[c])
			continue;
		fputs("  ", fp);
		for (unsigned q = 0; q < w[c]; q++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

static void print_row(const struct rd_diff *d, const struct rd_row *row, const struct rd_col *cols,
		      size_t nc, const unsigned *w, FILE *fp)
{
	char buf[4096];
	fputs("  ", fp);
	for (size_t k = 0; k < nc; k++) {
		cell(d, &cols[k], row, buf, sizeof(buf));
		fprintf(fp, "%s%s", k ? "  " : "", buf);
	}
	const struct pk_report *r0 = d->r[0];
	int last = -1;
	for (int k = 0; k < r0->nr_fields; k++)
		if (rp_col__is_key(r0->fields[k]))
			last = k;
	int h = rp_ctx(row->r, row->e->ctx)->hists;
	for (int k = 0; k < r0->nr_fields; k++) {
		int c = r0->fields[k];
		if (!rp_col__is_key(c) || r0->elide[c])
			continue;	/* (elided: a filter list of one entry; still "last" for padding) */
		int len = rp_col_snprintf(row->r, c, row->e, h, buf, sizeof(buf), w[c]);
		if (len < 0)
			len = 0;
		if (k != last && (unsigned)len < w[c])
			fprintf(fp, "  %s%*s", buf, (int)(w[c] - (unsigned)len), "");
		else
			fprintf(fp, "  %s", buf);
	}
	fputc('\n', fp);
}

int rd_print(const struct rd_diff *d, const uint32_t *order, size_t nr, FILE *fp)
{
	struct rd_col *cols = calloc(3 * d->n, sizeof(*cols));
	unsigned w[RP_COL_NR];
	if (!cols || key_widths(d, w)) {
		free(cols);
		return -ENOMEM;
	}
	size_t nc = make_cols(d, cols);
	if (!d->o.quiet)
		print_headers(d, cols, nc, w, fp);
	for (size_t k = 0; k < nr; k++)
		if (!d->rows[order[k]].hidden)
			print_row(d, &d->rows[order[k]], cols, nc, w, fp);
	free(cols);
	return 0;
}
