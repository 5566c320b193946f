/* SPDX-License-Identifier: MIT */
/*
 * http-post.c — the CLI's one HTTP/1.1 client (see http-post.h): an http://
 * URL parsed, and one POST over a non-blocking TCP socket with
 * "Connection: close", the body sent with its Content-Length, the answer read
 * until its Content-Length is in or the server closes. Every wait has a
 * deadline, so a dead endpoint costs its caller that long at most.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http-post.h"
#include "util/buf.h"

#define ANSWER_MAX 65536	/* bytes of an answer kept */

static int fail(char *why, size_t whylen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *why, size_t whylen, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return rc;
}

/* ":PORT" from port to end: 1-65535 into u->port (no sign, no blanks); 0 or -1 */
static int parse_port(struct http_url *u, const char *port, const char *end)
{
	size_t n = (size_t)(end - port);
	if (!n || n > 5 || strspn(port, "0123456789") < n)
		return -1;
	long v = strtol(port, NULL, 10);
	if (v < 1 || v > 65535)
		return -1;
	snprintf(u->port, sizeof(u->port), "%ld", v);
	return 0;
}

int http_url__parse(struct http_url *u, const char *url, char *why, size_t whylen)
{
	memset(u, 0, sizeof(*u));
	if (!strncasecmp(url, "https://", 8))
		return fail(why, whylen, HTTP_URL_HTTPS, "not an http:// URL (https is not supported)");
	if (strncasecmp(url, "http://", 7))
		return fail(why, whylen, -1, "not an http://HOST[:PORT][/PATH] URL");
	const char *a = url + 7, *end = a + strcspn(a, "/?#"), *h = a, *he, *port = NULL;
	if (memchr(a, '@', (size_t)(end - a)))
		return fail(why, whylen, -1, "user:password@ is not supported");
	if (*a == '[') {	/* [v6]:port */
		h = a + 1;
		if (!(he = memchr(h, ']', (size_t)(end - h))))
			return fail(why, whylen, -1, "no ']' after the IPv6 address");
		if (he + 1 < end && he[1] != ':')
			return fail(why, whylen, -1, "bad host");
		port = he + 1 < end ? he + 2 : NULL;
	} else {
		he = memchr(a, ':', (size_t)(end - a));
		port = he ? he + 1 : NULL;
		he = he ? he : end;
	}
	if (he == h)
		return fail(why, whylen, -1, "no host");
	if ((size_t)(he - h) >= sizeof(u->host))
		return fail(why, whylen, -1, "host name too long");
	memcpy(u->host, h, (size_t)(he - h));
	if (!port)
		strcpy(u->port, "80");
	else if (parse_port(u, port, end))
		return fail(why, whylen, -1, "bad port (1-65535)");
	size_t pl = strcspn(end, "?#");
	const char *q = end[pl] == '?' ? end + pl + 1 : "";
	size_t ql = strcspn(q, "#");
	if (pl >= sizeof(u->path) || ql >= sizeof(u->query))
		return fail(why, whylen, -1, "URL too long");
	memcpy(u->path, end, pl);
	memcpy(u->query, q, ql);
	bool v6 = strchr(u->host, ':'), p80 = !strcmp(u->port, "80");
	snprintf(u->hostport, sizeof(u->hostport), "%s%s%s%s%s", v6 ? "[" : "", u->host, v6 ? "]" : "",
		 p80 ? "" : ":", p80 ? "" : u->port);
	return 0;
}

/* ---- the socket ----------------------------------------------------------------- */

/* Wait for fd to be ready for ev: 0, or a negative errno (-ETIMEDOUT after timeout_ms). */
static int wait_fd(int fd, short ev, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = ev };
	int r;
	while ((r = poll(&pfd, 1, timeout_ms)) < 0 && errno == EINTR)
		;
	return r > 0 ? 0 : r == 0 ? -ETIMEDOUT : -errno;
}

/* A non-blocking socket connected to one of u's addresses, or -1 (why said). */
static int dial(const struct http_url *u, int timeout_ms, char *why, size_t whylen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	int r = getaddrinfo(u->host, u->port, &hints, &res), err = -ECONNREFUSED;
	if (r)
		return fail(why, whylen, -1, "cannot resolve %s: %s", u->host,
			    r == EAI_SYSTEM ? strerror(errno) : gai_strerror(r));
	for (ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = -errno;
			continue;
		}
		int so = 0;
		socklen_t sl = sizeof(so);
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			err = 0;
		else if (errno != EINPROGRESS)
			err = -errno;
		else if (!(err = wait_fd(fd, POLLOUT, timeout_ms)))
			err = getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &sl) ? -errno : -so;
		if (!err) {
			freeaddrinfo(res);
			return fd;
		}
		close(fd);
	}
	freeaddrinfo(res);
	return fail(why, whylen, -1, "cannot connect to %s port %s: %s", u->host, u->port, strerror(-err));
}

/* 0, or a negative errno. */
static int send_all(int fd, const char *p, size_t n, int timeout_ms)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			int r = wait_fd(fd, POLLOUT, timeout_ms);
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

/* Whether b holds a whole answer: its head, and the Content-Length bytes after it. */
static bool answer_done(struct pk_buf *b)
{
	const char *head = pk_buf__str(b), *end = strstr(head, "\r\n\r\n");
	int status = 0;
	if (!end)
		return false;
	if (sscanf(head, "HTTP/%*d.%*d %3d", &status) == 1 &&
	    (status / 100 == 1 || status == 204 || status == 304))
		return true;	/* no body */
	for (const char *l = strstr(head, "\r\n"); l && l < end; l = strstr(l + 2, "\r\n"))
		if (!strncasecmp(l + 2, "Content-Length:", 15))
			return b->len - (size_t)(end + 4 - head) >= strtoull(l + 17, NULL, 10);
	return false;		/* read until the server closes: we asked for Connection: close */
}

/* The answer into b (at most ANSWER_MAX bytes): 0 when anything came, else a negative errno. */
static int recv_answer(int fd, struct pk_buf *b, int timeout_ms)
{
	char tmp[4096];
	while (!answer_done(b)) {
		ssize_t r = recv(fd, tmp, sizeof(tmp), 0);
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			int w = wait_fd(fd, POLLIN, timeout_ms);
			if (w)
				return b->len ? 0 : w;
			continue;
		}
		if (r <= 0)
			return b->len ? 0 : r ? -errno : -ECONNRESET;
		size_t n = (size_t)r < ANSWER_MAX - b->len ? (size_t)r : ANSWER_MAX - b->len;
		if (pk_buf__add(b, tmp, n))
			return b->len ? 0 : -ENOMEM;
		if (b->len >= ANSWER_MAX)
			break;
	}
	return 0;
}

/* The status of the answer s, ans filled; -1 when s is no HTTP answer. */
static int parse_answer(const char *s, struct http_answer *ans)
{
	int n = 0;
	if (sscanf(s, "HTTP/%*d.%*d %3d%n", &ans->status, &n) != 1 || ans->status < 100 ||
	    ans->status > 599)
		return -1;
	int ll = (int)strcspn(s, "\r\n");
	snprintf(ans->line, sizeof(ans->line), "%.*s", ll, s);
	const char *reason = s + n + (s[n] == ' ');
	snprintf(ans->reason, sizeof(ans->reason), "%.*s", (int)strcspn(reason, "\r\n"), reason);
	const char *body = strstr(s, "\r\n\r\n");
	if (body) {
		body += 4;
		int bl = (int)strcspn(body, "\r\n");
		snprintf(ans->body, sizeof(ans->body), "%.*s", bl > 300 ? 300 : bl, body);
	}
	return ans->status;
}

int http_url__post(const struct http_url *u, const char *target, const char *ctype,
		   const char *headers, const void *body, size_t len, int timeout_ms,
		   struct http_answer *ans, char *why, size_t whylen)
{
	struct pk_buf head = { 0 }, got = { 0 };
	int rc = -1, fd = -1;

	memset(ans, 0, sizeof(*ans));
	pk_buf__printf(&head, "POST %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: pmukit\r\n"
		       "Content-Type: %s\r\nContent-Length: %zu\r\n%sConnection: close\r\n\r\n",
		       target, u->hostport, ctype, len, headers ? headers : "");
	if (head.err) {
		fail(why, whylen, -1, "out of memory");
		goto out;
	}
	if ((fd = dial(u, timeout_ms, why, whylen)) < 0)
		goto out;
	int sr = send_all(fd, (const char *)head.data, head.len, timeout_ms);
	if (!sr)
		sr = send_all(fd, body, len, timeout_ms);
	/* a server that refused early may have answered (not waited for after a send timeout) */
	int rr = recv_answer(fd, &got, sr == -ETIMEDOUT ? 0 : timeout_ms);
	if (got.len)
		rc = parse_answer(pk_buf__str(&got), ans);
	if (got.len && rc < 0)
		fail(why, whylen, -1, "no HTTP answer");
	else if (!got.len && sr)
		fail(why, whylen, -1, "cannot send the request: %s", strerror(-sr));
	else if (!got.len)
		fail(why, whylen, -1, "no HTTP answer: %s", strerror(-rr));
out:
	if (fd >= 0)
		close(fd);
	pk_buf__free(&head);
	pk_buf__free(&got);
	return rc;
}
