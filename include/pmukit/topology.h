/* SPDX-License-Identifier: MIT */
/*
 * pmukit/topology.h — the CPU topology under a sysfs CPU root
 * (/sys/devices/system/cpu or a fake tree): socket, die, cluster and core of
 * each CPU, the facts metric expressions use (#smt_on, #num_cpus,
 * #num_cpus_online, #num_packages, #num_dies, #num_cores), and perf stat's
 * aggregation of CPUs into cores, clusters, dies and sockets with its labels.
 *
 *   struct pk_topology *t;
 *   pk_topology__read(&t, NULL, &err);
 *   struct pk_aggr_id *ids; size_t n;
 *   pk_topology__aggr_ids(t, PK_STAT_AGGR_CORE, pk_topology__online(t), &ids, &n);
 *   for (size_t i = 0; i < n; i++)
 *           puts(pk_aggr_id__format(&ids[i], PK_STAT_AGGR_CORE, buf, sizeof(buf)));  // "S0-D0-C1"
 *   free(ids);
 *   pk_topology__free(t);
 */
#ifndef PMUKIT_TOPOLOGY_H
#define PMUKIT_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/api.h>
#include <pmukit/cpumap.h>
#include <pmukit/error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pk_topology;

/* Where a CPU is, as ROOT/cpuN/topology/ says; -1 where unknown. */
struct pk_cpu_topo {
	int socket;		/* physical_package_id; -1 when the file is missing (as perf) */
	int die;		/* die_id; 0 when missing (perf: no die_id on older kernels) */
	int cluster;		/* cluster_id; 0 when missing (as perf) */
	int core;		/* core_id, relative to its die; -1 when missing */
};

/*
 * Read ROOT (NULL: PK_CPU_ROOT_DEFAULT): ROOT/online (required), ROOT/present
 * (missing: the online CPUs), ROOT/smt/active (optional) and, for every
 * present CPU, ROOT/cpuN/topology/{physical_package_id,die_id,cluster_id,
 * core_id}. A CPU without a topology directory (the kernel removes it while
 * the CPU is offline) has no topology. Errors: those of pk_cpu_map__online
 * (-ENOENT with err naming ROOT/online, -EINVAL), -ENOMEM.
 */
PK_API int pk_topology__read(struct pk_topology **out, const char *root, struct pk_error *err);
PK_API void pk_topology__free(struct pk_topology *t);

PK_API const struct pk_cpu_map *pk_topology__online(const struct pk_topology *t);
PK_API const struct pk_cpu_map *pk_topology__present(const struct pk_topology *t);
/* cpu's place; -ENOENT (out untouched) when cpu has no topology (not present, or offline). */
PK_API int pk_topology__cpu(const struct pk_topology *t, int cpu, struct pk_cpu_topo *out);

/*
 * Facts over the online CPUs with a topology, as perf's metric literals:
 * smt_on: ROOT/smt/active reads 1 (when readable), else some core has more
 *         than one online CPU (#smt_on);
 * nr_packages / nr_dies / nr_cores: distinct sockets, (socket, die) and
 *         (socket, die, cluster, core) (#num_packages, #num_dies, #num_cores);
 * num_cpus: the highest present CPU + 1 (perf's cpu__max_present_cpu, #num_cpus);
 * num_cpus_online: online CPUs (#num_cpus_online).
 */
PK_API bool pk_topology__smt_on(const struct pk_topology *t);
PK_API unsigned pk_topology__nr_packages(const struct pk_topology *t);
PK_API unsigned pk_topology__nr_dies(const struct pk_topology *t);
PK_API unsigned pk_topology__nr_cores(const struct pk_topology *t);
PK_API unsigned pk_topology__num_cpus(const struct pk_topology *t);
PK_API unsigned pk_topology__num_cpus_online(const struct pk_topology *t);

/* perf stat's aggregation modes. */
enum pk_stat_aggr {
	PK_STAT_AGGR_GLOBAL,		/* one total (default) */
	PK_STAT_AGGR_CPU,		/* -A / --no-aggr: per CPU, "CPU3" (perf's AGGR_NONE) */
	PK_STAT_AGGR_CORE,		/* --per-core: "S0-D0-C1" */
	PK_STAT_AGGR_CLUSTER,	/* --per-cluster: "S0-D0-CLS0" */
	PK_STAT_AGGR_DIE,		/* --per-die: "S0-D1" */
	PK_STAT_AGGR_SOCKET,		/* --per-socket: "S0" */
	PK_STAT_AGGR_THREAD,		/* --per-thread: per counted thread (no topology) */
};

/*
 * An aggregation key, perf's aggr_cpu_id: the fields a mode uses are set,
 * the others -1. CPU: socket, die, cluster, core, cpu; CORE: socket, die,
 * cluster, core (cluster keys it although the label omits it, as perf);
 * CLUSTER: socket, die, cluster; DIE: socket, die; SOCKET: socket; THREAD:
 * thread (a slot of pk_counter__thread); GLOBAL: none.
 */
struct pk_aggr_id {
	int socket, die, cluster, core, cpu, thread;
};

/* cpu's key in mode (a CPU without topology gets -1 fields, cpu still set in PK_STAT_AGGR_CPU). */
PK_API struct pk_aggr_id pk_topology__aggr_id(const struct pk_topology *t, enum pk_stat_aggr mode,
					      int cpu);
PK_API bool pk_aggr_id__equal(const struct pk_aggr_id *a, const struct pk_aggr_id *b);
/*
 * The distinct keys of the CPUs of map in mode, in perf's print order: by CPU
 * for PK_STAT_AGGR_CPU, else by socket, die, cluster, core. *ids is malloc'd
 * (free() it; NULL when *nr is 0). PK_STAT_AGGR_GLOBAL gives one key. -EINVAL for
 * PK_STAT_AGGR_THREAD (threads are the counter's, not the topology's), -ENOMEM.
 */
PK_API int pk_topology__aggr_ids(const struct pk_topology *t, enum pk_stat_aggr mode,
				 const struct pk_cpu_map *map, struct pk_aggr_id **ids, size_t *nr);
/*
 * perf's label of a key: "CPU3", "S0-D0-C1", "S0-D0-CLS0", "S0-D1", "S0";
 * for PK_STAT_AGGR_THREAD the slot number (perf prints "COMM-TID": see
 * pk_counter__thread and pk_thread__comm); "" for PK_STAT_AGGR_GLOBAL. Returns buf.
 */
PK_API const char *pk_aggr_id__format(const struct pk_aggr_id *id, enum pk_stat_aggr mode,
				      char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
