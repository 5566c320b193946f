/* SPDX-License-Identifier: MIT */
/*
 * util/bsearch.h — the library's one binary search. libc's bsearch says
 * whether a key is present; lookups by name, id or address also want where
 * it would go. pk_bsearch returns that place: the first element of a sorted
 * array for which before(elem, key) is false. With before = "elem < key" it
 * is the first element not below key (an exact match is there when there is
 * one); with "elem <= key", one past the last element at or below key.
 *
 * Inline: a lookup on a hot path gets its predicate inlined too.
 */
#ifndef PMUKIT_UTIL_BSEARCH_H
#define PMUKIT_UTIL_BSEARCH_H

#include <stdbool.h>
#include <stddef.h>

/* before must be true for a prefix of base[0..nr) and false for the rest. */
static inline size_t pk_bsearch(const void *key, const void *base, size_t nr, size_t size,
				bool (*before)(const void *elem, const void *key))
{
	size_t lo = 0, hi = nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (before((const char *)base + mid * size, key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
