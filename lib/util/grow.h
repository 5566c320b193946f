/* SPDX-License-Identifier: MIT */
/*
 * util/grow.h — the one way an array grows. pk_grow makes room for `need`
 * elements (at least doubling, so n appends cost O(n)) and fails with -ENOMEM,
 * never wrapping, when need elements would not fit in a size_t (or in an object
 * malloc can return).
 *
 *   if (PK_GROW(v->items, v->cap, v->nr + 1))
 *           return -ENOMEM;
 *   v->items[v->nr++] = item;
 *
 * An array that starts in storage of its own (an inline or stack array, not
 * malloc'd) grows with PK_GROW_FROM(p, cap, need, first): while p is still
 * `first`, growing copies it to the heap instead of reallocating it.
 */
#ifndef PMUKIT_UTIL_GROW_H
#define PMUKIT_UTIL_GROW_H

#include <stddef.h>

/*
 * The slow half of pk_grow: (re)allocates. When *pp == first (not NULL), the
 * array is not the heap's: a new one is allocated and the *cap elements copied.
 * Called directly only for arrays whose element size is known at run time.
 */
int pk_grow__realloc(void *pp, size_t *cap, size_t need, size_t elem, const void *first);

/*
 * pp is the address of a pointer to *cap elements of elem bytes (T **, NULL
 * allowed when *cap is 0). When need > *cap, the array is reallocated to at
 * least need elements and *cap updated; the new elements are uninitialised.
 * 0, or -ENOMEM with the array and *cap unchanged.
 */
static inline int pk_grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	return need <= *cap ? 0 : pk_grow__realloc(pp, cap, need, elem, NULL);
}

/* pk_grow on an array lvalue p (T *) and its size_t capacity lvalue cap. */
#define PK_GROW(p, cap, need) pk_grow(&(p), &(cap), (need), sizeof(*(p)))
/* The same for an array that starts in `first` (see above). */
#define PK_GROW_FROM(p, cap, need, first) \
	((need) <= (cap) ? 0 : pk_grow__realloc(&(p), &(cap), (need), sizeof(*(p)), (first)))

#endif
