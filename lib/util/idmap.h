/* SPDX-License-Identifier: MIT */
/*
 * util/idmap.h — an open-addressing hash map from 64-bit keys to 32-bit
 * values, for interning keys to dense indexes on hot paths (report's
 * entries and callchain trees): get-or-insert in one probe sequence, 16-byte
 * slots, tables at most half full, no allocation per insert. (util/u64map.h
 * is the general u64 -> u64 map.)
 */
#ifndef PMUKIT_UTIL_IDMAP_H
#define PMUKIT_UTIL_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct pk_idmap_slot {
	uint64_t key;
	uint32_t val;		/* value + 1; 0: empty */
	uint32_t pad;
};

struct pk_idmap {
	struct pk_idmap_slot *slots;
	size_t mask;		/* nr_slots - 1 (0 when none) */
	size_t used;
};

static inline size_t pk_idmap__hash(uint64_t key)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ull;
	key ^= key >> 29;
	return (size_t)key;
}

/* The value of key, or -1 when absent. */
static inline int64_t pk_idmap__get(const struct pk_idmap *m, uint64_t key)
{
	if (!m->slots)
		return -1;
	for (size_t i = pk_idmap__hash(key) & m->mask;; i = (i + 1) & m->mask) {
		const struct pk_idmap_slot *s = &m->slots[i];
		if (!s->val)
			return -1;
		if (s->key == key)
			return (int64_t)s->val - 1;
	}
}

/*
 * The value of key if present (*added = 0), else store val (*added = 1) and
 * return it. -1 on ENOMEM. val must be below UINT32_MAX.
 */
int64_t pk_idmap__get_or_put(struct pk_idmap *m, uint64_t key, uint32_t val, int *added);
/* Make room for n entries in all without growing later. 0 or -ENOMEM. */
int pk_idmap__reserve(struct pk_idmap *m, size_t n);
void pk_idmap__free(struct pk_idmap *m);

#endif
