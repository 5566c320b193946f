/* SPDX-License-Identifier: MIT */
/*
 * spec/suggest.c — closest-name suggestions: optimal string alignment
 * distance (Levenshtein plus adjacent swaps), ASCII case-insensitive.
 */
#include "spec/suggest.h"

#include <stdint.h>
#include <string.h>

#define MAX_LEN 256

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* The distance, or any value > limit as soon as no alignment can stay within limit. */
static size_t distance_within(const char *a, const char *b, size_t limit)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > MAX_LEN || m > MAX_LEN)
		return SIZE_MAX;
	/* three rolling rows: i-2, i-1, i */
	size_t rows[3][MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	size_t last_min = 0;
	for (size_t i = 1; i <= n; i++) {
		unsigned char ca = lower((unsigned char)a[i - 1]);
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			unsigned char cb = lower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;
			size_t d = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && ca == lower((unsigned char)b[j - 2]) &&
			    lower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		size_t row_min = SIZE_MAX;
		for (size_t j = 0; j <= m; j++)
			row_min = cur[j] < row_min ? cur[j] : row_min;
		/* later rows derive from the last two (swaps reach back two): both above limit */
		if (row_min > limit && last_min > limit)
			return row_min;
		last_min = row_min;
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[m];
}

size_t spec_edit_distance(const char *a, const char *b)
{
	return distance_within(a, b, SIZE_MAX);
}

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
		size_t d = distance_within(word, c, best_d < limit ? best_d : limit);
		size_t longer = clen > wlen ? clen : wlen;
		if (d <= limit && d < longer && d < best_d) {
			best = c;
			best_d = d;
		}
	}
	return best;
}
