/* SPDX-License-Identifier: MIT */
/* util/grow.c — pk_grow's reallocation: the capacity policy and the overflow checks. */
#include "util/grow.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first heap allocation holds at least this many bytes (or one element). */
#define GROW_MIN_BYTES 64

int pk_grow__realloc(void *pp, size_t *cap, size_t need, size_t elem, const void *first)
{
	if (need <= *cap)
		return 0;
	/* malloc never returns an object larger than PTRDIFF_MAX bytes */
	size_t max = elem ? (size_t)PTRDIFF_MAX / elem : 0;
	if (need > max)
		return -ENOMEM;
	size_t ncap = *cap > max / 2 ? max : *cap * 2;
	if (ncap < need)
		ncap = need;
	if (ncap * elem < GROW_MIN_BYTES)
		ncap = elem < GROW_MIN_BYTES ? GROW_MIN_BYTES / elem : 1;
	void *p, *np;
	memcpy(&p, pp, sizeof(p));	/* pp is a T **: read it as bytes, not through void ** */
	bool own = !first || p != first;
	np = own ? realloc(p, ncap * elem) : malloc(ncap * elem);
	if (!np && ncap > need) {	/* the doubled size may be what does not fit */
		ncap = need;
		np = own ? realloc(p, ncap * elem) : malloc(ncap * elem);
	}
	if (!np)
		return -ENOMEM;
	if (!own && *cap)
		memcpy(np, p, *cap * elem);
	memcpy(pp, &np, sizeof(np));
	*cap = ncap;
	return 0;
}
