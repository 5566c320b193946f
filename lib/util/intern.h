/* SPDX-License-Identifier: MIT */
/*
 * util/intern.h — store byte strings once: an append-only pk_buf plus an
 * open-addressing hash set over what was stored. Used by the image builder
 * for strings, descriptions and event records.
 */
#ifndef PMUKIT_UTIL_INTERN_H
#define PMUKIT_UTIL_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

struct pk_intern_slot {
	uint32_t off;		/* offset in buf + 1; 0 = empty */
	uint32_t len;
	uint32_t hash;
};

struct pk_intern {
	struct pk_buf buf;
	struct pk_intern_slot *slots;
	size_t nr_slots, used;
};

/*
 * Offset of an identical byte run already stored, else append p[0..n) (and a
 * NUL when nul is set) and return its offset. -1 on ENOMEM.
 */
long pk_intern__add(struct pk_intern *in, const void *p, size_t n, int nul);
/* Look up without adding; -1 when absent. */
long pk_intern__find(const struct pk_intern *in, const void *p, size_t n);
void pk_intern__free(struct pk_intern *in);

#endif
