/* SPDX-License-Identifier: MIT */
/* util/buf.c — growable byte buffer. */
#include "util/buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pk_buf__reserve(struct pk_buf *b, size_t n)
{
	if (b->cap - b->len >= n)
		return 0;
	size_t cap = b->cap ? b->cap : 256;
	while (cap - b->len < n)
		cap *= 2;
	unsigned char *d = realloc(b->data, cap);
	if (!d)
		return -ENOMEM;
	b->data = d;
	b->cap = cap;
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
	return pk_buf__append(b, &v, sizeof(v)) < 0 ? -ENOMEM : 0;
}

int pk_buf__align(struct pk_buf *b, size_t align)
{
	size_t pad = (align - b->len % align) % align;
	static const unsigned char zeros[16];
	return pk_buf__append(b, zeros, pad) < 0 ? -ENOMEM : 0;
}

void pk_buf__free(struct pk_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
