/* SPDX-License-Identifier: MIT */
/* util/strmap.c — string -> size_t map (see strmap.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/strmap.h"

static size_t hash(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return (size_t)h;
}

static struct pk_strmap_slot *find(const struct pk_strmap *m, const char *key)
{
	size_t mask = m->cap - 1;
	for (size_t i = hash(key) & mask;; i = (i + 1) & mask) {
		struct pk_strmap_slot *s = &m->slots[i];
		if (!s->key || !strcmp(s->key, key))
			return s;
	}
}

int pk_strmap__get(const struct pk_strmap *m, const char *key, size_t *val)
{
	if (!m->cap)
		return -ENOENT;
	const struct pk_strmap_slot *s = find(m, key);
	if (!s->key)
		return -ENOENT;
	*val = s->val;
	return 0;
}

static int grow(struct pk_strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	if (cap < m->cap || cap > SIZE_MAX / sizeof(struct pk_strmap_slot))
		return -ENOMEM;
	struct pk_strmap n = { .slots = calloc(cap, sizeof(*n.slots)), .cap = cap, .nr = m->nr };
	if (!n.slots)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*find(&n, m->slots[i].key) = m->slots[i];
	free(m->slots);
	*m = n;
	return 0;
}

int pk_strmap__set(struct pk_strmap *m, const char *key, size_t val)
{
	if ((m->nr + 1) * 4 > m->cap * 3) {	/* at most 3/4 full */
		int r = grow(m);
		if (r)
			return r;
	}
	struct pk_strmap_slot *s = find(m, key);
	if (!s->key) {
		s->key = key;
		m->nr++;
	}
	s->val = val;
	return 0;
}

void pk_strmap__free(struct pk_strmap *m)
{
	free(m->slots);
	*m = (struct pk_strmap){ 0 };
}
