/* SPDX-License-Identifier: MIT */
/* util/edit_distance.c — pk_edit_distance: three rolling rows of the distance matrix. */
#include "util/edit_distance.h"

#include <stdint.h>
#include <stdlib.h>

#define STACK_COLS 257	/* rows on the stack up to this many columns (nb + 1) */

static unsigned char fold(unsigned char c, unsigned flags)
{
	return (flags & PK_EDIT_NOCASE) && c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

size_t pk_edit_distance(const char *a, size_t na, const char *b, size_t nb, unsigned flags,
			size_t limit)
{
	size_t stack[3][STACK_COLS], *heap = NULL;
	size_t *prev2 = stack[0], *prev = stack[1], *cur = stack[2];	/* rows i-2, i-1, i */
	if (nb >= STACK_COLS) {
		if (nb > SIZE_MAX / 3 / sizeof(*heap) - 1 || !(heap = malloc(3 * (nb + 1) * sizeof(*heap))))
			return SIZE_MAX;
		prev2 = heap;
		prev = heap + nb + 1;
		cur = heap + 2 * (nb + 1);
	}
	for (size_t j = 0; j <= nb; j++)
		prev[j] = j;
	size_t last_min = 0;
	for (size_t i = 1; i <= na; i++) {
		unsigned char ca = fold((unsigned char)a[i - 1], flags);
		cur[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			unsigned char cb = fold((unsigned char)b[j - 1], flags);
			size_t d = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb));
			if ((flags & PK_EDIT_SWAPS) && i > 1 && j > 1 &&
			    ca == fold((unsigned char)b[j - 2], flags) &&
			    fold((unsigned char)a[i - 2], flags) == cb && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		size_t row_min = SIZE_MAX;
		for (size_t j = 0; j <= nb; j++)
			row_min = cur[j] < row_min ? cur[j] : row_min;
		/* later rows derive from the last two (swaps reach back two): both above limit */
		if (row_min > limit && last_min > limit) {
			free(heap);
			return row_min;
		}
		last_min = row_min;
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	size_t d = prev[nb];
	free(heap);
	return d;
}
