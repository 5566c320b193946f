/* SPDX-License-Identifier: MIT */
/*
 * util/edit_distance.h — the library's one edit distance, for "did you mean"
 * hints and nearest-CPU matches: Levenshtein (insert, delete, replace), with
 * adjacent swaps counted as one edit when asked (optimal string alignment) and
 * ASCII case folded when asked.
 */
#ifndef PMUKIT_UTIL_EDIT_DISTANCE_H
#define PMUKIT_UTIL_EDIT_DISTANCE_H

#include <stddef.h>

enum {
	PK_EDIT_NOCASE = 1,	/* 'A'..'Z' equal 'a'..'z' */
	PK_EDIT_SWAPS = 2,	/* "ab" -> "ba" is one edit */
};

/*
 * The distance between a[0..na) and b[0..nb). Once it must exceed limit, some
 * value > limit is returned early (SIZE_MAX: no limit). SIZE_MAX on ENOMEM
 * (b longer than a few hundred bytes takes heap rows).
 */
size_t pk_edit_distance(const char *a, size_t na, const char *b, size_t nb, unsigned flags,
			size_t limit);

#endif
