/* SPDX-License-Identifier: MIT */
/*
 * util/strmap.h — a map from NUL-terminated strings to size_t values: open
 * addressing, FNV-1a, keys not copied (the caller keeps them alive).
 */
#ifndef PMUKIT_UTIL_STRMAP_H
#define PMUKIT_UTIL_STRMAP_H

#include <stddef.h>

struct pk_strmap_slot {
	const char *key;	/* NULL: empty */
	size_t val;
};

struct pk_strmap {
	struct pk_strmap_slot *slots;
	size_t cap, nr;		/* cap: 0 or a power of two */
};

/* The value of key in *val: 0, or -ENOENT. */
int pk_strmap__get(const struct pk_strmap *m, const char *key, size_t *val);
/* Set key to val (replacing its value when present): 0 or -ENOMEM. */
int pk_strmap__set(struct pk_strmap *m, const char *key, size_t val);
void pk_strmap__free(struct pk_strmap *m);

#endif
