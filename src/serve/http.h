/* SPDX-License-Identifier: MIT */
/*
 * serve/http.h — the HTTP endpoint of `pmukit stat --serve`, on
 * libmicrohttpd: GET /metrics answered by a callback, everything else a
 * short 404/405. Built only into build/pmukit-serve (linked dynamically:
 * Debian's libmicrohttpd.a needs GnuTLS, whose libp11-kit and libunistring
 * have no static archives); the static CLI sees these functions as weak
 * and, when they are absent, runs pmukit-serve instead (stat-serve.c).
 */
#ifndef PMUKIT_SERVE_HTTP_H
#define PMUKIT_SERVE_HTTP_H

#include <stddef.h>

/*
 * Fill *body (malloc'd; the server frees it), *len and *ctype (static) for a
 * scrape whose Accept header is accept (NULL: none). 0, or -1 for a 500.
 * Called from the server's thread.
 */
typedef int (*serve_http_fn)(void *ctx, const char *accept, char **body, size_t *len,
			     const char **ctype);

struct serve_http;

/*
 * A listening socket on ADDR: "[HOST]:PORT" (IPv6), "HOST:PORT", ":PORT"
 * (every address); port 0 picks a free one. Says on stderr where it serves
 * ("pmukit stat: serving http://127.0.0.1:40123/metrics"), or why not (-1).
 */
int serve_http__listen(const char *addr) __attribute__((weak));

/*
 * Serve on listen_fd (bound, listening; the server owns it from now on) from
 * a thread of its own, connections non-blocking with a timeout: a slow or
 * vanished client never holds up the others. 0, or -1 with why filled.
 */
int serve_http__start(struct serve_http **out, int listen_fd, serve_http_fn fn, void *ctx,
		      char *why, size_t why_len) __attribute__((weak));
/* Close every connection and the socket, join the thread, free. */
void serve_http__stop(struct serve_http *h) __attribute__((weak));

#endif
