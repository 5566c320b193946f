// SPDX-License-Identifier: MIT
/*
 * stat-serve-push.c — one HTTP/1.1 POST over a TCP socket, for `pmukit stat
 * -I --push URL` (VictoriaMetrics' /api/v1/import/prometheus takes the text
 * exposition with timestamps). http:// only; "Connection: close", the body
 * sent with its Content-Length, the answer's status line read and the rest
 * ignored. Each step has a deadline, so a dead endpoint costs an interval
 * at most that long, never the counting.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "stat-serve-push.h"

int push_url__parse(struct push_url *u, const char *url, char *why, size_t whylen)
{
	static const char scheme[] = "http://";
	const char *p = url, *host, *end;
	size_t hl;

	memset(u, 0, sizeof(*u));
	if (strncasecmp(p, scheme, sizeof(scheme) - 1)) {
		snprintf(why, whylen, "not an http:// URL (https is not supported)");
		return -1;
	}
	p += sizeof(scheme) - 1;
	end = p + strcspn(p, "/?");
	if (*p == '[') {	/* [v6]:port */
		host = p + 1;
		const char *rb = memchr(p, ']', (size_t)(end - p));
		if (!rb) {
			snprintf(why, whylen, "no ']' after the IPv6 address");
			return -1;
		}
		hl = (size_t)(rb - host);
		p = rb + 1;
	} else {
		host = p;
		const char *colon = memchr(p, ':', (size_t)(end - p));
		hl = (size_t)((colon ? colon : end) - p);
		p = colon ? colon : end;
	}
	if (!hl || hl >= sizeof(u->host)) {
		snprintf(why, whylen, "no host");
		return -1;
	}
	memcpy(u->host, host, hl);
	if (*p == ':') {
		size_t pl = (size_t)(end - p - 1);
		if (!pl || pl >= sizeof(u->port) || strspn(p + 1, "0123456789") < pl) {
			snprintf(why, whylen, "bad port");
			return -1;
		}
		memcpy(u->port, p + 1, pl);
	} else if (p != end) {
		snprintf(why, whylen, "bad host");
		return -1;
	} else {
		strcpy(u->port, "80");
	}
	if (!*end || !strcmp(end, "/"))
		end = "/api/v1/import/prometheus";
	if (snprintf(u->path, sizeof(u->path), "%s%s", *end == '?' ? "/" : "", end) >=
	    (int)sizeof(u->path)) {
		snprintf(why, whylen, "path too long");
		return -1;
	}
	snprintf(u->hostport, sizeof(u->hostport), "%s%s%s:%s", strchr(u->host, ':') ? "[" : "",
		 u->host, strchr(u->host, ':') ? "]" : "", u->port);
	return 0;
}

/* Wait for fd to be ready for ev; 0, or -1 (errno ETIMEDOUT on the deadline). */
static int wait_fd(int fd, short ev, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int r;
	while ((r = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
		;
	if (r == 0)
		errno = ETIMEDOUT;
	return r > 0 ? 0 : -1;
}

/* A non-blocking socket connected to u within timeout_ms, or -1 (why set). */
static int dial(const struct push_url *u, int timeout_ms, char *why, size_t whylen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai, *a;
	int fd = -1, r = getaddrinfo(u->host, u->port, &hints, &ai);

	if (r) {
		snprintf(why, whylen, "%s: %s", u->host, gai_strerror(r));
		return -1;
	}
	for (a = ai; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		int err = 0;
		socklen_t el = sizeof(err);
		if (connect(fd, a->ai_addr, a->ai_addrlen) && (errno != EINPROGRESS ||
		    wait_fd(fd, POLLOUT, timeout_ms) ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) || (err && (errno = err)))) {
			snprintf(why, whylen, "connect to %s: %s", u->hostport, strerror(errno));
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	return fd;
}

static int send_all(int fd, const char *p, size_t n, int timeout_ms)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (wait_fd(fd, POLLOUT, timeout_ms))
				return -1;
			continue;
		}
		if (w <= 0)
			return -1;
		p += w, n -= (size_t)w;
	}
	return 0;
}

int push_url__post(const struct push_url *u, const char *ctype, const char *body, size_t len,
		   int timeout_ms, char *why, size_t whylen)
{
	char head[2048], resp[512];
	size_t got = 0;
	int fd = dial(u, timeout_ms, why, whylen);

	if (fd < 0)
		return -1;
	int hn = snprintf(head, sizeof(head),
			  "POST %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: pmukit\r\n"
			  "Content-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
			  u->path, u->hostport, ctype, len);
	if (send_all(fd, head, (size_t)hn, timeout_ms) || send_all(fd, body, len, timeout_ms)) {
		snprintf(why, whylen, "send to %s: %s", u->hostport, strerror(errno));
		close(fd);
		return -1;
	}
	/* the status line: "HTTP/1.1 204 No Content" */
	while (got < sizeof(resp) - 1 && !memchr(resp, '\n', got)) {
		ssize_t r = recv(fd, resp + got, sizeof(resp) - 1 - got, 0);
		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (wait_fd(fd, POLLIN, timeout_ms))
				break;
			continue;
		}
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	resp[got] = 0;
	int status = 0;
	if (sscanf(resp, "HTTP/%*d.%*d %d", &status) != 1) {
		snprintf(why, whylen, "%s: no HTTP answer%s%s", u->hostport, got ? "" : ": ",
			 got ? "" : strerror(errno ? errno : ECONNRESET));
		return -1;
	}
	if (status < 200 || status > 299) {
		resp[strcspn(resp, "\r\n")] = 0;
		snprintf(why, whylen, "%s answered \"%s\"", u->hostport, resp);
		return -1;
	}
	return 0;
}
