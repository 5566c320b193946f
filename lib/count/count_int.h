/* SPDX-License-Identifier: MIT */
/* count/count_int.h — helpers shared by the files of lib/count (not public). */
#ifndef PMUKIT_COUNT_INT_H
#define PMUKIT_COUNT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmukit/count.h>
#include <pmukit/cpumap.h>
#include <pmukit/error.h>

/* One fd of an event: its CPU slot x thread slot, and its last two cumulative readings. */
struct cnt_fd {
	int fd;				/* -1: not opened there */
	uint64_t cur[3], prev[3];	/* value, enabled, running */
};

struct cnt_ev {
	const char *name;
	size_t leader;			/* evlist index of its leader */
	uint64_t read_format;
	bool supported;
	bool per_pkg;			/* pk_evsel.per_pkg: summed over CPUs once per package */
	int open_errno;			/* not supported: the errno */
	struct pk_cpu_map *cpus;	/* placement when counting on CPUs, else NULL */
	int cgroup_fd;			/* pk_count_opts.cgroups: counted in this cgroup, or -1 */
	struct cnt_fd *fds;		/* [cpu_slot * nr_threads + thread_slot] */
};
#include "util/perf_open.h"

struct pk_counter {
	size_t nr;
	struct cnt_ev *ev;
	size_t nr_cpus;
	int *cpu;			/* CPU of each slot */
	struct pk_cpu_map *cpus;	/* the slots as a map; NULL per task */
	size_t nr_threads;
	pid_t *tid;			/* thread of each slot */
	long long *pkg;			/* per CPU slot: its package key, (die << 32) | socket, -1
					   unknown; NULL when no per-package event is counted on CPUs */
	uint64_t *buf;			/* read buffer, big enough for the largest group */
	size_t buf_words;
	struct pk_count_value *vals;	/* decoded group, max_group entries */
	size_t max_group;
	struct pk_open_state open_state;	/* features the kernel or a PMU lacks, learnt at open */
};

static inline struct cnt_fd *cnt_fd(const struct pk_counter *c, size_t ev, size_t cpu_slot,
				    size_t thread_slot)
{
	return &c->ev[ev].fds[cpu_slot * c->nr_threads + thread_slot];
}

/*
 * The package key of every CPU slot from t (c->pkg, allocated here): what the
 * per-package rule needs. 0 or -ENOMEM.
 */
int cnt_set_packages(struct pk_counter *c, const struct pk_topology *t);

/* pk_cpu_map__parse with file (or NULL) named in err. */
int pk_cpu_map_parse_in(const char *s, const char *file, struct pk_cpu_map **out,
			struct pk_error *err);
/*
 * pk_topology__read, plus what perf.data's CPU_TOPOLOGY section keeps (its writer's,
 * lib/data/writer/feat_topo.c): each present CPU's sibling lists as the kernel writes them
 * (pk_topology_cpu_list: NULL when missing) and its die_id as read (-1 when missing, where
 * pk_cpu_topo.die has perf stat's 0).
 */
enum pk_topo_list {
	PK_TOPO_PACKAGE_CPUS,	/* package_cpus_list, or the older core_siblings_list */
	PK_TOPO_DIE_CPUS,	/* die_cpus_list */
	PK_TOPO_CORE_CPUS,	/* core_cpus_list, or the older thread_siblings_list */
	PK_TOPO_NR_LISTS
};
int pk_topology_read_lists(struct pk_topology **out, const char *root, struct pk_error *err);
const char *pk_topology_cpu_list(const struct pk_topology *t, int cpu, enum pk_topo_list which);
int pk_topology_die_id(const struct pk_topology *t, int cpu);

/* Read at most len - 1 bytes of a small file into buf, terminated: the length or -errno. */
int pk_count_read_small(const char *path, char *buf, size_t len);
/* 1 when path is a directory, 0 when it is something else or absent, -errno on other errors. */
int pk_count_is_dir(const char *path);

#endif
