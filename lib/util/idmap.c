/* SPDX-License-Identifier: MIT */
/* util/idmap.c — open-addressing u64 -> u32 hash map (see idmap.h). */
#include "util/idmap.h"

#include <errno.h>
#include <stdlib.h>

static int rehash(struct pk_idmap *m, size_t nr_slots)
{
	struct pk_idmap_slot *s = calloc(nr_slots, sizeof(*s));
	if (!s)
		return -ENOMEM;
	size_t mask = nr_slots - 1;
	if (m->slots) {
		for (size_t i = 0; i <= m->mask; i++) {
			const struct pk_idmap_slot *o = &m->slots[i];
			if (!o->val)
				continue;
			size_t j = pk_idmap__hash(o->key) & mask;
			while (s[j].val)
				j = (j + 1) & mask;
			s[j] = *o;
		}
	}
	free(m->slots);
	m->slots = s;
	m->mask = mask;
	return 0;
}

int pk_idmap__reserve(struct pk_idmap *m, size_t n)
{
	size_t cur = m->slots ? m->mask + 1 : 0;
	size_t want = cur ? cur : 64;
	while (want / 2 < n) {
		if (want > SIZE_MAX / 4)
			return -ENOMEM;
		want *= 2;
	}
	return want == cur ? 0 : rehash(m, want);
}

int64_t pk_idmap__get_or_put(struct pk_idmap *m, uint64_t key, uint32_t val, int *added)
{
	if ((!m->slots || (m->used + 1) * 2 > m->mask + 1) && pk_idmap__reserve(m, m->used + 1))
		return -1;
	for (size_t i = pk_idmap__hash(key) & m->mask;; i = (i + 1) & m->mask) {
		struct pk_idmap_slot *s = &m->slots[i];
		if (!s->val) {
			s->key = key;
			s->val = val + 1;
			m->used++;
			*added = 1;
			return val;
		}
		if (s->key == key) {
			*added = 0;
			return (int64_t)s->val - 1;
		}
	}
}

void pk_idmap__free(struct pk_idmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->mask = 0;
	m->used = 0;
}
