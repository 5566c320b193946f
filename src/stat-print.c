/* SPDX-License-Identifier: MIT */
/*
 * stat-print.c — `pmukit stat` output: one frame of counts printed as perf
 * stat prints it (text, -x CSV, -j JSON), with interval timestamps,
 * aggregation ids (CPU, core, die, socket, thread), perf's built-in shadow
 * metrics (CPUs utilized, GHz, insn per cycle, "of all branches", rates),
 * -M metrics, -r noise and the elapsed/user/sys footer. The shadow metrics
 * themselves are computed in stat-shadow.c.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "stat.h"

#define COUNTS_LEN 18
#define EVNAME_LEN 32
#define METRIC_LEN 35	/* perf 6.1's (6.12: 38) */
#define UNIT_WIDTH 4

static void metric_only_frame(struct stat_printer *p, const struct stat_frame *fr);

void stat_printer__init(struct stat_printer *p, const struct stat_print_opts *o)
{
	memset(p, 0, sizeof(*p));
	p->o = *o;
	if (p->o.runs < 1)
		p->o.runs = 1;
}

static bool is_csv(const struct stat_printer *p)
{
	return p->o.sep != NULL;
}

void stat_printer__header(struct stat_printer *p, const char *target)
{
	if (is_csv(p) || p->o.json || p->o.interval)
		return;
	fprintf(p->o.out, "\n Performance counter stats for %s", target);
	if (p->o.runs > 1 && !p->o.runs_unknown)
		fprintf(p->o.out, " (%d runs)", p->o.runs);
	fprintf(p->o.out, ":\n\n");
}

/*
 * perf 6.1's text columns: the label's trailing number padded to a width
 * ("CPU%-7d", "S%d-D%d-C%-8d", "S%d-D%-8d", "S%-5d"), then the CPU count.
 */
static int label_pad(enum stat_aggr a)
{
	switch (a) {
	case STAT_AGGR_CPU: return 7;
	case STAT_AGGR_CORE: return 8;
	case STAT_AGGR_DIE: return 8;
	case STAT_AGGR_SOCKET: return 5;
	default: return 0;
	}
}

static void interval_header(struct stat_printer *p, size_t unit_width)
{
	FILE *f = p->o.out;

	if (p->nr_interval_prints++ % 26)	/* perf: again after 25 more */
		return;
	if (is_csv(p) || p->o.json)
		return;
	fprintf(f, "#%15s", "time");
	switch (p->o.aggr) {
	case STAT_AGGR_CPU: fprintf(f, " %-10s", "CPU"); break;
	case STAT_AGGR_CORE: fprintf(f, " %-16scpus", "core"); break;
	case STAT_AGGR_DIE: fprintf(f, " %-13scpus", "die"); break;
	case STAT_AGGR_SOCKET: fprintf(f, " %-7scpus", "socket"); break;
	case STAT_AGGR_THREAD: fprintf(f, " %16s-%-8s", "comm", "pid"); break;
	case STAT_AGGR_GLOBAL: break;
	}
	fprintf(f, " %*s %*s events\n", COUNTS_LEN, "counts", (int)unit_width, "unit");
}

/* The start of every line: timestamp and aggregation id. */
static void line_prefix(struct stat_printer *p, const struct stat_frame *fr, const struct stat_id *id)
{
	FILE *f = p->o.out;
	const char *sep = p->o.sep;

	if (p->o.json) {
		fputc('{', f);
		if (fr->interval >= 0)
			fprintf(f, "\"interval\" : %.9f, ", fr->interval);
		switch (p->o.aggr) {
		case STAT_AGGR_CPU: fprintf(f, "\"cpu\" : \"%d\", ", id->cpu); break;
		case STAT_AGGR_CORE:
			fprintf(f, "\"core\" : \"%s\", \"aggregate-number\" : %d, ", id->label, id->nr);
			break;
		case STAT_AGGR_DIE:
			fprintf(f, "\"die\" : \"%s\", \"aggregate-number\" : %d, ", id->label, id->nr);
			break;
		case STAT_AGGR_SOCKET:
			fprintf(f, "\"socket\" : \"%s\", \"aggregate-number\" : %d, ", id->label, id->nr);
			break;
		case STAT_AGGR_THREAD: fprintf(f, "\"thread\" : \"%s\", ", id->label); break;
		case STAT_AGGR_GLOBAL: break;
		}
		return;
	}
	if (fr->interval >= 0)
		fprintf(f, "%16.9f%s", fr->interval, sep ? sep : " ");
	if (sep) {
		switch (p->o.aggr) {
		case STAT_AGGR_CPU:
		case STAT_AGGR_THREAD:
			fprintf(f, "%s%s", id->label, sep);
			break;
		case STAT_AGGR_CORE:
		case STAT_AGGR_DIE:
		case STAT_AGGR_SOCKET:
			fprintf(f, "%s%s%d%s", id->label, sep, id->nr, sep);
			break;
		case STAT_AGGR_GLOBAL: break;
		}
		return;
	}
	size_t len = strlen(id->label), digits = 0;
	while (digits < len && isdigit((unsigned char)id->label[len - 1 - digits]))
		digits++;
	int pad = label_pad(p->o.aggr) - (int)digits;
	switch (p->o.aggr) {
	case STAT_AGGR_CPU:
		fprintf(f, "%s%*s ", id->label, pad > 0 ? pad : 0, "");
		break;
	case STAT_AGGR_THREAD: {	/* perf 6.1: "%16s-%-8d " */
		const char *dash = strrchr(id->label, '-');
		int comm = dash ? (int)(dash - id->label) : (int)len;
		fprintf(f, "%*.*s-%-8s ", 16 > comm ? 16 : comm, comm, id->label, dash ? dash + 1 : "");
		break;
	}
	case STAT_AGGR_CORE:
	case STAT_AGGR_DIE:
	case STAT_AGGR_SOCKET:
		fprintf(f, "%s%*s %4d ", id->label, pad > 0 ? pad : 0, "", id->nr);
		break;
	case STAT_AGGR_GLOBAL: break;
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* ---- one line ---- */

static void print_metric(struct stat_printer *p, const struct stat_metric *m)
{
	FILE *f = p->o.out;

	if (p->o.json) {
		fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : ", m->valid ? m->val : 0.0);
		json_string(f, m->valid ? m->label : "");
		if (m->valid && m->threshold >= 0)
			fprintf(f, ", \"metric-threshold\" : \"%s\"", m->threshold ? "bad" : "good");
		return;
	}
	if (is_csv(p)) {
		if (!m->valid) {
			fprintf(f, "%s%s", p->o.sep, p->o.sep);
			return;
		}
		char buf[64];
		snprintf(buf, sizeof(buf), m->fmt, m->val);
		char *s = buf, *e;
		while (*s == ' ')
			s++;
		e = s + (*s == '-');
		while (isdigit((unsigned char)*e) || *e == '.')
			e++;
		*e = '\0';
		const char *u = m->label;
		while (*u == ' ')
			u++;
		fprintf(f, "%s%s%s%s", p->o.sep, s, p->o.sep, u);
		return;
	}
	if (!m->valid) {
		fprintf(f, "%-*s", METRIC_LEN, "");
		return;
	}
	int n = fprintf(f, " # ");
	if (p->o.color && m->threshold >= 0)
		fputs(m->threshold ? "\033[31m" : "\033[32m", f);
	n += fprintf(f, m->fmt, m->val);
	if (p->o.color && m->threshold >= 0)
		fputs("\033[m", f);
	fprintf(f, " %-*s", METRIC_LEN - n - 1 > 0 ? METRIC_LEN - n - 1 : 0, m->label);
}

/* A further metric of the same event goes on its own line. */
static void metric_newline(struct stat_printer *p, const struct stat_frame *fr, const struct stat_id *id)
{
	FILE *f = p->o.out;

	if (p->o.json) {
		fputs("}\n", f);
		line_prefix(p, fr, id);
		return;
	}
	fputc('\n', f);
	line_prefix(p, fr, id);
	if (is_csv(p)) {
		for (int i = 0; i < 4; i++)
			fputs(p->o.sep, f);
		return;
	}
	if (p->o.aggr == STAT_AGGR_CPU)
		fputs("        ", f);
	fprintf(f, "%49s", "");
}

/* -r noise as printed: perf 6.1 has none per thread (0 in CSV and JSON, nothing in text). */
static double noise_of(const struct stat_printer *p, const struct stat_cell *c)
{
	return p->o.aggr == STAT_AGGR_THREAD ? 0 : c->noise;
}

/* CSV's and JSON's percentage running: perf 6.1 divides as integers. */
static double pcnt_running(const struct stat_cell *c)
{
	return c->run != c->ena && c->ena ? (double)(uint64_t)(100 * c->run / c->ena) : 100.0;
}

static void print_value(struct stat_printer *p, const struct stat_ev *ev, const struct stat_cell *c,
			size_t unit_width)
{
	FILE *f = p->o.out;
	const char *unit = ev->unit ? ev->unit : "";
	bool ok = c->status == PK_COUNT_OK;
	const char *bad = c->status == PK_COUNT_NOT_SUPPORTED ? "<not supported>" : "<not counted>";
	double v = c->val * ev->scale;
	bool frac = ev->frac;

	if (p->o.json) {
		if (ok)
			fprintf(f, "\"counter-value\" : \"%f\", ", v);
		else
			fprintf(f, "\"counter-value\" : \"%s\", ", bad);
		fprintf(f, "\"unit\" : ");
		json_string(f, unit);
		fprintf(f, ", \"event\" : ");
		json_string(f, ev->name);
		fprintf(f, ", ");
		if (p->cgroups) {	/* -G: perf's print_cgroup, after the event */
			fprintf(f, "\"cgroup\" : ");
			json_string(f, ev->cgroup ? ev->cgroup : "");
			fprintf(f, ", ");
		}
		if (p->o.runs > 1)
			fprintf(f, "\"variance\" : %.2f, ", noise_of(p, c));
		fprintf(f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
			(unsigned long long)c->run, pcnt_running(c));
		return;
	}
	if (is_csv(p)) {
		const char *sep = p->o.sep;
		if (ok)
			fprintf(f, frac ? "%.2f%s" : "%.0f%s", v, sep);
		else
			fprintf(f, "%s%s", bad, sep);
		fprintf(f, "%s%s%s", unit, sep, ev->name);
		if (p->cgroups)
			fprintf(f, "%s%s", sep, ev->cgroup ? ev->cgroup : "");
		if (p->o.runs > 1)
			fprintf(f, "%s%.2f%%", sep, noise_of(p, c));
		fprintf(f, "%s%llu%s%.2f", sep, (unsigned long long)c->run, sep, pcnt_running(c));
		return;
	}
	if (!ok)
		fprintf(f, "%*s ", COUNTS_LEN, bad);
	else if (p->o.big_num)
		fprintf(f, frac ? "%'*.2f " : "%'*.0f ", COUNTS_LEN, v);
	else
		fprintf(f, frac ? "%*.2f " : "%*.0f ", COUNTS_LEN, v);
	/* perf 6.1 pads the name of an event without a count to 25 */
	fprintf(f, "%-*s %-*s", (int)unit_width, unit, ok ? EVNAME_LEN : 25, ev->name);
	if (p->cgroups)	/* perf 6.1: the name after one space, unpadded */
		fprintf(f, " %s", ev->cgroup ? ev->cgroup : "");
}

static void print_line(struct stat_printer *p, const struct stat_frame *fr, size_t id, size_t e,
		       size_t unit_width)
{
	FILE *f = p->o.out;
	const struct stat_ev *ev = &fr->ev[e];
	const struct stat_cell *c = stat_frame__cell(fr, id, e);
	struct stat_metric m[16];
	size_t n = 0;

	line_prefix(p, fr, &fr->id[id]);
	print_value(p, ev, c, unit_width);
	if (c->status == PK_COUNT_OK) {
		n = stat_printer__shadow(p, fr, id, e, m);
		if (fr->metrics)
			n += fr->metrics(fr->metrics_ctx, fr, id, e, m + n, sizeof(m) / sizeof(m[0]) - n);
	} else {
		stat_metric__set(m, NULL, 0, "");
		n = 1;
	}
	if (!n) {
		stat_metric__set(m, NULL, 0, "");
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (i)
			metric_newline(p, fr, &fr->id[id]);
		print_metric(p, &m[i]);
	}
	if (p->o.json) {
		fputs("}\n", f);
		return;
	}
	if (!is_csv(p)) {
		if (p->o.runs > 1 && noise_of(p, c))
			fprintf(f, "  ( +-%6.2f%% )", noise_of(p, c));
		if (c->run != c->ena && c->ena)
			fprintf(f, "  (%.2f%%)", 100.0 * (double)c->run / (double)c->ena);
	}
	fputc('\n', f);
}

/* One thread's place in an event's rows: perf 6.1 sorts them by count, largest first. */
struct thread_row {
	double v;
	size_t id;
};

static int cmp_thread_row(const void *a, const void *b)
{
	const struct thread_row *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);	/* equal counts: thread order */
}

/*
 * --per-thread, as perf 6.1: event by event, each event's threads by count
 * (largest first; equal ones in thread order); a tool event (duration_time)
 * shows the command's value on every thread; -a --per-thread (skip_zero)
 * leaves out the threads that counted 0 for that event.
 */
static void thread_frame(struct stat_printer *p, const struct stat_frame *fr0, size_t unit_width)
{
	struct stat_frame fr = *fr0;
	struct stat_cell *cells = NULL;
	struct thread_row *rows = malloc((fr.nr_id ? fr.nr_id : 1) * sizeof(*rows));
	bool tool = false;

	for (size_t e = 0; e < fr.nr_ev; e++)
		tool |= fr.ev[e].tool;
	if (tool && (cells = malloc(fr.nr_id * fr.nr_ev * sizeof(*cells)))) {
		memcpy(cells, fr.cell, fr.nr_id * fr.nr_ev * sizeof(*cells));
		for (size_t id = 1; id < fr.nr_id; id++)
			for (size_t e = 0; e < fr.nr_ev; e++)
				if (fr.ev[e].tool)
					cells[id * fr.nr_ev + e] = fr.cell[e];
		fr.cell = cells;
	}
	for (size_t e = 0; e < fr.nr_ev; e++) {
		size_t n = 0;
		for (size_t id = 0; id < fr.nr_id; id++) {
			const struct stat_cell *c = stat_frame__cell(&fr, id, e);
			double v = c->status == PK_COUNT_OK ? c->val * fr.ev[e].scale : 0;
			if (fr.id[id].hidden || (fr.skip_zero && v == 0))
				continue;
			if (!rows) {		/* no memory to sort: thread order */
				print_line(p, &fr, id, e, unit_width);
				continue;
			}
			rows[n++] = (struct thread_row){ .v = v, .id = id };
		}
		if (rows)
			qsort(rows, n, sizeof(*rows), cmp_thread_row);
		for (size_t i = 0; rows && i < n; i++)
			print_line(p, &fr, rows[i].id, e, unit_width);
	}
	free(rows);
	free(cells);
}

static void frame_lines(struct stat_printer *p, const struct stat_frame *fr)
{
	size_t unit_width = UNIT_WIDTH;

	p->kinds = 0;
	p->cgroups = false;
	for (size_t e = 0; e < fr->nr_ev; e++) {
		p->kinds |= 1u << fr->ev[e].kind;
		p->cgroups |= fr->ev[e].cgroup != NULL;
	}

	for (size_t e = 0; e < fr->nr_ev; e++)
		if (fr->ev[e].unit && strlen(fr->ev[e].unit) > unit_width)
			unit_width = strlen(fr->ev[e].unit);
	if (p->o.metric_only) {
		metric_only_frame(p, fr);
		return;
	}
	if (p->o.interval)
		interval_header(p, unit_width);
	if (p->o.aggr == STAT_AGGR_THREAD) {
		thread_frame(p, fr, unit_width);
		fflush(p->o.out);
		return;
	}
	/* perf: per CPU (-A) event by event, each CPU; aggregated modes id by id */
	/* a tool event has one value, with the first id (perf hides its zeros elsewhere) */
	if (p->o.aggr == STAT_AGGR_CPU || p->o.aggr == STAT_AGGR_GLOBAL) {
		for (size_t e = 0; e < fr->nr_ev; e++)
			for (size_t id = 0; id < fr->nr_id; id++)
				if (!fr->ev[e].tool || !id)
					print_line(p, fr, id, e, unit_width);
	} else {
		for (size_t id = 0; id < fr->nr_id; id++)
			for (size_t e = 0; e < fr->nr_ev; e++)
				if (!fr->ev[e].tool || !id)
					print_line(p, fr, id, e, unit_width);
	}
	fflush(p->o.out);
}

void stat_printer__frame(struct stat_printer *p, const struct stat_frame *fr)
{
	frame_lines(p, fr);
	stat_printer__frame_done(p);
}

/* ---- --metric-only (implied by --topdown): one column per metric ---- */

#define METRIC_ONLY_LEN 20

/* The -M metrics of one id, in frame order of their events. */
static size_t id_metrics(const struct stat_frame *fr, size_t id, struct stat_metric *m, size_t max)
{
	size_t n = 0;
	if (!fr->metrics)
		return 0;
	for (size_t e = 0; e < fr->nr_ev && n < max; e++)
		n += fr->metrics(fr->metrics_ctx, fr, id, e, m + n, max - n);
	return n;
}

static int col_width(const struct stat_metric *m)
{
	int l = (int)strlen(m->label) + 1;
	return l > METRIC_ONLY_LEN ? l : METRIC_ONLY_LEN;
}

static void metric_only_header(struct stat_printer *p, const struct stat_frame *fr,
			       const struct stat_metric *m, size_t n)
{
	FILE *f = p->o.out;

	if (p->o.json || (p->o.interval ? p->nr_interval_prints++ % 26 : p->nr_interval_prints++))
		return;
	if (is_csv(p)) {
		if (fr->interval >= 0)
			fprintf(f, "time%s", p->o.sep);
		static const char *const head[] = {	/* perf's CSV aggregation header */
			[STAT_AGGR_GLOBAL] = "", [STAT_AGGR_CPU] = "cpu", [STAT_AGGR_CORE] = "core,cpus",
			[STAT_AGGR_DIE] = "die,cpus", [STAT_AGGR_SOCKET] = "socket,cpus",
			[STAT_AGGR_THREAD] = "comm-pid",
		};
		if (p->o.aggr != STAT_AGGR_GLOBAL) {
			for (const char *h = head[p->o.aggr]; *h; h++)
				fputs(*h == ',' ? p->o.sep : (char[2]){ *h, 0 }, f);
			fputs(p->o.sep, f);
		}
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s%s", m[i].label, p->o.sep);
		fputc('\n', f);
		return;
	}
	if (fr->interval >= 0)
		fprintf(f, "#%15s ", "time");
	if (p->o.aggr != STAT_AGGR_GLOBAL)
		fprintf(f, "%-*s", p->o.aggr == STAT_AGGR_CPU ? 11 : label_pad(p->o.aggr) + 12, "");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%*s ", col_width(&m[i]), m[i].label);
	fputc('\n', f);
}

static void metric_only_frame(struct stat_printer *p, const struct stat_frame *fr)
{
	FILE *f = p->o.out;
	struct stat_metric m[64];

	for (size_t id = 0; id < fr->nr_id; id++) {
		size_t n = id_metrics(fr, id, m, sizeof(m) / sizeof(m[0]));
		if (!id)
			metric_only_header(p, fr, m, n);
		line_prefix(p, fr, &fr->id[id]);
		for (size_t i = 0; i < n; i++) {
			char v[64] = "";
			if (m[i].valid)
				snprintf(v, sizeof(v), m[i].fmt, m[i].val);
			if (p->o.json) {
				char *s = v;
				while (*s == ' ')
					s++;
				fprintf(f, "%s", i ? ", " : "");
				json_string(f, m[i].label);
				fprintf(f, " : ");
				json_string(f, s);
			} else if (is_csv(p)) {
				char *s = v;
				while (*s == ' ')
					s++;
				fprintf(f, "%s%s", s, p->o.sep);
			} else {
				bool c = p->o.color && m[i].threshold >= 0 && m[i].valid;
				if (c)
					fputs(m[i].threshold ? "\033[31m" : "\033[32m", f);
				fprintf(f, "%*s", col_width(&m[i]), v);
				if (c)
					fputs("\033[m", f);
				fputc(' ', f);
			}
		}
		fputs(p->o.json ? "}\n" : "\n", f);
	}
	fflush(f);
}

static int precision_of(double sd)
{
	if (sd > 1)
		return 0;
	return (int)lround(ceil(-log10(sd)));
}

void stat_printer__footer(struct stat_printer *p, double elapsed_s, double elapsed_stddev_s,
			  double user_s, double sys_s, bool show_rusage)
{
	FILE *f = p->o.out;

	if (p->o.interval || is_csv(p) || p->o.json)
		return;
	if (!p->o.null_run)
		fputc('\n', f);
	if (p->o.runs == 1) {
		fprintf(f, " %17.9f seconds time elapsed", elapsed_s);
		if (show_rusage) {
			fprintf(f, "\n\n");
			fprintf(f, " %17.9f seconds user\n", user_s);
			fprintf(f, " %17.9f seconds sys\n", sys_s);
		}
	} else {
		int prec = precision_of(elapsed_stddev_s) + 2;
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", prec, elapsed_s, prec,
			elapsed_stddev_s);
		double pct = elapsed_s ? 100.0 * elapsed_stddev_s / elapsed_s : 0;
		if (pct)
			fprintf(f, "  ( +-%6.2f%% )", pct);
	}
	fprintf(f, "\n\n");
	fflush(f);
}
