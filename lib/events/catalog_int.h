/* SPDX-License-Identifier: MIT */
/*
 * events/catalog_int.h — lookups inside the library that need less than a
 * whole struct pk_event (the spec encoder asks them for every event).
 */
#ifndef PMUKIT_EVENTS_CATALOG_INT_H
#define PMUKIT_EVENTS_CATALOG_INT_H

#include <stddef.h>
#include <stdint.h>

#include <pmukit/events.h>

/* pk_catalog__find_event, hash being pk_hash__casefold(name) (util/hash.h). */
int pk_catalog__find_event_hashed(const struct pk_catalog *c, size_t mi, const char *name,
				  uint32_t hash, const char *pmu, size_t *first, size_t *count);

/* The name, encoding and desc of event idx of model mi (as pk_catalog__event); 0 or -ENOENT. */
int pk_catalog__event_text(struct pk_catalog *c, size_t mi, size_t idx, const char **name,
			   const char **encoding, const char **desc);

/* The PMU field of event idx of model mi, or NULL when out of range. */
const char *pk_catalog__event_pmu(const struct pk_catalog *c, size_t mi, size_t idx);

#endif
