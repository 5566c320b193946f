/* SPDX-License-Identifier: MIT */
/* util/u64map.c — the u64 → u64 hash map of util/u64map.h. */
#include "util/u64map.h"

#include <errno.h>
#include <stdlib.h>

uint64_t *pk_u64map__find(const struct pk_u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	for (size_t i = pk_u64map__hash(key) & mask;; i = (i + 1) & mask) {
		struct pk_u64map_slot *s = &m->slots[i];
		if (!s->used)
			return NULL;
		if (s->key == key)
			return &s->val;
	}
}

static void put(struct pk_u64map_slot *slots, size_t cap, uint64_t key, uint64_t val)
{
	size_t mask = cap - 1;
	size_t i = pk_u64map__hash(key) & mask;
	while (slots[i].used && slots[i].key != key)
		i = (i + 1) & mask;
	slots[i].used = true;
	slots[i].key = key;
	slots[i].val = val;
}

int pk_u64map__set(struct pk_u64map *m, uint64_t key, uint64_t val)
{
	uint64_t *v = pk_u64map__find(m, key);
	if (v) {
		*v = val;
		return 0;
	}
	if ((m->nr + 1) * 4 > m->cap * 3) {
		size_t ncap = m->cap ? m->cap * 2 : 64;
		if (ncap < m->cap)
			return -ENOMEM;
		struct pk_u64map_slot *ns = calloc(ncap, sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i].used)
				put(ns, ncap, m->slots[i].key, m->slots[i].val);
		free(m->slots);
		m->slots = ns;
		m->cap = ncap;
	}
	put(m->slots, m->cap, key, val);
	m->nr++;
	return 0;
}

void pk_u64map__free(struct pk_u64map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->nr = 0;
}
