/* SPDX-License-Identifier: MIT */
/*
 * pmukit/cpumap.h — sets of CPU numbers in perf's list syntax ("0-3,5,8-9"):
 * parsed from a user's -C list or a sysfs file (online, present, a PMU's
 * cpus/cpumask), searched, intersected, merged and printed back.
 *
 *   struct pk_cpu_map *m;
 *   if (pk_cpu_map__parse(&m, "0-3,8", &err))
 *           fprintf(stderr, "%s\n", err.msg);	// err.column - 1: offset of the bad byte
 *   for (size_t i = 0; i < pk_cpu_map__nr(m); i++)
 *           use(pk_cpu_map__cpu(m, i));
 *   pk_cpu_map__free(m);
 *
 * A map is immutable once made: sorted ascending, each CPU once, possibly
 * empty. The caller owns every map a function hands out.
 */
#ifndef PMUKIT_CPUMAP_H
#define PMUKIT_CPUMAP_H

#include <stdbool.h>
#include <stddef.h>

#include <pmukit/api.h>
#include <pmukit/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The sysfs CPU root: online, present, cpuN/topology/... */
#define PK_CPU_ROOT_DEFAULT "/sys/devices/system/cpu"
/* CPU numbers must be below this (kernel NR_CPUS is at most 8192 today). */
#define PK_CPU_MAX 65536

struct pk_cpu_map;

/*
 * Parse LIST := ITEM (',' ITEM)* [','], ITEM := N | N '-' N, N a decimal CPU
 * number < PK_CPU_MAX. As perf: a trailing comma is allowed, a CPU listed
 * twice (also through overlapping ranges) and a range whose end is below its
 * start are refused. Unlike perf, no hex, no white space, no empty item, and
 * nothing after a bad byte is ignored. Errors (-EINVAL, -ENOMEM): err->column
 * is the 1-based position of the offending byte (its offset + 1) and err->msg
 * says what was expected there, with the offset.
 */
PK_API int pk_cpu_map__parse(struct pk_cpu_map **out, const char *list, struct pk_error *err);
/*
 * Read a file holding a CPU list (sysfs online/present/cpus/cpumask): white
 * space around the list is ignored; an empty file gives an empty map. Errors:
 * -errno of open/read (err names the file), -EINVAL as pk_cpu_map__parse with
 * err->file set.
 */
PK_API int pk_cpu_map__read(struct pk_cpu_map **out, const char *path, struct pk_error *err);
/* ROOT/online (root NULL: PK_CPU_ROOT_DEFAULT), as pk_cpu_map__read. */
PK_API int pk_cpu_map__online(const char *root, struct pk_cpu_map **out, struct pk_error *err);
/* ROOT/present, as pk_cpu_map__read. */
PK_API int pk_cpu_map__present(const char *root, struct pk_cpu_map **out, struct pk_error *err);
/* A map of nr CPU numbers in any order, duplicates merged. -EINVAL for a CPU < 0 or >= PK_CPU_MAX. */
PK_API int pk_cpu_map__new(struct pk_cpu_map **out, const int *cpus, size_t nr);
/* A copy, or NULL when out of memory. */
PK_API struct pk_cpu_map *pk_cpu_map__dup(const struct pk_cpu_map *map);
PK_API void pk_cpu_map__free(struct pk_cpu_map *map);

/* Number of CPUs (0 for NULL). */
PK_API size_t pk_cpu_map__nr(const struct pk_cpu_map *map);
/* The idx-th CPU in ascending order, -1 when idx >= nr. */
PK_API int pk_cpu_map__cpu(const struct pk_cpu_map *map, size_t idx);
/* Position of cpu in the map, -1 when absent. */
PK_API int pk_cpu_map__idx(const struct pk_cpu_map *map, int cpu);
PK_API bool pk_cpu_map__has(const struct pk_cpu_map *map, int cpu);
PK_API bool pk_cpu_map__equal(const struct pk_cpu_map *a, const struct pk_cpu_map *b);
/* Is every CPU of sub in map? (true for an empty sub) */
PK_API bool pk_cpu_map__is_subset(const struct pk_cpu_map *map, const struct pk_cpu_map *sub);

/* CPUs in both (possibly empty). 0 or -ENOMEM. */
PK_API int pk_cpu_map__intersect(const struct pk_cpu_map *a, const struct pk_cpu_map *b,
				 struct pk_cpu_map **out);
/* CPUs in either. 0 or -ENOMEM. */
PK_API int pk_cpu_map__merge(const struct pk_cpu_map *a, const struct pk_cpu_map *b,
			     struct pk_cpu_map **out);

/*
 * The map in list form, runs of two or more consecutive CPUs as ranges, as
 * the kernel prints them ("0-3,5,8-9"; "" for an empty map), snprintf-style:
 * returns the length the whole text needs; buf (len > 0) is always terminated.
 */
PK_API size_t pk_cpu_map__format(const struct pk_cpu_map *map, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
