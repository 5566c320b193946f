/* SPDX-License-Identifier: MIT */
/*
 * util/arena.h — a bump allocator: many small strings and records freed at
 * once. Used by the JSON tree reader, the image builder, the PMU tree and
 * the event list (whose per-spec scratch starts in a stack buffer).
 */
#ifndef PMUKIT_UTIL_ARENA_H
#define PMUKIT_UTIL_ARENA_H

#include <stddef.h>

struct pk_arena_chunk;

struct pk_arena {
	struct pk_arena_chunk *head;
};

/*
 * Start a with buf (size bytes, e.g. on the stack) as its first chunk; more
 * chunks are malloc'd as needed. pk_arena__free frees those but never buf.
 * Such an arena must not be the src of pk_arena__merge.
 */
void pk_arena__init_buf(struct pk_arena *a, void *buf, size_t size);
/* Zeroed memory aligned for any type, or NULL on ENOMEM. */
void *pk_arena__alloc(struct pk_arena *a, size_t size);
/* Copy of s[0..len) plus NUL. */
char *pk_arena__strndup(struct pk_arena *a, const char *s, size_t len);
char *pk_arena__strdup(struct pk_arena *a, const char *s);
/* Move every chunk of src into dst (src becomes empty). */
void pk_arena__merge(struct pk_arena *dst, struct pk_arena *src);
void pk_arena__free(struct pk_arena *a);

#endif
