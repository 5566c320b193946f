/* SPDX-License-Identifier: MIT */
/* util/buf.c — the growable buffer and string builder of util/buf.h. */
#include "util/buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/grow.h"

void pk_buf__init_fixed(struct pk_buf *b, void *mem, size_t size)
{
	*b = (struct pk_buf){ .data = mem, .cap = size, .flags = PK_BUF_BORROWED | PK_BUF_FIXED };
	if (size)
		b->data[0] = '\0';
}

void pk_buf__init_spill(struct pk_buf *b, void *mem, size_t size)
{
	*b = (struct pk_buf){ .data = mem, .cap = size, .flags = PK_BUF_BORROWED };
	if (size)
		b->data[0] = '\0';
}

static int fail(struct pk_buf *b, int code)
{
	b->err = code;
	return code;
}

int pk_buf__grow(struct pk_buf *b, size_t n)
{
	if (b->err)
		return b->err;
	if (b->cap - b->len >= n)
		return 0;
	if (n > SIZE_MAX - b->len)
		return fail(b, -ENOMEM);
	if (b->flags & PK_BUF_FIXED)
		return fail(b, -ENOSPC);
	/* off the caller's array (PK_BUF_BORROWED) onto the heap, or a bigger heap block */
	const void *first = b->flags & PK_BUF_BORROWED ? b->data : NULL;
	if (pk_grow__realloc(&b->data, &b->cap, b->len + n, 1, first))
		return fail(b, -ENOMEM);
	b->flags &= ~(unsigned)PK_BUF_BORROWED;
	return 0;
}

long pk_buf__append(struct pk_buf *b, const void *p, size_t n)
{
	if (pk_buf__reserve(b, n))
		return -1;
	long off = (long)b->len;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return off;
}

int pk_buf__append_u32(struct pk_buf *b, uint32_t v)
{
	return pk_buf__append(b, &v, sizeof(v)) < 0 ? b->err : 0;
}

int pk_buf__align(struct pk_buf *b, size_t align)
{
	size_t pad = (align - b->len % align) % align;
	if (pk_buf__reserve(b, pad))
		return b->err;
	memset(b->data + b->len, 0, pad);
	b->len += pad;
	return 0;
}

/* Text into a fixed buffer: what fits, NUL-terminated; the rest counted in cut. */
static void add_cut(struct pk_buf *b, const char *s, size_t n)
{
	size_t room = b->len < b->cap ? b->cap - 1 - b->len : 0;
	size_t k = n < room ? n : room;
	if (k)
		memcpy(b->data + b->len, s, k);
	b->len += k;
	if (b->len < b->cap)
		b->data[b->len] = '\0';
	b->cut += n - k;
}

int pk_buf__add(struct pk_buf *b, const char *s, size_t n)
{
	if (b->err)
		return b->err;
	if (b->flags & PK_BUF_FIXED) {
		add_cut(b, s, n);
		return 0;
	}
	if (n == SIZE_MAX)
		return fail(b, -ENOMEM);
	int r = pk_buf__reserve(b, n + 1);
	if (r)
		return r;
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int pk_buf__puts(struct pk_buf *b, const char *s)
{
	return pk_buf__add(b, s, strlen(s));
}

int pk_buf__putc(struct pk_buf *b, char c)
{
	if (!b->err && b->len + 1 < b->cap) {	/* room for it and the NUL: fixed or not */
		b->data[b->len++] = (unsigned char)c;
		b->data[b->len] = '\0';
		return 0;
	}
	return pk_buf__add(b, &c, 1);
}

int pk_buf__vprintf(struct pk_buf *b, const char *fmt, va_list ap)
{
	if (b->err)
		return b->err;
	size_t room = b->len < b->cap ? b->cap - b->len : 0;
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(room ? (char *)b->data + b->len : NULL, room, fmt, aq);
	va_end(aq);
	if (n < 0) {
		if (room)
			b->data[b->len] = '\0';
		return -EINVAL;
	}
	if ((size_t)n < room) {
		b->len += (size_t)n;
		return 0;
	}
	if (b->flags & PK_BUF_FIXED) {	/* vsnprintf kept room - 1 bytes and the NUL */
		size_t kept = room ? room - 1 : 0;
		b->len += kept;
		b->cut += (size_t)n - kept;
		return 0;
	}
	int r = pk_buf__reserve(b, (size_t)n + 1);
	if (r) {
		if (room)
			b->data[b->len] = '\0';
		return r;
	}
	vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int pk_buf__printf(struct pk_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = pk_buf__vprintf(b, fmt, ap);
	va_end(ap);
	return r;
}

int pk_buf__read_fd(struct pk_buf *b, int fd, size_t hint)
{
	/* room for hint bytes, one more (end of file is seen without growing) and the NUL */
	size_t want = hint < SIZE_MAX - 2 ? hint + 2 : SIZE_MAX;
	for (;;) {
		int rc = pk_buf__reserve(b, want);
		if (rc)
			return rc;
		ssize_t r = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			b->data[b->len] = '\0';
			return r < 0 ? -errno : 0;
		}
		b->len += (size_t)r;
		want = 2;	/* a byte and the NUL: grows (doubling) only when full */
	}
}

const char *pk_buf__str(struct pk_buf *b)
{
	if (b->err || !b->data)
		return "";
	if (b->len == b->cap && pk_buf__reserve(b, 1))
		return "";
	b->data[b->len] = '\0';
	return (const char *)b->data;
}

void pk_buf__truncate(struct pk_buf *b, size_t len)
{
	if (len < b->len)
		b->len = len;
	b->err = 0;
	if (b->len < b->cap)
		b->data[b->len] = '\0';
}

void pk_buf__reset(struct pk_buf *b)
{
	b->cut = 0;
	pk_buf__truncate(b, 0);
}

char *pk_buf__detach(struct pk_buf *b, size_t *len)
{
	char *s = NULL;
	size_t n = b->len;
	if (!b->err && (b->flags & PK_BUF_BORROWED)) {
		s = malloc(n + 1);
		if (s) {
			memcpy(s, b->data, n);
			s[n] = '\0';
		}
	} else if (!b->err && !pk_buf__reserve(b, 1)) {
		b->data[n] = '\0';
		s = (char *)b->data;
		b->data = NULL;
	}
	if (len)
		*len = s ? n : 0;
	pk_buf__free(b);
	return s;
}

void pk_buf__free(struct pk_buf *b)
{
	if (!(b->flags & PK_BUF_BORROWED))
		free(b->data);
	*b = (struct pk_buf){ 0 };
}
