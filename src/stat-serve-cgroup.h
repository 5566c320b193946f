/* SPDX-License-Identifier: MIT */
/*
 * stat-serve-cgroup.h — perf stat's -G/--cgroup LIST (and --for-each-cgroup's
 * expansion), for `stat` (its
 * cgroup column) and `stat --serve` (a label): the cgroup each event is
 * counted in (stat-serve-cgroup.c).
 */
#ifndef PMUKIT_STAT_SERVE_CGROUP_H
#define PMUKIT_STAT_SERVE_CGROUP_H

#include <stddef.h>

struct serve_cgroups {
	size_t nr;		/* events */
	int *fd;		/* [event]: the cgroup directory, or -1 (all tasks) */
	const char **name;	/* [event]: as given, or NULL */
	char *list;		/* the names' storage */
};

/*
 * LIST for nr events, as perf: names separated by ',', the i-th for the
 * i-th event, an empty name for none, one name for every event of the
 * first nr_named (those defined before -G); each opened under the
 * perf_event cgroup mount (cgroup v1's perf_event hierarchy, else
 * cgroup2). Errors on stderr; 0 or -1.
 */
int serve_cgroups__open(struct serve_cgroups *cg, const char *list, size_t nr, size_t nr_named);
void serve_cgroups__close(struct serve_cgroups *cg);
/*
 * perf's check of -G LIST while it parses: each name opened as MOUNT/NAME
 * (the name as typed), "no access to cgroup PATH" on stderr for the first
 * that cannot be; silently -1 without a mount. 0 or -1.
 */
int serve_cgroups__check(const char *list);
/*
 * perf's --for-each-cgroup LIST: the cgroups to expand the events for, as a
 * comma list in *out (malloc'd) and their number in *nr. Without a regular
 * expression character, LIST's names in their order, each once (an empty
 * one: "/"), each checked as serve_cgroups__check does; with one, every
 * directory of the perf_event cgroup mount (its walk's order) whose path
 * below the mount matches one of LIST's expressions (an empty one: the
 * mount itself). Errors on stderr as perf's; 0 or -1.
 */
int serve_cgroups__expand(const char *list, char **out, size_t *nr);

#endif
