/* SPDX-License-Identifier: MIT */
/*
 * evspec/suggest.h — "did you mean" for unknown names in a spec (terms,
 * events, PMUs, modifiers): the closest candidate by edit distance.
 */
#ifndef PMUKIT_SPEC_SUGGEST_H
#define PMUKIT_SPEC_SUGGEST_H

#include <stddef.h>

/*
 * The candidate closest to word by edit distance (insert, delete, replace,
 * swap of two neighbours; ASCII case ignored), or NULL when none is close
 * enough: distance <= max(2, strlen(word) / 3) and less than the longer of
 * the two lengths (a complete rewrite is no suggestion). Ties go to the
 * earlier candidate. NULL entries are skipped; words or candidates longer
 * than 256 bytes are never matched.
 */
const char *spec_suggest(const char *word, const char *const *candidates, size_t n);

#endif
