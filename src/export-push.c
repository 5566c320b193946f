/* SPDX-License-Identifier: MIT */
/*
 * export-push.c — `pmukit export --format pprof --push URL`: the pprof profile
 * sent to a Pyroscope-compatible ingest endpoint, as Pyroscope's HTTP API
 * documents it and its own server reads it:
 *
 *   POST URL/ingest?name=APP{k=v,...}&from=UNIX&until=UNIX&format=pprof
 *        &sampleRate=HZ&spyName=pmukit
 *   Content-Type: binary/octet-stream   (the body: the gzipped pprof, as a file holds it)
 *   X-Scope-OrgID: TENANT               (--tenant: multi-tenant servers)
 *
 * One POST through the CLI's HTTP/1.1 client (http-post.c), every wait bounded
 * by 10 s. Also the wall-clock reference of recordings without perf's
 * CLOCK_DATA (the default: it is written only with -k), so that pprof's
 * time_nanos and the push's from/until are wall-clock times: the file's
 * mtime, as perf's "captured on".
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "export-cli.h"
#include "http-post.h"
#include "util/buf.h"
#include "util/grow.h"

#define PUSH_TIMEOUT_MS 10000

/* ---- options -------------------------------------------------------------------- */

static bool label_key_ok(const char *k, size_t n)
{
	if (!n || !(isalpha((unsigned char)k[0]) || k[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)k[i]) && k[i] != '_')
			return false;
	return true;
}

/* Characters the name's {k=v,...} syntax gives a meaning to. */
static bool value_ok(const char *v)
{
	return *v && !strpbrk(v, "{},=\"");
}

int export_push__label(const struct cli_opt *opt, const char *arg, bool unset)
{
	struct export_push *o = opt->value;
	if (unset) {
		o->nr_labels = 0;
		return 0;
	}
	const char *eq = strchr(arg, '=');
	if (!eq || !label_key_ok(arg, (size_t)(eq - arg)))
		return cli_opts__error(opt, "is KEY=VALUE with KEY a label name ([A-Za-z_][A-Za-z0-9_]*), not '%s'", arg);
	if (!value_ok(eq + 1))
		return cli_opts__error(opt, "'%s': the value is empty or has one of { } , = \"", arg);
	if (PK_GROW(o->labels, o->cap_labels, o->nr_labels + 1))
		return cli_opts__error(opt, "out of memory");
	o->labels[o->nr_labels++] = arg;
	return 0;
}

void export_push__free(struct export_push *o)
{
	free(o->labels);
	o->labels = NULL;
	o->nr_labels = o->cap_labels = 0;
}

/* ---- what the profile says ------------------------------------------------------ */

static bool sample_times(const struct pk_profile *p, uint64_t *tmin, uint64_t *tmax)
{
	struct pk_profile_sample s;
	size_t n = pk_profile__nr_samples(p);
	*tmin = UINT64_MAX;
	*tmax = 0;
	for (size_t i = 0; i < n; i++)
		if (!pk_profile__sample(p, i, &s)) {
			*tmin = s.time < *tmin ? s.time : *tmin;
			*tmax = s.time > *tmax ? s.time : *tmax;
		}
	return *tmin <= *tmax;
}

void export__wall_clock(struct pk_profile *p, const char *input)
{
	uint64_t tmin, tmax;
	struct stat st;
	if (!sample_times(p, &tmin, &tmax) || pk_profile__wall_time(p, tmax))
		return;		/* no samples, or perf's CLOCK_DATA gave the clock */
	uint64_t wall;
	if (input && strcmp(input, "-") && !stat(input, &st) && S_ISREG(st.st_mode)) {
		wall = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
	} else {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		wall = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	pk_profile__set_clock(p, tmax, wall);	/* the last sample: when the file was written */
}

/* The written event: --event N, else the first sample's (as pk_export__write picks it). */
static size_t chosen_event(const struct pk_profile *p, const struct pk_export_opts *eo)
{
	struct pk_profile_sample s;
	if (eo->event_nr)
		return eo->event_nr - 1;
	return pk_profile__nr_samples(p) && !pk_profile__sample(p, 0, &s) ? s.event : 0;
}

/*
 * Hz: -F's frequency; a clock's -c period in ns as 1e9/period; another event's -c
 * as the samples it took per second of the recording; 0 when none of these is known.
 */
static uint64_t sample_rate(const struct pk_profile *p, size_t e, uint64_t span_ns)
{
	struct pk_profile_event ev;
	struct pk_profile_total t;
	if (pk_profile__event(p, e, &ev))
		return 0;
	if (ev.freq)
		return ev.freq;
	if (ev.period && ev.unit && !strcmp(ev.unit, "nanoseconds")) {
		uint64_t hz = (1000000000u + ev.period / 2) / ev.period;
		return hz ? hz : 1;
	}
	if (!span_ns || pk_profile__total(p, e, &t) || !t.samples)
		return 0;
	uint64_t hz = (uint64_t)((double)t.samples * 1e9 / (double)span_ns + 0.5);
	return hz ? hz : 1;
}

/* The default application name: the comm of the process leader with the most samples. */
static void default_app(const struct pk_profile *p, struct pk_buf *b)
{
	size_t nt = pk_profile__nr_threads(p), ns = pk_profile__nr_samples(p), best = SIZE_MAX;
	uint64_t *cnt = calloc(nt + 1, sizeof(*cnt));
	struct pk_profile_sample s;
	struct pk_profile_thread t;
	for (size_t i = 0; cnt && i < ns; i++)
		if (!pk_profile__sample(p, i, &s) && s.thread < nt)
			cnt[s.thread]++;
	for (int leaders = 1; cnt && leaders >= 0 && best == SIZE_MAX; leaders--)
		for (size_t i = 0; i < nt; i++)
			if (cnt[i] && !pk_profile__thread(p, (uint32_t)i, &t) &&
			    (!leaders || t.pid == t.tid) && (best == SIZE_MAX || cnt[i] > cnt[best]))
				best = i;
	free(cnt);
	const char *comm = best != SIZE_MAX && !pk_profile__thread(p, (uint32_t)best, &t) ? t.comm : NULL;
	size_t start = b->len;
	for (const char *c = comm; c && *c; c++)
		pk_buf__putc(b, isalnum((unsigned char)*c) || strchr("._-", *c) ? *c : '_');
	if (b->len == start)
		pk_buf__puts(b, "pmukit");
}

/* ---- the request ---------------------------------------------------------------- */

/* The URL --push names: 0, or -1 (said why). */
static int parse_url(const char *prog, const char *s, struct http_url *u)
{
	char why[256];
	int r = http_url__parse(u, s, why, sizeof(why));
	if (r == HTTP_URL_HTTPS)
		fprintf(stderr, "%s: --push %s: https is not supported (plain http://; a local collector "
			"such as Grafana Alloy's pyroscope.receive_http can forward over TLS)\n", prog, s);
	else if (r)
		fprintf(stderr, "%s: --push %s: %s\n", prog, s, why);
	return r ? -1 : 0;
}

int export_push__check_url(const char *prog, const char *url)
{
	struct http_url u;
	return parse_url(prog, url, &u);
}

/* The URL's path (the server's base URL) + /ingest, unless it ends with /ingest already. */
static void ingest_path(struct pk_buf *b, const char *path)
{
	size_t pl = strlen(path);
	while (pl && path[pl - 1] == '/')
		pl--;
	pk_buf__add(b, path, pl);
	if (pl < 7 || strncmp(path + pl - 7, "/ingest", 7))
		pk_buf__puts(b, "/ingest");
}

static void put_escaped(struct pk_buf *b, const char *s)
{
	for (; *s; s++)
		if (isalnum((unsigned char)*s) || strchr("-._~", *s))
			pk_buf__putc(b, *s);
		else
			pk_buf__printf(b, "%%%02X", (unsigned char)*s);
}

struct push_meta {
	const char *app;
	uint64_t from, until, hz;
};

/* PATH/ingest?QUERY&name=APP{k=v,...}&from=..&until=..&format=pprof[&sampleRate=HZ]&spyName=pmukit */
static void request_target(struct pk_buf *b, const struct http_url *u, const struct export_push *o,
			   const struct push_meta *m)
{
	struct pk_buf name = { 0 };
	pk_buf__puts(&name, m->app);
	pk_buf__putc(&name, '{');
	for (size_t i = 0; i < o->nr_labels; i++)
		pk_buf__printf(&name, "%s%s", i ? "," : "", o->labels[i]);
	pk_buf__putc(&name, '}');
	ingest_path(b, u->path);
	pk_buf__putc(b, '?');
	if (*u->query)
		pk_buf__printf(b, "%s&", u->query);
	pk_buf__puts(b, "name=");
	put_escaped(b, pk_buf__str(&name));
	pk_buf__printf(b, "&from=%llu&until=%llu&format=pprof", (unsigned long long)m->from,
		       (unsigned long long)m->until);
	if (m->hz)
		pk_buf__printf(b, "&sampleRate=%llu", (unsigned long long)m->hz);
	pk_buf__puts(b, "&spyName=pmukit");
	if (name.err)
		b->err = name.err;
	pk_buf__free(&name);
}

/* ---- the push ------------------------------------------------------------------- */

static int render_pprof(const char *prog, const struct pk_profile *p, const struct pk_export_opts *eo,
			char **body, size_t *len)
{
	struct pk_error err = { 0 };
	char msg[1024];
	FILE *f = open_memstream(body, len);
	if (!f) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		return -1;
	}
	int rc = pk_export__write(p, PK_EXPORT_PPROF, f, eo, &err);
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, err.code ? pk_error__format(&err, msg, sizeof(msg)) :
			strerror(-rc));
	return rc ? -1 : 0;
}

static void push_meta(const struct pk_profile *p, const struct export_push *o,
		      const struct pk_export_opts *eo, struct push_meta *m, struct pk_buf *app)
{
	uint64_t tmin = 0, tmax = 0;
	bool any = sample_times(p, &tmin, &tmax);
	uint64_t wmin = any ? pk_profile__wall_time(p, tmin) : 0, wmax = any ? pk_profile__wall_time(p, tmax) : 0;
	if (!wmin) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		wmin = wmax = (uint64_t)ts.tv_sec * 1000000000u;
	}
	m->from = wmin / 1000000000u;
	m->until = (wmax + 999999999u) / 1000000000u;	/* the window holds the last sample */
	m->hz = sample_rate(p, chosen_event(p, eo), any ? tmax - tmin : 0);
	if (o->app)
		pk_buf__puts(app, o->app);
	else
		default_app(p, app);
	m->app = pk_buf__str(app);
}

int export_push__send(const char *prog, const struct export_push *o, const struct pk_profile *p,
		      const struct pk_export_opts *eo)
{
	struct http_url u;
	struct http_answer ans;
	struct pk_buf app = { 0 }, target = { 0 }, where = { 0 }, hdr = { 0 };
	struct push_meta m;
	char *body = NULL, why[512];
	size_t len = 0;
	int rc = -1;
	if (parse_url(prog, o->url, &u) || render_pprof(prog, p, eo, &body, &len))
		goto out;
	push_meta(p, o, eo, &m, &app);
	request_target(&target, &u, o, &m);
	if (o->tenant)
		pk_buf__printf(&hdr, "X-Scope-OrgID: %s\r\n", o->tenant);
	bool v6 = strchr(u.host, ':');
	pk_buf__printf(&where, "http://%s%s%s:%s", v6 ? "[" : "", u.host, v6 ? "]" : "", u.port);
	ingest_path(&where, u.path);
	if (target.err || app.err || where.err || hdr.err) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	int status = http_url__post(&u, pk_buf__str(&target), "binary/octet-stream",
				    o->tenant ? pk_buf__str(&hdr) : NULL, body, len, PUSH_TIMEOUT_MS,
				    &ans, why, sizeof(why));
	if (status < 0)
		fprintf(stderr, "%s: --push %s: %s\n", prog, pk_buf__str(&where), why);
	else if (status < 200 || status > 299)
		fprintf(stderr, "%s: --push %s: the server answered HTTP %d%s%s%s%s\n", prog,
			pk_buf__str(&where), status, *ans.reason ? " " : "", ans.reason,
			*ans.body ? ": " : "", ans.body);
	else
		rc = 0;
out:
	free(body);
	pk_buf__free(&app);
	pk_buf__free(&target);
	pk_buf__free(&where);
	pk_buf__free(&hdr);
	return rc;
}
