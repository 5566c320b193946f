/* SPDX-License-Identifier: MIT */
/*
 * util/hash.h — the name hash shared by the tables image (event and metric
 * lookup, case-insensitive) and the PMU tree's derived indexes, so that the
 * spec encoder hashes an event name once for both.
 */
#ifndef PMUKIT_UTIL_HASH_H
#define PMUKIT_UTIL_HASH_H

#include <stdint.h>

/* FNV-1a over s with ASCII letters folded to lower case. */
static inline uint32_t pk_hash__casefold(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		h = (h ^ c) * 16777619u;
	}
	return h;
}

#endif
