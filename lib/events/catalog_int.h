/* SPDX-License-Identifier: MIT */
/*
 * events/catalog_int.h — lookups inside the library that need less than a
 * whole struct pk_event (the spec encoder asks them for every event).
 */
#ifndef PMUKIT_EVENTS_CATALOG_INT_H
#define PMUKIT_EVENTS_CATALOG_INT_H

#include <stddef.h>

#include <pmukit/events.h>

/* The PMU field of event idx of model mi, or NULL when out of range. */
const char *pk_catalog__event_pmu(const struct pk_catalog *c, size_t mi, size_t idx);

#endif
