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
 * A plain HTTP/1.1 client over a socket (the static CLI links no HTTP library):
 * one request, Connection: close, every wait bounded by a timeout. Also the
 * wall-clock reference of recordings without perf's CLOCK_DATA (the default:
 * it is written only with -k), so that pprof's time_nanos and the push's
 * from/until are wall-clock times: the file's mtime, as perf's "captured on".
 */
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "export-cli.h"
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

struct url {
	char host[256], port[8], path[1024], query[1024];
};

static int parse_url(const char *prog, const char *s, struct url *u)
{
	memset(u, 0, sizeof(*u));
	if (!strncasecmp(s, "https://", 8)) {
		fprintf(stderr, "%s: --push %s: https is not supported (plain http://; a local collector "
			"such as Grafana Alloy's pyroscope.receive_http can forward over TLS)\n", prog, s);
		return -1;
	}
	if (strncasecmp(s, "http://", 7)) {
		fprintf(stderr, "%s: --push %s: not an http://HOST[:PORT][/PATH] URL\n", prog, s);
		return -1;
	}
	const char *a = s + 7, *end = a + strcspn(a, "/?#"), *h = a, *he, *port = NULL;
	if (memchr(a, '@', (size_t)(end - a))) {
		fprintf(stderr, "%s: --push %s: user:password@ is not supported\n", prog, s);
		return -1;
	}
	if (*a == '[') {
		h = a + 1;
		he = memchr(h, ']', (size_t)(end - h));
		if (he && he + 1 < end && he[1] == ':')
			port = he + 2;
		else if (he && he + 1 != end)
			he = NULL;
	} else {
		he = memchr(a, ':', (size_t)(end - a));
		port = he ? he + 1 : NULL;
		he = he ? he : end;
	}
	size_t plen = port ? (size_t)(end - port) : 0;
	char *pe = NULL;
	long pn = port ? strtol(port, &pe, 10) : 80;
	if (!he || he == h || (size_t)(he - h) >= sizeof(u->host) || (port && (!plen || pe != end)) ||
	    pn < 1 || pn > 65535) {
		fprintf(stderr, "%s: --push %s: not an http://HOST[:PORT][/PATH] URL\n", prog, s);
		return -1;
	}
	memcpy(u->host, h, (size_t)(he - h));
	snprintf(u->port, sizeof(u->port), "%ld", pn);
	size_t pl = strcspn(end, "?#");
	const char *q = end[pl] == '?' ? end + pl + 1 : "";
	size_t ql = strcspn(q, "#");
	if (pl + 8 >= sizeof(u->path) || ql >= sizeof(u->query)) {
		fprintf(stderr, "%s: --push %s: URL too long\n", prog, s);
		return -1;
	}
	memcpy(u->path, end, pl);
	memcpy(u->query, q, ql);
	while (pl && u->path[pl - 1] == '/')
		u->path[--pl] = 0;
	if (pl < 7 || strcmp(u->path + pl - 7, "/ingest"))	/* the server's base URL: + /ingest */
		strcat(u->path, "/ingest");
	return 0;
}

int export_push__check_url(const char *prog, const char *url)
{
	struct url u;
	return parse_url(prog, url, &u);
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

static void request_head(struct pk_buf *b, const struct url *u, const struct export_push *o,
			 const struct push_meta *m, size_t body_len)
{
	struct pk_buf name = { 0 };
	pk_buf__puts(&name, m->app);
	pk_buf__putc(&name, '{');
	for (size_t i = 0; i < o->nr_labels; i++)
		pk_buf__printf(&name, "%s%s", i ? "," : "", o->labels[i]);
	pk_buf__putc(&name, '}');
	pk_buf__printf(b, "POST %s?", *u->path ? u->path : "/ingest");
	if (*u->query)
		pk_buf__printf(b, "%s&", u->query);
	pk_buf__puts(b, "name=");
	put_escaped(b, pk_buf__str(&name));
	pk_buf__printf(b, "&from=%llu&until=%llu&format=pprof", (unsigned long long)m->from,
		       (unsigned long long)m->until);
	if (m->hz)
		pk_buf__printf(b, "&sampleRate=%llu", (unsigned long long)m->hz);
	pk_buf__puts(b, "&spyName=pmukit HTTP/1.1\r\n");
	bool v6 = strchr(u->host, ':');
	pk_buf__printf(b, "Host: %s%s%s%s%s\r\n", v6 ? "[" : "", u->host, v6 ? "]" : "",
		       strcmp(u->port, "80") ? ":" : "", strcmp(u->port, "80") ? u->port : "");
	pk_buf__printf(b, "User-Agent: pmukit\r\nContent-Type: binary/octet-stream\r\n"
		       "Content-Length: %zu\r\n", body_len);
	if (o->tenant)
		pk_buf__printf(b, "X-Scope-OrgID: %s\r\n", o->tenant);
	pk_buf__puts(b, "Connection: close\r\n\r\n");
	pk_buf__free(&name);
}

/* ---- the socket ----------------------------------------------------------------- */

static int wait_fd(int fd, short ev)
{
	struct pollfd pfd = { .fd = fd, .events = ev };
	int r;
	do
		r = poll(&pfd, 1, PUSH_TIMEOUT_MS);
	while (r < 0 && errno == EINTR);
	return r > 0 ? 0 : r == 0 ? -ETIMEDOUT : -errno;
}

static int dial(const char *prog, const struct url *u)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	int r = getaddrinfo(u->host, u->port, &hints, &res), err = 0;
	if (r) {
		fprintf(stderr, "%s: --push: cannot resolve %s: %s\n", prog, u->host, gai_strerror(r));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = -errno;
			continue;
		}
		socklen_t len = sizeof(err);
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen) ||
		    (errno == EINPROGRESS && !(err = wait_fd(fd, POLLOUT)) &&
		     !getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) && !(err = -err))) {
			freeaddrinfo(res);
			return fd;
		}
		err = err ? err : -errno;
		close(fd);
	}
	freeaddrinfo(res);
	fprintf(stderr, "%s: --push: cannot connect to %s port %s: %s\n", prog, u->host, u->port,
		strerror(-err));
	return -1;
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			int r = wait_fd(fd, POLLOUT);
			if (r)
				return r;
			continue;
		}
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Whether b holds a whole answer: its head and the Content-Length bytes after it. */
static bool answer_done(struct pk_buf *b)
{
	if (pk_buf__putc(b, 0))
		return false;
	b->len--;
	const char *head = (const char *)b->data, *end = strstr(head, "\r\n\r\n");
	if (!end)
		return false;
	for (const char *l = strstr(head, "\r\n"); l && l < end; l = strstr(l + 2, "\r\n"))
		if (!strncasecmp(l + 2, "Content-Length:", 15))
			return b->len - (size_t)(end + 4 - head) >= strtoull(l + 17, NULL, 10);
	return false;
}

/*
 * The answer, until its Content-Length is in or the server closes (we asked for
 * Connection: close; no half-close from us: a Go server takes it for a client gone and
 * cancels the request), at most 64 KiB kept.
 */
static int recv_all(int fd, struct pk_buf *b)
{
	char tmp[4096];
	while (!answer_done(b)) {
		ssize_t r = recv(fd, tmp, sizeof(tmp), 0);
		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			int w = wait_fd(fd, POLLIN);
			if (w)
				return b->len ? 0 : w;
			continue;
		}
		if (r < 0)
			return b->len ? 0 : -errno;
		if (r == 0)
			return 0;
		if (b->len < 65536)
			pk_buf__add(b, tmp, (size_t)r);
		else
			return 0;
	}
	return 0;
}

/* 0 for a 2xx answer; else says what the server answered. */
static int check_answer(const char *prog, const char *where, const char *ans)
{
	int status = 0, n = 0;
	if (sscanf(ans, "HTTP/%*d.%*d %3d%n", &status, &n) != 1) {
		fprintf(stderr, "%s: --push %s: no HTTP answer\n", prog, where);
		return -1;
	}
	if (status >= 200 && status < 300)
		return 0;
	const char *reason = ans + n, *body = strstr(ans, "\r\n\r\n");
	int rl = (int)strcspn(reason, "\r\n");
	fprintf(stderr, "%s: --push %s: the server answered HTTP %d%.*s", prog, where, status, rl, reason);
	if (body && body[4]) {
		body += 4;
		int bl = (int)strcspn(body, "\r\n");
		fprintf(stderr, ": %.*s", bl > 300 ? 300 : bl, body);
	}
	fputc('\n', stderr);
	return -1;
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
	struct url u;
	struct pk_buf app = { 0 }, req = { 0 }, ans = { 0 };
	struct push_meta m;
	char *body = NULL, where[1400];
	size_t len = 0;
	int rc = -1, fd = -1;
	if (parse_url(prog, o->url, &u) || render_pprof(prog, p, eo, &body, &len))
		goto out;
	push_meta(p, o, eo, &m, &app);
	request_head(&req, &u, o, &m, len);
	if (req.err || app.err) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	snprintf(where, sizeof(where), "http://%s%s%s:%s%s", strchr(u.host, ':') ? "[" : "", u.host,
		 strchr(u.host, ':') ? "]" : "", u.port, u.path);
	if ((fd = dial(prog, &u)) < 0)
		goto out;
	int r = send_all(fd, (const char *)req.data, req.len);
	if (!r)
		r = send_all(fd, body, len);
	int rr = recv_all(fd, &ans);	/* a server that refused early may have answered */
	pk_buf__putc(&ans, 0);
	if (ans.len > 1)
		rc = check_answer(prog, where, (const char *)ans.data);
	else
		fprintf(stderr, "%s: --push %s: %s\n", prog, where,
			strerror(-(r ? r : rr ? rr : -ECONNRESET)));
out:
	if (fd >= 0)
		close(fd);
	free(body);
	pk_buf__free(&app);
	pk_buf__free(&req);
	pk_buf__free(&ans);
	return rc;
}
