/* SPDX-License-Identifier: MIT */
/*
 * stat-serve-push.h — a plain HTTP/1.1 POST for `pmukit stat -I --push URL`
 * (stat-serve-push.c): the interval's samples to a VictoriaMetrics import
 * endpoint. pmukit links no HTTP client library (libmicrohttpd serves, it
 * does not send), so this is the few lines of one request over a socket.
 */
#ifndef PMUKIT_STAT_SERVE_PUSH_H
#define PMUKIT_STAT_SERVE_PUSH_H

#include <stddef.h>

struct push_url {
	char host[256];		/* a name, or an address ("[::1]" without its brackets) */
	char port[8];
	char path[1024];	/* with its query; "/api/v1/import/prometheus" for "" or "/" */
	char hostport[300];	/* the Host header */
};

/* http://HOST[:PORT][/PATH]: 0, or -1 with the reason in why. */
int push_url__parse(struct push_url *u, const char *url, char *why, size_t whylen);

/*
 * POST body (content type ctype) to u, waiting at most timeout_ms for each
 * step (connect, send, the status line): 0 on a 2xx answer, else -1 with
 * the reason in why.
 */
int push_url__post(const struct push_url *u, const char *ctype, const char *body, size_t len,
		   int timeout_ms, char *why, size_t whylen);

#endif
