/* SPDX-License-Identifier: MIT */
/* util/intern.c — deduplicating byte store (FNV-1a hashed, linear probing). */
#include "util/intern.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_bytes(const unsigned char *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static int grow(struct pk_intern *in)
{
	size_t n = in->nr_slots ? in->nr_slots * 2 : 1024;
	struct pk_intern_slot *s = calloc(n, sizeof(*s));
	if (!s)
		return -1;
	for (size_t i = 0; i < in->nr_slots; i++) {
		struct pk_intern_slot *o = &in->slots[i];
		if (!o->off)
			continue;
		size_t j = o->hash & (n - 1);
		while (s[j].off)
			j = (j + 1) & (n - 1);
		s[j] = *o;
	}
	free(in->slots);
	in->slots = s;
	in->nr_slots = n;
	return 0;
}

static struct pk_intern_slot *lookup(const struct pk_intern *in, const void *p, size_t n,
				     uint32_t h)
{
	if (!in->nr_slots)
		return NULL;
	size_t j = h & (in->nr_slots - 1);
	for (;;) {
		struct pk_intern_slot *s = &in->slots[j];
		if (!s->off)
			return s;
		if (s->hash == h && s->len == n && !memcmp(in->buf.data + s->off - 1, p, n))
			return s;
		j = (j + 1) & (in->nr_slots - 1);
	}
}

long pk_intern__find(const struct pk_intern *in, const void *p, size_t n)
{
	struct pk_intern_slot *s = lookup(in, p, n, hash_bytes(p, n));
	return s && s->off ? (long)s->off - 1 : -1;
}

long pk_intern__add(struct pk_intern *in, const void *p, size_t n, int nul)
{
	uint32_t h = hash_bytes(p, n);
	if ((in->used + 1) * 2 > in->nr_slots && grow(in))
		return -1;
	struct pk_intern_slot *s = lookup(in, p, n, h);
	if (s->off)
		return (long)s->off - 1;
	long off = pk_buf__append(&in->buf, p, n);
	if (off < 0 || (nul && pk_buf__append(&in->buf, "", 1) < 0))
		return -1;
	s->off = (uint32_t)off + 1;
	s->len = (uint32_t)n;
	s->hash = h;
	in->used++;
	return off;
}

void pk_intern__free(struct pk_intern *in)
{
	pk_buf__free(&in->buf);
	free(in->slots);
	in->slots = NULL;
	in->nr_slots = in->used = 0;
}
