/* SPDX-License-Identifier: MIT */
/*
 * place.c — which CPUs an event is opened on when counting on a CPU map:
 * uncore PMUs on their cpumask, hybrid/heterogeneous core PMUs on their
 * cpus, everything else on every CPU of the map (perf 6.12's
 * __perf_evlist__propagate_maps).
 */
#include <errno.h>

#include <pmukit/count.h>

#include "count/count_int.h"

/* The PMU's own CPU list, or NULL when it has none or it does not parse. */
static struct pk_cpu_map *pmu_map(const char *list)
{
	struct pk_cpu_map *m = NULL;
	if (!list || pk_cpu_map__parse(&m, list, NULL))
		return NULL;
	return m;
}

int pk_count__event_cpus(const struct pk_pmu *pmu, const struct pk_cpu_map *map, bool cpu_list,
			 struct pk_cpu_map **out)
{
	struct pk_cpu_map *own = pmu ? pmu_map(pk_pmu__cpus(pmu)) : NULL;
	int ret = 0;

	*out = NULL;
	if (!own)
		*out = pk_cpu_map__dup(map);
	else if (pk_pmu__is_uncore(pmu))
		*out = cpu_list ? pk_cpu_map__dup(map) : pk_cpu_map__dup(own);
	else
		ret = pk_cpu_map__intersect(map, own, out);
	pk_cpu_map__free(own);
	if (!ret && !*out)
		ret = -ENOMEM;
	return ret;
}
