/* SPDX-License-Identifier: MIT */
/*
 * util/u64map.h — an open-addressing hash map from u64 keys to u64 values
 * (linear probing, power-of-two table, no deletion but overwrite). Used by
 * the session for tids and other integer-keyed lookups.
 */
#ifndef PMUKIT_UTIL_U64MAP_H
#define PMUKIT_UTIL_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pk_u64map_slot {
	uint64_t key, val;
	bool used;
};

struct pk_u64map {
	struct pk_u64map_slot *slots;
	size_t cap, nr;		/* cap: 0 or a power of two */
};

/* Mix a u64 into a well-spread hash (splitmix64's finalizer). */
static inline uint64_t pk_u64map__hash(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

/* The value of key, or NULL when absent. */
uint64_t *pk_u64map__find(const struct pk_u64map *m, uint64_t key);
/* Set key to val (insert or overwrite); 0 or -ENOMEM. */
int pk_u64map__set(struct pk_u64map *m, uint64_t key, uint64_t val);
void pk_u64map__free(struct pk_u64map *m);

#endif
