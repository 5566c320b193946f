/* SPDX-License-Identifier: MIT */
/*
 * top-frame.c — one frame of `pmukit top --stdio` as perf top --stdio
 * prints it: its header line (samples per second, kernel and exact shares,
 * lost records, the event, the target), the dotted line and the rows of
 * the window's report (pk_report__foreach_row, without column headers),
 * cut to the terminal's width, with their callchains under -g.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <pmukit/cpumap.h>

#include "top.h"

/* perf's get_term_dimensions: LINES and COLUMNS, else stdout's size, else 25x80 */
static void term_size(int *rows, int *cols)
{
	const char *l = getenv("LINES"), *c = getenv("COLUMNS");
	if (l && c && atoi(l) > 0 && atoi(c) > 0) {
		*rows = atoi(l);
		*cols = atoi(c);
		return;
	}
	struct winsize ws;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
		return;
	}
	*rows = 25;
	*cols = 80;
}

static bool is_dummy(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

void top_frame__event(struct top *t)
{
	size_t nr_events = 0, n = 0;
	for (size_t i = 0; i < pk_session__nr_attrs(t->s); i++)
		nr_events += !is_dummy(&pk_session__attr(t->s, (int)i)->attr);
	const struct pk_data_attr *a = pk_session__attr(t->s, t->sym_attr);
	if (!a)
		return;
	if (nr_events == 1)
		n = (size_t)snprintf(t->event, sizeof(t->event), "%llu%s ",
				     (unsigned long long)a->attr.sample_period,
				     a->attr.freq ? "Hz" : "");
	if (n < sizeof(t->event))
		snprintf(t->event + n, sizeof(t->event) - n, "%s",
			 pk_session__event_name(t->s, t->sym_attr));
}

/* perf_top__header_snprintf's line */
static void header(struct top *t, char *bf, size_t size)
{
	const struct top_cfg *c = t->cfg;
	double secs = c->delay;
	double per_sec = t->samples / secs, k_per_sec = t->kernel_samples / secs;
	double exact = t->samples ? 100.0 * (double)t->exact_samples / (double)t->samples : 0.0;
	double kpct = per_sec ? 100.0 * k_per_sec / per_sec : 0.0;
	size_t n = (size_t)snprintf(bf, size, "   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: "
				    "%4.1f%% lost: %llu/%llu drop: 0/0 [%s], ", per_sec, kpct, exact,
				    (unsigned long long)t->lost, (unsigned long long)t->lost_total,
				    t->event);
	if (n >= size)
		return;
	if (c->pid)
		n += (size_t)snprintf(bf + n, size - n, " (target_pid: %s", c->pid);
	else if (c->tid)
		n += (size_t)snprintf(bf + n, size - n, " (target_tid: %s", c->tid);
	else if (c->uid)
		n += (size_t)snprintf(bf + n, size - n, " (uid: %s", c->uid);
	else
		n += (size_t)snprintf(bf + n, size - n, " (all");
	if (n >= size)
		return;
	if (c->cpu_list) {
		struct pk_cpu_map *m = NULL;
		struct pk_error err = { 0 };
		size_t nr = pk_cpu_map__parse(&m, c->cpu_list, &err) ? 1 : pk_cpu_map__nr(m);
		pk_cpu_map__free(m);
		snprintf(bf + n, size - n, ", CPU%s: %s)", nr > 1 ? "s" : "", c->cpu_list);
	} else if (c->tid) {
		snprintf(bf + n, size - n, ")");
	} else {
		long nr = sysconf(_SC_NPROCESSORS_ONLN);
		snprintf(bf + n, size - n, ", %ld CPU%s)", nr, nr > 1 ? "s" : "");
	}
}

struct rows {
	struct pk_report *r;
	struct top *t;
	FILE *fp;
	size_t section;
	int left, width;
	bool err;
};

static int row(void *ctx, size_t entry, const char *line)
{
	struct rows *w = ctx;
	if (entry == (size_t)-1)
		return 0;	/* perf top prints no column headers */
	if (w->left-- <= 0)
		return 1;
	fprintf(w->fp, "%.*s\n", w->width, line);
	if (w->t->cfg->call_graph && pk_report__fprintf_callchain(w->r, w->section, entry, w->fp))
		w->err = true;
	return 0;
}

int top_frame__print(struct top *t, struct pk_report *r, FILE *fp)
{
	struct pk_error err = { 0 };
	int rows_nr, cols;
	char bf[512];
	term_size(&rows_nr, &cols);
	int width = cols - 1;
	fputs("\033[H\033[2J\n", fp);
	header(t, bf, sizeof(bf));
	fprintf(fp, "%s\n", bf);
	for (int i = 0; i < width; i++)
		fputc('-', fp);
	fputc('\n', fp);
	int printed = 0;
	if (t->lost_records != t->lost_warned) {
		t->lost_warned = t->lost_records;
		fprintf(fp, "WARNING: LOST %llu chunks, Check IO/CPU overload",
			(unsigned long long)t->lost_warned);
		printed++;
	}
	t->samples = t->kernel_samples = t->exact_samples = t->lost = 0;
	if (!r) {
		fputc('\n', fp);
		return fflush(fp) ? -1 : 0;
	}
	if (pk_report__finish(r, &err)) {
		fprintf(stderr, "pmukit top: %s\n", err.msg);
		return -1;
	}
	fputc('\n', fp);
	struct rows w = { .r = r, .t = t, .fp = fp, .width = width,
			  .left = (t->cfg->entries > 0 ? t->cfg->entries : rows_nr - 5) - printed };
	for (size_t i = 0; i < pk_report__nr_sections(r); i++)
		if (pk_report__section(r, i)->attr == t->sym_attr) {
			w.section = i;
			pk_report__foreach_row(r, i, row, &w);
		}
	return fflush(fp) || w.err ? -1 : 0;
}
