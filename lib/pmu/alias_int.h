/* SPDX-License-Identifier: MIT */
/*
 * pmu/alias_int.h — pk_alias__find for callers that already looked the name
 * up in the model's table (the spec encoder does, to find the PMUs an event
 * name lands on), so that the lookup is not repeated per PMU.
 */
#ifndef PMUKIT_PMU_ALIAS_INT_H
#define PMUKIT_PMU_ALIAS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/alias.h>

/* pk_catalog__find_event(cat, model, name, NULL, &first, &count) == 0, and its answer. */
struct pk_alias_range {
	bool found;
	size_t first, count;
};

/* pk_alias__find, with range the model's lookup of name (NULL: look it up). */
int pk_alias__find_in(const struct pk_pmu *pmu, struct pk_catalog *cat, size_t model,
		      const char *name, const struct pk_alias_range *range, struct pk_alias *out);

#endif
