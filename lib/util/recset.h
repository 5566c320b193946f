/* SPDX-License-Identifier: MIT */
/*
 * util/recset.h — a set of fixed-size records numbered densely in the order
 * they were first added: interning of frames, stack nodes, threads and
 * aggregation keys (lib/export). Records are kept in one array; an
 * open-addressing table of ids finds them by a hash over their 64-bit words
 * (well mixed, so records that differ in one small field spread out).
 * Padding bytes take part: zero records before filling them.
 */
#ifndef PMUKIT_UTIL_RECSET_H
#define PMUKIT_UTIL_RECSET_H

#include <stddef.h>
#include <stdint.h>

struct pk_recset {
	size_t size;		/* bytes per record */
	unsigned char *recs;
	uint32_t *hash;		/* per record */
	size_t nr, cap;
	uint64_t *slots;	/* hash << 32 | (id + 1); 0 = empty */
	size_t nr_slots;
};

/* An empty set of records of `size` bytes (no allocation until the first add). */
void pk_recset__init(struct pk_recset *s, size_t size);
/* The id of an identical record, else rec copied in under the next id; -1 on ENOMEM. */
int64_t pk_recset__add(struct pk_recset *s, const void *rec);
/* The id of an identical record, -1 when absent. */
int64_t pk_recset__find(const struct pk_recset *s, const void *rec);
void pk_recset__free(struct pk_recset *s);

static inline size_t pk_recset__nr(const struct pk_recset *s)
{
	return s->nr;
}

static inline const void *pk_recset__get(const struct pk_recset *s, size_t id)
{
	return s->recs + id * s->size;
}

#endif
