// SPDX-License-Identifier: MIT
/*
 * serve/http.c — the HTTP side of `pmukit stat --serve` on libmicrohttpd
 * (serve/http.h): one internal polling thread (epoll), non-blocking
 * sockets, a per-connection timeout and a connection limit, so that many
 * scrapes at once, a client that stops reading or one that disconnects
 * mid-response cost a connection slot, never the exporter. Only GET (and
 * HEAD) of /metrics runs the callback.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <netinet/in.h>

#include <microhttpd.h>

#include "http.h"

#if MHD_VERSION < 0x00097002
typedef int MHD_RESULT;
#else
typedef enum MHD_Result MHD_RESULT;
#endif

struct serve_http {
	struct MHD_Daemon *d;
	serve_http_fn fn;
	void *ctx;
};

/* ADDR: "[HOST]:PORT", "HOST:PORT", ":PORT". A listening socket, or -1 (said why). */
int serve_http__listen(const char *addr)
{
	char host[256] = "";
	const char *port;

	if (addr[0] == '[') {
		const char *e = strchr(addr, ']');
		if (!e || e[1] != ':' || (size_t)(e - addr - 1) >= sizeof(host))
			goto bad;
		memcpy(host, addr + 1, (size_t)(e - addr - 1));
		host[e - addr - 1] = 0;
		port = e + 2;
	} else {
		const char *c = strrchr(addr, ':');
		if (!c || (size_t)(c - addr) >= sizeof(host))
			goto bad;
		memcpy(host, addr, (size_t)(c - addr));
		host[c - addr] = 0;
		port = c + 1;
	}
	if (!*port || strspn(port, "0123456789") != strlen(port))
		goto bad;

	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *res = NULL;
	int r = getaddrinfo(*host ? host : NULL, port, &hints, &res);
	if (r) {
		fprintf(stderr, "pmukit stat: --serve %s: %s\n", addr, gai_strerror(r));
		return -1;
	}
	int fd = -1, saved = 0;
	/* no host: every address, IPv6 and IPv4 on one socket when there is IPv6 */
	for (int pass = 0; pass < 2 && fd < 0; pass++)
		for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
			if (!*host && (a->ai_family == AF_INET6) != (pass == 0))
				continue;
			fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
			if (fd < 0)
				continue;
			int one = 1, zero = 0;
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (a->ai_family == AF_INET6 && !*host)
				setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
			if (bind(fd, a->ai_addr, a->ai_addrlen) || listen(fd, 64)) {
				saved = errno;
				close(fd);
				fd = -1;
			}
		}
	freeaddrinfo(res);
	if (fd < 0) {
		fprintf(stderr, "pmukit stat: --serve %s: %s\n", addr, strerror(saved ? saved : EINVAL));
		return -1;
	}
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char h[NI_MAXHOST] = "?", p[NI_MAXSERV] = "?";
	if (!getsockname(fd, (struct sockaddr *)&ss, &sl))
		getnameinfo((struct sockaddr *)&ss, sl, h, sizeof(h), p, sizeof(p),
			    NI_NUMERICHOST | NI_NUMERICSERV);
	fprintf(stderr, "pmukit stat: serving http://%s%s%s:%s/metrics\n", strchr(h, ':') ? "[" : "",
		h, strchr(h, ':') ? "]" : "", p);
	return fd;
bad:
	fprintf(stderr, "pmukit stat: --serve '%s': not [HOST]:PORT\n", addr);
	return -1;
}

static MHD_RESULT reply(struct MHD_Connection *c, unsigned status, const char *ctype, char *body,
			size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	MHD_RESULT ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static MHD_RESULT on_request(void *cls, struct MHD_Connection *c, const char *url,
			     const char *method, const char *version, const char *upload,
			     size_t *upload_len, void **con_cls)
{
	struct serve_http *h = cls;
	static int first_call;
	(void)version;
	(void)upload;

	/* the first call has the headers; a body (none expected) would come next */
	if (!*con_cls) {
		*con_cls = &first_call;
		return MHD_YES;
	}
	if (*upload_len) {
		*upload_len = 0;	/* ignored */
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "GET /metrics\n", 13,
			     MHD_RESPMEM_PERSISTENT);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/plain", "pmukit stat --serve: GET /metrics\n", 34,
			     MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", "not found: GET /metrics\n", 24,
			     MHD_RESPMEM_PERSISTENT);
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	char *body = NULL;
	size_t len = 0;
	const char *ctype = "text/plain";
	if (h->fn(h->ctx, accept, &body, &len, &ctype) || !body)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", "scrape failed\n", 14,
			     MHD_RESPMEM_PERSISTENT);
	return reply(c, MHD_HTTP_OK, ctype, body, len, MHD_RESPMEM_MUST_FREE);
}

int serve_http__start(struct serve_http **out, int listen_fd, serve_http_fn fn, void *ctx,
		      char *why, size_t why_len)
{
	struct serve_http *h = calloc(1, sizeof(*h));

	*out = NULL;
	if (!h) {
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	h->fn = fn;
	h->ctx = ctx;
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG,
				0, NULL, NULL, on_request, h,
				MHD_OPTION_LISTEN_SOCKET, listen_fd,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)128,
				MHD_OPTION_END);
	if (!h->d) {
		snprintf(why, why_len, "libmicrohttpd did not start");
		free(h);
		return -1;
	}
	*out = h;
	return 0;
}

void serve_http__stop(struct serve_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	free(h);
}
