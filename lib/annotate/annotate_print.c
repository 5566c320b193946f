/* SPDX-License-Identifier: MIT */
/*
 * annotate/annotate_print.c — an annotation as perf 6.1's `perf annotate --stdio` prints it:
 * the header with the DSO, the event, the symbol's samples and the percent
 * type, a dashed line as long as the header, then each line: instructions
 * with their percent (or samples, or period), text lines with perf's line
 * counter.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/annotate.h>

#include "annotate_priv.h"
#include "util/opts.h"

const char *const ann_percent_names[] = {
	[PK_PERCENT_LOCAL_PERIOD] = "local period",
	[PK_PERCENT_GLOBAL_PERIOD] = "global period",
	[PK_PERCENT_LOCAL_HITS] = "local hits",
	[PK_PERCENT_GLOBAL_HITS] = "global hits",
};

/* the percent of event attr on an instruction */
double ann_print__percent(const struct pk_annotation *an, const struct pk_annotation_line *l, int attr,
		      enum pk_annotate_percent type)
{
	uint64_t v, total;
	switch (type) {
	case PK_PERCENT_GLOBAL_PERIOD:
		/* perf 6.1 finds no total for a group's members: 0.00 (docs/ANNOTATE.md) */
		v = l->period[attr], total = attr == an->attr ? an->ev_totals[attr].period : 0;
		break;
	case PK_PERCENT_LOCAL_HITS:
		v = l->nr_samples[attr], total = an->sym_totals[attr].nr_samples;
		break;
	case PK_PERCENT_GLOBAL_HITS:
		/*
		 * perf 6.1 divides by its hists' count of unfiltered samples, which
		 * perf annotate never counts: every global-hits percent is 0.00
		 * (docs/ANNOTATE.md). Copied, so that the output is perf's.
		 */
		v = l->nr_samples[attr], total = 0;
		break;
	default:
		v = l->period[attr], total = an->sym_totals[attr].period;
		break;
	}
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* the highest percent of the group's events */
double ann_print__max_percent(const struct pk_annotation *an, const struct pk_annotation_line *l,
			  enum pk_annotate_percent type)
{
	double max = 0.0;
	for (int m = 0; m < an->nr_group; m++) {
		double p = ann_print__percent(an, l, an->attr + m, type);
		if (p > max)
			max = p;
	}
	return max;
}

#define MAX_GROUP 64

struct summary_line {
	const char *path;
	double sum[MAX_GROUP];		/* per event of the group */
};

/* perf's cmp_source_line: the first event whose sums differ decides */
static bool summary_above(const struct summary_line *a, const struct summary_line *b, int nr)
{
	for (int m = 0; m < nr; m++)
		if (a->sum[m] != b->sum[m])
			return a->sum[m] > b->sum[m];
	return false;
}

/* perf's tree of source lines holds them in reverse order of their names */
static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct summary_line *)b)->path, ((const struct summary_line *)a)->path);
}

/* perf -l: the source lines above 0.5%, summed per line, highest first (ties by name, last first). */
int ann_print__summary(const struct pk_annotation *an, FILE *f, enum pk_annotate_percent type)
{
	struct summary_line *v = calloc(an->nr_lines ? an->nr_lines : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < an->nr_lines; i++) {
		const struct pk_annotation_line *l = &an->lines[i];
		if (l->offset < 0 || ann_print__max_percent(an, l, type) <= 0.5)
			continue;
		size_t j;
		for (j = 0; j < n && strcmp(v[j].path, l->srcline); j++)
			;
		if (j == n)
			v[n++].path = l->srcline;
		for (int m = 0; m < an->nr_group && m < MAX_GROUP; m++)
			v[j].sum[m] += ann_print__percent(an, l, an->attr + m, type);
	}
	qsort(v, n, sizeof(*v), cmp_path);
	/* perf's resort: an insertion sort, equal sums after those already in */
	for (size_t i = 1; i < n; i++) {
		struct summary_line x = v[i];
		size_t j = i;
		for (; j > 0 && summary_above(&x, &v[j - 1], an->nr_group); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	fprintf(f, "\nSorted summary for file %s\n", an->dso_long);
	fprintf(f, "----------------------------------------------\n\n");
	if (!n)
		fprintf(f, " Nothing higher than %1.1f%%\n", 0.5);
	else if (an->topdown)	/* beyond perf: the labels of the TopDown columns */
		fprintf(f, "%*s  Retire BadSpec FEBound BEBound\n", 8 * an->nr_group, "");
	for (size_t i = 0; i < n; i++) {
		for (int m = 0; m < an->nr_group && m < MAX_GROUP; m++)
			fprintf(f, " %7.2f", v[i].sum[m]);
		if (an->topdown) {
			/* beyond perf: the line's Level 1 shares over all its instructions */
			double td[4];
			ann_extra__srcline_topdown(an, v[i].path, td);
			for (int k = 0; k < 4; k++)
				if (isnan(td[k]))
					fprintf(f, " %7s", "");
				else
					fprintf(f, " %7.2f", td[k]);
		}
		fprintf(f, " %s\n", v[i].path);
	}
	free(v);
	return 0;
}

/*
 * Beyond perf: the header's label over the TopDown and weight columns after
 * the events' (width wide); the width of them all. Without them: perf's.
 */
static int extra_label(const struct pk_annotation *an, char *buf, size_t sz, int width,
		       const char *label)
{
	if (!an->topdown && !an->weights) {
		snprintf(buf, sz, "%s", label);
		return width;
	}
	int n = snprintf(buf, sz, "%-*s%s%s", width, label,
			 an->topdown ? "  Retire BadSpec FEBound BEBound" : "", an->weights ? " AvgWeight" : "");
	return n < 0 ? width : (size_t)n < sz ? n : (int)sz - 1;
}

/* an instruction's TopDown (percent of its slots) and average weight columns, blank where unknown */
static void print_extra(const struct pk_annotation *an, const struct pk_annotation_line *l, FILE *f)
{
	for (int k = 0; an->topdown && k < 4; k++) {
		if (isnan(l->topdown[k]))
			fprintf(f, " %7s", "");
		else
			fprintf(f, " %7.2f", l->topdown[k]);
	}
	if (an->weights) {
		if (l->nr_weighted)
			fprintf(f, " %9.1f", l->avg_weight);
		else
			fprintf(f, " %9s", "");
	}
}

static int cmp_hit_rip(const void *x, const void *y)
{
	uint64_t a = ((const struct ann_hit *)x)->rip, b = ((const struct ann_hit *)y)->rip;
	return a < b ? -1 : a > b;
}

/* perf -v's symbol__annotate_hits: the leader's samples per address in the symbol, then their sum */
static int print_hits(const struct pk_annotation *an, FILE *f)
{
	const struct ann_entry *e = an->entry;
	struct ann_hit *v = malloc((e->nr_hits ? e->nr_hits : 1) * sizeof(*v));
	uint64_t total = 0;
	if (!v)
		return -ENOMEM;
	size_t n = 0;
	for (size_t h = 0; h < e->nr_hits; h++)
		if (e->hits[h].attr == an->attr && e->hits[h].rip >= e->sym->start && e->hits[h].rip < e->sym->end)
			v[n++] = e->hits[h];
	qsort(v, n, sizeof(*v), cmp_hit_rip);
	for (size_t i = 0; i < n;) {
		uint64_t nr = 0;
		size_t j = i;
		for (; j < n && v[j].rip == v[i].rip; j++)
			nr += v[j].nr_samples;
		fprintf(f, "%32" PRIx64 ": %" PRIu64 "\n", v[i].rip, nr);
		total += nr;
		i = j;
	}
	fprintf(f, "%32s: %" PRIu64 "\n", "h->nr_samples", total);
	free(v);
	return 0;
}

/* " :   %*lx:" without printf: an instruction's address after its columns */
static void put_addr(FILE *f, int width, uint64_t addr)
{
	char b[96];
	char *p = b + sizeof(b);
	*--p = ':';
	do
		*--p = "0123456789abcdef"[addr & 15];
	while ((addr >>= 4));
	for (int n = (int)(b + sizeof(b) - 1 - p); n < width && p > b + 5; n++)
		*--p = ' ';
	p -= 5;
	memcpy(p, " :   ", 5);
	fwrite(p, 1, (size_t)(b + sizeof(b) - p), f);
}

/*
 * " %*s: %-*d " without printf: a text line's columns and its number (the
 * empty line: " %*s:\n")
 */
static void put_text_prefix(FILE *f, int width, int addr_width, bool empty, int nr)
{
	char b[256];
	if (width > 128 || addr_width > 64 || nr < 0) {	/* wide groups */
		if (empty)
			fprintf(f, " %*s:\n", width, " ");
		else
			fprintf(f, " %*s: %-*d ", width, " ", addr_width, nr);
		return;
	}
	size_t n = 0;
	b[n++] = ' ';
	for (int i = 0; i < (width > 1 ? width : 1); i++)
		b[n++] = ' ';
	b[n++] = ':';
	if (empty) {
		b[n++] = '\n';
		fwrite(b, 1, n, f);
		return;
	}
	b[n++] = ' ';
	char d[16];
	int k = 0;
	unsigned v = (unsigned)nr;
	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10));
	for (int i = k; i-- > 0;)
		b[n++] = d[i];
	for (int i = k; i < addr_width; i++)
		b[n++] = ' ';
	b[n++] = ' ';
	fwrite(b, 1, n, f);
}

int pk_annotation__fprintf(const struct pk_annotation *an, FILE *f,
			   const struct pk_annotation_print_opts *opts)
{
	struct pk_annotation_print_opts o = { .sz = sizeof(o) };
	if (pk_opts__load(&o, sizeof(o), opts))
		return -EINVAL;
	if ((unsigned)o.percent_type > PK_PERCENT_GLOBAL_HITS)
		o.percent_type = PK_PERCENT_LOCAL_PERIOD;
	if (o.flags & PK_ANNOTATE_PRINT_STDIO2)
		return ann_print__stdio2(an, f, &o);
	bool period = o.flags & PK_ANNOTATE_PRINT_PERIOD, nr = o.flags & PK_ANNOTATE_PRINT_NR_SAMPLES;
	if ((o.flags & PK_ANNOTATE_PRINT_LINES) && ann_print__summary(an, f, o.percent_type))
		return -ENOMEM;
	int width = (period ? 12 : 8) * an->nr_group;
	char label[1024];
	width = extra_label(an, label, sizeof(label), width, period ? "Period" : nr ? "Samples" : "Percent");
	int n = fprintf(f, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, "
			"percent: %s)\n", width, width, label,
			o.flags & PK_ANNOTATE_PRINT_FULL_PATH ? an->dso_long : an->dso_short, an->event,
			an->sym_totals[an->attr].nr_samples, ann_percent_names[o.percent_type]);
	for (int i = 0; i < n; i++)
		fputc('-', f);
	fputs("----\n", f);
	if ((o.flags & PK_ANNOTATE_PRINT_VERBOSE) && print_hits(an, f))
		return -ENOMEM;
	/*
	 * perf's static prev_line points into the previous symbol's freed lines
	 * (a new symbol prints its first srcline), or at its static "??:0"
	 */
	const char *last = an->a->unknown_last ? "??:0" : "";
	int addr_width = 0;
	for (size_t i = an->nr_lines; i-- > 0;)
		if (an->lines[i].offset >= 0) {
			addr_width = snprintf(NULL, 0, "%" PRIx64, an->lines[i].addr);
			break;
		}
	for (size_t i = 0; i < an->nr_lines; i++) {
		const struct pk_annotation_line *l = &an->lines[i];
		if (l->offset >= 0) {
			for (int m = an->attr; m < an->attr + an->nr_group; m++) {
				double pct;
				if (period)
					fprintf(f, " %11" PRIu64, l->period[m]);
				else if (nr)
					fprintf(f, " %7" PRIu64, l->nr_samples[m]);
				else if ((pct = ann_print__percent(an, l, m, o.percent_type)) == 0.0)
					fputs("    0.00", f);	/* most instructions: no printf */
				else
					fprintf(f, " %7.2f", pct);
			}
			print_extra(an, l, f);
			put_addr(f, addr_width, l->addr);
			fputs(l->text, f);
			if ((o.flags & PK_ANNOTATE_PRINT_LINES) && ann_print__max_percent(an, l, o.percent_type) > 0.5 &&
			    strcmp(last, l->srcline)) {
				fprintf(f, " // %s", l->srcline);
				last = l->srcline;
				an->a->unknown_last = !strcmp(last, "??:0");
			}
			fputc('\n', f);
		} else {
			put_text_prefix(f, width, addr_width, !*l->text, l->line_nr);
			if (*l->text) {
				fputs(l->text, f);
				fputc('\n', f);
			}
		}
	}
	return ferror(f) ? -EIO : 0;
}
