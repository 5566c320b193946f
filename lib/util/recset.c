/* SPDX-License-Identifier: MIT */
/* util/recset.c — interned fixed-size records (see recset.h): multiply-mix hash, linear probing. */
#include "util/grow.h"
#include "util/recset.h"

#include <stdlib.h>
#include <string.h>

void pk_recset__init(struct pk_recset *s, size_t size)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
}

static uint32_t hash_rec(const void *rec, size_t size)
{
	const unsigned char *p = rec;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ size;
	size_t i = 0;
	for (; i + 8 <= size; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (i < size) {
		uint64_t w = 0;
		memcpy(&w, p + i, size - i);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
	}
	h ^= h >> 33;	/* fmix64 */
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

static size_t probe(const struct pk_recset *s, const void *rec, uint32_t h)
{
	size_t mask = s->nr_slots - 1, j = h & mask;
	for (;; j = (j + 1) & mask) {
		uint64_t v = s->slots[j];
		if (!v)
			return j;
		if ((uint32_t)(v >> 32) == h) {
			size_t id = (uint32_t)v - 1;
			if (!memcmp(s->recs + id * s->size, rec, s->size))
				return j;
		}
	}
}

static int rehash(struct pk_recset *s)
{
	size_t n = s->nr_slots ? s->nr_slots * 2 : 1024;
	uint64_t *slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -1;
	for (size_t id = 0; id < s->nr; id++) {
		size_t j = s->hash[id] & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint64_t)s->hash[id] << 32 | (uint32_t)(id + 1);
	}
	free(s->slots);
	s->slots = slots;
	s->nr_slots = n;
	return 0;
}

int64_t pk_recset__find(const struct pk_recset *s, const void *rec)
{
	if (!s->nr_slots)
		return -1;
	uint64_t v = s->slots[probe(s, rec, hash_rec(rec, s->size))];
	return v ? (int64_t)(uint32_t)v - 1 : -1;
}

int64_t pk_recset__add(struct pk_recset *s, const void *rec)
{
	if ((s->nr + 1) * 2 > s->nr_slots && rehash(s))
		return -1;
	uint32_t h = hash_rec(rec, s->size);
	size_t j = probe(s, rec, h);
	if (s->slots[j])
		return (int64_t)(uint32_t)s->slots[j] - 1;
	if (s->nr >= UINT32_MAX - 1)
		return -1;
	if (s->nr == s->cap) {	/* two arrays, one capacity: the same policy gives both the same */
		size_t cap_recs = s->cap, cap_hash = s->cap;
		if (pk_grow(&s->recs, &cap_recs, s->nr + 1, s->size) ||
		    PK_GROW(s->hash, cap_hash, s->nr + 1))
			return -1;
		s->cap = cap_recs < cap_hash ? cap_recs : cap_hash;
	}
	memcpy(s->recs + s->nr * s->size, rec, s->size);
	s->hash[s->nr] = h;
	s->slots[j] = (uint64_t)h << 32 | (uint32_t)(s->nr + 1);
	return (int64_t)s->nr++;
}

void pk_recset__free(struct pk_recset *s)
{
	free(s->recs);
	free(s->hash);
	free(s->slots);
	memset(s, 0, sizeof(*s));
}
