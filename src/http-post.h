/* SPDX-License-Identifier: MIT */
/*
 * http-post.h — the CLI's one HTTP/1.1 client (http-post.c): an http:// URL
 * parsed, and one POST over a TCP socket, every wait bounded. For the pushes:
 * `pmukit export --format pprof --push URL` (export-push.c, a Pyroscope ingest
 * endpoint) and `pmukit stat -I --push URL` (stat-serve-out.c, a
 * VictoriaMetrics import endpoint). The static CLI links no HTTP client
 * library (libmicrohttpd serves, it does not send): this is the few lines of
 * one request. Each caller builds its own request target (path and query) and
 * extra headers, and says the failures in its own words.
 */
#ifndef PMUKIT_HTTP_POST_H
#define PMUKIT_HTTP_POST_H

#include <stddef.h>

/* http://HOST[:PORT][/PATH][?QUERY][#FRAGMENT], HOST a name, an IPv4 or an [IPv6] address */
struct http_url {
	char host[256];		/* a name, or an address ("[::1]" without its brackets) */
	char port[8];		/* 1-65535; "80" when the URL has none */
	char path[1024];	/* "" when the URL has none; without the query */
	char query[1024];	/* after '?', without it; "" when none (the fragment dropped) */
	char hostport[300];	/* the Host header: brackets for IPv6, ":PORT" unless 80 */
};

/* http_url__parse's -1 for an https:// URL (a caller may add how to get TLS) */
#define HTTP_URL_HTTPS (-2)

/*
 * Parse url into u: 0, or -1 (HTTP_URL_HTTPS for https://) with the reason in
 * why (https, user:password@, no host, a bad port, too long...).
 */
int http_url__parse(struct http_url *u, const char *url, char *why, size_t whylen);

/* What the server answered. */
struct http_answer {
	int status;		/* 100-599 */
	char line[256];		/* the status line: "HTTP/1.1 404 Not Found" */
	char reason[128];	/* its reason phrase: "Not Found" ("" when none) */
	char body[304];		/* the body's first line, at most 300 bytes ("" when none) */
};

/*
 * POST body (len bytes, of Content-Type ctype) to u as
 *   POST TARGET HTTP/1.1, Host, User-Agent: pmukit, Content-Type, Content-Length,
 *   headers ("Name: value\r\n" lines, or NULL), Connection: close
 * then read the answer until its Content-Length is in or the server closes (no
 * half-close from us: a Go server takes it for a client gone and cancels the
 * request), at most 64 KiB of it. Each step (connect to each of the host's
 * addresses, every wait to send, every wait for the answer) waits timeout_ms at
 * most. The HTTP status (ans filled, whatever it is), or -1 with the reason in
 * why: "cannot resolve HOST: ...", "cannot connect to HOST port PORT: ...",
 * "cannot send the request: ...", "no HTTP answer[: ...]".
 */
int http_url__post(const struct http_url *u, const char *target, const char *ctype,
		   const char *headers, const void *body, size_t len, int timeout_ms,
		   struct http_answer *ans, char *why, size_t whylen);

#endif
