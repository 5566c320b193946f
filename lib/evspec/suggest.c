/* SPDX-License-Identifier: MIT */
/*
 * evspec/suggest.c — closest-name suggestions: the candidate nearest by
 * util/edit_distance.h's optimal string alignment distance (Levenshtein plus
 * adjacent swaps), ASCII case-insensitive.
 */
#include "evspec/suggest.h"

#include <stdint.h>
#include <string.h>

#include "util/edit_distance.h"

#define MAX_LEN 256

const char *spec_suggest(const char *word, const char *const *candidates, size_t n)
{
	if (!word || !candidates)
		return NULL;
	size_t wlen = strlen(word);
	if (wlen == 0 || wlen > MAX_LEN)
		return NULL;
	size_t limit = wlen / 3 > 2 ? wlen / 3 : 2;
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		const char *c = candidates[i];
		if (!c)
			continue;
		size_t clen = strlen(c);
		size_t diff = clen > wlen ? clen - wlen : wlen - clen;
		if (clen > MAX_LEN || diff > limit || diff >= best_d)
			continue;
		size_t d = pk_edit_distance(word, wlen, c, clen, PK_EDIT_NOCASE | PK_EDIT_SWAPS,
					    best_d < limit ? best_d : limit);
		size_t longer = clen > wlen ? clen : wlen;
		if (d <= limit && d < longer && d < best_d) {
			best = c;
			best_d = d;
		}
	}
	return best;
}
