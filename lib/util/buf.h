/* SPDX-License-Identifier: MIT */
/* util/buf.h — a growable byte buffer (the image builder's sections, the CLI's output). */
#ifndef PMUKIT_UTIL_BUF_H
#define PMUKIT_UTIL_BUF_H

#include <stddef.h>
#include <stdint.h>

struct pk_buf {
	unsigned char *data;
	size_t len, cap;
};

/* Make room for n more bytes; 0 or -ENOMEM. */
int pk_buf__reserve(struct pk_buf *b, size_t n);
/* Append n bytes; returns the offset they start at, or -1 on ENOMEM. */
long pk_buf__append(struct pk_buf *b, const void *p, size_t n);
int pk_buf__append_u32(struct pk_buf *b, uint32_t v);
/* Pad with zeros to a multiple of align. */
int pk_buf__align(struct pk_buf *b, size_t align);
void pk_buf__free(struct pk_buf *b);

#endif
