// SPDX-License-Identifier: MIT
/*
 * serve/expose.c — counts and metrics of a counting session written as
 * Prometheus' text exposition format 0.0.4 or OpenMetrics 1.0
 * (pmukit/expose.h): families grouped with their HELP, TYPE (and UNIT in
 * OpenMetrics), label values escaped, OpenMetrics' "# EOF" at the end.
 * Content negotiation from an HTTP Accept header.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmukit/expose.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/opts.h"

#define PK_EXPOSE_VERSION "0.1.0"

enum fam_type { FAM_COUNTER, FAM_GAUGE, FAM_INFO, FAM_STATESET };

struct writer {
	struct pk_buf b;
	bool om;
	struct pk_buf blk;	/* each count's labels "{event=\"..\",pmu=\"..\",..", written once */
	size_t *blk_off;	/* [count]: where its labels start in blk; [nr_counts]: the end */
	char end[40];		/* what ends each sample line: the timestamp, if any, and "\n" */
};

/* Every sample's line ends here. */
static void end(struct writer *w)
{
	pk_buf__puts(&w->b, w->end);
}

/* w->end for a timestamp (ms since the epoch; 0: none) */
static void set_end(struct writer *w, long long ms)
{
	if (!ms)
		snprintf(w->end, sizeof(w->end), "\n");
	else if (w->om)	/* seconds, exactly: the milliseconds as 3 decimals */
		snprintf(w->end, sizeof(w->end), " %s%lld.%03lld\n", ms < 0 ? "-" : "",
			 (ms < 0 ? -ms : ms) / 1000, (ms < 0 ? -ms : ms) % 1000);
	else
		snprintf(w->end, sizeof(w->end), " %lld\n", ms);
}

/* A label value or HELP text: backslash, double quote and line feed escaped (both formats). */
static void escaped(struct pk_buf *b, const char *s, bool quote)
{
	if (!s)
		return;
	size_t plain = strcspn(s, quote ? "\\\n\"" : "\\\n");
	pk_buf__add(b, s, plain);	/* most values: nothing to escape */
	for (s += plain; *s; s++) {
		if (*s == '\\')
			pk_buf__puts(b, "\\\\");
		else if (*s == '\n')
			pk_buf__puts(b, "\\n");
		else if (*s == '"' && quote)
			pk_buf__puts(b, "\\\"");
		else
			pk_buf__putc(b, *s);
	}
}

/*
 * HELP, TYPE (and UNIT) of family NAME (OpenMetrics' name: without
 * "_total" or "_info"). The text format has no info nor stateset type:
 * gauges; and names a counter by its sample.
 */
static void family(struct writer *w, const char *name, enum fam_type t, const char *unit,
		   const char *help)
{
	static const char *const om_types[] = { "counter", "gauge", "info", "stateset" };
	const char *suffix = "";

	if (!w->om && t == FAM_COUNTER)
		suffix = "_total";
	else if (!w->om && t == FAM_INFO)
		suffix = "_info";
	pk_buf__printf(&w->b, "# HELP %s%s ", name, suffix);
	escaped(&w->b, help, w->om);
	pk_buf__printf(&w->b, "\n# TYPE %s%s %s\n", name, suffix,
		       w->om ? om_types[t] : t == FAM_COUNTER ? "counter" : "gauge");
	if (w->om && unit)
		pk_buf__printf(&w->b, "# UNIT %s %s\n", name, unit);
}

static void label(struct writer *w, bool *first, const char *name, const char *value)
{
	pk_buf__putc(&w->b, *first ? '{' : ',');
	pk_buf__puts(&w->b, name);
	pk_buf__add(&w->b, "=\"", 2);
	escaped(&w->b, value ? value : "", true);
	pk_buf__putc(&w->b, '"');
	*first = false;
}

static void labels(struct writer *w, bool *first, const struct pk_expose_label *l, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		label(w, first, l[i].name, l[i].value);
}

static void close_labels(struct writer *w, bool first)
{
	if (!first)
		pk_buf__putc(&w->b, '}');
}

/* A sample value: Go's float syntax (NaN, +Inf, -Inf), integers exactly. */
static void number(struct writer *w, double v)
{
	if (isnan(v))
		pk_buf__puts(&w->b, " NaN");
	else if (isinf(v))
		pk_buf__puts(&w->b, v > 0 ? " +Inf" : " -Inf");
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		pk_buf__printf(&w->b, " %.0f", v);
	else {	/* the shortest of %.15g and %.17g that reads back as v */
		char t[40];
		snprintf(t, sizeof(t), "%.15g", v);
		if (strtod(t, NULL) != v)
			snprintf(t, sizeof(t), "%.17g", v);
		pk_buf__printf(&w->b, " %s", t);
	}
	end(w);
}

/* v in decimal, at least width digits (zeros in front) */
static void u64(struct pk_buf *b, uint64_t v, int width)
{
	char d[24];
	int n = 0;
	do {
		d[sizeof(d) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || n < width);
	pk_buf__add(b, d + sizeof(d) - n, (size_t)n);
}

static void count_labels(struct writer *w, bool *first, const struct pk_expose_count *c)
{
	label(w, first, "event", c->event);
	label(w, first, "pmu", c->pmu);
	labels(w, first, c->labels, c->nr_labels);
}

enum count_field { RAW, ENABLED, RUNNING };

/* The label blocks of every count, for the four families that repeat them. 0 or -ENOMEM. */
static int count_blocks(struct writer *w, const struct pk_expose_set *s)
{
	struct writer lw = { .om = w->om };

	if (!(w->blk_off = malloc((s->nr_counts + 1) * sizeof(*w->blk_off))))
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_counts; i++) {
		bool first = true;
		w->blk_off[i] = lw.b.len;
		count_labels(&lw, &first, &s->counts[i]);
	}
	w->blk_off[s->nr_counts] = lw.b.len;
	w->blk = lw.b;
	return w->blk.err;
}

/* count i's labels, still open (no '}') */
static void block(struct writer *w, size_t i)
{
	pk_buf__add(&w->b, (const char *)w->blk.data + w->blk_off[i], w->blk_off[i + 1] - w->blk_off[i]);
}

static void counts(struct writer *w, const struct pk_expose_set *s, const char *name,
		   enum count_field f, const char *unit, const char *help)
{
	family(w, name, FAM_COUNTER, unit, help);
	for (size_t i = 0; i < s->nr_counts; i++) {
		const struct pk_expose_count *c = &s->counts[i];
		if (c->value.status != PK_COUNT_OK)
			continue;
		pk_buf__puts(&w->b, name);
		pk_buf__add(&w->b, "_total", 6);
		block(w, i);
		pk_buf__putc(&w->b, '}');
		uint64_t v = f == RAW ? c->value.raw : f == ENABLED ? c->value.enabled : c->value.running;
		pk_buf__putc(&w->b, ' ');
		if (f == RAW) {
			u64(&w->b, v, 0);
		} else {	/* ns as seconds, exactly */
			u64(&w->b, v / 1000000000u, 0);
			pk_buf__putc(&w->b, '.');
			u64(&w->b, v % 1000000000u, 9);
		}
		end(w);
	}
}

static void states(struct writer *w, const struct pk_expose_set *s)
{
	static const char *const names[] = { "counting", "not_counted", "not_supported" };
	static const enum pk_count_status st[] = { PK_COUNT_OK, PK_COUNT_NOT_COUNTED,
						    PK_COUNT_NOT_SUPPORTED };

	family(w, "pmukit_event_state", FAM_STATESET, NULL,
	       "State of each event: counting, not_counted (opened, never ran), not_supported "
	       "(this machine cannot count it)");
	for (size_t i = 0; i < s->nr_counts; i++)
		for (size_t k = 0; k < 3; k++) {
			pk_buf__puts(&w->b, "pmukit_event_state");
			block(w, i);
			pk_buf__puts(&w->b, ",pmukit_event_state=\"");
			pk_buf__puts(&w->b, names[k]);
			pk_buf__puts(&w->b, s->counts[i].value.status == st[k] ? "\"} 1" : "\"} 0");
			end(w);
		}
}

enum metric_field { NUMERATOR, DENOMINATOR, VALUE, THRESHOLD };

static bool metric_has(const struct pk_expose_metric *m, enum metric_field f)
{
	switch (f) {
	case NUMERATOR: return m->ratio && !isnan(m->numerator) && m->numerator >= 0;
	case DENOMINATOR: return m->ratio && !isnan(m->denominator) && m->denominator >= 0;
	case VALUE: return !m->ratio && !isnan(m->value);
	default: return m->threshold == 0 || m->threshold == 1;
	}
}

static void metrics(struct writer *w, const struct pk_expose_set *s, const char *name,
		    enum metric_field f, const char *help)
{
	bool any = false;

	for (size_t i = 0; i < s->nr_metrics && !any; i++)
		any = metric_has(&s->metrics[i], f);
	if (!any)
		return;
	family(w, name, f == NUMERATOR || f == DENOMINATOR ? FAM_COUNTER : FAM_GAUGE, NULL, help);
	for (size_t i = 0; i < s->nr_metrics; i++) {
		const struct pk_expose_metric *m = &s->metrics[i];
		bool first = true;
		if (!metric_has(m, f))
			continue;
		pk_buf__printf(&w->b, "%s%s", name, f == NUMERATOR || f == DENOMINATOR ? "_total" : "");
		label(w, &first, "metric", m->metric);
		labels(w, &first, m->labels, m->nr_labels);
		close_labels(w, first);
		number(w, f == NUMERATOR ? m->numerator : f == DENOMINATOR ? m->denominator :
			  f == VALUE ? m->value : m->threshold);
	}
}

/* pmukit_metric_info: each metric name once, with its unit and scale. */
static void metric_info(struct writer *w, const struct pk_expose_set *s)
{
	if (!s->nr_metrics)
		return;
	family(w, "pmukit_metric", FAM_INFO, NULL,
	       "Unit of each metric: its value is numerator / denominator * scale, in unit");
	for (size_t i = 0; i < s->nr_metrics; i++) {
		const struct pk_expose_metric *m = &s->metrics[i];
		size_t j = 0;
		while (j < i && strcmp(s->metrics[j].metric, m->metric))
			j++;
		if (j < i)
			continue;
		char scale[32];
		bool first = true;
		snprintf(scale, sizeof(scale), "%.17g", m->scale ? m->scale : 1.0);
		pk_buf__puts(&w->b, "pmukit_metric_info");
		label(w, &first, "metric", m->metric);
		label(w, &first, "unit", m->unit);
		label(w, &first, "scale", scale);
		close_labels(w, first);
		pk_buf__puts(&w->b, " 1");
		end(w);
	}
}

static void info(struct writer *w, const char *name, const char *help, const char *lname,
		 const char *value)
{
	bool first = true;
	family(w, name, FAM_INFO, NULL, help);
	pk_buf__printf(&w->b, "%s_info", name);
	label(w, &first, lname, value);
	close_labels(w, first);
	pk_buf__puts(&w->b, " 1");
	end(w);
}

static void topology(struct writer *w, const struct pk_topology *t)
{
	const struct pk_cpu_map *on = pk_topology__online(t);

	family(w, "pmukit_cpu", FAM_INFO, NULL, "CPU topology: the socket, die and core of each online CPU");
	for (size_t i = 0; on && i < pk_cpu_map__nr(on); i++) {
		struct pk_cpu_topo ct;
		int cpu = pk_cpu_map__cpu(on, i);
		char v[4][16];
		bool first = true;
		if (pk_topology__cpu(t, cpu, &ct))
			continue;
		snprintf(v[0], sizeof(v[0]), "%d", cpu);
		snprintf(v[1], sizeof(v[1]), "%d", ct.socket);
		snprintf(v[2], sizeof(v[2]), "%d", ct.die);
		snprintf(v[3], sizeof(v[3]), "%d", ct.core);
		pk_buf__puts(&w->b, "pmukit_cpu_info");
		label(w, &first, "cpu", v[0]);
		label(w, &first, "socket", v[1]);
		label(w, &first, "die", v[2]);
		label(w, &first, "core", v[3]);
		close_labels(w, first);
		pk_buf__puts(&w->b, " 1");
		end(w);
	}
}

static bool label_name_ok(const char *n)
{
	static const char *const reserved[] = { "event", "pmu", "metric", "pmukit_event_state" };
	if (!n || !*n || (*n >= '0' && *n <= '9') || !strncmp(n, "__", 2))
		return false;
	for (const char *p = n; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcmp(n, reserved[i]))
			return false;
	return true;
}

static int check_labels(const struct pk_expose_set *s, struct pk_error *err)
{
	for (size_t i = 0; i < s->nr_counts; i++)
		for (size_t k = 0; k < s->counts[i].nr_labels; k++)
			if (!label_name_ok(s->counts[i].labels[k].name))
				return pk_error__set(err, -EINVAL, NULL, 0, 0, "expose: bad label name '%s'",
						     s->counts[i].labels[k].name ? s->counts[i].labels[k].name : "");
	for (size_t i = 0; i < s->nr_metrics; i++)
		for (size_t k = 0; k < s->metrics[i].nr_labels; k++)
			if (!label_name_ok(s->metrics[i].labels[k].name))
				return pk_error__set(err, -EINVAL, NULL, 0, 0, "expose: bad label name '%s'",
						     s->metrics[i].labels[k].name ? s->metrics[i].labels[k].name : "");
	return 0;
}

int pk_expose__write(const struct pk_expose_set *s, const struct pk_expose_opts *opts,
		     char **out, size_t *len, struct pk_error *err)
{
	struct writer w = { 0 };

	*out = NULL;
	if (PK_OPTS_CHECK(opts))
		return pk_opts__error(err, "pk_expose_opts", opts->sz);
	if (!s)
		return pk_error__set(err, -EINVAL, NULL, 0, 0, "expose: no set");
	int r = check_labels(s, err);
	if (r)
		return r;
	w.om = PK_OPTS_GET(opts, format, PK_EXPOSE_PROMETHEUS) == PK_EXPOSE_OPENMETRICS;
	set_end(&w, PK_OPTS_GET(opts, timestamp_ms, 0));

	if (s->nr_counts) {
		if ((r = count_blocks(&w, s))) {
			free(w.blk_off);
			pk_buf__free(&w.blk);
			return pk_error__set(err, r, NULL, 0, 0, "expose: out of memory");
		}
		counts(&w, s, "pmukit_event", RAW, NULL,
		       "Raw cumulative count of each event (never scaled for multiplexing)");
		counts(&w, s, "pmukit_event_enabled_seconds", ENABLED, "seconds",
		       "Time each event was enabled (scaled = raw * enabled / running)");
		counts(&w, s, "pmukit_event_running_seconds", RUNNING, "seconds",
		       "Time each event was running on a counter");
		states(&w, s);
		free(w.blk_off);
		pk_buf__free(&w.blk);
	}
	metrics(&w, s, "pmukit_metric_numerator", NUMERATOR,
		"Numerator of each ratio metric, cumulative (sum it, then divide)");
	metrics(&w, s, "pmukit_metric_denominator", DENOMINATOR,
		"Denominator of each ratio metric, cumulative");
	metrics(&w, s, "pmukit_metric_value", VALUE, "Value of each metric that is not a ratio");
	metrics(&w, s, "pmukit_metric_threshold_exceeded", THRESHOLD,
		"1 when the metric is past its MetricThreshold, else 0");
	metric_info(&w, s);
	info(&w, "pmukit_build", "pmukit's version", "version",
	     s->version ? s->version : PK_EXPOSE_VERSION);
	if (s->cpuid)
		info(&w, "pmukit_cpuid", "CPU identifier as the event tables match it", "cpuid",
		     s->cpuid);
	if (s->topo)
		topology(&w, s->topo);
	if (w.om && !PK_OPTS_GET(opts, no_eof, false))
		pk_buf__puts(&w.b, "# EOF\n");
	if (w.b.err) {
		r = w.b.err;
		pk_buf__free(&w.b);
		return pk_error__set(err, r, NULL, 0, 0, "expose: out of memory");
	}
	*out = pk_buf__detach(&w.b, len);
	return *out ? 0 : pk_error__set(err, -ENOMEM, NULL, 0, 0, "expose: out of memory");
}

const char *pk_expose__content_type(enum pk_expose_format f)
{
	return f == PK_EXPOSE_OPENMETRICS ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
					  : "text/plain; version=0.0.4; charset=utf-8";
}

/* The q of one media range "type/sub;a=b;q=0.5" (1 without), its type into ty. */
static double media_range(const char *p, size_t n, char *ty, size_t tylen)
{
	size_t i = 0, k = 0;
	double q = 1;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	while (i < n && p[i] != ';' && p[i] != ' ' && k + 1 < tylen)
		ty[k++] = p[i++];
	ty[k] = 0;
	for (; i < n; i++) {
		if (p[i] != ';')
			continue;
		size_t j = i + 1;
		while (j < n && p[j] == ' ')
			j++;
		if (j + 1 < n && (p[j] == 'q' || p[j] == 'Q') && p[j + 1] == '=') {
			char num[16];
			size_t m = 0;
			for (j += 2; j < n && m + 1 < sizeof(num) && p[j] != ';'; j++)
				num[m++] = p[j];
			num[m] = 0;
			q = strtod(num, NULL);
		}
	}
	return q;
}

enum pk_expose_format pk_expose__negotiate(const char *accept)
{
	double om = -1, text = -1;

	for (const char *p = accept; p && *p;) {
		size_t n = strcspn(p, ",");
		char ty[64];
		double q = media_range(p, n, ty, sizeof(ty));
		if (!strcasecmp(ty, "application/openmetrics-text") && q > om)
			om = q;
		else if ((!strcasecmp(ty, "text/plain") || !strcmp(ty, "*/*")) && q > text)
			text = q;
		p += n;
		if (*p)
			p++;
	}
	return om > 0 && om >= text ? PK_EXPOSE_OPENMETRICS : PK_EXPOSE_PROMETHEUS;
}
