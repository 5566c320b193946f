/* SPDX-License-Identifier: MIT */
/*
 * util/buf.h — the library's one growable buffer and string builder: bytes and
 * records (the image builder's sections, perf.data features, report's
 * scratch arrays) and text (appended, printf-appended, always NUL-terminated).
 *
 * A zeroed struct pk_buf is an empty heap buffer. Two other starts:
 *  - pk_buf__init_fixed: the caller's array, never grown: text that does not
 *    fit is cut (and counted in `cut`), binary appends fail with -ENOSPC;
 *    for functions that fill a caller's char buf[len];
 *  - pk_buf__init_spill: the caller's array first (a stack buffer), moved to
 *    the heap the first time it is too small.
 * A failed growth is sticky: `err` keeps it, later appends do nothing and
 * return it, so a run of appends can be checked once at the end.
 * Sizes are checked: a length that would overflow size_t is -ENOMEM.
 */
#ifndef PMUKIT_UTIL_BUF_H
#define PMUKIT_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum {
	PK_BUF_BORROWED = 1,	/* data is the caller's: never freed, copied when growing */
	PK_BUF_FIXED = 2,	/* never grows */
};

struct pk_buf {
	unsigned char *data;
	size_t len, cap;
	size_t cut;		/* fixed buffers: text bytes that did not fit */
	int err;		/* 0, or the first failure (-ENOMEM, -ENOSPC) */
	unsigned flags;		/* PK_BUF_* */
};

void pk_buf__init_fixed(struct pk_buf *b, void *mem, size_t size);
void pk_buf__init_spill(struct pk_buf *b, void *mem, size_t size);

/* The slow half of pk_buf__reserve. Not called directly. */
int pk_buf__grow(struct pk_buf *b, size_t n);
/* Make room for n more bytes; 0, or the (sticky) -ENOMEM / -ENOSPC. */
static inline int pk_buf__reserve(struct pk_buf *b, size_t n)
{
	return !b->err && b->cap - b->len >= n ? 0 : pk_buf__grow(b, n);
}

/* Append n bytes; returns the offset they start at, or -1 when there is no room. */
long pk_buf__append(struct pk_buf *b, const void *p, size_t n);
int pk_buf__append_u32(struct pk_buf *b, uint32_t v);
/* Pad with zeros to a multiple of align. */
int pk_buf__align(struct pk_buf *b, size_t align);

/* Text: the contents stay NUL-terminated (the NUL is not counted in len). 0 or err. */
int pk_buf__add(struct pk_buf *b, const char *s, size_t n);
int pk_buf__puts(struct pk_buf *b, const char *s);
int pk_buf__putc(struct pk_buf *b, char c);
int pk_buf__printf(struct pk_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pk_buf__vprintf(struct pk_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The contents as a C string ("" when empty or after a failure). */
const char *pk_buf__str(struct pk_buf *b);

/*
 * Append everything read from fd up to end of file (hint: the size expected,
 * or 0), NUL-terminated; reads interrupted by a signal are retried. 0, or a
 * negative errno (what was read is kept).
 */
int pk_buf__read_fd(struct pk_buf *b, int fd, size_t hint);

/* Keep the first len bytes (len <= b->len), clearing err: undo appends that failed. */
void pk_buf__truncate(struct pk_buf *b, size_t len);
/* Empty the buffer, keeping its memory (and clearing err). */
void pk_buf__reset(struct pk_buf *b);
/*
 * Hand the contents over as a NUL-terminated heap string the caller frees
 * (*len, when not NULL, gets its length) and leave b empty; NULL (b freed)
 * after a failure or on ENOMEM.
 */
char *pk_buf__detach(struct pk_buf *b, size_t *len);
/* Free the heap memory; b is then an empty heap buffer (as zeroed). */
void pk_buf__free(struct pk_buf *b);

#endif
