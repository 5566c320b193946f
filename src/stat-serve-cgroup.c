// SPDX-License-Identifier: MIT
/*
 * stat-serve-cgroup.c — -G/--cgroup for `stat` and `stat --serve`: the perf_event
 * cgroup mount (as perf finds it: a cgroup v1 hierarchy with the perf_event
 * controller, else the cgroup2 mount), and each event's cgroup directory
 * opened there, for pk_count_opts.cgroups.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat-serve-cgroup.h"

/* the mount point into buf; 0 or -1 */
static int perf_event_mount(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[4096], v2[PATH_MAX] = "";

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char dev[256], mnt[PATH_MAX], type[64], opts[1024];
		if (sscanf(line, "%255s %4095s %63s %1023s", dev, mnt, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup2") && !*v2)
			snprintf(v2, sizeof(v2), "%s", mnt);
		if (strcmp(type, "cgroup"))
			continue;
		for (char *tok = strtok(opts, ","); tok; tok = strtok(NULL, ","))
			if (!strcmp(tok, "perf_event")) {
				fclose(f);
				snprintf(buf, len, "%s", mnt);
				return 0;
			}
	}
	fclose(f);
	if (!*v2)
		return -1;
	snprintf(buf, len, "%s", v2);
	return 0;
}

int serve_cgroups__open(struct serve_cgroups *cg, const char *list, size_t nr, size_t nr_named)
{
	char mnt[PATH_MAX];
	size_t items = 1;

	memset(cg, 0, sizeof(*cg));
	cg->nr = nr;
	cg->fd = malloc((nr ? nr : 1) * sizeof(*cg->fd));
	cg->name = calloc(nr ? nr : 1, sizeof(*cg->name));
	cg->list = strdup(list);
	if (!cg->fd || !cg->name || !cg->list) {
		fprintf(stderr, "pmukit stat: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < nr; i++)
		cg->fd[i] = -1;
	for (const char *p = list; (p = strchr(p, ',')); p++)
		items++;
	if (nr_named > nr)
		nr_named = nr;
	if (items > nr_named) {
		fprintf(stderr, "pmukit stat: -G %s: more cgroups than events (%zu)\n", list, nr_named);
		return -1;
	}
	if (perf_event_mount(mnt, sizeof(mnt))) {
		fprintf(stderr, "pmukit stat: -G: no cgroup mount with the perf_event controller\n");
		return -1;
	}
	char *s = cg->list;
	for (size_t i = 0; i < items; i++) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = 0;
		if (*s) {
			char path[PATH_MAX + 256];
			snprintf(path, sizeof(path), "%s/%s", mnt, *s == '/' ? s + 1 : s);
			int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0) {
				fprintf(stderr, "pmukit stat: -G %s: cannot open %s: %s\n", s, path,
					strerror(errno));
				return -1;
			}
			cg->fd[i] = fd;
			cg->name[i] = s;
		}
		s = comma ? comma + 1 : s;
	}
	/* perf: one cgroup is every event's */
	for (size_t i = 1; items == 1 && i < nr_named; i++) {
		cg->name[i] = cg->name[0];
		cg->fd[i] = cg->fd[0];
	}
	return 0;
}

int serve_cgroups__check(const char *list)
{
	char mnt[PATH_MAX], path[PATH_MAX + 256];
	for (const char *s = list; ; s++) {
		size_t n = strcspn(s, ",");
		if (n) {
			if (perf_event_mount(mnt, sizeof(mnt)))
				return -1;
			snprintf(path, sizeof(path), "%s/%.*s", mnt, (int)n, s);
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				fprintf(stderr, "no access to cgroup %s\n", path);
				return -1;
			}
			close(fd);
		}
		s += n;
		if (!*s)
			return 0;
	}
}

void serve_cgroups__close(struct serve_cgroups *cg)
{
	for (size_t i = 0; cg->fd && i < cg->nr; i++)
		if (cg->fd[i] >= 0 && (i == 0 || cg->fd[i] != cg->fd[0]))
			close(cg->fd[i]);
	free(cg->fd);
	free(cg->name);
	free(cg->list);
	memset(cg, 0, sizeof(*cg));
}
