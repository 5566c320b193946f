// SPDX-License-Identifier: MIT
/*
 * stat-serve-out.c — the exporter's families at each -I interval: `pmukit
 * stat -I MS --openmetrics FILE` appends one OpenMetrics exposition per
 * interval, every sample stamped with the interval's read time, and ends the
 * file with one "# EOF" (what `promtool tsdb create-blocks-from openmetrics`
 * reads: Prometheus' parser takes a family again with later timestamps, and
 * stops at the first EOF); `--push URL` POSTs the same samples in the text
 * format (ms timestamps) to a VictoriaMetrics import endpoint (the CLI's
 * HTTP client: http-post.c). The counts are those of the interval stat
 * printed: cumulative raw counts of the same read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmukit/expose.h>

#include "http-post.h"
#include "stat-serve-out.h"
#include "stat-serve.h"

#define PUSH_TIMEOUT_MS 2000

struct serve_out {
	struct serve *sv;
	struct stat_live *st;
	FILE *om;		/* --openmetrics, or NULL */
	const char *om_path;
	bool write_failed;
	bool push;		/* --push */
	struct http_url url;
	char target[2064];	/* the request's path and query */
	const char *push_arg;
	unsigned pushes, failed;
	long long last_ms;	/* the last interval's timestamp */
	struct stat_cell *printed;	/* the interval's cells, kept while the exposition reads its own */
	char last_why[1024];	/* the last failure said (not repeated) */
};

static void write_file(struct serve_out *o, long long ms)
{
	struct pk_expose_opts eo = { .sz = sizeof(eo), .format = PK_EXPOSE_OPENMETRICS,
				     .timestamp_ms = ms, .no_eof = true };
	char *body = NULL;
	size_t len = 0;

	if (o->write_failed || stat_serve__expose(o->sv, &eo, &body, &len))
		return;
	if (fwrite(body, 1, len, o->om) != len || fflush(o->om)) {
		fprintf(stderr, "pmukit stat: --openmetrics %s: %s\n", o->om_path, strerror(errno));
		o->write_failed = true;
	}
	free(body);
}

/* POST body to o->url: 0, or -1 with the reason in why. */
static int post(struct serve_out *o, const char *ctype, const char *body, size_t len, char *why,
		size_t whylen)
{
	struct http_answer ans;
	int status = http_url__post(&o->url, o->target, ctype, NULL, body, len, PUSH_TIMEOUT_MS, &ans,
				    why, whylen);
	if (status >= 200 && status <= 299)
		return 0;
	if (status >= 0)
		snprintf(why, whylen, "%s answered \"%s\"", o->url.hostport, ans.line);
	return -1;
}

static void push(struct serve_out *o, long long ms)
{
	struct pk_expose_opts eo = { .sz = sizeof(eo), .format = PK_EXPOSE_PROMETHEUS,
				     .timestamp_ms = ms };
	char *body = NULL, why[1024];
	size_t len = 0;

	o->pushes++;
	int rc = stat_serve__expose(o->sv, &eo, &body, &len);
	if (rc)
		snprintf(why, sizeof(why), "out of memory");
	if (rc || post(o, pk_expose__content_type(eo.format), body, len, why, sizeof(why))) {
		o->failed++;
		if (strcmp(why, o->last_why)) {	/* said once, until it changes */
			fprintf(stderr, "pmukit stat: --push %s: %s (counting goes on)\n", o->push_arg,
				why);
			snprintf(o->last_why, sizeof(o->last_why), "%s", why);
		}
	} else {
		o->last_why[0] = 0;
	}
	free(body);
}

/* st->on_interval: the interval was read and printed */
static void on_interval(void *ctx)
{
	struct serve_out *o = ctx;
	struct stat_live *st = o->st;
	size_t n = st->nr_ids * st->nr_ev;
	/* strictly later than the last (a last, partial interval may come in the same ms) */
	long long ms = st->read_ms > o->last_ms ? st->read_ms : o->last_ms + 1;

	o->last_ms = ms;

	memcpy(o->printed, st->cells, n * sizeof(*o->printed));
	if (o->om)
		write_file(o, ms);
	if (o->push)
		push(o, ms);
	memcpy(st->cells, o->printed, n * sizeof(*o->printed));	/* as printed, again */
}

int serve_out__open(struct serve_out **out, struct stat_live *st, struct stat_metrics *sm,
		    size_t first_metric_ev, struct cli_env *env)
{
	const struct stat_config *cfg = st->cfg;
	struct serve_out *o = calloc(1, sizeof(*o));
	char why[256];

	*out = NULL;
	if (!o || !(o->printed = calloc(st->nr_ids * st->nr_ev + 1, sizeof(*o->printed))) ||
	    !(o->sv = stat_serve__new(st, sm, first_metric_ev, env))) {
		fprintf(stderr, "pmukit stat: out of memory\n");
		if (o)
			free(o->printed);
		free(o);
		return -1;
	}
	o->st = st;
	if (cfg->push_url) {
		if (http_url__parse(&o->url, cfg->push_url, why, sizeof(why)) < 0) {
			fprintf(stderr, "pmukit stat: --push %s: %s\n", cfg->push_url, why);
			serve_out__close(o);
			return -1;
		}
		/* VictoriaMetrics' import of the text format when the URL has no path */
		const char *path = o->url.path;
		if ((!*path || !strcmp(path, "/")) && !*o->url.query)
			path = "/api/v1/import/prometheus";
		snprintf(o->target, sizeof(o->target), "%s%s%s%s", *path ? "" : "/", path,
			 *o->url.query ? "?" : "", o->url.query);
		o->push = true;
		o->push_arg = cfg->push_url;
	}
	if (cfg->openmetrics_path) {
		o->om_path = cfg->openmetrics_path;
		o->om = strcmp(o->om_path, "-") ? fopen(o->om_path, "w") : stdout;
		if (!o->om) {
			fprintf(stderr, "pmukit stat: --openmetrics %s: %s\n", o->om_path, strerror(errno));
			serve_out__close(o);
			return -1;
		}
	}
	st->on_interval = on_interval;
	st->on_interval_ctx = o;
	*out = o;
	return 0;
}

int serve_out__close(struct serve_out *o)
{
	int r = 0;

	if (!o)
		return 0;
	if (o->om) {
		if (!o->write_failed && (fputs("# EOF\n", o->om) < 0 || fflush(o->om))) {
			fprintf(stderr, "pmukit stat: --openmetrics %s: %s\n", o->om_path, strerror(errno));
			o->write_failed = true;
		}
		if (o->om != stdout && fclose(o->om) && !o->write_failed) {
			fprintf(stderr, "pmukit stat: --openmetrics %s: %s\n", o->om_path, strerror(errno));
			o->write_failed = true;
		}
		r = o->write_failed ? -1 : 0;
	}
	if (o->failed)
		fprintf(stderr, "pmukit stat: --push %s: %u of %u intervals not delivered\n", o->push_arg,
			o->failed, o->pushes);
	if (o->st && o->st->on_interval_ctx == o)
		o->st->on_interval = NULL;
	stat_serve__free(o->sv);
	free(o->printed);
	free(o);
	return r;
}
