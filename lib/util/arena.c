/* SPDX-License-Identifier: MIT */
/*
 * util/arena.c — bump allocator in chunks that double from ~1 KiB to 64 KiB
 * (small arenas, such as one spec's syntax tree, stay cheap); requests larger
 * than a quarter chunk get their own chunk. The first chunk may be a buffer
 * the caller lends (pk_arena__init_buf), which is never freed here.
 */
#include "util/arena.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE (64 * 1024)
/* the first malloc'd chunk, header included, is 1 KiB: small enough for malloc's fast path */
#define FIRST_CHUNK (1024 - sizeof(struct pk_arena_chunk))

struct pk_arena_chunk {
	struct pk_arena_chunk *next;
	size_t used, size;
	bool borrowed;		/* the caller's buffer: not freed */
	alignas(max_align_t) unsigned char data[];
};

void pk_arena__init_buf(struct pk_arena *a, void *buf, size_t size)
{
	const size_t align = alignof(max_align_t);
	uintptr_t p = ((uintptr_t)buf + align - 1) & ~(uintptr_t)(align - 1);
	size_t skip = (size_t)(p - (uintptr_t)buf);
	a->head = NULL;
	if (!buf || size < skip + sizeof(struct pk_arena_chunk) + align)
		return;
	struct pk_arena_chunk *c = (struct pk_arena_chunk *)p;
	c->next = NULL;
	c->used = 0;
	c->size = (size - skip - sizeof(*c)) & ~(align - 1);
	c->borrowed = true;
	a->head = c;
}

/* A new chunk at least size bytes (aligned) large, and size bytes of it. */
__attribute__((noinline)) static void *alloc_chunk(struct pk_arena *a, size_t size)
{
	struct pk_arena_chunk *c = a->head;
	/* after a lent buffer, start small again: it may have been large */
	size_t next = c && !c->borrowed ? (c->size * 2 < CHUNK_SIZE ? c->size * 2 : CHUNK_SIZE)
					: FIRST_CHUNK;
	while (next < size && next < CHUNK_SIZE)
		next *= 2;
	size_t csize = size > CHUNK_SIZE / 4 ? size : next;
	c = malloc(sizeof(*c) + csize);
	if (!c)
		return NULL;
	c->used = size;
	c->size = csize;
	c->borrowed = false;
	if (size > CHUNK_SIZE / 4 && a->head) {
		/* keep the current chunk at the head for later small requests */
		c->next = a->head->next;
		a->head->next = c;
	} else {
		c->next = a->head;
		a->head = c;
	}
	return c->data;
}

/* Memory aligned for any type, not zeroed. */
static inline void *alloc_raw(struct pk_arena *a, size_t size)
{
	const size_t align = alignof(max_align_t);
	size = (size + align - 1) & ~(align - 1);
	struct pk_arena_chunk *c = a->head;
	if (!c || c->size - c->used < size)
		return alloc_chunk(a, size);
	void *p = c->data + c->used;
	c->used += size;
	return p;
}

void *pk_arena__alloc(struct pk_arena *a, size_t size)
{
	void *p = alloc_raw(a, size);
	if (p)
		memset(p, 0, size);
	return p;
}

char *pk_arena__strndup(struct pk_arena *a, const char *s, size_t len)
{
	char *p = alloc_raw(a, len + 1);	/* every byte written below */
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

char *pk_arena__strdup(struct pk_arena *a, const char *s)
{
	return pk_arena__strndup(a, s, strlen(s));
}

void pk_arena__merge(struct pk_arena *dst, struct pk_arena *src)
{
	struct pk_arena_chunk *c = src->head;
	if (!c)
		return;
	while (c->next)
		c = c->next;
	/* src chunks go after dst's head so dst keeps allocating from its own chunk */
	if (dst->head) {
		c->next = dst->head->next;
		dst->head->next = src->head;
	} else {
		dst->head = src->head;
	}
	src->head = NULL;
}

void pk_arena__free(struct pk_arena *a)
{
	struct pk_arena_chunk *c = a->head;
	while (c) {
		struct pk_arena_chunk *n = c->next;
		if (!c->borrowed)
			free(c);
		c = n;
	}
	a->head = NULL;
}
